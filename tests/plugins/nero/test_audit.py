"""Issue 24, the rules audit of Nero: each test is named after the digest section (or
rulebook R section) it checks, and failed on the code before its fix."""

from __future__ import annotations

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.nero import moves as M
from lantable.plugins.nero.data import ROME

from . import helpers as nx


def _march(S, seat, src, legions, card, leader=False, **extra):
    return nx.play(S, seat, {"type": "march", "cards": [card], "from": nx.P[src],
                             "legions": legions, "leader": leader, **extra})


def _group(S):
    return S["movement"]["group"]


# --- 1: §5.4.4 / R 5.4 pick-ups and drops honour their counts ------------------------


def test_5_4_4_drop_any_number_of_legions() -> None:
    """An army with its General leaves 1 of its 3 Legions behind: 2 go on with him."""
    a = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Syria": {0: 3}}, leaders={0: "Syria"}, hands={0: [a]},
                 park="Dacia")
    _march(S, 0, "Syria", 3, a, leader=True)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    legal = nx.GAME.legal_actions(S, 0)
    assert [x["legions"] for x in legal if x["type"] == "drop" and not x.get("leader")] \
        == [1, 2, 3]
    nx.play(S, 0, {"type": "drop", "legions": 1})
    assert len(_group(S)["legions"]) == 2 and _group(S)["leader"]
    nx.play(S, 0, {"type": "step", "to": nx.P["Aegyptus"]})
    assert nx.count(S, "Judaea", 0) == 1 and nx.count(S, "Aegyptus", 0) == 2
    assert S["leaders"][0]["location"] == nx.P["Aegyptus"]
    assert M.free_legions(S, 0, nx.P["Judaea"]) == []  # a dropped Legion has moved


def test_5_4_4_drop_legions_without_a_leader() -> None:
    """An army of Legions alone may leave some behind too."""
    a = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Syria": {0: 3}}, hands={0: [a]}, park="Dacia")
    _march(S, 0, "Syria", 3, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    assert {"type": "drop", "legions": 2} in nx.GAME.legal_actions(S, 0)
    nx.play(S, 0, {"type": "drop", "legions": 2})
    nx.play(S, 0, {"type": "step", "to": nx.P["Aegyptus"]})
    assert nx.count(S, "Judaea", 0) == 2 and nx.count(S, "Aegyptus", 0) == 1


def test_5_4_4_drop_the_leader_and_legions_at_once() -> None:
    a = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Syria": {0: 3}}, leaders={0: "Syria"}, hands={0: [a]},
                 park="Dacia")
    _march(S, 0, "Syria", 3, a, leader=True)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    nx.play(S, 0, {"type": "drop", "legions": 1, "leader": True})
    assert len(_group(S)["legions"]) == 2 and not _group(S)["leader"]
    assert S["leaders"][0]["moved"]
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "drop", "legions": 3})  # more than the army has
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "drop", "legions": 0})  # nothing


