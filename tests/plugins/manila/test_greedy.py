"""The greedy bot plays Manila like a person would (issue 13).

One run of 100 seeded 4-seat games, greedy at seat 0 against three random bots,
feeds every check: no mortgage-redeem loop inside one decision window, bids no
higher than the harbour master's office is worth, launches that vary, no broke
seat living on free stowaway seats, and greedy still winning most games.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from lantable.clients.bots import make_bot
from lantable.plugins import load_registry
from lantable.plugins.manila import engine
from lantable.plugins.manila.heuristic import hm_worth

GAMES = 100


def _one(game: Any, seed: int, stats: Counter, windows: list[list[tuple[str, str]]]) -> bool:
    rng = random.Random(seed)
    bots = [make_bot("greedy", game)] + [make_bot("random", game) for _ in range(3)]
    state = game.setup(4, {}, rng)
    window: list[tuple[str, str]] = []
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat) if seat == 0 else None
        action = bots[seat].choose(view, seat, legal, rng)
        if seat == 0:
            kind = action["type"]
            if kind in ("mortgage", "redeem"):
                window.append((kind, action["good"]))
            else:
                if window:
                    windows.append(window)
                window = []
            if kind == "bid":
                stats["bids"] += 1
                if action["amount"] > hm_worth(state, 0) + 1:
                    stats["overbids"] += 1
            if kind == "launch":
                stats[f"starts {action['starts']}"] += 1
            if kind == "place" and action.get("stowaway"):
                stats["stowaways"] += 1
                stats["broke_stowaways"] += engine.can_raise(state, 0) == 0
        game.apply(state, seat, action, rng)
    return game.scores(state)["rank"][0] == 1


@pytest.fixture(scope="module")
def played() -> tuple[int, Counter, list[list[tuple[str, str]]]]:
    game = load_registry()["manila"]
    stats: Counter = Counter()
    windows: list[list[tuple[str, str]]] = []
    wins = sum(_one(game, seed, stats, windows) for seed in range(GAMES))
    return wins, stats, windows


def test_greedy_never_mortgages_and_redeems_the_same_share_in_one_window(played) -> None:
    _wins, _stats, windows = played
    for window in windows:
        mortgaged = {good for kind, good in window if kind == "mortgage"}
        redeemed = {good for kind, good in window if kind == "redeem"}
        assert not mortgaged & redeemed, window


def test_greedy_bids_within_what_the_office_is_worth(played) -> None:
    _wins, stats, _windows = played
    assert stats["bids"] > GAMES  # it does bid
    assert stats["overbids"] == 0


def test_greedy_launches_vary(played) -> None:
    _wins, stats, _windows = played
    starts = [k for k in stats if k.startswith("starts")]
    assert len(starts) >= 5, stats


def test_greedy_does_not_go_broke_onto_free_stowaway_seats(played) -> None:
    _wins, stats, _windows = played
    assert stats["broke_stowaways"] == 0, stats


def test_greedy_beats_three_random_bots_at_least_80_percent(played) -> None:
    wins, _stats, _windows = played
    assert wins >= 0.8 * GAMES
