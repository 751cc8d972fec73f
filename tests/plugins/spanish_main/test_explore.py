"""Exploring ships and wrecks (digest 5.8.5, 5.11, 5.15 Ransom, 5.18.2 wrecks)."""

from __future__ import annotations

import random

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.spanish_main import audit, data, deal, monsters, world

from .conftest import GAME, MID, act, clear, new, place

DONE = {"type": "done"}


def my_turn(st, seat):
    from lantable.plugins.spanish_main import turn
    st["turn"] = seat
    st["pending"] = []
    turn.start_turn(st, random.Random(0))


def load(st, sid, *values):
    """Treasure of these values from the islands into ``sid``'s hold."""
    s = world.ship(st, sid)
    out = []
    for v in values:
        t = next(t for t in st["treasure"] if t["gold"] == v and t["where"].startswith("I"))
        world.island(st, t["where"])["treasure"].remove(int(t["id"][1:]))
        t["where"] = sid
        s["hold"].append(int(t["id"][1:]))
        out.append(t["id"])
    return out


def alongside(st, a, b):
    """``b`` beside ``a`` (both heading east), hulls touching, nothing else afloat."""
    clear(st, [a, b])
    my_turn(st, world.ship(st, a)["owner"])
    place(st, a, 30000, MID, 0)
    beams = (world.ship(st, a)["masts"], world.ship(st, b)["masts"])
    half = {1: 700, 2: 800, 3: 900, 4: 1000, 5: 1100}
    place(st, b, 30000, MID + half[beams[0]] + half[beams[1]] + 10, 0)


def legal(st):
    (seat,) = GAME.to_act(st)
    return GAME.legal_actions(st, seat)


def test_5_8_5_explore_an_own_ship_moves_treasure_and_crew_both_ways():
    st = new()
    alongside(st, "s0", "s1")  # Kestrel (Explorer aboard) and San Telmo, both seat 0
    kestrel, telmo = world.ship(st, "s0"), world.ship(st, "s1")
    three, two = load(st, "s0", 3, 2)  # the Kestrel is full: 1 crew + 2 treasure
    one, = load(st, "s1", 1)
    assert {"type": "explore_ship", "ship": "s0", "target": "s1"} in legal(st)
    assert {"type": "explore_ship", "ship": "s1", "target": "s0"} in legal(st)
    events = act(st, random.Random(), {"type": "explore_ship", "ship": "s0", "target": "s1"})
    assert events[1] == {"type": "saw", "to": [0], "ship": "s1", "treasure": {one: 1}}
    assert kestrel["acted"] == "explore"  # the explorer spends its action
    offered = legal(st)
    assert {"type": "transfer", "item": one, "onto": "s0"} not in offered  # the Kestrel is full
    act(st, random.Random(), {"type": "transfer", "item": three, "onto": "s1"})
    act(st, random.Random(), {"type": "transfer", "item": one, "onto": "s0"})  # room now
    act(st, random.Random(), {"type": "transfer", "item": "c0", "onto": "s1"})
    # each item moves once: the 3 does not come back
    assert {"type": "transfer", "item": three, "onto": "s0"} not in legal(st)
    act(st, random.Random(), DONE)
    assert [st["treasure"][t]["id"] for t in kestrel["hold"]] == [two, one]
    assert [st["treasure"][t]["id"] for t in telmo["hold"]] == [three]
    assert st["crew"][0]["ship"] == "s1" and telmo["crew"] == [0]
    # the San Telmo has not acted: it may still move; the Kestrel may not
    types = {(a["type"], a.get("ship")) for a in legal(st)}
    assert ("move", "s1") in types and ("move", "s0") not in types
    assert audit.problems(st) == []


def test_5_8_5_transfers_keep_cargo_and_crew_point_limits():
    st = new()
    alongside(st, "s0", "s2")  # Kestrel and Tern (7 points, cargo 2)
    tern = world.ship(st, "s2")
    tern["crew"] = []
    for kind in ("Captain", "Oarsman", "Oarsman"):  # 5 points in 1 cargo space (5.9.1)
        deal.add_crew(st, 0, "s2", kind, "Pirates")
    musketeer = deal.add_crew(st, 0, "s0", "Musketeer", "England")
    act(st, random.Random(), {"type": "explore_ship", "ship": "s0", "target": "s2"})
    offered = legal(st)
    assert {"type": "transfer", "item": "c0", "onto": "s2"} in offered  # Explorer: 1 point
    assert {"type": "transfer", "item": musketeer["id"], "onto": "s2"} not in offered  # 8 > 7
    act(st, random.Random(), {"type": "transfer", "item": "c0", "onto": "s2"})
    with pytest.raises(IllegalAction):  # the Tern is full now
        act(st, random.Random(), {"type": "transfer", "item": musketeer["id"], "onto": "s2"})


