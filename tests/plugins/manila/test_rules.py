"""Rules of digest sections 3-7, each test named after its section."""

from __future__ import annotations

import random

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.manila import board as B
from lantable.plugins.manila import engine

from . import helpers as mn


def legal(mn, S):
    (seat,) = mn.GAME.to_act(S)
    return mn.GAME.legal_actions(S, seat)


# --- 3 setup -------------------------------------------------------------------


@pytest.mark.parametrize(("n", "supply", "acc"), [(3, 14, 4), (4, 12, 3), (5, 10, 3)])
def test_3_setup_per_player_count(n, supply, acc) -> None:
    for seed in range(20):
        S = mn.new(n, seed)
        assert S["cash"] == [30] * n
        assert all(len(d) == 2 for d in S["dealt"])
        assert sum(S["supply"]) == supply
        assert all(s >= 2 for s in S["supply"])  # 2 per good never shuffled
        assert sum(S["supply"]) + sum(sum(mn.owned(S, s)) for s in range(n)) == 20
        assert S["step"] == [0] * 4 and S["mort"] == [[0] * 4] * n
        assert S["phase"] == "auction" and S["turn"] == 0  # oldest player opens
    S, _ = mn.voyage(n)
    assert S["left"] == [acc] * n


# --- 4.1 auction -----------------------------------------------------------------


def test_4_1_auction_bid_limit_cash_plus_mortgage() -> None:
    S = mn.new(4)
    bids = [a["amount"] for a in mn.GAME.legal_actions(S, 0) if a["type"] == "bid"]
    assert bids[0] == 1 and max(bids) == 30 + 2 * 12
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 0, {"type": "bid", "amount": 55}, random.Random())
    rng = mn.Dice()
    ev = mn.act(S, rng, {"type": "bid", "amount": 54}, mn.PASS, mn.PASS, mn.PASS)
    assert S["hm"] == 0 and S["cash"][0] == 0 and sum(S["mort"][0]) == 2  # forced mortgage (4.1.7)
    assert any(e["type"] == "mortgaged" and e["why"] == "forced" for e in ev)
    # no share left: bid up to cash only
    S = mn.new(4)
    S["dealt"][0] = []
    assert max(a["amount"] for a in mn.GAME.legal_actions(S, 0) if a["type"] == "bid") == 30


def test_4_1_passes_are_final() -> None:
    S = mn.new(4)
    rng = mn.Dice()
    mn.act(S, rng, {"type": "bid", "amount": 1}, mn.PASS, {"type": "bid", "amount": 2}, mn.PASS,
           {"type": "bid", "amount": 3})
    assert S["turn"] == 2  # seat 1 passed: skipped for good
    mn.act(S, rng, mn.PASS)
    assert S["hm"] == 0 and S["cash"][0] == 27 and S["phase"] == "buy"


def test_4_1_first_voyage_no_bid_opener_free() -> None:  # decision 3
    S = mn.new(4)
    ev = mn.act(S, mn.Dice(), *[mn.PASS] * 4)
    assert S["hm"] == 0 and S["cash"][0] == 30
    assert {"type": "harbour_master", "seat": 0, "paid": 0} in ev


def test_4_1_last_player_may_still_bid() -> None:  # decision 4
    S = mn.new(4)
    mn.act(S, mn.Dice(), mn.PASS, mn.PASS, mn.PASS)
    assert S["turn"] == 3 and S["phase"] == "auction"
    mn.act(S, mn.Dice(), {"type": "bid", "amount": 1})
    assert S["hm"] == 3 and S["cash"][3] == 29


def _finish_empty_voyage(mn, S, rng):
    """HM buys nothing, launches, everyone declines; 9 dice of 1 send all to the shipyard."""
    rng.push(*[1] * 9)
    mn.act(S, rng, mn.NO_BUY, mn.launch(["nutmeg", "silk", "jade"], [3, 3, 3]))
    while S["phase"] == "place":
        mn.act(S, rng, mn.DECLINE)


def test_4_1_no_bid_previous_hm_keeps_role() -> None:
    S = mn.new(4)
    rng = mn.Dice()
    mn.act(S, rng, mn.PASS, mn.PASS, {"type": "bid", "amount": 1}, mn.PASS)
    assert S["hm"] == 2
    _finish_empty_voyage(mn, S, rng)
    assert S["voyage"] == 2 and S["phase"] == "auction" and S["turn"] == 2  # last HM opens
    cash = list(S["cash"])
    mn.act(S, rng, *[mn.PASS] * 4)
    assert S["hm"] == 2 and S["cash"] == cash  # keeps the role, pays nothing
    assert S["declined"] == [False] * 4  # decision 21: reset each voyage


def test_4_1_min_raise_option() -> None:  # decision 4 option
    S = mn.new(4, min_raise=5)
    mn.act(S, mn.Dice(), {"type": "bid", "amount": 3})
    bids = [a["amount"] for a in legal(mn, S) if a["type"] == "bid"]
    assert bids[0] == 8
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 1, {"type": "bid", "amount": 7}, random.Random())
    S = mn.new(4)
    mn.act(S, mn.Dice(), {"type": "bid", "amount": 3})
    assert [a["amount"] for a in legal(mn, S) if a["type"] == "bid"][0] == 4


# --- 4.2 harbour master duties ------------------------------------------------------


@pytest.mark.parametrize(("good", "step", "cost"),
                         [("nutmeg", 2, 10), ("silk", 3, 20), ("ginseng", 0, 5), ("jade", 1, 5)])
