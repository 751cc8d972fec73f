"""BB-S sections D.2.1-D.2.12 and the D.4 table options, one test per rule."""

from __future__ import annotations

import random

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.blackbeard import board, data
from lantable.plugins.blackbeard.data import CARDS, HOSTAGES, KCS, MERCHANTS, PIRATES, PORTS

from .conftest import (
    GAME,
    act,
    actions,
    add_kc,
    add_merchant,
    add_warship,
    answer,
    hand,
    kinds,
    me,
    others,
    pass_window,
    pirate,
    place,
    table,
    top,
)

PORT_ROYAL, TORTUGA, BOSTON, NASSAU, SURAT = 5, 6, 0, 3, 17


def _done(S, rng):
    """Answer every pending question with its last listed choice back to the main phase."""
    while S["stack"] and top(S)["kind"] != "main":
        seat = GAME.to_act(S)[0]
        GAME.apply(S, seat, GAME.legal_actions(S, seat)[-1], rng)


# -- D.2.1 components ---------------------------------------------------------------------


def test_D2_1_components_and_the_map() -> None:
    assert len(data.AREAS) == 9 and len(data.TRANSIT) == 3 and len(PORTS) == 18
    assert len(PIRATES) == 10 and len(MERCHANTS) == 24 and len(HOSTAGES) == 15
    assert len(data.WARSHIPS) == 15 and len(KCS) == 9
    assert sorted(m["cargo"] for m in MERCHANTS).count(4) == 2
    assert [PORTS[i]["name"] for i in data.PIRATE_PORTS] == [
        "Nassau", "Tortuga", "St. Mary's (Madagascar)"]
    # a Transit Box links two Sea Areas, two moves apart, and is adjacent to nothing
    assert "T-ATL" in data.neighbours("CARIB") and "GOLD" in data.neighbours("T-ATL")
    assert "GOLD" not in data.neighbours("CARIB")
    assert data.reachable("CARIB", 2).count("GOLD") == 1


def test_D2_1_every_data_block_says_where_it_comes_from() -> None:
    for name, block in data.RAW.items():
        if not name.startswith("_"):
            assert block["src"] in data.SOURCES, name
    assert data.RAW["cargo_table"]["src"] == "published"
    assert data.RAW["kcs"]["src"] == "proposed"
    assert {c["src"] for c in data.CARD_TYPES.values()} == {"published", "proposed"}


def test_C6_1_cargo_table_is_the_published_one() -> None:
    rows = data.CARGO["rows"]
    assert rows[0] == [0, 100, 50, 500] and rows[9] == [1000, 3000, 1500, 7500]
    assert data.CARGO["loyalty"] == [-1, -1, -1, 0, 0, 0, 0, 1, 1, 1]


def test_C6_4_storm_table_is_the_published_one() -> None:
    assert [data.STORM[str(r)] for r in range(1, 8)] == [1, 1, 2, 2, 2, 3, "sunk"]


# -- D.2.2 set-up ------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "each"), [(2, 4), (3, 3), (4, 2), (5, 2)])
def test_D2_2_setup(seats: int, each: int) -> None:
    S = GAME.setup(seats, None, random.Random(seats))
    assert all(len(h) == 4 for h in S["hands"])
    assert not any(board.kind(c) == "mpi" for h in S["hands"] for c in h)
    assert len(S["merchants"]) == 6 and not any(m["face_up"] for m in S["merchants"])
    assert all(m["area"] in data.AREAS for m in S["merchants"])
    assert sum(g == "pro" for g in S["governors"]) == 8
    assert not any(S["governors"][i] for i in data.PIRATE_PORTS)
    for s in range(seats):
        assert sum(p["owner"] == s and p["status"] == "reserve" for p in S["pirates"]) == each
    assert sorted(S["turn_order"]) == list(range(seats))
    assert top(S) == {"kind": "setup", "seat": S["turn_order"][0]}
    first = [a for a in GAME.legal_actions(S, S["turn_order"][0])]
    assert {a["area"] for a in first} == set(data.AREAS)
    assert GAME.legal_actions(S, S["turn_order"][0])[0]["type"] == "deploy"


