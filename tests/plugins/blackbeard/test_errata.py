"""The errata A1-A29 (GMT 2008 Clarifications and Changes), one test each at least,
named after the D.3 coverage matrix of the rules digest."""

from __future__ import annotations

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.blackbeard import data
from lantable.plugins.blackbeard.data import CARDS, KCS, PIRATES, WARSHIPS

from .conftest import (
    GAME,
    act,
    actions,
    add_kc,
    add_merchant,
    add_warship,
    answer,
    conserved,
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

PORT_ROYAL, TORTUGA, BOSTON, NASSAU = 5, 6, 0, 3


def _find(S, rng, p, slot, *faces):
    """Declare a Find with ``p``; every AP player passes; roll ``faces``."""
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    return pass_window(S, rng) if not faces else (rng.push(*faces), pass_window(S, rng))[1]


def _loot_to_convert(S, rng, p, size):
    """Find and loot a merchant of ``size`` up to the convert question (answered yes);
    with a merchant of the pirate's own size there is no question and the loot ends."""
    slot = add_merchant(S, p["area"], size=size)
    p["cunning"] = 0
    actions(S, 3)
    _find(S, rng, p, slot, 6)
    assert any(m["found_by"] == p["id"] for m in S["merchants"])
    act(S, me(S), {"type": "loot", "pirate": p["id"], "slot": slot}, rng)
    rng.push(6, 5)  # cargo roll, hostage roll (5: a hostage is taken)
    pass_window(S, rng)
    answer(S, rng, "hostage", {"type": "ransom"})
    if size != p["ship"] + 1:
        answer(S, rng, "convert", {"type": "convert", "yes": True})
    return slot


# -- Miscellaneous ---------------------------------------------------------------------


def test_A1_pirate_cards_are_not_in_the_hand() -> None:
    S, rng = table(3)
    seat = me(S)
    hand(S, seat, "storm", "storm", "sail_ho", "fair_winds")
    reserves = [p for p in S["pirates"] if p["owner"] == seat and p["status"] == "reserve"]
    assert len(reserves) == 2 and len(S["hands"][seat]) == 4
    ev = act(S, seat, {"type": "end_turn"}, rng)
    assert "discarded" not in kinds(ev)
    assert len(S["hands"][seat]) == 4
    assert all(p["status"] == "reserve" for p in reserves)


def test_A1_phase6_discards_only_event_cards_above_four() -> None:
    S, rng = table(3)
    seat = me(S)
    hand(S, seat, "storm", "storm", "sail_ho", "fair_winds", "bold_captain")
    act(S, seat, {"type": "end_turn"}, rng)
    assert top(S) == {"kind": "discard", "seat": seat}
    legal = GAME.legal_actions(S, seat)
    assert all(CARDS[a["card"]] != "pirate" for a in legal) and len(legal) == 5
    act(S, seat, legal[0], rng)
    assert len(S["hands"][seat]) == 4
    assert sum(p["status"] == "reserve" for p in S["pirates"] if p["owner"] == seat) == 2


def test_A2_one_action_card_and_its_actions_first() -> None:
    S, rng = table(3)
    seat, p = me(S), pirate(S, me(S))
    fw, sh, _ = hand(S, seat, "fair_winds", "sail_ho", "storm")
    act(S, seat, {"type": "play_actions", "card": fw}, rng)
    assert S["this_turn"]["actions_left"] == 3
    act(S, seat, {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    pass_window(S, rng)
    assert S["this_turn"]["actions_left"] == 2
    with pytest.raises(IllegalAction, match="finish"):
        act(S, seat, {"type": "play_event", "card": sh, "pirate": p["id"]}, rng)
    with pytest.raises(IllegalAction):
        act(S, seat, {"type": "play_actions", "card": sh}, rng)
    act(S, seat, {"type": "end_actions"}, rng)  # Q2: forfeit the rest
    act(S, seat, {"type": "play_event", "card": sh, "pirate": p["id"]}, rng)
    assert p["sail_ho"] == 2
    storm = S["hands"][seat][0]
    with pytest.raises(IllegalAction, match="only one card"):
        act(S, seat, {"type": "play_actions", "card": storm}, rng)


def test_A2_without_forfeit_the_actions_must_be_spent() -> None:
    S, rng = table(3, allow_forfeit_actions=False)
    seat = me(S)
    fw, sh = hand(S, seat, "fair_winds", "sail_ho")
    act(S, seat, {"type": "play_actions", "card": fw}, rng)
    assert {"type": "end_actions"} not in GAME.legal_actions(S, seat)
    with pytest.raises(IllegalAction):
        act(S, seat, {"type": "end_actions"}, rng)


def test_A3_one_event_type_per_ap_player_and_no_type_twice() -> None:
    S, rng = table(3)
    b, c = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    hand(S, b, "scurvy_outbreak", "mutiny_conspiracy")
    c_scurvy, c_storm = hand(S, c, "scurvy_outbreak", "storm")
    slot = add_merchant(S, p["area"])
    actions(S, 2)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    assert GAME.to_act(S) == [b]
    b_scurvy = S["hands"][b][[CARDS[x] for x in S["hands"][b]].index("scurvy_outbreak")]
    act(S, b, {"type": "play_event", "card": b_scurvy}, rng)
    assert p["scurvy"] and GAME.to_act(S) == [c]
    assert {"type": "play_event", "card": c_scurvy} not in GAME.legal_actions(S, c)
    with pytest.raises(IllegalAction):
        act(S, c, {"type": "play_event", "card": c_scurvy}, rng)
    act(S, c, {"type": "play_event", "card": c_storm}, rng, 1)  # storm: 1 speed hit
    assert p["speed"] == 1
    rng.push(6)
    while S["stack"][-1]["kind"] != "main":
        GAME.apply(S, GAME.to_act(S)[0], GAME.legal_actions(S, GAME.to_act(S)[0])[-1], rng)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    mutiny = S["hands"][b][0]
    assert CARDS[mutiny] == "mutiny_conspiracy"
    with pytest.raises(IllegalAction):  # B's one AP action is spent
        act(S, b, {"type": "play_event", "card": mutiny}, rng)


def test_A3_copies_of_one_type_with_the_option() -> None:
    S, rng = table(3, ap_event_copies_per_type=2)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    s1, _s2 = hand(S, b, "storm", "storm")
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "play_event", "card": s1, "copies": 2}, rng, 1, 1)
    assert p["speed"] == 0 and S["hands"][b] == []
    S2, rng2 = table(3)
    b2 = others(S2)[0]
    t1, _ = hand(S2, b2, "storm", "storm")
    actions(S2, 1)
    act(S2, me(S2), {"type": "move", "pirate": pirate(S2, me(S2))["id"], "to": "SATL"}, rng2)
    with pytest.raises(IllegalAction):
        act(S2, b2, {"type": "play_event", "card": t1, "copies": 2}, rng2)


def test_A4_dr_card_before_the_sack_takes_it_away() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    (dr,) = hand(S, b, "dr")
    actions(S, 3)
    act(S, me(S), {"type": "attack_port", "pirate": p["id"], "port": PORT_ROYAL}, rng)
    rng.push(1, 1, 6, 6)  # port 2+6=8; pirate 12+ability+combat
    pass_window(S, rng)
    assert p["port"] == PORT_ROYAL and p["sack_opportunity"] == PORT_ROYAL
    assert {"type": "sack", "pirate": p["id"]} in GAME.legal_actions(S, me(S))
    act(S, me(S), {"type": "sack", "pirate": p["id"]}, rng)
    ev = act(S, b, {"type": "play_event", "card": dr}, rng)
    assert "sack_lost" in kinds(ev) and p["sack_opportunity"] is None and p["dr_turn"] is not None
    assert "sack" not in kinds(ev) or not any(e.get("success") for e in ev if e["type"] == "sack")
    pass_window(S, rng)
    assert {"type": "sack", "pirate": p["id"]} not in GAME.legal_actions(S, me(S))


def test_A5_cunning_on_1_2_and_3_dice_not_d66_not_4_dice_not_a_reroll() -> None:
    S, rng = table(3)
    seat, p = me(S), pirate(S, me(S))
    p["cunning"] = 2
    slot = add_merchant(S, p["area"])
    actions(S, 3)
    _find(S, rng, p, slot, 1)
    assert top(S)["kind"] == "cunning" and top(S)["dice_count"] == 1 and top(S)["seat"] == seat
    ev = answer(S, rng, "cunning", {"type": "reroll"}, 6)
    assert p["cunning"] == 1 and any(e.get("reroll") for e in ev)
    assert top(S)["kind"] == "main"  # the re-roll is final: no second offer
    # a 2d6 battle roll
    b = others(S)[0]
    add_warship(S, p["area"])
    slot = next(m["slot"] for m in S["merchants"] if m["found_by"] == p["id"])
    act(S, seat, {"type": "loot", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "warship_attack", "ws": S["warships"][0]["slot"]}, rng)
    answer(S, rng, "fight_or_escape", {"type": "fight"}, 3, 3)
    assert top(S)["kind"] == "cunning" and top(S)["dice_count"] == 2
    # D66 rolls never offer Cunning (merchant placement at set-up made several)
    S2, _ = table(3)
    assert not any(f["kind"] == "cunning" for f in S2["stack"])


@pytest.mark.parametrize(("challenger", "offered"), [(1, True), (0, False)])
def test_A5_cunning_in_duels_only_up_to_three_dice(challenger: int, offered: bool) -> None:
    S, rng = next(t for t in (table(2, seed) for seed in range(30))
                  if t[0]["pirates"][challenger]["status"] != "map")
    seat, foe = me(S), others(S)[0]
    for p in S["pirates"]:
        if p["id"] == challenger:
            p.update(owner=seat, status="reserve", cunning=2)
    target = pirate(S, foe)
    target["cunning"] = 0
    (pa,) = hand(S, seat, "piratical_ambition")
    act(S, seat, {"type": "play_event", "card": pa, "pirate": challenger,
                  "target": target["id"]}, rng)
    assert PIRATES[challenger]["duel"] == (3 if offered else 4)
    assert (top(S)["kind"] == "cunning") is offered


def test_A6_dr_loyalty_at_declaration() -> None:
    for port, gain in ((TORTUGA, 3), (BOSTON, 1)):
        S, rng = table(3)
        p = pirate(S, me(S))
        place(p, data.PORTS[port]["area"], port)
        p["loyalty"] = 5
        ev = act(S, me(S), {"type": "declare_dr", "pirate": p["id"]}, rng)
        assert p["loyalty"] == 5 + gain and "loyalty" in kinds(ev)
    S, rng = table(3)
    p = pirate(S, me(S))
    _loot_to_convert(S, rng, p, size=1)  # a sloop's size: Convert is still offered
    answer(S, rng, "convert", {"type": "convert", "yes": False})
    pass_window(S, rng)
    assert p["may_declare_dr"] and p["port"] is None and top(S)["kind"] == "main"
    p["loyalty"] = 5
    ev = act(S, me(S), {"type": "declare_dr", "pirate": p["id"]}, rng)
    assert p["loyalty"] == 6 and [e["delta"] for e in ev if e["type"] == "loyalty"] == [1]


def test_A7_action_and_event_card_split_between_kc_and_pirate() -> None:
    S, rng = table(3)
    seat, p = me(S), pirate(S, me(S))
    kid = add_kc(S, seat, "NATL")
    co, fw = hand(S, seat, "commission_orders", "fair_winds")
    act(S, seat, {"type": "play_ae", "card": co, "kc": kid, "to": "SATL"}, rng)
    assert next(k for k in S["commissioners"] if k["id"] == kid)["area"] == "SATL"
    assert S["this_turn"]["actions_left"] == 2 and S["this_turn"]["card_played"]
    act(S, seat, {"type": "move", "pirate": p["id"], "to": "CAM"}, rng)
    pass_window(S, rng)
    act(S, seat, {"type": "end_actions"}, rng)
    with pytest.raises(IllegalAction, match="only one card"):
        act(S, seat, {"type": "play_actions", "card": fw}, rng)


def test_A8_heavy_guns_never_return_even_in_the_long_game() -> None:
    S, rng = table(3, game_length="long")
    seat, p = me(S), pirate(S, me(S))
    (hg,) = hand(S, seat, "heavy_guns")
    act(S, seat, {"type": "play_event", "card": hg, "pirate": p["id"]}, rng)
    assert p["heavy_guns"] == [hg] and hg not in S["discards"]
    b = others(S)[0]
    (storm,) = hand(S, b, "storm")
    place(p, "T-ATL")
    p["cunning"] = 0
    actions(S, 1)
    act(S, seat, {"type": "move", "pirate": p["id"], "to": "CARIB"}, rng)
    place(p, "T-ATL")  # still in the box when the Storm hits
    act(S, b, {"type": "play_event", "card": storm}, rng, 6)  # 6 + 1 in a box = sunk
    assert p["status"] == "dead" and hg in S["removed"] and hg not in S["discards"]
    S["discards"] += S["deck"]
    S["deck"] = []
    from lantable.plugins.blackbeard import board
    board.draw_card(S, rng)
    assert S["deck_pass"] == 2 and hg not in S["deck"]


def test_A9_letter_of_marque_retires_and_never_returns() -> None:
    S, rng = table(3, game_length="long")
    seat, p = me(S), pirate(S, me(S))
    place(p, "CARIB", PORT_ROYAL)
    (lom,) = hand(S, seat, "letter_of_marque")
    act(S, seat, {"type": "play_event", "card": lom, "pirate": p["id"]}, rng)
    assert p["status"] == "retired" and lom in S["removed"]
    S["discards"] += S["deck"]
    S["deck"] = []
    from lantable.plugins.blackbeard import board
    board.draw_card(S, rng)
    assert lom not in S["deck"] and lom in S["removed"]


def test_A9_letter_of_marque_needs_a_non_pirate_port() -> None:
    S, rng = table(3)
    seat, p = me(S), pirate(S, me(S))
    place(p, "CARIB", TORTUGA)
    (lom,) = hand(S, seat, "letter_of_marque")
    with pytest.raises(IllegalAction):
        act(S, seat, {"type": "play_event", "card": lom, "pirate": p["id"]}, rng)


# -- Warships ---------------------------------------------------------------------------


def _win_chance(attack: int, defence: int) -> float:
    """P(2d6 + attack beats 2d6 + defence), ties re-rolled (Q13 default)."""
    rolls = [a + b for a in range(1, 7) for b in range(1, 7)]
    win = sum(x + attack > y + defence for x in rolls for y in rolls)
    lose = sum(x + attack < y + defence for x in rolls for y in rolls)
    return win / (win + lose)


def test_A10_warships_are_weak_an_average_pirate_wins() -> None:
    ability = sorted(p["ability"] for p in PIRATES)[len(PIRATES) // 2]
    sloop = data.SHIPS[0]["combat"]
    avg = sum(w["combat"] for w in WARSHIPS) / len(WARSHIPS)
    assert _win_chance(ability + sloop, round(avg)) > 0.5
    assert data.RAW["warships"]["src"] == "proposed"


def test_A11_warships_attack_on_convert_not_on_move() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    assert top(S)["kind"] == "ap_window"
    assert not any(a["type"] == "place_warship" for a in GAME.legal_actions(S, b))
    with pytest.raises(IllegalAction):
        act(S, b, {"type": "place_warship", "attack": True}, rng)
    pass_window(S, rng)
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    _loot_to_convert(S, rng, p, size=3)
    assert top(S)["kind"] == "ap_window" and top(S)["trigger"] == "convert"
    assert {"type": "place_warship", "attack": True} in GAME.legal_actions(S, b)
    act(S, b, {"type": "place_warship", "attack": True}, rng)
    assert top(S)["kind"] == "fight_or_escape"


def test_A12_a_placed_warship_need_not_attack() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    slot = add_merchant(S, p["area"])
    actions(S, 2)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    ev = act(S, b, {"type": "place_warship", "attack": False}, rng)
    assert "warship_placed" in kinds(ev) and top(S)["kind"] != "fight_or_escape"
    assert S["warships"][0]["area"] == p["area"] and S["this_turn"]["ap_action_used"][b]
    rng.push(1)
    pass_window(S, rng)
    assert S["warships"] and S["warships"][0]["area"] == p["area"]


def _warship_attack(S, rng, p, choice, *faces):
    """A Find; the first AP player attacks with a warship in the area; ``choice``."""
    b = others(S)[0]
    slot = add_merchant(S, p["area"])
    ws = add_warship(S, p["area"])
    actions(S, 2)
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "warship_attack", "ws": ws}, rng)
    return b, slot, answer(S, rng, "fight_or_escape", {"type": choice}, *faces)


