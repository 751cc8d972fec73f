"""Every installed lantable game as a PettingZoo AEC environment (docs/research.md).

    from lantable.rl import env
    e = env("manila", seats=4)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"],
                                                             obs["action_mask"])
        e.step(action)

- **Agents** are ``player_0`` .. ``player_{n-1}``, one per seat. When several seats
  must decide at once (a simultaneous choice), they are asked one after the other, in
  seat order, each seeing only its own view, as the host does.
- **Observations** are ``{"observation": float32[obs_size], "action_mask": int8[A]}``:
  the seat's own view hashed into a vector (:mod:`lantable.rl.encode`) and the legal
  actions. ``env.view(agent)`` gives the view itself, ``env.actions(agent)`` the
  legal actions as the game's action maps, in action-space order.
- **Actions** are indices into the seat's *concrete* legal actions, in the game's own
  deterministic order (docs/plugins.md, section 7), with each template (a Spanish Main
  course) replaced by the game's discretisation. The action space is ``Discrete(A)``
  with a fixed ``A`` per game (:data:`MAX_ACTIONS`, the most seen in self-play, with
  room); a seat with more choices than ``A`` is offered the first ``A``, and
  ``info["cut"]`` says how many were left out. The same index means different actions
  in different positions: the mask and ``env.actions`` say which.
- **Chance** is inside: dice and shuffles come from the seeded rng of ``reset``.
- **Rewards** are 0 until the end, then the game's ranking (``game_scores``) scaled to
  [-1, 1]: first place +1, last -1, evenly between (ties share a place); a one-seat
  game gives +1 for a win and -1 for a loss. ``info`` of the last step carries the
  game's ``scores``.
- A game that has not ended after ``max_steps`` decisions is truncated.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from lantable.plugins import Game, load_registry

from .encode import LIMIT, encode

# The action space per seed game: the largest number of concrete legal actions seen in
# 200 random self-play games at every seat count, with headroom (bench/rl.py measures
# it). A game not listed gets DEFAULT_ACTIONS.
MAX_ACTIONS: dict[str, int] = {
    "race": 8, "manila": 256, "kaisers-pirates": 256, "nero": 256,
    "blackbeard": 256, "pirates-spanish-main": 512,
}
DEFAULT_ACTIONS = 512


def _game(game: str | Game) -> Game:
    return game if isinstance(game, Game) else load_registry()[game]


def placing_reward(rank: list[int], seat: int) -> float:
    """A seat's final reward from the ranking: +1 first, -1 last, evenly between."""
    n = len(rank)
    if n == 1:
        return 1.0 if rank[0] == 1 else -1.0
    return 1.0 - 2.0 * (rank[seat] - 1) / (n - 1)


