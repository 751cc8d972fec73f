"""Every card's Event (digest 6.2 #1-#14) and its timing, named after its number."""

from __future__ import annotations

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.nero import board as B
from lantable.plugins.nero.data import ASIA, CENTRAL, ROME

from . import helpers as nx


def _ev(nx, key: str, k: int = 0) -> int:
    return nx.cards(key)[k]


# --- 1 Assassin (with 11 Praetorian Guard and 4 Corruption) ------------------------


def _assassination(nx, hands, **options):
    S = nx.board(leaders={1: "Roma"}, hands=hands, park="Dacia", **options)
    S["leaders"][1]["rank"] = B.EMPEROR
    return S


def test_6_2_01_assassin_unopposed_succeeds() -> None:
    S = _assassination(nx, {0: [_ev(nx, "assassin")]})
    ev = nx.play(S, 0, {"type": "event", "card": _ev(nx, "assassin"), "target": 1,
                        "guards": [], "corr": []})
    assert {"type": "assassinated", "seat": 1} in ev
    assert S["leaders"][1] == {"location": ROME, "rank": B.GENERAL, "moved": False}


def test_6_2_01_assassin_only_an_emperor_in_rome() -> None:
    S = _assassination(nx, {0: [_ev(nx, "assassin")]})
    S["leaders"][1]["location"] = nx.P["Syria"]
    assert not [a for a in nx.GAME.legal_actions(S, 0) if a["type"] == "event"]
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "event", "card": _ev(nx, "assassin"), "target": 1,
                       "guards": [], "corr": []})


def test_6_2_11_praetorian_guard_blocks_an_unprotected_attempt() -> None:
    S = _assassination(nx, {0: [_ev(nx, "assassin")], 2: [_ev(nx, "praetorian")]})
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "assassin"), "target": 1,
                   "guards": [], "corr": []})
    assert nx.GAME.to_act(S) == [2]
    ev = nx.play(S, 2, {"type": "answer", "card": _ev(nx, "praetorian"), "use": "block"})
    assert {"type": "assassination_failed", "seat": 1} in ev
    assert S["leaders"][1]["rank"] == B.EMPEROR


def test_6_2_11_protecting_guard_must_be_stripped_first() -> None:
    g = nx.cards("praetorian")
    S = _assassination(nx, {0: [_ev(nx, "assassin"), g[0]], 2: [g[1]], 3: [g[2]]})
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "assassin"), "target": 1,
                   "guards": [g[0]], "corr": []})
    legal = nx.GAME.legal_actions(S, 2)
    assert {"type": "answer", "card": g[1], "use": "strip"} in legal
    assert not [a for a in legal if a.get("use") == "block"]
    nx.play(S, 2, {"type": "answer", "card": g[1], "use": "strip"})
    nx.play(S, 2, {"type": "pass"})
    ev = nx.play(S, 3, {"type": "answer", "card": g[2], "use": "block"})
    assert "assassination_failed" in nx.types(ev)


def test_6_2_04_two_corruptions_strip_a_guard_but_do_not_block() -> None:
    g = nx.cards("praetorian")
    c = nx.cards("corruption")
    S = _assassination(nx, {0: [_ev(nx, "assassin"), g[0]], 2: [c[0]], 3: [c[1]]})
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "assassin"), "target": 1,
                   "guards": [g[0]], "corr": []})
    nx.play(S, 2, {"type": "answer", "card": c[0], "use": "corrupt"})
    nx.play(S, 2, {"type": "pass"})
    ev = nx.play(S, 3, {"type": "answer", "card": c[1], "use": "corrupt"})
    assert S["pending"][-1]["guards"] == 0
    ev = nx.play(S, 3, {"type": "pass"})
    assert {"type": "assassinated", "seat": 1} in ev


def test_6_2_01_a2_assassins_corruption_voids_a_blocking_guard() -> None:
    c = nx.cards("corruption")
    g = nx.cards("praetorian")
    S = _assassination(nx, {0: [_ev(nx, "assassin"), c[0], c[1]], 2: [g[0]]})
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "assassin"), "target": 1,
                   "guards": [], "corr": [c[0], c[1]]})
    nx.play(S, 2, {"type": "answer", "card": g[0], "use": "block"})
    ev = nx.play(S, 2, {"type": "pass"})
    assert {"type": "assassinated", "seat": 1} in ev
    S = _assassination(nx, {0: [_ev(nx, "assassin"), c[0], c[1]]},
                       a2_assassin_corruption="strict")
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "event", "card": _ev(nx, "assassin"), "target": 1,
                       "guards": [], "corr": [c[0], c[1]]})


