"""Kaiser's Pirates in words: combat odds are the 5.2 arithmetic, every event of
random games has a sentence, and the board renders for every seat and a spectator."""

from __future__ import annotations

import random

from rich.console import Console

from lantable.plugins import load_registry
from lantable.plugins.kaisers_pirates import text

NAMES = ["ann", "bob", "cy"]


def _render(game, view, seat) -> str:
    console = Console(width=120, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(game.render_text(view, seat, NAMES))
    return console.export_text()


def test_5_2_combat_odds():
    sunk, damaged = text._odds((10,), 0, (4,), 0)
    # a d10 against a d4: count the (a, d) pairs with a >= 2d and d < a < 2d
    pairs = [(a, d) for a in range(1, 11) for d in range(1, 5)]
    assert abs(sunk - sum(a >= 2 * d for a, d in pairs) / 40) < 1e-9
    assert abs(damaged - sum(d < a < 2 * d for a, d in pairs) / 40) < 1e-9
    # modifiers never take a result below 1 (5.4): -9 on a d4 always leaves 1
    assert abs(text._odds((10,), 0, (4,), -9)[0] - 0.9) < 1e-9  # every a >= 2 sinks


def test_every_event_has_a_sentence_and_the_board_renders_for_everyone():
    game = load_registry()["kaisers-pirates"]
    for seed in (1, 2):
        rng = random.Random(seed)
        state = game.setup(3, {}, rng)
        for step in range(300):
            to_act = game.to_act(state)
            if not to_act:
                break
            seat = to_act[0]
            view = game.view(state, seat)
            legal = game.legal_actions(state, seat)
            if step % 25 == 0:
                board = _render(game, view, seat)
                assert f"{NAMES[seat]} (you)" in board and "Your hand" in board
                assert "Your hand" not in _render(game, game.view(state, None), None)
                for action in legal:
                    label = game.describe(view, seat, action, NAMES)
                    assert "seat " not in label, label
            for event in game.apply(state, seat, rng.choice(legal), rng):
                sentence = text.game_describe_event(view, seat, event, NAMES)
                assert sentence, event


def test_a_sunk_action_card_in_a_vp_pile_has_a_sentence():
    """An AMC, Q-ship or submarine sunk in a duel goes to a VP pile as a card, not a ship."""
    from lantable.plugins.kaisers_pirates.data import ACTIONS
    sub = next(c for c in ACTIONS if c["type"] == "submarine_u")
    event = {"type": "to_vp_pile", "card": sub["id"], "seat": 1, "mult": 1, "how": "duel"}
    sentence = text.game_describe_event({}, 0, event, NAMES)
    assert sentence == f"Submarine {sub['ship']} goes to bob's VP pile: {sub['vp']} VP"


def _said(event, view=None):
    return text.game_describe_event(view or {}, 0, event, NAMES)


def test_counts_of_one_read_in_the_singular():
    """"1 cards" was in several sentences; one of anything is singular, more plural."""
    assert _said({"type": "hand_dealt", "seat": 1, "n": 1}) == "bob is dealt 1 card"
    assert _said({"type": "hand_dealt", "seat": 1, "n": 6}) == "bob is dealt 6 cards"
    assert _said({"type": "discarded", "seat": 0, "cards": [3]}) == "ann discards 1 card"
    assert _said({"type": "discarded", "seat": 0, "cards": []}) == "ann discards no cards"
    assert _said({"type": "cards_taken", "seat": 0, "n": 1, "from": 2}) == \
        "ann takes 1 card from cy"
    assert _said({"type": "took_discards", "seat": 2, "cards": [4]}) == \
        "cy takes 1 card from the discards"
    assert _said({"type": "reshuffle", "deck": "adeck", "n": 1}) == \
        "The Action deck is reshuffled (1 card)"
    assert _said({"type": "action_deck", "n": 1}) == "The Action deck has 1 card"
    assert _said({"type": "deck_reordered", "seat": 1, "n": 1}) == \
        "bob reorders the top 1 card of the deck"
    assert _said({"type": "hand", "seat": 0, "cards": []}) == "Your hand is empty"


def test_r_3_3_1_a_duel_is_told_in_a_sentence():
    """R 3.3.1 / 3.3.46: "Duel results: none and none" became what happened to whom."""
    assert _said({"type": "duel", "results": ["none", "none"]}) == \
        "The duel leaves both ships unharmed"
    assert _said({"type": "duel", "results": ["damaged", "sunk"]}) == \
        "The duel leaves the raider damaged and its target sunk"
    assert _said({"type": "duel", "results": ["sunk", "none"]}) == \
        "The duel leaves the raider sunk and its target unharmed"


def test_7_4_the_board_explains_the_round_points_beside_the_vp():
    game = load_registry()["kaisers-pirates"]
    for seats, options, top in ((2, {}, 2), (3, {}, 3), (1, {}, 2)):
        state = game.setup(seats, options, random.Random(1))
        board = _render(game, game.view(state, 0), 0)
        flat = " ".join(board.split())
        assert f"the most VP scores {top}, the next {top - 1}" in flat, flat
        assert "Most RP after round 3 wins; equal RP go to total VP." in flat
        assert "Action deck 1 cards" not in flat and "icpt on" not in flat


def test_r_3_3_1_rolls_name_the_cards_in_capitals():
    """"Amc attack" was the card type with a capital A: AMC is an acronym."""
    roll = {"type": "roll", "what": "amc_attack", "a_seat": 1, "a_dice": [10, 8], "a": 10,
            "d_seat": 0, "d_dice": [10, 6], "d": 5}
    assert _said(roll) == "AMC attack: bob rolls 10 (10/8) against ann 5 (10/6)"
    assert _said({**roll, "what": "q_gun"}).startswith("Q-ship gun: bob rolls 10")
