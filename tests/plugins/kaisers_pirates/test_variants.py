"""Variants: the team game (8.1), solitaire (8.2) and optional rules (8.3, 6.x)."""

from __future__ import annotations

import random

from lantable.plugins.kaisers_pirates import solo
from lantable.plugins.kaisers_pirates.data import ACTIONS, SHIPS, SOLO

from . import helpers as kp

FORCES = {
    0: {"ger": ["Leipzig", "Leopard", "Meteor"], "mer": ["Matheran", "Lovat", "Maria"]},
    1: {"ger": ["Prinz Eitel Friedrich", "Emden", "Wolf"],
        "mer": ["Bowes Castle", "Invercoe", "Mount Temple"]},
    2: {"ger": ["Seeadler", "Karlsruhe", "Moewe"], "mer": ["Kaipara", "Appam", "Lundy Island"]},
    3: {"ger": ["Dresden", "Cormoran", "Geier"], "mer": ["Diplomat", "Hyades", "Ryazan"]},
}
DAY = [c["id"] for c in ACTIONS if c["kind"] == "N" and not c["night"]
       and c["type"] in ("collier", "damage_control", "breakout", "fair_seas", "scuttle")]


def _card(S, seat: int, t: str) -> int:
    return next(c for c in S["players"][seat]["hand"] if ACTIONS[c]["type"] == t)


# ---------------------------------------------------------------------------
# 8.1 team game
# ---------------------------------------------------------------------------


def test_8_1_4_3_team_targets_only_the_other_team() -> None:
    S = kp.table(seats=4, options={"team_game": True}, forces=FORCES, hands={0: [DAY[0]]})
    kp.commit(S, DAY[0], "icpt", kp.sid("Leipzig"))
    kp.act(S, {"type": "done"})
    owners = {S["ships"][a["target"]]["owner"] for a in kp.GAME.legal_actions(S, 0)
              if a["type"] == "play"}
    assert owners == {1, 3}


def test_8_1_4_10_team_scores_rank_by_team_total() -> None:
    S = kp.GAME.setup(4, {"team_game": True}, random.Random(0))
    for seat, (rp, vp) in enumerate([(4, 30), (1, 5), (2, 10), (3, 20)]):
        S["players"][seat]["round_points"], S["players"][seat]["round_vp"] = rp, [vp]
    assert kp.GAME.scores(S)["rank"] == [1, 2, 1, 2]


def test_8_1_team_cards_usable_for_their_action() -> None:
    S = kp.table(seats=4, options={"team_game": True}, forces=FORCES,
                 hands={0: ["bounding_main", "exchange_information"]})
    uses = {(a["card"], a["use"]) for a in kp.GAME.legal_actions(S, 0) if a["type"] == "commit"}
    for c in S["players"][0]["hand"]:
        assert (c, "act") in uses


# ---------------------------------------------------------------------------
# 8.2 solitaire
# ---------------------------------------------------------------------------


def test_8_2_2_solitaire_setup_removes_twelve_cards_and_deals_40() -> None:
    S = kp.GAME.setup(1, {}, random.Random(4))
    assert len(S["action_cards"]) == 88
    removed_types = {"intelligence", "wireless_intercept", "bounding_main", "breakdown",
                     "exchange_information", "mistaken_identity", "pull_the_plug",
                     "sail_q_ship", "searchlight", "special_cargo"}
    assert not any(ACTIONS[c]["type"] in removed_types for c in S["action_cards"])
    dealt = kp.piles.action_left(S) + sum(len(p["hand"]) for p in S["players"])
    assert dealt == 40
    assert S["set_aside_n"] == 48
    assert kp.GAME.to_act(S) in ([0], [])


def test_8_2_solitaire_deck_data_is_complete() -> None:
    assert len(SOLO) == 20
    for sc in SOLO:
        assert sc["cols"][0] == ["none", True]
        assert sc["cols"][1][0].startswith("intercept_")
        assert all(isinstance(d, int) for k in ("att", "ch", "def", "re") for d in sc[k])


