"""One test (at least) per Action card type, named after digest 6.2's numbering."""

from __future__ import annotations

import random

import pytest

from lantable.plugins.kaisers_pirates.data import ACTIONS, SHIPS

from . import helpers as kp

FORCES = {
    0: {"ger": ["Leipzig", "Leopard", "Meteor"], "mer": ["Matheran", "Lovat", "Maria"]},
    1: {"ger": ["Prinz Eitel Friedrich", "Emden", "Wolf"],
        "mer": ["Bowes Castle", "Invercoe", "Mount Temple"]},
    2: {"ger": ["Seeadler", "Karlsruhe", "Moewe"], "mer": ["Kaipara", "Appam", "Lundy Island"]},
}


def R(dice: list[int], v: int) -> list[tuple[int, int]]:
    """Faces for ``dice`` whose highest is ``v`` (on the first die big enough)."""
    out, placed = [], False
    for d in dice:
        if not placed and d >= v:
            out.append((d, v))
            placed = True
        else:
            out.append((d, 1))
    assert placed
    return out


def D(kp, *groups: list[tuple[int, int]]):
    return kp.Dice(*[f for g in groups for f in g])


def att(name: str, kp) -> list[int]:
    return SHIPS[kp.sid(name)]["att"]


def dfn(name: str, kp) -> list[int]:
    return SHIPS[kp.sid(name)]["def"]


DAY = [c["id"] for c in ACTIONS if c["kind"] == "N" and not c["night"]
       and c["type"] in ("collier", "damage_control", "breakout", "fair_seas", "scuttle")]


def start(kp, hands: dict, seat: int = 0, **kw):
    hands = {s: hands.get(s, []) for s in range(3)}
    return kp.table(forces=FORCES, hands=hands, turn_seat=seat, **kw)


def card(S, seat: int, t: str) -> int:
    return next(c for c in S["players"][seat]["hand"] if ACTIONS[c]["type"] == t)


def intercept(kp, S, seat: int, ship: str, target: str, dice=None, t: str = "fair_seas"):
    c = card(S, seat, t)
    kp.commit(S, c, "icpt", kp.sid(ship))
    return c


def rx_card(S, seat: int, t: str) -> int:
    return card(S, seat, t)


# ---------------------------------------------------------------------------


def test_6_1_amc_duel_sinks_the_interceptor() -> None:
    S = start(kp, {0: ["amc"], 1: ["fair_seas"]}, seat=1)
    c = intercept(kp, S, 1, "Prinz Eitel Friedrich", "Matheran")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": c, "target": kp.sid("Matheran")})
    amc = rx_card(S, 0, "amc")
    a = ACTIONS[amc]
    ev = kp.act(S, {"type": "react", "card": amc},
                D(kp, R(a["att"], 10), R(dfn("Prinz Eitel Friedrich", kp), 2),
                  R(att("Prinz Eitel Friedrich", kp), 1), R(a["def"], 5)))
    assert kp.of(ev, "duel")[0]["results"] == ["sunk", "none"]
    assert S["players"][0]["vp_pile"][0]["ship"] == kp.sid("Prinz Eitel Friedrich")
    assert kp.sid("Matheran") in S["players"][0]["merchants"]  # merchant ignored, no passage
    assert not kp.of(ev, "passage_failed")
    assert len(S["players"][0]["vp_pile"]) == 1
    kp.check_cards(S)


def test_6_2_blockade_runner_removes_limited_supply() -> None:
    S = start(kp, {0: ["blockade_runner"]})
    lz = kp.sid("Leipzig")
    S["ships"][lz]["limited_supply"] = True
    c = card(S, 0, "blockade_runner")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": c}, D(kp, R([10, 6], 9), R([10], 2)))
    assert not S["ships"][lz]["limited_supply"]


