"""Manila's views name their keys in one place each: the public keys in the order of
``_PUBLIC_1`` and ``_PUBLIC_2`` (which ``game_sample_state`` reads back), written out
key by key in ``_public_view`` for speed."""

from __future__ import annotations

import random

from lantable.plugins import load_registry
from lantable.plugins.manila import _PUBLIC_1, _PUBLIC_2

GAME = load_registry()["manila"]


def test_public_view_keys_follow_the_declared_order() -> None:
    rng = random.Random(5)
    state = GAME.setup(4, GAME.options({}), rng)
    for _ in range(60):  # through an auction into a voyage, where the schedule shows
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)), rng)
    keys = list(GAME.view(state, None))
    assert keys[:len(_PUBLIC_1)] == list(_PUBLIC_1)
    assert keys[len(_PUBLIC_1):len(_PUBLIC_1) + 2] == ["plan", "pi"]
    assert keys[len(_PUBLIC_1) + 2:len(_PUBLIC_1) + 2 + len(_PUBLIC_2)] == list(_PUBLIC_2)
    assert keys[-5:] == ["pilot_done", "over", "shares", "mortgaged", "prices"] or \
        keys[-6:] == ["pilot_done", "over", "shares", "mortgaged", "prices", "cash"]