def test_8_2_3_phantom_reacts_from_the_solitaire_deck() -> None:
    S = kp.GAME.setup(1, {}, random.Random(4))
    # rebuild a simple position: the human intercepts one phantom merchant
    S2 = kp.table(seats=2, forces={0: FORCES[0], 1: FORCES[1]}, hands={0: [DAY[0]]})
    S2["mode"], S2["seats"], S2["solo"] = "solo", 1, S["solo"]
    # the phantom turns over a card whose 2/4 reaction is Break Contact
    bc = next(i for i in range(20) if SOLO[i]["def24"] == "break_contact")
    kp.commit(S2, DAY[0], "icpt", kp.sid("Leipzig"))
    kp.act(S2, {"type": "done"})
    rng = kp.Dice((4, 2), *[(d, 9 if d == 10 else 1) for d in SOLO[bc]["ch"]],
                  *[(d, 1) for d in SOLO[bc]["re"]]).turn_over(S2["solo"]["deck"], bc)
    ev = kp.act(S2, {"type": "play", "card": DAY[0], "target": kp.sid("Bowes Castle")}, rng)
    assert kp.of(ev, "solitaire_card")[0]["card"] == bc
    pr = kp.of(ev, "phantom_reaction")[0]
    assert pr == {"type": "phantom_reaction", "reaction": "break_contact", "applies": True}
    assert kp.of(ev, "interception_cancelled")


def test_8_2_4_phantom_turn_intercepts_with_specials() -> None:
    S = kp.GAME.setup(1, {}, random.Random(4))
    S2 = kp.table(seats=2, forces={0: FORCES[0], 1: FORCES[1]}, hands={0: []}, turn_seat=1)
    # the helper started seat 1's turn as a normal seat; make it the phantom's
    S2["mode"], S2["seats"], S2["solo"] = "solo", 1, S["solo"]
    from lantable.plugins.kaisers_pirates import turn
    turn.new_turn(S2, 1)
    S2["pending"] = None
    warship_card = next(i for i in range(20)
                        if SOLO[i]["cols"][1][0] == "intercept_merchant_warship"
                        and SOLO[i]["special"] is None)
    sa_card = next(i for i in range(20) if SOLO[i]["special"] == "surprise_attack")
    blank = next(i for i in range(20) if SOLO[i]["special"] is None and i != warship_card)
    # the deck was reshuffled at the end of the phantom's last turn (R 5.4.1): all 20
    assert S2["solo"]["deck"] == list(range(20))
    rng = kp.Dice(seed=3).turn_over(S2["solo"]["deck"], warship_card, sa_card, blank)
    rng.push((4, 2))  # red die 2: column 2, intercept with a Warship
    rng.push((10, 1), (8, 1), (4, 1), (8, 8))  # Emden misses Matheran (1 + 2 vs 8)
    ev: list = []
    turn.advance(S2, rng, ev)
    assert kp.of(ev, "phantom_specials")[0]["specials"] == ["surprise_attack"]
    roll = kp.of(ev, "roll")[0]
    assert roll["a_seat"] == 1
    assert roll["a_mod"] == 2
    assert SHIPS[kp.of(ev, "result")[0]["ship"]]["kind"] == "merchant"


def test_8_2_phantom_keeps_its_best_ship() -> None:
    S = kp.table(seats=2, forces={0: FORCES[0], 1: FORCES[1]})
    assert solo.phantom_keep(S) == [kp.sid("Emden")]


def test_8_2_solitaire_discards_are_hidden() -> None:
    S = kp.GAME.setup(1, {}, random.Random(8))
    v = kp.GAME.view(S, 0)
    assert v["discards"] is None
    assert v["solo"]["deck"] == list(range(20))  # which cards are left, never their order


# ---------------------------------------------------------------------------
# optional rules
# ---------------------------------------------------------------------------


def test_6_1_coal_rendezvous_missed_plus_two() -> None:
    S = kp.table(forces=FORCES, hands={0: ["rendezvous_missed"]}, options={"coal": True})
    c = _card(S, 0, "rendezvous_missed")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    ev = kp.act(S, {"type": "play", "card": c, "target_seat": 1})
    mods = [e["a_mod"] for e in kp.of(ev, "roll")]
    assert mods == [0, 2, 0]  # PEF (no coal), Emden (Warship: coal), Wolf


