"""An evaluation of a Manila position for one seat, for the greedy and search bots.

Value = fortune now (6.3) + the expected money of this voyage's placements + the
expected rise of the seat's shares. Arrival chances come from the exact
distribution of the sum of the remaining dice; boats are treated as independent
and pirates and pilots are ignored. Shares the seat cannot see are not needed:
only its own holdings count.

Three terms keep a one-ply greedy player from doing what no person would do:

- A peso in hand is worth a little more than its face (``LIQUIDITY``): every payment
  made short of cash costs a forced mortgage (12 in, 15 to redeem). So a voluntary
  mortgage always loses and a redemption that empties the purse loses a little; a
  mortgage followed by a redemption of the same share is never the best line.
- Declining leaves the unplaced accomplices unvalued, like placing them on nothing:
  an accomplice has no value of its own, only the money of the space it takes. (An
  earlier "unplaced accomplice" bonus made declining look worse than a mortgage, so
  a seat with only poor spaces mortgaged and redeemed the same share over and over.)
- While the auction runs, the leader owes its bid and gets the harbour master's
  duties (:func:`hm_worth`): a bot bids up to what the office is worth, not to
  whatever it could raise by mortgaging everything.
"""

from __future__ import annotations

from itertools import product

from . import board as B
from .money import owned
from .payout import fortune
from .state import DOCK, SEA, YARD, State


def _sum_at_least() -> list[list[float]]:
    """table[r][d] = P(sum of r dice >= d), for r = 0..3 and d = 0..20."""
    table = []
    for r in range(4):
        counts = [0] * 19
        for dice in product(range(1, 7), repeat=r):
            counts[sum(dice)] += 1
        total = 6 ** r
        row = []
        for d in range(21):
            row.append(sum(counts[k] for k in range(min(d, 19), 19)) / total if d > 0 else 1.0)
        table.append(row)
    return table


_AT_LEAST = _sum_at_least()


def arrival_chance(pos: int, rolls_left: int) -> float:
    need = B.LAST_SPACE + 1 - pos
    if need <= 0:
        return 1.0
    return _AT_LEAST[rolls_left][min(need, 20)]


def _count_dist(chances: list[float]) -> list[float]:
    """Distribution of how many independent events happen."""
    dist = [1.0]
    for p in chances:
        new = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            new[k] += q * (1 - p)
            new[k + 1] += q * p
        dist = new
    return dist


LIQUIDITY = 0.05  # value of a peso in hand above its face, up to LIQUID_CAP pesos
LIQUID_CAP = 30
LAUNCH_EDGE = 4.0  # what choosing the loads and starts is worth to the harbour master


def hm_worth(state: State, seat: int) -> float:
    """What the harbour master's duties are worth to ``seat`` before the auction ends.

    The best share it may buy (its price now plus the rise it can expect, less what
    it pays, at least 5) plus the edge of launching the boats its own way.
    """
    best = 0.0
    for g in range(4):
        if not state["supply"][g]:
            continue
        step = state["step"][g]
        now = B.PRICE_TRACK[step]
        rise = (B.PRICE_TRACK[step + 1] - now) if step < B.END_STEP else 0
        best = max(best, now + 0.6 * rise - max(B.MIN_SHARE_PRICE, now))
    return best + LAUNCH_EDGE


def _bid_cost(state: State, seat: int, bid: int) -> float:
    """The bid, plus 3 for every share it would force into mortgage (12 in, 15 out)."""
    short = bid - state["cash"][seat]
    forced = -(-short // B.MORTGAGE_VALUE) if short > 0 else 0
    return bid + (B.REDEEM_COST - B.MORTGAGE_VALUE) * forced


def evaluate(state: State, seat: int) -> float:
    value = float(fortune(state, seat)) + LIQUIDITY * min(state["cash"][seat], LIQUID_CAP)
    if state["over"]:
        return value
    if state["phase"] == "auction":
        if state["leader"] == seat:
            value += hm_worth(state, seat) - _bid_cost(state, seat, state["bid"])
        return value
    if not state["goods"]:
        return value
    rolls_left = 3 - state["rolls"]
    arrive = []
    for b in range(3):
        where = state["where"][b]
        if where == DOCK:
            arrive.append(0.0 if state["plundered"][b] else 1.0)
        elif where == YARD:
            arrive.append(0.0)
        else:
            arrive.append(arrival_chance(state["pos"][b], rolls_left))
    own = owned(state, seat)
    for b, g in enumerate(state["goods"]):
        crew = state["crew"][b]
        if crew and not state["plundered"][b]:
            value += arrive[b] * B.PROFIT[B.GOODS[g]] * crew.count(seat) / len(crew)
        step = state["step"][g]
        if step < B.END_STEP and own[g]:
            value += arrive[b] * own[g] * (B.PRICE_TRACK[step + 1] - B.PRICE_TRACK[step])
    docked = _count_dist(arrive)
    yarded = _count_dist([1 - p for p in arrive])
    for i in range(3):
        p_dock = sum(docked[i + 1:])
        p_yard = sum(yarded[i + 1:])
        if state["docks"][i] == seat:
            value += p_dock * B.DOCK_PAY[i]
        if state["yards"][i] == seat:
            value += p_yard * B.YARD_PAY[i]
        if state["insurance"] == seat and state["yards"][i] != seat:
            value -= p_yard * B.YARD_PAY[i]
    for s in state["pirates"]:
        if s == seat:
            at_risk = [B.PROFIT[B.GOODS[g]] for b, g in enumerate(state["goods"])
                       if state["where"][b] == SEA and state["pos"][b] >= 7]
            value += 0.15 * sum(at_risk) / max(1, sum(1 for p in state["pirates"] if p is not None))
    return value
