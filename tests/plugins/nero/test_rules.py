"""Rules of digest sections 2-5 and 7, each test named after its section."""

from __future__ import annotations

import random

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.nero import board as B
from lantable.plugins.nero import engine, hands
from lantable.plugins.nero import moves as M
from lantable.plugins.nero.data import AREAS, ASIA, CENTRAL, EAST, IN_AREA, ROME, WEST

from . import helpers as nx


def _march(nx, S, seat, src, legions, card, leader=False):
    return nx.play(S, seat, {"type": "march", "cards": [card], "from": nx.P[src],
                             "legions": legions, "leader": leader})


# --- 4 setup ----------------------------------------------------------------------


def test_4_setup_bases_legions_generals_cards() -> None:
    S = nx.fresh(4, seed=3)
    assert sorted(S["bases"]) == sorted(AREAS)
    for seat in range(4):
        mine = [lg["province"] for lg in S["legions"] if lg["owner"] == seat]
        assert len(mine) == 7
        assert set(mine) == set(IN_AREA[S["bases"][seat]])  # one in each, 2 more inside
        assert S["leaders"][seat]["location"] in IN_AREA[S["bases"][seat]]
        assert S["leaders"][seat]["rank"] == B.GENERAL
        assert len(S["hands"][seat]) == 10
    assert len(S["box_face_down"]) == 15
    assert S["active"] == 0  # the youngest (option) starts


def test_4_setup_draw_order_picks_bases() -> None:
    S = nx.GAME.setup(4, None, random.Random(5))
    order = []
    while S["pending"] and S["pending"][-1]["kind"] == "base":
        seat = nx.GAME.to_act(S)[0]
        order.append(seat)
        legal = nx.GAME.legal_actions(S, seat)
        assert len(legal) == 4 - len(order) + 1  # only Areas not yet taken
        nx.play(S, seat, legal[-1])
    assert sorted(order) == [0, 1, 2, 3]


def test_4_setup_places_from_the_youngest_clockwise() -> None:
    S = nx.GAME.setup(4, nx.opts(youngest=2), random.Random(1))
    while S["pending"][-1]["kind"] == "base":
        seat = nx.GAME.to_act(S)[0]
        nx.play(S, seat, nx.GAME.legal_actions(S, seat)[0])
    seats = []
    while S["setup"]:
        seat = nx.GAME.to_act(S)[0]
        seats.append((S["pending"][-1]["kind"], seat))
        nx.play(S, seat, nx.GAME.legal_actions(S, seat)[-1])
    assert seats == [("place", s) for s in (2, 3, 0, 1) * 2] + [("general", s)
                                                                 for s in (2, 3, 0, 1)]
    assert S["active"] == 2


def test_5_13_three_players_setup() -> None:
    S = nx.fresh(3)
    assert len(S["legions"]) == 21
    assert S["empty_area"] not in S["bases"]
    assert all(len(h) == 13 for h in S["hands"])
    assert not [lg for lg in S["legions"] if lg["province"] in IN_AREA[S["empty_area"]]]


def test_3_0_short_game_hands() -> None:
    assert all(len(h) == 6 for h in nx.fresh(4, short_game=True)["hands"])
    assert all(len(h) == 8 for h in nx.fresh(3, short_game=True)["hands"])


def test_4_bad_youngest_option_refused() -> None:
    with pytest.raises(Exception, match="youngest must be a seat"):
        nx.GAME.setup(4, nx.opts(youngest=7), random.Random(0))


# --- 5.1 / 5.2 the turn -------------------------------------------------------------


def test_5_1_first_player_has_fewest_vp_and_cards_are_redealt() -> None:
    S = nx.board(hands={0: [nx.cards("senate")[0]]}, park="Dacia")
    S["vp"] = [3, 1, 2, 5]
    S["legions"][0]["retreat_marker"] = True
    ev = nx.play(S, 0, {"type": "discard", "card": nx.cards("senate")[0]})
    assert "scored" in nx.types(ev)
    assert S["game_turn"] == 2
    assert S["active"] == 1
    assert all(len(h) == 10 for h in S["hands"])
    assert not any(lg["retreat_marker"] for lg in S["legions"])  # 5.1 step 4: Retreat markers off


def test_5_1_first_player_tie_drawn_at_random() -> None:
    firsts = set()
    for seed in range(12):
        S = nx.board(hands={0: [nx.cards("senate")[0]]}, park="Dacia")
        ev = nx.play(S, 0, {"type": "discard", "card": nx.cards("senate")[0]},
                     random.Random(seed))
        assert "first_drawn" in nx.types(ev)
        firsts.add(S["active"])
    assert len(firsts) > 1


