"""Pirates of the Spanish Main benchmarks and the checks of issue 15; prints JSON.

- ``selfplay``: N seeded random games, every decision audited (no overlaps, gold
  conserved, no leaks in views) and every game replayed from its actions, pose for
  pose; also the largest update (view + legal + events, as the host packs it) of any
  seat at any decision.
- ``speed``: ``simulate`` of random 2-player games, several runs: games/s by the wall
  clock and by CPU time (the machine is shared: CPU time is the steadier figure).
- ``versus``: one strategy against another over N seeded 2-player games, seats
  alternating.

Usage: python bench/spanish_main.py selfplay --games 500
       python bench/spanish_main.py selfplay --games 500 --option forts=true \
           --option monsters=true
       python bench/spanish_main.py speed --games 100 --runs 3
       python bench/spanish_main.py versus mcts random --games 200 --iterations 30 \
           --rollout-depth 0 --workers 2
"""

from __future__ import annotations

import json
import multiprocessing
import random
import statistics
import sys
import time

import msgpack
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients.bots import make_bot
from lantable.clients.selfplay import simulate
from lantable.plugins import load_registry
from lantable.plugins.spanish_main import audit
from lantable.protocol import Update

GAME = load_registry()["pirates-spanish-main"]


def update_bytes(st: dict, seat: int, events: list) -> int:
    """The size of one seat's update as the host frames it."""
    legal = GAME.legal_actions(st, seat) or None
    mine = [e for e in events if "to" not in e or seat in e["to"]]
    msg = Update(table="0123456789abcdef", seq=9999, status="playing",
                 seats=[{"name": f"player{i}", "taken": True, "connected": True}
                        for i in range(st["n_players"])],
                 seat=seat, view=GAME.view(st, seat), to_act=GAME.to_act(st), legal=legal,
                 events=mine)
    return len(msgpack.packb(msg.to_map(), use_bin_type=True)) + 4


def selfplay(games: int, seats: int, seed: int, options: dict | None = None) -> dict:
    largest, lengths, ends, bad = 0, [], {}, []
    for k in range(games):
        rng, chooser = random.Random(seed + k), random.Random(f"c{seed + k}")
        st = GAME.setup(seats, options, rng)
        trace = []
        events: list = []
        while GAME.to_act(st):
            found = audit.problems(st)
            if found:
                bad.append({"game": seed + k, "action": len(trace), "problems": found})
                break
            for s in range(seats):
                largest = max(largest, update_bytes(st, s, events))
            (seat,) = GAME.to_act(st)
            action = chooser.choice(GAME.concrete_actions(st, seat))
            events = GAME.apply(st, seat, action, rng)
            trace.append((seat, action, [list(s["pose"]) for s in st["ships"]]))
        rng = random.Random(seed + k)
        again = GAME.setup(seats, options, rng)
        for seat, action, poses in trace:
            GAME.apply(again, seat, msgpack.unpackb(msgpack.packb(action)), rng)
            if [s["pose"] for s in again["ships"]] != poses:
                bad.append({"game": seed + k, "replay_differs_at": len(trace)})
                break
        lengths.append(len(trace))
        ends[st["end"]] = ends.get(st["end"], 0) + 1
        print(json.dumps({"game": seed + k, "end": st["end"], "actions": len(trace),
                          "problems": len(bad), "largest_update_bytes": largest}),
              file=sys.stderr, flush=True)
    return {"check": "selfplay", "games": games, "seats": seats, "seed": seed,
            "options": options or {},
            "all_ended": sum(ends.values()) == games, "ends": ends,
            "problems": bad, "largest_update_bytes": largest,
            "mean_length": round(statistics.mean(lengths), 1)}


def speed(games: int, runs: int, seed: int) -> dict:
    wall, cpu = [], []
    for r in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        simulate(GAME, games=games, players=2, strategies=["random"], seed=seed + r)
        cpu.append(games / (time.process_time() - c0))
        wall.append(games / (time.perf_counter() - w0))
    return {"check": "speed", "games": games, "runs": runs,
            "games_per_s_wall": [round(x, 2) for x in wall],
            "games_per_s_cpu": [round(x, 2) for x in cpu],
            "median_wall": round(statistics.median(wall), 2),
            "median_cpu": round(statistics.median(cpu), 2)}