def test_4_2a_share_price_minimum_5(good, step, cost) -> None:  # worked example 2
    S = mn.new(4)
    mn.act(S, mn.Dice(), *[mn.PASS] * 4)
    S["step"][B.GOODS.index(good)] = step
    supply = S["supply"][B.GOODS.index(good)]
    ev = mn.act(S, mn.Dice(), {"type": "buy", "good": good})
    assert S["cash"][0] == 30 - cost
    assert {"type": "bought", "seat": 0, "good": good, "price": cost} in ev
    assert S["supply"][B.GOODS.index(good)] == supply - 1 and \
        S["bought"][0][B.GOODS.index(good)] == 1
    assert S["phase"] == "launch"


def test_4_2a_supply_exhausted_cannot_buy() -> None:  # decision 19
    S = mn.new(4)
    mn.act(S, mn.Dice(), *[mn.PASS] * 4)
    S["supply"][1] = 0
    assert {"type": "buy", "good": "silk"} not in legal(mn, S)
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 0, {"type": "buy", "good": "silk"}, random.Random())


def test_4_2b_exactly_three_distinct_goods() -> None:  # decision 1
    S = mn.new(4)
    mn.act(S, mn.Dice(), *[mn.PASS] * 4, mn.NO_BUY)
    for bad in (mn.launch(["silk", "silk", "jade"], [3, 3, 3]), mn.launch(["silk", "jade"], [4, 5]),
                mn.launch(["silk", "jade", "tea"], [3, 3, 3])):
        with pytest.raises(IllegalAction):
            mn.GAME.apply(S, 0, bad, random.Random())
    acts = [a for a in legal(mn, S) if a["type"] == "launch"]
    assert len(acts) == 4 * 25
    assert all(len(set(a["goods"])) == 3 for a in acts)


def test_4_2c_start_positions_sum_9() -> None:  # worked example 1
    S = mn.new(4)
    mn.act(S, mn.Dice(), *[mn.PASS] * 4, mn.NO_BUY)
    starts = {tuple(a["starts"]) for a in legal(mn, S) if a["type"] == "launch"}
    assert len(starts) == 25 and all(sum(s) == 9 and max(s) <= 5 for s in starts)
    assert (4, 3, 2) in starts and (4, 5, 0) in starts
    for bad in ([4, 5, 1], [6, 3, 0], [4, 5, -0.0], [-1, 5, 5]):
        with pytest.raises(IllegalAction):
            mn.GAME.apply(S, 0, mn.launch(["nutmeg", "silk", "jade"], bad), random.Random())
    mn.act(S, mn.Dice(), mn.launch(["nutmeg", "silk", "jade"], [4, 3, 2]))
    assert S["pos"] == [4, 3, 2]


# --- 4.3 placement ----------------------------------------------------------------------


def test_4_3_cheapest_free_seat() -> None:
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"))
    ev = mn.act(S, rng, mn.boat("jade"), mn.boat("jade"), mn.boat("jade"), mn.boat("jade"))
    assert [e["cost"] for e in ev if e["type"] == "placed"] == [3, 4, 5, 5]
    assert S["crew"][2] == [0, 1, 2, 3]
    assert mn.boat("jade") not in legal(mn, S)
    S, rng = mn.voyage(4, ("nutmeg", "silk", "ginseng"))
    ev = mn.act(S, rng, mn.boat("nutmeg"), mn.boat("nutmeg"), mn.boat("ginseng"), mn.boat("silk"))
    assert [e["cost"] for e in ev if e["type"] == "placed"] == [2, 3, 1, 3]
    assert S["cash"] == [28, 27, 29, 27]


def test_4_3_hm_first_then_clockwise() -> None:  # decision 20
    S = mn.new(4)
    rng = mn.Dice(*[1] * 9)
    mn.act(S, rng, mn.PASS, mn.PASS, {"type": "bid", "amount": 1}, mn.PASS, mn.NO_BUY,
           mn.launch(["nutmeg", "silk", "jade"], [3, 3, 3]))
    order = []
    for _ in range(8):
        order.append(S["turn"])
        mn.act(S, rng, mn.space("insurance") if not order[:-1] else mn.boat("jade")
               if len(S["crew"][2]) < 4 else mn.boat("nutmeg"))
    assert order == [2, 3, 0, 1, 2, 3, 0, 1]


def test_4_3_decline_is_final_for_the_voyage() -> None:  # decision 21
    S, rng = mn.voyage(4)
    rng.push(1, 1, 1)
    mn.act(S, rng, mn.boat("nutmeg"), mn.DECLINE, mn.boat("silk"), mn.boat("jade"))
    assert S["rolls"] == 1 and S["turn"] == 0
    mn.act(S, rng, mn.dock("A"))
    assert S["turn"] == 2  # seat 1 skipped
    assert S["left"][1] == 3


def test_4_3_insurance_pays_10() -> None:
    S, rng = mn.voyage(4)
    ev = mn.act(S, rng, mn.space("insurance"))
    assert S["cash"][0] == 40 and S["insurance"] == 0
    assert {"type": "cash", "seat": 0, "delta": 10, "why": "insurance"} in ev
    assert mn.space("insurance") not in legal(mn, S)


def test_4_3_pirate_bow_first_and_one_player_both() -> None:
    S, rng = mn.voyage(4)
    mn.act(S, rng, mn.space("pirate"))
    assert S["pirates"] == [0, None]
    mn.act(S, rng, mn.space("pirate"))
    assert S["pirates"] == [0, 1]
    assert mn.space("pirate") not in legal(mn, S)