def test_5_2_at_least_one_card_at_most_four() -> None:
    hand = nx.cards("senate")
    S = nx.board(hands={0: hand, 1: [nx.cards("corruption")[0]]}, park="Dacia")
    assert {"type": "end"} not in nx.GAME.legal_actions(S, 0)
    for c in hand[:3]:
        nx.play(S, 0, {"type": "discard", "card": c})
    assert {"type": "end"} in nx.GAME.legal_actions(S, 0)
    nx.play(S, 0, {"type": "discard", "card": hand[3]})
    assert S["active"] == 1  # the fourth card ends the round


def test_5_2_empty_hands_are_skipped() -> None:
    S = nx.board(hands={0: [nx.cards("senate")[0]], 2: nx.cards("corruption")[:2],
                        3: [nx.cards("praetorian")[0]]}, park="Dacia")
    nx.play(S, 0, {"type": "discard", "card": nx.cards("senate")[0]})
    assert S["active"] == 2


def test_5_2_events_between_the_groups_of_a_movement_action() -> None:
    """R 4.3 / 5.2: own-round Events and the declaration may be played whenever no army
    is on the move, also between the groups of one Movement Action; the pool stays for
    the Legions still in the source province."""
    five = nx.card("crisis", mp=5)
    traitor = nx.cards("traitor")[0]
    S = nx.board(legions={"Syria": {0: 3}}, hands={0: [five, traitor],
                                                   1: nx.cards("senate")[:2]}, park="Dacia")
    S["options"]["reactions"] = "holders"  # the script asks only the holders
    _march(nx, S, 0, "Syria", 1, five)
    nx.play(S, 0, {"type": "step", "to": nx.P["Asia Minor"]})
    assert not [a for a in nx.GAME.legal_actions(S, 0) if a["type"] == "event"]  # moving
    nx.play(S, 0, {"type": "halt"})
    assert {"type": "event", "card": traitor, "seat": 1} in nx.GAME.legal_actions(S, 0)
    ev = nx.play(S, 0, {"type": "event", "card": traitor, "seat": 1})
    assert "stolen" in nx.types(ev)
    assert S["movement"]["pool"] == 4  # the Movement Action goes on
    nx.play(S, 0, {"type": "group", "legions": 2, "leader": False})
    ev = nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    assert nx.count(S, "Judaea", 0) == 2
    with pytest.raises(IllegalAction):  # never in mid-move
        nx.play(S, 0, {"type": "discard", "card": S["hands"][0][0]})


def test_5_2_declaration_between_groups_r_4_3() -> None:
    """The General reaches Rome in one group; he may declare before the Legions left in
    Italia del Nord move on with the rest of the pool."""
    four = nx.card("bad_weather", mp=4)
    senate = nx.cards("senate")[:3]
    S = nx.board(legions={"Italia del Nord": {0: 3}, "Italia del Sud": {0: 2}},
                 leaders={0: "Italia del Nord"}, hands={0: [four] + senate}, park="Dacia")
    _march(nx, S, 0, "Italia del Nord", 0, four, leader=True)
    nx.play(S, 0, {"type": "step", "to": ROME})
    ev = nx.play(S, 0, {"type": "halt"})
    assert {"type": "declare", "cards": senate} in nx.GAME.legal_actions(S, 0)
    ev = nx.play(S, 0, {"type": "declare", "cards": senate})
    assert next(e for e in ev if e["type"] == "declared")["crowned"]
    assert S["movement"] is not None and S["movement"]["pool"] == 3
    assert {"type": "group", "legions": 3, "leader": False} in nx.GAME.legal_actions(S, 0)


# --- 5.4 movement -------------------------------------------------------------------


def test_5_4_1_one_source_province_and_lost_mp() -> None:
    five = nx.card("crisis", mp=5)
    S = nx.board(legions={"Syria": {0: 3}, "Judaea": {0: 2}}, hands={0: [five]}, park="Dacia")
    _march(nx, S, 0, "Syria", 1, five)
    nx.play(S, 0, {"type": "step", "to": nx.P["Asia Minor"]})
    nx.play(S, 0, {"type": "halt"})
    legal = nx.GAME.legal_actions(S, 0)
    assert {"type": "group", "legions": 2, "leader": False} in legal  # more from Syria
    assert all(a["type"] in ("group", "done") for a in legal)  # nothing from Judaea
    nx.play(S, 0, {"type": "done"})
    assert S["movement"] is None  # 4 MP left, lost


