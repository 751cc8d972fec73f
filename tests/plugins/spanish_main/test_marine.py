"""The Marine keyword (digest 5.15, A-33): Sergeant Crane of the designed crew (9.3)."""

from __future__ import annotations

import random

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.spanish_main import audit, deal, turn, world
from lantable.plugins.spanish_main import geometry as g

from .conftest import GAME, MID, Dice, act, clear, new, place

END = {"type": "end_turn"}


def my_turn(st, seat):
    st["turn"] = seat
    st["pending"] = []
    turn.start_turn(st, random.Random(0))


def crane(st, sid=None, island=None, seat=0):
    """Sergeant Crane (England, Marine) aboard ``sid`` or landed on ``island``."""
    c = deal.add_crew(st, seat, sid or "s0", "Marine", "England", "D-C04")
    if island is not None:
        world.ship(st, sid or "s0")["crew"].remove(int(c["id"][1:]))
        c["ship"], c["island"] = None, island
    return c


def duel(st):
    """Kestrel (s0, England) heading east; Sainte-Claire (s3) across her bow, within S
    of her foremast only."""
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    place(st, "s3", 32000, MID + 3750, 900)


def wild(st):
    return next(i for i in st["islands"] if i["home"] is None)


def off(st, sid, isl, gap=3000):
    """``sid`` ``gap`` units south of ``isl``, bow north towards it."""
    poly = world.island_poly(isl)
    cx, _ = g.centroid(poly)
    return place(st, sid, round(cx), round(min(y for _, y in poly)) - gap, 900)


def abeam(st, sid, isl, gap=3000):
    """``sid`` heading east along the south of ``isl``, her side ``gap`` units off."""
    poly = world.island_poly(isl)
    cx, _ = g.centroid(poly)
    return place(st, sid, round(cx) + 3700, round(min(y for _, y in poly)) - gap - 900, 0)


def marine_shots(st, seat):
    return [a for a in GAME.legal_actions(st, seat) if a["type"] == "marine_fire"]


def test_5_15_marine_aboard_has_its_own_shot_at_S_range_rank_2():
    st = new()
    duel(st)
    c = crane(st)
    assert marine_shots(st, 0) == [{"type": "marine_fire", "crew": c["id"], "target": "s3"}]
    rng = Dice(3)  # 3 > rank 2
    events = act(st, rng, marine_shots(st, 0)[0])
    assert events[0] == {"type": "marine_shot", "crew": c["id"], "target": "s3", "roll": 3,
                         "hit": True}
    assert st["pending"][-1]["kind"] == "lose_mast"
    act(st, rng, {"type": "lose_mast", "ship": "s3", "mast": 2})
    assert c["face_up"]  # the shot shows what he is
    kestrel = world.ship(st, "s0")
    assert kestrel["acted"] is None  # the ship's own action is still there
    assert any(a["type"] == "fire" for a in GAME.legal_actions(st, 0))
    assert marine_shots(st, 0) == []  # one shot a turn
    with pytest.raises(IllegalAction):
        act(st, rng, {"type": "marine_fire", "crew": c["id"], "target": "s3"})
    act(st, rng, END, END)
    assert len(marine_shots(st, 0)) == 1  # the next turn, again


def test_5_15_marine_rank_2_misses_on_2_and_on_1():
    for face in (1, 2):
        st = new()
        duel(st)
        c = crane(st)
        events = act(st, Dice(face), {"type": "marine_fire", "crew": c["id"], "target": "s3"})
        assert not events[0]["hit"] and len(events) == 1


def test_5_15_marine_range_is_S():
    st = new()
    duel(st)
    crane(st)
    place(st, "s3", 39000, MID + 3750, 900)  # 80 mm off the Kestrel's bow: beyond S
    assert marine_shots(st, 0) == []


def test_5_15_marine_needs_its_ships_nation_aboard():
    st = new()
    clear(st, ["s2", "s3"])  # Tern (Pirates)
    my_turn(st, 0)
    place(st, "s2", 30000, MID, 0)
    place(st, "s3", 31500, MID + 3750, 900)
    crane(st, "s2")
    assert marine_shots(st, 0) == []