def test_D2_2_long_game_keeps_the_pardons_for_the_second_pass() -> None:
    S = GAME.setup(3, {"game_length": "long"}, random.Random(0))
    pardons = [c for c, t in enumerate(CARDS) if t == "general_pardon"]
    assert sorted(S["held_pardons"]) == pardons and not set(pardons) & set(S["deck"])


# -- D.2.3 the Player-Turn -----------------------------------------------------------------


def test_D2_3_draw_to_four_and_refill_merchants() -> None:
    S, rng = table(3)
    seat = me(S)
    S["hands"][(seat + 1) % 3] = S["hands"][(seat + 1) % 3][:1]
    while len(S["merchants"]) > 4:
        board.remove_merchant(S, [], S["merchants"][0]["slot"])
    act(S, seat, {"type": "end_turn"}, rng)
    _done(S, rng)
    nxt = me(S)
    assert len(S["hands"][nxt]) == 4 or S["over"]
    assert len(S["merchants"]) >= 6


def test_D2_3_upkeep_scurvy_and_mutiny_check() -> None:
    S, rng = table(3)
    seat = me(S)
    nxt = others(S)[0]
    q = pirate(S, nxt)
    q["scurvy"], q["loyalty"] = True, 3
    rng.push(*([1] * 0))
    ev = act(S, seat, {"type": "end_turn"}, rng, 1, 1)  # mutiny 2 vs 2 + 5: nothing
    assert q["loyalty"] == 2
    assert any(e["type"] == "roll" and e["why"] == "mutiny" for e in ev)


def test_D2_3_deploy_reserve_pirates_up_to_the_displays() -> None:
    S, rng = table(4)  # 2 pirates each
    seat = me(S)
    reserve = board.reserve(S, seat)
    assert len(reserve) == 1
    act(S, seat, {"type": "deploy", "pirate": reserve[0], "area": "INDIA"}, rng)
    assert not any(a["type"] == "deploy" for a in GAME.legal_actions(S, seat))


# -- D.2.4 pirate actions --------------------------------------------------------------------


def test_D2_4_move_costs_two_below_speed_zero() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    p["speed"] = -1
    actions(S, 1)
    assert not any(a["type"] == "move" for a in GAME.legal_actions(S, me(S)))
    actions(S, 2)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    assert S["this_turn"]["actions_left"] == 0


def test_D2_4_move_through_a_transit_box_and_into_ports() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    actions(S, 4)
    legal = [a for a in GAME.legal_actions(S, me(S)) if a["type"] == "move"]
    assert {"type": "move", "pirate": p["id"], "to": "T-ATL"} in legal
    assert {"type": "move", "pirate": p["id"], "to": "CARIB", "port": TORTUGA} in legal
    for to in ("T-ATL", "GOLD"):
        act(S, me(S), {"type": "move", "pirate": p["id"], "to": to}, rng)
        pass_window(S, rng)
    assert p["area"] == "GOLD"


@pytest.mark.parametrize(("face", "found"), [(4, False), (6, True)])
def test_D2_4_find_merchant_on_seven(face: int, found: bool) -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    p["cunning"] = 0
    slot = add_merchant(S, p["area"])
    actions(S, 1)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    rng.push(7 - PIRATES[p["id"]]["ability"] - (0 if found else 1))
    pass_window(S, rng)
    m = board.merchant(S, slot)
    assert m["face_up"] is found and (m["found_by"] == p["id"]) is found


def test_D2_4_loot_uses_the_cargo_table_of_the_area() -> None:
    S, rng = table(3, area="INDIA")
    p = pirate(S, me(S))
    p["cunning"] = 0
    slot = add_merchant(S, "INDIA", size=1, cargo=2)
    board.merchant(S, slot).update(face_up=True, found_by=p["id"])
    actions(S, 1)
    act(S, me(S), {"type": "loot", "pirate": p["id"], "slot": slot}, rng)
    rng.push(6, 1)  # 6 + 2 = row 8 (**), India: 3000; no hostage
    ev = pass_window(S, rng)
    ev += answer(S, rng, "convert", {"type": "convert", "yes": False})  # same size: offered
    assert p["holds"] == [3000] and p["notoriety"] == 2
    assert any(e["type"] == "loyalty" and e["why"] == "cargo_double_star" for e in ev)
    assert board.merchant(S, slot) is None and p["may_declare_dr"]


