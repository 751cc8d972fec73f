"""Forts (digest 2.8, 3.1, 5.17, A-37), an option: one test per rule.

With ``forts`` on, sample fleet A (even seats) is the Kestrel (s0) and San Telmo (s1),
fleet B the Sainte-Claire (s2) and Thunderer (s3): each drops its last ship to pay 6
points for the designed Coastal Battery (3L, 3S, 3S; cost 6 gold).
"""

from __future__ import annotations

import random

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.spanish_main import data, deal, forts, terrain, turn, views, world
from lantable.plugins.spanish_main import geometry as g

from .conftest import GAME, MID, Dice, act, clear, new, place

END = {"type": "end_turn"}


def my_turn(st, seat):
    st["turn"], st["pending"], st["acted_any"] = seat, [], False
    turn.start_turn(st, random.Random(0))


def wild(st, k=0):
    return [i for i in st["islands"] if i["home"] is None][k]


def dock_at(st, sid, isl, far=False):
    """Sail ``sid`` on paper from just off ``isl`` (the side facing the open water
    between the rows of islands, or the far side) until its bow touches it; docked."""
    s = world.ship(st, sid)
    poly = world.island_poly(isl)
    cx, cy = g.centroid(poly)
    if (cy > MID) != far:
        place(st, sid, round(cx), round(min(y for _, y in poly)) - 3000, 900)
    else:
        place(st, sid, round(cx), round(max(y for _, y in poly)) + 3000, 2700)
    poses, contact = turn.sail_course(st, s, [(s["pose"][2], st["L_length"])])
    assert contact == ("island", isl["id"])
    s["pose"], s["docked"] = list(poses[-1]), isl["id"]
    return s


def built(seat=0, gold=6, k=0, keep=("s0", "s2")):
    """A 2-player game with ``seat``'s fort built on the k-th wild island."""
    st = new(forts=True)
    clear(st, list(keep))
    my_turn(st, seat)
    isl = wild(st, k)
    dock_at(st, "s0" if seat == 0 else "s2", isl)
    st["home_gold"][seat] = gold
    act(st, Dice(), {"type": "build_fort", "fort": f"f{seat}", "island": isl["id"]})
    return st, forts.fort(st, f"f{seat}"), isl


# -- fleet building (3.1, 5.17.2) -------------------------------------------------------


def test_3_1_forts_are_paid_for_at_fleet_building():
    st = new(forts=True)
    assert [f["id"] for f in st["forts"]] == ["f0", "f1"]
    assert all(f["island"] is None for f in st["forts"])
    cost = data.fort(forts.CARD)["cost"]
    for seat in range(2):
        fleet = [s for s in st["ships"] if s["owner"] == seat]
        crew = [c for c in st["crew"] if c["owner"] == seat]
        spent = sum(data.ship(s["card"])["points"] for s in fleet) + sum(
            c["points"] for c in crew)
        assert spent + cost <= 40
    assert [s["card"] for s in st["ships"]] == ["D-S02", "D-S04", "D-S03", "D-S10"]
    for seed in range(3):  # random fleets leave room for the fort as well
        rf = GAME.setup(2, {"forts": True, "fleets": "random"}, random.Random(seed))
        for seat in range(2):
            entries = [s for s in rf["ships"] if s["owner"] == seat]
            pts = sum(data.ship(s["card"])["points"] for s in entries) + sum(
                c["points"] for c in rf["crew"] if c["owner"] == seat)
            assert pts + cost <= 40


def test_3_1_without_the_option_the_state_has_no_forts():
    st = new()
    assert "forts" not in st and "forts" not in st["options"] and "forts" not in GAME.view(st, 0)


def test_8_13_an_unbuilt_fort_is_a_secret_purchase():
    st = new(forts=True)
    assert [f["id"] for f in GAME.view(st, 0)["forts"]] == ["f0"]
    assert [f["id"] for f in GAME.view(st, None)["forts"]] == []


# -- building (5.17.2) ------------------------------------------------------------------


def test_5_17_2_building_needs_a_docked_ship_and_the_gold():
    st = new(forts=True)
    clear(st, ["s0", "s2"])
    my_turn(st, 0)
    isl = wild(st)
    st["home_gold"][0] = 6
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] == "build_fort"]
    dock_at(st, "s0", isl)
    st["home_gold"][0] = 5
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] == "build_fort"]
    st["home_gold"][0] = 6
    build = {"type": "build_fort", "fort": "f0", "island": isl["id"]}
    assert build in GAME.legal_actions(st, 0)
    with pytest.raises(IllegalAction):  # not the other player's fort
        act(st, Dice(), {"type": "build_fort", "fort": "f1", "island": isl["id"]})
    events = act(st, Dice(), build)
    f = forts.fort(st, "f0")
    assert f["island"] == isl["id"] and st["home_gold"][0] == 0
    assert events[0]["type"] == "fort_built"
    assert st["turn"] == 1  # built at the end of the turn, which it ends
    # the payment still counts (7.2), and so does the island's treasure
    pieces = [st["treasure"][t] for t in f["hold"]]
    assert world.total_gold(st)[0] == sum(t["gold"] for t in pieces) > 6
    assert isl["treasure"] == [] and len(pieces) == 5


