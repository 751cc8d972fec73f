"""Pirates of the Spanish Main: one test per rule, named after its digest section.

Scenarios clear the sea (other ships off the table), place ships in the open water
between the two rows of islands and script the dice.
"""

from __future__ import annotations

import random

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.spanish_main import combat, data, deal, turn, world
from lantable.plugins.spanish_main import geometry as g

from .conftest import GAME, MID, Dice, act, clear, new, place, ships_of

END = {"type": "end_turn"}


def my_turn(st, seat):
    st["turn"] = seat
    st["pending"] = []
    turn.start_turn(st, random.Random(0))


def move(sid, *legs):
    return {"type": "move", "ship": sid,
            "segments": [{"heading": h, "distance": d} for h, d in legs]}


def give_treasure(st, sid, *values):
    s = world.ship(st, sid)
    for v in values:
        t = next(t for t in st["treasure"] if t["gold"] == v and t["where"].startswith("I"))
        world.island(st, t["where"])["treasure"].remove(int(t["id"][1:]))
        t["where"] = sid
        s["hold"].append(int(t["id"][1:]))


# -- set-up -------------------------------------------------------------------------


def test_3_1_sample_fleets_are_within_the_points_limit():
    st = new()
    for seat, total in ((0, 40), (1, 39)):
        ships = [s for s in st["ships"] if s["owner"] == seat]
        crew = [c for c in st["crew"] if c["owner"] == seat]
        pts = sum(world.card(s)["points"] for s in ships) + sum(c["points"] for c in crew)
        assert pts == total


def test_3_1_random_fleets_are_legal():
    for seed in range(20):
        fleet = deal.random_fleet(40, random.Random(seed))
        pts = 0
        for entry in fleet:
            ship = data.ship(entry["ship"])
            crew_pts = sum(data.named_crew()[c[2]]["points"] + c[3] if len(c) > 2
                           else data.crew_points(c[0]) for c in entry["crew"])
            assert crew_pts <= ship["points"]  # 5.9.2
            assert sum(c[0] != "Oarsman" for c in entry["crew"]) <= ship["cargo"]
            assert all(c[1] == ship["nation"] for c in entry["crew"])
            pts += ship["points"] + crew_pts
        assert 0 < pts <= 40


def test_3_2_first_player_rolls_and_ties_reroll():
    for seed in range(10):
        st = GAME.setup(2, None, random.Random(seed))
        last = st["log"][-1]["rolls"]
        assert last.count(max(last)) == 1 and st["first"] == last.index(max(last))
        assert all(r["rolls"][0] == r["rolls"][1] for r in st["log"][:-1])


def test_3_3_islands_3L_from_all_and_at_most_6L_from_the_nearest():
    for seats in (2, 3, 4):
        st = GAME.setup(seats, None, random.Random(seats))
        polys = [world.island_poly(i) for i in st["islands"]]
        assert len(polys) == (6 if seats == 2 else 3 * seats)
        for i, p in enumerate(polys):
            gaps = [g.distance(p, q) for j, q in enumerate(polys) if j != i]
            assert min(gaps) >= 3 * st["L_length"] and min(gaps) <= 6 * st["L_length"]


def test_3_5_homes_chosen_by_the_other_player_and_ships_docked_bow_first():
    rng = random.Random(3)
    st = GAME.setup(2, None, rng)
    first = st["first"]
    assert GAME.to_act(st) == [1 - first]  # the second player chooses for the first
    act(st, rng, {"type": "choose_home", "island": "I2"})
    assert world.island(st, "I2")["home"] == first
    assert GAME.to_act(st) == [first]
    with pytest.raises(IllegalAction):
        act(st, rng, {"type": "choose_home", "island": "I2"})
    act(st, rng, {"type": "choose_home", "island": "I5"})
    for s in st["ships"]:
        home = world.home_of(st, s["owner"])
        assert s["docked"] == home["id"]
        assert g.touching(world.bow(s), world.island_poly(home))
        for o in world.obstacles(st, skip=(s["id"],)):
            assert not g.overlapping(world.foot(s), o[2])