def test_D2_4_loot_declining_the_cargo_costs_loyalty() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    p["cunning"] = 0
    slot = add_merchant(S, p["area"], size=1, cargo=0)
    board.merchant(S, slot).update(face_up=True, found_by=p["id"])
    actions(S, 1)
    act(S, me(S), {"type": "loot", "pirate": p["id"], "slot": slot, "take": False}, rng)
    rng.push(4, 1)
    ev = pass_window(S, rng)
    assert p["holds"] == [] and any(e.get("why") == "decline_cargo" for e in ev)


def test_D2_4_attack_and_sack_a_port() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    p["cunning"] = 0
    actions(S, 2)
    act(S, me(S), {"type": "attack_port", "pirate": p["id"], "port": PORT_ROYAL}, rng)
    rng.push(1, 1, 6, 6)
    pass_window(S, rng)
    value = PORTS[PORT_ROYAL]["value"]
    assert p["port"] == PORT_ROYAL and p["notoriety"] == 2 * value and p["holds"] == [900]
    act(S, me(S), {"type": "sack", "pirate": p["id"]}, rng)
    rng.push(6)
    pass_window(S, rng)
    assert (
        p["notoriety"] == 4 * value and p["holds"] == [900, 1500] and p["sack_opportunity"] is None
    )


def test_D2_4_a_failed_port_attack_costs_one_combat() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    p["cunning"] = 0
    actions(S, 1)
    act(S, me(S), {"type": "attack_port", "pirate": p["id"], "port": PORT_ROYAL}, rng)
    rng.push(6, 6, 1, 1)
    pass_window(S, rng)
    assert p["port"] is None and p["combat"] == data.SHIPS[0]["combat"] - 1


def test_D2_4_no_attack_on_pirate_ports() -> None:
    S, rng = table(3)
    actions(S, 1)
    assert not any(a["type"] == "attack_port" and a["port"] == TORTUGA
                   for a in GAME.legal_actions(S, me(S)))


@pytest.mark.parametrize(("port", "rate"), [(TORTUGA, 100), (BOSTON, 50)])
def test_D2_4_convert_booty_full_in_pirate_ports_half_elsewhere(port: int, rate: int) -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    place(p, PORTS[port]["area"], port)
    S["governors"][port] = None
    p["holds"] = [1000, 200]
    actions(S, 1)
    act(S, me(S), {"type": "convert_booty", "pirate": p["id"]}, rng)
    pass_window(S, rng)
    assert p["net_worth"] == 1200 * rate // 100 and p["holds"] == []


def test_D2_4_pro_pirate_governor_converts_in_full() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    place(p, "NATL", BOSTON)
    S["governors"][BOSTON] = "pro"
    p["holds"] = [1000]
    actions(S, 1)
    act(S, me(S), {"type": "convert_booty", "pirate": p["id"]}, rng)
    pass_window(S, rng)
    assert p["net_worth"] == 1000


def test_D2_4_ransom_refit_recover_and_safe_haven() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    place(p, "NATL", BOSTON)
    p["hostages"] = [S["hostage_pool"].pop(0)]
    value = HOSTAGES[p["hostages"][0]]["value"]
    p["combat"], p["speed"], p["scurvy"] = 0, 0, True
    actions(S, 3)
    for a in ("ransom", "refit", "recover"):
        act(S, me(S), {"type": a, "pirate": p["id"]}, rng)
        pass_window(S, rng)
    assert p["net_worth"] == value * 200 and p["hostages"] == [] and not p["scurvy"]
    assert (p["speed"], p["combat"]) == (1, 1)  # one of each outside a Pirate Port
    place(p, "CARIB", TORTUGA)
    p["net_worth"] = 1500
    actions(S, 2)
    for a in ("refit", "buy_haven"):
        act(S, me(S), {"type": a, "pirate": p["id"]}, rng)
        pass_window(S, rng)
    assert (
        (p["speed"], p["combat"]) == (2, 2) and p["net_worth"] == 500 and p["safe_haven"] == TORTUGA
    )
    actions(S, 1)
    assert {"type": "retire_haven", "pirate": p["id"]} not in GAME.legal_actions(S, me(S))
    S["player_turns"] += 1  # a later Player-Turn
    act(S, me(S), {"type": "retire_haven", "pirate": p["id"]}, rng)
    pass_window(S, rng)
    assert p["status"] == "retired" and p["net_worth"] == 500


