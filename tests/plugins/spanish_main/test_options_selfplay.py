"""Seeded self-play with forts and sea monsters on: the invariants of issue 15 (every
game ends, no overlaps, gold conserved, hidden information hidden) and exact replay.

The random chooser favours the optional rules' actions (half the time, when one is
legal) so that forts get built, shoot and are shot at, and monsters dive and ram.
"""

from __future__ import annotations

import collections
import random
from typing import Any

import msgpack
import pytest

from lantable.plugins.spanish_main import audit

from .conftest import GAME

FAVOURED = {"build_fort", "fort_fire", "load_fort", "load_fort_free", "submerge", "ram",
            "board", "plunder"}


def play(seats: int, seed: int, rich: bool = False,
         **options: Any) -> tuple[dict[str, Any], list[Any], Any]:
    """``rich``: every player starts with a fort's cost at home (booked as gold that
    entered play, so the books still balance): random play seldom brings 6 home."""
    rng, chooser = random.Random(seed), random.Random(f"c{seed}")
    st = GAME.setup(seats, options, rng)
    if rich:
        st["home_gold"] = [6] * seats
        st["gold_made"] += 6 * seats
    trace, seen = [], collections.Counter()
    while GAME.to_act(st):
        assert audit.problems(st) == []
        (seat,) = GAME.to_act(st)
        legal = GAME.concrete_actions(st, seat)
        liked = [a for a in legal if a["type"] in FAVOURED
                 or a["type"] == "fire" and str(a["target"]).startswith("f")]
        action = chooser.choice(liked if liked and chooser.random() < 0.5 else legal)
        for e in GAME.apply(st, seat, action, rng):
            seen[e["type"]] += 1
        trace.append((seat, action, [list(s["pose"]) for s in st["ships"]]))
    assert audit.problems(st) == []
    return st, trace, seen


@pytest.mark.parametrize(("seats", "seed", "options"), [
    (2, 20, {"forts": True, "monsters": True, "max_rounds": 25}),
    (2, 21, {"forts": True, "fleets": "random", "max_rounds": 20}),
    (3, 22, {"forts": True, "monsters": True, "max_rounds": 8}),
    (2, 23, {"forts": True, "monsters": True, "terrain": 2, "max_rounds": 15}),
])
def test_selfplay_with_forts_and_monsters(seats: int, seed: int,
                                          options: dict[str, Any]) -> None:
    st, trace, _ = play(seats, seed, **options)
    assert st["phase"] == "over" and st["end"] is not None
    rng = random.Random(seed)
    again = GAME.setup(seats, options, rng)
    for seat, action, poses in trace:
        GAME.apply(again, seat, msgpack.unpackb(msgpack.packb(action)), rng)
        assert [s["pose"] for s in again["ships"]] == poses
    assert msgpack.packb(again) == msgpack.packb(st)


def test_selfplay_meets_the_optional_rules():
    """Across a few seeded games every fort and monster rule comes up."""
    seen: collections.Counter[str] = collections.Counter()
    for seed in (32, 33, 39):  # seeds where the random games meet them all
        seen += play(2, seed, rich=True, forts=True, monsters=True, max_rounds=25)[2]
    for kind in ("fort_built", "fort_shot", "flag_lost", "loaded_from_fort", "submerged",
                 "surfaced", "ram"):
        assert seen[kind], kind
