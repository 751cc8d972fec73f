"""Kaiser's Pirates' client-side half lists, from a seat's view alone, exactly the
host's legal actions, order included, at every decision of seeded games (every seat
count, the team game, optional rules); an unseen card is a masked token that no rule
may read (docs/fair-play.md, "Kaiser's Pirates")."""

from __future__ import annotations

import random

import pytest

from lantable.plugins.kaisers_pirates import client

from . import helpers as kp
from .test_selfplay import _options

# (seats, seeds): games of every seat count, half of them with optional rules
PLAN = [(1, range(2)), (2, range(4)), (3, range(3)), (4, range(6))]


def _decisions(seats: int, seed: int) -> int:
    rng = random.Random(seed * 131 + seats)
    S = kp.GAME.setup(seats, _options(seats, seed, rng), rng)
    checked = 0
    while not kp.GAME.is_over(S):
        acting = kp.GAME.to_act(S)
        for seat in acting:
            host = kp.GAME.legal_actions(S, seat)
            mine = client.legal_actions(kp.GAME.view(S, seat), seat)
            assert mine == host, (seats, seed, seat, S["pending"])
            checked += 1
        seat = rng.choice(acting)
        kp.GAME.apply(S, seat, rng.choice(kp.GAME.legal_actions(S, seat)), rng)
    return checked


@pytest.mark.parametrize(("seats", "seeds"), PLAN)
def test_the_client_lists_the_hosts_actions_at_every_decision(seats, seeds) -> None:
    assert sum(_decisions(seats, seed) for seed in seeds) > 50 * len(seeds)


def test_an_unseen_card_is_a_masked_token() -> None:
    rng = random.Random(3)
    S = kp.GAME.setup(3, {}, rng)
    seat = kp.GAME.to_act(S)[0]
    C = client.client_state(kp.GAME.view(S, seat), seat)
    assert sorted(C["players"][seat]["hand"]) == sorted(S["players"][seat]["hand"])
    for i in range(3):
        if i != seat:
            assert len(C["players"][i]["hand"]) == len(S["players"][i]["hand"])
            assert all(client.is_masked(c) for c in C["players"][i]["hand"])
    assert all(client.is_masked(c) for c in C["action_unseen"])
    with pytest.raises(ValueError, match="view is seat"):
        client.legal_actions(kp.GAME.view(S, seat), (seat + 1) % 3)
