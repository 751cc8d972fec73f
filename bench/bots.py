"""Bot benchmark: how the greedy bot plays against random bots; prints JSON.

Kaiser's Pirates, greedy at seat 0 of 3 against two random bots: win rate, attacks
per game (interceptions, British interceptions, mine layings, submarines played),
cards committed, reactions, and seconds per game. Manila, greedy at seat 0 of 4
against three random bots: win rate, voluntary mortgages and redemptions, the
largest bid, stowaway seats. Same seeds as ``lantable simulate`` (game g of seed s
uses ``random.Random(s * 1_000_003 + g)``). Timings are medians over ``--runs``; the
play itself is the same every run.

Usage: python bench/bots.py [--kp-games N] [--manila-games N] [--runs R] [--seed S]
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections import Counter
from typing import Any

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients.bots import make_bot
from lantable.plugins import load_registry
from lantable.plugins.kaisers_pirates.data import ACTIONS

_ATTACK_USES = ("icpt", "brit", "mines")


def _play(game: Any, strategies: list[str], rng: random.Random,
          watch: Any) -> list[int]:
    bots = [make_bot(s, game) for s in strategies]
    state = game.setup(len(strategies), {}, rng)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat) if strategies[seat] != "random" else None
        action = bots[seat].choose(view, seat, legal, rng)
        events = game.apply(state, seat, action, rng)
        watch(state, seat, action, events)
    return game.scores(state)["rank"]


def kaisers_pirates(game: Any, games: int, seed: int) -> dict[str, Any]:
    per_game: list[Counter] = []
    wins = 0
    start = time.perf_counter()
    for g in range(games):
        count: Counter = Counter()

        def watch(state: Any, seat: int, action: Any, events: list, count: Counter = count,
                  ) -> None:
            for e in events:
                if e.get("seat") != 0:
                    continue
                if e["type"] == "card_played" and "use" in e and (
                        e["use"] in _ATTACK_USES
                        or ACTIONS[e["card"]]["type"].startswith("submarine")):
                    count["attacks"] += 1
                elif e["type"] == "committed":
                    count["commits"] += 1
                elif e["type"] == "reaction":
                    count["reactions"] += 1

        rank = _play(game, ["greedy", "random", "random"],
                     random.Random(seed * 1_000_003 + g), watch)
        wins += rank[0] == 1
        per_game.append(count)
    seconds = time.perf_counter() - start
    attacks = [c["attacks"] for c in per_game]
    return {"game": "kaisers-pirates", "seats": 3, "strategies": "greedy,random,random",
            "games": games, "greedy_win_rate": round(wins / games, 4),
            "attacks_per_game_mean": round(statistics.mean(attacks), 2),
            "attacks_per_game_median": statistics.median(attacks),
            "attacks_per_game_min": min(attacks),
            "commits_per_game": round(statistics.mean(c["commits"] for c in per_game), 2),
            "reactions_per_game": round(statistics.mean(c["reactions"] for c in per_game), 2),
            "seconds_per_game": round(seconds / games, 3)}


def manila(game: Any, games: int, seed: int) -> dict[str, Any]:
    count: Counter = Counter()
    wins = 0
    start = time.perf_counter()

    def watch(state: Any, seat: int, action: Any, events: list) -> None:
        if seat != 0:
            return
        kind = action["type"]
        if kind in ("mortgage", "redeem"):
            count[kind] += 1
        elif kind == "bid":
            count["max_bid"] = max(count["max_bid"], action["amount"])
        elif kind == "place" and action.get("stowaway"):
            count["stowaways"] += 1

    for g in range(games):
        rank = _play(game, ["greedy", "random", "random", "random"],
                     random.Random(seed * 1_000_003 + g), watch)
        wins += rank[0] == 1
    seconds = time.perf_counter() - start
    return {"game": "manila", "seats": 4, "strategies": "greedy,random,random,random",
            "games": games, "greedy_win_rate": round(wins / games, 4),
            "voluntary_mortgages": count["mortgage"], "redemptions": count["redeem"],
            "max_bid": count["max_bid"], "stowaway_seats": count["stowaways"],
            "seconds_per_game": round(seconds / games, 3)}


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--kp-games", type=int, default=40, help="Kaiser's Pirates games per run")
    parser.add_argument("--manila-games", type=int, default=200, help="Manila games per run")
    parser.add_argument("--runs", type=int, default=3, help="runs; medians reported")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args()
    registry = load_registry()
    report: dict[str, Any] = {"bench": "bots", "runs": args.runs, "cpus": os.cpu_count(),
                              "results": []}
    for name, fn, games in (("kaisers-pirates", kaisers_pirates, args.kp_games),
                            ("manila", manila, args.manila_games)):
        runs = [fn(registry[name], games, args.seed) for _ in range(args.runs)]
        result = dict(runs[0])
        result["seconds_per_game"] = statistics.median(r["seconds_per_game"] for r in runs)
        result["runs_seconds_per_game"] = [r["seconds_per_game"] for r in runs]
        report["results"].append(result)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
