"""Appendix B: the rulebook's worked 3-player example (R 3.2.9), replayed with fixed dice.

P1, P2, P3 are seats 0, 1, 2. Every die is scripted in the order the engine rolls.
"""

from __future__ import annotations

from lantable.plugins.kaisers_pirates.data import ACTIONS

from . import helpers as kp


def _card(S, seat: int, t: str) -> int:
    return next(c for c in S["players"][seat]["hand"] if ACTIONS[c]["type"] == t)


def test_appendix_b_worked_three_player_example() -> None:
    S = kp.table(
        forces={0: {"ger": ["Emden", "Geier", "Iltis"], "mer": ["Matheran", "Lovat", "Maria"]},
                1: {"ger": ["Leopard", "Prinz Eitel Friedrich", "Cormoran"],
                    "mer": ["Bowes Castle", "Invercoe", "Mount Temple"]},
                2: {"ger": ["Meteor", "Karlsruhe", "Greif"],
                    "mer": ["Kaipara", "Appam", "Lundy Island"]}},
        hands={0: ["recalled", "surprise_attack", "qqq", "fast_ship", "collier"],
               1: ["shallow_run", "lay_mines", "good_hunting", "boarding_party", "submarine_u"],
               2: ["fair_seas", "lay_mines", "intelligence", "deception"]})
    sid = kp.sid
    leopard, pef = sid("Leopard"), sid("Prinz Eitel Friedrich")
    S["ships"][leopard]["revealed"] = True
    S["ships"][sid("Maria")]["damage"] = 1
    assert ACTIONS[_card(S, 1, "submarine_u")]["ship"] == "U-27"

    # --- Player 1: Recalled as a British interception + Surprise Attack vs Leopard
    rec, sa = _card(S, 0, "recalled"), _card(S, 0, "surprise_attack")
    kp.commit(S, rec, "brit")
    kp.commit(S, sa, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": rec, "target": leopard})
    kp.act(S, {"type": "attach", "card": sa})
    # P2's only reaction, Shallow Run, is barred by Surprise Attack
    assert kp.GAME.legal_actions(S, 1) == [{"type": "pass"}]
    ev = kp.act(S, {"type": "pass"}, kp.Dice((10, 4), (8, 6), (8, 4)))
    roll = kp.of(ev, "roll")[0]
    assert (roll["a"], roll["d"]) == (8, 4)  # 6 + 2 = 8 >= 2 x 4
    assert S["players"][0]["vp_pile"] == [{"ship": leopard, "mult": 1, "how": "sunk"}]
    kp.act(S, {"type": "end_turn"})
    ev = kp.act(S, {"type": "discard", "top": [rec, sa]})  # P1 orders his discards
    assert kp.of(ev, "discarded")[0]["cards"] == [rec, sa]
    assert len(S["players"][0]["hand"]) == 4  # QQQ, Fast Ship, Collier + 1 drawn
    assert S["turn_seat"] == 1

    # --- Player 2: Lay Mines as an interception on PEF + Good Hunting, Boarding Party, U-27
    lm, gh = _card(S, 1, "lay_mines"), _card(S, 1, "good_hunting")
    bp, u27 = _card(S, 1, "boarding_party"), _card(S, 1, "submarine_u")
    kp.commit(S, lm, "icpt", pef)
    for c in (gh, bp, u27):
        kp.commit(S, c, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": lm, "target": sid("Matheran")})
    kp.act(S, {"type": "attach", "card": gh, "extra": [sid("Lovat")]})
    kp.act(S, {"type": "done"})  # no more Assist cards now
    kp.act(S, {"type": "done"})  # Boarding Party stays face down for Matheran
    # vs Matheran: QQQ; PEF 5,2 -> 5 vs Matheran 6: no effect; Passage 5 vs 4
    ev = kp.act(S, {"type": "react", "card": _card(S, 0, "qqq")},
                kp.Dice((10, 5), (8, 2), (8, 6)))
    assert kp.of(ev, "result")[0]["result"] == "none"
    kp.act(S, {"type": "passage", "ship": sid("Matheran")}, kp.Dice((6, 5), (8, 4)))  # P1 tries
    assert {"ship": sid("Matheran"), "mult": 1, "how": "passage"} in S["players"][0]["vp_pile"]
    # vs Lovat: Boarding Party, P1 answers with Fast Ship; 8 - 2 = 6 vs 2 -> captured
    kp.act(S, {"type": "board", "card": bp})
    ev = kp.act(S, {"type": "react", "card": _card(S, 0, "fast_ship")},
                kp.Dice((10, 8), (8, 2), (8, 2)))
    roll = kp.of(ev, "roll")[0]
    assert (roll["a"], roll["d"]) == (6, 2)
    assert kp.of(ev, "captured")
    assert sid("Lovat") in S["players"][1]["german"]
    assert S["ships"][pef]["revealed"]  # QQQ reveals PEF at the end of the interception
    assert S["pending"] == {"kind": "reflag", "seat": 1, "ships": [pef]}
    kp.act(S, {"type": "pass"})
    # U-27 torpedoes the damaged Maria: 4,5,3 -> 5 vs 2 - 2 -> 1: sunk
    kp.act(S, {"type": "play", "card": u27, "target": sid("Maria")})
    ev = kp.act(S, {"type": "pass"}, kp.Dice((10, 4), (6, 5), (4, 3), (6, 2)))
    roll = kp.of(ev, "roll")[0]
    assert (roll["a"], roll["d"]) == (5, 1)
    assert S["players"][1]["vp_pile"] == [{"ship": sid("Maria"), "mult": 1, "how": "sunk_m"}]
    kp.act(S, {"type": "pass"})  # P1 could answer the sinking with Mistaken Identity
    kp.act(S, {"type": "end_turn"})
    kp.act(S, {"type": "discard", "top": [bp, u27]})
    assert S["pending"] == {
        "kind": "discard",
        "seat": 0,
    }  # then P1 orders his two reactions (3.1.5)
    qqq, fast = (c for _s, c in S["this_turn"]["reactions"])
    ev = kp.act(S, {"type": "discard", "top": [qqq, fast]})
    assert kp.of(ev, "discarded")[0]["cards"] == [lm, gh, bp, u27, qqq, fast]
    assert len(kp.of(ev, "merchant_drawn")) == 3
    assert len(S["players"][0]["merchants"]) == 3
    assert S["turn_seat"] == 2

    # --- Player 3: Fair Seas British interception, Lay Mines on Meteor, Intelligence, Deception
    fs, lm3 = _card(S, 2, "fair_seas"), _card(S, 2, "lay_mines")
    intel, dec = _card(S, 2, "intelligence"), _card(S, 2, "deception")
    kp.commit(S, fs, "brit")
    kp.commit(S, lm3, "mines", sid("Meteor"))
    kp.commit(S, intel, "act")
    kp.commit(S, dec, "act")
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "play", "card": fs, "target": pef})
    kp.act(S, {"type": "done"})  # no Assist
    # P2's Shallow Run: escape; crossing 6 vs 9 fails -> PEF damaged
    ev = kp.act(S, {"type": "react", "card": _card(S, 1, "shallow_run")},
                kp.Dice((10, 6), (4, 3), (10, 9)))
    assert kp.of(ev, "interception_cancelled")
    assert S["ships"][pef]["damage"] == 1
    # mines in P3's chosen order: Bowes Castle 7 vs 4, Invercoe 4 vs 2, Mount Temple 5 vs 5
    kp.act(S, {"type": "play", "card": lm3, "target_seat": 1})
    kp.act(S, {"type": "done"})
    kp.act(S, {"type": "pass"})  # no Minesweeper
    order = [sid("Bowes Castle"), sid("Invercoe"), sid("Mount Temple")]
    ev = kp.act(S, {"type": "order_targets", "ships": order},
                kp.Dice((10, 7), (4, 1), (6, 4), (10, 1), (4, 4), (4, 2)))
    assert [e["result"] for e in kp.of(ev, "result")] == ["damaged", "sunk"]
    ev = kp.act(S, {"type": "pass"}, kp.Dice((10, 5), (4, 1), (10, 5)))  # no Mistaken Identity
    assert [e["result"] for e in kp.of(ev, "result")] == ["none"]
    assert not kp.of(ev, "passage_failed")  # no Passage after mines
    assert S["ships"][sid("Bowes Castle")]["damage"] == 1
    assert S["players"][2]["vp_pile"] == [{"ship": sid("Invercoe"), "mult": 1, "how": "sunk_m"}]
    kp.act(S, {"type": "play", "card": dec, "target_seat": 0})
    # after each later card P2 may still answer Invercoe's sinking (3.3.23): he does not
    assert S["pending"] == {"kind": "late", "seat": 1}
    kp.act(S, {"type": "pass"})
    kp.act(S, {"type": "play", "card": intel, "mode": "deck"})
    top = S["action_deck_top"][:3]
    kp.act(S, {"type": "order", "cards": sorted(top)})
    kp.act(S, {"type": "pass"})
    kp.act(S, {"type": "end_turn"})
    ev = kp.act(S, {"type": "discard", "top": [lm3, intel]})
    assert sorted(kp.of(ev, "discarded")[0]["cards"]) == sorted([fs, lm3, intel, S["discards"][-1]])
    assert S["players"][0]["wait"] == {"card_type": "deception", "card": dec}
    assert sorted(top)[0] in S["players"][2]["hand"]  # P3 drew the card he put on top
    assert len(kp.of(ev, "merchant_drawn")) == 1
    assert len(S["players"][1]["merchants"]) == 3
    kp.check_cards(S)