def test_5_8_5_an_enemy_derelict_gives_up_its_treasure_and_crew():
    st = new()
    alongside(st, "s0", "s3")  # Kestrel; Sainte-Claire (seat 1: Captain, Cannoneer)
    claire = world.ship(st, "s3")
    gold, = load(st, "s3", 3)
    # afloat with masts, an enemy cannot be explored
    assert not any(a["type"] == "explore_ship" for a in legal(st))
    with pytest.raises(IllegalAction):
        act(st, random.Random(), {"type": "explore_ship", "ship": "s0", "target": "s3"})
    claire["masts_up"] = [False, False, False]
    act(st, random.Random(), {"type": "explore_ship", "ship": "s0", "target": "s3"})
    assert GAME.view(st, 0)["treasure"][int(gold[1:])]["gold"] == 3  # looked at
    assert GAME.view(st, 1)["treasure"][int(gold[1:])]["gold"] is None
    act(st, random.Random(), {"type": "transfer", "item": gold, "onto": "s0"})
    act(st, random.Random(), {"type": "transfer", "item": "c2", "onto": "s0"})  # the Captain
    act(st, random.Random(), DONE)
    assert st["crew"][2]["owner"] == 0 and st["crew"][2]["ship"] == "s0"
    assert GAME.view(st, 0)["crew"][2]["kind"] == "Captain"  # now his player's crew
    assert GAME.view(st, 1)["crew"][2]["kind"] is None
    assert world.has(st, world.ship(st, "s0"), "Captain") is False  # French: no ability
    # crew never goes onto a ship the player does not control
    assert audit.problems(st) == []


def test_5_8_5_no_crew_onto_another_players_derelict():
    st = new()
    alongside(st, "s0", "s3")
    world.ship(st, "s3")["masts_up"] = [False, False, False]
    world.ship(st, "s3")["crew"] = []
    act(st, random.Random(), {"type": "explore_ship", "ship": "s0", "target": "s3"})
    assert legal(st) == [DONE]


def test_5_8_5_a_ship_not_touching_cannot_be_explored():
    st = new()
    alongside(st, "s0", "s1")
    place(st, "s1", 30000, MID + 3000, 0)  # 1 cm of water between the hulls
    assert not any(a["type"] == "explore_ship" for a in legal(st))


def test_5_15_ransom_crew_moved_onto_an_enemy_ship_becomes_5_gold():
    st = new()
    alongside(st, "s0", "s3")
    claire = world.ship(st, "s3")
    claire["masts_up"] = [False, False, False]
    card = data.named_crew()["D-C03"]  # Don Alvaro, Ransom
    alvaro = deal.add_crew(st, 1, "s3", card["ability"], card["nation"], "D-C03")
    kestrel = world.ship(st, "s0")
    act(st, random.Random(), {"type": "explore_ship", "ship": "s0", "target": "s3"})
    events = act(st, random.Random(), {"type": "transfer", "item": alvaro["id"], "onto": "s0"})
    assert events[-1]["type"] == "ransom_captured" and events[-1]["gold"] == 5
    ransom = st["treasure"][kestrel["hold"][-1]]
    assert ransom["gold"] == 5 and ransom["face_up"] and alvaro["gone"]
    assert st["gold_made"] == 5 and audit.problems(st) == []
    assert GAME.view(st, 1)["treasure"][int(ransom["id"][1:])]["gold"] == 5  # face up


def test_5_11_a_derelict_may_itself_explore():
    st = new()
    alongside(st, "s0", "s1")
    kestrel = world.ship(st, "s0")
    kestrel["masts_up"] = [False, False, False]
    gold, = load(st, "s0", 2)
    offered = legal(st)
    assert {"type": "explore_ship", "ship": "s0", "target": "s1"} in offered
    act(st, random.Random(), {"type": "explore_ship", "ship": "s0", "target": "s1"})
    act(st, random.Random(), {"type": "transfer", "item": gold, "onto": "s1"})
    assert world.ship(st, "s1")["hold"] == [int(gold[1:])]


