"""Sea monsters (digest 2.9, 3.1, 5.16, A-36), an option: one test per rule.

With ``monsters`` on, sample fleet A (seat 0) is the Kestrel (s0), San Telmo (s1) and
the designed Reef Serpent (s2: 3 segments 3S 3S 4S, move L); fleet B (seat 1) the
Sainte-Claire (s3), Thunderer (s4) and a Reef Serpent (s5).
"""

from __future__ import annotations

import random

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.spanish_main import audit, data, monsters, turn, words, world

from .conftest import GAME, MID, Dice, act, clear, new, place

END = {"type": "end_turn"}


def my_turn(st, seat):
    st["turn"], st["pending"], st["acted_any"] = seat, [], False
    turn.start_turn(st, random.Random(0))


def move(sid, *legs):
    return {"type": "move", "ship": sid,
            "segments": [{"heading": h, "distance": d} for h, d in legs]}


def scene():
    """The serpent (s2) heading east in open water; the Sainte-Claire (s3) ahead."""
    st = new(monsters=True)
    clear(st, ["s2", "s3"])
    my_turn(st, 0)
    return st, place(st, "s2", 30000, MID, 0), world.ship(st, "s3")


def test_3_1_a_sea_monster_is_bought_at_fleet_building():
    st = new(monsters=True)
    assert [s["card"] for s in st["ships"]] == ["D-S02", "D-S04", monsters.CARD,
                                                "D-S03", "D-S10", monsters.CARD]
    for seat in range(2):
        spent = sum(data.ship(s["card"])["points"] for s in st["ships"] if s["owner"] == seat)
        spent += sum(c["points"] for c in st["crew"] if c["owner"] == seat)
        assert spent <= 40
    serpent = world.ship(st, "s2")
    assert world.monster(serpent) and serpent["crew"] == [] and serpent["docked"] is None
    assert not world.monster(world.ship(st, "s0"))
    assert "monsters" not in new()["options"]  # off by default, and then not in the state


def test_5_16_segments_act_like_masts_and_losing_the_last_eliminates_it():
    st, serpent, _ = scene()
    my_turn(st, 1)
    place(st, "s3", 36000, MID + 3750, 900)
    shot = {"type": "fire", "ship": "s3", "cannon": 1, "target": "s2"}  # the 3L
    assert shot in GAME.legal_actions(st, 1)
    act(st, Dice(6), shot)
    assert GAME.to_act(st) == [0]  # the owner picks the segment
    act(st, Dice(), {"type": "lose_mast", "ship": "s2", "mast": 2})
    serpent["masts_up"] = [True, False, False]
    my_turn(st, 1)
    events = act(st, Dice(6), shot)
    assert serpent["sunk"] and events[-1]["type"] == "monster_eliminated"
    assert not any(e["type"] == "derelict" for e in events)  # it never becomes derelict
    assert audit.problems(st) == []


def test_5_16_submerged_it_only_moves_and_cannot_be_attacked():
    st, serpent, enemy = scene()
    dive = {"type": "submerge", "ship": "s2", "on": True}
    assert dive in GAME.legal_actions(st, 0)
    act(st, Dice(), dive)
    assert not world.on_plane(serpent)
    mine = [a for a in GAME.legal_actions(st, 0) if a.get("ship") == "s2"]
    assert {a["type"] for a in mine} == {"move", "pivot"}
    place(st, "s3", 36000, MID + 3750, 900)
    my_turn(st, 1)
    assert not [a for a in GAME.legal_actions(st, 1) if a.get("target") == "s2"]
    # no obstacle: the Sainte-Claire sails straight over the serpent's water
    place(st, "s3", 32000, MID + 4500, 2700)
    act(st, Dice(), move("s3", (2700, 8380)))
    assert enemy["pose"] == [32000, MID + 4500 - 8380, 2700]


def test_5_16_declared_at_the_start_of_the_turn_only():
    st, serpent, _ = scene()
    act(st, Dice(), move("s2", (0, 1000)))
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] == "submerge"]
    with pytest.raises(IllegalAction):
        act(st, Dice(), {"type": "submerge", "ship": "s2", "on": True})


def test_5_16_a_submerged_monster_surfaces_only_in_clear_water():
    st, serpent, enemy = scene()
    act(st, Dice(), {"type": "submerge", "ship": "s2", "on": True})
    place(st, "s3", 28000, MID, 0)  # right over the serpent
    assert audit.problems(st) == []  # a submerged monster overlaps nothing
    my_turn(st, 0)
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] == "submerge"]
    place(st, "s3", 60000, MID, 0)
    my_turn(st, 0)
    act(st, Dice(), {"type": "submerge", "ship": "s2", "on": False})
    assert world.on_plane(serpent) and not serpent["ghost"]


