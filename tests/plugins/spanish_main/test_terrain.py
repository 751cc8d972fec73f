"""Terrain (digest 3.4, 5.18): fog banks, reefs and the Sargasso Sea, one test per rule.

Scenarios put one small piece in the open water between the rows of islands, a
Kestrel (3 masts, move L) west of it heading east, and script the dice.
"""

from __future__ import annotations

import random

import pytest

from lantable.plugins import BadOptions, IllegalAction
from lantable.plugins.spanish_main import geometry as g
from lantable.plugins.spanish_main import terrain, turn, world

from .conftest import GAME, MID, Dice, act, clear, new, place

X0 = 20000  # the Kestrel's bow tip; the piece spans x 24000..28000


def scene(kind: str) -> tuple[dict, dict]:
    st = new()
    clear(st, ["s0", "s3"])
    st["turn"], st["pending"] = 0, []
    turn.start_turn(st, random.Random(0))
    poly = [(round(x), round(y)) for x, y in g.ellipse_polygon(26000, MID, 4000, 3000)]
    piece = {"id": "T1", "kind": kind, "poly": [[x, y] for x, y in poly], "danger": None}
    if kind == "fog":
        piece["points"] = terrain.fog_points(poly)
    st["terrain"] = [piece]
    s = place(st, "s0", X0, MID, 0)
    place(st, "s3", 60000, MID + 8000, 1800)  # an enemy in open water, out of the way
    return st, s


def sail_east(st: dict, dice: Dice, distance: int = 8380) -> list[dict]:
    return act(st, dice, {"type": "move", "ship": "s0",
                          "segments": [{"heading": 0, "distance": distance}]})


def test_3_4_terrain_at_least_1S_from_islands_and_other_pieces():
    for seed in range(4):
        st = GAME.setup(2, {"terrain": 2}, random.Random(seed))
        pieces = [terrain.poly(t) for t in st["terrain"]]
        assert len(pieces) == 4
        assert sorted({t["kind"] for t in st["terrain"]}) <= ["fog", "reef", "sargasso"]
        others = [world.island_poly(i) for i in st["islands"]]
        for k, p in enumerate(pieces):
            assert all(g.distance(p, q) >= st["S_length"] for q in others + pieces[:k])
            x0, y0, x1, y1 = g.box(p)
            assert 0 <= x0 and 0 <= y0 and x1 <= st["table"][0] and y1 <= st["table"][1]
    with pytest.raises(BadOptions):
        GAME.setup(2, {"terrain": 9}, random.Random(0))


def test_5_18_2_reef_costs_the_difference_and_the_ship_sails_on():
    st, s = scene("reef")
    events = sail_east(st, Dice(1))
    assert [e for e in events if e["type"] == "danger"][0]["roll"] == 1
    assert sum(s["masts_up"]) == 1  # 3 printed masts against danger 1: two lost
    assert s["pose"] == [X0 + 8380, MID, 0]  # not derelict: it sails on
    assert st["terrain"][0]["danger"] == 1  # kept for the rest of the turn


def test_5_18_2_equal_or_higher_danger_costs_nothing():
    st, s = scene("reef")
    sail_east(st, Dice(3))
    assert all(s["masts_up"]) and s["pose"] == [X0 + 8380, MID, 0]


def test_5_18_2_a_ship_that_loses_its_last_mast_stops_derelict_on_the_reef():
    st, s = scene("reef")
    s["masts_up"] = [True, True, False]
    sail_east(st, Dice(1))
    assert world.derelict(s) and not s["sunk"]
    assert s["pose"][0] < 24100 and g.touching(world.foot(s), terrain.poly(st["terrain"][0]))


def test_5_18_2_sinking_on_a_reef_leaves_a_wreck_with_its_cargo():
    st, s = scene("reef")
    s["masts_up"] = [True, False, False]
    t = next(t for t in st["treasure"] if t["where"].startswith("I"))
    world.island(st, t["where"])["treasure"].remove(int(t["id"][1:]))
    t["where"] = "s0"
    s["hold"].append(int(t["id"][1:]))
    events = sail_east(st, Dice(1))
    assert any(e["type"] == "wrecked" for e in events)
    assert s["sunk"] and s["wreck"] and t["where"] == "s0"  # cargo stays aboard
    assert ("wreck", "s0") in [(k, i) for k, i, _ in world.obstacles(st)]  # blocks movement
    assert not any(e["type"] == "sunk" for e in events)  # no split of the gold


