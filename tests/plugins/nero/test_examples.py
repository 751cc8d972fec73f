"""Every worked example of digest Appendix A, with its numbers.

Seats: 0 = Tom (or Peter where the example has no Tom), 1 = Frank/Peter/Marcus,
2 = Tom/Frank; each test says who is who.
"""

from __future__ import annotations

from lantable.plugins.nero import board as B
from lantable.plugins.nero import events as E
from lantable.plugins.nero import moves as M
from lantable.plugins.nero.data import WEST
from lantable.plugins.nero.state import new_legion

from . import helpers as nx


def test_a1_area_control_11_2() -> None:
    """P = 0, F = 1, T = 2. P controls West Europe; one more Legion in Britannia ends it."""
    S = nx.board(legions={"Britannia": {0: 1}, "Gallia Narbonensis": {0: 2, 2: 1},
                          "Hispania": {0: 2}, "Lusitania": {1: 1}}, park="Aegyptus")
    assert B.province_owner(S, nx.P["Britannia"]) == 0
    assert B.province_owner(S, nx.P["Gallia Narbonensis"]) == 0
    assert B.province_owner(S, nx.P["Hispania"]) == 0
    assert B.area_owner(S, WEST) == 0
    S["legions"].append(new_legion(2, nx.P["Britannia"]))  # T moves a Legion in (1-1)
    assert B.province_owner(S, nx.P["Britannia"]) is None
    assert B.area_owner(S, WEST) is None


def test_a2_legion_superiority_7_1() -> None:
    """Italy: P (0) 5, T (1) 1, F (2) 2: P gets 5 - (1 + 2) = 2 DP."""
    S = nx.board(legions={"Italia del Nord": {0: 3, 1: 1}, "Italia del Sud": {0: 2, 2: 2}},
                 park="Dacia")
    assert B.italy_superiority(S, 0) == 2
    assert B.italy_superiority(S, 1) == 0


def _rome(nx, frank_cards: list[int]):
    senate = nx.cards("senate")[:2]
    guard = nx.cards("praetorian")[0]
    S = nx.board(legions={"Italia del Nord": {0: 4}, "Italia del Sud": {1: 3},
                          "Judaea": {0: 1}, "Syria": {0: 1}, "Aegyptus": {0: 1}},
                 leaders={0: "Roma"}, hands={0: senate + [guard], 1: frank_cards}, park="Dacia")
    return S, senate + [guard]


def test_a3_declaration_in_rome_7_1() -> None:
    """Tom (0): 1 DP from Italy, 2 from Asia/Africa, 2 Senate + 1 Guard: 6 >= 5."""
    S, hand = _rome(nx, [])
    assert B.base_dp(S, 0) == 3
    ev = nx.play(S, 0, {"type": "declare", "cards": hand})
    declared = next(e for e in ev if e["type"] == "declared")
    assert declared["dp"] == 6
    assert declared["crowned"]
    assert S["leaders"][0]["rank"] == B.EMPEROR


def test_a3_two_corruptions_stop_the_declaration_7_1() -> None:
    """Frank (1) cancels both Senate Influence cards: 4 DP (A8: the source says 3), fails."""
    S, hand = _rome(nx, nx.cards("corruption")[:2])
    S["options"]["reactions"] = "holders"  # the script asks only the holders
    nx.play(S, 0, {"type": "declare", "cards": hand})
    assert nx.GAME.to_act(S) == [1]
    nx.play(S, 1, {"type": "answer", "card": nx.cards("corruption")[0]})
    # Frank's last fitting card is gone, so he is not asked again: the window closes.
    ev = nx.play(S, 1, {"type": "answer", "card": nx.cards("corruption")[1]})
    declared = next(e for e in ev if e["type"] == "declared")
    assert declared["dp"] == 4
    assert not declared["crowned"]
    assert S["leaders"][0]["rank"] == B.GENERAL


def test_a4_movement_with_pick_up_5_4() -> None:
    """3 Legions in Aegyptus, a 4-MP card: Judaea (1) + pick-up (1) + Syria + Asia Minor."""
    four = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Aegyptus": {0: 3}, "Judaea": {0: 1}}, hands={0: [four]},
                 park="Dacia")
    nx.play(S, 0, {"type": "march", "cards": [four], "from": nx.P["Aegyptus"], "legions": 3,
                   "leader": False})
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    nx.play(S, 0, {"type": "pick", "kind": "own"})
    assert len(S["movement"]["group"]["legions"]) == 4
    nx.play(S, 0, {"type": "step", "to": nx.P["Syria"]})
    nx.play(S, 0, {"type": "step", "to": nx.P["Asia Minor"]})
    assert nx.count(S, "Asia Minor", 0) == 4
    assert S["movement"] is None  # 4 MP spent: the movement is over


