"""In-process self-play, no network: the engine of ``lantable simulate`` and the benches."""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .bots import make_bot

if TYPE_CHECKING:
    from lantable.plugins import Game


@dataclass
class SimResult:
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    wins: list[float] = field(default_factory=list)  # by seat; a tie for first shares the win
    lengths: list[int] = field(default_factory=list)

    def report(self, game: Game, players: int, strategies: list[str], seed: int) -> dict[str, Any]:
        return {
            "game": game.id,
            "players": players,
            "strategies": strategies,
            "seed": seed,
            "games": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "games_per_s": round(self.games / self.seconds, 2) if self.seconds else None,
            "actions_per_s": round(self.actions / self.seconds, 1) if self.seconds else None,
            "mean_length": round(sum(self.lengths) / len(self.lengths), 2) if self.lengths else 0,
            "win_rate_by_seat": [round(w / self.games, 4) for w in self.wins] if self.games else [],
        }


def play_one(game: Game, bots: list[Any], rng: random.Random, *, seats: int,
             options: dict[str, Any] | None = None,
             max_actions: int = 1_000_000) -> tuple[dict[str, Any], int]:
    """Play one game to the end; returns (scores, number of actions).

    Bots that declare ``needs_view = False`` (random) read a view only to fill a
    template from the game's discretisation, which may use nothing the seat's view
    lacks (``game_discretise``; the conformance suite checks that it gives the same
    from the state as from the view). So they are handed the state itself, as search
    rollouts are, and random self-play builds no view at all.
    """
    state = game.setup(seats, options, rng)
    n = 0
    while n < max_actions:
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        legal = game.legal_actions(state, seat)
        bot = bots[seat]
        view = game.view(state, seat) if getattr(bot, "needs_view", True) else state
        action = bot.choose(view, seat, legal, rng)
        game.apply(state, seat, action, rng)
        n += 1
    else:
        raise RuntimeError(f"{game.id}: no end after {max_actions} actions")
    return game.scores(state), n


# Young-generation collections per allocation while self-play runs (CPython's default
# is 700): see batch_gc.
BATCH_GC_THRESHOLD = (50_000, 20, 20)


@contextmanager
def batch_gc() -> Iterator[None]:
    """Run a batch of games with the cyclic garbage collector tuned for it.

    Self-play allocates and drops a great many small containers (actions, events,
    copies of positions), and the collector's default thresholds make it trace the
    young generation every 700 allocations, over and over, finding almost nothing: it
    cost Spanish Main's `simulate` about a fifth of its time. So, for the batch only:
    everything alive before it (the loaded games and their data) is frozen out of the
    collector's way, and the young generation is collected every 50,000 allocations.
    Memory is still freed at once by reference counting; only cycles wait a little
    longer. No game can tell the difference (nothing in a game depends on when a cycle
    is collected), and the old settings come back afterwards."""
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*BATCH_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def simulate(game: Game, *, games: int, players: int, strategies: list[str], seed: int = 0,
             options: dict[str, Any] | None = None,
             bot_options: dict[str, Any] | None = None) -> SimResult:
    """Play ``games`` seeded games; strategy ``strategies[i % len]`` sits at seat ``i``."""
    bots = [make_bot(strategies[i % len(strategies)], game,
                     **(bot_options or {}) if strategies[i % len(strategies)] == "mcts" else {})
            for i in range(players)]
    result = SimResult(wins=[0.0] * players)
    with batch_gc():
        start = time.perf_counter()
        for g in range(games):
            rng = random.Random(seed * 1_000_003 + g)
            scores, n = play_one(game, bots, rng, seats=players, options=options)
            firsts = [s for s, r in enumerate(scores["rank"]) if r == 1]
            for s in firsts:
                result.wins[s] += 1 / len(firsts)
            result.games += 1
            result.actions += n
            result.lengths.append(n)
        result.seconds = time.perf_counter() - start
    return result
