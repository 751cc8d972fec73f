"""PettingZoo environments: the cost of a step over the engine's own apply, and the
largest legal-action list per game (which sizes the action space). Prints JSON.

    python bench/rl.py overhead --game manila --games 200 --runs 5
    python bench/rl.py actions --games 100

``overhead`` plays the same seeded random games three ways, alternately, median of
runs, CPU time of this process: the engine alone (``play_one`` with random bots, as
``lantable simulate``); the AEC environment stepping without observations
(``last(observe=False)``, a uniform pick among ``actions(agent)``, ``step``: the
environment's own overhead); and with observations (``last()`` builds the encoded view
and the mask). The difference of the last two is the observation's cost.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import numpy as np
from _help import Help
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients.bots import RandomBot
from lantable.clients.selfplay import batch_gc, play_one
from lantable.plugins import load_registry
from lantable.rl import MAX_ACTIONS, env


def _engine(game: Any, seats: int, games: int) -> tuple[float, int]:
    bots = [RandomBot(game) for _ in range(seats)]
    start, steps = time.process_time(), 0
    for g in range(games):
        _, n = play_one(game, bots, random.Random(g), seats=seats)
        steps += n
    return time.process_time() - start, steps


def _aec(game: Any, seats: int, games: int, observe: bool) -> tuple[float, int]:
    e = env(game, seats)
    start, steps = time.process_time(), 0
    for g in range(games):
        e.reset(seed=g)
        pick = random.Random(g)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last(observe)
            if term or trunc:
                e.step(None)
                continue
            if observe:
                e.step(int(pick.choice(np.flatnonzero(obs["action_mask"]))))
            else:
                e.step(pick.randrange(len(e.actions(agent))))
            steps += 1
    return time.process_time() - start, steps


def overhead(args: argparse.Namespace) -> dict[str, Any]:
    game = load_registry()[args.game]
    seats = args.seats or game.info["min_seats"]
    engine, stepping, observing = [], [], []
    with batch_gc():
        for _ in range(args.runs):
            t, n = _engine(game, seats, args.games)
            engine.append(t / n)
            t, n = _aec(game, seats, args.games, observe=False)
            stepping.append(t / n)
            t, n = _aec(game, seats, args.games, observe=True)
            observing.append(t / n)
    e, s, o = (statistics.median(x) for x in (engine, stepping, observing))
    return {"bench": "rl.overhead", "game": game.id, "seats": seats, "games": args.games,
            "runs": args.runs, "engine_us_per_step": round(e * 1e6, 2),
            "step_us_per_step": round(s * 1e6, 2), "step_overhead": round(s / e - 1, 4),
            "observed_us_per_step": round(o * 1e6, 2),
            "observation_us": round((o - s) * 1e6, 2)}


def actions(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"bench": "rl.actions", "games": args.games, "by_game": {}}
    for gid, game in sorted(load_registry().games.items()):
        most = 0
        for seats in range(game.info["min_seats"], game.info["max_seats"] + 1):
            for g in range(args.games):
                rng = random.Random(g)
                state = game.setup(seats, None, rng)
                while to_act := game.to_act(state):
                    legal = game.concrete_actions(state, to_act[0])
                    most = max(most, len(legal))
                    game.apply(state, to_act[0], rng.choice(legal), rng)
        out["by_game"][gid] = {"most_legal": most, "action_space": MAX_ACTIONS.get(gid)}
    return out


def main() -> None:
    p = bench_parser(__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("overhead", help="the environments' cost over plain self-play",
                       description="The environments' cost over plain self-play.",
                       formatter_class=Help)
    o.add_argument("--game", default="manila", help="the game")
    o.add_argument("--seats", type=int, help="seats (default: the game's fewest)")
    o.add_argument("--games", type=int, default=100, help="games per run")
    o.add_argument("--runs", type=int, default=5, help="runs; medians reported")
    a = sub.add_parser("actions", help="actions per second through the environments",
                       description="Actions per second through the environments.",
                       formatter_class=Help)
    a.add_argument("--games", type=int, default=50, help="games per run")
    args = p.parse_args()
    print(json.dumps(overhead(args) if args.cmd == "overhead" else actions(args)))


if __name__ == "__main__":
    main()
