"""Money and shares: holdings, prices, payments and mortgages (rules 5.4, 6.1, 6.4).

Every change of a seat's cash goes through :func:`cash`, so every change is an
event (private under decision 16, ``hide_cash``).
"""

from __future__ import annotations

from . import board as B
from .state import Action, Event, State


class Illegal(Exception):
    """Raised before any change when an action is not legal now."""


def good_index(name: object) -> int:
    """The index of the good called ``name``, or Illegal."""
    try:
        return B.GOODS.index(name)
    except ValueError:
        raise Illegal(f"unknown good {name!r}; goods are {list(B.GOODS)}") from None


def owned(state: State, seat: int) -> list[int]:
    """Shares of each good the seat owns (mortgaged or not): bought ones and the two
    dealt at set-up (a new list)."""
    own = state["bought"][seat][:]
    for g in state["dealt"][seat]:
        own[g] += 1
    return own


def unmortgaged(state: State, seat: int) -> list[int]:
    own = owned(state, seat)
    mort = state["mort"][seat]
    return [own[0] - mort[0], own[1] - mort[1], own[2] - mort[2], own[3] - mort[3]]


def can_raise(state: State, seat: int) -> int:
    """Cash plus what mortgaging every unmortgaged share would raise (4.1.7)."""
    free = len(state["dealt"][seat]) + sum(state["bought"][seat]) - sum(state["mort"][seat])
    return state["cash"][seat] + B.MORTGAGE_VALUE * free


def price(state: State, good: int) -> int:
    """A share's value now: its good's place on the price track (4.10)."""
    return B.PRICE_TRACK[state["step"][good]]


def cash(state: State, events: list[Event], seat: int, delta: int, why: str) -> None:
    """Add ``delta`` to the seat's cash, with a ``cash`` event saying why."""
    if delta:
        state["cash"][seat] += delta
        event: Event = {"type": "cash", "seat": seat, "delta": delta, "why": why}
        if state["opt"]["hide_cash"]:  # decision 16: private money
            event["to"] = [seat]
        events.append(event)


def mortgage(state: State, events: list[Event], seat: int, good: int, why: str) -> None:
    """Mortgage one share of ``good`` for 12 (6.1); which good stays secret (6.4)."""
    state["mort"][seat][good] += 1
    events.append({"type": "mortgaged", "seat": seat, "why": why})
    events.append({"type": "mortgaged_good", "seat": seat, "good": B.GOODS[good], "to": [seat]})
    cash(state, events, seat, B.MORTGAGE_VALUE, "mortgage")


def force_cash(state: State, events: list[Event], seat: int, amount: int) -> None:
    """Forced mortgage (6.1): mortgage shares, cheapest good first, until ``amount`` is in hand."""
    while state["cash"][seat] < amount:
        free = unmortgaged(state, seat)
        goods = [g for g in range(4) if free[g]]
        if not goods:
            return
        mortgage(state, events, seat, min(goods, key=lambda g: (price(state, g), g)), "forced")


def pay(state: State, events: list[Event], seat: int, amount: int, why: str) -> None:
    """The seat pays the bank ``amount``, mortgaging as needed (callers checked it can)."""
    force_cash(state, events, seat, amount)
    cash(state, events, seat, -amount, why)


# -- the free actions: mortgage and redeem at any decision (6.1, decision 15) -------------


def money_actions(state: State, seat: int) -> list[Action]:
    """Mortgage or redeem one share, allowed at any decision (6.1, decision 15)."""
    if not state["opt"]["mortgage_any_time"]:
        return []
    own, mort = owned(state, seat), state["mort"][seat]
    out: list[Action] = [{"type": "mortgage", "good": B.GOODS[g]} for g in range(4)
                         if own[g] > mort[g]]  # an unmortgaged share of g
    if state["cash"][seat] >= B.REDEEM_COST:
        out += [{"type": "redeem", "good": B.GOODS[g]} for g in range(4) if mort[g]]
    return out


def apply_money(state: State, seat: int, action: Action) -> list[Event]:
    """A ``mortgage`` or ``redeem`` action: checked, then applied; it changes no phase."""
    kind = action["type"]
    if {"type": kind, "good": action.get("good")} not in money_actions(state, seat):
        raise Illegal(f"cannot {kind} {action.get('good')!r} now")
    events: list[Event] = []
    g = good_index(action["good"])
    if kind == "mortgage":
        mortgage(state, events, seat, g, "voluntary")
    else:
        state["mort"][seat][g] -= 1
        events.append({"type": "redeemed", "seat": seat})  # the good stays secret (6.4)
        events.append({"type": "redeemed_good", "seat": seat, "good": B.GOODS[g], "to": [seat]})
        cash(state, events, seat, -B.REDEEM_COST, "redeem")
    return events
