"""A seat's side of fair play: its key, its hash chains, its answers and its checks.

Every client takes part on its own (:class:`~lantable.clients.client.Client` hands
each ``fair_request`` here): it commits to a fresh chain per table and seat, reveals
the link the host asks for, signed with the seat's long-lived key, and checks every
``fair_event`` the host sends against the commitments (docs/protocol.md, "Fair
play"). Keys and chain secrets live in the client's data directory, so a restarted
bot or player carries on revealing.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lantable.protocol import Commit, FairEvent, FairFault, FairRequest, Reveal
from lantable.protocol import fairplay as fp

from . import tokens

LOGGER = logging.getLogger(__name__)

KEY_FILE = "identity.ed25519"


def data_dir() -> Path:
    """Where lantable keeps a client's key and chains: ``$LANTABLE_HOME`` if set (the
    tests set it), else the user's data directory (:func:`.tokens.data_dir`)."""
    if os.environ.get("LANTABLE_HOME"):
        return Path(os.environ["LANTABLE_HOME"])
    return tokens.data_dir()


def _write_private(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


_loaded: dict[Path, fp.Identity] = {}


def load_identity(directory: Path | None = None) -> fp.Identity:
    """This user's long-lived key, created (readable by the owner only) on first use."""
    path = (directory or data_dir()) / KEY_FILE
    if path in _loaded:
        return _loaded[path]
    if path.exists():
        identity = fp.Identity.from_bytes(path.read_bytes())
    else:
        identity = fp.Identity()
        _write_private(path, identity.private_bytes())
        LOGGER.info("created a fair-play key in %s", path)
    _loaded[path] = identity
    return identity


class FairSeats:
    """The fair-play state of one client connection: its chains, by (table, seat), and
    what it has seen of each fair table.

    Args:
        identity: the key that signs; ``store``: a directory for chain secrets (None:
            keep them in memory only, e.g. for bots in tests).
    """

    def __init__(self, identity: fp.Identity, store: Path | None = None) -> None:
        self.identity = identity
        self.store = store
        self._chains: dict[tuple[str, int], fp.HashChain] = {}
        self._commits: dict[str, dict[int, dict[str, Any]]] = {}
        self._last: dict[tuple[str, int], tuple[int, str]] = {}
        self.problems: list[str] = []  # what the host sent that did not check
        self.faults: list[FairFault] = []  # seats named for withholding or bad reveals
        self.events: dict[str, int] = {}  # table -> last settled event seen
        # Told, in a sentence for people, of every fault and every event that fails.
        self.on_notice: Callable[[str], None] | None = None

    # -- answering the host --------------------------------------------------------

    def answer(self, req: FairRequest) -> tuple[type, dict[str, Any]] | None:
        """The request (class and fields, without ``id``) that answers ``req``, or None
        when this client cannot (a reveal for a chain it does not have)."""
        key = (req.table, req.seat)
        if req.kind == "commit":
            length = req.length or fp.DEFAULT_CHAIN_LENGTH
            if not 1 <= length <= fp.MAX_CHAIN_LENGTH:
                LOGGER.error("table %s: the host asks for a chain of %d links; this client "
                             "commits to 1..%d", req.table, length, fp.MAX_CHAIN_LENGTH)
                return None
            chain = fp.HashChain(length=length)
            self._chains[key] = chain
            self._save(key, chain)
            sig = self.identity.sign("commit", *fp.commit_fields(
                req.table, req.seat, self.identity.public, chain.tip, chain.length))
            return Commit, {"table": req.table, "seat": req.seat, "tip": chain.tip,
                            "length": chain.length, "sig": sig}
        if req.kind == "reveal" and req.event is not None and req.digest is not None:
            held = self._chains.get(key) or self._load(key)
            if held is None:
                LOGGER.warning("table %s seat %d: asked to reveal event %d, but this client "
                               "has no chain for that seat", req.table, req.seat, req.event)
                return None
            try:
                link = held.link(req.event)
            except fp.FairPlayError as exc:
                LOGGER.error("table %s seat %d: cannot reveal: %s (the table asked for chains "
                             "of %d links)", req.table, req.seat, exc, held.length)
                return None
            sig = self.identity.sign("reveal", *fp.reveal_fields(
                req.table, req.seat, req.event, link, req.digest))
            return Reveal, {"table": req.table, "seat": req.seat, "event": req.event,
                            "link": link, "sig": sig}
        LOGGER.warning("table %s: a fair_request this client does not understand: %s",
                       req.table, req.kind)
        return None

    def sign_action(self, table: str, seat: int | None, base: int,
                    action: dict[str, Any]) -> tuple[int, str] | None:
        """``(base, sig)`` for an action at a fair table where this connection holds
        ``seat`` (None: its only seat there); None at a table that does not play fair."""
        seats = [s for (t, s) in self._chains if t == table]
        if seat is None:
            if len(seats) != 1:
                return None
            (seat,) = seats
        if (table, seat) not in self._chains and self._load((table, seat)) is None:
            return None
        return base, self.identity.sign("act", *fp.act_fields(table, seat, base, action))

    def _path(self, key: tuple[str, int]) -> Path | None:
        if self.store is None:
            return None
        return self.store / "chains" / f"{key[0]}-{key[1]}.json"

    def _save(self, key: tuple[str, int], chain: fp.HashChain) -> None:
        path = self._path(key)
        if path is not None:
            _write_private(path, json.dumps({"secret": chain.secret.hex(),
                                             "length": chain.length}).encode())

    def _load(self, key: tuple[str, int]) -> fp.HashChain | None:
        path = self._path(key)
        if path is None or not path.exists():
            return None
        saved = json.loads(path.read_text())
        chain = fp.HashChain(bytes.fromhex(saved["secret"]), saved["length"])
        self._chains[key] = chain
        return chain

    def resumed(self, table: str, seat: int) -> None:
        """A seat taken back with its token: load its chain, if this user has it, so
        that its actions are signed before the host asks for anything."""
        if (table, seat) not in self._chains:
            self._load((table, seat))

    # -- checking the host --------------------------------------------------------------

    def check(self, ev: FairEvent) -> list[str]:
        """Check a settled event: signatures, links and seed. Returns (and keeps in
        :attr:`problems`) what did not check, each naming the event and the seat."""
        found = []
        if ev.commits is not None:
            self._commits[ev.table] = {c["seat"]: c for c in ev.commits}
            for c in ev.commits:
                try:
                    fp.verify_signature(c["key"], c["sig"], "commit", *fp.commit_fields(
                        ev.table, c["seat"], c["key"], c["tip"], c["length"]))
                    self._last[(ev.table, c["seat"])] = (0, c["tip"])
                except (fp.FairPlayError, ValueError, KeyError) as exc:
                    found.append(f"event {ev.event}: seat {c.get('seat')}'s commitment: {exc}")
        known = self._commits.get(ev.table)
        if known is None:
            return found  # joined after event 1: nothing to check against
        for r in ev.reveals:
            seat = r.get("seat")
            try:
                if not isinstance(seat, int):
                    raise ValueError(f"a reveal names no seat ({seat!r})")
                fp.verify_signature(known[seat]["key"], r["sig"], "reveal",
                                    *fp.reveal_fields(ev.table, seat, ev.event, r["link"],
                                                      ev.digest))
                last_event, last_link = self._last[(ev.table, seat)]
                fp.check_link(r["link"], ev.event, last_link, last_event)
                self._last[(ev.table, seat)] = (ev.event, r["link"])
            except (fp.FairPlayError, ValueError, KeyError) as exc:
                found.append(f"event {ev.event}: seat {seat}'s reveal: {exc}")
        try:
            links = [(int(r["seat"]), str(r["link"])) for r in ev.reveals]
            seed = fp.event_seed(ev.table, ev.event, ev.digest, links, ev.fallback)
        except (KeyError, TypeError, ValueError):
            seed = None  # a malformed reveal, named above
        if seed != ev.seed:
            found.append(f"event {ev.event}: the seed is not the one its reveals give")
        self.events[ev.table] = ev.event
        for problem in found:
            LOGGER.error("table %s: the host sent a fair-play event that does not check: %s",
                         ev.table, problem)
            self._notice(f"the host sent a random event that does not check: {problem}")
        self.problems += found
        return found

    def fault(self, msg: FairFault) -> None:
        self.faults.append(msg)
        LOGGER.warning("table %s: %s", msg.table, msg.message)
        self._notice(msg.message)

    def _notice(self, text: str) -> None:
        if self.on_notice is not None:
            self.on_notice(text)

    def summary(self, table: str) -> str | None:
        """One sentence on what this client checked at ``table`` (None: not fair)."""
        if table not in self.events:
            return None
        bad = [p for p in self.problems if p.startswith("event ")]
        if bad:
            return (f"fair play: {len(bad)} problem(s) in the random events; the first: "
                    f"{bad[0]}")
        return (f"fair play: all {self.events[table]} random events check (every seat's "
                f"signature, link and seed); `lantable verify` on the host's journal checks "
                f"the rolls and the result")
