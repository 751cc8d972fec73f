"""Nero with a hidden deck: the cost over loopback TCP; prints JSON.

One process runs a host and four random bots (ordinary clients over loopback TCP,
decisions seeded by seat), at a fair table with hidden decks (every seat masks,
shuffles and deals the 55 cards at each Game Turn; host/fairdecks.py) and, for
comparison, at a fair table where the host deals (the same Nero option
``hidden_deck``, so the same rules and actions; only the dealer differs). The modes
alternate, game by game. Measured per game, medians over the games of each mode:

- ``wall_s``, ``cpu_s`` (the process's CPU time: host and bots share one process, so
  it is the work of all five parties), actions, time per action;
- ``messages``: for every message type, how many and their bytes (frames as encoded,
  each counted once, by its sender: both directions);
- ``deal``: the hidden deal's messages only (``deck_*``) in all, and ``round_trips``:
  the host's ``deck_request``s by kind (each a round trip to one seat; those of one
  step to several seats at once overlap);
- ``cpu``: CPU seconds inside the masking (rbcl), the Ed25519 signatures (sign,
  verify, with the key and R checks), msgpack (encode, decode) and the journal
  (sqlite), the rest being the game, the bots and the event loop; a wall time above
  the CPU time is waiting (this one process is never idle otherwise);
  ``crypto_calls``: how many calls of each (rbcl by function, signatures: sign and
  verify together), which the load does not change;
- for hidden decks, the deal records journalled (passes, unlock steps, keys).

``ratio`` is the hidden-deck game's median wall time over the host-deals one, and
``cpu_ratio`` its CPU time; game lengths vary (some 590 to 820 actions), so
``cpu_ratio_per_action`` (median CPU per action, hidden decks over host deals) and
``ratio_per_action`` (the same of wall time) are the fairer figures.

Usage: python bench/nero_hidden.py [--games N] [--short]
"""

from __future__ import annotations

import collections
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.host.journal import Journal  # noqa: E402
from lantable.plugins import load_registry  # noqa: E402
from lantable.protocol import _connection, _frames  # noqa: E402
from lantable.protocol import fairplay as fp  # noqa: E402
from lantable.protocol import hidden_deck as hd  # noqa: E402
from tests.fairplay.hiddengames import play_hidden  # noqa: E402 - the TCP harness


class Meter:
    """Counts messages and bytes by type, and CPU seconds in a few named calls, by
    wrapping them for the run (one process: every party's calls)."""

    def __init__(self) -> None:
        self.count: collections.Counter[str] = collections.Counter()
        self.bytes: collections.Counter[str] = collections.Counter()
        self.requests: collections.Counter[str] = collections.Counter()
        self.cpu: collections.Counter[str] = collections.Counter()
        self.calls: collections.Counter[str] = collections.Counter()
        self._undo: list[tuple[Any, str, Any]] = []

    def _patch(self, owner: Any, name: str, new: Callable[[Any], Any]) -> None:
        old = getattr(owner, name)
        self._undo.append((owner, name, old))
        setattr(owner, name, new(old))

    def _timed(self, what: str, name: str = "") -> Callable[[Any], Any]:
        def wrap(old: Any) -> Any:
            def timed(*args: Any, **kwargs: Any) -> Any:
                self.calls[name or what] += 1
                t0 = time.process_time()
                try:
                    return old(*args, **kwargs)
                finally:
                    self.cpu[what] += time.process_time() - t0
            return timed
        return wrap

    def __enter__(self) -> Meter:
        def send(old: Any) -> Any:
            def counted(conn: Any, msg: Any) -> bytes:
                data: bytes = old(conn, msg)
                self.count[msg.t] += 1
                self.bytes[msg.t] += len(data)
                if msg.t == "deck_request":
                    self.requests[msg.kind] += 1
                return data
            return counted

        def send_update(old: Any) -> Any:
            def counted(conn: Any, *args: Any, **kwargs: Any) -> bytes:
                data: bytes = old(conn, *args, **kwargs)
                self.count["update"] += 1
                self.bytes["update"] += len(data)
                return data
            return counted

        self._patch(_connection.Connection, "send", send)
        self._patch(_connection.Connection, "send_update", send_update)
        for name in ("scalarmult_ristretto255", "core_ristretto255_scalar_invert",
                     "core_ristretto255_scalar_mul", "core_ristretto255_is_valid_point",
                     "core_ristretto255_from_hash"):
            name = f"crypto_{name}"
            self._patch(hd.rbcl, name, self._timed("masking (rbcl)", name[len("crypto_"):]))
        self._patch(fp, "verify_signature", self._timed("signatures"))
        self._patch(fp.Identity, "sign", self._timed("signatures"))
        self._patch(_frames, "decode_body", self._timed("msgpack"))
        self._patch(_frames, "encode_frame", self._timed("msgpack"))
        self._patch(_connection, "encode_frame", self._timed("msgpack"))
        self._patch(_connection, "decode_body", self._timed("msgpack"))
        self._patch(Journal, "fair_append", self._timed("journal"))
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, name, old in reversed(self._undo):
            setattr(owner, name, old)


