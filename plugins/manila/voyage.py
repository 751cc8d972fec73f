"""A voyage's plan: the named steps between the launch and the next auction (4.0-4.10).

A voyage is a schedule of *rounds* (4.0; 7.1: with three players one more placement
round comes first): a placement round, or a dice roll with what follows it. Each
round is one or more named *steps*, and :data:`STEPS` names the one function that
carries out each: the whole voyage reads top to bottom in :data:`ROUNDS`.

A step either finishes at once (a roll, the payouts) or hands a decision to a seat
by setting ``phase`` and ``turn`` (a placement round, a pilot, a pirate). The
decision's handler sets ``phase`` back to ``"step"`` when the step is over, and
:func:`run` goes on with the next step. ``state["at"]`` is the index of the step
running now in :func:`plan`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from .payout import payouts, price_rises, voyage_end
from .pirates import boarding, plunder, sending
from .placing import placement_round
from .river import large_pilot, roll, shipyard, small_pilot
from .state import Event, State

if TYPE_CHECKING:
    import random

Step = Callable[[State, list[Event], "random.Random"], None]

STEPS: dict[str, Step] = {
    "place": placement_round,  # 4.3: every seat places one accomplice, or declines
    "roll": roll,  # 4.4: three dice move the boats
    "board": boarding,  # 4.7a: after the 2nd roll, pirates may board a boat on 13
    "small_pilot": small_pilot,  # 4.5: before the 3rd roll, the small pilot moves
    "large_pilot": large_pilot,  # 4.5: then the large pilot
    "pirates": plunder,  # 4.7b: after the 3rd roll, pirates plunder the boats on 13
    "shipyard": shipyard,  # 4.8: the boats still at sea go to the shipyard
    "send": sending,  # 4.7b: the captain sends each plundered boat on
    "payouts": payouts,  # 4.9 A-D
    "prices": price_rises,  # 4.10
    "voyage_end": voyage_end,  # 6.3: the game ends, or the next voyage starts
}

_PLACE = ("place",)
_FIRST_ROLL = ("roll",)
_SECOND_ROLL = ("roll", "board")
_THIRD_ROLL = ("small_pilot", "large_pilot", "roll", "pirates", "shipyard", "send",
               "payouts", "prices", "voyage_end")

ROUNDS: dict[int, tuple[tuple[str, ...], ...]] = {
    3: (_PLACE, _PLACE, _FIRST_ROLL, _PLACE, _SECOND_ROLL, _PLACE, _THIRD_ROLL),  # 7.1
    4: (_PLACE, _FIRST_ROLL, _PLACE, _SECOND_ROLL, _PLACE, _THIRD_ROLL),
    5: (_PLACE, _FIRST_ROLL, _PLACE, _SECOND_ROLL, _PLACE, _THIRD_ROLL),
}


@cache
def plan(n: int) -> tuple[str, ...]:
    """The voyage's steps for ``n`` seats, in order."""
    return tuple(step for steps in ROUNDS[n] for step in steps)


def run(state: State, events: list[Event], rng: random.Random) -> None:
    """Carry out the plan from the step after ``at`` until a seat must decide, the
    next voyage's auction starts, or the game is over."""
    if state["phase"] != "step":  # most decisions hand over to the next seat at once
        return
    steps = plan(state["n"])
    while state["phase"] == "step" and not state["over"]:
        state["at"] += 1
        STEPS[steps[state["at"]]](state, events, rng)


# -- the schedule as clients see it ------------------------------------------------------
# Views have carried the voyage's schedule since version 1.0 as three keys, and
# clients, bots and saved views keep that form: ``plan`` (a "P" or "R" per round),
# ``pi`` (the round now) and ``pilot_done`` (None before the pilots, 0 at the small
# pilot, 2 at the large one, 3 from the third roll on). They are derived here from
# ``at``, and back (a bot's sampled world is built from a view).

_PILOT_STAGE = {"small_pilot": 0, "large_pilot": 2}


def _schedule(n: int) -> tuple[tuple[str, ...], tuple[tuple[int, int | None], ...]]:
    """The view's ``plan`` for ``n`` seats, and ``(pi, pilot_done)`` for each step."""
    letters = tuple("P" if steps == _PLACE else "R" for steps in ROUNDS[n])
    rows: list[tuple[int, int | None]] = []
    stage: int | None = None
    for pi, steps in enumerate(ROUNDS[n]):
        for step in steps:
            stage = _PILOT_STAGE.get(step, 3 if stage is not None else None)
            rows.append((pi, stage))
    return letters, tuple(rows)


_SCHEDULES = {n: _schedule(n) for n in ROUNDS}  # views are built after every action


def schedule_view(state: State) -> tuple[list[str], int, int | None]:
    """The view's ``plan``, ``pi`` and ``pilot_done``."""
    if not state["goods"]:  # no voyage under way: the auction, the purchase, the launch
        return [], 0, None
    letters, rows = _SCHEDULES[state["n"]]
    pi, stage = rows[state["at"]]
    return list(letters), pi, stage


_STEP_OF_PHASE = {"place": "place", "board": "board", "pilot_small": "small_pilot",
                  "pilot_large": "large_pilot", "plunder": "send"}


def at_from_view(view: dict[str, Any]) -> int:
    """``at`` of a state whose view is ``view`` (a view is taken at a decision or at
    the end of the game)."""
    if not view["goods"]:
        return -1
    steps = plan(view["n"])
    if view["phase"] not in _STEP_OF_PHASE:  # the game is over after its last step
        return len(steps) - 1
    _, rows = _SCHEDULES[view["n"]]
    want = _STEP_OF_PHASE[view["phase"]]
    return next(i for i, step in enumerate(steps) if step == want and rows[i][0] == view["pi"])
