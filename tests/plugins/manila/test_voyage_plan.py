"""The voyage's plan of named steps (4.0, 7.1) and the state's declared schema."""

from __future__ import annotations

import random
import typing

from lantable.plugins import load_registry
from lantable.plugins.manila import voyage
from lantable.plugins.manila.state import State

GAME = load_registry()["manila"]


def test_4_0_a_voyage_is_placements_and_three_rolls() -> None:
    for n in (3, 4, 5):
        steps = voyage.plan(n)
        assert steps.count("roll") == 3
        assert steps.count("place") == (4 if n == 3 else 3)  # 7.1: one more with three
        assert steps[0] == "place" and steps[-1] == "voyage_end"
        rolls = [i for i, s in enumerate(steps) if s == "roll"]
        assert steps[rolls[1] + 1] == "board"  # 4.7a: boarding after the second roll only
        assert steps.count("board") == 1
        # 4.5: both pilots act just before the third roll; 4.7b and 4.8 follow it.
        assert steps[rolls[2] - 2:rolls[2]] == ("small_pilot", "large_pilot")
        assert steps[rolls[2] + 1:] == ("pirates", "shipyard", "send", "payouts", "prices",
                                        "voyage_end")


def test_every_step_of_the_plan_has_one_function() -> None:
    named = {step for n in voyage.ROUNDS for step in voyage.plan(n)}
    assert named == set(voyage.STEPS)


def _decisions(n: int, seed: int):
    rng, pick = random.Random(seed), random.Random(seed + 1)
    state = GAME.setup(n, {}, rng)
    while not GAME.is_over(state):
        yield state
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, pick.choice(GAME.legal_actions(state, seat)), rng)
    yield state


def test_the_state_has_exactly_the_declared_keys() -> None:
    declared = set(typing.get_type_hints(State))
    for n in (3, 4, 5):
        for state in _decisions(n, seed=n):
            assert set(state) == declared


def test_the_views_schedule_is_derived_from_the_step_and_back() -> None:
    """Views show the schedule as they always have (``plan``, ``pi``, ``pilot_done``);
    the step a view was taken at is found again from them (sampled worlds)."""
    seen = set()
    for n in (3, 4, 5):
        for seed in range(4):
            for state in _decisions(n, seed):
                view = GAME.view(state, None)
                assert voyage.at_from_view(view) == state["at"]
                seen.add((view["phase"], view["pilot_done"]))
                if view["plan"]:
                    assert len(view["plan"]) == (7 if n == 3 else 6)
                    assert view["plan"][view["pi"]] == ("P" if view["phase"] == "place" else "R")
    assert {("place", None), ("pilot_small", 0), ("pilot_large", 2), ("auction", None)} <= seen
