"""Nero with a hidden deck: the cost over loopback TCP; prints JSON.

One process runs a host and four random bots (ordinary clients over loopback TCP,
decisions seeded by seat), at a fair table with hidden decks (every seat masks,
shuffles and deals the 55 cards at each Game Turn; host/fairdecks.py) and, for
comparison, at a fair table where the host deals (the same Nero option
``hidden_deck``, so the same rules and actions; only the dealer differs). Measured
per game, medians over the games of each mode: wall time, actions, time per action,
and for hidden decks the deal records journalled (passes, unlock steps, keys).

Usage: python bench/nero_hidden.py [--games N] [--short]
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


def one(registry: Any, hidden: bool, options: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "journal.sqlite")
        t0 = time.perf_counter()
        game = trio.run(lambda: play_hidden(db, 4, options=options, registry=registry,
                                            game="nero", fair={"hidden_decks": hidden},
                                            limit=1800))
        wall = time.perf_counter() - t0
        journal = Journal(db)
        try:
            actions = len(journal.actions(game.table))
            kinds: dict[str, int] = {}
            for r in journal.fair_records(game.table):
                kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
        finally:
            journal.close()
    return {"wall_s": wall, "actions": actions, "ms_per_action": 1000 * wall / actions,
            "records": {k: v for k, v in kinds.items() if k.startswith(("deck_", "opened"))}}


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per mode")
    parser.add_argument("--short", action="store_true", help="the short game (6 cards)")
    args = parser.parse_args()
    registry = load_registry(autoload=True)
    options = {"hidden_deck": True, "short_game": args.short}
    out: dict[str, Any] = {"game": "nero", "seats": 4, "options": options}
    for mode, hidden in (("host_deals", False), ("hidden_decks", True)):
        runs = [one(registry, hidden, options) for _ in range(args.games)]
        out[mode] = {k: statistics.median(r[k] for r in runs)
                     for k in ("wall_s", "actions", "ms_per_action")}
        out[mode]["records"] = runs[len(runs) // 2]["records"]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