def test_3_7_four_treasures_per_wild_island_and_30_gold():
    st = new()
    wild = [i for i in st["islands"] if i["home"] is None]
    assert [len(i["treasure"]) for i in wild] == [4, 4, 4, 4]
    assert st["gold_dealt"] == 30 and sorted(t["gold"] for t in st["treasure"]) == sorted(
        [1, 1, 1, 2, 2, 2, 3, 3] * 2)


def test_3_7_unique_treasure_option():
    st = new(unique_treasure=True)
    uniques = [t for t in st["treasure"] if t["unique"]]
    assert len(uniques) == 2 and st["gold_dealt"] == 30 and len(st["treasure"]) == 16


# -- movement ------------------------------------------------------------------------


def test_5_2_1_segments_must_fit_the_measures():
    st = new()
    clear(st, ["s2"])
    my_turn(st, 0)
    place(st, "s2", 30000, MID, 0)  # Tern: L+S, Helmsman +S
    assert world.move_terms(st, world.ship(st, "s2")) == ["L", "S", "S"]  # 5.2.5
    with pytest.raises(IllegalAction):
        act(st, random.Random(), move("s2", (0, st["L_length"]), (0, st["L_length"])))
    act(st, random.Random(), move("s2", (900, st["S_length"]), (0, st["L_length"]), (0, 1000)))
    assert world.ship(st, "s2")["pose"] == [30000 + st["L_length"] + 1000, MID + st["S_length"], 0]


def test_5_2_3_touching_an_island_ends_the_whole_move():
    st = new()
    clear(st, ["s0"])
    my_turn(st, 0)
    st["ships"][1]["sunk"] = False  # San Telmo: S+S
    st["ships"][1]["owner"] = 0
    isl = next(i for i in st["islands"] if i["home"] is None)
    s = _near(st, "s1", isl, gap=3000)
    h = _toward(st, s, isl)
    events = act(st, random.Random(), move("s1", (h, st["S_length"]), (h, st["S_length"])))
    assert events[0]["contact"] == isl["id"]
    assert 0 < g.distance(world.foot(s), world.island_poly(isl)) <= g.EPS_TOUCH
    assert s["docked"] == isl["id"]  # 5.4.1: bow touching after a move
    assert not turn.may_move(st, s)


def test_5_3_pivot_puts_the_bow_where_the_stern_was():
    st = new()
    clear(st, ["s0"])
    my_turn(st, 0)
    place(st, "s0", 40000, MID, 0)
    act(st, random.Random(), {"type": "pivot", "ship": "s0", "heading": 1800})
    assert world.ship(st, "s0")["pose"] == [40000 - 7500, MID, 1800]
    with pytest.raises(IllegalAction):  # the pivot was the ship's move action
        act(st, random.Random(), move("s0", (0, 100)))


def _toward(st, s, isl):
    cx, cy = g.centroid(world.island_poly(isl))
    return g.heading_of(cx - s["pose"][0], cy - s["pose"][1])


def _near(st, sid, isl, gap=3000):
    """Put ``sid`` in open water ``gap`` units off ``isl``, bow towards it."""
    poly = world.island_poly(isl)
    cx, cy = g.centroid(poly)
    if cy > MID:
        return place(st, sid, round(cx), round(min(y for _, y in poly)) - gap, 900)
    return place(st, sid, round(cx), round(max(y for _, y in poly)) + gap, 2700)


def test_5_4_3_docking_at_home_unloads_and_reveals_the_gold():
    st = new()
    clear(st, ["s0"])
    my_turn(st, 0)
    home = world.home_of(st, 0)
    s = _near(st, "s0", home)
    give_treasure(st, "s0", 2, 3)
    events = act(st, random.Random(), move("s0", (_toward(st, s, home), st["L_length"])))
    assert s["docked"] == home["id"] and s["hold"] == []
    assert st["home_gold"][0] == 5
    assert sorted(e["gold"] for e in events if e["type"] == "unloaded") == [2, 3]
    assert all(t["face_up"] for t in st["treasure"] if t["where"] == "home")


