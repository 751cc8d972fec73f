"""Placing accomplices (4.3, 5, 6.2): which spaces a seat may take, and taking one.

A placement round starts at the harbour master and goes round the table once; each
seat with accomplices left places one, or declines and places no more this voyage.
"""

from __future__ import annotations

from functools import cache
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


@cache
def _action_of(space: Space) -> Action:
    """The ``place`` action for ``space``; kept (there are 18 spaces), so never
    handed out: :func:`space_action` copies it."""
    kind = space[0]
    if kind == "boat":
        action: Action = {"type": "place", "space": "boat", "good": space[1]}
        if space[2]:
            action["stowaway"] = True
        return action
    if kind in ("dock", "shipyard"):
        return {"type": "place", "space": kind, "slot": "ABC"[space[1]]}
    return {"type": "place", "space": kind}


def space_action(space: Space) -> Action:
    """The ``place`` action that takes ``space`` (a new dict)."""
    return _action_of(space).copy()


def stowaway_ok(state: State, seat: int, affordable_paid: bool, budget: int | None = None
                ) -> bool:
    """6.2: broke (no cash, nothing to mortgage) or nothing affordable; under the
    literal rule (decision 10, reading A) never the insurance agent. ``budget`` is
    the seat's :func:`can_raise`, if the caller has it."""
    if state["opt"]["stowaway_rule"] == "literal" and state["insurance"] == seat:
        return False  # reading A; reading B restricts the insurance space instead
    broke = (can_raise(state, seat) if budget is None else budget) == 0
    return broke or not affordable_paid


def free_spaces(state: State, seat: int) -> list[Space]:
    """Free spaces this seat may take now (see :data:`Space`), in the order of the
    board: boats, docks A-C, shipyard A-C, pirate, pilots, insurance, stowaways."""
    budget = can_raise(state, seat)
    opt = state["opt"]
    where, crew = state["where"], state["crew"]
    out: list[Space] = []
    too_dear: list[str] = []  # the goods of boats with room whose next seat costs too much
    for b, g in enumerate(state["goods"]):
        if where[b] == YARD or (where[b] == DOCK and not opt["crew_docked_boats"]):
            continue
        name = B.GOODS[g]
        costs = B.SEAT_COSTS[name]
        taken = len(crew[b])
        if taken < len(costs):
            if costs[taken] <= budget:
                out.append(("boat", name, False))
            else:
                too_dear.append(name)
    docks, yards = state["docks"], state["yards"]
    for i in range(3):
        if docks[i] is None and B.DOCK_COST[i] <= budget:
            out.append(("dock", i))
    for i in range(3):
        if yards[i] is None and B.YARD_COST[i] <= budget:
            out.append(("shipyard", i))
    pirates, pilots = state["pirates"], state["pilots"]
    if (pirates[0] is None or pirates[1] is None) and B.PIRATE_COST[0] <= budget:
        out.append(("pirate",))
    if pilots[0] is None and B.PILOT_COST["small"] <= budget:
        out.append(("pilot_small",))
    if pilots[1] is None and B.PILOT_COST["large"] <= budget:
        out.append(("pilot_large",))
    affordable_paid = bool(out)  # every space so far costs something
    if state["insurance"] is None and not (opt["stowaway_rule"] == "broke_no_insurance"
                                           and budget == 0):
        out.append(("insurance",))
    if too_dear and stowaway_ok(state, seat, affordable_paid, budget):
        for name in too_dear:
            out.append(("boat", name, True))
    return out


def place_actions(state: State, seat: int) -> list[Action]:
    out = [_action_of(space).copy() for space in free_spaces(state, seat)]
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
