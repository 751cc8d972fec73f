"""Nero's bots: the game's own mcts defaults, and bots that move, fight and go for the
throne. Strength against random bots is measured in ``bench/nero_bots.py`` (docs/rules/
nero.md quotes the figures); these tests only check what the bots are given and do."""

from __future__ import annotations

import random

import pytest

from lantable.clients.bots import MCTSBot, make_bot

from . import helpers as nx


def test_mcts_takes_neros_defaults_and_arguments_win() -> None:
    bot = make_bot("mcts", nx.GAME)
    assert (bot.rollout_depth, bot.reward) == (0, "heuristic")
    bot = make_bot("mcts", nx.GAME, rollout_depth=5, reward="rank")
    assert (bot.rollout_depth, bot.reward) == (5, "rank")


def test_mcts_refuses_an_unknown_reward() -> None:
    with pytest.raises(ValueError, match="reward"):
        MCTSBot(nx.GAME, reward="votes")


def test_mcts_heuristic_reward_is_each_seats_heuristic_squashed() -> None:
    """A leaf is worth 0.5 + tanh(h)/2 to each seat: the seat ahead gets more than 0.5,
    the others less, and a wider lead more."""
    S = nx.board(legions={"Britannia": {0: 3}, "Hispania": {0: 3}, "Lusitania": {0: 1}})
    bot = MCTSBot(nx.GAME, rollout_depth=0, reward="heuristic")
    values, _ = bot._rollout(nx.GAME.clone(S), random.Random(0))
    assert values[0] > 0.5 > values[1]
    S2 = nx.GAME.clone(S)
    S2["vp"][0] += 10
    assert bot._rollout(S2, random.Random(0))[0][0] > values[0]


@pytest.mark.parametrize("strategy", ["greedy", "mcts"])
def test_bots_march_and_do_not_just_discard(strategy: str) -> None:
    """Over one Game Turn of a short game a bot at seat 0 uses cards to move (it must
    move, fight and go for the throne, not pass)."""
    game = nx.GAME
    rng = random.Random(3)
    S = game.setup(4, nx.opts(short_game=True), rng)
    bot = make_bot(strategy, game, iterations=20) if strategy == "mcts" else \
        make_bot(strategy, game)
    rnd = make_bot("random", game)
    moves = 0
    while not game.is_over(S) and S["game_turn"] == 1:
        seat = game.to_act(S)[0]
        legal = game.legal_actions(S, seat)
        chooser = bot if seat == 0 else rnd
        action = chooser.choose(game.view(S, seat), seat, legal, rng)
        moves += seat == 0 and action["type"] in ("march", "step", "attack", "event")
        game.apply(S, seat, action, rng)
    assert moves >= 3