def test_5_4_2_crew_unload_and_load_at_a_dock_once_a_turn():
    st = new()
    my_turn(st, 0)
    s = next(x for x in ships_of(st, 0) if x["crew"])  # docked at home from the start
    cid = st["crew"][s["crew"][0]]["id"]
    act(st, random.Random(), {"type": "unload_crew", "crew": cid})
    crew = st["crew"][int(cid[1:])]
    assert crew["island"] == s["docked"] and crew["ship"] is None
    # [DESIGN] the same crew may not come back aboard this turn (no endless shuffling)
    legal = GAME.legal_actions(st, 0)
    assert not any(a.get("crew") == cid for a in legal)
    with pytest.raises(IllegalAction):
        act(st, random.Random(), {"type": "load_crew", "crew": cid, "ship": s["id"]})
    act(st, random.Random(), END)
    act(st, random.Random(), END)
    assert {"type": "load_crew", "crew": cid, "ship": s["id"]} in GAME.legal_actions(st, 0)


def test_5_4_1_no_docking_at_an_enemy_home_island():
    st = new()
    clear(st, ["s0"])
    my_turn(st, 0)
    enemy = world.home_of(st, 1)
    s = _near(st, "s0", enemy)
    act(st, random.Random(), move("s0", (_toward(st, s, enemy), st["L_length"])))
    assert s["docked"] is None and g.touching(world.foot(s), world.island_poly(enemy))


def test_5_8_1_explore_then_5_8_2_free_exploration_after_a_visit():
    st = new()
    clear(st, ["s2"])  # Tern: cargo 2, one taken by its Helmsman
    my_turn(st, 0)
    isl = next(i for i in st["islands"] if i["home"] is None)
    s = _near(st, "s2", isl)
    rng = random.Random()
    act(st, rng, move("s2", (_toward(st, s, isl), st["L_length"])))
    assert s["docked"] == isl["id"] and not st["pending"]  # no Explorer aboard
    act(st, rng, END, END)
    assert {"type": "explore", "ship": "s2"} in GAME.legal_actions(st, 0)
    events = act(st, rng, {"type": "explore", "ship": "s2"})
    seen = next(e for e in events if e["type"] == "saw")
    assert seen["to"] == [0] and len(seen["treasure"]) == 4
    takes = GAME.legal_actions(st, 0)
    assert all(len(a["treasure"]) <= 1 for a in takes) and len(takes) == 5  # free cargo 1
    act(st, rng, takes[-1])
    assert len(s["hold"]) == 1 and len(isl["treasure"]) == 3
    # leave, come back: the island is visited, exploring is a free action at once
    act(st, rng, END, END)
    act(st, rng, {"type": "pivot", "ship": "s2", "heading": (s["pose"][2] + 1800) % 3600})
    assert isl["visited"][0]
    act(st, rng, END, END)
    act(st, rng, move("s2", (_toward(st, s, isl), st["L_length"])))
    assert {"type": "explore_free"} in GAME.legal_actions(st, 0)


# -- shooting ---------------------------------------------------------------------------


def _duel(st):
    """Kestrel (s0, 3L 3S 3S) heading east; Sainte-Claire (s3) broadside 7 cm ahead."""
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    place(st, "s3", 36000, MID + 3750, 900)


def test_5_10_5_hit_on_a_roll_above_the_rank():
    st = new()
    _duel(st)
    legal = GAME.legal_actions(st, 0)
    shots = [a for a in legal if a["type"] == "fire"]
    assert shots == [{"type": "fire", "ship": "s0", "cannon": 0, "target": "s3"}]  # L only
    events = act(st, Dice(4), shots[0])
    assert events[0]["hit"] and GAME.to_act(st) == [1]  # 5.10.6: the owner picks the mast
    act(st, Dice(), {"type": "lose_mast", "ship": "s3", "mast": 1})
    assert world.ship(st, "s3")["masts_up"] == [True, False, True]


def test_5_10_5_a_roll_of_1_always_misses_and_3_does_not_beat_rank_3():
    for face in (1, 3):
        st = new()
        _duel(st)
        events = act(st, Dice(face), {"type": "fire", "ship": "s0", "cannon": 0,
                                      "target": "s3"})
        assert not events[0]["hit"] and all(world.ship(st, "s3")["masts_up"])


def test_5_10_2_line_of_fire_is_blocked_by_another_ship():
    st = new()
    _duel(st)
    st["ships"][1]["sunk"] = False
    place(st, "s1", 33000, MID + 5000, 900)  # San Telmo across the line
    assert not combat.shot_ok(st, world.ship(st, "s0"), 0, world.ship(st, "s3"))
    with pytest.raises(IllegalAction):
        act(st, Dice(6), {"type": "fire", "ship": "s0", "cannon": 0, "target": "s3"})


