"""Seeded random self-play: invariants over 2,000 games (3, 4 and 5 seats)."""

from __future__ import annotations

import copy
import random

import msgpack
import pytest

from lantable.plugins import IllegalAction

from . import helpers as mn


def _play(mn, n: int, seed: int, checks: bool):
    G = mn.GAME
    rng = random.Random(seed)
    pick = random.Random(seed + 7)
    S = G.setup(n, {}, rng)
    steps = 0
    while not G.is_over(S):
        steps += 1
        assert steps < 5000
        (seat,) = G.to_act(S)
        acts = G.legal_actions(S, seat)
        assert acts
        action = pick.choice(acts)
        cash = list(S["cash"])
        if checks:
            before, rs = copy.deepcopy(S), rng.getstate()
            with pytest.raises(IllegalAction):
                G.apply(S, seat, {"type": "bogus"}, rng)
            with pytest.raises(IllegalAction):
                G.apply(S, (seat + 1) % n, action, rng)
            assert S == before and rng.getstate() == rs
        events = G.apply(S, seat, action, rng)
        assert mn.cash_deltas(events, n) == [S["cash"][s] - cash[s] for s in range(n)]
        assert min(S["cash"]) >= 0
        assert sum(S["supply"]) + sum(sum(mn.owned(S, s)) for s in range(n)) == 20
        if checks:
            assert msgpack.unpackb(msgpack.packb(S), strict_map_key=False) == S
            msgpack.packb(events)
            if n >= 3:
                v = G.view(S, 0)
                T = copy.deepcopy(S)
                T["dealt"][1], T["dealt"][2] = T["dealt"][2], T["dealt"][1]
                if not any(S["mort"][1]) and not any(S["mort"][2]):  # swap only unmortgaged secrets
                    assert G.view(T, 0) == v
    G.scores(S)
    return S


@pytest.mark.parametrize("n", [3, 4, 5])
def test_selfplay_invariants(n) -> None:
    for seed in range(667 if n == 4 else 666):
        _play(mn, n, seed, checks=seed < 40)


def test_selfplay_deterministic() -> None:
    for seed in range(5):
        assert _play(mn, 4, seed, False) == _play(mn, 4, seed, False)


def test_greedy_beats_random() -> None:
    from lantable.clients.selfplay import simulate  # noqa: PLC0415
    r = simulate(mn.GAME, games=6, players=4, strategies=["greedy", "random", "random", "random"],
                 seed=1)
    assert r.wins[0] >= max(r.wins[1:])