def test_4_0_three_players_two_rounds_before_first_roll() -> None:
    S, rng = mn.voyage(3, dice=mn.Dice(*[1] * 9))
    spaces = [mn.dock("A"), mn.dock("B"), mn.dock("C"), mn.yard("A"), mn.yard("B"), mn.yard("C")]
    turns = []
    for a in spaces:
        turns.append(S["turn"])
        assert S["rolls"] == 0
        mn.act(S, rng, a)
    assert turns == [0, 1, 2, 0, 1, 2]  # the HM opens both opening rounds
    assert S["rolls"] == 1 and S["phase"] == "place" and S["turn"] == 0
    mn.act(S, rng, mn.boat("nutmeg"), mn.boat("nutmeg"), mn.boat("nutmeg"))
    assert S["rolls"] == 2
    mn.act(S, rng, mn.boat("silk"), mn.boat("silk"), mn.boat("silk"))
    assert S["voyage"] == 2  # 4 placement rounds, 3 rolls
    # 4 players: one round before roll 1
    S, rng = mn.voyage(4, dice=mn.Dice(*[1] * 9))
    mn.act(S, rng, *[mn.DECLINE] * 3)
    assert S["rolls"] == 0
    mn.act(S, rng, mn.boat("jade"))
    assert S["rolls"] == 1


# --- 4.4 movement -----------------------------------------------------------------------


def test_4_4_surplus_movement_lost() -> None:  # worked example 3
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (2, 2, 5), dice=mn.Dice(1, 1, 6, 4, 2, 5))
    mn.act(S, rng, mn.dock("A"), *[mn.DECLINE] * 3)
    assert S["pos"] == [3, 3, 11]
    ev = mn.act(S, rng, mn.dock("B"))
    assert S["pos"][:2] == [7, 5]
    assert S["where"][2] == engine.DOCK and S["pos"][2] == 14  # 3 of 5 used; 2 lost
    assert {"type": "arrived", "good": "jade", "dock": "A"} in ev
    assert {"type": "roll", "roll": 2, "dice": {"nutmeg": 4, "silk": 2, "jade": 5}} in ev


def test_4_4_docked_boats_do_not_move() -> None:
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (2, 2, 5),
                       dice=mn.Dice(1, 1, 6, 1, 1, 6, 1, 1, 6))
    mn.act(S, rng, mn.dock("A"), *[mn.DECLINE] * 3, mn.dock("B"))
    assert S["pos"][2] == 14
    ev = mn.act(S, rng, mn.dock("C"))
    assert not [e for e in ev if e["type"] == "arrived"]  # jade stays docked, never re-arrives
    assert S["voyage"] == 2


# --- 4.5 pilots -------------------------------------------------------------------------


def _pilot_position(mn, **options):
    """Example 8: nutmeg 13, jade 12, ginseng 12 before the pilots; seat 0 small pilot,
    seat 1 large pilot, seat 2 a pirate (who stays after roll 2)."""
    S, rng = mn.voyage(4, ("nutmeg", "jade", "ginseng"), (5, 2, 2),
                       dice=mn.Dice(4, 5, 5, 4, 5, 5), **options)
    mn.act(S, rng, mn.space("pilot_small"), mn.space("pilot_large"), mn.space("pirate"), mn.DECLINE,
           mn.DECLINE, mn.DECLINE, mn.DECLINE)
    assert S["phase"] == "board" and S["turn"] == 2
    mn.act(S, rng, {"type": "stay"})
    assert S["phase"] == "pilot_small" and S["turn"] == 0
    assert S["pos"] == [13, 12, 12]
    return S, rng


def test_4_5_pilots_small_then_large() -> None:  # worked example 8
    S, rng = _pilot_position(mn)
    small = [a["moves"] for a in legal(mn, S) if a["type"] == "pilot"]
    assert sorted(map(str, small)) == sorted(map(str, [[], [["nutmeg", -1]], [["nutmeg", 1]],
                                                       [["jade", -1]], [["jade", 1]],
                                                       [["ginseng", -1]], [["ginseng", 1]]]))
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 0, {"type": "pilot", "moves": [["jade", 2]]}, random.Random())
    ev = mn.act(S, rng, {"type": "pilot", "moves": [["nutmeg", 1]]})
    assert {"type": "arrived", "good": "nutmeg", "dock": "A"} in ev
    assert S["phase"] == "pilot_large" and S["turn"] == 1
    large = [a["moves"] for a in legal(mn, S) if a["type"] == "pilot"]
    assert all(g != "nutmeg" for m in large for g, _ in m)  # docked: out of reach
    rng.push(6, 1, 1)
    ev = mn.act(S, rng, {"type": "pilot", "moves": [["jade", -1], ["ginseng", 1]]})
    kinds = [e["type"] for e in ev]
    assert kinds.index("piloted") < kinds.index("roll")
    # ginseng on 13 after a pilot: not attacked
    assert "plundered" not in kinds[:kinds.index("roll")]
    assert {"type": "arrived", "good": "ginseng", "dock": "B"} in ev
    assert S["voyage"] == 2


def test_4_5_large_pilot_options() -> None:  # decision 9
    S, rng = _pilot_position(mn)
    mn.act(S, rng, {"type": "pilot", "moves": []})
    large = [a["moves"] for a in legal(mn, S) if a["type"] == "pilot"]
    # nothing; 3 boats x (+-1, +-2); 3 pairs x 4 directions
    assert len(large) == 1 + 12 + 12
    assert [] in large and [["jade", -2]] in large and [["nutmeg", 1], ["ginseng", -1]] in large
    assert [["jade", 1], ["jade", 1]] not in large
    ev = mn.act(S, rng, {"type": "pilot", "moves": [["nutmeg", 2]]})
    assert {"type": "arrived", "good": "nutmeg", "dock": "A"} in ev


def test_4_5_pilot_never_below_zero() -> None:
    S, rng = _pilot_position(mn)
    S["pos"] = [13, 1, 0]
    moves = [a["moves"] for a in legal(mn, S) if a["type"] == "pilot"]
    assert [["ginseng", -1]] not in moves and [["jade", -1]] in moves
    mn.act(S, rng, {"type": "pilot", "moves": []})
    moves = [a["moves"] for a in legal(mn, S) if a["type"] == "pilot"]
    assert [["jade", -2]] not in moves and [["jade", -1]] in moves


