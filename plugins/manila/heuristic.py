"""An evaluation of a Manila position for one seat, for the greedy and search bots.

Value = fortune now (6.3) + the expected money of this voyage's placements + the
expected rise of the seat's shares. Arrival chances come from the exact
distribution of the sum of the remaining dice; boats are treated as independent
and pirates and pilots are ignored. Shares the seat cannot see are not needed:
only its own holdings count.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from . import board as B
from .engine import DOCK, SEA, YARD, fortune, owned


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


def evaluate(state: dict[str, Any], seat: int) -> float:
    value = float(fortune(state, seat))
    if state["over"] or not state["goods"]:
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
    if state["phase"] == "place" and state["left"][seat] and not state["declined"][seat]:
        value += 2.0 * state["left"][seat]  # an unplaced accomplice still has some use
    for s in state["pirates"]:
        if s == seat:
            at_risk = [B.PROFIT[B.GOODS[g]] for b, g in enumerate(state["goods"])
                       if state["where"][b] == SEA and state["pos"][b] >= 7]
            value += 0.15 * sum(at_risk) / max(1, sum(1 for p in state["pirates"] if p is not None))
    return value
