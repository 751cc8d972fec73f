"""The declared state schema (plugins/kaisers_pirates/state.py) holds for real games.

Every state met in seeded random self-play (solitaire, free-for-all, the team game,
every option that adds state on) is checked against the TypedDicts: the exact keys
of each record, the allowed values of its Literal fields. A key added, renamed or
forgotten in the engine without the declaration fails here.
"""

from __future__ import annotations

import random
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

from lantable.plugins.kaisers_pirates import state as st

from .conftest import GAME

HINTS = {cls: get_type_hints(cls) for cls in (
    st.GameState, st.Player, st.VPEntry, st.Waiting, st.Seen, st.ShipStatus, st.Turn,
    st.Committed, st.Sinking, st.Context, st.Pending, st.Solo, st.RoundScore)}


def _check(record: dict[str, Any], cls: type, where: str) -> None:
    keys = set(HINTS[cls])
    if cls.__total__:  # type: ignore[attr-defined]
        assert set(record) == keys, f"{where}: keys {sorted(set(record) ^ keys)} differ"
    else:
        assert set(record) <= keys, f"{where}: undeclared {sorted(set(record) - keys)}"
    for key, hint in HINTS[cls].items():
        if key in record and get_origin(hint) is Literal:
            assert record[key] in get_args(hint), f"{where}.{key} = {record[key]!r}"


def check_state(S: dict[str, Any]) -> None:
    _check(S, st.GameState, "state")
    for i, p in enumerate(S["players"]):
        _check(p, st.Player, f"players[{i}]")
        for e in p["vp_pile"]:
            _check(e, st.VPEntry, f"players[{i}].vp_pile")
            assert ("ship" in e) != ("card" in e) and {"mult", "how"} <= set(e)
        if p["wait"] is not None:
            _check(p["wait"], st.Waiting, f"players[{i}].wait")
        if p["seen"] is not None:
            _check(p["seen"], st.Seen, f"players[{i}].seen")
    for sid, status in enumerate(S["ships"]):
        if status is not None:
            _check(status, st.ShipStatus, f"ships[{sid}]")
    T = S["this_turn"]
    if T is not None:
        _check(T, st.Turn, "this_turn")
        for e in T["committed"]:
            _check(e, st.Committed, "this_turn.committed")
        for rec in T["sinkings"]:
            _check(rec, st.Sinking, "this_turn.sinkings")
    for ctx in S["stack"]:
        _check(ctx, st.Context, f"stack ({ctx.get('kind')})")
        assert ctx["kind"] in get_args(st.ContextKind)
    if S["pending"] is not None:
        _check(S["pending"], st.Pending, "pending")
        assert "kind" in S["pending"]
    for r in S["history"]:
        _check(r, st.RoundScore, "history")
    if S["solo"] is not None:
        _check(S["solo"], st.Solo, "solo")


CASES = [
    (1, {}),
    (3, {}),
    (4, {"team_game": True}),
    (2, {"additional_damage": True, "prize_resupply": True, "torpedo_prizes": True,
         "shallow_pursuit": True, "fast_raiders": True, "sailing_merchants": True,
         "keep_three": True}),
]


@pytest.mark.parametrize(("seats", "options"), CASES, ids=[f"{n}p-{sorted(o)}" for n, o in CASES])
def test_every_state_of_seeded_self_play_matches_the_declared_schema(seats, options) -> None:
    rng = random.Random(seats)
    S = GAME.setup(seats, options, rng)
    check_state(S)
    for _ in range(4000):
        to_act = GAME.to_act(S)
        if not to_act:
            break
        seat = to_act[0]
        legal = GAME.legal_actions(S, seat)
        GAME.apply(S, seat, legal[int(rng.random() * len(legal))], rng)
        check_state(S)
    assert S["phase"] == "over"


def test_the_checker_catches_an_undeclared_key() -> None:
    S = GAME.setup(2, {}, random.Random(0))
    S["players"][0]["ger"] = []
    with pytest.raises(AssertionError, match="ger"):
        check_state(S)
