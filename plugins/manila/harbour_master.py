"""The harbour master: the auction for the office (4.1), the share purchase (4.2a)
and the launch of the three boats (4.2b, c). Each phase has its legal actions and
its handler here; the launch hands over to the voyage's plan (:mod:`.voyage`).
"""

from __future__ import annotations

from . import board as B
from .money import Illegal, can_raise, good_index, pay, price
from .state import SEA, Action, Event, State

# -- 4.1 the auction ----------------------------------------------------------------------


def bid_amounts(low: int, high: int) -> list[int]:
    """Every bid from ``low`` to low+5, then every 5 up to ``high``, and ``high`` (a
    discretisation for bots; any integer bid in range is accepted)."""
    amounts = list(range(low, min(high, low + 5) + 1))
    amounts += range((low + 5) // 5 * 5 + 5, high + 1, 5)  # starts above low + 5: ascending
    if amounts and amounts[-1] != high:
        amounts.append(high)
    return amounts


def _lowest_bid(state: State) -> int:
    """The first bid is at least 1; each later one raises by ``min_raise`` (decision 4)."""
    return state["bid"] + (state["opt"]["min_raise"] if state["bid"] else 1)


def auction_actions(state: State, seat: int) -> list[Action]:
    out: list[Action] = [{"type": "bid", "amount": a}
                         for a in bid_amounts(_lowest_bid(state), can_raise(state, seat))]
    out.append({"type": "pass"})
    return out


def auction(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """A bid or a pass. The last bidder left pays and takes the office; if everyone
    passes, the last harbour master keeps it for free (4.1.6; decision 3: the opener
    on the first voyage)."""
    n = state["n"]
    if action["type"] == "bid":
        amount = action.get("amount")
        low = _lowest_bid(state)
        if type(amount) is not int or not low <= amount <= can_raise(state, seat):
            raise Illegal(f"bid must be an int from {low} to {can_raise(state, seat)} "
                          f"(cash + 12 per unmortgaged share), got {amount!r}")
        state["bid"], state["leader"] = amount, seat
        events.append({"type": "bid", "seat": seat, "amount": amount})
    else:
        state["passed"][seat] = True
        events.append({"type": "passed", "seat": seat})
    active = [s for s in range(n) if not state["passed"][s]]
    if state["leader"] is not None and active == [state["leader"]]:
        hm = state["leader"]
        pay(state, events, hm, state["bid"], "harbour master")
        return _take_office(state, events, hm, state["bid"])
    if not active:
        hm = state["prev_hm"] if state["prev_hm"] is not None else state["opener"]
        return _take_office(state, events, hm, 0)
    state["turn"] = next(s % n for s in range(seat + 1, seat + 1 + n) if not state["passed"][s % n])


def _take_office(state: State, events: list[Event], hm: int, paid: int) -> None:
    state["hm"] = hm
    events.append({"type": "harbour_master", "seat": hm, "paid": paid})
    state["phase"], state["turn"] = "buy", hm


# -- 4.2a one share -----------------------------------------------------------------------


def share_cost(state: State, good: int) -> int:
    """A share costs its price, at least 5 (4.2a)."""
    return max(B.MIN_SHARE_PRICE, price(state, good))


def buy_actions(state: State, seat: int) -> list[Action]:
    budget = can_raise(state, seat)
    out: list[Action] = [{"type": "buy", "good": B.GOODS[g]} for g in range(4)
                         if state["supply"][g] and share_cost(state, g) <= budget]
    out.append({"type": "no_buy"})
    return out


def buy(state: State, seat: int, action: Action, events: list[Event]) -> None:
    if action["type"] == "buy":
        g = good_index(action.get("good"))
        cost = share_cost(state, g)
        if not state["supply"][g]:
            raise Illegal(f"no {B.GOODS[g]} share is left in the supply")
        if cost > can_raise(state, seat):
            raise Illegal(f"a {B.GOODS[g]} share costs {cost}; "
                          f"you can raise {can_raise(state, seat)}")
        pay(state, events, seat, cost, "share")
        state["supply"][g] -= 1
        state["bought"][seat][g] += 1
        events.append({"type": "bought", "seat": seat, "good": B.GOODS[g], "price": cost})
    state["phase"] = "launch"


# -- 4.2b, c the launch -------------------------------------------------------------------

LOADS = [[g for g in range(4) if g != out] for out in range(4)]  # 3 of the 4 goods (4.2b)
STARTS = [(a, b, B.START_SUM - a - b)
          for a in range(B.MAX_START + 1) for b in range(B.MAX_START + 1)
          if 0 <= B.START_SUM - a - b <= B.MAX_START]  # 25 ordered triples summing to 9 (4.2c)


_LAUNCHES = [([B.GOODS[g] for g in goods], starts) for goods in LOADS for starts in STARTS]


def launch_actions(state: State, seat: int) -> list[Action]:
    return [{"type": "launch", "goods": names[:], "starts": list(starts)}
            for names, starts in _LAUNCHES]


def launch(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """Load three boats and set them on the river; the voyage's plan starts (4.0)."""
    names, starts = action.get("goods"), action.get("starts")
    if (not isinstance(names, list) or len(names) != 3
            or not isinstance(starts, list) or len(starts) != 3):
        raise Illegal("launch needs 3 goods and 3 start spaces")
    goods = [good_index(x) for x in names]
    if len(set(goods)) != 3:
        raise Illegal(f"the 3 goods must differ, got {names}")
    if (not all(type(p) is int and 0 <= p <= B.MAX_START for p in starts)
            or sum(starts) != B.START_SUM):
        raise Illegal(f"start spaces must be 0-5 and sum to 9 (4.2c), got {starts}")
    n = state["n"]
    state["goods"], state["pos"], state["where"] = goods, list(starts), [SEA] * 3
    state["crew"], state["plundered"] = [[], [], []], [False] * 3
    events.append({"type": "launched", "goods": list(names), "starts": list(starts)})
    state["at"] = -1  # before the plan's first step
    state["left"] = [B.accomplices(n)] * n
    state["declined"] = [False] * n
    state["phase"] = "step"