def test_4_5_no_pilots_roll_directly() -> None:
    S, rng = mn.voyage(4, dice=mn.Dice(*[1] * 6))
    mn.act(S, rng, mn.space("pilot_large"), *[mn.DECLINE] * 4)
    assert S["phase"] == "pilot_large" and S["turn"] == 0 and S["rolls"] == 2


# --- 4.6 docks, 4.8 shipyard ----------------------------------------------------------------


def test_4_6_dock_order() -> None:  # worked example 4
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (2, 2, 5),
                       dice=mn.Dice(1, 1, 6, 5, 5, 3, 6, 6, 1))
    mn.act(S, rng, mn.dock("A"), mn.dock("B"), mn.dock("C"), mn.yard("A"))
    ev = mn.act(S, rng, *[mn.DECLINE] * 4)
    arrived = [(e["good"], e["dock"]) for e in ev if e["type"] == "arrived"]
    assert arrived == [("jade", "A"), ("nutmeg", "B"), ("silk", "C")]
    # had only one arrived on roll 3: dock C empty, the other to shipyard A
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (2, 2, 5),
                       dice=mn.Dice(1, 1, 6, 5, 5, 3, 6, 1, 1))
    mn.act(S, rng, mn.dock("A"), mn.dock("B"), mn.dock("C"), mn.yard("A"))
    ev = mn.act(S, rng, *[mn.DECLINE] * 4)
    assert [(e["good"], e["dock"]) for e in ev if e["type"] == "arrived"] == [
        ("jade", "A"), ("nutmeg", "B")]
    assert [(e["good"], e["space"]) for e in ev if e["type"] == "shipyard"] == [("silk", "A")]
    deltas = mn.cash_deltas(ev, 4)
    assert deltas == [6, 8, 0, 6]  # dock C empty: nothing


def test_4_8_shipyard() -> None:  # worked example 5
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (3, 3, 3),
                       dice=mn.Dice(1, 5, 1, 1, 5, 1, 1, 5, 1))
    ev = mn.act(S, rng, *[mn.DECLINE] * 4)
    assert [e["good"] for e in ev if e["type"] == "arrived"] == ["silk"]
    assert [(e["good"], e["space"]) for e in ev if e["type"] == "shipyard"] == [
        ("nutmeg", "A"), ("jade", "B")]
    assert S["step"] == [0, 1, 0, 0]


# --- 4.7 pirates -----------------------------------------------------------------------


def _boarding_position(mn, **options):
    """Example 6: after roll 2 jade (full, 4 crew) and ginseng (1 free seat) are on 13;
    seat 2 is captain, seat 3 second pirate."""
    S, rng = mn.voyage(4, ("jade", "ginseng", "nutmeg"), (3, 3, 3),
                       dice=mn.Dice(5, 5, 1, 5, 5, 1), **options)
    mn.act(S, rng, *[mn.boat("jade")] * 4)
    assert S["rolls"] == 1 and S["phase"] == "place"
    mn.act(S, rng, mn.boat("ginseng"), mn.boat("ginseng"), mn.space("pirate"), mn.space("pirate"))
    assert S["pos"] == [13, 13, 5]
    return S, rng


def test_4_7a_boarding_only_after_roll_2() -> None:
    S, rng = _boarding_position(mn)
    assert S["phase"] == "board" and S["turn"] == 2
    assert legal(mn, S)[:2] == [{"type": "board", "good": "ginseng"}, {"type": "stay"}]


def test_4_7a_second_becomes_captain() -> None:  # worked example 6
    S, rng = _boarding_position(mn)
    cash = list(S["cash"])
    mn.act(S, rng, {"type": "board", "good": "ginseng"})
    assert S["crew"][1] == [0, 1, 2] and S["pirates"] == [3, None]
    assert S["cash"] == cash  # decision 13: boarding is free
    assert S["phase"] == "place" and S["turn"] == 0  # both boats full: seat 3 not asked


def test_4_7a_second_may_board_when_captain_stays() -> None:  # decision 6
    S, rng = _boarding_position(mn)
    mn.act(S, rng, {"type": "stay"})
    assert S["phase"] == "board" and S["turn"] == 3 and S["pirates"] == [2, 3]
    mn.act(S, rng, {"type": "board", "good": "ginseng"})
    assert S["pirates"] == [2, None] and S["crew"][1] == [0, 1, 3]
    S, rng = _boarding_position(mn, second_pirate_may_board=False)
    mn.act(S, rng, {"type": "stay"})
    assert S["phase"] == "place" and S["pirates"] == [2, 3]


def test_4_7a_vacated_pirate_space_refilled_bow_first() -> None:  # decision 7
    S, rng = mn.voyage(4, ("jade", "ginseng", "nutmeg"), (3, 3, 3), dice=mn.Dice(5, 5, 1, 5, 5, 1))
    mn.act(S, rng, mn.boat("jade"), mn.boat("ginseng"), mn.space("pirate"), mn.space("pirate"),
           mn.DECLINE, mn.DECLINE, mn.dock("A"), mn.dock("B"))
    assert S["phase"] == "board" and S["turn"] == 2
    mn.act(S, rng, {"type": "board", "good": "jade"})
    assert S["turn"] == 3 and S["pirates"] == [3, None]
    mn.act(S, rng, {"type": "board", "good": "ginseng"})
    assert S["pirates"] == [None, None] and S["phase"] == "place" and S["turn"] == 2
    assert mn.space("pirate") in legal(mn, S)
    mn.act(S, rng, mn.space("pirate"))
    assert S["pirates"] == [2, None]


