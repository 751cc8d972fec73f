"""Manila's hot paths (legal actions, views, view parts) against the plain code they
replaced, kept here as the reference: at every position of seeded random games (random
table options), the engine's answer must equal the reference's, repr for repr (so a
list that became a tuple, or a reordered key, fails too).

The reference is the code as it was before the speed-ups (issue: host profile of 16
Manila tables), written for clarity. ``golden_trace.py`` hashes far more (events,
refusals, snapshots); its hash of a few games is pinned here as well, and was computed
before the speed-ups (``python tests/plugins/manila/golden_trace.py --games 201`` gave
``21fa9cb7...6c11`` before and must give it after).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

import lantable.plugins.manila as manila
from lantable.plugins.manila import board as B
from lantable.plugins.manila import engine, harbour_master, placing, voyage
from lantable.plugins.manila.state import DOCK, YARD

from . import golden_trace

GAME = golden_trace.GAME

# -- the reference: the code before the speed-ups -------------------------------------------


def ref_owned(state: Any, seat: int) -> list[int]:
    return [state["bought"][seat][g] + state["dealt"][seat].count(g) for g in range(4)]


def ref_can_raise(state: Any, seat: int) -> int:
    free = len(state["dealt"][seat]) + sum(state["bought"][seat]) - sum(state["mort"][seat])
    return state["cash"][seat] + B.MORTGAGE_VALUE * free


def ref_money_actions(state: Any, seat: int) -> list[dict[str, Any]]:
    if not state["opt"]["mortgage_any_time"]:
        return []
    own = ref_owned(state, seat)
    out = [{"type": "mortgage", "good": B.GOODS[g]} for g in range(4)
           if own[g] - state["mort"][seat][g]]
    if state["cash"][seat] >= B.REDEEM_COST:
        out += [{"type": "redeem", "good": B.GOODS[g]} for g in range(4)
                if state["mort"][seat][g]]
    return out


def ref_free_spaces(state: Any, seat: int) -> list[tuple[Any, ...]]:
    budget = ref_can_raise(state, seat)
    boat_seats = []
    for b, g in enumerate(state["goods"]):
        where = state["where"][b]
        if where == YARD or (where == DOCK and not state["opt"]["crew_docked_boats"]):
            continue
        costs = B.SEAT_COSTS[B.GOODS[g]]
        if len(state["crew"][b]) < len(costs):
            boat_seats.append((b, costs[len(state["crew"][b])]))
    paid: list[tuple[Any, ...]] = [("boat", B.GOODS[state["goods"][b]], False)
                                   for b, c in boat_seats if c <= budget]
    paid += [("dock", i) for i in range(3)
             if state["docks"][i] is None and B.DOCK_COST[i] <= budget]
    paid += [("shipyard", i) for i in range(3)
             if state["yards"][i] is None and B.YARD_COST[i] <= budget]
    if None in state["pirates"] and B.PIRATE_COST[0] <= budget:
        paid.append(("pirate",))
    if state["pilots"][0] is None and B.PILOT_COST["small"] <= budget:
        paid.append(("pilot_small",))
    if state["pilots"][1] is None and B.PILOT_COST["large"] <= budget:
        paid.append(("pilot_large",))
    out = list(paid)
    if state["insurance"] is None and not (state["opt"]["stowaway_rule"] == "broke_no_insurance"
                                           and budget == 0):
        out.append(("insurance",))
    literal_agent = (state["opt"]["stowaway_rule"] == "literal"
                     and state["insurance"] == seat)
    if not literal_agent and (budget == 0 or not paid):
        affordable = {sp[1] for sp in paid if sp[0] == "boat"}
        out += [("boat", B.GOODS[state["goods"][b]], True) for b, c in boat_seats
                if B.GOODS[state["goods"][b]] not in affordable]
    return out


def ref_bid_amounts(low: int, high: int) -> list[int]:
    amounts = list(range(low, min(high, low + 5) + 1))
    amounts += list(range((low + 5) // 5 * 5 + 5, high + 1, 5))
    if amounts and amounts[-1] != high and high >= low:
        amounts.append(high)
    return sorted(set(amounts))


def ref_legal_actions(state: Any, seat: int) -> list[dict[str, Any]]:
    if state["over"] or seat != state["turn"]:
        return []
    if state["phase"] == "place":
        own = [placing.space_action(sp) for sp in ref_free_spaces(state, seat)]
        own.append({"type": "decline"})
    else:
        own = engine.DECISIONS[state["phase"]].actions(state, seat)
    return own + ref_money_actions(state, seat)


PUBLIC = ("n", "opt", "bought", "supply", "step", "voyage", "opener", "prev_hm", "hm",
          "phase", "turn", "bid", "leader", "passed", "goods", "pos", "where", "docked",
          "yarded", "plundered", "crew", "docks", "yards", "pirates", "pilots", "insurance",
          "left", "declined")


def _copy(obj: Any) -> Any:
    if type(obj) is list:
        return [x[:] if type(x) is list else x for x in obj]
    return dict(obj) if type(obj) is dict else obj


def ref_view(state: Any, seat: int | None) -> dict[str, Any]:
    view = {key: _copy(state[key]) for key in PUBLIC}
    view["plan"], view["pi"], pilot_done = voyage.schedule_view(state)
    for key in ("queue", "rolls", "boarding", "boarded", "plunder"):
        view[key] = _copy(state[key])
    view["pilot_done"] = pilot_done
    view["over"] = state["over"]
    view["shares"] = [sum(ref_owned(state, s)) for s in range(state["n"])]
    view["mortgaged"] = [sum(m) for m in state["mort"]]
    view["prices"] = {B.GOODS[g]: B.PRICE_TRACK[state["step"][g]] for g in range(4)}
    if not state["opt"]["hide_cash"]:
        view["cash"] = list(state["cash"])
    if seat is not None:
        view.update({"seat": seat, "my_cash": state["cash"][seat],
                     "my_dealt": list(state["dealt"][seat]),
                     "my_mort": list(state["mort"][seat]),
                     "my_shares": dict(zip(B.GOODS, ref_owned(state, seat), strict=True))})
    return view


# -- the comparison ---------------------------------------------------------------------------


def _positions(seats: int, seed: int) -> Any:
    """Every position of one seeded random game (random options), with the seat to act."""
    pick = random.Random(f"reference/{seats}/{seed}")
    rng = random.Random(seed)
    state = GAME.setup(seats, golden_trace.table_options(pick), rng)
    while to_act := GAME.to_act(state):
        yield state, to_act[0]
        GAME.apply(state, to_act[0], pick.choice(GAME.legal_actions(state, to_act[0])), rng)
    yield state, None


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_the_hot_paths_answer_as_the_reference(seats: int) -> None:
    checked = 0
    for seed in range(4):
        for state, to_act in _positions(seats, seed):
            everyone = range(seats)
            for s in everyone:  # every seat, not only the one to act: other phases too
                assert engine.owned(state, s) == ref_owned(state, s)
                assert engine.can_raise(state, s) == ref_can_raise(state, s)
                if state["goods"]:
                    assert placing.free_spaces(state, s) == ref_free_spaces(state, s)
            if to_act is not None:
                assert repr(GAME.legal_actions(state, to_act)) == repr(
                    ref_legal_actions(state, to_act))
            views = [ref_view(state, s) for s in (None, *everyone)]
            assert repr([GAME.view(state, s) for s in (None, *everyone)]) == repr(views)
            public, own = GAME.view_parts(state)
            assert repr(public) == repr(views[0])
            assert [repr({**public, **own[s]}) for s in everyone] == [repr(v) for v in views[1:]]
            checked += 1
    assert checked > 200  # the games were played, not skipped


def test_bids_and_the_goods_as_the_reference() -> None:
    for low in range(-2, 40):
        for high in range(-2, 120):
            assert harbour_master.bid_amounts(low, high) == ref_bid_amounts(low, high)
    assert tuple(B.by_good(range(4))) == B.GOODS and list(B.by_good(range(4)).values()) == [
        0, 1, 2, 3]
    state = GAME.setup(4, {}, random.Random(1))
    assert tuple(GAME.view(state, None))[:len(manila._PUBLIC_1)] == manila._PUBLIC_1


def test_the_golden_trace_of_a_few_games_is_unchanged() -> None:
    """Computed before the speed-ups; a change here is a change clients would see."""
    digest = hashlib.sha256()
    actions = sum(golden_trace.play(seats, seed, digest) for seats in (3, 4, 5)
                  for seed in range(2))
    assert (digest.hexdigest(), actions) == (
        "fb582962ac4b1e397a7cd4645671587bec517b92df3af76d2f4b1beff399045c", 834)