def test_5_18_2_a_wreck_on_a_reef_can_be_explored_by_any_player():
    st = new()
    alongside(st, "s0", "s3")
    wreck = world.ship(st, "s3")
    gold, = load(st, "s3", 3)
    wreck.update(sunk=True, wreck=True, masts_up=[False, False, False])
    assert {"type": "explore_ship", "ship": "s0", "target": "s3"} in legal(st)
    events = act(st, random.Random(), {"type": "explore_ship", "ship": "s0", "target": "s3"})
    assert events[1]["treasure"] == {gold: 3}
    act(st, random.Random(), {"type": "transfer", "item": gold, "onto": "s0"})
    assert st["treasure"][int(gold[1:])]["where"] == "s0"
    assert audit.problems(st) == []


def test_5_8_5_words_for_exploring_a_ship():
    st = new()
    alongside(st, "s0", "s1")
    gold, = load(st, "s1", 2)
    names = ["Ann", "Bob"]
    view = GAME.view(st, 0)
    a = {"type": "explore_ship", "ship": "s0", "target": "s1"}
    assert "explore San Telmo (Ann, s1)" in GAME.describe(view, 0, a, names)
    events = act(st, random.Random(), a)
    events += act(st, random.Random(), {"type": "transfer", "item": gold, "onto": "s0"})
    view = GAME.view(st, 0)
    said = [GAME.describe_event(view, 0, e, names) for e in events]
    assert said[0] == "Kestrel (Ann, s0) comes alongside San Telmo (Ann, s1) to explore her"
    assert said[-1] == (f"treasure {gold} (2 gold) moves from San Telmo (Ann, s1) "
                        "to Kestrel (Ann, s0)")


def test_5_8_5_a_captured_derelict_in_tow_can_be_explored_by_its_tug():
    st = new()
    alongside(st, "s0", "s3")
    claire = world.ship(st, "s3")
    gold, = load(st, "s3", 3)
    claire["masts_up"] = [False, False, False]
    place(st, "s3", 32000, MID, 1800)  # derelict, bow towards the Kestrel's
    rng = random.Random()
    act(st, rng, {"type": "move", "ship": "s0",
                  "segments": [{"heading": 0, "distance": 2000}]},
        {"type": "tow", "target": "s3"}, DONE)
    assert claire["owner"] == 0 and claire["towed_by"] == "s0"
    act(st, rng, {"type": "end_turn"}, {"type": "end_turn"})
    assert {"type": "explore_ship", "ship": "s0", "target": "s3"} in legal(st)
    act(st, rng, {"type": "explore_ship", "ship": "s0", "target": "s3"},
        {"type": "transfer", "item": gold, "onto": "s0"}, DONE)
    assert world.ship(st, "s0")["hold"][-1] == int(gold[1:])
    assert audit.problems(st) == []


def test_a_38_a_ship_lost_in_fog_cannot_be_explored():
    st = new()
    alongside(st, "s0", "s1")
    world.ship(st, "s1")["lost_in"] = "T1"
    assert not any(a["type"] == "explore_ship" for a in legal(st))


def test_5_16_a_sea_monster_neither_explores_nor_is_explored():
    st = new()
    alongside(st, "s0", "s1")
    load(st, "s1", 2)
    monsters.make(world.ship(st, "s1"))
    assert not any(a["type"] == "explore_ship" for a in legal(st))


def test_5_8_5_not_offered_when_nothing_could_move_and_nothing_is_unseen():
    st = new()
    alongside(st, "s0", "s3")  # Kestrel (an Explorer aboard); Sainte-Claire (seat 1)
    claire = world.ship(st, "s3")
    claire["masts_up"], claire["crew"] = [False, False, False], []  # derelict, empty
    # the Explorer may not go onto another player's ship: nothing could move
    assert not any(a["type"] == "explore_ship" for a in legal(st))
    load(st, "s0", 1)  # a treasure could go across
    assert {"type": "explore_ship", "ship": "s0", "target": "s3"} in legal(st)