def test_5_15_marines_stack():
    st = new()
    duel(st)
    first, second = crane(st), crane(st)
    shots = marine_shots(st, 0)
    assert {a["crew"] for a in shots} == {first["id"], second["id"]}


def test_5_15_landed_marine_fires_from_the_island_outline():
    st = new()
    clear(st, ["s0", "s3"])
    my_turn(st, 0)
    isl = wild(st)
    c = crane(st, island=isl["id"])
    off(st, "s3", isl)  # 30 mm off the island
    place(st, "s0", 15000, 5000, 0)
    assert marine_shots(st, 0) == [{"type": "marine_fire", "crew": c["id"], "target": "s3"}]
    off(st, "s3", isl, gap=7000)  # 70 mm: out of S
    assert marine_shots(st, 0) == []


def test_5_15_marine_can_be_shot_only_landed_and_falls_to_a_second_hit_in_a_turn():
    st = new()
    clear(st, ["s0", "s3"])
    isl = wild(st)
    c = crane(st, island=isl["id"])
    my_turn(st, 1)
    abeam(st, "s3", isl)  # Sainte-Claire: 4S, 3L, 4S all within S of the island
    place(st, "s0", 15000, 5000, 0)
    assert not any(a["type"] == "fire" and a["target"] == c["id"]
                   for a in GAME.legal_actions(st, 1))  # face down: nobody knows
    c["face_up"] = True
    shots = [a for a in GAME.legal_actions(st, 1)
             if a["type"] == "fire" and a["target"] == c["id"]]
    assert shots
    rng = Dice(6)
    events = act(st, rng, shots[0])
    assert events[-1] == {"type": "marine_hit", "crew": c["id"], "hits": 1}
    assert not c["gone"]
    act(st, rng, END, END)  # a new turn: the count starts again
    assert c["marine_hits"] == 0 and not c["gone"]
    more = [a for a in GAME.legal_actions(st, 1)
            if a["type"] == "fire" and a["target"] == c["id"]]
    rng.push(6)
    act(st, rng, more[0])
    rng.push(6)
    later = [a for a in GAME.legal_actions(st, 1)
             if a["type"] == "fire" and a["target"] == c["id"]]
    events = act(st, rng, later[0])
    assert events[-1] == {"type": "marine_eliminated", "crew": c["id"]}
    assert c["gone"] and c["island"] is None
    assert audit.problems(st) == []


def test_5_15_a_marine_aboard_cannot_be_targeted():
    st = new()
    duel(st)
    c = crane(st)
    c["face_up"] = True
    my_turn(st, 1)
    assert not any(a.get("target") == c["id"] for a in GAME.legal_actions(st, 1))


def test_5_15_words_for_the_marine():
    st = new()
    duel(st)
    c = crane(st)
    names = ["Ann", "Bob"]
    a = marine_shots(st, 0)[0]
    said = GAME.describe(GAME.view(st, 0), 0, a, names)
    assert said == (f"Sergeant Crane (Ann, {c['id']}, aboard Kestrel (Ann, s0)): fire at "
                    "Sainte-Claire (Bob, s3) (S range, hits on 3+)")
    events = act(st, Dice(4), a)
    text = GAME.describe_event(GAME.view(st, 1), 1, events[0], names)
    assert text.startswith("Sergeant Crane (Ann") and text.endswith("rolls 4, hit")


def test_3_1_random_fleets_may_carry_the_marine():
    assert any(len(crew) > 2 and crew[2] == "D-C04"
               for seed in range(400)
               for entry in deal.random_fleet(40, random.Random(seed))
               for crew in entry["crew"])


def test_5_15_a_landed_marine_fires_at_an_enemy_fort_on_its_island():
    from .test_forts import built

    st, f, isl = built(keep=("s0", "s3"))
    c = crane(st, "s3", island=isl["id"], seat=1)
    my_turn(st, 1)
    assert {"type": "marine_fire", "crew": c["id"], "target": f["id"]} in marine_shots(st, 1)
    events = act(st, Dice(6), {"type": "marine_fire", "crew": c["id"], "target": f["id"]})
    assert events[0]["hit"] and st["pending"][-1]["kind"] == "lose_flag"
