"""Undo barriers (docs/plugins.md, "Undo barriers"): the Blackbeard events that show
the outcome of chance or reveal what a seat did not know. No undo goes back across an
action with one of them; every other event is a plain consequence of a public choice.
Checked against seeded play by ``tests/plugins/test_undo_barriers.py``.
"""

from __future__ import annotations

from typing import Any, Final

from lantable.plugins import hookimpl

BARRIERS: Final = frozenset({
    "roll",  # a die roll
    "drew",  # a card drawn from the shuffled deck
    "drew_hidden",  # the card drawn, told to its drawer
    "warship_placed",  # a warship drawn at random
    "merchant_placed",  # a merchant drawn at random
    "mpi",  # a Must-Play-Immediately card drawn and played
    "kc_attacks_port",  # a King's Commissioner's attack roll
    "storm",  # a storm's roll
    "found_merchant",  # the merchant found at sea, its hidden value shown
    "pirate_dealt",  # a pirate drawn at random from the pirate deck
})


@hookimpl
def game_undo_barrier(events: list[dict[str, Any]]) -> bool:
    return any(e.get("type") in BARRIERS for e in events)