def test_A13_escape_means_a_search_roll_fight_means_none() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    p["cunning"] = 0
    speed = WARSHIPS[S["warship_pool"][0]]["speed"]
    _, _, ev = _warship_attack(S, rng, p, "escape", 6, 1)
    search = [e for e in ev if e["type"] == "roll" and e["why"] == "search"]
    assert search and search[0]["total"] == 6 + speed
    mine = [e for e in ev if e["type"] == "roll" and e["why"] == "escape"]
    assert mine and mine[0]["dice"] == [1]
    S, rng = table(3)
    p = pirate(S, me(S))
    p["cunning"] = 0
    _, _, ev = _warship_attack(S, rng, p, "fight", 6, 6, 1, 1)
    assert not any(e["type"] == "roll" and e["why"] in ("search", "escape") for e in ev)
    assert any(e["type"] == "battle" for e in ev)


def test_A14_escape_during_convert_keeps_booty_and_hostage() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    slot = _loot_to_convert(S, rng, p, size=3)
    booty, hostages = list(p["holds"]), list(p["hostages"])
    assert booty and hostages
    act(S, b, {"type": "place_warship", "attack": True}, rng)
    answer(S, rng, "fight_or_escape", {"type": "escape"}, 1, 6)  # search 1+speed vs 6+2
    assert p["holds"] == booty and p["hostages"] == hostages and p["ship"] == 0
    assert all(m["slot"] != slot for m in S["merchants"]) and p["area"] == "CARIB"
    assert S["this_turn"]["actions_left"] == 1  # find and loot spent; nothing refunded


