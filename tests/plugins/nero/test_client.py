"""Nero's client-side half (plugins/nero/client.py): at every decision of many seeded
games, every seat to act lists from its own view exactly the host's legal actions,
in the host's order, without reading any card it cannot see."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from lantable.plugins.nero import client
from lantable.plugins.nero import hands as H
from lantable.plugins.nero.data import CARDS

from . import helpers as nx

G = nx.GAME
# Option sets: the defaults, only the holders asked in windows, the short game, and the
# A-options' alternatives (which change movement, battles and Events).
ALTERNATIVES = {k: next(c for c in spec["choices"] if c != spec["default"])
                for k, spec in G.info["options"].items()
                if (k[0] == "a" and k[1].isdigit() or k in ("stop_windows", "captured_marker"))
                and "choices" in spec}
OPTION_SETS: list[dict[str, Any]] = [{}, {"reactions": "holders"}, {"short_game": True},
                                     ALTERNATIVES]


def play_checking(seats: int, seed: int, options: dict[str, Any]) -> Counter[str]:
    """One random game; at each decision, compare for every seat to act (and one that is
    not, whose list is empty on both sides). Returns how often each action type was
    compared, so the test can tell the games reached every kind of decision."""
    rng, pick = random.Random(seed), random.Random(seed + 1)
    S = G.setup(seats, G.options(options), rng)
    kinds: Counter[str] = Counter()
    while not G.is_over(S):
        to_act = G.to_act(S)
        for seat in range(seats):
            host = G.legal_actions(S, seat)
            mine = client.legal_actions(G.view(S, seat), seat)
            assert mine == host, (seed, seat, S["pending"][-1:] or S["movement"])
            kinds.update(a["type"] for a in host)
            assert bool(host) == (seat in to_act)
        seat = pick.choice(to_act)
        G.apply(S, seat, pick.choice(G.legal_actions(S, seat)), rng)
    return kinds


@pytest.mark.parametrize("seats", [3, 4])
def test_client_legal_actions_equal_the_hosts_at_every_decision(seats: int) -> None:
    kinds: Counter[str] = Counter()
    for i, options in enumerate(OPTION_SETS * 5):
        kinds += play_checking(seats, 31_000 + 100 * seats + i, options)
    # Every kind of decision that reads the hand was met (and others besides).
    assert {"march", "event", "discard", "commit", "answer", "declare", "pass",
            "retreat", "grant", "step"} <= set(kinds), kinds


def test_the_client_state_holds_no_unseen_card() -> None:
    """Other hands, the box and another seat's battle cards are masked tokens, so a
    rule that read one would fail loudly; the seat's own cards are its own."""
    S = nx.fresh(4, seed=5)
    view = G.view(S, 2)
    C = client.client_state(view, 2)
    assert C["hands"][2] == S["hands"][2]
    for s in (0, 1, 3):
        assert len(C["hands"][s]) == len(S["hands"][s])
        assert all(client.is_masked(c) for c in C["hands"][s])
    assert len(C["box_face_down"]) == len(S["box_face_down"]) \
        and all(client.is_masked(c) for c in C["box_face_down"])
    tokens = [c for h in C["hands"] for c in h if client.is_masked(c)] + C["box_face_down"]
    assert len(set(tokens)) == len(tokens)
    # The one rule that does read other hands (who is asked in a window, option
    # "holders") is the host's, and on a client state it cannot run.
    C["options"]["reactions"] = "holders"
    with pytest.raises(IndexError):
        H.holders(C, ["bad_omens"], [])
    with pytest.raises(IndexError):
        CARDS[C["hands"][0][0]]


def test_a_view_from_another_seat_is_refused() -> None:
    S = nx.fresh(4, seed=5)
    with pytest.raises(ValueError, match="seat 1's, not seat 2's"):
        client.legal_actions(G.view(S, 1), 2)