def test_6_3_boarding_party_captures_a_prize() -> None:
    S = start(kp, {0: ["fair_seas", "boarding_party"]})
    lz = kp.sid("Leipzig")
    S["ships"][lz]["limited_supply"] = True
    fs, bp = card(S, 0, "fair_seas"), card(S, 0, "boarding_party")
    kp.commit(S, fs, "icpt", lz)
    kp.commit(S, bp, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Bowes Castle")})
    kp.act(S, {"type": "done"})  # attach nothing
    ev = kp.act(S, {"type": "board", "card": bp},
                D(kp, R(att("Leipzig", kp), 10), R(dfn("Bowes Castle", kp), 2)))
    bc = kp.sid("Bowes Castle")
    assert kp.of(ev, "captured")
    assert bc in S["players"][0]["german"]
    assert S["ships"][bc]["prize"]
    assert not S["ships"][bc]["revealed"]
    assert not S["ships"][lz]["limited_supply"]  # automatic resupply of the interceptor
    kp.check_cards(S)


def test_6_4_bounding_main_skips_next_player_in_team_game() -> None:
    S = kp.table(seats=4, options={"team_game": True}, hands={0: ["bounding_main"]},
                 forces={0: FORCES[0], 1: FORCES[1], 2: FORCES[2], 3: {}})
    c = card(S, 0, "bounding_main")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": c})
    kp.act(S, {"type": "end_turn"})
    assert S["turn_seat"] == 2
    assert S["players"][1]["skip"] is False


def test_6_5_break_contact_cancels_interception_without_passage() -> None:
    S = start(kp, {0: ["break_contact"], 1: ["fair_seas"]}, seat=1)
    c = intercept(kp, S, 1, "Emden", "Matheran")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": c, "target": kp.sid("Matheran")})
    bc = rx_card(S, 0, "break_contact")
    ev = kp.act(S, {"type": "react", "card": bc}, D(kp, R([10, 6], 8), R([10], 3)))
    assert kp.of(ev, "interception_cancelled")
    assert not kp.of(ev, "passage_failed")
    assert S["players"][0]["vp_pile"] == []


def test_6_6_breakdown_damages_undamaged_enemy() -> None:
    S = start(kp, {0: ["breakdown"]})
    c = card(S, 0, "breakdown")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    targets = {a["target"] for a in kp.GAME.legal_actions(S, 0) if a["type"] == "play"}
    assert kp.sid("Prinz Eitel Friedrich") in targets  # hidden raiders too
    kp.act(S, {"type": "play", "card": c, "target": kp.sid("Emden")},
           D(kp, R([10, 8], 9), R([10], 3)))
    assert S["ships"][kp.sid("Emden")]["damage"] == 1


@pytest.mark.parametrize(("c", "r", "n"), [(9, 4, 2), (7, 4, 1), (4, 4, 0)])
def test_6_7_breakout_draws_one_or_two(c: int, r: int, n: int) -> None:
    S = start(kp, {0: ["breakout"]})
    b = card(S, 0, "breakout")
    kp.commit(S, b, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": b}, D(kp, R([10, 8], c), R([8], r)))
    assert len(S["players"][0]["german"]) == 3 + n


def test_6_8_collier_and_6_9_damage_control() -> None:
    S = start(kp, {0: ["collier", "damage_control"]})
    for s in ("Leipzig", "Meteor"):
        S["ships"][kp.sid(s)]["limited_supply"] = True
    S["ships"][kp.sid("Maria")]["damage"] = 1
    co, dc = card(S, 0, "collier"), card(S, 0, "damage_control")
    kp.commit(S, co, "act")
    kp.commit(S, dc, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": co})
    kp.act(S, {"type": "play", "card": dc, "target": kp.sid("Maria")})
    assert not any(S["ships"][s]["limited_supply"] for s in S["players"][0]["german"])
    assert S["ships"][kp.sid("Maria")]["damage"] == 0


def test_6_10_deception_forces_one_random_action_half() -> None:
    S = start(kp, {0: ["deception"], 1: ["collier"]})
    d = card(S, 0, "deception")
    kp.commit(S, d, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": d, "target_seat": 1})
    assert S["players"][1]["wait"] == {"card_type": "deception", "card": d}
    # Fog Bank cannot join a waiting Deception
    kp.act(S, {"type": "end_turn"})
    assert S["turn_seat"] == 1
    assert S["pending"]["kind"] == "resolve"
    assert len(S["this_turn"]["committed"]) == 1
    assert S["this_turn"]["deception"]
    legal = kp.GAME.legal_actions(S, 1)
    assert legal == [{"type": "end_turn"}]  # Collier without Limited Supply has no effect
    kp.act(S, {"type": "end_turn"})
    assert d in S["discards"]
    assert S["players"][1]["wait"] is None
    assert len(S["players"][1]["hand"]) == 1  # drew normally
    kp.check_cards(S)


def test_6_11_exchange_information_swaps_blind() -> None:
    S = kp.table(seats=4, options={"team_game": True},
                 hands={0: ["exchange_information", "collier"], 2: ["reflag"]},
                 forces={0: FORCES[0], 1: FORCES[1], 2: FORCES[2], 3: {}})
    ex, co = card(S, 0, "exchange_information"), card(S, 0, "collier")
    rf = card(S, 2, "reflag")
    kp.commit(S, ex, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": ex})
    kp.act(S, {"type": "give", "card": co}, seat=0)
    kp.act(S, {"type": "done"}, seat=0)
    assert kp.GAME.to_act(S) == [2]
    assert co in S["players"][0]["hand"]  # nothing moves until both are done
    kp.act(S, {"type": "give", "card": rf}, seat=2)
    kp.act(S, {"type": "done"}, seat=2)
    assert co in S["players"][2]["hand"]
    assert rf in S["players"][0]["hand"]


def test_6_12_fair_seas_passage_plus_one() -> None:
    S = start(kp, {0: ["fair_seas"]})
    fs = card(S, 0, "fair_seas")
    kp.commit(S, fs, "act")
    kp.act(S, {"type": "done"})
    ev = kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Matheran")},
                D(kp, R([6], 4), R([8], 5)))  # 4 + 1 = 5 vs 5: fails
    assert kp.of(ev, "roll")[0]["a"] == 5
    assert kp.of(ev, "passage_failed")


def test_6_13_fast_ship_only_against_raiders() -> None:
    fs, co = DAY[0], DAY[1]
    S = start(kp, {0: ["fast_ship"], 1: [fs, co]}, seat=1)
    kp.commit(S, fs, "icpt", kp.sid("Emden"))
    kp.commit(S, co, "icpt", kp.sid("Prinz Eitel Friedrich"))
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Matheran")})
    fast = rx_card(S, 0, "fast_ship")
    assert {"type": "react", "card": fast} not in kp.GAME.legal_actions(S, 0)
    kp.act(S, {"type": "pass"}, D(kp, R(att("Emden", kp), 1), R([8], 8)))
    kp.act(S, {"type": "pass"})  # Matheran stays at sea (no Passage attempt, 3.2.6)
    # now the raider
    kp.act(S, {"type": "play", "card": co, "target": kp.sid("Lovat")})
    ev = kp.act(S, {"type": "react", "card": fast},
                D(kp, R(att("Prinz Eitel Friedrich", kp), 9), R([8], 4), R([8], 1), R([8], 8)))
    assert kp.of(ev, "roll")[0]["a_mod"] == -2


def test_6_14_fog_bank_no_play_no_draw_untargetable() -> None:
    S = start(kp, {0: ["fog_bank", "fair_seas"]})
    fb, fs = card(S, 0, "fog_bank"), card(S, 0, "fair_seas")
    kp.commit(S, fb, "act")
    kp.commit(S, fs, "icpt", kp.sid("Leipzig"))
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fb, "target_seat": 1})
    targets = {S["ships"][a["target"]]["owner"] for a in kp.GAME.legal_actions(S, 0)
               if a.get("card") == fs}
    assert targets == {2}
    kp.act(S, {"type": "end_turn"})
    hand1 = list(S["players"][1]["hand"])
    assert S["turn_seat"] == 2  # seat 1's fogged turn passed with no decision
    assert S["players"][1]["hand"] == hand1
    assert fb in S["discards"]


def test_6_15_good_hunting_two_merchants() -> None:
    S = start(kp, {0: ["fair_seas", "good_hunting"]})
    fs, gh = card(S, 0, "fair_seas"), card(S, 0, "good_hunting")
    kp.commit(S, fs, "icpt", kp.sid("Leopard"))
    kp.commit(S, gh, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Bowes Castle")})
    legal = kp.GAME.legal_actions(S, 0)
    assert {"type": "attach", "card": gh, "extra": [kp.sid("Invercoe")]} in legal
    ev = kp.act(S, {"type": "attach", "card": gh, "extra": [kp.sid("Invercoe")]},
                D(kp, R(att("Leopard", kp), 10), R([6], 2), R(att("Leopard", kp), 8), R([4], 4)))
    assert {e["ship"] for e in S["players"][0]["vp_pile"]} == {
        kp.sid("Bowes Castle"),
        kp.sid("Invercoe"),
    }
    assert ev


def test_6_16_heavy_weather_sinks_without_vp() -> None:
    S = start(kp, {0: ["heavy_weather"]})
    hw = card(S, 0, "heavy_weather")
    kp.commit(S, hw, "act")
    kp.act(S, {"type": "done"})
    rolls = []
    for i in range(6):  # first ship founders, the rest hold
        rolls += R([4], 4) + R([10], 1) if i == 0 else R([4], 1) + R([10], 5)
    kp.act(S, {"type": "play", "card": hw, "target_seat": 1}, kp.Dice(*rolls))
    assert len(S["players"][1]["german"]) + len(S["players"][1]["merchants"]) == 5
    assert S["players"][0]["vp_pile"] == []
    assert kp.sid("Prinz Eitel Friedrich") in S["german_used"]


def test_6_17_intelligence_hand_and_deck() -> None:
    S = start(kp, {0: ["intelligence", "intelligence"], 1: ["reflag", "trap"]})
    i1, i2 = [c for c in S["players"][0]["hand"]]
    kp.commit(S, i1, "act")
    kp.commit(S, i2, "act")
    kp.act(S, {"type": "done"})
    ev = kp.act(S, {"type": "play", "card": i1, "mode": "hand", "target_seat": 1})
    seen = kp.of(ev, "seen_hand")[0]
    assert seen["to"] == [0]
    assert seen["cards"] == sorted(S["players"][1]["hand"])
    sample = kp.GAME.sample_state(kp.GAME.view(S, 0), 0, random.Random(5))
    assert sorted(sample["players"][1]["hand"]) == seen["cards"]  # what was seen stays there
    assert S["action_deck_top"] == []
    n_left = kp.piles.action_left(S)
    ev = kp.act(S, {"type": "play", "card": i2, "mode": "deck"})
    assert S["pending"]["kind"] == "order"
    # the three cards are turned over only now, and from now on are the deck's top
    top = S["action_deck_top"]
    assert len(top) == 3 and not set(top) & set(S["action_unseen"])
    assert kp.of(ev, "seen_deck_top")[0]["cards"] == top
    assert kp.piles.action_left(S) == n_left
    order = sorted(top, reverse=True)
    assert kp.GAME.view(S, 1)["pending"] == {"kind": "order", "seat": 0}
    kp.act(S, {"type": "order", "cards": order})
    assert S["action_deck_top"] == order
    assert kp.GAME.view(S, 0)["me"]["known_deck_top"] == order
    kp.act(S, {"type": "end_turn"})
    kp.act(S, {"type": "discard", "top": [i2, i1]})
    assert S["discards"][-2:] == [i2, i1]
    assert order[0] in S["players"][0]["hand"]  # the player drew the first of them
    assert kp.GAME.view(S, 0)["me"]["known_deck_top"] == order[1:]


def test_6_18_interned_plus_two_per_condition() -> None:
    S = start(kp, {0: ["interned"]})
    em = kp.sid("Emden")
    S["ships"][em]["limited_supply"] = True
    S["ships"][em]["damage"] = 1
    c = card(S, 0, "interned")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    ev = kp.act(S, {"type": "play", "card": c, "target": em}, D(kp, R([10, 8], 3), R([10], 6)))
    assert kp.of(ev, "roll")[0]["a"] == 7  # 3 + 4 > 6
    assert em in S["german_used"]
    assert S["players"][0]["vp_pile"] == []


def test_6_19_interrogate_reveals_then_intercepts() -> None:
    S = start(kp, {0: ["interrogate"]})
    c = card(S, 0, "interrogate")
    pef = kp.sid("Prinz Eitel Friedrich")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    targets = {a["target"] for a in kp.GAME.legal_actions(S, 0) if a["type"] == "play"}
    assert targets == {pef, kp.sid("Wolf"), kp.sid("Seeadler"), kp.sid("Moewe")}
    ev = kp.act(S, {"type": "play", "card": c, "target": pef},
                D(kp, R([10, 6], 9), R([8], 2), R([10, 8], 9), R([8], 3)))
    assert kp.of(ev, "revealed")
    assert kp.of(ev, "result")[0]["result"] == "sunk"
    assert S["players"][0]["vp_pile"][0]["ship"] == pef


def test_6_20_island_refuge_hides_and_shelters() -> None:
    S = start(kp, {1: ["island_refuge"]}, seat=1)
    pef = kp.sid("Prinz Eitel Friedrich")
    S["ships"][pef]["revealed"] = True
    c = card(S, 1, "island_refuge")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": c, "target": pef})
    assert S["ships"][pef]["refuge"] == c
    assert not S["ships"][pef]["revealed"]
    # cannot intercept from refuge; cannot leave in the turn it entered
    legal = kp.GAME.legal_actions(S, 1)
    assert not any(a.get("ship") == pef for a in legal)
    kp.act(S, {"type": "end_turn"})
    kp.check_cards(S)


def test_6_21_lay_mines_attack_every_merchant() -> None:
    S = start(kp, {0: ["lay_mines"]})
    lm = card(S, 0, "lay_mines")
    legal = kp.GAME.legal_actions(S, 0)
    assert {"type": "commit", "card": lm, "use": "mines", "ship": kp.sid("Meteor")} in legal
    assert not any(a.get("use") == "mines" and a["ship"] != kp.sid("Meteor") for a in legal)
    kp.commit(S, lm, "mines", kp.sid("Meteor"))
    kp.act(S, {"type": "done"})
    # Bowes Castle d6: 7 vs 4 damaged; Invercoe d4: 4 vs 2 sunk; Mount Temple d10: 5 vs 5
    kp.act(S, {"type": "play", "card": lm, "target_seat": 1})
    order = [kp.sid("Bowes Castle"), kp.sid("Invercoe"), kp.sid("Mount Temple")]
    assert len(kp.GAME.legal_actions(S, 0)) == 6
    ev = kp.act(S, {"type": "order_targets", "ships": order},
                D(kp, [(10, 7), (4, 1)], R([6], 4), [(10, 1), (4, 4)], R([4], 2),
                  [(10, 5), (4, 1)], R([10], 5)))
    assert [e["result"] for e in kp.of(ev, "result")] == ["damaged", "sunk", "none"]
    assert not kp.of(ev, "passage_failed")
    assert len(S["players"][1]["vp_pile"]) == 0


def test_6_22_minesweeper_cancels_mines() -> None:
    S = start(kp, {0: ["lay_mines"], 1: ["minesweeper"]})
    lm = card(S, 0, "lay_mines")
    kp.commit(S, lm, "mines", kp.sid("Meteor"))
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": lm, "target_seat": 1})
    ev = kp.act(S, {"type": "react", "card": card(S, 1, "minesweeper")})
    assert kp.of(ev, "mines_swept")
    assert not kp.of(ev, "roll")


def test_6_23_mistaken_identity_swaps_sunk_merchants() -> None:
    S = start(kp, {0: ["fair_seas"], 1: ["mistaken_identity"]})
    lovat = kp.sid("Lovat")
    S["players"][0]["merchants"].remove(lovat)
    S["ships"][lovat] = None
    S["players"][1]["vp_pile"].append({"ship": lovat, "mult": 1, "how": "sunk_m"})
    fs = card(S, 0, "fair_seas")
    kp.commit(S, fs, "icpt", kp.sid("Leipzig"))
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Mount Temple")})
    kp.act(S, {"type": "pass"}, D(kp, R(att("Leipzig", kp), 10), R([10], 2)))
    mi = card(S, 1, "mistaken_identity")
    kp.act(S, {"type": "react", "card": mi, "swap": lovat}, D(kp, R([10, 6], 9), R([10], 1)))
    assert S["players"][0]["vp_pile"] == [{"ship": lovat, "mult": 1, "how": "sunk_m"}]
    assert S["players"][1]["vp_pile"] == [
        {"ship": kp.sid("Mount Temple"), "mult": 1, "how": "sunk_m"}
    ]


def test_6_24_monitor_intercepts_refuge_with_plus_two() -> None:
    S = start(kp, {0: ["monitor"]})
    em = kp.sid("Emden")
    ir = next(c["id"] for c in ACTIONS if c["type"] == "island_refuge")
    kp.from_deck(S, ir)
    S["ships"][em]["refuge"], S["ships"][em]["refuge_turn"] = ir, 0
    m = card(S, 0, "monitor")
    kp.commit(S, m, "act")
    kp.act(S, {"type": "done"})
    assert [a["target"] for a in kp.GAME.legal_actions(S, 0) if a["type"] == "play"] == [em]
    ev = kp.act(S, {"type": "play", "card": m, "target": em},
                D(kp, R([10, 8, 6], 6), R([10, 4], 4)))
    assert kp.of(ev, "roll")[0]["a"] == 8
    assert em not in S["players"][1]["german"]
    assert ir in S["discards"]  # the refuge card follows the sunk ship to the discards
    kp.check_cards(S)


def test_6_25_non_combatant_capture_or_passage_bonus() -> None:
    S = start(kp, {0: ["fair_seas"], 1: ["non_combatant"]})
    fs = card(S, 0, "fair_seas")
    kp.commit(S, fs, "icpt", kp.sid("Leipzig"))
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Bowes Castle")})
    nc = card(S, 1, "non_combatant")
    # 9 - 2 = 7 vs 4: would be damage, ignored; then passage 8 vs 8 with +2
    ev = kp.act(S, {"type": "react", "card": nc}, D(kp, R(att("Leipzig", kp), 9), R([6], 4)))
    assert kp.of(ev, "roll")[0]["a"] == 7
    assert not kp.of(ev, "damaged")
    ev = kp.act(S, {"type": "passage", "ship": kp.sid("Bowes Castle")},
                D(kp, R([8], 5), R([8], 8)))
    assert kp.of(ev, "roll")[0]["a"] == 7
    assert kp.of(ev, "passage_failed")


def test_6_26_pull_the_plug_scuttles_target() -> None:
    S = start(kp, {0: ["fair_seas"], 1: ["pull_the_plug"]})
    fs = card(S, 0, "fair_seas")
    kp.commit(S, fs, "brit")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Emden")})
    kp.act(S, {"type": "react", "card": card(S, 1, "pull_the_plug")})
    assert kp.sid("Emden") in S["german_used"]
    assert S["players"][0]["vp_pile"] == []


def test_6_27_qqq_reveals_and_6_32_phasing_reflag() -> None:
    S = start(kp, {0: ["fair_seas", "reflag"], 1: ["qqq"]})
    fs, rf = card(S, 0, "fair_seas"), card(S, 0, "reflag")
    leo = kp.sid("Leopard")
    kp.commit(S, fs, "icpt", leo)
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Mount Temple")})
    kp.act(S, {"type": "react", "card": card(S, 1, "qqq")},
           D(kp, R(att("Leopard", kp), 5), R([10], 5)))
    ev = kp.act(S, {"type": "pass"})  # Mount Temple stays at sea
    assert kp.of(ev, "revealed")
    assert S["pending"] == {"kind": "reflag", "seat": 0, "ships": [leo]}
    kp.act(S, {"type": "react", "card": rf, "ship": leo})
    assert not S["ships"][leo]["revealed"]
    kp.check_cards(S)


def _torpedo(kp, S, sub_type: str, target: str):
    sub = card(S, 0, sub_type)
    kp.commit(S, sub, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": sub, "target": kp.sid(target)})
    return sub


def test_6_28_q_ship_lure_then_gun_duel() -> None:
    S = start(kp, {0: ["submarine_u"], 1: ["q_ship"]})
    sub = _torpedo(kp, S, "submarine_u", "Mount Temple")
    q = card(S, 1, "q_ship")
    qa, sa = ACTIONS[q], ACTIONS[sub]
    ev = kp.act(S, {"type": "react", "card": q},
                D(kp, R(qa["ch"], 9), R(qa["re"], 2), R(qa["gun"], 10), R(sa["def"], 3),
                  R(sa["gun"], 1), R(qa["def"], 5)))
    assert kp.of(ev, "duel")[0]["results"] == ["sunk", "none"]
    assert S["players"][1]["vp_pile"] == [{"card": sub, "mult": 1, "how": "duel"}]
    kp.check_cards(S)


def test_6_28_q_ship_failed_lure_torpedo_then_depth_charges() -> None:
    S = start(kp, {0: ["submarine_u"], 1: ["q_ship"]})
    sub = _torpedo(kp, S, "submarine_u", "Mount Temple")
    q = card(S, 1, "q_ship")
    qa, sa = ACTIONS[q], ACTIONS[sub]
    ev = kp.act(S, {"type": "react", "card": q},
                D(kp, R(qa["ch"], 2), R(qa["re"], 9), R(sa["torp"], 6), R(qa["def"], 4),
                  R(qa["dc"], 8), R(sa["def"], 2)))
    assert kp.of(ev, "duel")[0]["results"] == ["sunk", "damaged"]
    assert kp.of(ev, "roll")[-1]["a_mod"] == -2  # depth charges "considering damage"


def test_6_29_razzle_dazzle_cancels_torpedo() -> None:
    S = start(kp, {0: ["submarine_u"], 1: ["razzle_dazzle"]})
    _torpedo(kp, S, "submarine_u", "Mount Temple")
    ev = kp.act(S, {"type": "react", "card": card(S, 1, "razzle_dazzle")},
                D(kp, R([10, 8], 9), R([10], 2)))
    assert kp.of(ev, "attack_cancelled")
    assert not kp.of(ev, "result")


def test_6_30_recalled_removes_interceptor() -> None:
    S = start(kp, {0: ["fair_seas"], 1: ["recalled"]})
    fs = card(S, 0, "fair_seas")
    kp.commit(S, fs, "icpt", kp.sid("Leipzig"))
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Mount Temple")})
    kp.act(S, {"type": "pass"}, D(kp, R(att("Leipzig", kp), 10), R([10], 2)))
    assert S["pending"]["kind"] == "post"
    kp.act(S, {"type": "react", "card": card(S, 1, "recalled")}, D(kp, R([10, 6], 9), R([10], 2)))
    assert kp.sid("Leipzig") in S["german_used"]
    assert S["players"][0]["vp_pile"][0]["ship"] == kp.sid("Mount Temple")


def test_6_31_recon_aircraft_takes_two_random() -> None:
    S = start(kp, {0: ["recon_aircraft"], 1: ["reflag", "trap", "qqq"]})
    c = card(S, 0, "recon_aircraft")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    ev = kp.act(S, {"type": "play", "card": c, "target_seat": 1})
    assert len(S["players"][1]["hand"]) == 1
    assert len(S["players"][0]["hand"]) == 2
    assert kp.of(ev, "cards_taken_were")[0]["to"] == [0, 1]


def test_6_32_reflag_cancels_british_interception() -> None:
    S = start(kp, {0: ["fair_seas"], 1: ["reflag"]})
    pef = kp.sid("Prinz Eitel Friedrich")
    S["ships"][pef]["revealed"] = True
    fs = card(S, 0, "fair_seas")
    kp.commit(S, fs, "brit")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": pef})
    ev = kp.act(S, {"type": "react", "card": card(S, 1, "reflag")})
    assert kp.of(ev, "interception_cancelled")
    assert not S["ships"][pef]["revealed"]


def test_6_33_rendezvous_missed_limited_supply() -> None:
    S = start(kp, {0: ["rendezvous_missed"]})
    c = card(S, 0, "rendezvous_missed")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": c, "target_seat": 1},
           D(kp, R([8], 8), R([10], 1), R([8], 1), R([10], 5), R([8], 1), R([10], 5)))
    assert [S["ships"][s]["limited_supply"] for s in S["players"][1]["german"]] == [
        True,
        False,
        False,
    ]


def test_6_34_sail_q_ship_only_for_sailing_merchants() -> None:
    S = start(kp, {0: ["submarine_u"], 1: ["sail_q_ship"]})
    _torpedo(kp, S, "submarine_u", "Mount Temple")
    sq = card(S, 1, "sail_q_ship")
    assert not any(a.get("card") == sq for a in kp.GAME.legal_actions(S, 1))
    S2 = start(kp, {0: ["submarine_u"], 1: ["sail_q_ship"]})
    sub = _torpedo(kp, S2, "submarine_u", "Invercoe")
    qa, sa = ACTIONS[sq], ACTIONS[sub]
    ev = kp.act(S2, {"type": "react", "card": sq},
                D(kp, R(qa["ch"], 1), R(qa["re"], 9), R(sa["torp"], 2), R(qa["def"], 4)))
    assert kp.of(ev, "duel")[0]["results"] == ["none", "none"]  # no depth charges
    assert len(kp.of(ev, "roll")) == 2


def test_6_35_scuttle_damaged_own_ship() -> None:
    S = start(kp, {0: ["scuttle"]})
    S["ships"][kp.sid("Leopard")]["damage"] = 1
    c = card(S, 0, "scuttle")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    assert [a["target"] for a in kp.GAME.legal_actions(S, 0) if a["type"] == "play"] == \
        [kp.sid("Leopard")]
    kp.act(S, {"type": "play", "card": c, "target": kp.sid("Leopard")})
    assert kp.sid("Leopard") in S["german_used"]


def test_6_36_searchlight_only_at_night_and_6_44_surprise_attack() -> None:
    night = [c["id"] for c in ACTIONS if c["night"] and c["kind"] == "N"][0]
    S = start(kp, {0: [night, "searchlight", "surprise_attack"], 1: ["break_contact"]})
    sl, sa = card(S, 0, "searchlight"), card(S, 0, "surprise_attack")
    kp.commit(S, night, "icpt", kp.sid("Leipzig"))
    kp.commit(S, sl, "act")
    kp.commit(S, sa, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": night, "target": kp.sid("Bowes Castle")})
    kp.act(S, {"type": "attach", "card": sl})
    kp.act(S, {"type": "attach", "card": sa})
    assert S["pending"]["kind"] == "react"
    assert kp.GAME.legal_actions(S, 1) == [{"type": "pass"}]  # no Break Contact vs SA/night
    ev = kp.act(S, {"type": "pass"}, D(kp, R(att("Leipzig", kp), 2), R([6], 6)))
    assert kp.of(ev, "roll")[0]["a_mod"] == -1 + 3 + 2


def test_6_37_second_chance_extra_turn() -> None:
    S = start(kp, {0: ["second_chance", "second_chance"]})
    a, b = S["players"][0]["hand"]
    kp.commit(S, a, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": a})
    kp.act(S, {"type": "end_turn"})
    assert S["turn_seat"] == 0
    assert S["this_turn"]["extra"]
    kp.commit(S, b, "act")
    kp.act(S, {"type": "done"})
    assert kp.GAME.legal_actions(S, 0) == [{"type": "end_turn"}]  # not in the extra turn
    kp.act(S, {"type": "end_turn"})
    assert S["turn_seat"] == 1


def test_6_38_shallow_run_escape_and_damage_or_sink() -> None:
    fs, co = DAY[0], DAY[1]
    S = start(kp, {0: [fs, co], 1: ["shallow_run", "shallow_run"]})
    kp.commit(S, fs, "icpt", kp.sid("Leipzig"))
    kp.commit(S, co, "brit")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Bowes Castle")})
    s1, s2 = S["players"][1]["hand"]
    ev = kp.act(S, {"type": "react", "card": s1}, D(kp, R([10, 4], 3), R([10], 5)))
    assert S["ships"][kp.sid("Bowes Castle")]["damage"] == 1
    assert not kp.of(ev, "result")
    em = kp.sid("Emden")
    S["ships"][em]["damage"] = 1
    kp.act(S, {"type": "play", "card": co, "target": em})
    ev = kp.act(S, {"type": "react", "card": s2}, D(kp, R([10, 4], 9), R([10], 8)))
    assert kp.of(ev, "roll")[0]["a"] == 7  # -2 already damaged, failure sinks
    assert S["players"][0]["vp_pile"][-1]["ship"] == em


def test_6_39_shipping_lanes_and_6_40_slim_pickings() -> None:
    S = start(kp, {0: ["fair_seas", "shipping_lanes"], 1: ["slim_pickings"]})
    fs, sl = card(S, 0, "fair_seas"), card(S, 0, "shipping_lanes")
    S["players"][0]["hand"] = [DAY[0], sl]
    kp.from_deck(S, DAY[0]) if DAY[0] in S["action_unseen"] else None
    kp.piles.put(S["action_unseen"], fs)
    fs = DAY[0]
    kp.commit(S, fs, "icpt", kp.sid("Leipzig"))
    kp.commit(S, sl, "act")
    kp.act(S, {"type": "done"})
    bc, inv, mt = kp.sid("Bowes Castle"), kp.sid("Invercoe"), kp.sid("Mount Temple")
    kp.act(S, {"type": "play", "card": fs, "target": bc})
    kp.act(S, {"type": "attach", "card": sl, "extra": sorted([inv, mt])})
    sp = card(S, 1, "slim_pickings")
    assert {"type": "react", "card": sp, "keep": mt} in kp.GAME.legal_actions(S, 1)
    ev = kp.act(S, {"type": "react", "card": sp, "keep": inv},
                D(kp, R(att("Leipzig", kp), 9), R([4], 1)))
    assert kp.of(ev, "interception_reduced")[0]["targets"] == [inv]
    assert S["players"][0]["vp_pile"] == [{"ship": inv, "mult": 1, "how": "sunk_m"}]


def test_6_41_special_cargo_doubles() -> None:
    S = start(kp, {0: ["fair_seas", "special_cargo"]})
    fs, sc = card(S, 0, "fair_seas"), card(S, 0, "special_cargo")
    kp.commit(S, fs, "icpt", kp.sid("Leipzig"))
    kp.commit(S, sc, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Bowes Castle")})
    kp.act(S, {"type": "attach", "card": sc}, D(kp, R(att("Leipzig", kp), 10), R([6], 1)))
    assert S["players"][0]["vp_pile"] == [
        {"ship": kp.sid("Bowes Castle"), "mult": 2, "how": "sunk_m"}
    ]


def test_6_42_submarine_torpedo_and_6_43_uc_mines() -> None:
    S = start(kp, {0: ["submarine_u", "submarine_uc"]})
    u = card(S, 0, "submarine_u")
    uc = card(S, 0, "submarine_uc")
    kp.commit(S, u, "act")
    kp.commit(S, uc, "act")
    kp.act(S, {"type": "done"})
    legal = kp.GAME.legal_actions(S, 0)
    assert {"type": "play", "card": uc, "mode": "mines", "target_seat": 1} in legal
    assert not any(a.get("card") == u and a.get("mode") for a in legal)
    # no prizes as targets without 6.9
    kp.act(S, {"type": "play", "card": u, "target": kp.sid("Bowes Castle")})
    ev = kp.act(S, {"type": "done"}, D(kp, R(ACTIONS[u]["torp"], 6), R([6], 3)))
    assert kp.of(ev, "result")[0]["result"] == "sunk"
    kp.act(S, {"type": "play", "card": uc, "mode": "mines", "target_seat": 1})
    rest = sorted(S["players"][1]["merchants"])
    ev = kp.act(S, {"type": "order_targets", "ships": rest},
                D(kp, R(ACTIONS[uc]["mine"], 2), R([4], 2), R(ACTIONS[uc]["mine"], 1),
                  R([10], 1)))
    assert [e["result"] for e in kp.of(ev, "result")] == ["none", "none"]


def test_6_45_transfer_command_takes_revealed_ship() -> None:
    S = start(kp, {0: ["transfer_command"]})
    em = kp.sid("Emden")
    S["ships"][em]["damage"] = 1
    c = card(S, 0, "transfer_command")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": c, "target": em}, D(kp, R([10], 9), R([10, 4], 3)))
    assert em in S["players"][0]["german"]
    assert S["ships"][em]["owner"] == 0
    assert S["ships"][em]["damage"] == 1


def test_6_46_trap_duel_reveals_raider() -> None:
    S = start(kp, {0: ["fair_seas"], 1: ["trap"]})
    fs = card(S, 0, "fair_seas")
    leo = kp.sid("Leopard")
    kp.commit(S, fs, "icpt", leo)
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": kp.sid("Mount Temple")})
    tr = card(S, 1, "trap")
    ev = kp.act(S, {"type": "react", "card": tr},
                D(kp, R(ACTIONS[tr]["att"], 8), R([8], 4), R(att("Leopard", kp), 3),
                  R([10], 2), R([8], 1), R([10], 9)))
    assert kp.of(ev, "duel")[0]["results"] == ["sunk", "damaged"]
    assert S["players"][1]["vp_pile"][0]["ship"] == leo
    assert S["ships"][kp.sid("Mount Temple")]["damage"] == 1


def test_6_47_wireless_intercept_not_in_consecutive_turns() -> None:
    S = start(kp, {0: ["wireless_intercept", "wireless_intercept", "collier"]})
    w1, w2, co = S["players"][0]["hand"]
    S["discards"] = [co]
    S["players"][0]["hand"].remove(co)
    kp.commit(S, w1, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": w1})
    assert co in S["players"][0]["hand"]
    for _ in range(3):  # three other... seats 1 and 2 pass
        kp.act(S, {"type": "end_turn"}) if S["pending"]["kind"] == "resolve" else \
            kp.act(S, {"type": "done"})
    while S["turn_seat"] != 0:
        kp.act(S, {"type": "done"}) if S["pending"]["kind"] == "commit" else \
            kp.act(S, {"type": "end_turn"})
    kp.commit(S, w2, "act")
    kp.act(S, {"type": "done"})
    assert kp.GAME.legal_actions(S, 0) == [{"type": "end_turn"}]


def test_6_1_every_card_type_has_a_test() -> None:
    import pathlib
    import re

    from lantable.plugins.kaisers_pirates.data import TYPES
    text = pathlib.Path(__file__).read_text()
    tested = set(re.findall(r'"([a-z_]+)"', text))
    assert {t for t, *_ in TYPES} <= tested


def test_random_seeded_card_effects_replay() -> None:
    S = kp.GAME.setup(2, {}, random.Random(11))
    assert S == kp.GAME.setup(2, {}, random.Random(11))


def test_5_9_prize_survives_british_interception_then_passage_double() -> None:
    S = start(kp, {0: [DAY[0]]})
    inv = kp.sid("Invercoe")
    S["players"][1]["merchants"].remove(inv)
    S["players"][1]["german"].append(inv)
    S["ships"][inv]["prize"] = True
    S["ships"][inv]["revealed"] = True
    kp.commit(S, DAY[0], "brit")
    kp.act(S, {"type": "done"})
    dice = ACTIONS[DAY[0]]["icpt"]
    kp.act(S, {"type": "play", "card": DAY[0], "target": inv}, D(kp, R(dice, 1), R([4], 4)))
    assert S["pending"] == {"kind": "passage", "seat": 1, "ships": [inv]}
    kp.act(S, {"type": "passage", "ship": inv}, D(kp, R([6], 6), R([8], 1)))
    assert S["players"][1]["vp_pile"] == [{"ship": inv, "mult": 2, "how": "passage"}]


def test_6_2_blockade_runner_prize_bonus_and_6_33_prize_penalty() -> None:
    S = start(kp, {0: ["blockade_runner", "rendezvous_missed"]})
    lovat = kp.sid("Lovat")
    S["players"][0]["merchants"].remove(lovat)
    S["players"][0]["german"].append(lovat)
    S["ships"][lovat]["prize"] = True
    S["ships"][kp.sid("Leipzig")]["limited_supply"] = True
    br, rm = card(S, 0, "blockade_runner"), card(S, 0, "rendezvous_missed")
    kp.commit(S, br, "act")
    kp.commit(S, rm, "act")
    kp.act(S, {"type": "done"})
    ev = kp.act(S, {"type": "play", "card": br}, D(kp, R([10, 6], 1), R([10], 9)))
    assert kp.of(ev, "roll")[0]["a_mod"] == 2
    pef = kp.sid("Prinz Eitel Friedrich")
    S["players"][1]["merchants"].remove(kp.sid("Invercoe"))
    S["players"][1]["german"].append(kp.sid("Invercoe"))
    S["ships"][kp.sid("Invercoe")]["prize"] = True
    ev = kp.act(S, {"type": "play", "card": rm, "target_seat": 1})
    assert [e["a_mod"] for e in kp.of(ev, "roll")] == [-2, -2, -2]  # prize ignored itself
    assert pef in S["players"][1]["german"]


def test_6_20_refuge_repair_and_resupply_at_later_turn_start() -> None:
    S = start(kp, {0: ["island_refuge"]})
    lz = kp.sid("Leipzig")
    S["ships"][lz]["damage"] = 1
    S["ships"][lz]["limited_supply"] = True
    c = card(S, 0, "island_refuge")
    kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    ir = ACTIONS[c]
    ev = kp.act(S, {"type": "play", "card": c, "target": lz},
                D(kp, R(ir["ch"], 1), R(ir["re"], 5), R(ir["ch2"], 1), R(ir["re2"], 5)))
    assert [e["what"] for e in kp.of(ev, "roll")] == ["refuge_repair", "refuge_resupply"]
    assert S["ships"][lz]["damage"] == 1
    S["players"][1]["hand"] = []
    S["players"][2]["hand"] = []
    kp.act(S, {"type": "end_turn"})
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "end_turn"})
    kp.act(S, {"type": "done"})
    ev = kp.act(S, {"type": "end_turn"},
                D(kp, R(ir["ch"], 9), R(ir["re"], 1), R(ir["ch2"], 9), R(ir["re2"], 1)))
    assert S["turn_seat"] == 0
    assert S["ships"][lz]["damage"] == 0
    assert not S["ships"][lz]["limited_supply"]
    # Heavy Weather and British interceptions cannot reach it
    assert kp.GAME.legal_actions(S, 0)[-1] == {"type": "done"}
    assert {"type": "leave_refuge", "ship": lz} in kp.GAME.legal_actions(S, 0)


def test_6_37_no_wireless_intercept_in_the_extra_turn() -> None:
    S = start(kp, {0: ["second_chance", "wireless_intercept"]})
    sc, wi = S["players"][0]["hand"]
    S["discards"] = [S["action_unseen"].pop(0), S["action_unseen"].pop(0)]
    kp.commit(S, sc, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": sc})
    kp.act(S, {"type": "end_turn"})
    assert S["this_turn"]["extra"]
    kp.commit(S, wi, "act")
    kp.act(S, {"type": "done"})
    assert kp.GAME.legal_actions(S, 0) == [{"type": "end_turn"}]
