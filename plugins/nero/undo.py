"""Undo barriers (docs/plugins.md, "Undo barriers"): the Nero events that show
the outcome of chance or reveal what a seat did not know. No undo goes back across an
action with one of them; every other event is a plain consequence of a public choice.
Checked against seeded play by ``tests/plugins/test_undo_barriers.py``.
"""

from __future__ import annotations

from typing import Any, Final

from lantable.plugins import hookimpl

BARRIERS: Final = frozenset({
    "dealt",  # cards dealt to a seat
    "deal",  # the deck shuffled and dealt
    "stolen",  # a card drawn at random from a hand
    "traitor",  # a traitor drawn at random
    "first_drawn",  # the first player drawn at random
    "event",  # an event card played from a hidden hand
    "answer",  # a reaction card played from a hidden hand
    "committed",  # battle cards committed from a hidden hand, shown
    "battle",  # a battle's cards and result
})

# With reactions = holders, what may be answered asks only the seats holding a fitting
# card, so the table learns who holds one, or that nobody does (docs/rules/nero.md).
ANSWERABLE: Final = frozenset({"march", "step", "sailed", "retreated", "attack", "group"})


@hookimpl
def game_undo_barrier(events: list[dict[str, Any]], state: dict[str, Any]) -> bool:
    if any(e.get("type") in BARRIERS for e in events):
        return True
    # With reactions = holders (docs/rules/nero.md, "only the seats that hold a fitting
    # card are asked") an open window shows who holds a fitting card: a reveal.
    if state["options"]["reactions"] != "holders":
        return False
    return any(e.get("type") in ANSWERABLE for e in events) or any(
        item["kind"] in ("window", "assassination") for item in state["pending"])
