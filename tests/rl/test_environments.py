"""lantable.rl: every installed game as a PettingZoo AEC environment (PettingZoo's own
api_test), observations from the seat's own view only, the single-seat Gymnasium
environment, and the example's learner actually learning."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from lantable.plugins import load_registry  # noqa: E402
from lantable.rl import encode, env, placing_reward, single  # noqa: E402
from lantable.rl.example import learn  # noqa: E402

GAMES = sorted(load_registry().games)


@pytest.mark.parametrize("gid", GAMES)
def test_pettingzoo_api_test_passes(gid: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on space types, not failures
        api_test(env(gid), num_cycles=200)


def _play_to_end(e, seed: int) -> tuple[dict[str, float], int]:
    e.reset(seed=seed)
    pick, final, steps = random.Random(seed), {}, 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(e.actions(agent)) > 0
        e.step(int(pick.choice(legal)))
        steps += 1
    return final, steps


@pytest.mark.parametrize("gid", GAMES)
def test_a_whole_game_ends_with_rewards_from_the_ranking(gid: str) -> None:
    e = env(gid)
    final, steps = _play_to_end(e, seed=5)
    assert set(final) == set(e.possible_agents) and steps > 0
    # The same seed and choices give the same game (chance is the env's seeded rng).
    assert _play_to_end(env(gid), seed=5) == (final, steps)
    assert max(final.values()) == 1.0


def test_rewards_place_first_plus_one_last_minus_one():
    assert [placing_reward([2, 1, 3], s) for s in range(3)] == [0.0, 1.0, -1.0]
    assert [placing_reward([1, 1, 3, 4], s) for s in range(4)] == pytest.approx(
        [1.0, 1.0, -1 / 3, -1.0])
    assert placing_reward([1], 0) == 1.0 and placing_reward([2], 0) == -1.0


@pytest.mark.parametrize("gid", [g for g in GAMES if load_registry()[g].info.get(
    "traits", {}).get("hidden_information")])
def test_an_observation_is_built_from_the_seats_own_view_only(gid: str, monkeypatch) -> None:
    e = env(gid)
    e.reset(seed=11)
    asked: list[int | None] = []
    game = e.game
    real = type(game).view
    monkeypatch.setattr(type(game), "view", lambda self, state, seat: (
        asked.append(seat), real(self, state, seat))[1])
    pick = random.Random(1)
    for _ in range(60):
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            break
        seat = e.possible_agents.index(agent)
        asked.clear()
        obs = e.observe(agent)
        assert asked == [seat], f"observing {agent} read views of {asked}"
        assert np.array_equal(obs["observation"], encode(real(game, e.state_, seat)))
        e.step(pick.randrange(len(e.actions(agent))))


def test_the_encoding_names_paths_and_values():
    import zlib
    v = {"players": [{"cash": 3}], "phase": "bid", "winner": None, "hand": []}
    out = encode(v, 4096)
    assert out[zlib.crc32(b".players.0.cash") % 4096] == pytest.approx(np.log1p(3))
    assert out[zlib.crc32(b".phase=bid") % 4096] == 1.0
    assert out[zlib.crc32(b".winner=None") % 4096] == 1.0
    assert out[zlib.crc32(b".hand=empty") % 4096] == 1.0
    assert out.dtype == np.float32 and out.shape == (4096,)
    assert not np.array_equal(encode({"phase": "bid"}), encode({"phase": "sail"}))


def test_an_action_outside_the_mask_is_refused_in_words():
    e = env("race", 2)
    e.reset(seed=0)
    with pytest.raises(ValueError, match="not one of its 2 legal actions"):
        e.step(5)


def test_one_seat_against_lantable_bots():
    e = single("manila", seats=3, seat=1, opponents="greedy")
    obs, info = e.reset(seed=3)
    assert e.observation_space.contains(obs) and info["actions"]
    pick = random.Random(3)
    for _ in range(2000):
        obs, reward, terminated, truncated, info = e.step(
            pick.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        if terminated or truncated:
            break
    assert terminated and reward in (1.0, 0.0, -1.0) and info["scores"]["rank"]


def test_the_example_learner_beats_a_random_policy():
    out = learn("race", episodes=1500, seed=0, trials=300)
    assert out["learned_policy_win_rate"] >= out["random_policy_win_rate"] + 0.3