def test_5_4_2_naval_passage_costs_1() -> None:
    four = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Britannia": {0: 2}}, hands={0: [four]}, park="Dacia")
    _march(nx, S, 0, "Britannia", 2, four)
    nx.play(S, 0, {"type": "step", "to": nx.P["Germania Superior"]})
    assert S["movement"]["pool"] == 3


def test_5_4_3_no_fatigue_for_a_leader_alone() -> None:
    S = nx.board(park="Dacia")
    g = {"legions": [], "leader": True, "battles": 2, "at": 0}
    assert M.step_cost(S, g, 1) == 1
    g["legions"] = [0]
    assert M.step_cost(S, g, 1) == 3


def test_5_4_4_uncontrolled_pick_up_costs_2_and_converts() -> None:
    four = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Syria": {0: 1}}, unc={"Judaea": 2}, hands={0: [four]}, park="Dacia")
    _march(nx, S, 0, "Syria", 1, four)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    assert S["movement"]["group"]["blocked_by"] == []  # 5.4.5: Uncontrolled Legions do not block
    nx.play(S, 0, {"type": "pick", "kind": "unc"})
    assert S["movement"]["pool"] == 1
    assert nx.count(S, "Judaea", 0) == 3
    assert nx.count(S, "Judaea", -1) == 0


def test_5_4_4_a5_per_legion_option() -> None:
    four = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Syria": {0: 1}}, unc={"Judaea": 2}, hands={0: [four]},
                 park="Dacia", a5_pickup="per_legion")
    _march(nx, S, 0, "Syria", 1, four)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    assert {"type": "pick", "kind": "unc"} not in nx.GAME.legal_actions(S, 0)  # 4 > 3 MP


def test_5_4_4_moved_legions_cannot_be_picked_up_or_move_again() -> None:
    a, b = nx.card("bad_weather", mp=4), nx.card("bad_weather", mp=3)
    S = nx.board(legions={"Syria": {0: 2}}, hands={0: [a, b]}, park="Dacia")
    _march(nx, S, 0, "Syria", 2, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    nx.play(S, 0, {"type": "halt"})
    assert M.free_legions(S, 0, nx.P["Judaea"]) == []
    assert not [x for x in nx.GAME.legal_actions(S, 0)
                if x["type"] == "march" and x["from"] == nx.P["Judaea"]]


def test_5_4_4_dropped_legions_stay_put() -> None:
    a = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Syria": {0: 2}}, leaders={0: "Syria"}, hands={0: [a]},
                 park="Dacia")
    _march(nx, S, 0, "Syria", 2, a, leader=True)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    nx.play(S, 0, {"type": "drop", "legions": 2})
    nx.play(S, 0, {"type": "step", "to": nx.P["Aegyptus"]})
    assert S["leaders"][0]["location"] == nx.P["Aegyptus"]
    assert nx.count(S, "Judaea", 0) == 2
    assert M.free_legions(S, 0, nx.P["Judaea"]) == []


def test_5_4_5_enemy_leader_alone_does_not_block() -> None:
    a = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Syria": {0: 2}}, leaders={1: "Judaea"}, hands={0: [a]},
                 park="Dacia")
    _march(nx, S, 0, "Syria", 2, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    assert S["pending"] == []
    assert S["movement"]["group"]["blocked_by"] == []


def test_5_4_5_a7_beat_only_the_refusers() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Thracia": {0: 4}, "Dalmatia": {1: 1, 2: 1}}, hands={0: [a]},
                 park="Aegyptus")
    _march(nx, S, 0, "Thracia", 4, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Dalmatia"]})
    nx.play(S, 1, {"type": "stay"})
    nx.play(S, 2, {"type": "stay"})
    nx.play(S, 0, {"type": "passage"})
    nx.play(S, 1, {"type": "grant"})
    nx.play(S, 2, {"type": "refuse"})
    assert S["movement"]["group"]["blocked_by"] == [2]
    legal = nx.GAME.legal_actions(S, 0)
    assert {"type": "attack", "seat": 2} in legal
    assert not [x for x in legal if x["type"] in ("step", "passage")]


def test_5_4_7_leader_alone_enters_rome_and_pays_passage() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Italia del Nord": {1: 2}}, leaders={0: "Gallia Narbonensis"},
                 hands={0: [a]}, park="Dacia")
    nx.play(S, 0, {"type": "march", "cards": [a], "from": nx.P["Gallia Narbonensis"],
                   "legions": 0, "leader": True})
    nx.play(S, 0, {"type": "step", "to": nx.P["Italia del Nord"]})
    assert S["movement"]["group"]["blocked_by"] == [1]  # A10: he must stop unless given passage
    nx.play(S, 0, {"type": "passage"})
    nx.play(S, 1, {"type": "grant"})
    assert S["movement"]["pool"] == 3
    nx.play(S, 0, {"type": "step", "to": ROME})
    assert S["leaders"][0]["location"] == ROME


