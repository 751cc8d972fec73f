"""Manila's rules engine: who decides, what they may do, and applying a decision.

The state is plain data (its schema: :mod:`.state`). The game moves through
phases; each phase names the one seat that decides (``turn``), and everything that
needs no decision (dice rolls, arrivals, payouts, price rises) runs inside
:func:`apply`, as the voyage's plan (:mod:`.voyage`), until the next decision.

Where each rule lives:

- set-up (3) and the state's schema: :mod:`.state`
- money, shares, mortgages (5.4, 6.1): :mod:`.money`
- the harbour master: auction, share, launch (4.1, 4.2): :mod:`.harbour_master`
- placing accomplices, stowaways (4.3, 6.2): :mod:`.placing`
- the voyage's plan of named steps (4.0, 7.1): :mod:`.voyage`
- dice, pilots, arrival, shipyard (4.4, 4.5, 4.8): :mod:`.river`
- boarding and plunder (4.7, 7.2): :mod:`.pirates`
- payouts, prices, the end, the scores (4.9, 4.10, 6.3): :mod:`.payout`
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import harbour_master, pirates, placing, river, voyage
from .money import Illegal, apply_money, can_raise, money_actions, owned, price, unmortgaged
from .payout import fortune, scores
from .state import DOCK, SEA, YARD, Action, Event, State, setup

if TYPE_CHECKING:
    import random

__all__ = ["DOCK", "SEA", "YARD", "Action", "Event", "Illegal", "State", "apply",
           "can_raise", "fortune", "legal_actions", "owned", "price", "scores", "setup",
           "to_act", "unmortgaged"]

Handler = Callable[[State, int, Action, list[Event]], None]


class Decision:
    """One kind of decision: its legal actions and the handler that checks and
    applies one of them (before changing anything, it raises Illegal)."""

    __slots__ = ("actions", "handle", "types")

    def __init__(self, actions: Callable[[State, int], list[Action]], handle: Handler,
                 *types: str) -> None:
        self.actions, self.handle, self.types = actions, handle, frozenset(types)


# The decision of each phase, in the order of a voyage.
DECISIONS: dict[str, Decision] = {
    "auction": Decision(harbour_master.auction_actions, harbour_master.auction, "bid", "pass"),
    "buy": Decision(harbour_master.buy_actions, harbour_master.buy, "buy", "no_buy"),
    "launch": Decision(harbour_master.launch_actions, harbour_master.launch, "launch"),
    "place": Decision(placing.place_actions, placing.place, "place", "decline"),
    "board": Decision(pirates.boarding_actions, pirates.board, "board", "stay"),
    "pilot_small": Decision(river.pilot_actions, river.pilot, "pilot"),
    "pilot_large": Decision(river.pilot_actions, river.pilot, "pilot"),
    "plunder": Decision(pirates.send_actions, pirates.send, "send"),
}


def to_act(state: State) -> list[int]:
    return [] if state["over"] else [state["turn"]]


def legal_actions(state: State, seat: int) -> list[Action]:
    """Legal actions of ``seat``, in this order: the phase's own actions (in the order
    of the board: boats by boat index, docks A-C, shipyard A-C, pirate, pilots,
    insurance; bids ascending), then ``decline``/``pass``/``stay`` where they exist,
    then mortgage and redeem actions (goods in board order)."""
    if state["over"] or seat != state["turn"]:
        return []
    return DECISIONS[state["phase"]].actions(state, seat) + money_actions(state, seat)


def apply(state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
    """Check then apply one action; raises Illegal (state untouched) if it is not legal."""
    kind = action.get("type")
    if kind in ("mortgage", "redeem"):
        return apply_money(state, seat, action)
    decision = DECISIONS.get(state["phase"])
    if decision is None or kind not in decision.types:
        raise Illegal(f"{kind!r} is not an action of the {state['phase']} phase; "
                      f"expected one of {sorted(decision.types) if decision else []} "
                      "or mortgage/redeem")
    events: list[Event] = []
    decision.handle(state, seat, action, events)  # validates before changing anything
    voyage.run(state, events, rng)
    return events
