"""The queries of 8.14, each tested against its definition: what the engine then does.

A query answers from the asking seat's view (plugins/spanish_main/queries.py). Each
answer is checked by carrying it out on a copy of the game: the ``sail`` answer is
where a ``move`` with that heading and distance ends, and what it touches; every
``dock_approaches`` answer docks at that island; ``shootable_targets`` are the
``fire`` actions; ``ram_candidates`` are the ships a ram may strike.
"""

from __future__ import annotations

import math
import random

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.spanish_main import combat, hull, motion, queries, turn, world

from .conftest import GAME, MID, clear, new, place
from .test_rules import _near, my_turn


def ask(st, seat, **query):
    return GAME.query(GAME.view(st, seat), seat, query)


def move(sid, h, d):
    return {"type": "move", "ship": sid, "segments": [{"heading": h, "distance": d}]}


def carry_out(st, seat, action):
    """Apply ``action`` to a copy: (the copy, the events)."""
    probe = GAME.clone(st)
    return probe, GAME.apply(probe, seat, action, random.Random(0))


def test_8_14_sail_reports_the_distance_the_bow_tip_sailed():
    st = new()
    clear(st, ["s0"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    L = st["L_length"]
    got = ask(st, 0, type="sail", ship="s0", heading=0, distance=L)
    assert got == {"end": [30000 + L, MID, 0], "distance": L, "contact": None}
    # at 30 degrees the end is rounded to whole units: the distance is still the one sailed
    got = ask(st, 0, type="sail", ship="s0", heading=300, distance=L)
    assert got["distance"] == L and got["contact"] is None
    probe, _ = carry_out(st, 0, move("s0", 300, L))
    assert world.ship(probe, "s0")["pose"] == got["end"]
    assert math.hypot(got["end"][0] - 30000, got["end"][1] - MID) == pytest.approx(L, abs=1)


def test_8_14_sail_stops_at_first_contact_as_the_move_does():
    st = new()
    clear(st, ["s0", "s1"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    place(st, "s1", 36000, MID + 3000, 900)  # across the course, about 50 mm ahead
    got = ask(st, 0, type="sail", ship="s0", heading=0, distance=st["L_length"])
    assert got["contact"] == ["ship", "s1"]
    assert 0 < got["distance"] < st["L_length"]
    assert got["end"] == [30000 + got["distance"], MID, 0]
    probe, events = carry_out(st, 0, move("s0", 0, st["L_length"]))
    moved = next(e for e in events if e["type"] == "moved")
    assert moved["at"] == got["end"] and moved["contact"] == "s1"


def test_8_14_sail_is_blocked_when_the_turn_overlaps():
    st = new()
    clear(st, ["s0", "s1"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    place(st, "s1", 34000, MID + 3000, 900)  # across the bow, 40 mm off
    got = ask(st, 0, type="sail", ship="s0", heading=1800)
    assert set(got) == {"blocked"}
    with pytest.raises(IllegalAction):
        carry_out(st, 0, move("s0", 1800, st["L_length"]))


def test_8_14_sail_only_for_the_askers_ships_and_checks_its_numbers():
    st = new()
    with pytest.raises(IllegalAction):
        ask(st, 0, type="sail", ship="s3", heading=0)  # seat 1's
    with pytest.raises(IllegalAction):
        ask(st, 0, type="sail", ship="s0", heading=3600)
    with pytest.raises(IllegalAction):
        ask(st, 0, type="sail", ship="s0", heading=0, distance=True)


def _self_play_states(games=3, every=7):
    """(state, seat) at every ``every``-th decision of seeded random games in play."""
    for seed in range(games):
        rng, chooser = random.Random(seed), random.Random(f"q{seed}")
        st = GAME.setup(2, {"max_rounds": 6}, rng)
        for n in range(3000):
            to_act = GAME.to_act(st)
            if not to_act:
                break
            seat = to_act[0]
            if n % every == 0 and st["phase"] == "play" and not st["pending"]:
                yield st, seat
            action = chooser.choice(GAME.concrete_actions(st, seat))
            GAME.apply(st, seat, action, rng)


def test_8_14_sail_and_course_match_the_move_in_self_play():
    """Over seeded games: every own ship that may move, 6 headings, the full measure."""
    rng = random.Random(5)
    checked = contacts = 0
    for st, seat in _self_play_states():
        for s in st["ships"]:
            if s["owner"] != seat or not turn.may_move(st, s) or s["lost_in"]:
                continue
            d = queries.reach(st, s)
            for h in rng.sample(range(0, 3600, 10), 6):
                got = ask(st, seat, type="sail", ship=s["id"], heading=h, distance=d)
                course = ask(st, seat, type="course", ship=s["id"],
                             segments=[{"heading": h, "distance": d}])
                try:
                    probe, events = carry_out(st, seat, move(s["id"], h, d))
                except IllegalAction:
                    assert "blocked" in got and "blocked" in course, (s["id"], h)
                    continue
                moved = next(e for e in events if e["type"] == "moved")
                assert got["end"] == moved["at"] == course["poses"][-1], (s["id"], h)
                assert abs(got["distance"] - math.dist(moved["from"][:2], moved["at"][:2])) <= 1
                assert (got["contact"] or [None, None])[1] == moved["contact"]
                assert got["contact"] == course["contact"]
                if got["contact"] is None:
                    assert got["distance"] == d
                checked += 1
                contacts += got["contact"] is not None
    assert checked > 100 and contacts > 5, (checked, contacts)


def test_8_14_dock_approaches_each_dock_at_that_island():
    st = new()
    clear(st, ["s0"])
    my_turn(st, 0)
    wild = next(i for i in st["islands"] if i["home"] is None)
    s = _near(st, "s0", wild, gap=4000)
    answers = ask(st, 0, type="dock_approaches", ship="s0", island=wild["id"])
    assert len(answers) >= 3
    for a in answers:
        assert 0 < a["distance"] <= queries.reach(st, s)
        probe, events = carry_out(st, 0, move("s0", a["heading"], a["distance"]))
        assert {"type": "docked", "ship": "s0", "island": wild["id"]} in events, a
        assert world.ship(probe, "s0")["docked"] == wild["id"]


def test_8_14_dock_approaches_none_at_an_enemy_home_or_out_of_reach():
    st = new()
    clear(st, ["s0"])
    my_turn(st, 0)
    enemy_home = world.home_of(st, 1)
    _near(st, "s0", enemy_home, gap=3000)
    assert ask(st, 0, type="dock_approaches", ship="s0", island=enemy_home["id"]) == []
    wild = next(i for i in st["islands"] if i["home"] is None)
    _near(st, "s0", wild, gap=3 * st["L_length"])  # three measures away
    assert ask(st, 0, type="dock_approaches", ship="s0", island=wild["id"]) == []


def test_8_14_shootable_targets_are_the_fire_actions():
    """Seeded placements of two enemies around one of our ships (islands and a third
    ship in the way now and then): the query per mast is the ``fire`` actions."""
    rng = random.Random(14)
    checked = hits = 0
    for _ in range(120):
        st = new()
        clear(st, ["s0", "s1", "s3", "s4"])
        my_turn(st, 0)
        place(st, "s0", rng.randrange(20000, 70000), MID + rng.randrange(-3000, 3000),
              rng.randrange(0, 3600, 10))
        for sid in ("s1", "s3", "s4"):
            x, y, _ = world.ship(st, "s0")["pose"]
            place(st, sid, x + rng.randrange(-11000, 11000), y + rng.randrange(-11000, 11000),
                  rng.randrange(0, 3600, 10))
        polys = [world.foot(world.ship(st, sid)) for sid in ("s0", "s1", "s3", "s4")]
        if any(motion.overlaps([p], [("ship", "x", q)], None) for i, p in enumerate(polys)
               for q in polys[i + 1:]) or any(
                motion.overlaps([p], world.obstacles(st, skip=("s0", "s1", "s3", "s4")),
                                world.area(st)) for p in polys):
            continue
        s = world.ship(st, "s0")
        got = ask(st, 0, type="shootable_targets", ship="s0")
        want = {str(i): [] for i in world.standing(s)}
        for a in GAME.legal_actions(st, 0):
            if a["type"] == "fire" and a["ship"] == "s0":
                want[str(a["cannon"])].append(a["target"])
        assert got == want
        checked += 1
        hits += sum(map(len, got.values()))
    assert checked > 40 and hits > 20, (checked, hits)


def test_8_14_ram_candidates_are_what_a_ram_may_strike():
    st = new()
    clear(st, ["s0", "s3", "s4"])
    my_turn(st, 0)
    place(st, "s0", 30000, MID, 0)
    # s3 lies across the bow, its side behind its foremost mast touching our bow tip
    half_beam = round(hull.footprint(world.ship(st, "s3")["masts"], (0, 0, 0))[2][1])
    place(st, "s3", 30000 + half_beam, MID + 2500, 900)
    # s4 bow to bow elsewhere: our bow does not touch it
    place(st, "s4", 60000, MID, 1800)
    assert ask(st, 0, type="ram_candidates", ship="s0") == ["s3"]
    assert [e["id"] for e in combat.ram_targets(st, world.ship(st, "s0"))] == ["s3"]
