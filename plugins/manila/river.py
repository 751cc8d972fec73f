"""The boats on the river: the dice (4.4), the pilots (4.5), arriving in Manila and
going to the shipyard (4.8).

A boat moves past space 13 into Manila (``DOCK``, docks A, B, C in order of
arrival); a boat still at sea after the third roll goes to the shipyard (``YARD``,
spaces A, B, C in order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board as B
from .money import Illegal
from .placing import boat_of
from .state import DOCK, SEA, YARD, Action, Event, State

if TYPE_CHECKING:
    import random


def arrive(state: State, events: list[Event], b: int) -> None:
    """Boat ``b`` reaches Manila: the next free dock."""
    state["where"][b] = DOCK
    state["docked"] += 1
    events.append({"type": "arrived", "good": B.GOODS[state["goods"][b]],
                   "dock": "ABC"[state["docked"] - 1]})


def to_yard(state: State, events: list[Event], b: int) -> None:
    """Boat ``b`` goes to the next free shipyard space."""
    state["where"][b] = YARD
    state["yarded"] += 1
    events.append({"type": "shipyard", "good": B.GOODS[state["goods"][b]],
                   "space": "ABC"[state["yarded"] - 1]})


def roll(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``roll`` step (4.4): the harbour master rolls three dice, one per
    boat in launch order; each boat at sea moves on, and past 13 arrives at once."""
    state["rolls"] += 1
    dice = [rng.randint(1, 6) for _ in range(3)]
    events.append({"type": "roll", "roll": state["rolls"],
                   "dice": {B.GOODS[g]: d for g, d in zip(state["goods"], dice, strict=True)}})
    for b in range(3):
        if state["where"][b] == SEA:
            state["pos"][b] = min(state["pos"][b] + dice[b], B.LAST_SPACE + 1)
            if state["pos"][b] > B.LAST_SPACE:
                arrive(state, events, b)


def shipyard(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``shipyard`` step (4.8): after the third roll, every boat still at
    sea (and not plundered) goes to the shipyard."""
    for b in range(3):
        if state["where"][b] == SEA and not state["plundered"][b]:
            to_yard(state, events, b)


# -- 4.5 the pilots -----------------------------------------------------------------------


def small_pilot(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``small_pilot`` step: before the third roll, the small pilot (if
    placed) may move one boat 1 space."""
    if state["pilots"][0] is not None:
        state["phase"], state["turn"] = "pilot_small", state["pilots"][0]


def large_pilot(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``large_pilot`` step: then the large pilot (if placed) may move one
    boat up to 2 spaces, or two boats 1 space each."""
    if state["pilots"][1] is not None:
        state["phase"], state["turn"] = "pilot_large", state["pilots"][1]


def pilot_moves(state: State, large: bool) -> list[list[list[Any]]]:
    """Pilot options (4.5, decision 9): nothing; one boat +-1; large: one boat +-2 or
    two boats +-1 each. Only boats at sea; never below 0."""
    boats = [b for b in range(3) if state["where"][b] == SEA]
    single = [[[B.GOODS[state["goods"][b]], d]]
              for b in boats for d in (-1, 1) if state["pos"][b] + d >= 0]
    out: list[list[list[Any]]] = [[]] + single
    if large:
        out += [[[B.GOODS[state["goods"][b]], d]]
                for b in boats for d in (-2, 2) if state["pos"][b] + d >= 0]
        for i, b1 in enumerate(boats):
            for b2 in boats[i + 1:]:
                for d1 in (-1, 1):
                    for d2 in (-1, 1):
                        if state["pos"][b1] + d1 >= 0 and state["pos"][b2] + d2 >= 0:
                            out.append([[B.GOODS[state["goods"][b1]], d1],
                                        [B.GOODS[state["goods"][b2]], d2]])
    return out


def pilot_actions(state: State, seat: int) -> list[Action]:
    large = state["phase"] == "pilot_large"
    return [{"type": "pilot", "moves": m} for m in pilot_moves(state, large)]


def pilot(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """The pilot's move; a boat moved past 13 arrives at once (4.5.5)."""
    large = state["phase"] == "pilot_large"
    moves = action.get("moves")
    if moves not in pilot_moves(state, large):
        raise Illegal(f"not a legal {'large' if large else 'small'} pilot move: {moves!r}")
    assert isinstance(moves, list)
    for name, delta in moves:
        b = boat_of(state, name)
        state["pos"][b] += delta
        events.append({"type": "piloted", "seat": seat, "good": name, "by": delta,
                       "pos": state["pos"][b]})
        if state["pos"][b] > B.LAST_SPACE:
            arrive(state, events, b)
    state["phase"] = "step"