def test_5_4_4_pick_up_any_number_of_legions() -> None:
    """Passing 2 free own Legions, the army takes 1 of them (the fee is the same, A5)."""
    a = nx.card("bad_weather", mp=4)
    S = nx.board(legions={"Syria": {0: 2}, "Judaea": {0: 2}}, hands={0: [a]}, park="Dacia")
    _march(S, 0, "Syria", 2, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    legal = nx.GAME.legal_actions(S, 0)
    assert [x.get("legions") for x in legal if x["type"] == "pick"] == [1, 2]
    nx.play(S, 0, {"type": "pick", "kind": "own", "legions": 1})
    assert len(_group(S)["legions"]) == 3
    assert S["movement"]["pool"] == 2
    stayed = [i for i in M.free_legions(S, 0, nx.P["Judaea"]) if i not in _group(S)["legions"]]
    assert len(stayed) == 1  # the other may still move


def test_5_4_4_pick_up_counts_with_a_leader_alone() -> None:
    """A Leader alone recruits 1 of 2 Uncontrolled Legions."""
    a = nx.card("bad_weather", mp=4)
    S = nx.board(leaders={0: "Syria"}, hands={0: [a]}, unc={"Judaea": 2}, park="Dacia")
    _march(S, 0, "Syria", 0, a, leader=True)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    with pytest.raises(IllegalAction):
        nx.play(S, 0, {"type": "pick", "kind": "unc", "legions": 3})
    nx.play(S, 0, {"type": "pick", "kind": "unc", "legions": 1})
    assert len(_group(S)["legions"]) == 1
    assert sum(1 for lg in S["legions"] if lg["owner"] == -1) == 1


# --- 3: §5.8.1 / R 4.3, 7.1 the declaration is not a card ------------------------------


def _to_rome_board(used: int, hand_extra: list[int]):
    """Seat 0 controls West and Central Europe (4 DP) and leads in Italy (1 DP): 5 DP on
    the board, his General one step from Rome."""
    one = nx.card("legion_declares", mp=1)
    S = nx.board(legions={"Britannia": {0: 1}, "Gallia Lugdunensis": {0: 1},
                          "Gallia Narbonensis": {0: 1}, "Germania Inferior": {0: 1},
                          "Germania Superior": {0: 1}, "Raetia": {0: 1},
                          "Italia del Sud": {0: 1}},
                 leaders={0: "Italia del Sud"}, hands={0: [one, *hand_extra]},
                 park="Aegyptus")
    S["cards_used"] = used
    return S, one


@pytest.mark.parametrize(("used", "extra"), [(3, [nx.card("crisis", mp=5)]), (0, [])],
                         ids=["fourth_card", "last_card"])
def test_5_8_1_general_declares_after_his_last_card(used, extra) -> None:
    S, one = _to_rome_board(used, extra)
    _march(S, 0, "Italia del Sud", 0, one, leader=True)
    nx.play(S, 0, {"type": "step", "to": ROME})
    assert nx.GAME.to_act(S) == [0]
    legal = nx.GAME.legal_actions(S, 0)
    assert {"type": "declare", "cards": []} in legal and {"type": "end"} in legal
    assert not [x for x in legal if x["type"] in ("march", "discard", "event")]
    ev = nx.play(S, 0, {"type": "declare", "cards": []})
    assert {"type": "crowned", "seat": 0, "how": "rome"} in ev
    assert "round_end" in nx.types(ev)  # the round then ends by itself


def test_5_8_1_round_still_ends_when_no_free_declaration() -> None:
    S, one = _to_rome_board(3, [nx.card("crisis", mp=5)])
    S["legions"] = [lg if lg["province"] != nx.P["Raetia"] else {**lg, "owner": 1}
                    for lg in S["legions"]]  # 3 DP left: a declaration needs cards
    _march(S, 0, "Italia del Sud", 0, one, leader=True)
    ev = nx.play(S, 0, {"type": "step", "to": ROME})
    assert "round_end" in nx.types(ev)


# --- 4: §5.4.5 / A7 passage granted costs +1 MP --------------------------------------


def test_5_4_5_passage_granted_costs_1_mp_after_beating_a_refuser() -> None:
    """5 MP: enter (1), passage granted by seat 1 (+1), attack seat 2 who refused (1),
    then leave with 1 battle of fatigue (2): all 5 spent."""
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Thracia": {0: 4}, "Dalmatia": {1: 1, 2: 1}}, hands={0: [a]},
                 park="Aegyptus")
    _march(S, 0, "Thracia", 4, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Dalmatia"]})
    nx.play(S, 1, {"type": "stay"})
    nx.play(S, 2, {"type": "stay"})
    nx.play(S, 0, {"type": "passage"})
    nx.play(S, 1, {"type": "grant"})
    nx.play(S, 2, {"type": "refuse"})
    assert S["movement"]["pool"] == 3
    nx.play(S, 0, {"type": "attack", "seat": 2})
    nx.play(S, 0, {"type": "commit", "cards": []})
    nx.play(S, 2, {"type": "commit", "cards": []})
    assert _group(S)["blocked_by"] == []
    assert S["movement"]["pool"] == 2
    nx.play(S, 0, {"type": "step", "to": nx.P["Moesia"]})
    assert nx.count(S, "Moesia", 0) == 5


# --- 5: any-time stop cards: Wounded General on a General alone ------------------------


def test_6_2_05_wounded_general_when_a_general_alone_enters_legions() -> None:
    a = nx.card("crisis", mp=5)
    w = nx.cards("wounded")[0]
    S = nx.board(legions={"Judaea": {1: 2}}, leaders={0: "Syria"},
                 hands={0: [a], 2: [w]}, park="Dacia")
    _march(S, 0, "Syria", 0, a, leader=True)
    nx.play(S, 2, {"type": "pass"})  # the window as he sets out
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    assert nx.GAME.to_act(S) == [2]
    assert {"type": "answer", "card": w} in nx.GAME.legal_actions(S, 2)
    ev = nx.play(S, 2, {"type": "answer", "card": w})
    assert "leader_stopped" in nx.types(ev) and "round_end" in nx.types(ev)
    assert S["leaders"][0]["location"] == nx.P["Judaea"]


@pytest.mark.parametrize(("windows", "asked"), [("contact", False), ("every_step", True)])
def test_6_2_03_stop_windows_option_every_step(windows, asked) -> None:
    """The card texts allow a stop "at any moment": the option ``stop_windows =
    every_step`` offers Bad Weather at every step, not only at the start and on contact."""
    a = nx.card("crisis", mp=5)
    bw = nx.cards("bad_weather")[0]
    S = nx.board(legions={"Syria": {0: 2}}, hands={0: [a], 1: [bw]}, park="Dacia",
                 stop_windows=windows)
    _march(S, 0, "Syria", 2, a)
    nx.play(S, 1, {"type": "pass"})
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    assert (nx.GAME.to_act(S) == [1]) is asked


# --- 6: hidden information: the default windows reveal nothing ------------------------


def test_12_0_default_windows_do_not_reveal_who_holds_an_answer() -> None:
    """Two tables that differ only in whether seat 2 holds Bad Weather look the same to
    everyone else, and to spectators, at every step of a march (default options)."""
    a = nx.card("crisis", mp=5)
    assert nx.GAME.info["options"]["reactions"]["default"] == "all"
    views = []
    for other in (nx.cards("bad_weather")[0], nx.cards("senate")[0]):
        S = nx.board(legions={"Syria": {0: 2}}, hands={0: [a], 1: [nx.cards("traitor")[0]],
                                                       2: [other]}, park="Dacia")
        _march(S, 0, "Syria", 2, a)
        seen = [(nx.GAME.to_act(S), nx.GAME.view(S, None), nx.GAME.view(S, 1))]
        while S["pending"]:
            seat = nx.GAME.to_act(S)[0]
            nx.play(S, seat, {"type": "pass"})
            seen.append((nx.GAME.to_act(S), nx.GAME.view(S, None)))
        views.append(seen)
    assert views[0][0][0] == [1]  # every seat with cards is asked, in turn
    assert views[0] == views[1]


def test_12_0_holders_option_asks_only_the_holders() -> None:
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Syria": {0: 2}}, hands={0: [a], 1: [nx.cards("traitor")[0]],
                                                   2: [nx.cards("bad_weather")[0]]},
                 park="Dacia", reactions="holders")
    _march(S, 0, "Syria", 2, a)
    assert nx.GAME.to_act(S) == [2]