# --- 2 Bad Omens ------------------------------------------------------------------


def _crisis(nx, hands):
    S = nx.board(leaders={1: "Syria"}, hands=hands, park="Dacia")
    S["leaders"][1]["rank"] = B.EMPEROR
    return S


def test_6_2_02_bad_omens_cancels_an_event() -> None:
    S = _crisis(nx, {0: [_ev(nx, "crisis")], 2: [_ev(nx, "bad_omens")]})
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "crisis"), "target": 1})
    assert nx.GAME.to_act(S) == [2]  # only the holder is asked
    ev = nx.play(S, 2, {"type": "answer", "card": _ev(nx, "bad_omens")})
    assert "cancelled" in nx.types(ev)
    assert S["leaders"][1]["location"] == nx.P["Syria"]


def test_6_2_02_bad_omens_on_bad_omens() -> None:
    S = _crisis(nx, {0: [_ev(nx, "crisis")], 2: [_ev(nx, "bad_omens", 0)],
                     3: [_ev(nx, "bad_omens", 1)]})
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "crisis"), "target": 1})
    nx.play(S, 2, {"type": "answer", "card": _ev(nx, "bad_omens", 0)})
    assert nx.GAME.to_act(S) == [3]
    ev = nx.play(S, 3, {"type": "answer", "card": _ev(nx, "bad_omens", 1)})
    assert {"type": "to_rome", "seat": 1} in ev


def test_6_2_02_bad_omens_never_against_legion_declares() -> None:
    S = nx.board(legions={p: {1: 1} for p in ("Germania Superior", "Raetia", "Noricum")},
                 leaders={1: "Germania Superior"}, act=1,
                 hands={1: [_ev(nx, "legion_declares")], 2: [_ev(nx, "bad_omens")]},
                 park="Dacia")
    ev = nx.play(S, 1, {"type": "event", "card": _ev(nx, "legion_declares")})
    assert "acclaimed" in nx.types(ev)


# --- 3 Bad Weather and 5 Wounded General ------------------------------------------


def test_6_2_03_bad_weather_stops_an_army_for_the_round() -> None:
    a = nx.card("galley", mp=4)
    S = nx.board(legions={"Syria": {0: 3}}, hands={0: [a, nx.card("crisis", mp=5)],
                                                   1: [_ev(nx, "bad_weather")]}, park="Dacia")
    S["options"]["reactions"] = "holders"  # the script asks only the holders
    nx.play(S, 0, {"type": "march", "cards": [a], "from": nx.P["Syria"], "legions": 3,
                   "leader": False})
    ev = nx.play(S, 1, {"type": "answer", "card": _ev(nx, "bad_weather")})
    assert "halted" in nx.types(ev)
    assert nx.count(S, "Syria", 0) == 3
    assert all(lg["moved"] for lg in S["legions"]
               if lg["owner"] == 0 and lg["province"] == nx.P["Syria"])
    assert not [a for a in nx.GAME.legal_actions(S, 0)
                if a["type"] == "march" and a["from"] == nx.P["Syria"]]


def test_6_2_03_a23_bad_weather_cancels_an_announced_attack() -> None:
    a = nx.card("galley", mp=4)
    S = nx.board(legions={"Judaea": {0: 3}, "Syria": {1: 1}},
                 hands={0: [a], 2: [_ev(nx, "bad_weather")]}, park="Dacia")
    nx.play(S, 0, {"type": "march", "cards": [a], "from": nx.P["Judaea"], "legions": 3,
                   "leader": False})
    nx.play(S, 2, {"type": "pass"})
    nx.play(S, 0, {"type": "step", "to": nx.P["Syria"]})
    nx.play(S, 2, {"type": "pass"})
    nx.play(S, 1, {"type": "stay"})
    nx.play(S, 0, {"type": "attack", "seat": 1})
    ev = nx.play(S, 2, {"type": "answer", "card": _ev(nx, "bad_weather")})
    assert "attack_cancelled" in nx.types(ev)
    assert "battle" not in nx.types(ev)


