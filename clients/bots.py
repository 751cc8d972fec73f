"""Bot strategies. A bot sees only its own view and legal actions, like a person.

Every strategy has ``choose(view, seat, legal, rng) -> action``. Search strategies
simulate with the game's own plugin on states sampled from the view
(``game_sample_state``), never on the true state, and never mutate what they are
given. ``rng`` is the bot's own seeded ``random.Random``.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, Final

from lantable.plugins import IllegalAction, params

if TYPE_CHECKING:
    from lantable.plugins import Action, Game, State, View

STRATEGIES: Final = ("random", "greedy", "mcts")


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"
    needs_view = False

    def __init__(self, game: Game) -> None:
        self.game = game

    def choose(self, view: View | None, seat: int, legal: list[Action],
               rng: random.Random) -> Action:
        action = rng.choice(legal)
        if params.is_template(action):  # uniform over the game's discretisation
            if view is None:
                raise ValueError("a template is filled from the seat's view: pass the view")
            return rng.choice(self.game.discretise(view, seat, action))
        return action


def expand(game: Game, view: View, seat: int, legal: list[Action]) -> list[Action]:
    """``legal`` with each template replaced by the game's discretisation of it."""
    if not any(params.is_template(a) for a in legal):
        return legal
    out: list[Action] = []
    for a in legal:
        out += game.discretise(view, seat, a) if params.is_template(a) else [a]
    return out


def random_action(game: Game, state: State, seat: int, rng: random.Random) -> Action:
    """A rollout's move: a uniform legal entry, a template filled from its
    discretisation (in-process, so the state stands in for the view)."""
    action = rng.choice(game.legal_actions(state, seat))
    if params.is_template(action):
        return rng.choice(game.discretise(state, seat, action))
    return action


def _require_sampler(game: Game, who: str) -> None:
    if not game.has_sampler:
        raise ValueError(
            f"the {who} bot needs game_sample_state, which {game.id} does not implement")


class GreedyBot:
    """One ply: the action whose result the game's heuristic likes best.

    Chance and hidden information are averaged over ``samples`` determinisations;
    within one sample every action meets the same dice (common random numbers), so
    the comparison is between actions, not between lucky and unlucky rolls.

    A free action, after which the same seat faces the same decision with every
    other choice still open and no die was rolled (a Manila mortgage or redemption),
    is taken only if it makes the position better than it is now. Otherwise it only
    puts the decision off, and a one-ply search, which compares it with choices whose
    dice are still to fall, could stall on it: mortgage, redeem, mortgage...
    """

    name = "greedy"

    def __init__(self, game: Game, samples: int | None = None) -> None:
        _require_sampler(game, "greedy")
        self.game = game
        traits = game.info.get("traits", {})
        uncertain = traits.get("chance") or traits.get("hidden_information")
        self.samples = samples or (6 if uncertain else 1)

    def choose(self, view: View, seat: int, legal: list[Action], rng: random.Random) -> Action:
        legal = expand(self.game, view, seat, legal)
        if len(legal) == 1:
            return legal[0]
        game = self.game
        totals = [0.0] * len(legal)
        stall = [False] * len(legal)  # a free action: the same decision stays open
        keys = [_key(a) for a in legal]
        now = 0.0
        for _ in range(self.samples):
            world = game.sample_state(view, seat, rng)
            now += game.heuristic(world, seat)
            dice = rng.getrandbits(64)
            for i, action in enumerate(legal):
                state = game.clone(world)
                chance = _Watched(dice)
                try:
                    game.apply(state, seat, action, chance)
                except IllegalAction:
                    totals[i] -= 1e9
                    continue
                totals[i] += game.heuristic(state, seat)
                if not stall[i] and not chance.used and game.to_act(state) == [seat]:
                    after = {_key(a) for a in game.legal_actions(state, seat)}
                    stall[i] = all(k in after for j, k in enumerate(keys) if j != i)
        keep = [i for i in range(len(legal)) if not stall[i] or totals[i] > now + 1e-9]
        if not keep:
            keep = list(range(len(legal)))
        best = max(totals[i] for i in keep)
        return rng.choice([legal[i] for i in keep if totals[i] == best])