def test_5_17_2_not_at_a_home_island_and_one_fort_per_island():
    st, f, isl = built()
    my_turn(st, 1)
    dock_at(st, "s2", isl, far=True)
    home = world.home_of(st, 1)
    world.ship(st, "s2")["docked"] = home["id"]
    st["home_gold"][1] = 10
    assert not [a for a in GAME.legal_actions(st, 1) if a["type"] == "build_fort"]
    world.ship(st, "s2")["docked"] = isl["id"]  # f0 stands there already
    assert not [a for a in GAME.legal_actions(st, 1) if a["type"] == "build_fort"]


def test_5_17_2_two_opposite_corners_lie_on_the_island():
    for seed in range(4):
        st = new(seed=seed, forts=True)
        for isl in st["islands"]:
            corners, flags = forts.site(st, st["forts"][0], isl)
            ipoly = world.island_poly(isl)
            assert (g.inside(corners[0], ipoly) and g.inside(corners[2], ipoly)) or (
                g.inside(corners[1], ipoly) and g.inside(corners[3], ipoly))
            assert len(flags) == 3 and all(p in corners for p in flags)


def test_5_17_3_face_down_treasure_moves_into_the_fort_and_the_builder_sees_it():
    st = new(forts=True)
    clear(st, ["s0", "s2"])
    my_turn(st, 0)
    isl = wild(st)
    on_island = list(isl["treasure"])
    dock_at(st, "s0", isl)
    st["home_gold"][0] = 6
    events = act(st, Dice(), {"type": "build_fort", "fort": "f0", "island": isl["id"]})
    saw = next(e for e in events if e["type"] == "saw")
    assert saw["to"] == [0] and len(saw["treasure"]) == len(on_island)
    for t in on_island:
        assert st["treasure"][t]["where"] == "f0" and st["treasure"][t]["seen"][0]
        assert GAME.view(st, 1)["treasure"][t]["gold"] is None  # hidden from the rival
    assert GAME.view(st, 1)["forts"][0]["hold"]  # the fort is public once built


def test_7_3_building_can_win_at_once():
    st = new(forts=True)
    clear(st, ["s0", "s2"])
    my_turn(st, 0)
    isl = wild(st)
    dock_at(st, "s0", isl)
    on_island = sum(st["treasure"][t]["gold"] for t in isl["treasure"])
    st["home_gold"][0] = 16 - on_island
    events = act(st, Dice(), {"type": "build_fort", "fort": "f0", "island": isl["id"]})
    assert events[-1]["type"] == "game_over" and st["winner"] == [0]
    assert GAME.scores(st)["scores"][0] == 16


# -- loading (5.17.3) ---------------------------------------------------------------------


def test_5_17_3_loading_from_ones_own_fort_keeps_at_least_its_cost():
    st, f, isl = built()
    s = world.ship(st, "s0")
    act(st, Dice(), END)  # seat 1 passes; s0 began this turn docked at its fort
    load = {"type": "load_fort", "ship": "s0"}
    assert load in GAME.legal_actions(st, 0)
    act(st, Dice(), load)
    takes = GAME.legal_actions(st, 0)
    paid = st["treasure"][f["paid"]]["id"]
    assert all(paid not in a["treasure"] for a in takes)
    room = world.free_cargo(st, s)
    assert max(len(a["treasure"]) for a in takes) == room  # cargo caps it
    before = world.total_gold(st)[0]
    act(st, Dice(), takes[-1])
    assert f["paid"] in f["hold"] and len(s["hold"]) == room
    carried = sum(st["treasure"][t]["gold"] for t in s["hold"])
    assert world.total_gold(st)[0] == before - carried  # aboard it counts no more
    assert load not in GAME.legal_actions(st, 0)  # the ship's action is spent


def test_5_17_3_no_loading_from_an_enemy_fort():
    st, f, isl = built()
    my_turn(st, 1)
    dock_at(st, "s2", wild(st, 1))
    world.ship(st, "s2")["docked"] = isl["id"]
    my_turn(st, 1)
    assert not [a for a in GAME.legal_actions(st, 1) if a["type"] == "load_fort"]
    with pytest.raises(IllegalAction):
        act(st, Dice(), {"type": "load_fort", "ship": "s2"})


# -- shooting (5.17.4) -------------------------------------------------------------------


