"""Seeded random self-play at 3 and 4 seats (both multiplayer modes) and with a Marine
aboard: every game ends, gold is conserved, nothing overlaps, hidden values stay
hidden (:mod:`audit` at every decision), and the journal replays exactly.

Small counts (the suite must stay fast); ``bench/spanish_main.py`` plays more.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from lantable.plugins.spanish_main import audit, deal, world

from .conftest import GAME


def setup(seats: int, seed: int, options: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    rng = random.Random(seed)
    st = GAME.setup(seats, options, rng)
    # Sergeant Crane (Marine) aboard every English ship, so his shots come up
    for s in st["ships"]:
        if world.card(s)["nation"] == "England":
            deal.add_crew(st, s["owner"], s["id"], "Marine", "England", "D-C04")
    return st, rng


def play(seats: int, seed: int, options: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    st, rng = setup(seats, seed, options)
    chooser = random.Random(f"m{seed}")
    trace = []
    while GAME.to_act(st):
        assert audit.problems(st) == []
        (seat,) = GAME.to_act(st)
        action = chooser.choice(GAME.concrete_actions(st, seat))
        events = GAME.apply(st, seat, action, rng)
        trace.append((seat, action, [e["type"] for e in events]))
    assert audit.problems(st) == []
    return st, trace


@pytest.mark.parametrize(("seats", "seed", "options"), [
    (3, 21, {"max_rounds": 8}),
    (4, 22, {"max_rounds": 6, "fleets": "random"}),
    (3, 23, {"max_rounds": 8, "multiplayer_mode": "threshold", "unique_treasure": True}),
    (2, 24, {"max_rounds": 10}),
])
def test_selfplay_3_and_4_seats_and_marines_keep_the_invariants(
        seats: int, seed: int, options: dict[str, Any]) -> None:
    st, trace = play(seats, seed, options)
    assert st["phase"] == "over" and st["end"] is not None
    if world.official_sheet(st):
        assert st["revealed"] and all(t["face_up"] for t in st["treasure"])
    st2, rng = setup(seats, seed, options)
    for seat, action, _ in trace:
        GAME.apply(st2, seat, msgpack.unpackb(msgpack.packb(action)), rng)
    assert msgpack.packb(st2) == msgpack.packb(st)


def test_selfplay_uses_the_marine_and_ship_exploration():
    kinds: set[str] = set()
    for seats, seed, options in [(3, 21, {"max_rounds": 8}), (2, 25, {"max_rounds": 10})]:
        _, trace = play(seats, seed, options)
        kinds |= {a["type"] for _, a, _ in trace}
    assert {"marine_fire", "explore_ship"} <= kinds
