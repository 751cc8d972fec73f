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


def _pirate_view(pirates):
    return {"pirates": pirates, "goods": [0, 1, 2], "where": [0, 0, 0], "pos": [3, 3, 3],
            "crew": [[], [], []], "rolls": 0, "plundered": [False] * 3}


def test_7_the_pirate_spaces_read_as_sentences():
    """7: "pirate second pirate — costs 5" was two nouns; each space is now a choice."""
    action = {"type": "place", "space": "pirate"}
    first = text.game_describe_action(_pirate_view([None, None]), 0, action, NAMES)
    second = text.game_describe_action(_pirate_view([1, None]), 0, action, NAMES)
    assert first.startswith("become the pirate captain — costs 5; may board a boat on 13")
    assert second.startswith("become the second pirate — costs 5; may board a boat on 13")
    assert "pirate pirate" not in first + second and "pirate second" not in second


def _sentence(event, view=None):
    return text.game_describe_event(view if view is not None else {"cash": [0] * 4}, 0, event,
                                    NAMES)


def test_4_3_each_payment_is_told_once_by_its_cash_event():
    """4.3 (placing) and 4.1/4.2a: the amount paid is in the cash sentence only; the
    sentence of what was bought names it without repeating the amount."""
    pays = _sentence({"type": "cash", "seat": 1, "delta": -2, "why": "nutmeg seat 1"})
    takes = _sentence({"type": "placed", "seat": 1, "space": "nutmeg seat 1", "cost": 2})
    assert pays == "bob pays 2 for seat 1 on the nutmeg boat"
    assert takes == "bob takes seat 1 on the nutmeg boat"
    assert _sentence({"type": "cash", "seat": 0, "delta": -5, "why": "second pirate"}) == \
        "ann pays 5 for the second pirate's place"
    assert _sentence({"type": "placed", "seat": 0, "space": "pilot large", "cost": 5}) == \
        "ann takes the large pilot"
    assert _sentence({"type": "cash", "seat": 2, "delta": -44, "why": "harbour master"}) == \
        "cy pays 44 to be harbour master"
    assert _sentence({"type": "harbour_master", "seat": 2, "paid": 44}) == "cy is harbour master"
    assert _sentence({"type": "harbour_master", "seat": 2, "paid": 0}) == \
        "cy is harbour master for free: everyone passed"
    assert _sentence({"type": "cash", "seat": 3, "delta": -5, "why": "share"}) == \
        "dee pays 5 for a share"
    assert _sentence({"type": "bought", "seat": 3, "good": "jade", "price": 5}) == \
        "dee buys a jade share"
    assert _sentence({"type": "placed", "seat": 0, "space": "silk seat 2", "cost": 0,
                      "stowaway": True}) == "ann stows away on seat 2 on the silk boat, for free"


def test_decision_16_with_secret_cash_the_purchase_tells_the_amount():
    """Decision 16 (hide_cash): the others never see the cash event, so the purchase says it."""
    assert _sentence({"type": "placed", "seat": 1, "space": "dock A", "cost": 4}, view={}) == \
        "bob takes dock A for 4"
    assert _sentence({"type": "harbour_master", "seat": 1, "paid": 20}, view={}) == \
        "bob is harbour master for 20"


def test_4_9_payouts_say_what_they_pay_for():
    crew = _sentence({"type": "cash", "seat": 0, "delta": 12, "why": "crew"})
    assert crew == "ann gets 12 for a seat on a boat that reached Manila"
    assert _sentence({"type": "cash", "seat": 0, "delta": 15, "why": "shipyard C"}) == \
        "ann gets 15 for shipyard C"
    assert _sentence({"type": "cash", "seat": 0, "delta": -8, "why": "insurance"}) == \
        "ann pays 8 as the insurance agent, for a boat in the shipyard"
    assert _sentence({"type": "cash", "seat": 0, "delta": 10, "why": "insurance"}) == \
        "ann gets 10 for taking the insurance"


def test_a_whole_game_tells_every_payment_once():
    """Seeded self-play: no two sentences of one action state the same payment."""
    game = _game()
    rng = random.Random(5)
    state = game.setup(3, {}, rng)
    bot = make_bot("random", game)
    told = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        action = bot.choose(game.view(state, seat), seat, game.legal_actions(state, seat), rng)
        events = game.apply(state, seat, action, rng)
        view = game.view(state, None)
        said = [text.game_describe_event(view, None, e, NAMES) for e in events]
        for e, line in zip(events, said, strict=True):
            if e["type"] == "cash" and e["delta"] < 0 and e["why"] != "redeem":
                amount = str(-e["delta"])
                assert line.startswith(f"{NAMES[e['seat']]} pays {amount} ")
                others = [x for x in said if x != line and (" takes " in x or " is harbour"
                                                             in x or " buys " in x)]
                assert not any(x.endswith(f" for {amount}") for x in others), (line, others)
                told += 1
    assert told > 10


def test_7_2_plundered_crews_in_grammar():
    """7.2: "ann lose their seats" was one person in the plural."""
    said = [_sentence({"type": "plundered", "good": "silk", "crew": crew})
            for crew in ([0], [0, 0], [0, 1], [])]
    assert said == ["Pirates plunder the silk boat; ann loses a seat",
                    "Pirates plunder the silk boat; ann loses 2 seats",
                    "Pirates plunder the silk boat; ann and bob lose their seats",
                    "Pirates plunder the silk boat"]