def test_A14_escape_during_find_loses_the_merchant() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    p["cunning"] = 0
    _, slot, ev = _warship_attack(S, rng, p, "escape", 1, 6)
    assert "escaped" in kinds(ev) and "merchant_removed" in kinds(ev)
    assert all(m["slot"] != slot for m in S["merchants"]) and S["this_turn"]["actions_left"] == 1


def test_A15_ap_vp_equal_the_damage_even_when_the_pirate_wins() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    p["cunning"] = 0
    b, _, ev = _warship_attack(S, rng, p, "fight", 1, 1, 6, 6)
    assert [e["vp"] for e in ev if e["type"] == "vp"] == [1] and S["ap_vp"][b] == 1
    assert p["combat"] == data.SHIPS[0]["combat"] - 1
    S, rng = table(3)
    p = pirate(S, me(S))
    p["cunning"] = 0
    p["combat"] = 5  # big enough to survive
    # warship 12 + combat vs pirate 2 + 5 + ability: margin 5..8 -> 3 damage
    ws_combat = WARSHIPS[S["warship_pool"][0]]["combat"]
    need = 12 + ws_combat - (2 + 5 + PIRATES[p["id"]]["ability"])
    assert 5 <= need <= 8
    b, _, ev = _warship_attack(S, rng, p, "fight", 6, 6, 1, 1)
    assert S["ap_vp"][b] == 3 and p["combat"] == 2
    assert S["ap_vp_ledger"][-1] == {"seat": b, "vp": 3, "why": "warship_damage"}