def test_6_3_woelfchen_no_slim_pickings_and_double_surprise() -> None:
    S = kp.table(forces=FORCES, hands={1: [DAY[0], "surprise_attack"], 0: ["slim_pickings"]},
                 options={"woelfchen": True}, turn_seat=1)
    sa = _card(S, 1, "surprise_attack")
    kp.commit(S, DAY[0], "icpt", kp.sid("Wolf"))
    kp.commit(S, sa, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": DAY[0], "target": kp.sid("Maria")})
    kp.act(S, {"type": "attach", "card": sa})
    assert kp.GAME.legal_actions(S, 0) == [{"type": "pass"}]
    ev = kp.act(S, {"type": "pass"}, kp.Dice((10, 1), (8, 1), (6, 6)))
    assert kp.of(ev, "roll")[0]["a_mod"] == 4


def test_6_4_tournament_balanced_first_deal() -> None:
    S = kp.GAME.setup(4, {"tournament": True}, random.Random(1))
    names = ["Dresden", "Emden", "Koenigsberg", "Nuernberg"]
    for p in S["players"]:
        assert sum(SHIPS[s]["name"] in names for s in p["german"]) == 1
        assert sorted(SHIPS[s]["vp"] for s in p["merchants"]) == [5, 7, 9]


def test_6_5_beyond_1914_removes_ships() -> None:
    S = kp.GAME.setup(2, {"beyond_1914": "ships_and_merchants"}, random.Random(1))
    assert kp.sid("Emden") in S["removed_ships"]
    assert kp.sid("Lovat") in S["removed_ships"]
    assert len(S["removed_ships"]) == 8 + 19
    kp.check_cards(S)


def test_6_7_keep_three_and_hand_size() -> None:
    S = kp.table(forces=FORCES, options={"keep_three": True})
    kp.leave_in_deck(S, 1)
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "end_turn"})
    three = sorted(S["players"][0]["german"])
    kp.act(S, {"type": "keep", "ships": three}, seat=0)
    kp.act(S, {"type": "keep", "ships": []}, seat=1)
    kp.act(S, {"type": "keep", "ships": []}, seat=2)
    assert len(S["players"][0]["hand"]) == 3
    assert sorted(S["players"][0]["german"]) == three


def test_6_8_additional_damage_stacks() -> None:
    S = kp.table(forces=FORCES, hands={0: [DAY[0]]}, options={"additional_damage": True})
    bc = kp.sid("Bowes Castle")
    S["ships"][bc]["damage"] = 1
    kp.commit(S, DAY[0], "icpt", kp.sid("Leipzig"))
    kp.act(S, {"type": "done"})
    ev = kp.act(S, {"type": "play", "card": DAY[0], "target": bc},
                kp.Dice((10, 5), (8, 1), (4, 1), (6, 5)))  # 5 vs 5 - 2 = 3: damaged
    assert S["ships"][bc]["damage"] == 2
    assert kp.of(ev, "damaged")[0]["markers"] == 2


def test_6_9_torpedo_hidden_prize_after_finding_it() -> None:
    S = kp.table(forces=FORCES, hands={0: ["submarine_u"]}, options={"torpedo_prizes": True})
    inv = kp.sid("Invercoe")
    S["players"][1]["merchants"].remove(inv)
    S["players"][1]["german"].append(inv)
    S["ships"][inv]["prize"] = True
    c = _card(S, 0, "submarine_u")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    assert {"type": "play", "card": c, "target": inv} in kp.GAME.legal_actions(S, 0)
    ev = kp.act(S, {"type": "play", "card": c, "target": inv},
                kp.Dice((10, 2), (8, 1), (10, 9)))  # not found: attack wasted
    assert kp.of(ev, "roll")[0]["what"] == "find_prize"
    assert not kp.of(ev, "result")


def test_6_11_sailing_merchant_no_amc_break_contact_minus_two() -> None:
    S = kp.table(forces=FORCES, hands={0: [DAY[0]], 1: ["amc", "break_contact"]},
                 options={"sailing_merchants": True})
    kp.commit(S, DAY[0], "icpt", kp.sid("Leipzig"))
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": DAY[0], "target": kp.sid("Invercoe")})
    types = {ACTIONS[a["card"]]["type"] for a in kp.GAME.legal_actions(S, 1) if "card" in a}
    assert types == {"break_contact"}
    ev = kp.act(S, {"type": "react", "card": _card(S, 1, "break_contact")},
                kp.Dice((10, 9), (6, 1), (10, 1)))
    assert kp.of(ev, "roll")[0]["a_mod"] == -2