def _plunder_position(mn, pirates: int = 2, **options):
    """Example 7: nutmeg on 13 after roll 3; seats 0 and 1 pirates, seats 2, 3 nutmeg crew."""
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (3, 3, 3),
                       dice=mn.Dice(3, 1, 1, 3, 1, 1, 4, 1, 1), **options)
    first = [mn.space("pirate") if i < pirates else mn.dock("A" if i == 0 else "B")
             for i in range(2)]
    mn.act(S, rng, *first, mn.boat("nutmeg"), mn.boat("nutmeg"), *[mn.DECLINE] * 4)
    return S, rng


def test_4_7b_plunder_split_and_captain_chooses() -> None:  # worked example 7
    S, rng = _plunder_position(mn)
    assert S["phase"] == "plunder" and S["turn"] == 0 and S["pos"][0] == 13
    assert legal(mn, S)[:2] == [{"type": "send", "good": "nutmeg", "to": "manila"},
                                {"type": "send", "good": "nutmeg", "to": "shipyard"}]
    cash = list(S["cash"])
    mn.act(S, rng, {"type": "send", "good": "nutmeg", "to": "manila"})
    assert [S["cash"][s] - cash[s] for s in range(4)] == [12, 12, 0, 0]
    assert S["step"][0] == 1  # price rises even when plundered (decision 12)


def test_4_7b_plunder_sent_to_shipyard() -> None:
    S, rng = _plunder_position(mn)
    ev = mn.act(S, rng, {"type": "send", "good": "nutmeg", "to": "shipyard"})
    assert [e["space"] for e in ev if e["type"] == "shipyard"] == ["C"]  # after silk, jade
    assert S["step"] == [0, 0, 0, 0]


def test_4_7b_lone_pirate_takes_all() -> None:
    S, rng = _plunder_position(mn, pirates=1)
    cash = S["cash"][0]
    mn.act(S, rng, {"type": "send", "good": "nutmeg", "to": "manila"})
    assert S["cash"][0] - cash == 24


def test_4_7b_boat_on_13_no_pirates_arrives() -> None:  # decision 11
    S, rng = _plunder_position(mn, pirates=0)
    assert S["voyage"] == 2 and S["step"][0] == 1
    # seats 2, 3 crew paid 12 each (paid 2 and 3), seat 0 on dock A paid 6 (cost 4)
    assert S["cash"] == [32, 27, 40, 39]  # seat 1 on dock B: one boat, unpaid


def test_4_7b_several_plundered_boats() -> None:  # decision 14
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (3, 3, 3),
                       dice=mn.Dice(3, 3, 1, 3, 3, 1, 4, 4, 1))
    mn.act(S, rng, mn.space("pirate"), mn.space("pirate"), mn.boat("silk"), *[mn.DECLINE] * 4)
    assert S["phase"] == "plunder" and S["plunder"] == [0, 1]
    mn.act(S, rng, {"type": "send", "good": "nutmeg", "to": "manila"})
    assert S["phase"] == "plunder" and S["turn"] == 0
    mn.act(S, rng, {"type": "send", "good": "silk", "to": "shipyard"})
    assert S["cash"][:3] == [25 + 12 + 15, 25 + 12 + 15, 27]


# --- 4.9 payouts ----------------------------------------------------------------------------


def test_4_9_payout_order_and_amounts() -> None:
    # 3 players: seat 0 pirate, seat 1 insurance; nutmeg plundered, silk docks (crew seat 2),
    # jade to the shipyard; seat 2 on dock A and on shipyard A.
    S, rng = mn.voyage(3, ("nutmeg", "silk", "jade"), (3, 3, 3),
                       dice=mn.Dice(3, 5, 1, 3, 4, 1, 4, 5, 1))
    mn.act(S, rng, mn.space("pirate"), mn.space("insurance"), mn.boat("silk"),
           mn.DECLINE, mn.DECLINE, mn.dock("A"))
    mn.act(S, rng, mn.yard("A"), mn.DECLINE)
    assert S["phase"] == "plunder"
    ev = mn.act(S, rng, {"type": "send", "good": "nutmeg", "to": "manila"})
    whys = [(e["seat"], e["delta"], e["why"]) for e in ev if e["type"] == "cash"]
    assert whys == [(0, 24, "plunder"), (2, 30, "crew"), (2, 6, "dock A"),
                    (1, -6, "insurance"), (2, 6, "shipyard A")]


def test_4_9b_crew_payout() -> None:  # worked example 9
    S, rng = mn.voyage(3, ("jade", "silk", "nutmeg"), (5, 3, 1), dice=mn.Dice(5, 1, 1, 5, 1, 1))
    mn.act(S, rng, mn.boat("jade"), mn.boat("jade"), mn.boat("jade"), *[mn.DECLINE] * 3)
    # red = seat 0 x 2? seats 0 and 2 give red x2: re-seat so one player has two seats
    assert S["voyage"] == 2
    S, rng = mn.voyage(3, ("jade", "silk", "nutmeg"), (5, 3, 1), dice=mn.Dice(5, 1, 1, 5, 1, 1))
    mn.act(S, rng, mn.boat("jade"), mn.boat("jade"), mn.DECLINE, mn.boat("jade"), *[mn.DECLINE] * 2)
    assert S["voyage"] == 2
    assert S["cash"][0] == 30 - 3 - 5 + 24 and S["cash"][1] == 30 - 4 + 12


def test_4_9c_dock_payout() -> None:  # worked example 10
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (3, 3, 3),
                       dice=mn.Dice(6, 6, 1, 6, 6, 1, 1, 1, 1))
    ev = mn.act(S, rng, mn.dock("A"), mn.dock("B"), mn.dock("C"), *[mn.DECLINE] * 4)
    assert [e["dock"] for e in ev if e["type"] == "arrived"] == ["A", "B"]
    assert mn.cash_deltas(ev, 4) == [-4 + 6, -3 + 8, -2, 0]