def test_A16_no_pirate_action_attacks_a_warship() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    add_warship(S, p["area"])
    actions(S, 3)
    legal = GAME.legal_actions(S, me(S))
    assert not any("warship" in a["type"] for a in legal)
    with pytest.raises(IllegalAction):
        act(S, me(S), {"type": "attack_warship", "pirate": p["id"]}, rng)


# -- King's Commissioners ------------------------------------------------------------------


def test_A17_kc_reaction_is_not_an_ap_action() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    add_kc(S, b, p["area"])
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    assert not S["this_turn"]["ap_action_used"][b]
    kc = S["commissioners"][0]["id"]
    act(S, b, {"type": "react", "kc": kc}, rng)
    assert not S["this_turn"]["ap_action_used"][b] and top(S)["kind"] == "fight_or_escape"


def test_A18_kc_speed_is_below_combat_and_the_loader_checks_it() -> None:
    assert all(k["speed"] < k["combat"] for k in KCS)
    bad = {**data.RAW, "kcs": {**data.RAW["kcs"], "list": [[3, 3]]}}
    with pytest.raises(data.DataError, match="A18"):
        data.validate(bad)


def test_A19_only_the_owner_uses_a_kc() -> None:
    S, rng = table(3)
    b, c = others(S)
    p = pirate(S, me(S))
    kid = add_kc(S, b, "SATL")
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "pass"}, rng)
    assert GAME.to_act(S) == [c]
    assert not any(a.get("kc") == kid for a in GAME.legal_actions(S, c))
    for bad in ({"type": "react", "kc": kid}, {"type": "kc_move", "kc": kid, "to": "CATL"}):
        with pytest.raises(IllegalAction):
            act(S, c, bad, rng)


