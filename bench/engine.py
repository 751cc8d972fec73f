"""Engine benchmark: random self-play throughput of every installed game; prints JSON.

No network: the games are played in-process through the same ``Game`` facade the
host uses. Each configuration runs ``--runs`` times; the median is reported with
every run, since a shared machine is noisy.

Usage: python bench/engine.py [--games N] [--runs R] [--game ID ...]
"""

from __future__ import annotations

import json
import os
import statistics

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients.selfplay import simulate
from lantable.plugins import load_registry

# Seat counts measured per game (default: every count from min to max, capped at 5).
SEATS = {"manila": [3, 4, 5], "kaisers-pirates": [1, 2, 3, 4]}


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per run")
    parser.add_argument("--runs", type=int, default=3, help="runs; medians reported")
    parser.add_argument("--game", nargs="*", help="only these game ids")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args()
    registry = load_registry()
    report: dict = {"bench": "engine", "games_per_run": args.games, "runs": args.runs,
                    "cpus": os.cpu_count(), "results": []}
    for game_id, game in sorted(registry.games.items()):
        if args.game and game_id not in args.game:
            continue
        lo, hi = game.info["min_seats"], min(game.info["max_seats"], 5)
        for seats in SEATS.get(game_id, range(max(lo, 2) if hi >= 2 else lo, hi + 1)):
            runs = [simulate(game, games=args.games, players=seats, strategies=["random"],
                             seed=args.seed + r).report(game, seats, ["random"], args.seed + r)
                    for r in range(args.runs)]
            report["results"].append({
                "game": game_id,
                "seats": seats,
                "games_per_s": statistics.median(r["games_per_s"] for r in runs),
                "actions_per_s": statistics.median(r["actions_per_s"] for r in runs),
                "mean_length": statistics.median(r["mean_length"] for r in runs),
                "runs_games_per_s": [r["games_per_s"] for r in runs],
            })
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