# -- D.2.5 AP actions ----------------------------------------------------------------------


@pytest.mark.parametrize(("faces", "ok"), [((3, 3), True), ((4, 3), False)])
def test_D2_5_commission_kc_on_2d6_at_most_notoriety(faces: tuple[int, int], ok: bool) -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["notoriety"] = 6
    slot = add_merchant(S, p["area"])
    actions(S, 1)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "commission_kc", "area": "SATL"}, rng, *faces)
    assert bool(S["commissioners"]) is ok and S["this_turn"]["ap_action_used"][b]
    if ok:
        assert S["commissioners"][0] == {
            "id": S["commissioners"][0]["id"],
            "owner": b,
            "area": "SATL",
        }


def test_D2_5_no_commission_at_low_notoriety_and_two_kcs_at_most() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    assert not any(a["type"] == "commission_kc" for a in GAME.legal_actions(S, b))
    p["notoriety"] = 10
    add_kc(S, b, "INDIA")
    add_kc(S, b, "INDIA")
    assert not any(a["type"] == "commission_kc" for a in GAME.legal_actions(S, b))


def test_D2_5_one_ap_action_per_player_turn() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    s1, s2 = add_merchant(S, p["area"]), add_merchant(S, p["area"])
    actions(S, 2)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": s1}, rng)
    act(S, b, {"type": "place_warship", "attack": False}, rng)
    rng.push(1)
    pass_window(S, rng)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": s2}, rng)
    assert GAME.to_act(S) != [b]
    with pytest.raises(IllegalAction):
        act(S, b, {"type": "place_warship", "attack": True}, rng)


def test_D2_5_kc_move_and_attack_on_a_pirate_port() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    place(p, "CARIB", TORTUGA)
    p["combat"] = 0
    kid = add_kc(S, b, "CARIB")
    actions(S, 1)
    act(S, me(S), {"type": "refit", "pirate": p["id"]}, rng)
    assert {"type": "kc_attack_port", "kc": kid} in GAME.legal_actions(S, b)
    ev = act(S, b, {"type": "kc_attack_port", "kc": kid}, rng, 6, 6)
    assert any(e["type"] == "ousted" for e in ev) and p["port"] is None
    assert S["this_turn"]["kc_ap_action_used"]


def test_D2_5_failed_oust_gives_one_notoriety() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    place(p, "CARIB", PORT_ROYAL)
    p["combat"] = 0
    kid = add_kc(S, b, "CARIB")
    actions(S, 1)
    act(S, me(S), {"type": "refit", "pirate": p["id"]}, rng)
    act(S, b, {"type": "kc_oust", "kc": kid}, rng, 1, 1, 6, 6)
    assert p["port"] == PORT_ROYAL and p["notoriety"] == 1


# -- D.2.6 KC Reaction ------------------------------------------------------------------------


@pytest.mark.parametrize(("area", "faces", "caught"), [
    ("SATL", (3, 3), True),  # same area: 3 + speed vs 3 + 2
    ("CAM", (3, 3), False),  # adjacent: -1
])
def test_D2_6_interception_roll(area: str, faces: tuple[int, int], caught: bool) -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    kid = add_kc(S, b, area, speed=2)
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "react", "kc": kid}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "escape"}, *faces)
    assert ("found" in kinds(ev)) is caught and ("escaped" in kinds(ev)) is not caught


# -- D.2.7 D&R --------------------------------------------------------------------------------


def test_D2_7_dr_sits_out_this_turn_and_the_next() -> None:
    S, rng = table(2)
    seat = me(S)
    p = pirate(S, seat)
    place(p, "CARIB", TORTUGA)
    act(S, seat, {"type": "declare_dr", "pirate": p["id"]}, rng)
    actions(S, 2)
    assert not any(a.get("pirate") == p["id"] for a in GAME.legal_actions(S, seat)
                   if a["type"] not in ("play_actions", "play_event", "play_ae", "deploy"))
    act(S, seat, {"type": "end_turn"}, rng)
    _done(S, rng)
    act(S, me(S), {"type": "end_turn"}, rng)
    _done(S, rng)
    assert me(S) == seat and p["dr_turn"] is not None  # still out this whole turn
    ev = act(S, seat, {"type": "end_turn"}, rng)
    assert "dr_over" in kinds(ev) and p["dr_turn"] is None