def test_5_10_4_no_shooting_a_ship_docked_at_its_own_home():
    st = new()
    _duel(st)
    world.ship(st, "s3")["docked"] = world.home_of(st, 1)["id"]
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] == "fire"]


def test_5_11_2_sinking_splits_the_gold_and_the_sinker_takes_the_odd_one():
    st = new()
    _duel(st)
    t3 = world.ship(st, "s3")
    t3["masts_up"] = [False, False, False]  # derelict
    give_treasure(st, "s3", 1, 2)
    events = act(st, Dice(5), {"type": "fire", "ship": "s0", "cannon": 0, "target": "s3"})
    sunk = next(e for e in events if e["type"] == "sunk")
    assert sunk["split"] == [2, 1] and st["home_gold"] == [2, 1] and t3["sunk"]
    assert all(st["crew"][c]["gone"] for c in range(len(st["crew"]))
               if st["crew"][c]["owner"] == 1 and st["crew"][c]["id"] in ("c2", "c3"))


def test_5_14_cannoneer_fires_again_after_a_miss():
    st = new()
    clear(st, ["s0", "s3"])
    my_turn(st, 1)
    place(st, "s3", 30000, MID, 0)  # Sainte-Claire: 4S 3L 4S, Captain and Cannoneer
    place(st, "s0", 34000, MID + 3000, 900)
    events = act(st, Dice(2, 5), {"type": "fire", "ship": "s3", "cannon": 0, "target": "s0"})
    assert [e["type"] for e in events[:2]] == ["shot", "refire"] and events[1]["hit"]


def test_5_14_captain_moves_and_shoots_in_one_action():
    st = new()
    clear(st, ["s0", "s3"])
    my_turn(st, 1)
    place(st, "s3", 21620, MID, 0)  # an L east brings mast 0 (4S) within S of s0
    place(st, "s0", 34000, MID + 3000, 900)
    rng = Dice()
    assert not any(a["type"] == "fire" for a in GAME.legal_actions(st, 1))
    act(st, rng, move("s3", (0, st["L_length"])))
    assert any(a["type"] == "fire" for a in GAME.legal_actions(st, 1))


def test_5_15_broadside_is_all_or_nothing_plus_one():
    st = new()
    clear(st, ["s4", "s0"])
    my_turn(st, 1)
    place(st, "s4", 40000, MID, 0)  # Thunderer: 3S x4, Broadside Attack
    place(st, "s0", 40000, MID + 3000, 0)  # Kestrel alongside, 3 masts
    legal = GAME.legal_actions(st, 1)
    assert {"type": "broadside", "ship": "s4", "target": "s0"} in legal
    assert not [a for a in legal if a["type"] == "fire"]  # mandatory
    events = act(st, Dice(4), {"type": "broadside", "ship": "s4", "target": "s0"})
    assert events[0]["hits"] == 5
    while st["pending"]:
        act(st, Dice(), GAME.legal_actions(st, 0)[0])
    assert world.ship(st, "s0")["sunk"]  # 3 masts, derelict, then sunk by the extra hits


def test_5_15_turtle_armor_takes_hits_first():
    st = new()
    _duel(st)
    t = world.ship(st, "s3")
    t.update(card="D-S08", masts=2, masts_up=[True, True], armor=2)
    events = []
    combat.damage(st, t, 3, 0, "shot", events)
    assert [e["type"] for e in events] == ["armor_lost", "armor_lost"]
    assert t["armor"] == 0 and st["pending"][-1]["kind"] == "lose_mast"
    assert st["pending"][-1]["hits"] == 1 and st["pending"][-1]["seat"] == 1


# -- ramming, boarding, towing, scuttling, repair --------------------------------------