def test_3_4_legions_never_enter_rome() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Italia del Nord": {0: 2}}, leaders={0: "Italia del Nord"},
                 hands={0: [a]}, park="Dacia")
    _march(nx, S, 0, "Italia del Nord", 2, a, leader=True)
    assert {"type": "step", "to": ROME} not in nx.GAME.legal_actions(S, 0)
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "step", "to": ROME})


# --- 5.5 retreats -------------------------------------------------------------------


def test_5_5_retreat_marker_blocks_moves_until_2_mp() -> None:
    a = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Syria": {0: 2}}, hands={0: [a]}, park="Dacia")
    for lg in S["legions"]:
        if lg["owner"] == 0 and lg["province"] == nx.P["Syria"]:
            lg["retreat_marker"] = True
    legal = [x for x in nx.GAME.legal_actions(S, 0) if x["type"] == "march"
             and x["from"] == nx.P["Syria"]]
    assert legal == [{"type": "march", "cards": [a], "from": nx.P["Syria"], "legions": 2,
                      "leader": False, "unmark": True}]
    nx.play(S, 0, legal[0])
    assert S["movement"]["pool"] == 2


def test_5_5_no_naval_retreat_after_battle_nor_back_where_the_enemy_came() -> None:
    S = nx.board(park="Dacia")
    dal = nx.P["Dalmatia"]
    before = M.retreat_targets(S, 1, nx.P["Achaea"], dal, after_battle=False)
    after = M.retreat_targets(S, 1, nx.P["Achaea"], dal, after_battle=True)
    assert nx.P["Italia del Sud"] in before  # Naval Passage before a battle
    assert nx.P["Italia del Sud"] not in after
    assert dal not in before and dal not in after


def test_5_5_a12_retreat_into_own_legions_among_enemies() -> None:
    S = nx.board(legions={"Asia Minor": {1: 1, 2: 1}}, park="Dacia")
    assert nx.P["Asia Minor"] in M.retreat_targets(S, 1, nx.P["Syria"], None, False)
    S["options"]["a12_retreat"] = "no_enemy"
    assert nx.P["Asia Minor"] not in M.retreat_targets(S, 1, nx.P["Syria"], None, False)


