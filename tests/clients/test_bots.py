"""Bots: they play only from their view, and the search bots beat random play."""

from __future__ import annotations

import random

import pytest

from lantable.clients.bots import GreedyBot, MCTSBot, RandomBot, make_bot
from lantable.clients.selfplay import simulate
from lantable.plugins import IllegalAction, hookimpl, load_registry


class NoSampler:
    @hookimpl
    def game_info(self):
        return {"id": "nosampler", "title": "x", "version": "1", "min_seats": 1, "max_seats": 1,
                "options": {}}

    @hookimpl
    def game_setup(self, seats, options, rng):
        return {"done": False}

    @hookimpl
    def game_to_act(self, state):
        return [] if state["done"] else [0]

    @hookimpl
    def game_legal_actions(self, state, seat):
        return [{"type": "end"}]

    @hookimpl
    def game_apply(self, state, seat, action, rng):
        if action["type"] != "end":
            raise IllegalAction("only end")
        state["done"] = True
        return []

    @hookimpl
    def game_view(self, state, seat):
        return dict(state)

    @hookimpl
    def game_scores(self, state):
        return {"scores": [0], "rank": [1]}


@pytest.fixture(scope="module")
def race():
    return load_registry(autoload=False, plugins={
        "race": __import__("lantable.plugins.race", fromlist=["x"])})["race"]


def test_search_bots_refuse_a_game_without_sampler():
    game = load_registry(autoload=False, plugins={"n": NoSampler()})["nosampler"]
    assert isinstance(make_bot("random", game), RandomBot)
    for strategy in ("greedy", "mcts"):
        with pytest.raises(ValueError, match="game_sample_state"):
            make_bot(strategy, game)
    with pytest.raises(ValueError, match="unknown strategy"):
        make_bot("psychic", game)


def test_bots_never_mutate_the_view(race):
    state = race.setup(2, None, random.Random(1))
    view = race.view(state, 0)
    before = race.clone(view)
    for bot in (RandomBot(race), GreedyBot(race), MCTSBot(race, iterations=50)):
        action = bot.choose(view, 0, race.legal_actions(state, 0), random.Random(2))
        assert action in race.legal_actions(state, 0)
        assert view == before


def test_greedy_finds_the_winning_move_at_race(race):
    state = race.setup(2, {"target": 21, "max_step": 2}, random.Random(1))
    state["counter"] = 17  # 4 to go: taking 1 leaves the rival a losing 3
    action = GreedyBot(race).choose(race.view(state, 0), 0, race.legal_actions(state, 0),
                                    random.Random(3))
    assert action == {"type": "step", "n": 1}


def test_mcts_finds_the_winning_move_at_race(race):
    state = race.setup(2, {"target": 21, "max_step": 2}, random.Random(1))
    state["counter"] = 14  # 7 to go: taking 1 leaves 6, a multiple of 3
    bot = MCTSBot(race, iterations=400, rollout_depth=40)
    action = bot.choose(race.view(state, 0), 0, race.legal_actions(state, 0), random.Random(3))
    assert action == {"type": "step", "n": 1}


@pytest.mark.parametrize("strategy", ["greedy", "mcts"])
def test_search_bots_beat_random_at_race(race, strategy):
    bot_options = {"iterations": 100} if strategy == "mcts" else None
    result = simulate(race, games=40, players=2, strategies=[strategy, "random"], seed=3,
                      bot_options=bot_options)
    assert result.wins[0] / result.games >= 0.8


def test_simulate_tunes_the_collector_for_the_batch_only_and_changes_no_result(monkeypatch):
    """`simulate` freezes what is alive and collects the young generation less often
    while it plays (selfplay.batch_gc); afterwards the collector is as it was, and the
    games are the same as with the default collector."""
    import gc

    from lantable.clients import selfplay

    game = load_registry().games["nero"]
    before = gc.get_threshold()
    seen = []
    original = selfplay.play_one

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold())
        return original(*args, **kwargs)

    monkeypatch.setattr(selfplay, "play_one", spy)
    tuned = simulate(game, games=3, players=3, strategies=["random"], seed=5)
    assert seen == [selfplay.BATCH_GC_THRESHOLD] * 3
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    plain = [original(game, [RandomBot(game)] * 3, random.Random(5 * 1_000_003 + g), seats=3)
             for g in range(3)]
    assert tuned.lengths == [n for _, n in plain]