def test_5_18_2_no_roll_for_a_reef_the_ship_already_lay_on():
    st, s = scene("reef")
    place(st, "s0", 25000, MID, 0)  # bow on the reef
    events = sail_east(st, Dice(1))
    assert not any(e["type"] == "danger" for e in events) and all(s["masts_up"])


def test_5_18_3_sargasso_traps_when_danger_beats_the_printed_masts():
    st, s = scene("sargasso")
    sail_east(st, Dice(4))  # 4 > 3 printed masts
    assert s["trapped_in"] == "T1" and s["pose"][0] < 24100
    act(st, Dice(), {"type": "end_turn"}, {"type": "end_turn"})
    assert not turn.may_move(st, s)
    legal = GAME.legal_actions(st, 0)
    assert {"type": "free", "ship": "s0"} in legal
    assert not any(a["type"] == "move" and a.get("ship") == "s0" for a in legal)


def test_5_18_3_equal_danger_does_not_trap():
    st, s = scene("sargasso")
    sail_east(st, Dice(3))
    assert s["trapped_in"] is None and s["pose"] == [X0 + 8380, MID, 0]


def test_5_18_3_freeing_needs_more_than_6_and_puts_the_stern_on_the_edge():
    st, s = scene("sargasso")
    sail_east(st, Dice(6))
    act(st, Dice(), {"type": "end_turn"}, {"type": "end_turn"})
    events = act(st, Dice(3), {"type": "free", "ship": "s0"})  # 3 + 3 masts = 6: stuck
    assert events[-1]["type"] == "still_trapped" and s["trapped_in"] == "T1"
    act(st, Dice(), {"type": "end_turn"}, {"type": "end_turn"})
    events = act(st, Dice(4), {"type": "free", "ship": "s0"})  # 4 + 3 = 7
    assert events[-1]["type"] == "freed" and s["trapped_in"] is None
    sea = terrain.poly(st["terrain"][0])
    assert not g.overlapping(world.foot(s), sea)
    stern = terrain.hull.stern_point(s["masts"], world.pose(s))
    assert g.point_segment_distance(stern, *min(
        ((sea[i], sea[(i + 1) % len(sea)]) for i in range(len(sea))),
        key=lambda e: g.point_segment_distance(stern, *e))) <= g.EPS_TOUCH
    with pytest.raises(IllegalAction):  # the attempt was the ship's action
        act(st, Dice(), {"type": "move", "ship": "s0",
                         "segments": [{"heading": 0, "distance": 100}]})


def test_5_18_1_fog_swallows_the_ship_and_hides_it_from_fire():
    st, s = scene("fog")
    events = sail_east(st, Dice())
    assert s["lost_in"] == "T1" and events[-1]["type"] == "lost"
    enemy = world.ship(st, "s3")
    place(st, "s3", 26000, MID + 3000, 1800)
    assert not any(e["ship"] == "s3" and e.get("target") == "s0"
                   for e in turn.fire_actions(st, enemy))
    assert "s0" not in [oid for _, oid, _ in world.obstacles(st)]  # off the plane
    view = GAME.view(st, 1)
    assert next(x for x in view["ships"] if x["id"] == "s0")["lost_in"] == "T1"


def test_5_18_1_fog_blocks_the_line_of_fire():
    st, s = scene("fog")
    place(st, "s0", 23900, MID, 0)
    enemy = place(st, "s3", 28600, MID, 1800)  # right behind the bank, within L
    assert not any(a.get("target") == "s3" for a in turn.fire_actions(st, s))
    st["terrain"] = []
    world._MEMOS.clear()
    assert any(a.get("target") == "s3" for a in turn.fire_actions(st, s)) and enemy


def test_5_18_1_a_lost_ship_leaves_by_the_numbered_point_and_sails_on():
    st, s = scene("fog")
    sail_east(st, Dice())
    act(st, Dice(), {"type": "end_turn"}, {"type": "end_turn"})
    events = act(st, Dice(2), {"type": "move", "ship": "s0",
                               "segments": [{"heading": 900, "distance": 1000}]})
    out = next(e for e in events if e["type"] == "fog_exit")
    assert out["roll"] == 2 and s["lost_in"] is None
    fog = st["terrain"][0]
    stern = terrain.hull.stern_point(s["masts"], tuple(out["at"]))
    assert g.point_segment_distance(stern, tuple(fog["points"][1]),
                                    tuple(fog["points"][1])) <= 1.5
    assert s["pose"][2] == 900 and s["pose"][1] == out["at"][1] + 1000  # then its course
