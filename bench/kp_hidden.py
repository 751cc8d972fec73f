"""Kaiser's Pirates with a hidden Action deck: the cost over loopback TCP; prints JSON.

One process runs a host and random bots (ordinary clients over loopback TCP, decisions
seeded by seat), at a fair table with hidden decks (every seat masks, shuffles and
deals the Action deck each round; host/fairdecks.py) and, for comparison, at a fair
table where the host deals (the same option ``hidden_deck``, so the same rules; only
the dealer differs). The modes alternate, game by game. Measured per game, medians over
the games of each mode: wall time and process CPU time (host and bots together),
actions, CPU per action, and for hidden decks the deal records journalled.

Usage: python bench/kp_hidden.py [--games N] [--seats S]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.host.journal import Journal  # noqa: E402
from lantable.plugins import load_registry  # noqa: E402
from tests.fairplay.hiddengames import play_hidden  # noqa: E402 - the TCP harness


def one(registry: Any, seats: int, hidden: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "journal.sqlite")
        t0, c0 = time.perf_counter(), time.process_time()
        game = trio.run(lambda: play_hidden(db, seats, options={"hidden_deck": True},
                                            registry=registry, game="kaisers-pirates",
                                            fair={"hidden_decks": hidden}, limit=1800))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        journal = Journal(db)
        try:
            actions = len(journal.actions(game.table))
            kinds: dict[str, int] = {}
            for r in journal.fair_records(game.table):
                kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
        finally:
            journal.close()
    return {"wall_s": wall, "cpu_s": cpu, "actions": actions,
            "cpu_ms_per_action": 1000 * cpu / actions,
            "records": {k: v for k, v in kinds.items()
                        if k.startswith(("deck_", "opened", "sealed"))}}


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per mode")
    parser.add_argument("--seats", type=int, default=3, help="seats (2-4)")
    args = parser.parse_args()
    registry = load_registry(autoload=True)
    out: dict[str, Any] = {"game": "kaisers-pirates", "seats": args.seats}
    runs: dict[str, list[dict[str, Any]]] = {"host_deals": [], "hidden_decks": []}
    for _ in range(args.games):
        for mode, hidden in (("host_deals", False), ("hidden_decks", True)):
            runs[mode].append(one(registry, args.seats, hidden))
    for mode, rs in runs.items():
        out[mode] = {k: round(statistics.median(r[k] for r in rs), 2)
                     for k in ("wall_s", "cpu_s", "actions", "cpu_ms_per_action")}
        out[mode]["records"] = rs[len(rs) // 2]["records"]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