def test_A20_no_pirate_action_attacks_a_kc() -> None:
    S, rng = table(3)
    p = pirate(S, me(S))
    add_kc(S, others(S)[0], p["area"])
    actions(S, 3)
    assert not any("kc" in a["type"] for a in GAME.legal_actions(S, me(S)))
    with pytest.raises(IllegalAction):
        act(S, me(S), {"type": "attack_kc", "pirate": p["id"]}, rng)


def test_A21_reaction_range_same_or_adjacent_area_never_a_transit_box() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    near = add_kc(S, b, "CAM")  # adjacent to SATL
    far = add_kc(S, b, "NATL")  # two areas from SATL
    actions(S, 2)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    reacts = [a["kc"] for a in GAME.legal_actions(S, b) if a["type"] == "react"]
    assert reacts == [near] and far not in reacts
    act(S, b, {"type": "react", "kc": near}, rng)
    assert next(k for k in S["commissioners"] if k["id"] == near)["area"] == "SATL"
    assert data.in_reaction_range("CARIB", "SATL")
    assert not data.in_reaction_range("CARIB", "T-ATL")
    assert not data.in_reaction_range("T-ATL", "CARIB")
    assert data.in_reaction_range("T-ATL", "T-ATL")


def test_A22_one_interception_first_in_polling_order_again_every_action() -> None:
    S, rng = table(3)
    b, c = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    kb, kc = add_kc(S, b, "SATL"), add_kc(S, c, "SATL")
    (scurvy,) = hand(S, c, "scurvy_outbreak")
    actions(S, 3)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    assert GAME.to_act(S) == [b]  # polled first: clockwise from the phasing player
    act(S, b, {"type": "react", "kc": kb}, rng)
    # intercept: KC 6 + speed vs pirate 1 + 2 -> battle; pirate wins 12 vs 2
    answer(S, rng, "fight_or_escape", {"type": "escape"}, 6, 1, 1, 1, 6, 6)
    assert kb not in [k["id"] for k in S["commissioners"]]  # beaten KCs leave play
    assert GAME.to_act(S) == [b]  # B may still take his AP action in this window
    act(S, b, {"type": "pass"}, rng)
    assert GAME.to_act(S) == [c]
    assert not any(a["type"] == "react" for a in GAME.legal_actions(S, c))
    act(S, c, {"type": "play_event", "card": scurvy}, rng)  # an AP action as well
    assert p["scurvy"]
    slot = add_merchant(S, "SATL")
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "pass"}, rng)
    assert GAME.to_act(S) == [c]
    assert {"type": "react", "kc": kc} in GAME.legal_actions(S, c)
    act(S, c, {"type": "react", "kc": kc}, rng)
    assert top(S)["kind"] == "fight_or_escape"