def one(registry: Any, hidden: bool, options: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "journal.sqlite")
        with Meter() as meter:
            t0, c0 = time.perf_counter(), time.process_time()
            game = trio.run(lambda: play_hidden(db, 4, options=options, registry=registry,
                                                game="nero", fair={"hidden_decks": hidden},
                                                limit=1800))
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        journal = Journal(db)
        try:
            actions = len(journal.actions(game.table))
            kinds: dict[str, int] = {}
            for r in journal.fair_records(game.table):
                kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
        finally:
            journal.close()
    deal = [t for t in meter.count if t.startswith("deck_")]
    return {"wall_s": wall, "cpu_s": cpu, "actions": actions,
            "ms_per_action": 1000 * wall / actions,
            "cpu_ms_per_action": 1000 * cpu / actions,
            "deal_bytes": sum(meter.bytes[t] for t in deal),
            "deal_messages": sum(meter.count[t] for t in deal),
            "messages": {t: {"count": meter.count[t], "bytes": meter.bytes[t]}
                         for t in sorted(meter.count, key=lambda t: -meter.bytes[t])},
            "round_trips": dict(meter.requests),
            "cpu": {k: round(v, 3) for k, v in sorted(meter.cpu.items())},
            "crypto_calls": dict(sorted(meter.calls.items())),
            "records": {k: v for k, v in kinds.items() if k.startswith(("deck_", "opened"))}}


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per mode")
    parser.add_argument("--short", action="store_true", help="the short game (6 cards)")
    args = parser.parse_args()
    registry = load_registry(autoload=True)
    options = {"hidden_deck": True, "short_game": args.short}
    out: dict[str, Any] = {"game": "nero", "seats": 4, "options": options,
                           "load_before": os.getloadavg()[0]}
    runs: dict[str, list[dict[str, Any]]] = {"host_deals": [], "hidden_decks": []}
    for _ in range(args.games):  # alternate the modes: the shared machine's load drifts
        for mode, hidden in (("host_deals", False), ("hidden_decks", True)):
            runs[mode].append(one(registry, hidden, options))
    for mode, rows in runs.items():
        out[mode] = {k: statistics.median(r[k] for r in rows)
                     for k in ("wall_s", "cpu_s", "actions", "ms_per_action",
                               "cpu_ms_per_action", "deal_bytes", "deal_messages")}
        middle = sorted(rows, key=lambda r: r["wall_s"])[len(rows) // 2]
        out[mode].update({k: middle[k] for k in ("messages", "round_trips", "cpu", "crypto_calls",
                                                 "records")})
        out[mode]["walls"] = [round(r["wall_s"], 3) for r in rows]
    out["ratio"] = out["hidden_decks"]["wall_s"] / out["host_deals"]["wall_s"]
    out["cpu_ratio"] = out["hidden_decks"]["cpu_s"] / out["host_deals"]["cpu_s"]
    out["ratio_per_action"] = (out["hidden_decks"]["ms_per_action"]
                               / out["host_deals"]["ms_per_action"])
    out["cpu_ratio_per_action"] = (out["hidden_decks"]["cpu_ms_per_action"]
                                   / out["host_deals"]["cpu_ms_per_action"])
    out["load_after"] = os.getloadavg()[0]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
