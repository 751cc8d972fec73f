"""Issue 24's Blackbeard corners: each test named after its BB-S section."""

from __future__ import annotations

import random

from lantable.plugins.blackbeard import board, data
from lantable.plugins.blackbeard.data import PORTS

from .conftest import (
    GAME,
    act,
    actions,
    add_merchant,
    answer,
    hand,
    others,
    pass_window,
    pirate,
    table,
    top,
)

PORT_ROYAL, TORTUGA = 5, 6


def _sack_window(**options):
    S, rng = table(3, **options)
    b, _ = others(S)
    p = pirate(S, me_(S))
    p["cunning"] = 0
    actions(S, 2)
    act(S, me_(S), {"type": "attack_port", "pirate": p["id"], "port": PORT_ROYAL}, rng)
    rng.push(1, 1, 6, 6)
    pass_window(S, rng)
    assert p["port"] == PORT_ROYAL and p["sack_opportunity"] == PORT_ROYAL
    act(S, me_(S), {"type": "sack", "pirate": p["id"]}, rng)
    assert top(S)["kind"] == "ap_window" and top(S)["trigger"] == "sack"
    return S, rng, b, p


def me_(S):
    return S["turn_order"][S["turn_index"]]


def test_D_4_Q4_warship_triggers_sack_lets_a_warship_attack_a_sack() -> None:
    S, rng, b, p = _sack_window(warship_triggers="find,loot,attack_port,sack")
    assert {"type": "place_warship", "attack": True} in GAME.legal_actions(S, b)
    act(S, b, {"type": "place_warship", "attack": True}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "escape"}, 1, 6)  # the warship misses
    assert any(e["type"] == "escaped" for e in ev)
    # the pirate stays where he is (in the port); the sack counts as performed (A14)
    assert p["port"] == PORT_ROYAL and p["sack_opportunity"] is None
    assert {"type": "sack", "pirate": p["id"]} not in GAME.legal_actions(S, me_(S))


def test_D_4_Q4_default_warship_triggers_leave_a_sack_alone() -> None:
    S, _rng, b, _p = _sack_window()
    assert not any(a["type"] in ("place_warship", "warship_attack")
                   for a in GAME.legal_actions(S, b))


def test_D_2_4_loot_convert_optional_same_size() -> None:
    """Step 3: Convert is offered for any merchant; a same-size one clears the damage."""
    S, rng = table(3)
    p = pirate(S, me_(S))
    p["cunning"], p["combat"], p["speed"] = 0, 0, 1
    slot = add_merchant(S, p["area"], size=1)
    board.merchant(S, slot).update(face_up=True, found_by=p["id"])
    actions(S, 1)
    act(S, me_(S), {"type": "loot", "pirate": p["id"], "slot": slot}, rng)
    rng.push(3, 1)  # cargo, no hostage
    pass_window(S, rng)
    assert top(S)["kind"] == "convert"
    answer(S, rng, "convert", {"type": "convert", "yes": True})
    pass_window(S, rng)
    sloop = data.SHIPS[0]
    assert p["ship"] == 0 and (p["speed"], p["combat"]) == (sloop["speed"], sloop["combat"])
    assert p["loyalty"] >= 0 and board.merchant(S, slot) is None


def test_D_2_7_dr_card_not_before_a_loots_cargo_nor_an_attack_port_roll() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me_(S))
    p["cunning"] = 0
    (dr,) = hand(S, b, "dr")
    slot = add_merchant(S, p["area"], size=2)
    board.merchant(S, slot).update(face_up=True, found_by=p["id"])
    actions(S, 2)
    act(S, me_(S), {"type": "loot", "pirate": p["id"], "slot": slot}, rng)
    assert {"type": "play_event", "card": dr} not in GAME.legal_actions(S, b)
    rng.push(3, 1)  # cargo, no hostage
    pass_window(S, rng)
    answer(S, rng, "convert", {"type": "convert", "yes": True})
    # past the cargo step he has looted: the card may force D&R (the booty stays)
    assert top(S)["trigger"] == "convert"
    assert {"type": "play_event", "card": dr} in GAME.legal_actions(S, b)
    pass_window(S, rng)
    act(S, me_(S), {"type": "attack_port", "pirate": p["id"], "port": PORT_ROYAL}, rng)
    assert {"type": "play_event", "card": dr} not in GAME.legal_actions(S, b)


def test_D_2_4_G_no_attack_on_a_port_with_an_anti_pirate_governor() -> None:
    """Module G: no pirate may enter the port, and a won attack enters it."""
    S, _rng = table(3, governors_module=True)
    S["governors"][PORT_ROYAL] = "anti"
    actions(S, 1)
    legal = GAME.legal_actions(S, me_(S))
    assert not any(a["type"] == "attack_port" and a["port"] == PORT_ROYAL for a in legal)
    assert any(a["type"] == "attack_port" and a["port"] != PORT_ROYAL for a in legal)


def test_D_2_4_no_attack_port_on_a_pirate_port() -> None:
    """Kept from before (a difference from BB-S, whose Attack Port names no exception)."""
    S, _rng = table(3)
    actions(S, 1)
    ports = {a["port"] for a in GAME.legal_actions(S, me_(S)) if a["type"] == "attack_port"}
    assert ports and not any(PORTS[i]["nationality"] == "PIR" for i in ports)


def test_D_2_1_heavy_guns_add_to_totals_not_to_the_combat_track() -> None:
    S, rng = table(3)
    p = pirate(S, me_(S))
    p["cunning"] = 0
    (hg,) = hand(S, me_(S), "heavy_guns")
    combat = p["combat"]
    act(S, me_(S), {"type": "play_event", "card": hg, "pirate": p["id"]}, rng)
    assert p["combat"] == combat and p["heavy_guns"] == [hg]
    actions(S, 1)
    act(S, me_(S), {"type": "attack_port", "pirate": p["id"], "port": PORT_ROYAL}, rng)
    rng.push(3, 3, 2, 2)
    ev = pass_window(S, rng)
    (res,) = [e for e in ev if e["type"] == "port_attack"]
    assert res["total"] == 4 + data.PIRATES[p["id"]]["ability"] + combat + 1


def test_D_2_2_setup_deploys_one_pirate_more_later() -> None:
    """A difference from BB-S (which allows more at set-up): one each at set-up; the
    rest from the reserve during any own main phase, up to the displays."""
    S = GAME.setup(4, None, random.Random(3))
    assert top(S)["kind"] == "setup"
    seat = top(S)["seat"]
    legal = GAME.legal_actions(S, seat)
    assert legal and all(a["type"] == "deploy" for a in legal)
    GAME.apply(S, seat, legal[0], random.Random(3))
    assert top(S)["kind"] != "setup" or top(S)["seat"] != seat