def test_A23_a_new_kc_may_react_to_the_same_action() -> None:
    for flag in (True, False):
        S, rng = table(3, kc_react_same_action_as_deploy=flag)
        b, _ = others(S)
        p = pirate(S, me(S))
        p["notoriety"] = 12
        slot = add_merchant(S, p["area"])
        actions(S, 2)
        act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
        act(S, b, {"type": "commission_kc", "area": p["area"]}, rng, 1, 1)
        assert S["commissioners"] and S["commissioners"][0]["owner"] == b
        reacts = [a for a in GAME.legal_actions(S, b) if a["type"] == "react"]
        assert bool(reacts) is flag


def test_A24_one_kc_ap_action_per_player_turn_at_the_table() -> None:
    for scope, allowed in (("global", False), ("per_ap_player", True)):
        S, rng = table(3, kc_ap_action_scope=scope)
        b, c = others(S)
        p = pirate(S, me(S))
        p["cunning"] = 0
        place(p, "CARIB", PORT_ROYAL)
        p["combat"] -= 1
        kb, kc = add_kc(S, b, "NATL"), add_kc(S, c, "CARIB")
        actions(S, 1)
        act(S, me(S), {"type": "refit", "pirate": p["id"]}, rng)
        act(S, b, {"type": "kc_move", "kc": kb, "to": "CATL"}, rng)
        if S["stack"][-1]["kind"] == "ap_window" and GAME.to_act(S) == [b]:
            act(S, b, {"type": "pass"}, rng)
        assert GAME.to_act(S) == [c]
        oust = {"type": "kc_oust", "kc": kc}
        assert (oust in GAME.legal_actions(S, c)) is allowed
        if not allowed:
            with pytest.raises(IllegalAction):
                act(S, c, oust, rng)


