"""Engine benchmark: random self-play throughput of every installed game; prints JSON.

No network: the games are played in-process through the same ``Game`` facade the
host uses. Each configuration runs ``--runs`` times; the median is reported with
every run, since a shared machine is noisy.

With ``--per-call`` it reports instead what each call the host makes costs: the
process CPU microseconds per call of ``to_act``, ``legal_actions``, ``apply`` and
``view_parts`` (``views`` for a game without ``game_view_parts``: its view for every
seat and a spectator), over every position of seeded random self-play. Each game is
played once and its positions kept (clones); then each call is timed over all of
them in one loop (``apply`` on fresh clones, one call per position), so the clock is
read a few times per game, not around each call. Every run replays the same games,
so runs differ by machine noise only; medians and every run are reported.

Usage: python bench/engine.py [--games N] [--runs R] [--game ID ...] [--per-call]
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from typing import Any

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients.selfplay import batch_gc, simulate
from lantable.plugins import Game, load_registry

# Seat counts measured per game (default: every count from min to max, capped at 5).
SEATS = {"manila": [3, 4, 5], "kaisers-pirates": [1, 2, 3, 4]}


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--games", type=int, default=None,
                        help="games per run per seat count "
                             "(default: 200, or 40 when timing per call)")
    parser.add_argument("--runs", type=int, default=3, help="runs; medians reported")
    parser.add_argument("--game", nargs="*", help="only these game ids")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--per-call", action="store_true",
                        help="report CPU microseconds per host call instead of throughput")
    args = parser.parse_args()
    if args.games is None:
        args.games = 40 if args.per_call else 200
    if args.per_call:
        return per_call_report(args)
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


def _seat_counts(game_id: str, game: Game) -> list[int]:
    lo, hi = game.info["min_seats"], min(game.info["max_seats"], 5)
    return list(SEATS.get(game_id, range(max(lo, 2) if hi >= 2 else lo, hi + 1)))


def per_call_report(args: Any) -> None:
    registry = load_registry()
    report: dict = {"bench": "engine", "mode": "per_call", "unit": "process CPU us per call",
                    "games_per_run": args.games, "runs": args.runs, "seed": args.seed,
                    "cpus": os.cpu_count(), "results": []}
    for game_id, game in sorted(registry.games.items()):
        if args.game and game_id not in args.game:
            continue
        for seats in _seat_counts(game_id, game):
            runs = [per_call(game, seats, args.games, args.seed) for _ in range(args.runs)]
            calls = [c for c in runs[0] if c != "positions"]
            median = {c: round(statistics.median(r[c] for r in runs), 2) for c in calls}
            report["results"].append({
                "game": game_id, "seats": seats, "positions": runs[0]["positions"],
                "us_per_call": median,
                # what the host's game work costs per accepted action (to_act counted once)
                "us_per_action": round(sum(median.values()), 2),
                "runs_us_per_call": [{c: round(r[c], 2) for c in calls} for r in runs],
            })
    print(json.dumps(report, indent=2))


def per_call(game: Game, seats: int, games: int, seed: int) -> dict[str, float]:
    """CPU microseconds per call over every position of ``games`` seeded random games
    (``positions``: how many positions that was)."""
    clock = time.process_time_ns
    spent = {"to_act": 0, "legal_actions": 0, "apply": 0,
             "view_parts" if game.has_view_parts else "views": 0}
    positions = 0
    with batch_gc():
        for g in range(games):
            rng = random.Random(seed * 1_000_003 + g)
            state = game.setup(seats, None, rng)
            kept: list[tuple[Any, int, Any]] = []  # (position, seat, the action taken)
            while (to_act := game.to_act(state)) and len(kept) < 100_000:
                seat = to_act[0]
                action = rng.choice(game.concrete_actions(state, seat))
                kept.append((game.clone(state), seat, action))
                game.apply(state, seat, action, rng)
            positions += len(kept)
            start = clock()
            for position, _, _ in kept:
                game.to_act(position)
            spent["to_act"] += clock() - start
            start = clock()
            for position, seat, _ in kept:
                game.legal_actions(position, seat)
            spent["legal_actions"] += clock() - start
            if game.has_view_parts:
                start = clock()
                for position, _, _ in kept:
                    game.view_parts(position)
                spent["view_parts"] += clock() - start
            else:
                start = clock()
                for position, _, _ in kept:
                    for s in (None, *range(seats)):
                        game.view(position, s)
                spent["views"] += clock() - start
            fresh = [(game.clone(p), seat, action) for p, seat, action in kept]
            dice = random.Random(seed)
            start = clock()
            for position, seat, action in fresh:
                game.apply(position, seat, action, dice)
            spent["apply"] += clock() - start
    out: dict[str, float] = {c: ns / 1000 / max(positions, 1) for c, ns in spent.items()}
    out["positions"] = positions
    return out


if __name__ == "__main__":
    main()
