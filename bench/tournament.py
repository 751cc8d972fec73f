"""`lantable tournament`'s cost: per game over plain `simulate`, and the speed-up of
local processes. Prints JSON.

    python bench/tournament.py overhead --game manila --games 200 --runs 5
    python bench/tournament.py speedup --game race --strategy mcts:iterations=200 --games 40

    python bench/tournament.py network --game race --games 20

``overhead``: the same number of random games of one game, alternately through
``simulate`` (in-process, the engine's batch loop) and through a one-process
tournament (schedule, bots built per batch, results journalled and fsynced per
batch); CPU time of this process per decision (the two play different seeds), median
of runs. ``speedup``: the same tournament with ``--jobs 1`` and with ``--jobs N``
(default: every core), wall time. ``network``: the same tournament in-process and
with ``--network`` (a table on a loopback peer per game, bots as TCP clients), wall
time per game.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _help import Help
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients.selfplay import simulate
from lantable.plugins import load_registry
from lantable.rl import tournament as t


def _tournament(game: str, seats: int, entrants: list[str], blocks: int, jobs: int,
                batch: int, clock: Any = time.perf_counter,
                network: bool = False) -> tuple[float, int, int]:
    """(seconds, games, decisions)."""
    tour = t.Tournament([game], [seats], [t.parse_entrant(e) for e in entrants], blocks)
    with tempfile.TemporaryDirectory() as folder:
        journal = t.Journal(Path(folder) / "results.jsonl")
        start = clock()
        tour.play(journal, jobs=jobs, batch=batch, network=network)
        return (clock() - start, len(journal.results),
                sum(r["length"] for r in journal.results))


def overhead(args: argparse.Namespace) -> dict[str, Any]:
    game = load_registry()[args.game]
    seats = args.seats or max(2, game.info["min_seats"])
    # Two entrants "random" and a second random (a Python factory) so that the
    # tournament schedules len(lineups) games per block.
    entrants = ["random", "lantable.clients.bots:RandomBot:name=random2"]
    per_block = len(t.lineups(["a", "b"], seats))
    blocks = max(1, args.games // per_block)
    plain, tour = [], []
    for run in range(args.runs):
        start = time.process_time()
        result = simulate(game, games=blocks * per_block, players=seats,
                          strategies=["random"], seed=run)
        plain.append((time.process_time() - start) / result.actions)
        seconds, _, decisions = _tournament(game.id, seats, entrants, blocks, 1, args.batch,
                                            clock=time.process_time)
        tour.append(seconds / decisions)
    p, q = statistics.median(plain), statistics.median(tour)
    # The two play different seeds (a tournament's block shares one seed), so the
    # comparison is per decision: the games' lengths differ, not the work per move.
    return {"bench": "tournament.overhead", "game": game.id, "seats": seats,
            "games": blocks * per_block, "runs": args.runs,
            "simulate_us_per_decision": round(p * 1e6, 2),
            "tournament_us_per_decision": round(q * 1e6, 2), "overhead": round(q / p - 1, 4)}


def speedup(args: argparse.Namespace) -> dict[str, Any]:
    game = load_registry()[args.game]
    seats = args.seats or max(2, game.info["min_seats"])
    entrants = [args.strategy, "random"]
    per_block = len(t.lineups(["a", "b"], seats))
    blocks = max(1, args.games // per_block)
    jobs = args.jobs or os.cpu_count() or 1
    one, many = [], []
    for _ in range(args.runs):
        one.append(_tournament(game.id, seats, entrants, blocks, 1, args.batch)[0])
        # (the processes' start-up is part of the wall time, as a person waits for it)
        many.append(_tournament(game.id, seats, entrants, blocks, jobs, args.batch)[0])
    a, b = statistics.median(one), statistics.median(many)
    return {"bench": "tournament.speedup", "game": game.id, "entrants": entrants,
            "games": blocks * per_block, "jobs": jobs, "runs": args.runs,
            "one_process_s": round(a, 3), "processes_s": round(b, 3),
            "speedup": round(a / b, 3), "cpus": os.cpu_count(),
            "load_before": os.getloadavg()[0]}


def network(args: argparse.Namespace) -> dict[str, Any]:
    game = load_registry()[args.game]
    seats = args.seats or max(2, game.info["min_seats"])
    entrants = ["random", "greedy"]
    blocks = max(1, args.games // len(t.lineups(["a", "b"], seats)))
    local, net = [], []
    for _ in range(args.runs):
        seconds, n, _ = _tournament(game.id, seats, entrants, blocks, 1, args.batch)
        local.append(seconds / n)
        seconds, n, _ = _tournament(game.id, seats, entrants, blocks, 1, args.batch,
                                    network=True)
        net.append(seconds / n)
    a, b = statistics.median(local), statistics.median(net)
    return {"bench": "tournament.network", "game": game.id, "entrants": entrants,
            "games": blocks * 2, "runs": args.runs, "in_process_ms_per_game": round(a * 1e3, 2),
            "network_ms_per_game": round(b * 1e3, 2), "ratio": round(b / a, 2)}


def main() -> None:
    p = bench_parser(__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("overhead", help="the tournament's cost over plain self-play",
                       description="The tournament's cost over plain self-play.",
                       formatter_class=Help)
    o.add_argument("--game", default="manila", help="the game")
    o.add_argument("--seats", type=int, help="seats (default: the game's fewest)")
    o.add_argument("--games", type=int, default=200, help="games per run")
    o.add_argument("--runs", type=int, default=5, help="runs; medians reported")
    o.add_argument("--batch", type=int, default=16, help="games per batch handed to a worker")
    s = sub.add_parser("speedup",
                       help="games per second with worker processes against one process",
                       description="Games per second with worker processes against one process.",
                       formatter_class=Help)
    s.add_argument("--game", default="race", help="the game")
    s.add_argument("--seats", type=int, help="seats (default: the game's fewest)")
    s.add_argument("--strategy", default="mcts:iterations=200",
                   help="the strategy every seat plays")
    s.add_argument("--games", type=int, default=40, help="games per run")
    s.add_argument("--jobs", type=int, help="worker processes (default: one per core)")
    s.add_argument("--runs", type=int, default=3, help="runs; medians reported")
    s.add_argument("--batch", type=int, default=2, help="games per batch handed to a worker")
    n = sub.add_parser("network", help="a tournament played over loopback TCP",
                       description="A tournament played over loopback TCP.",
                       formatter_class=Help)
    n.add_argument("--game", default="race", help="the game")
    n.add_argument("--seats", type=int, help="seats (default: the game's fewest)")
    n.add_argument("--games", type=int, default=20, help="games per run")
    n.add_argument("--runs", type=int, default=3, help="runs; medians reported")
    n.add_argument("--batch", type=int, default=10, help="games per batch handed to a worker")
    args = p.parse_args()
    print(json.dumps({"overhead": overhead, "speedup": speedup,
                      "network": network}[args.cmd](args)))


if __name__ == "__main__":
    main()