def test_5_6_ram_then_pinned_then_5_7_boarding():
    st = new()
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    place(st, "s3", 32000, MID + 3750, 900)
    give_treasure(st, "s3", 3)
    rng = Dice(4)
    events = act(st, rng, move("s0", (0, 2000)))
    assert events[0]["contact"] == "s3"
    assert {"type": "ram", "target": "s3"} in GAME.legal_actions(st, 0)
    events = act(st, rng, {"type": "ram", "target": "s3"})
    assert events[0]["hit"]  # 4 > 3 masts
    act(st, rng, {"type": "lose_mast", "ship": "s3", "mast": 0})
    assert world.pinned(st, world.ship(st, "s0"))  # 5.6.1 (3)
    rng.push(6, 1)  # boarding: 6 + 3 masts against 1 + 2 masts
    events = act(st, rng, {"type": "board"})
    assert events[0]["winner"] == "s0"
    act(st, rng, {"type": "plunder", "what": "treasure"})
    assert len(world.ship(st, "s0")["hold"]) == 1
    taken = st["treasure"][world.ship(st, "s0")["hold"][0]]
    assert taken["seen"][0] and taken["gold"] == 3  # the taker learns the value


def test_5_5_towing_captures_a_derelict():
    st = new()
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    place(st, "s3", 32000, MID, 1800)  # derelict, bow towards us
    world.ship(st, "s3")["masts_up"] = [False, False, False]
    rng = Dice()
    act(st, rng, move("s0", (0, 2000)))
    assert {"type": "tow", "target": "s3"} in GAME.legal_actions(st, 0)
    act(st, rng, {"type": "tow", "target": "s3"})
    tug, tow = world.ship(st, "s0"), world.ship(st, "s3")
    assert tow["owner"] == 0 and tug["towing"] == "s3"
    assert tow["pose"] == [tug["pose"][0] - 7500, MID, 0]
    assert world.move_terms(st, tug) == ["S"]  # 5.5 (4)


def test_5_12_scuttle_sinks_at_the_start_of_the_next_turn():
    st = new()
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    world.ship(st, "s0")["masts_up"] = [False, False, False]
    rng = Dice(5)
    events = act(st, rng, {"type": "scuttle", "ship": "s0"})
    assert events[0]["success"] and not world.ship(st, "s0")["sunk"]
    act(st, rng, END, END)
    assert world.ship(st, "s0")["sunk"]


def test_5_13_repair_at_home():
    st = new()
    s = ships_of(st, 0)[0]
    my_turn(st, 0)
    s["masts_up"][1] = False
    act(st, Dice(), {"type": "repair", "ship": s["id"], "mast": 1})
    assert all(s["masts_up"]) and s["acted"] == "repair"


# -- victory and the end ----------------------------------------------------------------


def test_7_2_more_than_half_of_the_starting_gold_wins():
    st = new()
    clear(st, ["s0"])
    my_turn(st, 0)
    st["home_gold"][0] = 15
    home = world.home_of(st, 0)
    s = _near(st, "s0", home)
    give_treasure(st, "s0", 1)
    act(st, random.Random(), move("s0", (_toward(st, s, home), st["L_length"])))
    assert st["phase"] == "over" and st["winner"] == [0] and GAME.to_act(st) == []
    assert GAME.scores(st)["rank"] == [1, 2]


def test_7_4_round_cap_most_gold_wins():
    st = new(max_rounds=2)
    rng = random.Random(1)
    st["home_gold"] = [0, 3]
    while GAME.to_act(st):
        act(st, rng, END)
    assert st["end"] == "round_cap" and st["winner"] == [1]


# -- hidden information ---------------------------------------------------------------


def test_8_13_views_hide_treasure_values_and_face_down_crew():
    st = new()
    v1 = GAME.view(st, 1)
    assert all(t["gold"] is None for t in v1["treasure"])
    assert all(c["kind"] is None for c in v1["crew"] if c["owner"] == 0)
    assert all(c["kind"] is not None for c in v1["crew"] if c["owner"] == 1)
    # changing seat 0's secrets never changes seat 1's view
    st["crew"][0]["kind"] = "Captain"
    st["treasure"][0]["gold"] = 3
    assert GAME.view(st, 1) == v1


def test_3_5_every_offered_home_has_room_for_the_fleet():
    # seed 334 once offered an island where the fleet could not be placed
    rng, chooser = random.Random(334), random.Random("c334")
    st = GAME.setup(2, None, rng)
    while st["phase"] == "home":
        (seat,) = GAME.to_act(st)
        act(st, rng, chooser.choice(GAME.legal_actions(st, seat)))
    assert st["phase"] == "play" and all(s["placed"] for s in st["ships"])