def test_4_9d_shipyard_no_insurance_bank_pays() -> None:  # worked example 11
    S, rng = mn.voyage(4, ("ginseng", "silk", "jade"), (3, 3, 3),
                       dice=mn.Dice(1, 6, 6, 1, 6, 6, 1, 1, 1))
    ev = mn.act(S, rng, mn.yard("A"), mn.yard("B"), *[mn.DECLINE] * 4)
    assert [e["good"] for e in ev if e["type"] == "shipyard"] == ["ginseng"]
    assert mn.cash_deltas(ev, 4) == [-4 + 6, -3, 0, 0]


def test_4_9d_insurance() -> None:  # worked example 12
    S, rng = mn.voyage(4, ("ginseng", "silk", "jade"), (3, 3, 3),
                       dice=mn.Dice(1, 1, 6, 1, 1, 6, 1, 1, 1))
    mn.act(S, rng, mn.space("insurance"), mn.yard("B"), mn.DECLINE, mn.DECLINE, mn.yard("A"))
    cash = list(S["cash"])
    ev = mn.act(S, rng, mn.DECLINE, mn.DECLINE)
    assert [e["space"] for e in ev if e["type"] == "shipyard"] == ["A", "B"]
    assert {"type": "insured", "seat": 0, "space": "A", "amount": 6, "to_self": True} in ev
    assert [S["cash"][s] - cash[s] for s in range(4)] == [-8, 8, 0, 0]
    assert cash[0] == 30 + 10 - 4


def test_4_9d_insurance_pays_bank_for_empty_space() -> None:
    S, rng = mn.voyage(4, ("ginseng", "silk", "jade"), (3, 3, 3), dice=mn.Dice(*[1] * 9))
    ev = mn.act(S, rng, mn.space("insurance"), *[mn.DECLINE] * 4)
    assert mn.cash_deltas(ev, 4) == [10 - 29, 0, 0, 0]


def test_4_9d_insurance_agent_short_bank_covers() -> None:
    S, rng = mn.voyage(4, ("ginseng", "silk", "jade"), (3, 3, 3), dice=mn.Dice(*[1] * 9))
    S["dealt"][1] = []  # no shares: nothing to mortgage
    mn.act(S, rng, mn.yard("A"), mn.space("insurance"), mn.yard("B"), mn.yard("C"))
    S["cash"][1] = 3
    ev = mn.act(S, rng, *[mn.DECLINE] * 4)
    assert S["cash"][1] == 0
    assert [S["cash"][0], S["cash"][2], S["cash"][3]] == [26 + 6, 27 + 8, 28 + 15]
    assert sum(e["amount"] for e in ev if e["type"] == "bank_covers") == 29 - 3


def test_4_9d_insurance_agent_forced_mortgage() -> None:
    S, rng = mn.voyage(4, ("ginseng", "silk", "jade"), (3, 3, 3), dice=mn.Dice(*[1] * 9))
    mn.act(S, rng, mn.yard("A"), mn.space("insurance"), mn.yard("B"), mn.yard("C"))
    S["cash"][1] = 3
    ev = mn.act(S, rng, *[mn.DECLINE] * 4)
    assert sum(S["mort"][1]) == 2 and S["cash"][1] == 0  # 3 + 24 < 29: the bank covers 2
    assert {"type": "bank_covers", "seat": 1, "amount": 2} in ev


def test_4_9d_agent_collects_other_payouts_first() -> None:
    # the agent holds dock A; one boat arrives, two go to the shipyard (6 + 8 = 14 owed)
    S, rng = mn.voyage(4, ("ginseng", "silk", "jade"), (3, 3, 3),
                       dice=mn.Dice(6, 1, 1, 6, 1, 1, 1, 1, 1))
    S["dealt"][0] = []
    mn.act(S, rng, mn.space("insurance"), mn.yard("A"), mn.yard("B"), mn.DECLINE, mn.dock("A"))
    S["cash"][0] = 8
    ev = mn.act(S, rng, *[mn.DECLINE] * 3)
    assert not [e for e in ev if e["type"] == "bank_covers"]  # 8 + 6 = 14
    assert S["cash"][0] == 0


# --- 4.10 price, 6.3 end ------------------------------------------------------------------


def test_4_10_price_rise_and_end_at_30() -> None:
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (3, 3, 3),
                       dice=mn.Dice(6, 6, 1, 6, 6, 1, 1, 1, 1))
    S["step"] = [3, 1, 2, 0]
    ev = mn.act(S, rng, mn.boat("nutmeg"), *[mn.DECLINE] * 4)
    assert S["step"] == [4, 2, 2, 0]
    assert S["over"] and mn.GAME.to_act(S) == [] and mn.GAME.is_over(S)
    kinds = [e["type"] for e in ev]
    assert kinds.index("cash") < kinds.index("prices") < kinds.index("game_over")  # decision 24
    assert {"type": "prices", "prices": {"nutmeg": 30, "silk": 10, "ginseng": 10, "jade": 0}} in ev
    assert S["cash"][0] == 30 - 2 + 24


def test_4_10_prices_never_fall_and_cleanup() -> None:
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (3, 3, 3), dice=mn.Dice(*[1] * 9))
    S["step"] = [2, 1, 0, 3]
    mn.act(S, rng, mn.space("pirate"), mn.space("insurance"), *[mn.DECLINE] * 4)
    assert S["step"] == [2, 1, 0, 3]
    assert S["pirates"] == [None, None] and S["insurance"] is None and S["crew"] == []
    assert S["phase"] == "auction" and S["turn"] == 0 and S["passed"] == [False] * 4


