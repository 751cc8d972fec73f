"""The host's side of fair play: commit-reveal events feeding the game's ``rng``.

A fair table (``create`` with ``fair``) draws no randomness of its own. Each seat
commits to a secret hash chain when it sits down; a **random event** is one game
call that draws (the set-up, or an action whose ``game_apply`` touches ``rng``).
The host finds out whether an action draws by applying it to a copy of the state
with a :class:`FairRandom` that has no stream: the first draw raises
:class:`NeedRandomness`. Then the action is journalled as pending, acknowledged,
and every seat is asked for its next link; when all links are in (each checked
against the seat's previous link and signature), the event's seed is derived and
the action is applied for real with ``FairRandom(seed)``. The game API does not
change: the game draws from the ``rng`` it is given (docs/decisions.md). Every action
is signed by its seat, and the signature journalled.

After a few seconds of waiting the table says whom it waits for; a seat that does not
reveal within the table's ``timeout`` is named to everyone;
``on_withhold`` says what happens: ``forfeit`` ends the table with that seat last,
``host_rng`` settles the event with a host value mixed in (announced) and asks that
seat no more. Like :class:`~lantable.host.table.Table`, nothing here awaits; the
timeout is a small trio system task that calls back into the table.
"""

from __future__ import annotations

import logging
import math
import random
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import trio

from lantable.plugins import BadOptions, IllegalAction
from lantable.protocol import (
    Accepted,
    Error,
    ErrorCode,
    FairEvent,
    FairFault,
    FairRequest,
)
from lantable.protocol import fairplay as fp

from .fairdecks import HostDecks, Step

if TYPE_CHECKING:
    from lantable.plugins.decks import Requests

    from .link import ClientLink

# The table this serves (host/table.py's Table, which imports this module; named
# loosely so that the two modules do not import each other).
Table = Any

LOGGER = logging.getLogger(__name__)

FORFEIT: Final = "forfeit"
HOST_RNG: Final = "host_rng"
DEFAULT_TIMEOUT: Final = 60.0  # seconds a table waits for a reveal before naming who withheld
LATE_NOTICE: Final = 5.0  # seconds before the table says whom it waits for (at most timeout/2)


@dataclass(frozen=True, slots=True)
class FairConfig:
    """A fair table's options (the ``fair`` map of ``create``)."""

    timeout: float = DEFAULT_TIMEOUT
    on_withhold: str = FORFEIT
    length: int = fp.DEFAULT_CHAIN_LENGTH
    live: bool = False  # send each event's links and seed at once, not when the table ends
    hidden_decks: bool = False  # the seats deal the game's hidden decks (host/fairdecks.py)

    @classmethod
    def from_map(cls, given: dict[str, Any]) -> FairConfig:
        """Raises BadOptions for an unknown key or a bad value."""
        unknown = sorted(set(given) - {"timeout", "on_withhold", "length", "live",
                                        "hidden_decks"})
        if unknown:
            raise BadOptions(f"fair: unknown option(s) {unknown}; "
                             "known: hidden_decks, length, live, on_withhold, timeout")
        timeout = given.get("timeout", DEFAULT_TIMEOUT)
        if type(timeout) not in (int, float) or not 0 < timeout <= 86400:
            raise BadOptions(f"fair: timeout={timeout!r}, expected seconds in (0, 86400]")
        on_withhold = given.get("on_withhold", FORFEIT)
        if on_withhold not in (FORFEIT, HOST_RNG):
            raise BadOptions(f"fair: on_withhold={on_withhold!r}, "
                             f"expected {FORFEIT!r} or {HOST_RNG!r}")
        length = given.get("length", fp.DEFAULT_CHAIN_LENGTH)
        if type(length) is not int or not 1 <= length <= fp.MAX_CHAIN_LENGTH:
            raise BadOptions(f"fair: length={length!r}, expected 1..{fp.MAX_CHAIN_LENGTH}")
        live = given.get("live", False)
        if type(live) is not bool:
            raise BadOptions(f"fair: live={live!r}, expected true or false")
        hidden = given.get("hidden_decks", False)
        if type(hidden) is not bool:
            raise BadOptions(f"fair: hidden_decks={hidden!r}, expected true or false")
        return cls(float(timeout), on_withhold, length, live, hidden)

    def to_map(self) -> dict[str, Any]:
        out = {"timeout": self.timeout, "on_withhold": self.on_withhold, "length": self.length,
               "live": self.live}
        if self.hidden_decks:  # only when on: the transcript of other tables is unchanged
            out["hidden_decks"] = True
        return out