def test_5_5_bad_weather_stops_a_retreat() -> None:
    a = nx.card("bad_weather", mp=4)
    bw = nx.cards("bad_weather")[1]
    S = nx.board(legions={"Judaea": {0: 2}, "Syria": {1: 1}}, hands={0: [a, bw]},
                 park="Dacia")
    _march(nx, S, 0, "Judaea", 2, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Syria"]})
    nx.play(S, 1, {"type": "retreat", "to": nx.P["Asia Minor"]})
    assert nx.GAME.to_act(S) == [0]
    nx.play(S, 0, {"type": "answer", "card": bw})
    assert nx.count(S, "Syria", 1) == 1
    assert S["movement"]["group"]["blocked_by"] == [1]


def test_5_5_a19_leader_stays_behind() -> None:
    a = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Judaea": {0: 2}, "Syria": {1: 1}}, leaders={1: "Syria"},
                 hands={0: [a]}, park="Dacia")
    _march(nx, S, 0, "Judaea", 2, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Syria"]})
    nx.play(S, 1, {"type": "retreat", "to": nx.P["Asia Minor"]})
    assert S["leaders"][1]["location"] == nx.P["Syria"]


# --- 5.6 battles --------------------------------------------------------------------


def _to_battle(nx, S, seat, src, dst, legions, card, defender):
    _march(nx, S, seat, src, legions, card)
    nx.play(S, seat, {"type": "step", "to": nx.P[dst]})
    nx.play(S, defender, {"type": "stay"})
    nx.play(S, seat, {"type": "attack", "seat": defender})


def test_5_6_3_commitments_are_secret_until_both_are_in() -> None:
    a, bp = nx.card("bad_weather", mp=4), nx.card("crisis", bp=3)
    d1, d2 = nx.card("senate", bp=3), nx.card("senate", bp=2)
    S = nx.board(legions={"Judaea": {0: 2}, "Syria": {1: 2}}, hands={0: [a, bp], 1: [d1, d2]},
                 park="Dacia")
    S["options"]["reactions"] = "holders"  # the script asks only the holders
    _to_battle(nx, S, 0, "Judaea", "Syria", 2, a, 1)
    assert nx.GAME.to_act(S) == [0, 1]  # simultaneous
    nx.play(S, 1, {"type": "commit", "cards": [d1, d2]})
    for seat in (None, 0, 2, 3):
        view = nx.GAME.view(S, seat)
        assert view["pending"][-1]["committed"] == {"1": 2}  # how many, never which
        assert view["hand_sizes"][1] == 0
        assert "own_pending" not in view or view["own_pending"][-1]["committed"]["1"] == 2
    assert nx.GAME.view(S, 1)["own_pending"][-1]["committed"]["1"] == [d1, d2]
    assert nx.GAME.to_act(S) == [0]
    ev = nx.play(S, 0, {"type": "commit", "cards": [bp]})
    battle = next(e for e in ev if e["type"] == "battle")
    assert battle["def_cards"] == [d1, d2]
    assert (battle["att_bp"], battle["def_bp"]) == (5, 7)


def test_5_6_3_defender_at_most_three_cards() -> None:
    a = nx.card("bad_weather", mp=4)
    four = nx.cards("senate")[:4]
    S = nx.board(legions={"Judaea": {0: 2}, "Syria": {1: 2}}, hands={0: [a], 1: four},
                 park="Dacia")
    S["options"]["reactions"] = "holders"  # the script asks only the holders
    _to_battle(nx, S, 0, "Judaea", "Syria", 2, a, 1)
    assert max(len(x["cards"]) for x in nx.GAME.legal_actions(S, 1)) == 3
    with pytest.raises(IllegalAction):
        nx.play(S, 1, {"type": "commit", "cards": four})


def test_5_6_3_attacker_within_his_four_cards() -> None:
    a = nx.card("bad_weather", mp=4)
    more = nx.cards("senate")[:4]
    S = nx.board(legions={"Judaea": {0: 2}, "Syria": {1: 2}}, hands={0: [a] + more},
                 park="Dacia")
    _to_battle(nx, S, 0, "Judaea", "Syria", 2, a, 1)
    assert max(len(x["cards"]) for x in nx.GAME.legal_actions(S, 0)) == 3


def test_5_6_1_same_army_attacked_once_per_round() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Judaea": {0: 4}, "Syria": {1: 2}}, hands={0: [a]}, park="Dacia")
    _to_battle(nx, S, 0, "Judaea", "Syria", 4, a, 1)
    nx.play(S, 0, {"type": "commit", "cards": []})
    nx.play(S, 1, {"type": "commit", "cards": []})  # 4 vs 2: the attacker wins
    nx.play(S, 1, {"type": "stay"})
    assert nx.count(S, "Syria", 1) == 1
    assert S["movement"]["pool"] == 3  # enough for another attack (1 + 1 fatigue)
    assert {"type": "attack", "seat": 1} not in nx.GAME.legal_actions(S, 0)


def test_5_6_1_a20_uncontrolled_cannot_be_attacked() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Judaea": {0: 2}}, unc={"Judaea": 1}, hands={0: [a]}, park="Dacia")
    _march(nx, S, 0, "Judaea", 2, a)
    assert not [x for x in nx.GAME.legal_actions(S, 0) if x["type"] == "attack"]


def test_5_6_1_a20_option_uncontrolled_may_be_attacked() -> None:
    """A20 alternative: the attacker alone commits cards (the Uncontrolled play none);
    a win takes one of them; a loss stops the army and loses nothing (the Uncontrolled
    never capture: they would outgrow their cap of 4)."""
    a, bp = nx.card("crisis", mp=5), nx.card("crisis", bp=3)
    S = nx.board(legions={"Judaea": {0: 2}}, unc={"Judaea": 2}, hands={0: [a, bp]},
                 park="Dacia", a20_attack_uncontrolled=True)
    _march(nx, S, 0, "Judaea", 2, a)
    nx.play(S, 0, {"type": "attack", "seat": -1})
    assert nx.GAME.to_act(S) == [0]  # nobody answers for the Uncontrolled
    assert nx.GAME.view(S, None)["pending"][-1]["committed"] == {"-1": 0}
    ev = nx.play(S, 0, {"type": "commit", "cards": [bp]})
    battle = next(e for e in ev if e["type"] == "battle")
    assert (battle["att_bp"], battle["def_bp"]) == (5, 2)
    assert (nx.count(S, "Judaea", 0), nx.count(S, "Judaea", -1)) == (3, 1)
    assert {"type": "attack", "seat": -1} not in nx.GAME.legal_actions(S, 0)  # once a round
    S = nx.board(legions={"Judaea": {0: 1}}, unc={"Judaea": 3}, hands={0: [a]},
                 park="Dacia", a20_attack_uncontrolled=True)
    _march(nx, S, 0, "Judaea", 1, a)
    nx.play(S, 0, {"type": "attack", "seat": -1})
    ev = nx.play(S, 0, {"type": "commit", "cards": []})
    assert next(e for e in ev if e["type"] == "battle_won") == {
        "type": "battle_won", "seat": -1, "loser": 0, "prov": nx.P["Judaea"], "captured": False}
    assert (nx.count(S, "Judaea", 0), nx.count(S, "Judaea", -1)) == (1, 3)
    assert S["movement"] is None or S["movement"]["group"] is None  # the army stops


def test_5_6_4_a22_option_no_capture_beyond_20_markers() -> None:
    """A22 alternative: a player with all 20 of his Legion markers on the map captures
    nothing (the loser keeps the Legion) and recruits no Uncontrolled Legion."""
    a = nx.card("crisis", mp=5)
    S = nx.board(seats=3, legions={"Judaea": {0: 3}, "Syria": {1: 1}}, hands={0: [a]},
                 park="Dacia", a22_legion_cap=True)
    for lg in S["legions"]:
        if lg["owner"] != 0 and not (lg["owner"] == 1 and lg["province"] == nx.P["Syria"]):
            lg["owner"] = 0  # seat 0 now has 20 of the 21 Legions
    assert sum(1 for lg in S["legions"] if lg["owner"] == 0) == 20
    _to_battle(nx, S, 0, "Judaea", "Syria", 3, a, 1)
    nx.play(S, 1, {"type": "commit", "cards": []})
    ev = nx.play(S, 0, {"type": "commit", "cards": []})
    assert next(e for e in ev if e["type"] == "battle_won")["captured"] is False
    assert (nx.count(S, "Syria", 0), nx.count(S, "Syria", 1)) == (3, 1)
    assert sum(1 for lg in S["legions"] if lg["owner"] == 0) == 20


def test_5_4_4_a22_option_recruits_only_up_to_20() -> None:
    """With 19 markers on the map, a player recruits one of the two Uncontrolled."""
    a = nx.card("crisis", mp=5)
    S = nx.board(seats=3, legions={"Judaea": {0: 2}}, unc={"Syria": 2}, hands={0: [a]},
                 park="Dacia", a22_legion_cap=True)
    for lg in S["legions"]:
        if lg["owner"] > 0:
            lg["owner"] = 0
    assert sum(1 for lg in S["legions"] if lg["owner"] == 0) == 19
    _march(nx, S, 0, "Judaea", 2, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Syria"]})
    ev = nx.play(S, 0, {"type": "pick", "kind": "unc"})
    assert next(e for e in ev if e["type"] == "picked")["legions"] == 1
    assert (nx.count(S, "Syria", 0), nx.count(S, "Syria", -1)) == (3, 1)


def test_5_6_4_tie_ends_the_attacking_army() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Judaea": {0: 2}, "Syria": {1: 2}}, hands={0: [a]}, park="Dacia")
    _to_battle(nx, S, 0, "Judaea", "Syria", 2, a, 1)
    nx.play(S, 0, {"type": "commit", "cards": []})
    ev = nx.play(S, 1, {"type": "commit", "cards": []})
    assert "battle_tie" in nx.types(ev)
    assert nx.count(S, "Syria", 0) == 2 and nx.count(S, "Syria", 1) == 2
    assert S["movement"] is None or S["movement"]["group"] is None


def test_5_6_4_emperor_led_win_vp_and_7_3_crown_taken_in_battle() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Judaea": {0: 4}, "Syria": {1: 1}}, leaders={0: "Judaea",
                 1: "Syria"}, hands={0: [a]}, park="Dacia")
    S["leaders"][1]["rank"] = B.EMPEROR
    _march(nx, S, 0, "Judaea", 4, a, leader=True)
    nx.play(S, 0, {"type": "step", "to": nx.P["Syria"]})
    nx.play(S, 1, {"type": "stay"})
    nx.play(S, 0, {"type": "attack", "seat": 1})
    nx.play(S, 0, {"type": "commit", "cards": []})
    ev = nx.play(S, 1, {"type": "commit", "cards": []})  # 4 vs 1 + 2
    assert {"type": "crowned", "seat": 0, "how": "battle"} in ev
    assert S["leaders"][1]["rank"] == B.GENERAL
    assert S["leaders"][0]["rank"] == B.EMPEROR
    assert S["vp"][0] == 0  # he was a General when the battle was won