def test_6_2_05_wounded_general_stops_the_leader_not_the_legions() -> None:
    a = nx.card("galley", mp=4)
    S = nx.board(legions={"Syria": {0: 2}}, leaders={0: "Syria"},
                 hands={0: [a], 1: [_ev(nx, "wounded")]}, park="Dacia")
    nx.play(S, 0, {"type": "march", "cards": [a], "from": nx.P["Syria"], "legions": 2,
                   "leader": True})
    nx.play(S, 1, {"type": "answer", "card": _ev(nx, "wounded")})
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    assert S["leaders"][0]["location"] == nx.P["Syria"]
    assert nx.count(S, "Judaea", 0) == 2


def test_6_2_05_wounded_never_against_an_emperor() -> None:
    a = nx.card("galley", mp=4)
    S = nx.board(leaders={0: "Syria"}, hands={0: [a], 1: [_ev(nx, "wounded")]}, park="Dacia")
    S["leaders"][0]["rank"] = B.EMPEROR
    nx.play(S, 0, {"type": "march", "cards": [a], "from": nx.P["Syria"], "legions": 0,
                   "leader": True})
    assert nx.GAME.to_act(S) == [0]


# --- 6 Crisis in Rome ---------------------------------------------------------------


def test_6_2_06_crisis_in_rome() -> None:
    S = nx.board(legions={"Syria": {1: 2}}, leaders={1: "Syria"},
                 hands={0: [_ev(nx, "crisis")]}, park="Dacia")
    assert not [a for a in nx.GAME.legal_actions(S, 0) if a["type"] == "event"]
    S["leaders"][1]["rank"] = B.EMPEROR
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "crisis"), "target": 1})
    assert S["leaders"][1]["location"] == ROME
    assert nx.count(S, "Syria", 1) == 2


# --- 7 Galley Fleet -----------------------------------------------------------------


def test_6_2_07_galley_fleet() -> None:
    S = nx.board(legions={"Thracia": {0: 4}, "Hispania": {1: 1}}, leaders={0: "Thracia"},
                 hands={0: [_ev(nx, "galley"), nx.card("crisis", mp=5)]}, park="Dacia")
    with pytest.raises(IllegalAction):  # never Rome, never a landlocked province
        nx.play(S, 0, {"type": "event", "card": _ev(nx, "galley"), "from": nx.P["Thracia"],
                       "to": nx.P["Dacia"], "legions": 3, "leader": True})
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "galley"), "from": nx.P["Thracia"],
                   "to": nx.P["Hispania"], "legions": 3, "leader": True})
    nx.play(S, 1, {"type": "stay"})  # the occupants may retreat, as from any entry
    assert nx.count(S, "Hispania", 0) == 3
    assert S["leaders"][0]["location"] == nx.P["Hispania"]
    # All their movement this round: no march (hence no attack) from Hispania.
    assert not [a for a in nx.GAME.legal_actions(S, 0)
                if a["type"] == "march" and a["from"] == nx.P["Hispania"]]


def test_6_2_07_a11_bad_weather_cancels_the_fleet() -> None:
    S = nx.board(legions={"Thracia": {0: 3}}, hands={0: [_ev(nx, "galley")],
                                                     1: [_ev(nx, "bad_weather")]}, park="Dacia")
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "galley"), "from": nx.P["Thracia"],
                   "to": nx.P["Achaea"], "legions": 3, "leader": False})
    nx.play(S, 1, {"type": "answer", "card": _ev(nx, "bad_weather")})
    assert nx.count(S, "Thracia", 0) == 3


# --- 8 Germanic Tribes --------------------------------------------------------------