def test_D2_7_a_drunk_crew_must_fight() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    place(p, "NATL", BOSTON)
    p["combat"] = 0
    (dr,) = hand(S, b, "dr")
    actions(S, 1)
    act(S, me(S), {"type": "refit", "pirate": p["id"]}, rng)
    ev = act(S, b, {"type": "play_event", "card": dr}, rng)  # forced D&R in port
    assert p["dr_turn"] is not None and "action_cancelled" in kinds(ev)
    place(p, "NATL")
    ws = add_warship(S, "NATL")
    S["stack"].append({"kind": "fight", "attacker": "ws", "attacker_id": ws, "ap_seat": b,
                       "adjacent": False,
                       "pirate": p["id"], "step": "ask"})
    from lantable.plugins.blackbeard import flow
    ev = []
    flow.advance(S, rng, ev)
    assert "must_fight" in kinds(ev) and not any(f["kind"] == "fight_or_escape" for f in S["stack"])


# -- D.2.8 escape consequences -------------------------------------------------------------


def test_D2_8_a_won_battle_lets_the_action_go_on() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    slot = add_merchant(S, p["area"])
    ws = add_warship(S, p["area"])
    actions(S, 1)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "warship_attack", "ws": ws}, rng)
    answer(S, rng, "fight_or_escape", {"type": "fight"}, 1, 1, 6, 6)
    rng.push(6)
    pass_window(S, rng)
    assert board.merchant(S, slot)["found_by"] == p["id"]


def test_D2_8_a_lost_battle_cancels_it() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"], p["combat"] = 0, 9
    slot = add_merchant(S, p["area"])
    ws = add_warship(S, p["area"])
    actions(S, 1)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "warship_attack", "ws": ws}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "fight"}, 6, 6, 1, 1)
    assert "action_cancelled" in kinds(ev) and board.merchant(S, slot) is None
    assert p["status"] == "map"


# -- D.2.9 battles ---------------------------------------------------------------------------


def test_D2_9_a_kc_that_wins_hangs_the_pirate() -> None:
    S, rng = table(3)
    b, _ = others(S)
    seat = me(S)
    p = pirate(S, seat)
    p["cunning"], p["notoriety"] = 0, 7
    kid = add_kc(S, b, "SATL")
    actions(S, 1)
    act(S, seat, {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "react", "kc": kid}, rng)
    answer(S, rng, "fight_or_escape", {"type": "fight"}, 6, 6, 1, 1)
    assert p["status"] == "dead" and S["ap_vp"][b] == 4
    assert GAME.scores(S)["scores"][seat] >= 7 + 2


def test_D2_9_battle_ties_are_rerolled() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    slot = add_merchant(S, p["area"])
    ws = add_warship(S, p["area"])
    wc = data.WARSHIPS[S["warships"][0]["id"]]["combat"]
    p["combat"] = wc  # pirate total = dice + wc + ability; warship = dice + wc
    ability = PIRATES[p["id"]]["ability"]
    actions(S, 1)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "warship_attack", "ws": ws}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "fight"}, 3, 3, 1, 5 - ability, 1, 1, 6, 6)
    assert "battle_tie" in kinds(ev) and any(e["type"] == "battle" for e in ev)


# -- D.2.10 crew loyalty, mutiny, scurvy ---------------------------------------------------


def test_D2_10_mutiny_new_captain_and_loyalty_reset() -> None:
    S, rng = table(3)
    seat = me(S)
    p = pirate(S, seat)
    p["loyalty"], p["holds"], p["notoriety"] = 1, [700], 5
    b, _ = others(S)
    (mc,) = hand(S, b, "mutiny_conspiracy")
    actions(S, 1)
    act(S, seat, {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "play_event", "card": mc}, rng, 6, 6)  # 12 > 1 + 5
    assert top(S)["kind"] == "new_captain"
    new = board.reserve(S, seat)[0]
    answer(S, rng, "new_captain", {"type": "captain", "pirate": new})
    q = S["pirates"][new]
    assert (
        p["status"] == "dead" and q["status"] == "map" and q["holds"] == [700] and q["loyalty"] == 6
    )
    assert q["area"] == "SATL" and GAME.scores(S)["scores"][seat] >= 5