# -- named crew, links and crew keywords (5.9.3, 5.15; designed crew of 9.3) ------------


def _named(st, sid, card, cursed=False):
    c = data.named_crew()[card]
    return deal.add_crew(st, world.ship(st, sid)["owner"], sid, c["ability"], c["nation"],
                         card, cursed)


def test_5_9_3_links_add_cargo_for_the_linked_ship_and_each_mutual_pair():
    st = new()
    kestrel = world.ship(st, "s0")  # D-S02, cargo 3, already an Explorer aboard
    assert world.capacity(st, kestrel) == 3
    _named(st, "s0", "D-C02")  # Mr. Hale: linked to Vane only
    assert world.capacity(st, kestrel) == 3
    _named(st, "s0", "D-C01")  # Vane: linked to Hale (mutual) and to the Kestrel
    assert world.capacity(st, kestrel) == 5
    assert world.has(st, kestrel, "Captain") and world.has(st, kestrel, "Helmsman")


def test_5_15_black_mark_played_cursed_makes_the_ship_cursed():
    st = new(fleets="sample")
    tern = world.ship(st, "s2")  # D-S01 Tern, Pirates, a Helmsman (Pirates) aboard
    assert world.has(st, tern, "Helmsman")
    tom = _named(st, "s2", "D-C05", cursed=True)
    assert tom["face_up"] and tom["points"] == 3  # placed visibly, a point more
    assert world.nation(st, tern) == "Cursed"
    assert world.has(st, tern, "Cannoneer")  # Tom is Cursed too: his ability works
    assert not world.has(st, tern, "Helmsman")  # the Pirates Helmsman's does not
    assert GAME.view(st, 1)["crew"][int(tom["id"][1:])]["cursed"] is True


def test_5_15_ransom_crew_eliminated_by_an_opponent_pays_1_gold():
    st = new()
    alvaro = _named(st, "s1", "D-C03")  # San Telmo, Spain
    events: list = []
    world.ship(st, "s1")["crew"] = [int(alvaro["id"][1:])]
    combat.plunder(st, world.ship(st, "s3"), world.ship(st, "s1"), "crew", Dice(), events)
    assert alvaro["gone"] and st["home_gold"][1] == 1 and st["gold_made"] == 1
    assert events[-1]["type"] == "ransom"


def test_3_1_random_fleets_may_carry_named_crew_within_the_caps():
    seen = set()
    for seed in range(40):
        for entry in deal.random_fleet(40, random.Random(seed)):
            ship = data.ship(entry["ship"])
            pts = 0
            for kind, nation, *named in entry["crew"]:
                assert nation == ship["nation"]
                if named:
                    seen.add(named[0])
                    pts += data.named_crew()[named[0]]["points"] + (1 if named[1] else 0)
                else:
                    pts += data.crew_points(kind)
            assert pts <= ship["points"]  # 5.9.2
    assert seen


def test_3_5_and_3_7_set_up_in_words_and_unplaced_fleets_off_the_map():
    """Before its home island is chosen a fleet is not on the table: the board says so
    (no position, no "pinned" at the corner) and does not draw it; choosing a home and
    dealing the treasure are told in sentences."""
    rng = random.Random(0)
    st = GAME.setup(2, None, rng)
    names = ["Ann", "Bob"]
    (seat,) = GAME.to_act(st)
    board = GAME.render_text(GAME.view(st, seat), seat, names)
    unplaced = [line for line in board.splitlines() if "not on the table yet" in line]
    assert len(unplaced) == len(st["ships"]), board
    assert "pinned" not in board and "(0.0 mm, 0.0 mm)" not in board, board
    said = []
    while st["phase"] == "home":
        (seat,) = GAME.to_act(st)
        events = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0], rng)
        said += [GAME.describe_event(GAME.view(st, 0), 0, e, names) for e in events]
    homes = [s for s in said if "home island" in s]
    assert len(homes) == 2 and homes[0].startswith(("Ann makes I", "Bob makes I")), said
    assert any("treasure pieces are placed face down" in s for s in said), said
    board = GAME.render_text(GAME.view(st, 0), 0, names)
    assert "not on the table yet" not in board, board