def test_6_2_08_germanic_tribes() -> None:
    gs = nx.P["Germania Superior"]
    S = nx.board(legions={"Germania Superior": {1: 2, 2: 1}, "Raetia": {0: 2}},
                 leaders={1: "Germania Superior"}, unc={"Germania Superior": 1},
                 hands={0: [_ev(nx, "germanic"), nx.card("crisis", mp=5)]}, park="Dacia")
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "germanic"), "prov": gs})
    assert nx.GAME.to_act(S) == [1]
    nx.play(S, 1, {"type": "go", "to": nx.P["Germania Inferior"]})
    nx.play(S, 2, {"type": "go", "to": nx.P["Raetia"]})
    nx.play(S, 0, {"type": "go", "to": nx.P["Britannia"]})  # the Uncontrolled: by the player
    assert not [lg for lg in S["legions"] if lg["province"] == gs]
    assert S["leaders"][1]["location"] == nx.P["Germania Inferior"]
    assert nx.count(S, "Britannia", -1) == 1
    assert S["germanic_tribes"] == [gs]
    assert B.province_owner(S, gs) is None


def test_5_10_germanic_entry_costs_3_and_a_start_there_lifts_it() -> None:
    gs = nx.P["Germania Superior"]
    five = nx.card("crisis", mp=5)
    S = nx.board(legions={"Raetia": {0: 2}}, hands={0: [five]}, park="Dacia")
    S["germanic_tribes"] = [gs]
    nx.play(S, 0, {"type": "march", "cards": [five], "from": nx.P["Raetia"], "legions": 2,
                   "leader": False})
    nx.play(S, 0, {"type": "step", "to": gs})
    assert S["movement"]["pool"] == 2
    S = nx.board(legions={"Germania Superior": {0: 2}}, hands={0: [five]}, park="Dacia")
    S["germanic_tribes"] = [gs]
    nx.play(S, 0, {"type": "march", "cards": [five], "from": gs, "legions": 2,
                   "leader": False, "lift": True})  # 5.10: it may (test_audit: or not)
    assert S["germanic_tribes"] == []


# --- 9 Legion Declares Emperor ------------------------------------------------------


def test_6_2_09_legion_declares_needs_at_most_one_emperor_a3() -> None:
    legions = {p: {1: 1} for p in ("Germania Superior", "Raetia", "Noricum")}
    S = nx.board(legions=legions, leaders={1: "Germania Superior"}, act=1,
                 hands={1: [_ev(nx, "legion_declares")]}, park="Dacia")
    S["leaders"][2]["rank"] = S["leaders"][3]["rank"] = B.EMPEROR
    assert not [a for a in nx.GAME.legal_actions(S, 1) if a["type"] == "event"]
    S["options"]["a3_two_emperors"] = "contender"
    nx.play(S, 1, {"type": "event", "card": _ev(nx, "legion_declares")})
    assert S["leaders"][1]["rank"] == B.CONTENDER


# --- 10 Rebel Legions ---------------------------------------------------------------


def test_6_2_10_rebel_legions_and_the_cap_of_4() -> None:
    S = nx.board(legions={"Syria": {1: 2}}, hands={0: [_ev(nx, "rebel")]}, park="Dacia")
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "rebel"), "seat": 1,
                   "prov": nx.P["Syria"]})
    assert nx.count(S, "Syria", 1) == 1
    assert nx.count(S, "Syria", -1) == 1
    S = nx.board(legions={"Syria": {1: 2}}, unc={"Judaea": 4},
                 hands={0: [_ev(nx, "rebel")]}, park="Dacia")
    assert not [a for a in nx.GAME.legal_actions(S, 0) if a["type"] == "event"]


# --- 12 Revolt in the Provinces -----------------------------------------------------


def test_6_2_12_revolt_brings_two_then_all_rebel() -> None:
    S = nx.board(legions={"Judaea": {3: 1, 1: 1}, "Syria": {3: 2}},
                 hands={0: [_ev(nx, "revolt")]}, park="Dacia")
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "revolt"), "area": ASIA})
    assert nx.GAME.to_act(S) == [3]  # A24: the Base owner (Asia/Africa) chooses
    ev = nx.play(S, 3, {"type": "bring", "from": nx.P["Syria"]})
    assert {"type": "revolt", "prov": nx.P["Judaea"], "uncontrolled": 3} in ev
    assert nx.count(S, "Judaea", -1) == 3
    assert nx.count(S, "Syria", 3) == 1


def test_6_2_12_revolt_refused_over_the_cap_and_in_the_empty_area() -> None:
    S = nx.board(legions={"Germania Superior": {1: 2}}, unc={"Judaea": 3},
                 hands={0: [_ev(nx, "revolt")]}, park="Dacia")
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "event", "card": _ev(nx, "revolt"), "area": CENTRAL})
    S = nx.board(3, hands={0: [_ev(nx, "revolt")]}, park="Dacia")
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "event", "card": _ev(nx, "revolt"), "area": ASIA})