def _target_near(st, f, isl, sid="s2"):
    """The enemy ship touching the fort's island on the far side from s0."""
    s = dock_at(st, sid, isl, far=True)
    s["docked"] = None  # lying off the island, not docked
    return s


def test_5_17_4_a_fort_fires_over_islands_and_ships():
    st, f, isl = built()
    my_turn(st, 0)
    e = _target_near(st, f, isl)
    shots = [a for a in GAME.legal_actions(st, 0) if a["type"] == "fort_fire"]
    assert {a["target"] for a in shots} == {"s2"}
    # the island the fort stands on lies between flag and ship: it does not block,
    # nor does a ship in the way
    flag = shots[0]["flag"]
    origin = tuple(f["points"][flag])
    assert not forts.combat.sees(origin, 10**6, world.foot(e), [world.island_poly(isl)])
    events = act(st, Dice(6), shots[0])
    assert events[0]["type"] == "fort_shot" and events[0]["hit"]
    assert GAME.to_act(st) == [1]  # Sainte-Claire's owner picks the mast (5.10.6)
    act(st, Dice(), GAME.legal_actions(st, 1)[0])
    again = [a for a in GAME.legal_actions(st, 0) if a["type"] == "fort_fire"]
    assert all(a["flag"] != flag for a in again)  # each flag once a turn


def test_5_17_4_fog_banks_block_a_forts_fire():
    st, f, isl = built()
    my_turn(st, 0)
    e = _target_near(st, f, isl)
    cx, cy = g.centroid(world.foot(e))
    fog = [(round(x), round(y)) for x, y in g.ellipse_polygon(cx, cy, 9000, 9000)]
    st["terrain"] = [{"id": "T1", "kind": "fog", "poly": [list(p) for p in fog],
                      "danger": None, "points": terrain.fog_points(fog)}]
    world._MEMOS.clear()
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] == "fort_fire"]


def test_5_17_4_forts_never_target_ships_at_their_own_home_or_lost():
    st, f, isl = built()
    my_turn(st, 0)
    e = _target_near(st, f, isl)
    e["lost_in"] = "T9"
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] == "fort_fire"]
    e["lost_in"] = None
    e["docked"] = world.home_of(st, 1)["id"]
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] == "fort_fire"]


# -- damage (5.17.5) ---------------------------------------------------------------------


def test_5_17_5_hits_cost_flags_then_abandoned_then_destroyed():
    st, f, isl = built()
    isl["visited"] = [True, True]
    gold_before = sum(st["treasure"][t]["gold"] for t in f["hold"])
    my_turn(st, 1)
    _target_near(st, f, isl)  # the Sainte-Claire's bow cannon (4S) reaches the fort
    shot = {"type": "fire", "ship": "s2", "cannon": 0, "target": "f0"}
    assert shot in GAME.legal_actions(st, 1)
    act(st, Dice(6), shot)
    assert GAME.to_act(st) == [0]  # the fort's owner picks the flag
    act(st, Dice(), {"type": "lose_flag", "fort": "f0", "flag": 1})
    assert f["flags"] == [True, False, True]
    for flag in (0, 2):  # two more hits; the last flag goes by itself
        my_turn(st, 1)
        events = act(st, Dice(6), shot)
        if GAME.to_act(st) == [0]:
            events = act(st, Dice(), {"type": "lose_flag", "fort": "f0", "flag": flag})
    assert forts.abandoned(f) and events[-1]["type"] == "fort_abandoned"
    my_turn(st, 0)
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] == "fort_fire"]
    my_turn(st, 1)
    events = act(st, Dice(6), shot)
    assert events[-1]["type"] == "fort_destroyed" and f["destroyed"]
    # the gold lies face down on an unexplored wild island again
    assert len(isl["treasure"]) == 5 and isl["visited"] == [False, False]
    assert sum(st["treasure"][t]["gold"] for t in isl["treasure"]) == gold_before
    assert all(not st["treasure"][t]["face_up"] for t in isl["treasure"])
    assert world.total_gold(st)[0] == 0
    assert {"type": "build_fort", "fort": "f0", "island": isl["id"]} not in \
        forts.build_sites(st, 0)  # gone for good


def test_5_17_5_own_forts_are_no_target_and_ships_shoot_past_its_island():
    st, f, isl = built()
    my_turn(st, 0)
    assert not [a for a in GAME.legal_actions(st, 0) if a.get("target") == "f0"]
    assert views.view(st, 1)["forts"][0]["flags"] == [True, True, True]


def test_deal_trims_sample_fleets_to_pay_for_the_fort():
    assert [e["ship"] for e in deal.trim(deal.sample_fleet(0), 34)] == ["D-S02", "D-S04"]
    assert [e["ship"] for e in deal.trim(deal.sample_fleet(1), 34)] == ["D-S03", "D-S10"]