# --- 7: §5.10 leaving the Germanic Tribes is optional ---------------------------------


def test_5_10_leaving_germanic_tribes_is_optional() -> None:
    gs = nx.P["Germania Superior"]
    five = nx.card("crisis", mp=5)
    S = nx.board(legions={"Germania Superior": {0: 2}}, hands={0: [five]}, park="Dacia")
    S["germanic_tribes"] = [gs]
    marches = [x for x in nx.GAME.legal_actions(S, 0)
               if x["type"] == "march" and x["from"] == gs and x["legions"]]
    assert {x.get("lift", False) for x in marches} == {True, False}
    nx.play(S, 0, {"type": "march", "cards": [five], "from": gs, "legions": 2,
                   "leader": False})
    assert S["germanic_tribes"] == [gs]  # not obliged: the marker stays
    S = nx.board(legions={"Germania Superior": {0: 2}}, hands={0: [five]}, park="Dacia")
    S["germanic_tribes"] = [gs]
    ev = nx.play(S, 0, {"type": "march", "cards": [five], "from": gs, "legions": 2,
                        "leader": False, "lift": True})
    assert S["germanic_tribes"] == [] and "germanic_lifted" in nx.types(ev)


def test_5_10_a_later_group_may_lift_the_marker() -> None:
    gs = nx.P["Germania Superior"]
    five = nx.card("crisis", mp=5)
    S = nx.board(legions={"Germania Superior": {0: 2}}, leaders={0: "Germania Superior"},
                 hands={0: [five]}, park="Dacia")
    S["germanic_tribes"] = [gs]
    nx.play(S, 0, {"type": "march", "cards": [five], "from": gs, "legions": 0,
                   "leader": True})
    nx.play(S, 0, {"type": "halt"})
    with pytest.raises(IllegalAction):  # a Leader alone is no Legion: he cannot lift it
        nx.play(S, 0, {"type": "group", "legions": 0, "leader": False, "lift": True})
    assert {"type": "group", "legions": 2, "leader": False, "lift": True} \
        in nx.GAME.legal_actions(S, 0)
    nx.play(S, 0, {"type": "group", "legions": 2, "leader": False, "lift": True})
    assert S["germanic_tribes"] == []