def _battle(nx, S, att_cards=(), def_cards=()):
    top = S["pending"][-1]
    assert top["kind"] == "battle"
    ev = nx.play(S, top["attacker"], {"type": "commit", "cards": list(att_cards)})
    ev += nx.play(S, top["defender"], {"type": "commit", "cards": list(def_cards)})
    return ev


def test_a5_war_fatigue_5_3() -> None:
    """After two won battles, entering costs 3 MP and attacking costs 3 MP."""
    fives = [nx.card("crisis", mp=5), nx.card("revolt", mp=5)]
    S = nx.board(legions={"Syria": {0: 5}, "Judaea": {1: 1}, "Aegyptus": {1: 1}},
                 hands={0: fives}, park="Dacia")
    nx.play(S, 0, {"type": "march", "cards": fives, "from": nx.P["Syria"], "legions": 5,
                   "leader": False})
    assert S["movement"]["pool"] == 10
    for prov, cost in (("Judaea", 1), ("Aegyptus", 2)):
        pool = S["movement"]["pool"]
        nx.play(S, 0, {"type": "step", "to": nx.P[prov]})
        nx.play(S, 1, {"type": "stay"})
        nx.play(S, 0, {"type": "attack", "seat": 1})
        assert S["movement"]["pool"] == pool - 2 * cost
        ev = _battle(nx, S)
        assert "battle_won" in nx.types(ev)
    g = S["movement"]["group"]
    assert g["battles"] == 2
    assert M.step_cost(S, g, nx.P["Africa"]) == 3
    assert M.attack_cost(g) == 3


def test_a6_passage_5_5() -> None:
    """Peter (0): Thracia -> Dalmatia (1 MP), Tom (1) grants passage: +1, 2 MP in all (A8)."""
    four = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Thracia": {0: 3}, "Dalmatia": {1: 1}}, hands={0: [four]},
                 park="Aegyptus")
    nx.play(S, 0, {"type": "march", "cards": [four], "from": nx.P["Thracia"], "legions": 3,
                   "leader": False})
    nx.play(S, 0, {"type": "step", "to": nx.P["Dalmatia"]})
    nx.play(S, 1, {"type": "stay"})
    assert {"type": "step", "to": nx.P["Italia del Nord"]} not in nx.GAME.legal_actions(S, 0)
    nx.play(S, 0, {"type": "passage"})
    nx.play(S, 1, {"type": "grant"})
    assert S["movement"]["pool"] == 2
    nx.play(S, 0, {"type": "step", "to": nx.P["Italia del Nord"]})
    assert nx.count(S, "Italia del Nord", 0) == 3


def test_a7_no_passage_5_5() -> None:
    """Peter's (0) Legion stops in Dalmatia (Marcus, 1, refuses); next round it leaves."""
    c1, c2 = nx.card("bad_weather", mp=4), nx.card("bad_weather", mp=3)
    S = nx.board(legions={"Thracia": {0: 1}, "Dalmatia": {1: 3}}, hands={0: [c1, c2]},
                 park="Aegyptus")
    nx.play(S, 0, {"type": "march", "cards": [c1], "from": nx.P["Thracia"], "legions": 1,
                   "leader": False})
    nx.play(S, 0, {"type": "step", "to": nx.P["Dalmatia"]})
    nx.play(S, 1, {"type": "stay"})
    nx.play(S, 0, {"type": "passage"})
    nx.play(S, 1, {"type": "refuse"})
    legal = nx.GAME.legal_actions(S, 0)
    assert not [a for a in legal if a["type"] in ("step", "passage")]
    nx.play(S, 0, {"type": "halt"})
    # Peter's next round: leaving is free.
    S["active"], S["cards_used"] = 0, 0
    for lg in S["legions"]:
        lg["moved"] = False
    nx.play(S, 0, {"type": "march", "cards": [c2], "from": nx.P["Dalmatia"], "legions": 1,
                   "leader": False})
    nx.play(S, 0, {"type": "step", "to": nx.P["Italia del Nord"]})
    assert nx.count(S, "Italia del Nord", 0) == 1
    assert S["movement"]["pool"] == 2


