"""Issue 24 item 18: the heuristic values a pirate's progress, so greedy plays to win.

The 200+ game measurement is ``bench/blackbeard_bots.py --strategy greedy --rotate``;
this keeps a cheap check of both the mechanism and the result.
"""

from __future__ import annotations

import random

from lantable.clients.bots import make_bot

from .conftest import GAME, actions, add_merchant, me, pirate, place, table


def test_heuristic_rewards_sailing_toward_a_merchant_and_finding_it() -> None:
    S, _rng = table(3, area="NATL")
    seat = me(S)
    S["merchants"] = []
    slot = add_merchant(S, "SATL", cargo=4)
    m = next(m for m in S["merchants"] if m["slot"] == slot)
    m["face_up"] = True
    p = pirate(S, seat)
    unfound = GAME.heuristic(S, seat)
    m["found_by"] = p["id"]
    far = GAME.heuristic(S, seat)
    place(p, "CATL")
    nearer = GAME.heuristic(S, seat)
    place(p, "SATL")
    there = GAME.heuristic(S, seat)
    assert unfound < far < nearer < there


def test_heuristic_values_an_unspent_action() -> None:
    S, _rng = table(3)
    before = GAME.heuristic(S, me(S))
    actions(S, 3)
    assert GAME.heuristic(S, me(S)) > before


def test_greedy_beats_three_random_bots_seat_rotated() -> None:
    greedy, rnd = make_bot("greedy", GAME), make_bot("random", GAME)
    wins = 0
    for g in range(8):
        rng = random.Random(9000 + g)
        at = g % 4
        bots = [greedy if s == at else rnd for s in range(4)]
        S = GAME.setup(4, None, rng)
        while not GAME.is_over(S):
            seat = GAME.to_act(S)[0]
            view = GAME.view(S, seat) if seat == at else None
            GAME.apply(S, seat, bots[seat].choose(view, seat, GAME.legal_actions(S, seat), rng),
                       rng)
        wins += GAME.scores(S)["rank"][at] == 1
    assert wins >= 5, wins  # chance is 2 of 8; the bench measures ~0.8 over 240 games
