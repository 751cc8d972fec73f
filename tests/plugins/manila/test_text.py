"""Manila in words: labels carry costs, payouts and odds; every event has a sentence;
the board renders from any seat's view (and a spectator's) through a whole game."""

from __future__ import annotations

import random

from rich.console import Console

from lantable.clients.bots import make_bot
from lantable.plugins import load_registry
from lantable.plugins.manila import text

NAMES = ["ann", "bob", "cy", "dee"]


def _game():
    return load_registry()["manila"]


def _render(game, view, seat) -> str:
    console = Console(width=110, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(game.render_text(view, seat, NAMES))
    return console.export_text()


def _placing_view():
    """A 4-seat game played by greedy bots up to the first placement decision."""
    game = _game()
    rng = random.Random(3)
    state = game.setup(4, {}, rng)
    bot = make_bot("greedy", game)
    while state["phase"] != "place":
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        game.apply(state, seat, bot.choose(game.view(state, seat), seat, legal, rng), rng)
    return game, state


def test_arrival_chance_is_the_dice_arithmetic():
    view = {"where": [0, 1, 2], "pos": [10, 14, 3], "rolls": 2, "plundered": [False] * 3}
    assert text.arrival_chance(view, 0) == 0.5  # one die left, needs 4+
    assert text.arrival_chance(view, 1) == 1.0 and text.arrival_chance(view, 2) == 0.0
    fresh = {**view, "rolls": 0, "pos": [5, 0, 0]}
    assert abs(text.arrival_chance(fresh, 0) - 160 / 216) < 1e-9  # 3d6 >= 9


def test_labels_carry_costs_payouts_and_odds():
    game, state = _placing_view()
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    actions = [*game.legal_actions(state, seat), {"type": "place", "space": "dock", "slot": "C"},
               {"type": "place", "space": "boat", "good": "jade"}]
    labels = [game.describe(view, seat, a, NAMES) for a in actions]
    dock_c = [x for x in labels if x.startswith("dock C")]
    assert dock_c and dock_c[0].startswith("dock C — costs 2, pays 15 if 3 boats dock (")
    boat = [x for x in labels if "the jade boat" in x and "seat" in x]
    assert boat and "costs 3" in boat[0] and "pays 36" in boat[0] and "to dock" in boat[0]
    assert any(x.startswith("insurance — free, you get 10 now") for x in labels)


def test_every_event_of_a_whole_game_has_its_own_sentence_and_the_board_always_renders():
    game = _game()
    rng = random.Random(11)
    state = game.setup(4, {}, rng)
    bot = make_bot("random", game)
    seen: set[str] = set()
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        if len(seen) < 40:
            board = _render(game, view, seat)
            assert "Share prices" in board and NAMES[seat] in board
        action = bot.choose(view, seat, game.legal_actions(state, seat), rng)
        for event in game.apply(state, seat, action, rng):
            sentence = text.game_describe_event(game.view(state, seat), seat, event, NAMES)
            assert sentence, event
            assert "{" not in sentence and "_" not in sentence, sentence
            seen.add(event["type"])
    assert {"bid", "placed", "roll", "arrived", "prices", "game_over"} <= seen
    spectator = _render(game, game.view(state, None), None)
    assert "You:" not in spectator and "ann" in spectator
