"""The pirates (4.7): boarding after the second roll (4.7a, the 7.2 variant), and
plundering after the third (4.7b), when the captain sends each plundered boat to
Manila or to the shipyard.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board as B
from .money import Illegal
from .placing import boat_of
from .river import arrive, to_yard
from .state import SEA, Action, Event, State

if TYPE_CHECKING:
    import random


def _at_13(state: State) -> list[int]:
    return [b for b in range(3)
            if state["where"][b] == SEA and state["pos"][b] == B.PIRATE_SPACE]


def _any_pirate(state: State) -> bool:
    return any(p is not None for p in state["pirates"])


# -- 4.7a boarding, after the second roll ------------------------------------------------


def boarding(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``board`` step: with a boat on 13, each pirate (captain first) may
    board it (4.7a)."""
    if _at_13(state) and _any_pirate(state):
        state["boarding"] = [[p, s] for s, p in enumerate(state["pirates"]) if p is not None]
        state["boarded"] = None
        next_boarder(state)


def next_boarder(state: State) -> None:
    """The next pirate still on its space with a boat it may board, or boarding is over."""
    while state["boarding"]:
        who, slot = state["boarding"][0]
        if state["pirates"][slot] == who and board_actions(state):
            state["phase"], state["turn"] = "board", who
            return
        state["boarding"].pop(0)
    state["phase"] = "step"


def board_actions(state: State) -> list[Action]:
    """Boats on 13 a pirate may board (4.7a); with the variant, full boats too (7.2)."""
    out: list[Action] = []
    for b, g in enumerate(state["goods"]):
        if state["where"][b] != SEA or state["pos"][b] != B.PIRATE_SPACE:
            continue
        crew = state["crew"][b]
        if len(crew) < len(B.SEAT_COSTS[B.GOODS[g]]):
            out.append({"type": "board", "good": B.GOODS[g]})
        elif state["opt"]["pirates_displace"]:
            boarded = state["boarded"]
            protected = boarded[1] if boarded and boarded[0] == b else None
            for i in range(len(crew)):
                if i != protected:
                    out.append({"type": "board", "good": B.GOODS[g], "displace": i})
    return out


def boarding_actions(state: State, seat: int) -> list[Action]:
    return [*board_actions(state), {"type": "stay"}]


def board(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """Board a boat on 13 (free, decision 13), or stay. A captain who boards leaves
    its space to the second pirate (4.7a); a displaced accomplice goes back to its
    owner (7.2). Under decision 6 (``second_pirate_may_board`` off) the second pirate
    may not board once the captain stayed."""
    if action["type"] == "board":
        want: Action = {"type": "board", "good": action.get("good")}
        if "displace" in action:
            want["displace"] = action["displace"]
        if want not in board_actions(state):
            raise Illegal(f"cannot board {action!r}")
        slot = state["boarding"][0][1]
        b = boat_of(state, action["good"])
        crew = state["crew"][b]
        if "displace" in want:
            gone = crew[want["displace"]]
            crew[want["displace"]] = seat
            state["left"][gone] += 1
            events.append({"type": "displaced", "seat": gone, "good": action["good"]})
            state["boarded"] = [b, want["displace"]]
        else:
            crew.append(seat)
            state["boarded"] = [b, len(crew) - 1]
        events.append({"type": "boarded", "seat": seat, "good": action["good"]})
        state["pirates"][slot] = None
        if slot == 0 and state["pirates"][1] is not None:  # the second becomes captain
            state["pirates"][0], state["pirates"][1] = state["pirates"][1], None
            state["boarding"] = [[who, 0 if s == 1 else s] for who, s in state["boarding"]]
    else:
        events.append({"type": "stayed", "seat": seat})
        if not state["opt"]["second_pirate_may_board"] and state["boarding"][0][1] == 0:
            state["boarding"] = state["boarding"][:1]
    state["boarding"].pop(0)
    next_boarder(state)


# -- 4.7b plunder, after the third roll --------------------------------------------------


def plunder(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``pirates`` step (4.7b): with a pirate on its space, every boat on
    13 is plundered (its crew loses its place) and waits for the captain's choice;
    with none, the boats on 13 reach Manila."""
    at13 = _at_13(state)
    if _any_pirate(state):
        for b in at13:
            state["plundered"][b] = True
            events.append({"type": "plundered", "good": B.GOODS[state["goods"][b]],
                           "crew": list(state["crew"][b])})
            state["crew"][b] = []
        state["plunder"] = at13
    else:
        for b in at13:
            arrive(state, events, b)


def sending(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``send`` step: the captain sends each plundered boat, in launch
    order (4.7b)."""
    _ask_captain(state)


def _ask_captain(state: State) -> None:
    """The captain decides about the next plundered boat, if one is left."""
    if state["plunder"]:
        captain = state["pirates"][0]
        assert captain is not None  # a boat is plundered only with a pirate on its space
        state["phase"], state["turn"] = "plunder", captain


def send_actions(state: State, seat: int) -> list[Action]:
    good = B.GOODS[state["goods"][state["plunder"][0]]]
    return [{"type": "send", "good": good, "to": "manila"},
            {"type": "send", "good": good, "to": "shipyard"}]


def send(state: State, seat: int, action: Action, events: list[Event]) -> None:
    b = state["plunder"][0]
    if (action.get("good") != B.GOODS[state["goods"][b]]
            or action.get("to") not in ("manila", "shipyard")):
        raise Illegal(f"send the {B.GOODS[state['goods'][b]]} boat to 'manila' or 'shipyard'")
    state["plunder"].pop(0)
    if action["to"] == "manila":
        arrive(state, events, b)
    else:
        to_yard(state, events, b)
    state["phase"] = "step"
    _ask_captain(state)