def test_D2_10_mutiny_same_as_costs_one_loyalty() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    p["loyalty"] = 2
    b, _ = others(S)
    (mc,) = hand(S, b, "mutiny_conspiracy")
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    ev = act(S, b, {"type": "play_event", "card": mc}, rng, 3, 4)
    assert "mutiny_failed" in kinds(ev) and p["loyalty"] == 1


def test_D2_10_speed_below_zero_costs_loyalty_each_time() -> None:
    S, _ = table(3)
    p = pirate(S, me(S))
    p["speed"], p["loyalty"] = 0, 6
    board.speed_hits(S, [], p, 2)
    assert p["speed"] == -2 and p["loyalty"] == 5


# -- D.2.11 the duel ------------------------------------------------------------------------


@pytest.mark.parametrize("wins", [True, False])
def test_D2_11_piratical_ambition(wins: bool) -> None:
    S, rng = table(2, seed=3)
    seat, foe = me(S), others(S)[0]
    r = board.reserve(S, seat)[0]
    S["pirates"][r]["cunning"] = 0
    target = pirate(S, foe)
    target["cunning"], target["holds"], target["notoriety"] = 0, [500], 4
    (pa,) = hand(S, seat, "piratical_ambition")
    n_me, n_foe = PIRATES[r]["duel"], PIRATES[target["id"]]["duel"]
    faces = [6] * n_me + [1] * n_foe if wins else [1] * n_me + [6] * n_foe
    act(S, seat, {"type": "play_event", "card": pa, "pirate": r, "target": target["id"]},
        rng, *faces)
    me_p = S["pirates"][r]
    if wins:
        assert target["status"] == "dead" and me_p["status"] == "map" and me_p["holds"] == [500]
        assert me_p["notoriety"] == n_me + n_foe and me_p["owner"] == seat
    else:
        assert (
            me_p["status"] == "dead"
            and me_p["notoriety"] == 0
            and target["notoriety"] == 4 + n_me + n_foe
        )


# -- D.2.12 retirement, scoring, end ---------------------------------------------------------


def test_D2_12_general_pardon_second_play_and_third_ends() -> None:
    S, rng = table(3)
    seat = me(S)
    p = pirate(S, seat)
    place(p, "NATL", BOSTON)
    p["net_worth"], p["notoriety"] = 1234, 3
    gp = [c for c in S["deck"] if CARDS[c] == "general_pardon"]
    S["general_pardons"] = 1
    S["deck"] = [gp[0]]
    S["hands"][others(S)[0]] = S["hands"][others(S)[0]][:3]
    act(S, seat, {"type": "end_turn"}, rng)
    assert top(S)["kind"] == "pardon" and GAME.to_act(S) == [seat]
    act(S, seat, {"type": "retire", "pirate": p["id"]}, rng)
    assert p["status"] == "retired"
    assert GAME.scores(S)["scores"][seat] == 3 + 12 + S["ap_vp"][seat]
    S["general_pardons"] = 2
    S["deck"] = [c for c in S["discards"] if CARDS[c] == "general_pardon"][:1]
    S["discards"] = [c for c in S["discards"] if c not in S["deck"]]
    while not S["over"]:
        s = GAME.to_act(S)[0]
        GAME.apply(S, s, {"type": "end_turn"} if top(S)["kind"] == "main"
                   else GAME.legal_actions(S, s)[-1], rng)
    assert S["end_reason"] == "third_general_pardon"


def test_D2_12_bribe() -> None:
    for faces, retired in (((3, 4), True), ((4, 4), False)):
        S, rng = table(3)
        p = pirate(S, me(S))
        p["cunning"] = 0
        place(p, "NATL", BOSTON)
        p["net_worth"], p["loyalty"] = 800, 6
        actions(S, 1)
        act(S, me(S), {"type": "bribe", "pirate": p["id"]}, rng)
        rng.push(*faces)
        pass_window(S, rng)
        assert p["net_worth"] == 300 and (p["status"] == "retired") is retired
        assert p["loyalty"] == (6 if retired else 5)


