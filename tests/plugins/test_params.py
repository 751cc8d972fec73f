"""Templates: legal actions with typed parameters (plugins/params.py)."""

from __future__ import annotations

import random

from lantable.plugins import params

MOVE = {"type": "move", "ship": "s1",
        "params": {"segments": {"kind": "list", "min_items": 1, "max_items": 2,
                                "item": {"heading": {"kind": "heading"},
                                         "distance": {"kind": "int", "min": 0, "max": 8380}}}}}
PICK = {"type": "pick", "params": {"card": {"kind": "choice", "values": ["a", "b"]},
                                   "bid": {"kind": "number", "min": 0, "max": 1.5}}}


def test_fill_and_check():
    action = params.fill(MOVE, {"segments": [{"heading": 900, "distance": 5000}]})
    assert action == {"type": "move", "ship": "s1",
                      "segments": [{"heading": 900, "distance": 5000}]}
    assert params.check(MOVE, action) is None
    assert params.is_template(MOVE) and not params.is_template(action)


def test_check_refuses_what_does_not_fit():
    bad = [
        {"type": "move", "ship": "s2", "segments": [{"heading": 0, "distance": 0}]},
        {"type": "move", "ship": "s1", "segments": []},
        {"type": "move", "ship": "s1", "segments": [{"heading": 3600, "distance": 0}]},
        {"type": "move", "ship": "s1", "segments": [{"heading": 0, "distance": True}]},
        {"type": "move", "ship": "s1", "segments": [{"heading": 0}]},
        {"type": "move", "ship": "s1", "segments": [{"heading": 0, "distance": 1}], "x": 1},
    ]
    for action in bad:
        assert params.check(MOVE, action), action
    assert params.check(PICK, {"type": "pick", "card": "c", "bid": 1}) is not None
    assert params.check(PICK, {"type": "pick", "card": "a", "bid": 1.5}) is None


def test_sample_and_grid_are_well_typed():
    rng = random.Random(1)
    for _ in range(50):
        assert params.check(MOVE, params.sample(MOVE, rng)) is None
        assert params.check(PICK, params.sample(PICK, rng)) is None
    grid = params.grid(PICK)
    assert len(grid) == 6 and all(params.check(PICK, a) is None for a in grid)
    assert all(params.check(MOVE, a) is None for a in params.grid(MOVE))


def test_describe():
    assert params.describe(PICK) == "pick(card: one of a, b; bid: 0..1.5)"