# --- 13 Senate Influence ------------------------------------------------------------


def test_6_2_13_senate_influence_and_11_guards_add_dp() -> None:
    S = nx.board(leaders={0: "Roma"}, hands={0: nx.cards("senate")[:3] +
                                             nx.cards("praetorian")[:1]}, park="Dacia")
    ev = nx.play(S, 0, {"type": "declare", "cards": nx.cards("senate")[:3] +
                        nx.cards("praetorian")[:1]})
    assert next(e for e in ev if e["type"] == "declared")["dp"] == 4
    assert S["leaders"][0]["rank"] == B.GENERAL  # 4 < 5


def test_6_2_04_corruption_cannot_touch_a_guard_used_for_dp() -> None:
    S = nx.board(leaders={0: "Roma"}, hands={0: nx.cards("praetorian")[:3],
                                             1: nx.cards("corruption")[:2]}, park="Dacia")
    S["options"]["reactions"] = "holders"  # the script asks only the holders
    nx.play(S, 0, {"type": "declare", "cards": nx.cards("praetorian")[:3]})
    assert S["pending"] == []  # no Senate card: nothing for Corruption, nobody is asked


# --- 14 Traitor ---------------------------------------------------------------------


def test_6_2_14_traitor_once_per_round() -> None:
    t = nx.cards("traitor")
    S = nx.board(hands={0: t[:2], 1: nx.cards("senate")[:2]}, park="Dacia")
    S["options"]["reactions"] = "holders"  # the script asks only the holders
    ev = nx.play(S, 0, {"type": "event", "card": t[0], "seat": 1})
    stolen = next(e for e in ev if e["type"] == "stolen")
    assert stolen["to"] == [0, 1]
    assert stolen["card"] in S["hands"][0]
    assert len(S["hands"][1]) == 1
    assert not [a for a in nx.GAME.legal_actions(S, 0) if a["type"] == "event"]
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "event", "card": t[1], "seat": 1})


def test_6_2_02_a4_bad_omens_against_a_declarations_guard() -> None:
    """A4: Bad Omens may cancel a Praetorian Guard (or a Senate Influence) of a
    declaration in Rome; Tom's 6 DP of the R 7.1 example drop to 5, still enough."""
    senate = nx.cards("senate")[:2]
    guard = nx.cards("praetorian")[0]
    S = nx.board(legions={"Italia del Nord": {0: 4}, "Italia del Sud": {1: 3},
                          "Judaea": {0: 1}, "Syria": {0: 1}, "Aegyptus": {0: 1}},
                 leaders={0: "Roma"}, park="Dacia",
                 hands={0: senate + [guard], 2: nx.cards("bad_omens")[:2]})
    nx.play(S, 0, {"type": "declare", "cards": senate + [guard]})
    nx.play(S, 2, {"type": "answer", "card": nx.cards("bad_omens")[0]})
    ev = nx.play(S, 2, {"type": "pass"})
    declared = next(e for e in ev if e["type"] == "declared")
    assert declared["dp"] == 5
    assert declared["crowned"]


def test_6_2_02_a4_bad_omens_against_a_corruption() -> None:
    """A4: Bad Omens may cancel a Corruption; Tom (the declarer) answers Frank's
    Corruption against one of his Senate Influence cards: 6 DP stay 6, crowned."""
    S, hand = _rome_with(nx, {1: [nx.cards("corruption")[0]], 2: []},
                         extra=[nx.cards("bad_omens")[0]])
    S["options"]["reactions"] = "holders"  # the script asks only the holders
    nx.play(S, 0, {"type": "declare", "cards": hand})
    assert nx.GAME.to_act(S) == [1]
    nx.play(S, 1, {"type": "answer", "card": nx.cards("corruption")[0]})
    assert nx.GAME.to_act(S) == [0]  # the declarer holds Bad Omens: asked, Frank is not
    labels = [nx.GAME.describe(nx.GAME.view(S, 0), 0, a, ["Tom", "Frank", "Livia", "Otho"])
              for a in nx.GAME.legal_actions(S, 0)]
    assert any("Bad Omens" in x and "Frank's Corruption" in x for x in labels), labels
    ev = nx.play(S, 0, {"type": "answer", "card": nx.cards("bad_omens")[0]})
    assert {"type": "cancelled", "ev": "corruption", "seat": 1} in ev
    declared = next(e for e in ev if e["type"] == "declared")
    assert declared["dp"] == 6
    assert declared["crowned"]