def test_A25_an_ousted_pirate_may_meet_the_same_players_kc() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    place(p, "CARIB", PORT_ROYAL)
    p["combat"] -= 1
    kid = add_kc(S, b, "CARIB")
    actions(S, 1)
    act(S, me(S), {"type": "refit", "pirate": p["id"]}, rng)
    ev = act(S, b, {"type": "kc_oust", "kc": kid}, rng, 6, 6, 1, 1)
    assert any(e["type"] == "oust_attempt" and e["success"] for e in ev)
    assert p["port"] is None and p["area"] == "CARIB"
    assert top(S)["trigger"] == "leave_port" and GAME.to_act(S) == [b]
    assert {"type": "react", "kc": kid} in GAME.legal_actions(S, b)
    assert any(e["type"] == "action_cancelled" for e in ev)


def test_A26_reactions_are_never_automatic() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    add_kc(S, b, "SATL")
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    assert GAME.to_act(S) == [b] and {"type": "pass"} in GAME.legal_actions(S, b)
    ev = act(S, b, {"type": "pass"}, rng)
    assert "kc_reaction" not in kinds(ev)
    pass_window(S, rng)
    assert top(S)["kind"] == "main" and p["area"] == "SATL"


def test_A27_fighting_a_kc_skips_the_interception_roll() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    kid = add_kc(S, b, "SATL")
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "react", "kc": kid}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "fight"}, 1, 1, 6, 6)
    assert not any(e["type"] == "roll" and e["why"] in ("intercept", "escape") for e in ev)
    assert any(e["type"] == "battle" for e in ev)


