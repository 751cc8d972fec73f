"""Nero bot strength: one ``greedy`` or ``mcts`` bot against three ``random`` bots; JSON.

The bot's seat rotates (game g: seat g % seats) so the first player's edge is shared
out. A tie for first counts as a shared win (1/k). Also reports the share of games that
end by automatic victory (digest 7.1) and how often the bot ever wore the purple.

Usage: python bench/nero_bots.py --strategy mcts --games 200 [--budget 0.05 | --iterations 30]
       [--rollout-depth 4]
       [--seed 0]   (one line per game on stderr, the summary on stdout)
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients.bots import make_bot
from lantable.plugins import load_registry


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--strategy", default="greedy", choices=["greedy", "mcts"],
                        help="the strategy at seat 0 (the others play random)")
    parser.add_argument("--games", type=int, default=200, help="games to play")
    parser.add_argument("--seats", type=int, default=4, help="seats per game")
    parser.add_argument("--budget", type=float, default=None, help="mcts seconds per decision")
    parser.add_argument("--iterations", type=int, default=None,
                        help="mcts iterations per decision instead of a time budget (a "
                        "figure that does not depend on how busy the machine is)")
    parser.add_argument("--rollout-depth", type=int, default=None,
                        help="mcts random actions after the tree (default: the bot's)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args()
    game = load_registry().games["nero"]
    kwargs: dict = {}
    if args.strategy == "mcts" and args.budget:
        kwargs["time_budget"] = args.budget
    if args.strategy == "mcts" and args.iterations:
        kwargs["iterations"] = args.iterations
    if args.strategy == "mcts" and args.rollout_depth is not None:
        kwargs["rollout_depth"] = args.rollout_depth
    bot = make_bot(args.strategy, game, **kwargs)
    rnd = make_bot("random", game)
    wins = 0.0
    autos = bot_autos = crowned = 0
    margins: list[float] = []
    start = time.perf_counter()
    for g in range(args.games):
        me = g % args.seats
        rng = random.Random(args.seed * 1_000_003 + g)
        state = game.setup(args.seats, None, rng)
        was_emperor = False
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            if seat == me:
                action = bot.choose(game.view(state, seat), seat, legal, rng)
            else:
                action = rnd.choose(None, seat, legal, rng)
            game.apply(state, seat, action, rng)
            was_emperor = was_emperor or state["leaders"][me]["rank"] == "emperor"
        scores = game.scores(state)
        firsts = [s for s, r in enumerate(scores["rank"]) if r == 1]
        if me in firsts:
            wins += 1 / len(firsts)
        auto = scores["detail"]["automatic_victory"]
        autos += auto is not None
        bot_autos += auto == me
        crowned += was_emperor
        vp = scores["scores"]
        margins.append(vp[me] - max(v for s, v in enumerate(vp) if s != me))
        print(json.dumps({"game": g, "seat": me, "vp": vp, "rank": scores["rank"],
                          "auto": auto}), file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    print(json.dumps({
        "bench": "nero_bots", "strategy": args.strategy, "opponents": "random",
        "seats": args.seats, "games": args.games, "seed": args.seed,
        "budget": args.budget, "iterations": args.iterations,
        "rollout_depth": args.rollout_depth,
        "win_rate": round(wins / args.games, 4),
        "automatic_victory_share": round(autos / args.games, 4),
        "bot_automatic_victories": bot_autos,
        "bot_ever_emperor_share": round(crowned / args.games, 4),
        "median_vp_margin": statistics.median(margins),
        "seconds": round(seconds, 1),
    }, indent=2))


if __name__ == "__main__":
    main()