def test_6_12_prize_resupply_and_exhaustion() -> None:
    S = kp.table(forces=FORCES, options={"prize_resupply": True})
    lovat, lz = kp.sid("Lovat"), kp.sid("Leipzig")
    S["players"][0]["merchants"].remove(lovat)
    S["players"][0]["german"].append(lovat)
    S["ships"][lovat]["prize"] = True
    S["ships"][lz]["limited_supply"] = True
    kp.act(S, {"type": "done"})
    a = {"type": "resupply", "prize": lovat, "ship": lz}
    assert a in kp.GAME.legal_actions(S, 0)
    ev = kp.act(S, a, kp.Dice((10, 9), (8, 1), (10, 2)))  # supplies exhausted
    assert not S["ships"][lz]["limited_supply"]
    assert S["players"][0]["vp_pile"] == [{"ship": lovat, "mult": 1, "how": "prize_exhausted"}]
    assert ev


def test_6_6_fast_raider_may_pursue() -> None:
    S = kp.table(forces=FORCES, hands={1: [DAY[0]], 0: ["fast_ship"]},
                 options={"fast_raiders": True}, turn_seat=1)
    kp.commit(S, DAY[0], "icpt", kp.sid("Prinz Eitel Friedrich"))
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": DAY[0], "target": kp.sid("Maria")})
    kp.act(S, {"type": "react", "card": _card(S, 0, "fast_ship")})
    assert S["pending"]["kind"] == "pursue"
    ev = kp.act(S, {"type": "pursue"}, kp.Dice((10, 4), (8, 1), (6, 6)))
    assert kp.of(ev, "roll")[0]["a_mod"] == 0
    kp.act(S, {"type": "pass"}, kp.Dice((10, 9), (4, 1), (10, 2)))  # Maria stays at sea
    assert S["ships"][kp.sid("Prinz Eitel Friedrich")]["limited_supply"]  # failed the 6.6.1 check


def test_6_10_shallow_water_pursuit() -> None:
    S = kp.table(forces=FORCES, hands={0: [DAY[0]], 1: ["shallow_run"]},
                 options={"shallow_pursuit": True})
    kp.commit(S, DAY[0], "icpt", kp.sid("Leipzig"))
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": DAY[0], "target": kp.sid("Bowes Castle")})
    kp.act(S, {"type": "react", "card": _card(S, 1, "shallow_run")})
    assert S["pending"] == {"kind": "shallows", "seat": 0}
    # merchant crossing fails (damaged), Leipzig crosses; then 6 vs 6 - 2: damage
    ev = kp.act(S, {"type": "pursue"},
                kp.Dice((10, 1), (4, 1), (10, 5), (10, 9), (4, 1), (10, 2),
                        (10, 6), (8, 1), (4, 1), (6, 6)))
    assert kp.of(ev, "shallows_pursuit")
    assert [e["what"] for e in kp.of(ev, "roll")] == ["shallows_crossing", "shallows_crossing",
                                                      "interception"]
    assert kp.of(ev, "roll")[2]["d_mod"] == -2
    assert S["ships"][kp.sid("Bowes Castle")]["damage"] == 1


def test_a7_recon_cards_playable_same_turn_option() -> None:
    S = kp.table(forces=FORCES, hands={0: ["recon_aircraft"], 1: ["collier", "fair_seas"]},
                 options={"a7_recon_immediate": True})
    c = _card(S, 0, "recon_aircraft")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": c, "target_seat": 1})
    taken = S["this_turn"]["recon_cards"]
    assert len(taken) == 2
    legal = kp.GAME.legal_actions(S, 0)
    assert {"type": "commit", "card": taken[0], "use": "brit"} in legal
    assert kp.GAME.view(S, 1)["this_turn"]["recon_cards"] == []


