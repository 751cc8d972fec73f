"""The greedy bot attacks when attacking pays (issue 13).

The old heuristic valued a card in hand and nothing for a committed card, so a
one-ply bot never committed, never attacked and never won.
"""

from __future__ import annotations

import random
from collections import Counter

from lantable.clients.bots import make_bot
from lantable.plugins.kaisers_pirates.data import ACTIONS

from .helpers import GAME, cards_of, commit, sid, table

ATTACKS = ("icpt", "brit", "mines")


def _play(seats: int, strategies: list[str], seed: int, options: dict | None = None,
          ) -> tuple[list[int], Counter]:
    rng = random.Random(seed)
    bots = [make_bot(s, GAME) for s in strategies]
    S = GAME.setup(seats, options or {}, rng)
    count: Counter = Counter()
    while not GAME.is_over(S):
        seat = GAME.to_act(S)[0]
        legal = GAME.legal_actions(S, seat)
        view = GAME.view(S, seat) if strategies[seat] != "random" else None
        for e in GAME.apply(S, seat, bots[seat].choose(view, seat, legal, rng), rng):
            if e["type"] == "card_played" and "use" in e and (
                    e["use"] in ATTACKS or ACTIONS[e["card"]]["type"].startswith("submarine")):
                count[e["seat"]] += 1
    return GAME.scores(S)["rank"], count


def test_committing_an_interception_with_a_target_raises_the_heuristic() -> None:
    S = table(3, forces={0: {"ger": ["Karlsruhe"]}, 1: {"mer": ["Maria", "Invercoe"]}},
              hands={0: ["breakout"]})
    before = GAME.heuristic(S, 0)
    commit(S, cards_of("breakout")[0], "icpt", sid("Karlsruhe"))
    assert GAME.heuristic(S, 0) > before + 1


def test_greedy_attacks_and_wins_against_two_random_bots() -> None:
    wins = 0
    for seed in range(4):
        rank, attacks = _play(3, ["greedy", "random", "random"], seed)
        wins += rank[0] == 1
        assert attacks[0] >= 10, (seed, attacks)
    assert wins >= 3


def test_four_greedy_bots_in_a_team_game_fight() -> None:
    _rank, attacks = _play(4, ["greedy"] * 4, 0, {"team_game": True})
    assert all(attacks[s] >= 5 for s in range(4)), attacks
