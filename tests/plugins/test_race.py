"""Race to N: the rules of the plugin authors' example game (plugins/race)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lantable.plugins import BadOptions, Game, IllegalAction, race

GAME = Game(race, "race")


def new(seats: int = 2, **options: Any) -> dict[str, Any]:
    return GAME.setup(seats, options, random.Random(0))


def step(state: dict[str, Any], n: int) -> list[dict[str, Any]]:
    return GAME.apply(state, GAME.to_act(state)[0], {"type": "step", "n": n}, random.Random(0))


def test_setup_starts_at_zero_with_seat_0_to_act() -> None:
    state = new(3)
    assert state["counter"] == 0
    assert GAME.to_act(state) == [0]
    assert GAME.legal_actions(state, 0) == [{"type": "step", "n": 1}, {"type": "step", "n": 2}]
    assert GAME.legal_actions(state, 1) == []


def test_a_step_adds_to_the_counter_and_passes_the_turn_round_the_table() -> None:
    state = new(3, max_step=3)
    assert step(state, 3) == [{"type": "stepped", "seat": 0, "n": 3, "counter": 3}]
    step(state, 1)
    step(state, 2)
    assert state["counter"] == 6
    assert GAME.to_act(state) == [0]


def test_legal_steps_never_overshoot_the_target() -> None:
    state = new(2, target=5, max_step=4)
    step(state, 3)
    assert GAME.legal_actions(state, 1) == [{"type": "step", "n": 1}, {"type": "step", "n": 2}]
    with pytest.raises(IllegalAction, match="1..2"):
        step(state, 3)
    assert state["counter"] == 3


@pytest.mark.parametrize("bad", [0, -1, 3, 1.0, True, "1", None])
def test_bad_steps_are_refused_and_change_nothing(bad: object) -> None:
    state = new()
    before = GAME.clone(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "step", "n": bad}, random.Random(0))
    with pytest.raises(IllegalAction, match="unknown action type"):
        GAME.apply(state, 0, {"type": "jump", "n": 1}, random.Random(0))
    assert state == before


def test_reaching_the_target_exactly_wins() -> None:
    state = new(2, target=3)
    step(state, 2)
    events = step(state, 1)
    assert events[-1] == {"type": "won", "seat": 1}
    assert GAME.is_over(state)
    assert GAME.legal_actions(state, 0) == GAME.legal_actions(state, 1) == []
    assert GAME.scores(state) == {"scores": [0, 1], "rank": [2, 1]}


def test_everyone_shares_first_place_before_anyone_wins() -> None:
    assert GAME.scores(new(3)) == {"scores": [0, 0, 0], "rank": [1, 1, 1]}


def test_options_defaults_and_validation() -> None:
    assert GAME.options() == {"target": 21, "max_step": 2}
    with pytest.raises(BadOptions):
        GAME.options({"max_step": 6})
    with pytest.raises(BadOptions):
        GAME.options({"target": "21"})
    with pytest.raises(BadOptions):
        GAME.options({"speed": 1})
    with pytest.raises(BadOptions, match="target must be at least 1"):
        new(target=0)
    with pytest.raises(BadOptions):
        new(seats=9)


@pytest.mark.parametrize(("counter", "mover_wins"), [(0, True), (1, False), (2, True), (3, True)])
def test_heuristic_favours_the_side_that_can_force_a_win(counter: int, mover_wins: bool) -> None:
    # target 7, max_step 2: leaving a multiple of 3 to go wins, so 6 to go (counter 1) loses.
    state = new(2, target=7)
    state["counter"] = counter
    mover, other = GAME.to_act(state)[0], 1 - GAME.to_act(state)[0]
    assert (GAME.heuristic(state, mover) > 0) == mover_wins
    assert GAME.heuristic(state, other) == -GAME.heuristic(state, mover)


def test_heuristic_of_a_finished_game_is_plus_or_minus_one() -> None:
    state = new(2, target=1)
    step(state, 1)
    assert GAME.heuristic(state, 0) == 1.0
    assert GAME.heuristic(state, 1) == -1.0


def test_describe_works_from_a_view() -> None:
    state = new()
    view = GAME.view(state, 1)
    assert GAME.describe(view, 0, {"type": "step", "n": 2}) == "add 2 (counter 0 -> 2)"


def test_view_is_a_copy_of_the_whole_state() -> None:
    state = new()
    view = GAME.view(state, None)
    assert view == state
    assert view is not state
