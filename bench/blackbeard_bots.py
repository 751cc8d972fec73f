"""Blackbeard bot strength: ``mcts`` (seat 0) against three ``random`` bots; prints JSON.

The issue's bar is a win share of at least 0.6 over 200 seeded 4-seat games at the
default mcts budget (0.1 s per decision, about 10 minutes on one idle core). Ties for
first place count as a share, as in ``lantable simulate``.

Usage: python bench/blackbeard_bots.py [--games 200] [--budget 0.1] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import math
import os

from lantable.clients.selfplay import simulate
from lantable.plugins import load_registry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.1, help="mcts seconds per decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strategy", default="mcts", help="the strategy at seat 0")
    args = parser.parse_args()
    game = load_registry().games["blackbeard"]
    strategies = [args.strategy, "random", "random", "random"]
    opts = {"time_budget": args.budget} if args.strategy == "mcts" else {}
    result = simulate(game, games=args.games, players=4, strategies=strategies,
                      seed=args.seed, bot_options=opts)
    share = result.wins[0] / result.games
    half = 1.96 * math.sqrt(share * (1 - share) / result.games)
    print(json.dumps({"bench": "blackbeard_bots", "cpus": os.cpu_count(),
                      "strategies": strategies, "budget": args.budget, "games": result.games,
                      "seed": args.seed, "win_share": [round(w / result.games, 3)
                                                       for w in result.wins],
                      "seat0_95ci": [round(share - half, 3), round(share + half, 3)],
                      "seconds": round(result.seconds, 1)}, indent=2))


if __name__ == "__main__":
    main()