# --- 8: a captured Legion under a Retreat marker (R 6.4 vs R 5.6) ---------------------


def _captured_marked(**options):
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Syria": {0: 3}, "Judaea": {1: 2}}, hands={0: [a]},
                 park="Dacia", **options)
    for lg in S["legions"]:
        if lg["province"] == nx.P["Judaea"]:
            lg["retreat_marker"] = True
    _march(S, 0, "Syria", 3, a)
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    nx.play(S, 1, {"type": "stay"})
    nx.play(S, 0, {"type": "attack", "seat": 1})
    nx.play(S, 0, {"type": "commit", "cards": []})
    nx.play(S, 1, {"type": "commit", "cards": []})
    nx.play(S, 1, {"type": "stay"})
    return S


def test_5_6_4_captured_legion_leaves_its_retreat_marker_and_joins_the_army() -> None:
    """R 6.4 (the captured Legion joins the winning army and moves with it) over R 5.6
    (a marked Legion cannot move): the marker was the loser's, it stays with him."""
    S = _captured_marked()
    army = _group(S)["legions"]
    assert len(army) == 4 and not any(S["legions"][i]["retreat_marker"] for i in army)
    assert [lg["retreat_marker"] for lg in S["legions"] if lg["owner"] == 1
            and lg["province"] == nx.P["Judaea"]] == [True]  # the loser keeps his
    nx.play(S, 0, {"type": "step", "to": nx.P["Aegyptus"]})
    assert nx.count(S, "Aegyptus", 0) == 4


def test_5_6_4_captured_marked_legion_stays_option() -> None:
    """Option ``captured_marker = stays``: R 5.6 first; the captured Legion changes colour
    but keeps its marker and stays where it was taken."""
    S = _captured_marked(captured_marker="stays")
    assert len(_group(S)["legions"]) == 3
    taken = [i for i, lg in enumerate(S["legions"]) if lg["province"] == nx.P["Judaea"]
             and lg["owner"] == 0 and i not in _group(S)["legions"]]
    assert len(taken) == 1 and S["legions"][taken[0]]["retreat_marker"]
    nx.play(S, 0, {"type": "step", "to": nx.P["Aegyptus"]})
    assert nx.count(S, "Aegyptus", 0) == 3 and S["legions"][taken[0]]["province"] \
        == nx.P["Judaea"]


def test_5_4_4_left_at_the_source_before_moving_has_not_moved() -> None:
    """5.4.4: "Legions that stayed in a province without having moved may still move
    later in the round": left at the source before any step, they set out later."""
    a = nx.card("crisis", mp=5)
    S = nx.board(legions={"Syria": {0: 3}}, leaders={0: "Syria"}, hands={0: [a]},
                 park="Dacia")
    _march(S, 0, "Syria", 3, a, leader=True)
    assert not [x for x in nx.GAME.legal_actions(S, 0) if x["type"] == "drop"]
    nx.play(S, 0, {"type": "drop", "legions": 1, "leader": True})
    nx.play(S, 0, {"type": "step", "to": nx.P["Judaea"]})
    nx.play(S, 0, {"type": "halt"})
    assert {"type": "group", "legions": 1, "leader": True} in nx.GAME.legal_actions(S, 0)
    nx.play(S, 0, {"type": "group", "legions": 1, "leader": True})
    nx.play(S, 0, {"type": "step", "to": nx.P["Asia Minor"]})
    assert nx.count(S, "Asia Minor", 0) == 1 and nx.count(S, "Judaea", 0) == 2
    assert S["leaders"][0]["location"] == nx.P["Asia Minor"]
