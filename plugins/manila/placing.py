"""Placing accomplices (4.3, 5, 6.2): which spaces a seat may take, and taking one.

A placement round starts at the harbour master and goes round the table once; each
seat with accomplices left places one, or declines and places no more this voyage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board as B
from .money import Illegal, can_raise, cash, good_index, pay
from .state import DOCK, YARD, Action, Event, State

if TYPE_CHECKING:
    import random

Space = tuple[Any, ...]
"""A free space as a tuple: ``("boat", good name, stowaway)``, ``("dock", i)``,
``("shipyard", i)`` (i = 0, 1, 2 for A, B, C), or ``(name,)`` for ``pirate``,
``pilot_small``, ``pilot_large`` and ``insurance``."""


def placement_round(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``place`` step: a round from the harbour master, clockwise (4.3)."""
    hm, n = state["hm"], state["n"]
    assert hm is not None
    state["queue"] = [(hm + i) % n for i in range(n)]
    state["phase"] = "place"
    next_placer(state)


def next_placer(state: State) -> None:
    """The next seat in the round that still places, or the round is over."""
    while state["queue"]:
        s = state["queue"].pop(0)
        if state["left"][s] and not state["declined"][s]:
            state["turn"] = s
            return
    state["phase"] = "step"


def space_action(space: Space) -> Action:
    kind = space[0]
    if kind == "boat":
        action: Action = {"type": "place", "space": "boat", "good": space[1]}
        if space[2]:
            action["stowaway"] = True
        return action
    if kind in ("dock", "shipyard"):
        return {"type": "place", "space": kind, "slot": "ABC"[space[1]]}
    return {"type": "place", "space": kind}


def stowaway_ok(state: State, seat: int, affordable_paid: bool) -> bool:
    """6.2: broke (no cash, nothing to mortgage) or nothing affordable; under the
    literal rule (decision 10, reading A) never the insurance agent."""
    if state["opt"]["stowaway_rule"] == "literal" and state["insurance"] == seat:
        return False  # reading A; reading B restricts the insurance space instead
    broke = can_raise(state, seat) == 0
    return broke or not affordable_paid


def free_spaces(state: State, seat: int) -> list[Space]:
    """Free spaces this seat may take now (see :data:`Space`), in the order of the
    board: boats, docks A-C, shipyard A-C, pirate, pilots, insurance, stowaways."""
    budget = can_raise(state, seat)
    boat_seats = []
    for b, g in enumerate(state["goods"]):
        where = state["where"][b]
        if where == YARD or (where == DOCK and not state["opt"]["crew_docked_boats"]):
            continue
        crew = state["crew"][b]
        costs = B.SEAT_COSTS[B.GOODS[g]]
        if len(crew) < len(costs):
            boat_seats.append((b, costs[len(crew)]))
    paid: list[Space] = [("boat", B.GOODS[state["goods"][b]], False)
                         for b, c in boat_seats if c <= budget]
    for i in range(3):
        if state["docks"][i] is None and B.DOCK_COST[i] <= budget:
            paid.append(("dock", i))
    for i in range(3):
        if state["yards"][i] is None and B.YARD_COST[i] <= budget:
            paid.append(("shipyard", i))
    pirates = state["pirates"]
    if (pirates[0] is None or pirates[1] is None) and B.PIRATE_COST[0] <= budget:
        paid.append(("pirate",))
    if state["pilots"][0] is None and B.PILOT_COST["small"] <= budget:
        paid.append(("pilot_small",))
    if state["pilots"][1] is None and B.PILOT_COST["large"] <= budget:
        paid.append(("pilot_large",))
    out = list(paid)
    if state["insurance"] is None and not (state["opt"]["stowaway_rule"] == "broke_no_insurance"
                                           and budget == 0):
        out.append(("insurance",))
    if stowaway_ok(state, seat, bool(paid)):
        affordable = {sp[1] for sp in paid if sp[0] == "boat"}
        out += [("boat", B.GOODS[state["goods"][b]], True) for b, c in boat_seats
                if B.GOODS[state["goods"][b]] not in affordable]
    return out


def place_actions(state: State, seat: int) -> list[Action]:
    out = [space_action(sp) for sp in free_spaces(state, seat)]
    out.append({"type": "decline"})
    return out


def boat_of(state: State, name: Any) -> int:
    """The boat carrying the good called ``name``, or Illegal."""
    g = good_index(name)
    if g not in state["goods"]:
        raise Illegal(f"{name} is not loaded this voyage")
    return state["goods"].index(g)


def place(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """Take one free space, paying its cost (the insurance agent takes 10 at once), or
    decline: no more placements this voyage (4.3)."""
    if action["type"] == "decline":
        state["declined"][seat] = True
        events.append({"type": "declined", "seat": seat})
        return next_placer(state)
    space = action.get("space")
    stowaway = bool(action.get("stowaway", False))
    slot = action.get("slot")
    index = "ABC".index(slot) if slot in ("A", "B", "C") else -1  # dock or shipyard A-C
    want: Space
    if space == "boat":
        want = ("boat", action.get("good"), stowaway)
    elif space in ("dock", "shipyard"):
        want = (space, index)
    else:
        want = (space,)
    if want not in free_spaces(state, seat):
        raise Illegal(f"cannot place on {action!r} now")
    cost = 0
    if space == "boat":
        b = boat_of(state, action["good"])
        crew = state["crew"][b]
        if not stowaway:
            cost = B.SEAT_COSTS[B.GOODS[state["goods"][b]]][len(crew)]
        crew.append(seat)
        where = f"{action['good']} seat {len(crew)}"
    elif space == "dock":
        cost = B.DOCK_COST[index]
        state["docks"][index] = seat
        where = f"dock {slot}"
    elif space == "shipyard":
        cost = B.YARD_COST[index]
        state["yards"][index] = seat
        where = f"shipyard {slot}"
    elif space == "pirate":
        slot = 0 if state["pirates"][0] is None else 1
        cost = B.PIRATE_COST[slot]
        state["pirates"][slot] = seat
        where = "pirate captain" if slot == 0 else "second pirate"
    elif space in ("pilot_small", "pilot_large"):
        cost = B.PILOT_COST[space[6:]]
        state["pilots"][0 if space == "pilot_small" else 1] = seat
        where = space.replace("_", " ")
    else:
        state["insurance"] = seat
        where = "insurance"
    if cost:
        pay(state, events, seat, cost, where)
    state["left"][seat] -= 1
    events.append({"type": "placed", "seat": seat, "space": where, "cost": cost,
                   **({"stowaway": True} if space == "boat" and stowaway else {})})
    if space == "insurance":
        cash(state, events, seat, B.INSURANCE_BONUS, "insurance")
    next_placer(state)
