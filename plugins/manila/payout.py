"""The end of a voyage and of the game: payouts (4.9), price rises (4.10), the end
check and the next voyage (6.3), and the final fortunes (6.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board as B
from .money import cash, force_cash, owned, price
from .state import DOCK, Event, State, fresh_voyage

if TYPE_CHECKING:
    import random


def payouts(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``payouts`` step (4.9), in the rulebook's order A-D."""
    pirates = [p for p in state["pirates"] if p is not None]
    for b in range(3):  # A. the pirates share each plundered cargo
        if state["plundered"][b] and pirates:
            share = B.PROFIT[B.GOODS[state["goods"][b]]] // len(pirates)
            for p in pirates:
                cash(state, events, p, share, "plunder")
    for b in range(3):  # B. the crews of the boats docked and not plundered
        crew = state["crew"][b]
        if state["where"][b] == DOCK and not state["plundered"][b] and crew:
            share = B.PROFIT[B.GOODS[state["goods"][b]]] // len(crew)
            for s in crew:
                cash(state, events, s, share, "crew")
    for i, dock in enumerate(state["docks"]):  # C. the docks that a boat reached
        if dock is not None and state["docked"] > i:
            cash(state, events, dock, B.DOCK_PAY[i], f"dock {'ABC'[i]}")
    agent = state["insurance"]
    for i in range(state["yarded"]):  # D. the shipyard, paid by the insurance agent
        value, owner = B.YARD_PAY[i], state["yards"][i]
        if agent is None:
            if owner is not None:
                cash(state, events, owner, value, f"shipyard {'ABC'[i]}")
            continue
        if owner == agent:
            events.append({"type": "insured", "seat": agent, "space": "ABC"[i], "amount": value,
                           "to_self": True})
            continue
        force_cash(state, events, agent, value)
        paid = min(value, state["cash"][agent])
        cash(state, events, agent, -paid, "insurance")
        if paid < value:
            events.append({"type": "bank_covers", "seat": agent, "amount": value - paid})
        if owner is not None:
            cash(state, events, owner, value, f"shipyard {'ABC'[i]}")


def price_rises(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's ``prices`` step (4.10): each good that reached Manila rises one
    step, plundered or not (decision 12)."""
    for b in range(3):
        if state["where"][b] == DOCK:
            g = state["goods"][b]
            state["step"][g] = min(state["step"][g] + 1, B.END_STEP)
    events.append({"type": "prices", "prices": {B.GOODS[g]: price(state, g) for g in range(4)}})


def voyage_end(state: State, events: list[Event], rng: random.Random) -> None:
    """The plan's last step (6.3): a price at 30 ends the game; otherwise the next
    voyage starts, its auction opened by this voyage's harbour master."""
    if any(s >= B.END_STEP for s in state["step"]):
        state["over"] = True
        events.append({"type": "game_over"})
        return
    hm = state["hm"]
    assert hm is not None
    state.update(fresh_voyage(state["n"]))  # type: ignore[typeddict-item]  # the voyage's keys
    state["voyage"] += 1
    state["opener"] = state["prev_hm"] = state["turn"] = hm
    events.append({"type": "voyage", "voyage": state["voyage"]})


# -- the final fortunes (6.3) -------------------------------------------------------------


def fortune(state: State, seat: int) -> int:
    """Cash plus the shares at their price, less 15 per mortgaged share (6.3)."""
    own = owned(state, seat)
    return (state["cash"][seat] + sum(own[g] * price(state, g) for g in range(4))
            - B.REDEEM_COST * sum(state["mort"][seat]))


def scores(state: State) -> dict[str, Any]:
    """The ``game_scores`` result: fortunes, ranks (ties share, or by cash under the
    house rule of decision 17) and the detail."""
    n = state["n"]
    values = [fortune(state, s) for s in range(n)]
    keys = [(values[s], state["cash"][s] if state["opt"]["tie_break"] == "cash" else 0)
            for s in range(n)]
    rank = [1 + sum(1 for o in keys if o > k) for k in keys]
    return {"scores": values, "rank": rank,
            "detail": {"cash": list(state["cash"]), "shares": [owned(state, s) for s in range(n)],
                       "mortgaged": [sum(m) for m in state["mort"]],
                       "prices": {B.GOODS[g]: price(state, g) for g in range(4)}}}