# --- 6 money and end --------------------------------------------------------------------------


def test_6_1_mortgage_and_redeem() -> None:  # worked example 13
    S = mn.new(4)
    g = B.GOODS[S["dealt"][0][0]]
    ev = mn.act(S, mn.Dice(), {"type": "mortgage", "good": g})
    assert S["cash"][0] == 42 and sum(S["mort"][0]) == 1 and S["turn"] == 0  # free action
    assert {"type": "redeem", "good": g} in legal(mn, S)
    ev = mn.act(S, mn.Dice(), {"type": "redeem", "good": g})
    assert S["cash"][0] == 27 and sum(S["mort"][0]) == 0
    assert mn.cash_deltas(ev, 4) == [-15, 0, 0, 0]
    S["cash"][0] = 14
    mn.act(S, mn.Dice(), {"type": "mortgage", "good": g})
    S["cash"][0] = 14
    assert not [a for a in legal(mn, S) if a["type"] == "redeem"]
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 0, {"type": "redeem", "good": g}, random.Random())
    wrong = next(x for x in B.GOODS if x not in [B.GOODS[d] for d in S["dealt"][0]])
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 0, {"type": "mortgage", "good": wrong}, random.Random())
    with pytest.raises(IllegalAction):  # not to act
        mn.GAME.apply(S, 1, {"type": "mortgage", "good": g}, random.Random())


def test_6_1_mortgage_any_time_option() -> None:  # decision 15
    S = mn.new(4, mortgage_any_time=False)
    assert not [a for a in legal(mn, S) if a["type"] in ("mortgage", "redeem")]
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 0, {"type": "mortgage", "good": B.GOODS[S["dealt"][0][0]]},
                      random.Random())
    # bids may still count mortgages (forced on payment)
    assert max(a["amount"] for a in legal(mn, S) if a["type"] == "bid") == 54


def test_6_1_forced_mortgage() -> None:
    S, rng = mn.voyage(4)
    S["cash"][0] = 3
    S["dealt"][0] = [1, 3]  # silk and jade
    S["step"] = [0, 2, 0, 1]
    ev = mn.act(S, rng, mn.dock("A"))
    assert S["cash"][0] == 3 + 12 - 4 and S["mort"][0] == [0, 0, 0, 1]  # cheapest good first
    kinds = [e["type"] for e in ev]
    assert kinds.index("mortgaged") < kinds.index("placed")
    private = [e for e in ev if e["type"] == "mortgaged_good"]
    assert private == [{"type": "mortgaged_good", "seat": 0, "good": "jade", "to": [0]}]


def test_6_2_stowaway() -> None:
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"))
    S["cash"][0], S["dealt"][0] = 0, []
    acts = legal(mn, S)
    assert [a for a in acts if a.get("stowaway")] == \
        [mn.boat(g, True) for g in ("nutmeg", "silk", "jade")]
    assert not [a for a in acts
                if a["type"] == "place" and not a.get("stowaway") and a["space"] != "insurance"]
    ev = mn.act(S, rng, mn.boat("silk", True))
    assert S["cash"][0] == 0 and S["crew"][1] == [0]
    assert {"type": "placed", "seat": 0, "space": "silk seat 1", "cost": 0, "stowaway": True} in ev
    # a player with money may not stow away
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 1, mn.boat("silk", True), random.Random())


def test_6_2_stowaway_all_spaces_too_expensive() -> None:  # decision 10
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"))
    S["cash"][0], S["dealt"][0] = 1, []
    acts = legal(mn, S)
    assert mn.space("insurance") in acts  # the insurance space does not count as affordable
    assert [a for a in acts if a.get("stowaway")] == \
        [mn.boat(g, True) for g in ("nutmeg", "silk", "jade")]
    S["cash"][0] = 2  # nutmeg seat 2 now affordable: no stowaway
    assert not [a for a in legal(mn, S) if a.get("stowaway")]


def test_6_2_stowaway_insurance_agent_cannot() -> None:  # decision 10, reading A
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"))
    mn.act(S, rng, mn.space("insurance"), *[mn.DECLINE] * 3)
    S["cash"][0], S["dealt"][0] = 0, []
    assert S["turn"] == 0
    assert not [a for a in legal(mn, S) if a.get("stowaway")]


def test_6_2_stowaway_rule_broke_no_insurance() -> None:  # decision 10, reading B
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), stowaway_rule="broke_no_insurance")
    S["cash"][0], S["dealt"][0] = 0, []
    acts = legal(mn, S)
    assert mn.space("insurance") not in acts and mn.boat("jade", True) in acts
    S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"))
    S["cash"][0], S["dealt"][0] = 0, []
    assert mn.space("insurance") in legal(mn, S)


def test_6_3_final_scoring_mortgaged_minus_15() -> None:  # worked example 13
    S = mn.new(4)
    S["dealt"] = [[0, 1], [1, 1], [2, 3], [0, 3]]
    S["step"] = [4, 3, 1, 0]  # 30, 20, 5, 0
    S["mort"][0] = [1, 0, 0, 0]
    S["cash"] = [10, 20, 40, 46]
    sc = mn.GAME.scores(S)
    assert sc["scores"] == [10 + 30 + 20 - 15, 20 + 40, 40 + 5, 46 + 30]
    assert sc["rank"] == [3, 2, 3, 1]  # 45, 60, 45, 76: shared 3rd


