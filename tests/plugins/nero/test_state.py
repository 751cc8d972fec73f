"""The declared state schema (plugins/nero/state.py) holds for real games.

Every state met in seeded random self-play (3 and 4 seats, the plain game and the
options that add or change state: A20's battles against the Uncontrolled, A21's
player-wide tie, A22's cap, every seat asked in windows, the hidden deck) is checked
against the TypedDicts: the exact keys of each record, the allowed values of its
Literal fields. A key added, renamed or forgotten in the engine without the declaration
fails here. The views hold the same records, so they are checked too.
"""

from __future__ import annotations

import random
from typing import Any, Literal, NotRequired, get_args, get_origin, get_type_hints

import pytest

from lantable.plugins.decks import DEALER_KEY
from lantable.plugins.nero import state as st
from lantable.plugins.nero import views

from . import helpers as nx

CLASSES = (st.GameState, st.Legion, st.Leader, st.Attacked, st.Group, st.Movement,
           st.SetupChoice, st.Window, st.AssassinationWindow, st.PassageRequest, st.Battle,
           st.RetreatChoice, st.GermanicWithdrawal, st.RevoltBringing, st.Effect, st.Hidden)
HINTS = {cls: get_type_hints(cls) for cls in CLASSES}
# Required: every key of a total record but those marked NotRequired (read from the
# hints themselves: the module's annotations are strings, which __required_keys__
# does not look into on Python 3.11).
REQUIRED = {cls: {k for k, h in get_type_hints(cls, include_extras=True).items()
                  if get_origin(h) is not NotRequired} if cls.__total__ else set()
            for cls in CLASSES}
BY_KIND: dict[str, type] = {
    "base": st.SetupChoice, "place": st.SetupChoice, "general": st.SetupChoice,
    "window": st.Window, "assassination": st.AssassinationWindow,
    "passage": st.PassageRequest, "battle": st.Battle, "retreat": st.RetreatChoice,
    "germanic": st.GermanicWithdrawal, "revolt": st.RevoltBringing, "effect": st.Effect}
# The keys every effect has, and those each ``what`` adds (the rest are forbidden).
EFFECT_KEYS: dict[str, set[str]] = {
    "battle": {"attacker", "defender", "province"},
    "entered": set(),
    "retreat": {"seat", "province", "to"},
    "declare": {"seat", "senate", "guards", "corruption"},
    "corruption": {"event", "seat", "omens"},
    "bad_weather": {"about", "seat", "omens"},
    "wounded": {"about", "seat", "omens"},
    "event": {"event", "seat", "omens"},
}


def _check(record: dict[str, Any], cls: type, where: str) -> None:
    hints = HINTS[cls]
    required = REQUIRED[cls]
    assert required <= set(record) <= set(hints), \
        f"{where}: missing {sorted(required - set(record))}, " \
        f"undeclared {sorted(set(record) - set(hints))}"
    for key, hint in hints.items():
        if key in record and get_origin(hint) is Literal:
            assert record[key] in get_args(hint), f"{where}.{key} = {record[key]!r}"
    if cls is st.Group:
        assert set(record["picked_up"]) <= {"own", "unc"}, where


def _check_pending(pending: list[dict[str, Any]], where: str) -> None:
    for i, item in enumerate(pending):
        cls = BY_KIND[item["kind"]]
        _check(item, cls, f"{where}[{i}] ({item['kind']})")
        if cls is st.Effect:
            assert item["what"] in get_args(st.EffectWhat)
            assert EFFECT_KEYS[item["what"]] | {"kind", "what"} <= set(item), (where, item)


def check_state(S: dict[str, Any], view: bool = False) -> None:
    if not view:  # (the in-process dealer of a hidden deck keeps its own key: not Nero's)
        _check({k: v for k, v in S.items() if k != DEALER_KEY}, st.GameState, "state")
    for i, legion in enumerate(S["legions"]):
        _check(legion, st.Legion, f"legions[{i}]")
    for seat, leader in enumerate(S["leaders"]):
        _check(leader, st.Leader, f"leaders[{seat}]")
    for pair in S["attacked"]:
        _check(pair, st.Attacked, "attacked")
    if S["movement"] is not None:
        _check(S["movement"], st.Movement, "movement")
        if S["movement"]["group"] is not None:
            _check(S["movement"]["group"], st.Group, "movement.group")
    _check_pending(S["pending"], "pending")
    if "hidden" in S:
        _check(S["hidden"], st.Hidden, "hidden")


CASES = [
    (3, {}),
    (4, {}),
    (4, {"a20_attack_uncontrolled": True, "a21_tie_scope": "player", "a22_legion_cap": True,
         "reactions": "all", "a5_pickup": "per_legion", "a19_leader_retreats": True}),
    (3, {"short_game": True, "a11_fleet": "entire", "a24_revolt": "player",
         "a3_two_emperors": "contender"}),
    (4, {"hidden_deck": True}),
]


@pytest.mark.parametrize(("seats", "options"), CASES, ids=[f"{n}p-{sorted(o)}" for n, o in CASES])
def test_every_state_of_seeded_self_play_matches_the_declared_schema(seats, options) -> None:
    rng = random.Random(seats)
    S = nx.GAME.setup(seats, nx.opts(**options), rng)
    check_state(S)
    kinds = set()
    for _ in range(6000):
        to_act = nx.GAME.to_act(S)
        if not to_act:
            break
        seat = to_act[0]
        legal = nx.GAME.legal_actions(S, seat)
        nx.GAME.apply(S, seat, legal[int(rng.random() * len(legal))], rng)
        check_state(S)
        kinds |= {it["kind"] for it in S["pending"]}
        for s in (seat, None):
            v = views.view(S, s)
            check_state(v, view=True)
            if s is not None:
                _check_pending(v["own_pending"], "own_pending")
    assert S["over"]
    # The records were met, not only the empty stack.
    assert {"window", "effect"} <= kinds
    if "hidden_deck" not in options:
        assert {"battle", "retreat"} <= kinds


def test_the_checker_catches_an_undeclared_key() -> None:
    S = nx.fresh(3)
    S["legions"][0]["marker"] = True
    with pytest.raises(AssertionError, match="marker"):
        check_state(S)


def test_the_checker_catches_a_rank_out_of_the_declaration() -> None:
    S = nx.fresh(3)
    S["leaders"][0]["rank"] = 2
    with pytest.raises(AssertionError, match="rank"):
        check_state(S)