class LanTableEnv(AECEnv):  # type: ignore[misc]
    """One lantable game as a PettingZoo AEC environment (see the module's text)."""

    def __init__(self, game: str | Game, seats: int | None = None,
                 options: dict[str, Any] | None = None, *, obs_size: int = 1024,
                 max_actions: int | None = None, max_steps: int = 100_000,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.game = _game(game)
        info = self.game.info
        self.seats = seats if seats is not None else info["min_seats"] if info["min_seats"] > 1 \
            else min(2, info["max_seats"])
        if not info["min_seats"] <= self.seats <= info["max_seats"]:
            raise ValueError(f"{self.game.id} seats {info['min_seats']} to "
                             f"{info['max_seats']}, not {self.seats}")
        self.table_options = self.game.options(options)  # checked now, not at reset
        self.obs_size = obs_size
        self.max_actions = max_actions or MAX_ACTIONS.get(self.game.id, DEFAULT_ACTIONS)
        self.max_steps = max_steps
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r}: expected 'ansi' or 'human'")
        self.render_mode = render_mode
        self.metadata = {"name": f"lantable_{self.game.id.replace('-', '_')}_v0",
                         "render_modes": ["ansi", "human"], "is_parallelizable": False}
        self.possible_agents = [f"player_{s}" for s in range(self.seats)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs = gymnasium.spaces.Box(-LIMIT, LIMIT, (obs_size,), np.float32)
        mask = gymnasium.spaces.Box(0, 1, (self.max_actions,), np.int8)
        self._observation_space = gymnasium.spaces.Dict({"observation": obs, "action_mask": mask})
        self._action_space = gymnasium.spaces.Discrete(self.max_actions)
        self.state_: Any = None
        self._legal: list[dict[str, Any]] = []
        self._rng = random.Random()
        self.steps = 0
        self._observed: tuple[tuple[str, int], dict[str, np.ndarray]] | None = None

    # -- spaces ----------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_space

    # -- the game ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` makes it repeatable (chance included); the table's
        options are the constructor's (``options`` of reset is PettingZoo's and unused)."""
        self._rng = random.Random(seed if seed is not None else random.SystemRandom().random())
        self.state_ = self.game.setup(self.seats, self.table_options, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = 0
        self._observed = None
        self._select()

    def _select(self) -> None:
        """Point agent_selection at the next seat to decide, or end the game."""
        to_act = self.game.to_act(self.state_)
        if not to_act:
            scores = self.game.scores(self.state_)
            for a in self.agents:
                self.rewards[a] = placing_reward(scores["rank"], self._seat[a])
                self.terminations[a] = True
                self.infos[a] = {"scores": scores}
            return
        seat = to_act[0]
        self.agent_selection = self.possible_agents[seat]
        legal = self.game.legal_actions(self.state_, seat)
        if any("params" in a for a in legal):  # a template: the game's discretisation
            legal = self.game.concrete_actions(self.state_, seat, legal)
        self._legal = legal[:self.max_actions]
        self.infos[self.agent_selection] = {"cut": len(legal) - len(self._legal)} \
            if len(legal) > self.max_actions else {}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation now (built once per step: asking again is free)."""
        key = (agent, self.steps)
        if self._observed is not None and self._observed[0] == key:
            return self._observed[1]
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if agent == self.agent_selection and not (
                self.terminations.get(agent) or self.truncations.get(agent)):
            mask[:len(self._legal)] = 1
        obs = {"observation": encode(self.view(agent), self.obs_size), "action_mask": mask}
        self._observed = (key, obs)
        return obs

    def view(self, agent: str) -> Any:
        """The seat's own view, as the host would send it (the game's game_view)."""
        return self.game.view(self.state_, self._seat[agent])

    def actions(self, agent: str) -> list[dict[str, Any]]:
        """The agent's legal actions as action maps, index i = action i (empty when it is
        not the agent's turn)."""
        return list(self._legal) if agent == self.agent_selection else []

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(self._legal):
            raise ValueError(f"{agent}: action {action!r} is not one of its "
                             f"{len(self._legal)} legal actions (see the action mask)")
        chosen = self._legal[int(action)]
        # Rewards are 0 until the game ends (only then does anything need adding up).
        self.game.apply(self.state_, self._seat[agent], chosen, self._rng)
        self.steps += 1
        self._select()
        if self.steps >= self.max_steps and not self.terminations[agent]:
            for a in self.agents:
                self.truncations[a] = True
        if self.terminations[agent]:
            self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str:
        """The game's text board for the seat to act (as `lantable play` shows it)."""
        if self.state_ is None:
            return ""
        seat = self._seat[self.agent_selection]
        return str(self.game.render_text(self.game.view(self.state_, seat), seat,
                                         list(self.possible_agents)))

    def close(self) -> None:
        self.state_ = None


def env(game: str | Game, seats: int | None = None, options: dict[str, Any] | None = None,
        **kwargs: Any) -> LanTableEnv:
    """A PettingZoo AEC environment of ``game`` (an installed game's id)."""
    return LanTableEnv(game, seats, options, **kwargs)
