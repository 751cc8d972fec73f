"""The seed games' undo barriers (docs/plugins.md, "Undo barriers") against their
own seeded play (lantable.plugins.undo_audit): every action that draws from the rng
declares a barrier, and no action that declares none tells any seat something that
depends on what it could not see (checked on states sampled from each seat's view).
Each game also leaves some actions undoable, so the declaration is not "everything"."""

from __future__ import annotations

import random

import pytest

from lantable.plugins.registry import load_registry
from lantable.plugins.undo_audit import audit

GAMES = load_registry(autoload=True)

# game id -> (seats, actions per game); small enough for CI, long enough to pass
# through dice, draws and (Nero) reaction windows.
CASES = {
    "manila": (3, 150),
    "kaisers-pirates": (2, 150),
    "nero": (3, 150),
    "pirates-spanish-main": (2, 120),
    "blackbeard": (3, 150),
}


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_declared_barriers_cover_every_draw_and_reveal(game_id: str) -> None:
    seats, actions = CASES[game_id]
    found = audit(GAMES[game_id], seats, seed=11, max_actions=actions)
    assert not found.problems, "\n".join(found.problems[:10])
    assert found.drew > 0, "the game drew nothing: the check did not reach chance"
    assert found.judged > 0, "no sampled state agreed with a view: reveals were not checked"
    assert found.undoable > 0, "every action is a barrier: undo would never be allowed"


def test_manila_roll_is_a_barrier_and_a_bid_is_not_rules_4_1_4_4() -> None:
    """Manila 4.4: the movement dice are chance; 4.1: a bid is a public choice."""
    game = GAMES["manila"]
    state = game.setup(3, None, random.Random(1))
    assert game.undo_barrier([{"type": "roll", "dice": [1, 2, 3]}], state)
    assert not game.undo_barrier([{"type": "bid", "seat": 0, "amount": 5}], state)


def test_nero_reaction_windows_reveal_only_with_holders() -> None:
    """docs/rules/nero.md: with reactions = holders a window shows who holds a card;
    with reactions = all it shows nothing."""
    game = GAMES["nero"]
    holders = game.setup(3, {"reactions": "holders"}, random.Random(2))
    everyone = game.setup(3, {"reactions": "all"}, random.Random(2))
    step = [{"type": "step", "seat": 0, "from": 1, "dest": 2}]
    assert game.undo_barrier(step, holders)
    assert not game.undo_barrier(step, everyone)
    assert game.undo_barrier([{"type": "event", "seat": 0, "card": 3}], everyone)


def test_a_game_that_says_nothing_refuses_every_undo() -> None:
    game = GAMES["race"]
    assert not game.has_undo
    assert game.undo_barrier([], game.setup(2, None, random.Random(0)))
