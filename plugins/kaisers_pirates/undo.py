"""Undo barriers (docs/plugins.md, "Undo barriers"): the Kaiser's Pirates events that show
the outcome of chance or reveal what a seat did not know. No undo goes back across an
action with one of them; every other event is a plain consequence of a public choice.
Checked against seeded play by ``tests/plugins/test_undo_barriers.py``.
"""

from __future__ import annotations

from typing import Any, Final

from lantable.plugins import hookimpl

BARRIERS: Final = frozenset({
    "roll",  # a die roll (combat, passage)
    "drew",  # a card drawn from the shuffled action deck
    "drew_card",  # the card drawn, told to its drawer
    "merchant_drawn",  # a merchant drawn from the shuffled pile
    "ship_drawn",  # a raider drawn from the shuffled pile
    "hand_dealt",  # a new hand dealt
    "hand",  # a seat's new hand, told to it
    "ships_dealt",  # raiders dealt
    "action_deck",  # the action deck shuffled
    "first_player",  # the first player drawn at random
    "revealed",  # the committed secret choices turned face up
    "seen_deck_top",  # the top of the deck looked at
    "cards_taken_were",  # the cards taken, told to the taker
    "seen_hand",  # another seat's hidden hand looked at
    "card_played",  # a card played from a hidden hand
})


@hookimpl
def game_undo_barrier(events: list[dict[str, Any]]) -> bool:
    return any(e.get("type") in BARRIERS for e in events)
