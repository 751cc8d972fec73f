"""Undo barriers (docs/plugins.md, "Undo barriers"): the Spanish Main events that show
the outcome of chance or reveal what a seat did not know. No undo goes back across an
action with one of them; every other event is a plain consequence of a public choice.
Checked against seeded play by ``tests/plugins/test_undo_barriers.py``.
"""

from __future__ import annotations

from typing import Any, Final

from lantable.plugins import hookimpl

BARRIERS: Final = frozenset({
    "shot",  # a cannon die roll
    "broadside",  # a broadside's dice
    "ram",  # a ram roll
    "boarding",  # a boarding roll
    "scuttle",  # a scuttle roll
    "treasure_dealt",  # face-down treasure dealt to islands
    "saw",  # a treasure looked at
    "explored",  # an island's treasure turned face up
    "refire",  # the Cannoneer's re-fire roll (5.14)
    "fear",  # a fear roll
    "first_player_roll",  # the roll for the first player
    "fog_exit",  # a roll to leave a fog bank
    "marine_shot",  # a marine's roll
    "still_lost",  # a roll to find the way out
    "docked",  # docking shows whether the island still hides treasure to explore
    "towing",  # taking a ship in tow shows what its hold carries
})


@hookimpl
def game_undo_barrier(events: list[dict[str, Any]]) -> bool:
    return any(e.get("type") in BARRIERS for e in events)