def test_A28_escaping_a_kc_keeps_a_move_but_cancels_a_find() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    kid = add_kc(S, b, "SATL")
    actions(S, 3)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "react", "kc": kid}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "escape"}, 1, 6)  # KC 1+speed vs 6+2
    assert "escaped" in kinds(ev) and "move_stands" in kinds(ev) and p["area"] == "SATL"
    pass_window(S, rng)
    slot = add_merchant(S, "SATL")
    act(S, me(S), {"type": "find", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "react", "kc": kid}, rng)
    ev = answer(S, rng, "fight_or_escape", {"type": "escape"}, 1, 6)
    assert "action_cancelled" in kinds(ev) and "merchant_removed" in kinds(ev)
    assert all(m["slot"] != slot for m in S["merchants"]) and p["area"] == "SATL"


def test_A29_beating_a_kc_costs_exactly_one_damage_and_gives_one_vp() -> None:
    S, rng = table(3)
    b, _ = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    kid = add_kc(S, b, "SATL")
    combat = KCS[kid]["combat"]
    actions(S, 1)
    act(S, me(S), {"type": "move", "pirate": p["id"], "to": "SATL"}, rng)
    act(S, b, {"type": "react", "kc": kid}, rng)
    before = conserved(S)
    ev = answer(S, rng, "fight_or_escape", {"type": "fight"}, 1, 1, 6, 6)
    assert [e["hits"] for e in ev if e["type"] == "damage"] == [1]
    assert S["ap_vp"][b] == 1 and p["notoriety"] == 2 * combat
    assert conserved(S)["kcs"] == before["kcs"]


def test_A22_one_interception_per_action_across_a_loots_two_windows() -> None:
    S, rng = table(3)
    b, c = others(S)
    p = pirate(S, me(S))
    p["cunning"] = 0
    kb, kc = add_kc(S, b, p["area"]), add_kc(S, c, p["area"])
    slot = add_merchant(S, p["area"], size=3)
    board_m = next(m for m in S["merchants"] if m["slot"] == slot)
    board_m.update(face_up=True, found_by=p["id"])
    actions(S, 1)
    act(S, me(S), {"type": "loot", "pirate": p["id"], "slot": slot}, rng)
    act(S, b, {"type": "react", "kc": kb}, rng)
    answer(S, rng, "fight_or_escape", {"type": "fight"}, 1, 1, 6, 6)  # the pirate wins
    act(S, b, {"type": "pass"}, rng)
    assert GAME.to_act(S) == [c]
    assert {"type": "react", "kc": kc} not in GAME.legal_actions(S, c)
    rng.push(6, 5)
    pass_window(S, rng)
    answer(S, rng, "hostage", {"type": "ransom"})
    answer(S, rng, "convert", {"type": "convert", "yes": True})
    assert top(S)["kind"] == "ap_window" and top(S)["trigger"] == "convert"
    asked = []
    while top(S)["kind"] == "ap_window":
        seat = GAME.to_act(S)[0]
        asked.append(seat)
        assert not any(a["type"] == "react" for a in GAME.legal_actions(S, seat))
        act(S, seat, {"type": "pass"}, rng)
    assert asked == [b, c]