def test_6_2_02_a4_bad_omens_on_the_bad_omens_restores_the_corruption() -> None:
    """Livia's Bad Omens cancels Tom's: Frank's Corruption stands, 5 DP, still crowned
    (one Senate card void); a second Corruption would have stopped him."""
    S, hand = _rome_with(nx, {1: [nx.cards("corruption")[0]], 2: [nx.cards("bad_omens")[1]]},
                         extra=[nx.cards("bad_omens")[0]])
    nx.play(S, 0, {"type": "declare", "cards": hand})
    nx.play(S, 1, {"type": "answer", "card": nx.cards("corruption")[0]})
    nx.play(S, 0, {"type": "answer", "card": nx.cards("bad_omens")[0]})
    assert nx.GAME.to_act(S) == [2]
    ev = nx.play(S, 2, {"type": "answer", "card": nx.cards("bad_omens")[1]})
    assert "corrupted" in nx.types(ev)
    while not any(e["type"] == "declared" for e in ev):
        ev = nx.play(S, nx.GAME.to_act(S)[0], {"type": "pass"})
    assert next(e for e in ev if e["type"] == "declared")["dp"] == 5


def test_6_2_02_bad_omens_never_against_an_assassinations_corruption() -> None:
    """A4 / R 9.0: nobody is asked for Bad Omens during an assassination attempt."""
    c = nx.cards("corruption")
    S = _assassination(nx, {0: [_ev(nx, "assassin"), nx.cards("praetorian")[0]],
                            1: c[:2], 2: nx.cards("bad_omens")[:1]})
    nx.play(S, 0, {"type": "event", "card": _ev(nx, "assassin"), "target": 1,
                   "guards": [nx.cards("praetorian")[0]], "corr": []})
    assert nx.GAME.to_act(S) == [1]
    nx.play(S, 1, {"type": "answer", "card": c[0], "use": "corrupt"})
    assert nx.GAME.to_act(S) == [1]  # Livia (Bad Omens only) is never asked
    assert S["pending"][-1]["kind"] == "assassination"


def _rome_with(nx, others: dict[int, list[int]], extra: list[int]):
    """The R 7.1 example (Tom: 3 DP on the board, 2 Senate + 1 Guard), with Tom also
    holding ``extra`` and the other seats ``others``."""
    senate = nx.cards("senate")[:2]
    guard = nx.cards("praetorian")[0]
    S = nx.board(legions={"Italia del Nord": {0: 4}, "Italia del Sud": {1: 3},
                          "Judaea": {0: 1}, "Syria": {0: 1}, "Aegyptus": {0: 1}},
                 leaders={0: "Roma"}, hands={0: senate + [guard] + extra, **others},
                 park="Dacia")
    return S, senate + [guard]


def test_6_2_03_bad_weather_has_no_effect_on_leaders() -> None:
    """"La carta non ha effetto sul movimento dei Leaders": the Legions halt, the
    General keeps moving and is not marked as stopped for the round."""
    a = nx.card("galley", mp=4)
    S = nx.board(legions={"Syria": {0: 3}}, leaders={0: "Syria"},
                 hands={0: [a, nx.card("crisis", mp=5)], 1: [_ev(nx, "bad_weather")]},
                 park="Dacia")
    S["options"]["reactions"] = "holders"  # the script asks only the holders
    nx.play(S, 0, {"type": "march", "cards": [a], "from": nx.P["Syria"], "legions": 3,
                   "leader": True})
    ev = nx.play(S, 1, {"type": "answer", "card": _ev(nx, "bad_weather")})
    assert "halted" in nx.types(ev)
    assert all(lg["moved"] for lg in S["legions"]
               if lg["owner"] == 0 and lg["province"] == nx.P["Syria"])
    assert not S["leaders"][0]["moved"]