# -- bots ----------------------------------------------------------------------------------


def test_greedy_builds_a_fort_when_it_can_and_shoots_with_it():
    from lantable.clients.bots import make_bot

    bot = make_bot("greedy", GAME)
    st = new(forts=True)
    clear(st, ["s0", "s2"])
    my_turn(st, 0)
    isl = wild(st)
    dock_at(st, "s0", isl)
    place(st, "s2", 80000, MID, 1800)  # far away
    st["home_gold"][0] = 6
    legal = GAME.concrete_actions(st, 0)
    choice = bot.choose(GAME.view(st, 0), 0, legal, random.Random(0))
    assert choice == {"type": "build_fort", "fort": "f0", "island": isl["id"]}
    act(st, Dice(), choice)
    # next turn the fort has an enemy ship in range, and nothing else can shoot
    world.ship(st, "s0")["sunk"] = True
    my_turn(st, 0)
    _target_near(st, forts.fort(st, "f0"), isl)
    legal = GAME.concrete_actions(st, 0)
    assert {a["type"] for a in legal} == {"fort_fire", "end_turn"}
    assert bot.choose(GAME.view(st, 0), 0, legal, random.Random(0))["type"] == "fort_fire"


def test_words_show_forts_on_the_map_and_in_sentences():
    from lantable.plugins.spanish_main import words

    st, f, isl = built()
    names = ["Ann", "Bob"]
    text = words.render(GAME.view(st, 1), 1, names)
    assert "F" in text.split("round")[0]  # the square on the map
    assert f"F Coastal Battery (Ann, f0 on {isl['id']}): flags 3/3, holds 6 gold and 4 unknown" \
        in text
    mine = words.render(GAME.view(st, 0), 0, names)
    assert "holds 6 gold and" not in mine and "F Coastal Battery (Ann, f0" in mine
    assert "F Coastal Battery (Bob, f1): not built yet" not in mine  # a secret purchase
    said = words.describe_action(GAME.view(st, 0), 0, {"type": "fort_fire", "fort": "f0",
                                                       "flag": 0, "target": "s2"}, names)
    assert said.startswith("Coastal Battery (Ann, f0 on") and "flag 1 (3L)" in said
    said = words.describe_event(GAME.view(st, 0), 0, {"type": "fort_built", "seat": 0,
                                                      "island": isl["id"], "paid": 6,
                                                      "pieces": 4}, names)
    assert said == f"Ann builds a fort on {isl['id']}: 6 gold and 4 treasure inside"


def test_8_14_fort_targets_query_answers_from_the_owners_view():
    st, f, isl = built()
    my_turn(st, 0)
    _target_near(st, f, isl)
    answer = GAME.query(GAME.view(st, 0), 0, {"type": "fort_targets", "fort": "f0"})
    assert set(answer) == {"0", "1", "2"} and any("s2" in v for v in answer.values())
    with pytest.raises(IllegalAction):
        GAME.query(GAME.view(st, 1), 1, {"type": "fort_targets", "fort": "f0"})


def test_3_1_too_few_points_for_a_ship_beside_the_fort_and_monster():
    from lantable.plugins import BadOptions

    with pytest.raises(BadOptions):
        GAME.setup(2, {"forts": True, "monsters": True, "points": 19,
                       "fleets": "random"}, random.Random(0))
    GAME.setup(2, {"forts": True, "monsters": True, "points": 20, "fleets": "random"},
               random.Random(0))


@pytest.mark.parametrize("bad", [
    {"type": "build_fort"}, {"type": "build_fort", "fort": "f0", "island": "I99"},
    {"type": "build_fort", "fort": ["f0"], "island": None},
    {"type": "fort_fire", "fort": 0, "flag": 0, "target": "s2"},
    {"type": "fort_fire", "fort": "f0", "flag": True, "target": "s2"},
    {"type": "fort_fire", "fort": "f0", "flag": 7, "target": "s2"},
    {"type": "fort_fire", "fort": "f1", "flag": 0, "target": "s0"},
    {"type": "load_fort", "ship": "f0"}, {"type": "load_fort", "ship": "s2"},
    {"type": "fire", "ship": "s0", "cannon": 0, "target": "f9"},
    {"type": "fire", "ship": "s0", "cannon": 0, "target": "f0"},  # its own fort
    {"type": "submerge", "ship": "s0", "on": True},  # not a monster
])
def test_bad_fort_actions_are_refused_and_change_nothing(bad):
    import msgpack

    st, f, isl = built()
    my_turn(st, 0)
    _target_near(st, f, isl)
    before = msgpack.packb(st)
    with pytest.raises(IllegalAction):
        GAME.apply(st, 0, bad, Dice())
    assert msgpack.packb(st) == before
