"""Undo barriers (docs/plugins.md, "Undo barriers"): the Manila events that show
the outcome of chance or reveal what a seat did not know. No undo goes back across an
action with one of them; every other event is a plain consequence of a public choice.
Checked against seeded play by ``tests/plugins/test_undo_barriers.py``.
"""

from __future__ import annotations

from typing import Any, Final

from lantable.plugins import hookimpl

BARRIERS: Final = frozenset({
    "roll",  # the movement dice (rules 4.4)
})


@hookimpl
def game_undo_barrier(events: list[dict[str, Any]]) -> bool:
    return any(e.get("type") in BARRIERS for e in events)