def test_5_6_4_emperor_wins_a_battle_plus_1_vp() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Judaea": {0: 2}, "Syria": {1: 1}}, leaders={0: "Judaea"},
                 hands={0: [a]}, park="Dacia")
    S["leaders"][0]["rank"] = B.EMPEROR
    _march(nx, S, 0, "Judaea", 2, a, leader=True)
    nx.play(S, 0, {"type": "step", "to": nx.P["Syria"]})
    nx.play(S, 1, {"type": "stay"})
    nx.play(S, 0, {"type": "attack", "seat": 1})
    nx.play(S, 0, {"type": "commit", "cards": []})
    nx.play(S, 1, {"type": "commit", "cards": []})
    assert S["vp"][0] == 1
    assert nx.count(S, "Syria", 0) == 3


# --- 5.7 control --------------------------------------------------------------------


def test_5_7_a16_uncontrolled_do_not_count_and_germanic_blocks_control() -> None:
    S = nx.board(legions={"Raetia": {1: 1}}, unc={"Raetia": 2}, park="Dacia")
    assert B.province_owner(S, nx.P["Raetia"]) == 1
    S["germanic_tribes"] = [nx.P["Raetia"]]
    assert B.province_owner(S, nx.P["Raetia"]) is None


# --- 5.8 Emperor --------------------------------------------------------------------


