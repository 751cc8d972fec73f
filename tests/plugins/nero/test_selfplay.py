"""Seeded random self-play at 3 and 4 seats, with the invariants of issue 14:

every game ends; the Legion count never changes (28, or 21 with 3 seats, digest 2.2);
at most 4 Uncontrolled Legions; exactly one Leader per player and never more than two
Emperors; views never show another seat's hand or an uncommitted battle card.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.nero import board as B
from lantable.plugins.nero.data import NCARDS, ROME

from . import helpers as nx

GAMES = 500  # per seat count: 1,000 games in all


def _invariants(S: dict[str, Any], n: int) -> None:
    if not S["setup"]:
        assert len(S["legions"]) == 7 * n
    assert sum(1 for lg in S["legions"] if lg["owner"] == B.UNC) <= 4
    assert len(S["leaders"]) == n
    assert len(B.emperors(S)) <= 2
    assert all(lg["province"] != ROME for lg in S["legions"])
    cards = sum(len(h) for h in S["hands"]) + len(S["box_face_down"]) + len(S["box_face_up"]) \
        + sum(len(cs) for it in S["pending"] if it["kind"] == "battle"
              for cs in it["committed"].values())
    assert cards == NCARDS


def _no_leak(nx, S: dict[str, Any], n: int) -> None:
    for seat in [None, *range(n)]:
        view = nx.GAME.view(S, seat)
        text = repr({k: v for k, v in view.items()
                     if k not in ("hand", "own_pending", "box_face_up")})
        assert "hands" not in view and "box_face_down" not in view
        for item in view["pending"]:
            if item["kind"] == "battle":
                assert all(isinstance(v, int) for v in item["committed"].values()), text
        for item in view.get("own_pending", []):
            if item["kind"] == "battle":
                for s, v in item["committed"].items():
                    assert isinstance(v, list) == (s == str(seat))
        if seat is not None:
            assert view["hand"] == S["hands"][seat]


def play(nx, n: int, seed: int, every: int = 0, options: dict | None = None) -> dict[str, Any]:
    G = nx.GAME
    rng = random.Random(seed)
    pick = random.Random(seed + 7)
    S = G.setup(n, G.options(options) if options else None, rng)
    steps = 0
    while not G.is_over(S):
        steps += 1
        assert steps < 5000, f"seed {seed}: no end"
        seat = pick.choice(G.to_act(S))
        legal = G.legal_actions(S, seat)
        assert legal
        if every and steps % every == 0:
            _no_leak(nx, S, n)
            before, rs = copy.deepcopy(S), rng.getstate()
            with pytest.raises(IllegalAction):
                G.apply(S, seat, {"type": "march", "cards": [999]}, rng)
            assert S == before and rng.getstate() == rs
        G.apply(S, seat, pick.choice(legal), rng)
        _invariants(S, n)
    assert S["over"]
    assert S["game_turn"] == 4 or S["automatic_winner"] is not None
    return S


@pytest.mark.parametrize("seats", [3, 4])
def test_selfplay_views_and_illegal_actions(seats: int) -> None:
    for seed in range(6):
        play(nx, seats, 10_000 + seed, every=3)


@pytest.mark.parametrize("seats", [3, 4])
def test_selfplay_with_every_alternative_option(seats: int) -> None:
    """The A-options' alternatives (digest 8.1) keep every invariant too."""
    alternatives = {k: next(c for c in spec["choices"] if c != spec["default"])
                    for k, spec in nx.GAME.info["options"].items()
                    if (k[0] == "a" and k[1].isdigit()
                        or k in ("stop_windows", "captured_marker")) and "choices" in spec}
    assert {"a20_attack_uncontrolled", "a22_legion_cap"} <= set(alternatives)
    for seed in range(20):
        play(nx, seats, 20_000 + seed, every=11, options=alternatives)


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 4])
def test_selfplay_1000_games_invariants(seats: int) -> None:
    autos = 0
    for seed in range(GAMES):
        S = play(nx, seats, seed, every=97)
        autos += S["automatic_winner"] is not None
    assert autos < GAMES  # most random games run the full four Game Turns


def test_views_hide_other_hands() -> None:
    """Changing only another seat's hand never changes this seat's view."""
    S = nx.fresh(4, seed=2)
    before = nx.GAME.view(S, 0)
    S["hands"][1], S["hands"][2] = S["hands"][2], S["hands"][1]
    S["box_face_down"] = list(reversed(S["box_face_down"]))
    assert nx.GAME.view(S, 0) == before
    assert nx.GAME.view(S, None) == {k: v for k, v in before.items()
                                     if k not in ("seat", "hand", "own_pending")}
