"""End to end, nothing heavy: a random agent, then a policy that learns, both through
the environments of :mod:`lantable.rl`.

    python -m lantable.rl.example            # race to 21, steps of 1 or 2, vs random
    python -m lantable.rl.example --episodes 3000 --json

1. A random agent plays every seat of a PettingZoo AEC game (the mask keeps it legal).
2. A tabular learner (every-visit Monte Carlo control, epsilon-greedy) plays seat 0 of
   the single-seat Gymnasium environment against the random bot and learns which step
   to take from the observation. Race to N has a known winning line (leave the rival a
   multiple of max_step + 1), so learning shows plainly: the win rate of a random
   policy, then of the learned one, each over 500 fresh games.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from typing import Any

import numpy as np

from .aec import env
from .single import single


def random_agent_game(game: str, seats: int, seed: int) -> dict[str, Any]:
    """One whole AEC game with a uniformly random legal action at every seat."""
    e = env(game, seats)
    e.reset(seed=seed)
    pick = random.Random(seed)
    steps, final = 0, {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        e.step(int(pick.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return {"game": game, "steps": steps, "rewards": final}


def _play(e: Any, choose: Any, seed: int) -> tuple[list[tuple[bytes, int]], float]:
    """One episode of the single-seat environment; the (observation, action) trail and
    the final reward."""
    obs, _ = e.reset(seed=seed)
    trail: list[tuple[bytes, int]] = []
    while True:
        key = obs["observation"].tobytes()
        action = choose(key, np.flatnonzero(obs["action_mask"]).tolist())
        trail.append((key, action))
        obs, reward, terminated, truncated, _ = e.step(action)
        if terminated or truncated:
            return trail, float(reward)


def learn(game: str, episodes: int, seed: int, epsilon: float = 0.1,
          trials: int = 500) -> dict[str, Any]:
    """Monte Carlo control at seat 0 against a random bot: the win rate of a random
    policy, then of the learned (greedy) policy, each over ``trials`` fresh games."""
    e = single(game, seats=2, seat=0, opponents="random")
    q: dict[tuple[bytes, int], float] = defaultdict(float)
    visits: dict[tuple[bytes, int], int] = defaultdict(int)
    rng = random.Random(seed)

    def best(key: bytes, legal: list[int]) -> int:
        return max(legal, key=lambda a: (q[(key, a)], -a))

    def explore(key: bytes, legal: list[int]) -> int:
        return rng.choice(legal) if rng.random() < epsilon else best(key, legal)

    def win_rate(choose: Any, first_seed: int) -> float:
        won = sum(_play(e, choose, first_seed + g)[1] > 0 for g in range(trials))
        return round(won / trials, 3)

    before = win_rate(lambda key, legal: rng.choice(legal), 10_000_000)
    for episode in range(episodes):
        trail, reward = _play(e, explore, seed * 100_000 + episode)
        for pair in trail:  # every visit gets the game's result
            visits[pair] += 1
            q[pair] += (reward - q[pair]) / visits[pair]
    after = win_rate(best, 20_000_000)
    return {"game": game, "episodes": episodes, "trials": trials,
            "states_seen": len({k for k, _ in q}),
            "random_policy_win_rate": before, "learned_policy_win_rate": after}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="A random agent and a learning agent, end to end.")
    p.add_argument("--game", default="race", help="the game the learner plays (2 seats)")
    p.add_argument("--episodes", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    out = {"random": random_agent_game(args.game, 2, args.seed),
           "learner": learn(args.game, args.episodes, args.seed)}
    if args.json:
        print(json.dumps(out))
    else:
        r, lr = out["random"], out["learner"]
        print(f"random agents: a game of {r['game']} in {r['steps']} steps, "
              f"rewards {r['rewards']}")
        print(f"seat 0 against a random bot, {lr['trials']} games each: a random policy "
              f"won {lr['random_policy_win_rate']:.0%}; after {lr['episodes']} games of "
              f"learning ({lr['states_seen']} positions seen), the learned policy won "
              f"{lr['learned_policy_win_rate']:.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