def test_5_16_it_rams_at_any_point_pins_the_ship_and_is_never_pinned():
    st, serpent, enemy = scene()
    place(st, "s3", 38000, MID, 1800)  # bow to bow: a ship could not ram this
    act(st, Dice(), move("s2", (0, 8380)))
    assert {"type": "ram", "target": "s3"} in GAME.legal_actions(st, 0)
    events = act(st, Dice(1), {"type": "ram", "target": "s3"})
    assert events[0]["type"] == "ram" and not events[0]["hit"]
    act(st, Dice(), {"type": "decline"}, {"type": "decline"})
    assert world.pinned(st, enemy)  # pinned by the ram while the serpent stays
    assert not world.pinned(st, serpent)  # the ship's bow touches it: still free
    act(st, Dice(), {"type": "done"} if st["pending"] else END)
    if GAME.to_act(st) == [0]:
        act(st, Dice(), END)
    assert not [a for a in GAME.legal_actions(st, 1) if a.get("ship") == "s3"
                and a["type"] in ("move", "pivot")]
    my_turn(st, 0)
    act(st, Dice(), move("s2", (1800, 8380)))  # the serpent lets go
    assert serpent["pins"] == [] and not world.pinned(st, enemy)


def test_5_16_no_docking_towing_repair_or_crew():
    st, serpent, _ = scene()
    isl = next(i for i in st["islands"] if i["home"] == 0)
    serpent["masts_up"] = [True, True, False]
    poly = world.island_poly(isl)
    cx = round(sum(x for x, _ in poly) / len(poly))
    top = max(y for _, y in poly)
    place(st, "s2", cx, top + 3000, 2700)
    act(st, Dice(), move("s2", (2700, 8380)))
    assert serpent["docked"] is None  # touching its home island, not docked
    assert not turn.can_repair(st, serpent)
    assert not [a for a in GAME.legal_actions(st, 0) if a["type"] in ("tow", "load_crew")]


def test_A_36_a_monster_winning_a_boarding_destroys_treasure_and_takes_no_crew():
    st, serpent, enemy = scene()
    place(st, "s3", 32000, MID + 3750, 900)
    t = next(t for t in st["treasure"] if t["where"].startswith("I"))
    world.island(st, t["where"])["treasure"].remove(int(t["id"][1:]))
    t["where"] = "s3"
    enemy["hold"].append(int(t["id"][1:]))
    assert enemy["crew"]  # the Sainte-Claire carries a Captain and a Cannoneer
    rng = Dice(1)
    act(st, rng, move("s2", (0, 2000)), {"type": "ram", "target": "s3"})
    rng.push(6, 1)
    events = act(st, rng, {"type": "board"})
    assert events[0]["winner"] == "s2"
    assert GAME.legal_actions(st, 0) == [{"type": "plunder", "what": "treasure"},
                                         {"type": "decline"}]
    events = act(st, rng, {"type": "plunder", "what": "treasure"})
    assert events[0]["type"] == "treasure_destroyed" and t["where"] == "gone"
    assert serpent["hold"] == [] and st["gold_lost"] == t["gold"]
    assert audit.problems(st) == []  # gold conserved: it went down with the serpent


def test_words_name_monsters_and_their_moves():
    st, serpent, _ = scene()
    view = GAME.view(st, 0)
    text = words.render(view, 0, ["Ann", "Bob"])
    assert "Reef Serpent" in text and "sea monster" in text and "segments 3/3" in text
    said = words.describe_action(view, 0, {"type": "submerge", "ship": "s2", "on": True},
                                 ["Ann", "Bob"])
    assert said.startswith("Reef Serpent (Ann, s2): dive")


def test_bad_submerge_actions_are_refused():
    st, serpent, _ = scene()
    for bad in ({"type": "submerge", "ship": "s2", "on": 1},
                {"type": "submerge", "ship": "s2"},
                {"type": "submerge", "ship": "s2", "on": False},  # it is surfaced already
                {"type": "submerge", "ship": "s3", "on": True}):  # not yours
        with pytest.raises(IllegalAction):
            act(st, Dice(), bad)
    assert not serpent["submerged"] and not serpent["ghost"]