def test_5_8_1_no_declaration_with_an_emperor_in_play() -> None:
    S = nx.board(leaders={0: "Roma"}, hands={0: nx.cards("senate")[:3]}, park="Dacia")
    assert [x for x in nx.GAME.legal_actions(S, 0) if x["type"] == "declare"]
    S["leaders"][2]["rank"] = B.EMPEROR
    assert not [x for x in nx.GAME.legal_actions(S, 0) if x["type"] == "declare"]


def test_5_8_2_contender_in_rome_at_start_of_round() -> None:
    S = nx.board(leaders={1: "Roma"}, hands={0: [nx.cards("senate")[0]],
                                            1: [nx.cards("senate")[1]]}, park="Dacia")
    S["leaders"][1]["rank"] = B.CONTENDER
    ev = nx.play(S, 0, {"type": "discard", "card": nx.cards("senate")[0]})
    assert {"type": "crowned", "seat": 1, "how": "legions"} in ev


def test_5_8_4_never_more_than_two_emperors() -> None:
    S = nx.board(leaders={1: "Roma"}, hands={0: [nx.cards("senate")[0]],
                                            1: [nx.cards("senate")[1]]}, park="Dacia")
    S["leaders"][1]["rank"] = B.CONTENDER
    S["leaders"][2]["rank"] = S["leaders"][3]["rank"] = B.EMPEROR
    ev = nx.play(S, 0, {"type": "discard", "card": nx.cards("senate")[0]})
    assert "crowned" not in nx.types(ev)
    assert S["leaders"][1]["rank"] == B.CONTENDER


# --- 5.12 / 5.13 ------------------------------------------------------------------


def test_5_12_no_legions_rebuilds_with_uncontrolled() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(leaders={0: "Syria"}, unc={"Judaea": 2}, hands={0: [a]}, park="Dacia")
    for lg in S["legions"]:
        if lg["owner"] == 0:
            lg["owner"] = 1
    nx.play(S, 0, {"type": "march", "cards": [a], "from": nx.P["Syria"], "legions": 0,
                   "leader": True})
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    nx.play(S, 0, {"type": "pick", "kind": "unc"})
    assert nx.count(S, "Judaea", 0) == 2
    assert S["movement"]["pool"] == 2