def test_8_1_4_7_team_breakout_second_ship_to_teammate() -> None:
    S = kp.table(seats=4, options={"team_game": True}, forces=FORCES, hands={0: ["breakout"]})
    c = _card(S, 0, "breakout")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": c}, kp.Dice((10, 9), (8, 1), (8, 2)))
    a, b = S["stack"][-1]["ships"]
    assert S["pending"] == {"kind": "give_ships", "seat": 0}
    kp.act(S, {"type": "to_mate", "ships": [b]})
    assert a in S["players"][0]["german"]
    assert b in S["players"][2]["german"]
    assert S["ships"][b]["owner"] == 2
    kp.check_cards(S)


def test_8_1_4_6_refuge_ship_may_join_teammate() -> None:
    S = kp.table(seats=4, options={"team_game": True}, forces=FORCES)
    lz = kp.sid("Leipzig")
    ir = next(c["id"] for c in ACTIONS if c["type"] == "island_refuge")
    kp.from_deck(S, ir)
    S["ships"][lz]["refuge"], S["ships"][lz]["refuge_turn"] = ir, 0
    kp.act(S, {"type": "leave_refuge", "ship": lz, "to_mate": True})
    assert lz in S["players"][2]["german"]
    assert ir in S["discards"]


def test_8_1_4_9_team_pools_ships_when_keeping() -> None:
    S = kp.table(seats=4, options={"team_game": True}, forces=FORCES)
    kp.leave_in_deck(S, 1)
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "end_turn"})
    karlsruhe = kp.sid("Karlsruhe")  # seat 2's ship, kept by seat 0
    kp.act(S, {"type": "keep", "ships": [karlsruhe]}, seat=0)
    assert {"type": "keep", "ships": [karlsruhe]} not in kp.GAME.legal_actions(S, 2)
    for seat in (1, 2, 3):
        kp.act(S, {"type": "keep", "ships": []}, seat=seat)
    assert karlsruhe in S["players"][0]["german"]
    assert S["ships"][karlsruhe]["owner"] == 0
    kp.check_cards(S)


def test_6_5_3_no_breakout_with_four_players() -> None:
    S = kp.GAME.setup(4, {"beyond_1914": "ships", "no_breakout": True}, random.Random(1))
    assert len(S["action_cards"]) == 97
    assert not any(ACTIONS[c]["type"] == "breakout" for c in S["action_cards"])
    kp.check_cards(S)


def _phantom_table(kp, **kw):
    S = kp.GAME.setup(1, {}, random.Random(4))
    S2 = kp.table(seats=2, forces={0: FORCES[0], 1: FORCES[1]}, turn_seat=1, **kw)
    S2["mode"], S2["seats"], S2["solo"] = "solo", 1, S["solo"]
    from lantable.plugins.kaisers_pirates import turn
    turn.new_turn(S2, 1)
    S2["pending"] = None
    return S2, turn


def test_8_2_4_item_9_deception_on_the_phantom_one_card() -> None:
    S, turn = _phantom_table(kp)
    dec = next(c["id"] for c in ACTIONS if c["type"] == "deception")
    kp.from_deck(S, dec)
    S["players"][1]["wait"] = {"card_type": "deception", "card": dec}
    ev: list = []
    turn.advance(S, random.Random(2), ev)
    assert len(kp.of(ev, "red_die")) == 1  # one card, column 3 or 4, then the turn ends
    assert S["turn_seat"] == 0
    assert S["players"][1]["wait"] is None
    assert dec in S["discards"]
    kp.check_cards(S)


def test_8_2_4_item_6_phantom_fog_bank_is_no_card() -> None:
    S, turn = _phantom_table(kp)
    fog = next(i for i in range(20) if SOLO[i]["cols"][2][0] == "fog_bank")
    rng = kp.Dice(seed=1).turn_over(S["solo"]["deck"], fog)  # the phantom turns it over
    rng.push((4, 3))  # column 3: Fog Bank (ET)
    ev: list = []
    turn.advance(S, rng, ev)
    assert kp.of(ev, "placed_on")[0] == {"type": "placed_on", "card": None, "seat": 0}
    # the fogged player's turn then passes by itself: no play, no draw
    assert kp.of(ev, "fog_bank_turn")[0]["seat"] == 0
    assert S["players"][0]["wait"] is None
    kp.check_cards(S)
