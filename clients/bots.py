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
    __slots__ = ("children", "visits", "value")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.value = 0.0


class MCTSBot:
    """Determinised Monte-Carlo tree search (information-set UCT, one tree).

    Each iteration samples a full state from the view, descends the tree by UCB
    among the actions legal in that sample, expands one node, plays
    ``rollout_depth`` random actions and scores the result for every seat: the
    final ranking if the game ended, else each seat's chance to be ahead of the
    others, a logistic of the gaps between the game's heuristics, or with
    ``reward="heuristic"`` each seat's heuristic itself, squashed into 0..1
    (a bare ranking cannot tell a move that widens a lead from one that does not).

    A game may give its own defaults for these arguments in ``game_info()["bots"]``
    (for example ``{"mcts": {"rollout_depth": 0, "reward": "heuristic"}}``); the
    arguments given here win.

    Args:
        game: the game (must implement ``game_sample_state``).
        time_budget: seconds per decision (default 0.1).
        iterations: a fixed number of iterations instead of a time budget.
        rollout_depth: random actions after the tree before evaluating.
        exploration: the UCB constant.
        reward: "rank" (the seats' ranking) or "heuristic" (0.5 + tanh(h) / 2 of each
            seat's heuristic h, for games whose heuristic is a margin of about +-1).
    """

    name = "mcts"

    def __init__(self, game: Game, *, time_budget: float = 0.1, iterations: int | None = None,
                 rollout_depth: int = 20, exploration: float = 0.7,
                 reward: str = "rank") -> None:
        _require_sampler(game, "mcts")
        if reward not in ("rank", "heuristic"):
            raise ValueError(f"mcts reward must be 'rank' or 'heuristic', got {reward!r}")
        self.reward = reward
        self.game = game
        self.time_budget = time_budget
        self.iterations = iterations
        self.rollout_depth = rollout_depth
        self.exploration = exploration

    def choose(self, view: View, seat: int, legal: list[Action], rng: random.Random) -> Action:
        legal = expand(self.game, view, seat, legal)
        if len(legal) == 1:
            return legal[0]
        root = _Node()
        by_key = {_key(a): a for a in legal}
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
        best = max(by_key, key=lambda k: (root.children[k].visits if k in root.children else -1,
                                          root.children[k].value if k in root.children else 0))
        return by_key[best]

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
                c = self.exploration
                action = max(actions, key=lambda a: _ucb(node.children[_key(a)], log_n, c))
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
        rewards = self._rollout(state, rng)
        root.visits += 1
        for child, who in path:
            child.visits += 1
            child.value += rewards[who]

    def _rollout(self, state: State, rng: random.Random) -> list[float]:
        game = self.game
        for _ in range(self.rollout_depth):
            to_act = game.to_act(state)
            if not to_act:
                break
            actor = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            game.apply(state, actor, random_action(game, state, actor, rng), rng)
        n = len(game.scores(state)["scores"])
        if game.is_over(state):
            ranks = game.scores(state)["rank"]
        elif self.reward == "heuristic":
            return [0.5 + 0.5 * math.tanh(game.heuristic(state, s)) for s in range(n)]
        elif n > 1:
            # Not over: the chance to be ahead of each other seat, a logistic of the
            # heuristic gap (heuristics are roughly in [-1, 1]), so that a move that
            # widens a lead or narrows a gap counts even when no rank changes; with
            # ranks alone, few iterations cannot tell most moves apart.
            values = [game.heuristic(state, s) for s in range(n)]
            return [sum(_ahead(v - w) for j, w in enumerate(values) if j != i) / (n - 1)
                    for i, v in enumerate(values)]
        else:
            ranks = [1]
        if n == 1:
            return [1.0 if ranks[0] == 1 else 0.0]
        return [(n - r) / (n - 1) for r in ranks]


def _ahead(gap: float) -> float:
    """A heuristic gap as a chance to be ahead: 0.5 when level, ~0.98 a whole unit up."""
    return 1.0 / (1.0 + math.exp(-4.0 * max(-50.0, min(50.0, gap))))


def _ucb(node: _Node, log_n: float, c: float) -> float:
    if node.visits == 0:
        return math.inf
    return node.value / node.visits + c * math.sqrt(log_n / node.visits)


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