@dataclass(slots=True)
class Pending:
    """A random event waiting for reveals: the set-up (seq 0) or action ``seq``."""

    event: int
    seq: int
    seat: int | None
    action: dict[str, Any] | None
    digest: str
    reveals: dict[int, dict[str, Any]] = field(default_factory=dict)
    signed: dict[str, Any] | None = None  # the action's signature record (kind "act")
    named: set[int] = field(default_factory=set)  # seats already named for a bad reveal
    deadline: float = math.inf
    cancel: trio.CancelScope | None = None


class FairTable:
    """Commitments, revealed links and the pending event of one fair table."""

    def __init__(self, table: Table, config: FairConfig) -> None:
        self.table = table
        self.config = config
        self.commits: dict[int, dict[str, Any]] = {}
        self.last: dict[int, tuple[int, str]] = {}  # seat -> (event, link) last revealed
        self.excluded: set[int] = set()  # seats no longer asked (withheld under host_rng)
        self.seeds: dict[int, str] = {}  # seq -> seed of the event that served it (0: set-up)
        self.acted: dict[int, int] = {}  # seat -> its last action's seq (signatures' floor)
        self.event = 0  # the last settled event
        self.transcript: str | None = None  # after the last applied action
        self.pending: Pending | None = None
        self.probe = fp.FairRandom()  # no stream: the first draw raises NeedRandomness
        self.decks: HostDecks | None = None
        if config.hidden_decks:
            sizes = table.game.decks(table.seats_n, table.options)
            if not sizes:
                raise BadOptions(f"fair: hidden_decks: {table.game.id} has no hidden decks "
                                 "(only games that declare decks deal them at the table)")
            self.decks = HostDecks(self, sizes)

    def requests(self) -> Requests | None:
        """A fresh ``decks`` for a game call at a hidden-deck table (None elsewhere)."""
        return None if self.decks is None else self.decks.requests()

    def _waiting(self) -> Pending:
        """The pending event, for the steps that run only while one waits."""
        assert self.pending is not None
        return self.pending

    def _chained(self) -> str:
        """The transcript so far, for the steps that run only once the table started."""
        assert self.transcript is not None
        return self.transcript

    # -- creation and restoration ---------------------------------------------------

    @classmethod
    def restore(cls, table: Table, records: list[dict[str, Any]]) -> FairTable:
        """Rebuild from the journal's fair records (the first is the config)."""
        config = {k: v for k, v in records[0].items() if k != "kind"}
        fair = cls(table, FairConfig.from_map(config))
        for rec in records[1:]:
            kind = rec["kind"]
            if kind == "commit":
                fair.commits[rec["seat"]] = _commit_of(rec)
                fair.last[rec["seat"]] = (0, rec["tip"])
            elif kind == "uncommit":  # the seat was freed before the game began
                fair.commits.pop(rec["seat"], None)
                fair.last.pop(rec["seat"], None)
                if fair.pending is not None and fair.pending.seq == 0:
                    fair.pending = None  # that set-up event is held again
            elif kind == "pending":
                fair.pending = Pending(rec["event"], rec["seq"], rec["seat"], rec["action"],
                                       rec["digest"], signed=rec.get("signed"))
            elif kind == "event":
                fair._settled(rec)
            elif kind == "fault" and rec["reason"] == "withheld" and rec["outcome"] == HOST_RNG:
                fair.excluded.add(rec["seat"])
        if fair.decks is not None:
            fair.decks.restore(records)
        return fair

    def _settled(self, rec: dict[str, Any]) -> None:
        self.event = rec["event"]
        self.seeds[rec["seq"]] = rec["seed"]
        for r in rec["reveals"]:
            self.last[r["seat"]] = (rec["event"], r["link"])
        if self.pending is not None and self.pending.event == rec["event"]:
            self.pending = None

    @property
    def started(self) -> bool:
        return 0 in self.seeds

    def summary(self) -> dict[str, Any]:
        return self.config.to_map()

    # -- rngs for the table ---------------------------------------------------------

    def setup_rng(self) -> Any:
        """The set-up's rng: event 1's once settled; before that a throwaway one that
        only lets the table check its options at creation."""
        if not self.started:
            return random.Random(self.table.seed)
        self.transcript = self._start_transcript()
        return fp.FairRandom(self.seeds[0])

    def replay_rng(self, seq: int, seat: int, action: dict[str, Any]) -> fp.FairRandom:
        """The rng that served action ``seq`` (the probe if it drew nothing)."""
        self.transcript = fp.transcript_next(self._chained(), seq, seat, action)
        self.acted[seat] = seq
        seed = self.seeds.get(seq)
        return self.probe if seed is None else fp.FairRandom(seed)

    def _start_transcript(self) -> str:
        t = self.table
        return fp.transcript_start(t.id, t.game.id, t.game.info["version"], t.seats_n,
                                   t.options, self.config.to_map(),
                                   [self.commits[s] for s in sorted(self.commits)])

    # -- seats ------------------------------------------------------------------------

    def may_join(self, client: ClientLink, req_id: int) -> bool:
        if getattr(client, "key", None) is None:
            refused = getattr(client, "key_refused", None)
            client.send(Error(code=ErrorCode.NO_KEY, id=req_id, table=self.table.id,
                              message=f"this table plays fair and refused your key: {refused}"
                              if refused else
                              "this table plays fair: a seat needs a client that "
                              "signs (hello.key: `lantable play`, `lantable bot`, "
                              "the web app); you may still watch it"))
            return False
        if self.decks is not None and not getattr(client, "decks", False):
            client.send(Error(code=ErrorCode.NO_DECKS, id=req_id, table=self.table.id,
                              message="this table deals hidden cards: a seat needs a client "
                                      "that runs the game's own client half (`lantable play`, "
                                      "`lantable bot`, or the web app of a peer that serves "
                                      "the card engine); you may watch the table"))
            return False
        return True

    def seated(self, seat: int, client: ClientLink) -> None:
        """A seat was taken or resumed: ask it for what the table still needs from it."""
        if seat not in self.commits:
            client.send(FairRequest(table=self.table.id, seat=seat, kind="commit",
                                    length=self.config.length))
        elif self.pending is not None and self._asked(seat):
            client.send(FairRequest(table=self.table.id, seat=seat, kind="reveal",
                                    event=self.pending.event, digest=self.pending.digest))
        elif self.decks is not None:
            self.decks.seated(seat)

    def freed(self, seat: int) -> None:
        """A seat of a waiting table was freed: its commitment goes with it."""
        if seat in self.commits:
            del self.commits[seat]
            self.last.pop(seat, None)
            self.table.journal.fair_append(self.table.id, {"kind": "uncommit", "seat": seat})
        if self.pending is not None and self.pending.seq == 0:
            # The set-up event bound the old commitments: hold it again once all commit.
            if self.pending.cancel is not None:
                self.pending.cancel.cancel()
            self.pending = None

    def _asked(self, seat: int) -> bool:
        p = self.pending
        return p is not None and seat not in self.excluded and seat not in p.reveals

    def _seat_of(self, client: ClientLink, seat: int, req_id: int) -> bool:
        if seat not in client.seats.get(self.table.id, set()):
            client.send(Error(code=ErrorCode.NOT_SEATED, id=req_id, table=self.table.id,
                              message=f"this connection does not hold seat {seat}"))
            return False
        return True

    def _refuse(self, client: ClientLink, req_id: int, message: str) -> None:
        client.send(Error(code=ErrorCode.BAD_REVEAL, id=req_id, table=self.table.id,
                          message=message))

    def commit(self, client: ClientLink, req_id: int, seat: int, tip: str, length: int,
               sig: str) -> None:
        """A seat's commitment (``commit``): checked, journalled, then maybe the set-up."""
        t = self.table
        if not self._seat_of(client, seat, req_id):
            return
        if seat in self.commits:
            self._refuse(client, req_id, f"seat {seat} has already committed at this table")
            return
        key = client.key
        try:
            if key is None:  # a seat resumed on a connection whose hello had no key
                raise fp.FairPlayError("this connection's hello carried no public key")
            fp.unhex(tip, "tip")
            if length != self.config.length:
                raise fp.FairPlayError(f"this table asks for chains of {self.config.length} "
                                       f"links, got {length}")
            fp.verify_signature(key, sig, "commit", *fp.commit_fields(t.id, seat, key, tip,
                                                                        length))
        except (fp.FairPlayError, ValueError) as exc:
            self._refuse(client, req_id, f"commit of seat {seat}: {exc}")
            return
        rec = {"seat": seat, "key": key, "tip": tip, "length": length, "sig": sig}
        self.commits[seat] = rec
        self.last[seat] = (0, tip)
        t.journal.fair_append(t.id, {"kind": "commit", **rec})
        client.send(Accepted(id=req_id, table=t.id, seq=t.seq))
        LOGGER.info("table %s: seat %d committed", t.id, seat)
        self.maybe_start()

    def maybe_start(self) -> None:
        """Every seat taken and committed: hold event 1, the set-up."""
        t = self.table
        if self.started or self.pending is not None:
            return
        if not all(s.token for s in t.seats) or len(self.commits) < t.seats_n:
            return
        digest = fp.event_digest(self._start_transcript(), 1, 0, None, None)
        self._hold(Pending(1, 0, None, None, digest))

    # -- actions ----------------------------------------------------------------------

    def act(self, client: ClientLink, req_id: int, seat: int, action: dict[str, Any],
            base: int | None, sig: str | None) -> None:
        """Apply a signed action at a fair table, or hold it for a random event if it
        draws. The signature is journalled, so no one can alter the action later."""
        t = self.table
        if self.pending is not None:
            client.send(Error(code=ErrorCode.NOT_TO_ACT, id=req_id, table=t.id,
                              message=f"the table is waiting for reveals for event "
                                      f"{self.pending.event}"))
            return
        if self.decks is not None and self.decks.step is not None:
            owing = ", ".join(f"seat {s}" for s in self.decks.owing()) or "the seats"
            client.send(Error(code=ErrorCode.NOT_TO_ACT, id=req_id, table=t.id,
                              message=f"the table is dealing: waiting for {owing}"))
            return
        signed = self._signed(client, req_id, seat, action, base, sig)
        if signed is None:
            return
        trial = t.game.clone(t.state)
        decks = self.requests()
        try:
            if self.decks is not None:
                self.decks.check_claims(seat, action)
            events = t.g.apply(trial, seat, action, self.probe, decks)
        except IllegalAction as exc:
            client.send(Error(code=ErrorCode.ILLEGAL_ACTION, id=req_id, table=t.id,
                              message=str(exc)))
            return
        except fp.NeedRandomness:
            seq = t.seq + 1
            digest = fp.event_digest(self._chained(), self.event + 1, seq, seat, action)
            self._hold(Pending(self.event + 1, seq, seat, action, digest, signed=signed))
            client.send(Accepted(id=req_id, table=t.id, seq=seq))
            return
        if self.decks is not None and decks is not None:
            # Answered now: a deal may take a while, the action is fixed already.
            client.send(Accepted(id=req_id, table=t.id, seq=t.seq + 1))
            self.decks.begin(Step(t.seq + 1, seat, action, signed, None, trial, events,
                                  deque()), decks.take())
            return
        t.journal.fair_append(t.id, signed)
        t.state = trial
        self.adopted(t.seq + 1, seat, action)
        t.accept(seat, action, events, reply=(client, req_id))

    def adopted(self, seq: int, seat: int, action: dict[str, Any]) -> None:
        """Action ``seq`` is the table's now: chain it into the transcript."""
        self.transcript = fp.transcript_next(self._chained(), seq, seat, action)
        self.acted[seat] = seq

    def _signed(self, client: ClientLink, req_id: int, seat: int, action: dict[str, Any],
                base: int | None, sig: str | None) -> dict[str, Any] | None:
        """The action's signature record, or None (refused) if it does not check: the
        seat signs ``[table, seat, base, action]``, ``base`` being the last update it
        had seen, so the action cannot be moved before it or replayed elsewhere; and
        ``base`` is at least the seat's own last action (a seat decides on an update
        that shows it), so no signature can serve twice (issue 25, finding 9)."""
        t = self.table
        if sig is None or base is None:
            self._refuse(client, req_id, "this table plays fair: sign your action (act.base "
                                         "and act.sig, docs/protocol.md, 'Fair play')")
            return None
        try:
            if not 0 <= base <= t.seq:
                raise fp.FairPlayError(f"act.base {base} is not an update of this table "
                                       f"(0..{t.seq})")
            own = self.acted.get(seat, 0)
            if base < own:
                raise fp.FairPlayError(f"act.base {base} is before this seat's own last action "
                                       f"({own}); decide on an update that shows it, and sign "
                                       "that")
            fp.verify_signature(self.commits[seat]["key"], sig, "act",
                                *fp.act_fields(t.id, seat, base, action))
        except (fp.FairPlayError, ValueError) as exc:
            self._refuse(client, req_id, f"action of seat {seat}: {exc}")
            return None
        return {"kind": "act", "seq": t.seq + 1, "seat": seat, "base": base, "sig": sig}

    def _hold(self, pending: Pending) -> None:
        t = self.table
        self.pending = pending
        if pending.event > self.config.length:
            LOGGER.error("table %s: event %d is past the seats' chains of %d links: no seat can "
                         "reveal, so after the timeout the table applies on_withhold (%s)",
                         t.id, pending.event, self.config.length, self.config.on_withhold)
        t.journal.fair_append(t.id, {"kind": "pending", "event": pending.event,
                                     "seq": pending.seq, "seat": pending.seat,
                                     "action": pending.action, "digest": pending.digest,
                                     "signed": pending.signed})
        LOGGER.info("table %s: event %d (seq %d) waits for reveals", t.id, pending.event,
                    pending.seq)
        self._ask_all()
        self.arm_timer()

    def _ask_all(self) -> None:
        p = self._waiting()
        for seat, slot in enumerate(self.table.seats):
            if slot.client is not None and self._asked(seat):
                slot.client.send(FairRequest(table=self.table.id, seat=seat, kind="reveal",
                                             event=p.event, digest=p.digest))
        if not any(self._asked(s) for s in range(self.table.seats_n)):
            self._settle(withheld=[])

    def reveal(self, client: ClientLink, req_id: int, seat: int, event: int, link: str,
               sig: str) -> None:
        """A seat's link for the pending event (``reveal``)."""
        t = self.table
        if not self._seat_of(client, seat, req_id):
            return
        p = self.pending
        if p is None or p.event != event or not self._asked(seat):
            self._refuse(client, req_id, f"no reveal of event {event} is asked of seat {seat} now")
            return
        commit = self.commits[seat]
        last_event, last_link = self.last[seat]
        try:
            fp.verify_signature(commit["key"], sig, "reveal",
                                *fp.reveal_fields(t.id, seat, event, link, p.digest))
            fp.check_link(link, event, last_link, last_event)
        except (fp.FairPlayError, ValueError) as exc:
            if seat not in p.named:  # named (and journalled) once per event, however often
                p.named.add(seat)
                self._fault(seat, "bad_reveal", "waiting",
                            f"seat {seat} ({t.seats[seat].name}) sent a reveal for event "
                            f"{event} that does not check: {exc}",
                            evidence={"link": link, "sig": sig})
            self._refuse(client, req_id, f"reveal of event {event}: {exc}")
            return
        p.reveals[seat] = {"seat": seat, "link": link, "sig": sig}
        client.send(Accepted(id=req_id, table=t.id, seq=t.seq))
        if not any(self._asked(s) for s in range(t.seats_n)):
            self._settle(withheld=[])

    def _settle(self, withheld: list[int]) -> None:
        """Every asked seat revealed (or the rest withheld under host_rng): derive the
        seed, journal the event, tell the table, then run the game call it serves."""
        t, p = self.table, self._waiting()
        if p.cancel is not None:
            p.cancel.cancel()
        # The host's value, when some seat withheld or none is left to reveal (host_rng).
        fallback = secrets.token_hex(fp.HASH_SIZE) if withheld or not p.reveals else None
        reveals = [p.reveals[s] for s in sorted(p.reveals)]
        seed = fp.event_seed(t.id, p.event, p.digest,
                             [(r["seat"], r["link"]) for r in reveals], fallback)
        rec = {"kind": "event", "event": p.event, "seq": p.seq, "digest": p.digest,
               "seed": seed, "reveals": reveals, "withheld": withheld or None,
               "fallback": fallback}
        t.journal.fair_append(t.id, rec)
        self._settled(rec)
        if self.config.live:
            t.send_all(self._message(rec))
        LOGGER.info("table %s: event %d settled (seq %d)%s", t.id, p.event, p.seq,
                    f", seats {withheld} withheld" if withheld else "")
        if p.seq == 0:
            t.start()
            return
        assert p.seat is not None and p.action is not None and p.signed is not None
        rng = fp.FairRandom(seed)
        decks = self.requests()
        if self.decks is not None and decks is not None:
            trial = t.game.clone(t.state)
            events = t.g.apply(trial, p.seat, p.action, rng, decks)
            self.decks.begin(Step(p.seq, p.seat, p.action, p.signed, None, trial, events,
                                  deque()), decks.take())
            return
        t.journal.fair_append(t.id, p.signed)
        events = t.g.apply(t.state, p.seat, p.action, rng)
        self.adopted(p.seq, p.seat, p.action)
        t.accept(p.seat, p.action, events, reply=None)

    def _message(self, rec: dict[str, Any]) -> FairEvent:
        return FairEvent(table=self.table.id, event=rec["event"], seq=rec["seq"],
                         digest=rec["digest"], seed=rec["seed"], reveals=rec["reveals"],
                         withheld=rec["withheld"], fallback=rec["fallback"],
                         commits=[self.commits[s] for s in sorted(self.commits)]
                         if rec["event"] == 1 else None)

    def finished(self) -> None:
        """The table ended: unless ``live``, every event's links and seed go out now
        (during play they would let anyone compute hidden cards from the seeds)."""
        if self.decks is not None:
            self.decks.finished()
        if self.config.live:
            return
        t = self.table
        for rec in t.journal.fair_records(t.id):
            if rec["kind"] == "event":
                t.send_all(self._message(rec))

    # -- faults -----------------------------------------------------------------------

    def _fault(self, seat: int, reason: str, outcome: str, message: str,
               evidence: dict[str, Any] | None = None) -> None:
        t, p = self.table, self._waiting()
        t.journal.fair_append(t.id, {"kind": "fault", "event": p.event, "seat": seat,
                                     "reason": reason, "outcome": outcome, "message": message,
                                     **(evidence or {})})
        LOGGER.warning("table %s: %s", t.id, message)
        t.send_all(FairFault(table=t.id, event=p.event, seat=seat, reason=reason,
                             outcome=outcome, message=message))

    def arm_timer(self) -> None:
        """Start the reveal timeout of the pending event: a trio system task that calls
        :meth:`Table.handle_timeout` (outside trio, call :meth:`check_timeout`)."""
        p = self._waiting()
        p.deadline = time.monotonic() + self.config.timeout
        try:
            p.cancel = trio.CancelScope(deadline=trio.current_time() + self.config.timeout)
        except RuntimeError:
            return  # not in trio

        async def wait(scope: trio.CancelScope = p.cancel, pending: Pending = p) -> None:
            with scope:
                await trio.sleep(min(LATE_NOTICE, self.config.timeout / 2))
                if self.pending is pending:
                    self.table.handle_late()
                await trio.sleep_forever()
            if self.pending is pending and trio.current_time() >= scope.deadline:
                self.table.handle_timeout(pending.deadline)

        trio.lowlevel.spawn_system_task(wait, name=f"fairplay timeout {self.table.id}")

    def tell_late(self) -> None:
        """The table has waited a while: tell everyone who it waits for, and until when
        (people see the game stand still; this says why)."""
        p = self._waiting()
        t = self.table
        left = max(0, round(p.deadline - time.monotonic()))
        then = ("the table ends and that seat forfeits" if self.config.on_withhold == FORFEIT
                else "the event is drawn with the host's rng instead")
        for seat in range(t.seats_n):
            if self._asked(seat):
                t.send_all(FairFault(
                    table=t.id, event=p.event, seat=seat, reason="late", outcome="waiting",
                    message=f"waiting for seat {seat} ({t.seats[seat].name}) to reveal its link "
                            f"for event {p.event}; if it has not in {left} s, {then}"))

    def check_timeout(self, now: float | None = None) -> None:
        """Name every seat that has not revealed by the deadline, then apply the table's
        ``on_withhold``. Called by the timer task (through the table) or by tests."""
        p = self.pending
        now = time.monotonic() if now is None else now
        if p is None or now < p.deadline:
            return
        t = self.table
        missing = [s for s in range(t.seats_n) if self._asked(s)]
        outcome = self.config.on_withhold
        for seat in missing:
            what = ("the table ends and that seat forfeits" if outcome == FORFEIT else
                    "the event is drawn with the host's rng instead, and that seat is no "
                    "longer asked")
            self._fault(seat, "withheld", outcome,
                        f"seat {seat} ({t.seats[seat].name}) did not reveal its link for "
                        f"event {p.event} within {self.config.timeout:g} s: {what}")
        if outcome == HOST_RNG:
            self.excluded.update(missing)
            self._settle(withheld=missing)
        else:
            self.pending = None
            t.journal.fair_append(t.id, {"kind": "forfeit", "event": p.event, "seats": missing})
            t.forfeit(missing)


def _commit_of(rec: dict[str, Any]) -> dict[str, Any]:
    return {k: rec[k] for k in ("seat", "key", "tip", "length", "sig")}
