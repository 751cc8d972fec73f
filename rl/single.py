"""One learning seat against lantable's own bots, as a Gymnasium environment.

    from lantable.rl import single
    e = single("manila", seats=3, seat=0, opponents="greedy")
    obs, info = e.reset(seed=1)
    while True:
        action = policy(obs["observation"], obs["action_mask"])
        obs, reward, terminated, truncated, info = e.step(action)
        if terminated or truncated:
            break

Observations, actions and the final reward are the AEC environment's
(:mod:`lantable.rl.aec`); the other seats are played in between by lantable bots
(``random``, ``greedy`` or ``mcts``, one strategy for all or one per seat), with their
own seeded rng. ``info["actions"]`` lists the legal actions as action maps.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from lantable.clients.bots import make_bot
from lantable.plugins import Game

from .aec import LanTableEnv


class SingleSeatEnv(gymnasium.Env):
    """``seat`` learns; every other seat is a lantable bot."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str | Game, seats: int | None = None, seat: int = 0,
                 opponents: str | list[str] = "random", options: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        self.aec = LanTableEnv(game, seats, options, **kwargs)
        if not 0 <= seat < self.aec.seats:
            raise ValueError(f"seat {seat} is not one of the {self.aec.seats} seats")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        names = [opponents] * self.aec.seats if isinstance(opponents, str) else list(opponents)
        if len(names) != self.aec.seats - 1 and len(names) != self.aec.seats:
            raise ValueError(f"give one strategy, or one per other seat ({self.aec.seats - 1})")
        if len(names) == self.aec.seats - 1:
            names.insert(seat, "learner")
        self.bots = {s: make_bot(names[s], self.aec.game) for s in range(self.aec.seats)
                     if s != seat}
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._bot_rng = random.Random()

    def _play_others(self) -> None:
        """Bots move until the learner must decide or the game is over."""
        e = self.aec
        while not e.terminations[self.agent] and not e.truncations[self.agent] \
                and e.agent_selection != self.agent:
            seat = e._seat[e.agent_selection]
            bot = self.bots[seat]
            legal = e.actions(e.agent_selection)
            view = e.view(e.agent_selection)
            choice = bot.choose(view, seat, e.game.legal_actions(e.state_, seat), self._bot_rng)
            index = legal.index(choice) if choice in legal else None
            if index is None:  # a filled template, or a choice past the action space
                e.game.apply(e.state_, seat, choice, e._rng)
                e.steps += 1
                e._select()
                if e.terminations[e.agent_selection]:
                    e._accumulate_rewards()
            else:
                e.step(index)

    def _out(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        e = self.aec
        info = dict(e.infos.get(self.agent, {}))
        info["actions"] = e.actions(self.agent)
        return e.observe(self.agent), info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self._bot_rng = random.Random(None if seed is None else f"bots:{seed}")
        self._play_others()
        return self._out()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        e = self.aec
        e.step(action)
        self._play_others()
        obs, info = self._out()
        done = e.terminations[self.agent]
        return obs, float(e._cumulative_rewards[self.agent]) if done else 0.0, done, \
            e.truncations[self.agent], info

    def render(self) -> str:
        return self.aec.render()


def single(game: str | Game, seats: int | None = None, seat: int = 0,
           opponents: str | list[str] = "random", options: dict[str, Any] | None = None,
           **kwargs: Any) -> SingleSeatEnv:
    """A Gymnasium environment: ``seat`` of ``game`` against lantable bots."""
    return SingleSeatEnv(game, seats, seat, opponents, options, **kwargs)