def _versus_game(args: tuple[str, str, int, int, int]) -> dict:
    a, b, k, iterations, depth = args
    opts = {"iterations": iterations, "rollout_depth": depth}
    first = k % 2  # which seat plays ``a``
    names = [a, b] if first == 0 else [b, a]
    bots = [make_bot(n, GAME, **(opts if n == "mcts" else {})) for n in names]
    rng = random.Random(k)
    st = GAME.setup(2, None, rng)
    c0 = time.process_time()
    while GAME.to_act(st):
        (seat,) = GAME.to_act(st)
        legal = GAME.legal_actions(st, seat)
        view = GAME.view(st, seat)
        GAME.apply(st, seat, bots[seat].choose(view, seat, legal, rng), rng)
    ranks = GAME.scores(st)["rank"]
    win = (0.5 if ranks[1 - first] == 1 else 1.0) if ranks[first] == 1 else 0.0
    out = {"game": k, "a_seat": first, "a_result": win, "end": st["end"],
           "gold": [st["home_gold"][first], st["home_gold"][1 - first]],
           "round": st["round"], "cpu_s": round(time.process_time() - c0, 2)}
    print(json.dumps(out), file=sys.stderr, flush=True)
    return out


def versus(a: str, b: str, games: int, seed: int, iterations: int, depth: int,
           workers: int = 1) -> dict:
    """``a`` against ``b`` over seeded 2-player games (seed .. seed+games-1), seats
    alternating; a shared first place counts half."""
    jobs = [(a, b, seed + k, iterations, depth) for k in range(games)]
    c0 = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(_versus_game, jobs, chunksize=1)
    else:
        results = [_versus_game(j) for j in jobs]
    wins = sum(r["a_result"] for r in results)
    ends: dict[str, int] = {}
    for r in results:
        ends[r["end"]] = ends.get(r["end"], 0) + 1
    return {"check": "versus", "a": a, "b": b, "games": games, "seed": seed,
            "iterations": iterations, "rollout_depth": depth, "a_wins": wins,
            "a_win_rate": round(wins / games, 3),
            "a_outright_wins": sum(r["a_result"] == 1.0 for r in results),
            "draws": sum(r["a_result"] == 0.5 for r in results), "ends": ends,
            "a_mean_gold": round(statistics.mean(r["gold"][0] for r in results), 2),
            "b_mean_gold": round(statistics.mean(r["gold"][1] for r in results), 2),
            "cpu_s_per_game": round(statistics.mean(r["cpu_s"] for r in results), 2),
            "wall_s": round(time.perf_counter() - c0, 1)}


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("what", choices=["selfplay", "speed", "versus"],
                        help="selfplay, speed (actions per second) or versus (the first "
                        "strategy against the others)")
    parser.add_argument("strategies", nargs="*", default=["mcts", "random"],
                        help="a strategy per seat")
    parser.add_argument("--games", type=int, default=100, help="games per run")
    parser.add_argument("--runs", type=int, default=3, help="runs; medians reported")
    parser.add_argument("--seats", type=int, default=2, help="seats per game")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--iterations", type=int, default=30, help="mcts iterations per decision")
    parser.add_argument("--rollout-depth", type=int, default=0,
                        help="mcts rollout depth (0: the heuristic at once)")
    parser.add_argument("--workers", type=int, default=1,
                        help="versus: games played in parallel processes")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="selfplay: a game option as JSON, e.g. forts=true")
    args = parser.parse_args()
    if args.what == "selfplay":
        options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
        out = selfplay(args.games, args.seats, args.seed, options)
    elif args.what == "speed":
        out = speed(args.games, args.runs, args.seed)
    else:
        out = versus(*args.strategies[:2], args.games, args.seed, args.iterations,
                     args.rollout_depth, args.workers)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