def test_D2_12_scoring_and_tie_break() -> None:
    S, _ = table(3)
    a, b, c = S["turn_order"]
    for p in S["pirates"]:
        p.update(notoriety=0, net_worth=0, bonus_vp=0)
    pa, pb, pc = pirate(S, a), pirate(S, b), pirate(S, c)
    pa.update(status="retired", notoriety=2, net_worth=1050)  # 2 + 10
    pb.update(notoriety=12, net_worth=5000)  # at sea: only notoriety counts
    pc.update(status="dead", notoriety=3)
    S["ap_vp"] = [0, 0, 0]
    S["ap_vp"][c] = 9
    sc = GAME.scores(S)
    assert [sc["scores"][s] for s in (a, b, c)] == [12, 12, 12]
    assert sc["rank"][a] == 1 and sc["rank"][b] == 2 and sc["rank"][c] == 2


def test_D2_12_max_turns_ends_a_game_nobody_plays() -> None:
    S, rng = table(2, max_turns=3)
    while not S["over"]:
        s = GAME.to_act(S)[0]
        GAME.apply(S, s, {"type": "end_turn"} if top(S)["kind"] == "main"
                   else GAME.legal_actions(S, s)[-1], rng)
    assert S["end_reason"] in ("max_turns", "third_general_pardon") and S["player_turns"] <= 3


# -- D.4 options not covered by the errata tests ------------------------------------------------


@pytest.mark.parametrize(("tie", "found"), [("pirate", False), ("warship", True)])
def test_Q5_search_tie(tie: str, found: bool) -> None:
    S, rng = table(3, search_tie=tie)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    slot = add_merchant(S, p["area"])
    ws = add_warship(S, p["area"])
    speed = data.WARSHIPS[S["warships"][0]["id"]]["speed"]
    actions(S, 1)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "warship_attack", "ws": ws}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "escape"}, 4, 4 + speed - p["speed"])
    assert ("found" in kinds(ev)) is found


@pytest.mark.parametrize(("tie", "caught"), [("kc", True), ("pirate", False)])
def test_Q7_intercept_tie(tie: str, caught: bool) -> None:
    S, rng = table(3, intercept_tie=tie)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    kid = add_kc(S, b, "SATL", speed=2)
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "react", "kc": kid}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "escape"}, 4, 4)
    assert ("found" in kinds(ev)) is caught


def test_Q4_warship_triggers() -> None:
    S, rng = table(3, warship_triggers="loot,attack_port")
    b, _ = others(S)
    p = pirate(S, me(S))
    slot = add_merchant(S, p["area"])
    actions(S, 1)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    assert not any(a["type"] == "place_warship" for a in GAME.legal_actions(S, b))


def test_Q6_kc_reaction_triggers() -> None:
    S, rng = table(3, kc_reaction_triggers="find,loot,convert,attack_port")
    b, _ = others(S)
    p = pirate(S, me(S))
    add_kc(S, b, "SATL")
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    assert not any(a["type"] == "react" for a in GAME.legal_actions(S, b))


@pytest.mark.parametrize(("flag", "gain"), [(True, 1), (False, 0)])
def test_Q10_forced_dr_gains_loyalty(flag: bool, gain: int) -> None:
    S, rng = table(3, forced_dr_gains_loyalty=flag)
    b, _ = others(S)
    p = pirate(S, me(S))
    place(p, "NATL", BOSTON)
    p["combat"], p["loyalty"] = 0, 5
    (dr,) = hand(S, b, "dr")
    actions(S, 1)
    act(S, me(S), {"type": "refit", "pirate": p["id"]}, rng)
    act(S, b, {"type": "play_event", "card": dr}, rng)
    assert p["loyalty"] == 5 + gain and p["dr_turn"] is not None


def test_Q11_dr_after_a_loot_bonus_option() -> None:
    S, rng = table(3, dr_other_bonus=2)
    p = pirate(S, me(S))
    p["may_declare_dr"], p["loyalty"] = True, 5
    act(S, me(S), {"type": "declare_dr", "pirate": p["id"]}, rng)
    assert p["loyalty"] == 7


