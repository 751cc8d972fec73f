"""Seeded random self-play: every game ends, cards are conserved, views leak nothing."""

from __future__ import annotations

import copy
import random

import msgpack
import pytest

from lantable.plugins import IllegalAction

from . import helpers as kp

OPTIONAL = ["coal", "sails", "woelfchen", "tournament", "fast_raiders", "keep_three",
            "additional_damage", "torpedo_prizes", "sailing_merchants", "prize_resupply",
            "a13_any_interception", "a18_owner_rolls", "a39_strict", "shallow_pursuit",
            "a7_recon_immediate", "no_breakout", "a4_two_assists"]
# (seats, games): 1,000 games in all, half of them with random optional rules
PLAN = [(1, 150), (2, 300), (3, 300), (4, 250)]


def _options(seats: int, seed: int, rng: random.Random) -> dict:
    opts: dict = {}
    if seed % 2:
        opts = {k: rng.random() < 0.5 for k in OPTIONAL}
        if not opts["tournament"]:
            opts["beyond_1914"] = rng.choice(["off", "ships", "ships_and_merchants"])
        opts["first_player"] = rng.choice(["roll", "lowest_vp"])
    if seats == 4 and seed % 3 == 0:
        opts["team_game"] = True
    return opts


def _leak_check(kp, S: dict, seat: int, rng: random.Random) -> None:
    """Changing only other seats' secrets (hands, deck order) leaves this view alone."""
    v = kp.GAME.view(S, seat)
    other = copy.deepcopy(S)
    pool = []
    for i, p in enumerate(other["players"]):
        if i != seat:
            pool += p["hand"]
    known_top = set(S["players"][seat]["known_deck_top"])
    pool += [c for c in other["action_deck_top"] if c not in known_top] + other["action_unseen"]
    rng.shuffle(pool)
    for i, p in enumerate(other["players"]):
        if i != seat:
            p["hand"] = [pool.pop() for _ in p["hand"]]
    other["action_deck_top"] = [c if c in known_top else pool.pop()
                                for c in other["action_deck_top"]]
    other["action_unseen"] = sorted(pool.pop() for _ in other["action_unseen"])
    assert kp.GAME.view(other, seat) == v


def _play(kp, seats: int, seed: int) -> int:
    rng = random.Random(seed * 7919 + seats)
    S = kp.GAME.setup(seats, _options(seats, seed, rng), rng)
    steps = 0
    deep = seed % 25 == 0
    while not kp.GAME.is_over(S):
        acting = kp.GAME.to_act(S)
        seat = rng.choice(acting)
        legal = kp.GAME.legal_actions(S, seat)
        assert legal
        if (deep and steps % 5 == 0) or steps % 97 == 0:
            kp.check_cards(S)
            assert msgpack.unpackb(msgpack.packb(S), strict_map_key=False) == S
        if deep and steps % 20 == 0:
            before = copy.deepcopy(S)
            saved = rng.getstate()
            with pytest.raises(IllegalAction):
                kp.GAME.apply(S, seat, {"type": "play", "card": -1}, rng)
            assert S == before
            assert rng.getstate() == saved
            for s in range(seats):
                v = kp.GAME.view(S, s)
                msgpack.packb(v)
                sample = kp.GAME.sample_state(v, s, random.Random(steps))
                kp.check_cards(sample)
                assert kp.GAME.view(sample, s) == v
                # a search bot sees the same choices in a sampled world
                assert kp.GAME.legal_actions(sample, s) == kp.GAME.legal_actions(S, s)
                _leak_check(kp, S, s, random.Random(steps + s))
            msgpack.packb(kp.GAME.view(S, None))
        events = kp.GAME.apply(S, seat, rng.choice(legal), rng)
        msgpack.packb(events)
        steps += 1
        assert steps < 50_000
    kp.check_cards(S)
    sc = kp.GAME.scores(S)
    assert len(sc["scores"]) == seats
    assert len(sc["rank"]) == seats
    assert min(sc["rank"]) == 1 or seats == 1  # solitaire: place 2 means the phantom won
    return steps


@pytest.mark.parametrize(("seats", "games"), PLAN)
def test_random_selfplay_ends_and_conserves_cards(seats: int, games: int) -> None:
    for seed in range(games):
        _play(kp, seats, seed)


def test_sampled_states_play_on() -> None:
    """Worlds from game_sample_state are complete: they can be played to the end."""
    for seats in (1, 2, 3, 4):
        rng = random.Random(seats)
        S = kp.GAME.setup(seats, {"team_game": seats == 4}, rng)
        for step in range(400):
            if kp.GAME.is_over(S):
                break
            seat = rng.choice(kp.GAME.to_act(S))
            if step % 40 == 0:
                world = kp.GAME.sample_state(kp.GAME.view(S, seat), seat, random.Random(step))
                r2 = random.Random(step)
                while not kp.GAME.is_over(world):
                    s2 = r2.choice(kp.GAME.to_act(world))
                    kp.GAME.apply(world, s2, r2.choice(kp.GAME.legal_actions(world, s2)), r2)
                kp.check_cards(world)
            kp.GAME.apply(S, seat, rng.choice(kp.GAME.legal_actions(S, seat)), rng)


def test_same_seed_same_game() -> None:
    def run() -> list:
        rng = random.Random(5)
        S = kp.GAME.setup(3, {}, rng)
        log = []
        while not kp.GAME.is_over(S):
            seat = kp.GAME.to_act(S)[0]
            a = rng.choice(kp.GAME.legal_actions(S, seat))
            log.append(kp.GAME.apply(S, seat, a, rng))
        return log
    assert run() == run()


def test_describe_every_offered_action_and_heuristic_prefers_vp() -> None:
    rng = random.Random(3)
    S = kp.GAME.setup(4, {"team_game": True, "prize_resupply": True}, rng)
    kinds = set()
    for _ in range(3000):
        if kp.GAME.is_over(S):
            break
        seat = kp.GAME.to_act(S)[0]
        legal = kp.GAME.legal_actions(S, seat)
        for a in legal:
            text = kp.GAME.describe(S, seat, a)
            assert text
            assert "=" not in text
            kinds.add(a["type"])
        kp.GAME.apply(S, seat, rng.choice(legal), rng)
    assert {"commit", "play", "done", "end_turn", "pass", "react", "keep"} <= kinds
    S = kp.GAME.setup(3, {}, random.Random(1))
    base = kp.GAME.heuristic(S, 0)
    S["players"][0]["vp_pile"].append({"ship": 25, "mult": 1, "how": "sunk_m"})
    assert kp.GAME.heuristic(S, 0) > base
    assert kp.GAME.heuristic(S, 1) < base + 1