def test_a8_retreat_5_6() -> None:
    """Frank (0): 2 Legions Judaea -> Syria; Tom (1) retreats his 1 to Asia Minor (2 more
    there), under a Retreat marker; Frank pays nothing extra."""
    four = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Judaea": {0: 2}, "Syria": {1: 1}, "Asia Minor": {1: 2}},
                 hands={0: [four]}, park="Dacia")
    nx.play(S, 0, {"type": "march", "cards": [four], "from": nx.P["Judaea"], "legions": 2,
                   "leader": False})
    nx.play(S, 0, {"type": "step", "to": nx.P["Syria"]})
    assert {"type": "retreat", "to": nx.P["Asia Minor"]} in nx.GAME.legal_actions(S, 1)
    assert {"type": "retreat", "to": nx.P["Judaea"]} not in nx.GAME.legal_actions(S, 1)
    nx.play(S, 1, {"type": "retreat", "to": nx.P["Asia Minor"]})
    assert nx.count(S, "Asia Minor", 1) == 3
    assert sum(1 for lg in S["legions"] if lg["owner"] == 1 and lg["retreat_marker"]) == 1
    assert S["movement"]["pool"] == 3
    assert S["movement"]["group"]["blocked_by"] == []


def test_a9_battle_6() -> None:
    """Tom (0) 3 Legions + a 3-BP card = 6; Peter (1) 2 Legions + Contender + two 2-BP
    cards = 7. Peter wins and takes one of Tom's Legions; Tom stays; Peter stays Contender."""
    move = nx.card("bad_weather", mp=4)
    three = nx.card("crisis", bp=3)
    twos = [nx.card("bad_omens", bp=2), nx.card("bad_weather", bp=2)]
    S = nx.board(legions={"Germania Inferior": {0: 3}, "Germania Superior": {1: 2}},
                 leaders={1: "Germania Superior"}, hands={0: [move, three], 1: twos},
                 park="Dacia")
    S["leaders"][1]["rank"] = B.CONTENDER
    nx.play(S, 0, {"type": "march", "cards": [move], "from": nx.P["Germania Inferior"],
                   "legions": 3, "leader": False})
    assert nx.GAME.to_act(S) == [1]  # Peter holds Bad Weather: he may stop the army now
    nx.play(S, 1, {"type": "pass"})
    nx.play(S, 0, {"type": "step", "to": nx.P["Germania Superior"]})
    nx.play(S, 1, {"type": "pass"})  # ... or as it enters
    nx.play(S, 1, {"type": "stay"})
    nx.play(S, 0, {"type": "attack", "seat": 1})
    nx.play(S, 1, {"type": "pass"})
    ev = _battle(nx, S, [three], twos)
    battle = next(e for e in ev if e["type"] == "battle")
    assert (battle["att_bp"], battle["def_bp"]) == (6, 7)
    assert next(e for e in ev if e["type"] == "battle_won")["seat"] == 1
    nx.play(S, 0, {"type": "stay"})
    assert nx.count(S, "Germania Superior", 0) == 2
    assert nx.count(S, "Germania Superior", 1) == 3
    assert S["leaders"][1]["rank"] == B.CONTENDER


def test_a10_legion_declaration_precondition_7_2() -> None:
    """Frank's (1) Base is Central Europe; his General and a Legion in Germania Superior;
    he also needs Central Europe."""
    S = nx.board(legions={"Germania Superior": {1: 1}}, leaders={1: "Germania Superior"},
                 park="Dacia", act=1, hands={1: [nx.cards("legion_declares")[0]]})
    assert not E.can_declare_legions(S, 1)
    S = nx.board(legions={"Germania Superior": {1: 1}, "Raetia": {1: 1}, "Noricum": {1: 1}},
                 leaders={1: "Germania Superior"}, park="Dacia", act=1,
                 hands={1: [nx.cards("legion_declares")[0]]})
    assert E.can_declare_legions(S, 1)
    nx.play(S, 1, {"type": "event", "card": nx.cards("legion_declares")[0]})
    assert S["leaders"][1]["rank"] == B.CONTENDER


def test_a11_last_player_4_3() -> None:
    """Peter (0) holds 6 cards, all others none: he uses up to 4, then the phase ends."""
    six = nx.cards("senate")
    S = nx.board(hands={0: six, 1: [nx.cards("corruption")[0]]}, act=1, park="Dacia")
    nx.play(S, 1, {"type": "discard", "card": nx.cards("corruption")[0]})
    assert S["active"] == 0
    assert S["final_round"]
    for c in six[:3]:
        nx.play(S, 0, {"type": "discard", "card": c})
    ev = nx.play(S, 0, {"type": "discard", "card": six[3]})
    assert "scored" in nx.types(ev)
    assert S["game_turn"] == 2