def test_6_3_ties_shared_or_cash() -> None:  # decision 17
    S = mn.new(4)
    S["dealt"] = [[2, 2], [2, 2], [2, 2], [2, 2]]
    S["cash"] = [30, 30, 20, 10]
    assert mn.GAME.scores(S)["rank"] == [1, 1, 3, 4]
    S["step"][2] = 1
    S["cash"] = [30, 20, 10, 10]
    S["bought"][1][2] = 2
    assert mn.GAME.scores(S)["scores"][:2] == [40, 40]
    assert mn.GAME.scores(S)["rank"][:2] == [1, 1]
    S["opt"]["tie_break"] = "cash"
    assert mn.GAME.scores(S)["rank"][:2] == [1, 2]


def test_6_4_views_hide_secret_shares() -> None:
    S = mn.new(4)
    mn.act(S, mn.Dice(), {"type": "mortgage", "good": B.GOODS[S["dealt"][0][0]]})
    for seat in (1, 2, 3, None):
        v = mn.GAME.view(S, seat)
        assert "dealt" not in v and "mort" not in v
        assert v["mortgaged"] == [1, 0, 0, 0] and v["shares"] == [2, 2, 2, 2]
        if seat is not None:
            assert v["my_dealt"] == S["dealt"][seat]
    assert mn.GAME.view(S, 0)["my_mort"] == S["mort"][0]
    # changing another seat's secret shares changes nothing seat 1 sees
    before = mn.GAME.view(S, 1)
    S["dealt"][2], S["dealt"][3] = S["dealt"][3], S["dealt"][2]
    S["mort"][0] = [0, 0, 0, 0]
    S["mort"][0][S["dealt"][0][1]] = 1
    assert mn.GAME.view(S, 1) == before


def test_6_4_events_hide_secret_goods() -> None:
    S = mn.new(4)
    rng = mn.Dice()
    g = B.GOODS[S["dealt"][0][0]]
    ev = mn.act(S, rng, {"type": "mortgage", "good": g}, {"type": "redeem", "good": g})
    for e in ev:
        if "good" in e or "goods" in e:
            assert e.get("to") == [0], e


def test_option_hide_cash() -> None:  # decision 16
    S, rng = mn.voyage(4, hide_cash=True)
    v = mn.GAME.view(S, 1)
    assert "cash" not in v and v["my_cash"] == 30
    ev = mn.act(S, rng, mn.dock("A"))
    assert all(e.get("to") == [0] for e in ev if e["type"] == "cash")
    S, rng = mn.voyage(4)
    assert mn.GAME.view(S, 1)["cash"] == [30] * 4
    ev = mn.act(S, rng, mn.dock("A"))
    assert all("to" not in e for e in ev if e["type"] == "cash")


def test_option_crew_docked_boats() -> None:  # decision 8
    for allowed in (True, False):
        S, rng = mn.voyage(4, ("nutmeg", "silk", "jade"), (2, 2, 5),
                           dice=mn.Dice(1, 1, 6, 1, 1, 6, 1, 1, 1),
                           crew_docked_boats=allowed)
        mn.act(S, rng, mn.boat("nutmeg"), *[mn.DECLINE] * 3, mn.dock("A"))
        assert S["where"][2] == engine.DOCK and S["phase"] == "place"
        assert (mn.boat("jade") in legal(mn, S)) is allowed
        if allowed:
            mn.act(S, rng, mn.boat("jade"))
            assert S["voyage"] == 2 and S["cash"][0] == 30 - 2 - 4 - 3 + 6 + 36


def test_options_declared_and_checked() -> None:
    from lantable.plugins import BadOptions  # noqa: PLC0415
    opts = mn.GAME.info["options"]
    assert set(opts) == {"pirates_displace", "mortgage_any_time", "crew_docked_boats",
                         "second_pirate_may_board", "stowaway_rule", "hide_cash", "tie_break",
                         "min_raise"}
    defaults = mn.GAME.options({})
    assert defaults == {"pirates_displace": False, "mortgage_any_time": True,
                        "crew_docked_boats": True, "second_pirate_may_board": True,
                        "stowaway_rule": "literal", "hide_cash": False, "tie_break": "shared",
                        "min_raise": 1}
    for bad in ({"nope": 1}, {"min_raise": 3}, {"stowaway_rule": "x"}, {"hide_cash": 1}):
        with pytest.raises(BadOptions):
            mn.GAME.setup(4, bad, random.Random(0))
    for seats in (2, 6):
        with pytest.raises(BadOptions):
            mn.GAME.setup(seats, {}, random.Random(0))


# --- 7.2 variant ---------------------------------------------------------------------------


def test_7_2_variant_pirates_displace() -> None:
    S, rng = _boarding_position(mn, pirates_displace=True)
    acts = legal(mn, S)
    # free seats first: ginseng has one, so only jade may be boarded by displacement
    assert {"type": "board", "good": "ginseng"} in acts
    assert not [a for a in acts if a.get("good") == "ginseng" and "displace" in a]
    assert [a["displace"] for a in acts if a["type"] == "board" and a["good"] == "jade"] == \
        [0, 1, 2, 3]
    mn.act(S, rng, {"type": "board", "good": "jade", "displace": 1})
    assert S["crew"][0] == [0, 2, 2, 3] and S["left"][1] == 2  # seat 1 gets it back
    assert S["phase"] == "board" and S["turn"] == 3 and S["pirates"] == [3, None]
    acts = legal(mn, S)
    # not the captain
    assert [a.get("displace") for a in acts if a["type"] == "board" and a["good"] == "jade"] == \
        [0, 2, 3]
    mn.act(S, rng, {"type": "board", "good": "jade", "displace": 0})
    assert S["crew"][0] == [3, 2, 2, 3] and S["left"][0] == 2
    # without the variant, a full boat cannot be boarded
    S, rng = _boarding_position(mn)
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 2, {"type": "board", "good": "jade", "displace": 0}, random.Random())
    with pytest.raises(IllegalAction):
        mn.GAME.apply(S, 2, {"type": "board", "good": "jade"}, random.Random())
