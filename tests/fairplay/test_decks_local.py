"""The hidden-deck game API where the host is the dealer (a table without hidden
decks, bots in-process): ``Game`` shuffles with ``rng``, hands every card over through
``game_cards_opened`` and checks claims itself (docs/plugins.md, "Hidden decks")."""

from __future__ import annotations

import random

import pytest

from lantable.plugins import IllegalAction, PluginError, hookimpl, load_registry
from lantable.plugins.decks import Requests

from .highcard import HighCard, highcard_game


def _play(game, seats, seed, rounds=2):
    rng = random.Random(seed)
    state = game.setup(seats, {"rounds": rounds}, rng)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)), rng)
    return state


def test_random_self_play_keeps_every_card_once():
    game = highcard_game()
    for seed in range(30):
        seats = 2 + seed % 3
        state = _play(game, seats, seed)
        assert sum(state["tricks"]) == 2 * 3
        dealer = state["_dealer"]["decks"]["cards"]
        assert sorted(dealer["order"]) == list(range(20))
        assert dealer["round"] == 2


def test_same_seed_same_game():
    game = highcard_game()
    assert _play(game, 3, 7) == _play(game, 3, 7)


def test_views_never_show_the_dealer_or_another_hand():
    game = highcard_game()
    state = game.setup(2, {}, random.Random(3))
    for seat in (0, 1, None):
        view = game.view(state, seat)
        assert "_dealer" not in view
        if seat is not None:
            assert set(view["cards"]) == {str(p) for p in state["hands"][seat]}


def test_a_false_claim_is_illegal_where_the_host_deals():
    game = highcard_game()
    rng = random.Random(1)
    state = game.setup(2, {}, rng)
    for seat in (0, 1):
        game.apply(state, seat, game.legal_actions(state, seat)[0], rng)
    seat = game.to_act(state)[0]
    action = game.legal_actions(state, seat)[0]
    claim = action["claims"][0]
    lie = dict(action, claims=[dict(claim, card=(claim["card"] + 1) % 20)])
    with pytest.raises(IllegalAction, match="is not card"):
        game.apply(state, seat, lie, rng)
    other = state["hands"][1 - seat][0]
    theirs = dict(action, pos=other, claims=[dict(claim, pos=other)])
    with pytest.raises(IllegalAction):
        game.apply(state, seat, theirs, rng)


def test_requests_refuse_what_the_deck_cannot_take():
    decks = Requests({"cards": 20}, 2)
    with pytest.raises(ValueError, match="no deck"):
        decks.shuffle("other")
    with pytest.raises(ValueError, match="positions"):
        decks.deal("cards", [20], 0)
    with pytest.raises(ValueError, match="no seat"):
        decks.deal("cards", [1], 2)
    decks.shuffle("cards")
    decks.open("cards", [1, 2])
    assert decks.take() == [{"op": "shuffle", "deck": "cards"},
                            {"op": "open", "deck": "cards", "positions": [1, 2]}]


def test_a_game_with_decks_needs_its_client_half():
    class NoHalf(HighCard):
        game_seat_actions = None

    registry = load_registry(autoload=False, plugins={"nohalf": NoHalf()})
    assert "highcard" not in registry
    assert any(isinstance(e, PluginError) and "game_seat_actions" in str(e)
               for e in registry.errors)


def test_games_without_decks_are_unchanged():
    class Plain:
        @hookimpl
        def game_info(self):
            return {"id": "plain", "title": "P", "version": "1", "min_seats": 1,
                    "max_seats": 1, "options": {}}

        @hookimpl
        def game_setup(self, seats, options, rng):
            return {"left": 1}

        @hookimpl
        def game_to_act(self, state):
            return [0] if state["left"] else []

        @hookimpl
        def game_legal_actions(self, state, seat):
            return [{"type": "go"}]

        @hookimpl
        def game_apply(self, state, seat, action, rng):
            state["left"] = 0
            return [{"type": "went"}]

        @hookimpl
        def game_view(self, state, seat):
            return dict(state)

        @hookimpl
        def game_scores(self, state):
            return {"scores": [0], "rank": [1]}

    game = load_registry(autoload=False, plugins={"plain": Plain()})["plain"]
    state = game.setup(1, {}, random.Random(0))
    assert state == {"left": 1} and not game.has_decks and game.decks(1, {}) == {}
    assert game.apply(state, 0, {"type": "go"}, random.Random(0)) == [{"type": "went"}]