def test_Q12_dr_can_escape_option() -> None:
    S, rng = table(3, dr_can_escape=True)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["dr_turn"] = S["player_turns"]
    ws = add_warship(S, p["area"])
    S["stack"].append({"kind": "fight", "attacker": "ws", "attacker_id": ws, "ap_seat": b,
                       "adjacent": False,
                       "pirate": p["id"], "step": "ask"})
    from lantable.plugins.blackbeard import flow
    flow.advance(S, rng, [])
    assert top(S)["kind"] == "fight_or_escape"


@pytest.mark.parametrize(("rule", "face", "info"), [("le_cruelty", 1, True),
                                                   ("gt_cruelty", 1, False)])
def test_Q14_torture_rule(rule: str, face: int, info: bool) -> None:
    S, rng = table(3, torture_rule=rule)
    p = pirate(S, me(S))
    p["cunning"] = 0
    slot = add_merchant(S, p["area"], size=1)
    board.merchant(S, slot).update(face_up=True, found_by=p["id"])
    actions(S, 1)
    act(S, me(S), {"type": "loot", "pirate": p["id"], "slot": slot}, rng)
    rng.push(3, 6)
    pass_window(S, rng)
    h = top(S)["hostage"]
    answer(S, rng, "hostage", {"type": "torture"}, face)
    assert (p["information"] == HOSTAGES[h]["info"]) is info and h in S["dead_hostages"]
    assert p["notoriety"] >= HOSTAGES[h]["value"]


def test_Q15_a_won_battle_cancels_with_the_option_off() -> None:
    S, rng = table(3, battle_won_resumes=False)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    slot = add_merchant(S, p["area"])
    ws = add_warship(S, p["area"])
    actions(S, 1)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "warship_attack", "ws": ws}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "fight"}, 1, 1, 6, 6)
    assert "action_cancelled" in kinds(ev)


@pytest.mark.parametrize(("flag", "offered"), [(True, True), (False, False)])
def test_Q16_cunning_on_storm(flag: bool, offered: bool) -> None:
    S, rng = table(3, cunning_on_storm=flag)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 1
    (storm,) = hand(S, b, "storm")
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "play_event", "card": storm}, rng, 1)
    assert (top(S)["kind"] == "cunning") is offered


def test_Q1_phase6_mode_none_keeps_every_card() -> None:
    S, rng = table(3, phase6_mode="none")
    seat = me(S)
    hand(S, seat, "storm", "storm", "sail_ho", "fair_winds", "bold_captain")
    act(S, seat, {"type": "end_turn"}, rng)
    assert len(S["hands"][seat]) == 5


def test_G_anti_pirate_governors_module() -> None:
    S, rng = table(3, governors_module=True)
    b, _ = others(S)
    p = pirate(S, me(S))
    S["governors"][PORT_ROYAL] = None
    actions(S, 2)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    assert {"type": "appoint_governor", "port": PORT_ROYAL} in GAME.legal_actions(S, b)
    assert not any(a["type"] == "appoint_governor" and a["port"] == TORTUGA
                   for a in GAME.legal_actions(S, b))
    ev = act(S, b, {"type": "appoint_governor", "port": PORT_ROYAL}, rng)
    assert (
        S["governors"][PORT_ROYAL] == "anti"
        and S["this_turn"]["ap_action_used"][b]
        and "governor" in kinds(ev)
    )
    pass_window(S, rng)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "CARIB"}, rng)
    pass_window(S, rng)
    actions(S, 1)
    legal = GAME.legal_actions(S, me(S))
    assert {"type": "move", "pirate": p["id"], "to": "CARIB", "port": PORT_ROYAL} not in legal
    assert {"type": "move", "pirate": p["id"], "to": "CARIB", "port": TORTUGA} in legal
    place(p, "CARIB", PORT_ROYAL)  # already inside: no bribe under his nose
    p["net_worth"] = 900
    assert {"type": "bribe", "pirate": p["id"]} not in GAME.legal_actions(S, me(S))


def test_G_module_off_by_default() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    assert not any(a["type"] == "appoint_governor" for a in GAME.legal_actions(S, b))