class _Watched(random.Random):
    """A seeded rng that notes whether anything was drawn from it (a die, a shuffle)."""

    used = False

    def random(self) -> float:
        self.used = True
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.used = True
        return super().getrandbits(k)


def _key(action: Action) -> str:
    return repr(sorted(action.items()))


class _Node:
    __slots__ = ("children", "visits", "value", "margin")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.value = 0.0  # sum of rank rewards, 0..1
        self.margin = 0.0  # sum of heuristic margins (the game's own units)


class MCTSBot:
    """Determinised Monte-Carlo tree search (information-set UCT, one tree).

    Each iteration samples a full state from the view, descends the tree by UCB
    among the actions legal in that sample, expands one node, plays
    ``rollout_depth`` random actions and scores the result for every seat: the
    final ranking if the game ended, else by ``reward``: ``"ahead"`` (default), each
    seat's chance to be ahead of the others, a logistic of the gaps between the
    game's heuristics (a move that widens a lead counts even when no rank changes);
    ``"heuristic"``, each seat's heuristic itself squashed into 0..1 (0.5 + tanh(h)/2,
    for games whose heuristic is a margin of about +-1); or ``"rank"``, the seats'
    ranking by heuristic.

    A rank alone saturates: a seat far ahead (or far behind) after every rollout
    sees the same reward for every action and plays at random, which throws leads
    away in games that end at a random moment. So each seat's value also counts its
    heuristic margin (weight ``margin_weight``), normalised to 0..1 over the margins
    this search has seen (the game's units need not be known), and the search keeps
    pressing its lead and cutting its losses.

    A game may give its own defaults for these arguments in ``game_info()["bots"]``
    (for example ``{"mcts": {"rollout_depth": 0, "reward": "heuristic"}}``); the
    arguments given to the bot win.

    Args:
        game: the game (must implement ``game_sample_state``).
        time_budget: seconds per decision (default 0.1).
        iterations: a fixed number of iterations instead of a time budget.
        rollout_depth: random actions after the tree before evaluating.
        exploration: the UCB constant.
        reward: how a rollout that did not end is scored: "ahead", "heuristic" or
            "rank" (see above).
        margin_weight: share of the heuristic margin in a node's value (0: the reward
            only).
    """

    name = "mcts"

    def __init__(self, game: Game, *, time_budget: float = 0.1, iterations: int | None = None,
                 rollout_depth: int = 20, exploration: float = 0.7,
                 reward: str = "ahead", margin_weight: float = 0.5) -> None:
        _require_sampler(game, "mcts")
        if reward not in REWARDS:
            raise ValueError(f"mcts reward must be one of {REWARDS}, got {reward!r}")
        self.reward = reward
        self.game = game
        self.time_budget = time_budget
        self.iterations = iterations
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.margin_weight = margin_weight
        self._lo = self._hi = 0.0  # the margins seen in the current search

    def choose(self, view: View, seat: int, legal: list[Action], rng: random.Random) -> Action:
        legal = expand(self.game, view, seat, legal)
        if len(legal) == 1:
            return legal[0]
        root = _Node()
        by_key = {_key(a): a for a in legal}
        self._lo, self._hi = math.inf, -math.inf
        deadline = time.perf_counter() + self.time_budget
        done = 0
        while True:
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif done and time.perf_counter() >= deadline:
                break
            self._iterate(root, view, seat, legal, rng)
            done += 1

        def rank(k: str) -> tuple[int, float]:
            child = root.children.get(k)
            return (child.visits, self._mean(child)) if child and child.visits else (-1, 0.0)
        return by_key[max(by_key, key=rank)]

    def _mean(self, node: _Node) -> float:
        """The node's value for the seat that chose it: rank and normalised margin."""
        mean = node.value / node.visits
        w = self.margin_weight
        if w and self._hi > self._lo:
            margin = (node.margin / node.visits - self._lo) / (self._hi - self._lo)
            mean = (1 - w) * mean + w * margin
        return mean

    def _ucb(self, node: _Node, log_n: float) -> float:
        if node.visits == 0:
            return math.inf
        return self._mean(node) + self.exploration * math.sqrt(log_n / node.visits)

    def _iterate(self, root: _Node, view: View, seat: int, legal: list[Action],
                 rng: random.Random) -> None:
        game = self.game
        state = game.sample_state(view, seat, rng)
        path: list[tuple[_Node, int]] = []  # (node, seat that chose it)
        node = root
        actor = seat
        actions = legal
        while True:
            unexplored = [a for a in actions if _key(a) not in node.children]
            if unexplored:
                action = rng.choice(unexplored)
                child = node.children[_key(action)] = _Node()
            else:
                log_n = math.log(max(1, node.visits))
                action = max(actions, key=lambda a: self._ucb(node.children[_key(a)], log_n))
                child = node.children[_key(action)]
            try:
                game.apply(state, actor, action, rng)
            except IllegalAction:
                return
            path.append((child, actor))
            node = child
            if unexplored or game.is_over(state):
                break
            to_act = game.to_act(state)
            actor = to_act[0]
            actions = game.concrete_actions(state, actor)
        rewards, margins = self._rollout(state, rng)
        self._lo, self._hi = min(self._lo, *margins), max(self._hi, *margins)
        root.visits += 1
        for child, who in path:
            child.visits += 1
            child.value += rewards[who]
            child.margin += margins[who]

    def _rollout(self, state: State, rng: random.Random) -> tuple[list[float], list[float]]:
        """Random play, then (rank reward, heuristic margin) for every seat."""
        game = self.game
        for _ in range(self.rollout_depth):
            to_act = game.to_act(state)
            if not to_act:
                break
            actor = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            game.apply(state, actor, random_action(game, state, actor, rng), rng)
        over = game.is_over(state)
        scores = game.scores(state)
        n = len(scores["scores"])
        if over and not self.margin_weight:  # the ranks decide and no margin is mixed in
            values = [0.0] * n
        else:
            values = [game.heuristic(state, s) for s in range(n)]
        if over:
            ranks = scores["rank"]
        elif self.reward == "heuristic":
            return [0.5 + 0.5 * math.tanh(v) for v in values], values
        elif self.reward == "ahead" and n > 1:
            # the chance to be ahead of each other seat, a logistic of the heuristic
            # gap (heuristics are roughly in [-1, 1]): with ranks alone, few iterations
            # cannot tell most moves apart
            return [sum(_ahead(v - w) for j, w in enumerate(values) if j != i) / (n - 1)
                    for i, v in enumerate(values)], values
        else:
            ranks = [1 + sum(1 for w in values if w > v) for v in values]
        if n == 1:
            return [1.0 if ranks[0] == 1 else 0.0], values
        return [(n - r) / (n - 1) for r in ranks], values


REWARDS = ("ahead", "heuristic", "rank")


def _ahead(gap: float) -> float:
    """A heuristic gap as a chance to be ahead: 0.5 when level, ~0.98 a whole unit up."""
    return 1.0 / (1.0 + math.exp(-4.0 * max(-50.0, min(50.0, gap))))


def make_bot(strategy: str, game: Game, **kwargs: Any) -> RandomBot | GreedyBot | MCTSBot:
    """The bot for ``strategy`` ("random", "greedy" or "mcts").

    Raises:
        ValueError: unknown strategy, or the game lacks what the strategy needs.
    """
    if strategy == "random":
        return RandomBot(game)
    kwargs = {**game.info.get("bots", {}).get(strategy, {}), **kwargs}  # the game's defaults
    if strategy == "greedy":
        return GreedyBot(game, **kwargs)
    if strategy == "mcts":
        return MCTSBot(game, **kwargs)
    raise ValueError(f"unknown strategy {strategy!r}; expected one of {STRATEGIES}")