def test_5_13_empty_area_gives_no_vp_but_counts_for_dp() -> None:
    S = nx.board(3, legions={p: {0: 1} for p in ("Asia Minor", "Syria", "Judaea")},
                 park="Dacia")
    assert S["empty_area"] == ASIA
    assert B.area_owner(S, ASIA) == 0
    assert "areas" not in B.turn_vp(S, 0, False)
    assert B.base_dp(S, 0) == 2  # A14 default
    S["options"]["a14_empty_area"] = "exclude"
    assert B.base_dp(S, 0) == 0


# --- 7 scoring --------------------------------------------------------------------


def test_7_2_vp_table() -> None:
    S = nx.board(legions={"Britannia": {0: 1}, "Gallia Lugdunensis": {0: 1},
                          "Hispania": {0: 1}, "Italia del Nord": {0: 1}}, park="Dacia")
    S["leaders"][0] = {"location": ROME, "rank": B.EMPEROR, "moved": False}
    assert B.turn_vp(S, 0, False) == {"emperor": 5, "rome": 2, "areas": 2, "italy": 1}
    assert B.turn_vp(S, 0, True) == {"emperor": 8, "rome": 2, "areas": 3, "italy": 1}
    S["leaders"][1]["rank"] = B.EMPEROR
    assert B.turn_vp(S, 0, False)["emperor"] == 2
    assert B.turn_vp(S, 0, True)["emperor"] == 4
    assert B.turn_vp(S, 1, False) == {"emperor": 2}  # not in Rome: no bonus


def test_7_1_automatic_victory() -> None:
    S = nx.board(park="Dacia")  # every Legion waits in Dacia
    spare = [lg for lg in S["legions"] if lg["owner"] != 0]
    for lg, p in zip(spare, IN_AREA[WEST][:3] + IN_AREA[CENTRAL][:3] + IN_AREA[ASIA][:3],
                     strict=False):
        lg["owner"], lg["province"] = 0, p
    assert B.areas_of(S, 0) == [WEST, CENTRAL, ASIA]
    assert B.automatic_winner(S) is None  # 3 Areas, but only a General
    S["hands"] = [[] for _ in range(4)]
    ev: list = []
    engine._end_game_turn(S, random.Random(0), ev)
    assert not S["over"]
    S["leaders"][0]["rank"] = B.EMPEROR
    assert B.automatic_winner(S) == 0
    S["leaders"][0]["rank"] = B.GENERAL
    for lg, p in zip(spare[9:], IN_AREA[EAST][1:4], strict=False):
        lg["owner"], lg["province"] = 0, p
    assert B.automatic_winner(S) == 0  # all 4 Areas
    engine._end_game_turn(S, random.Random(0), ev)
    assert S["over"]
    assert S["automatic_winner"] == 0
    assert B.ranks(S)[0] == 1


def test_7_3_ties_share_the_win_or_break_by_option() -> None:
    S = nx.board(park="Dacia")
    S["vp"] = [7, 7, 3, 1]
    assert B.ranks(S)[:2] == [1, 1]
    S["options"]["tie_break"] = "areas_legions"
    S["legions"][0]["owner"] = 1  # seat 1 now has one Legion more
    assert B.ranks(S)[:2] == [2, 1]


def test_5_2_an_answer_counts_only_for_its_player() -> None:
    """Another seat's last card never counts toward the active player's four, even when
    both hands end up equal (both empty)."""
    c = nx.cards("bad_omens")[0]
    S = nx.board(hands={2: [c]}, park="Dacia")
    S["cards_used"] = 3
    hands.use_cards(S, [c])
    assert S["cards_used"] == 3
    assert S["hands"][2] == [] and c in S["box_face_up"]


def test_5_8_1_a17_retries_must_add_cards() -> None:
    """A failed declaration may be retried (A17), but only with new cards: a declaration
    with none, once failed, is not offered again (it would change nothing, forever)."""
    S = nx.board(leaders={0: "Roma"}, hands={0: [nx.cards("senate")[0]]}, park="Dacia")
    assert {"type": "declare", "cards": []} not in nx.GAME.legal_actions(S, 0)  # 0 DP
    nx.play(S, 0, {"type": "declare", "cards": []})  # a person may still try it once
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "declare", "cards": []})
    assert {"type": "declare", "cards": [nx.cards("senate")[0]]} in \
        nx.GAME.legal_actions(S, 0)
