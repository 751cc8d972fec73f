"""The turn clock in ``lantable play`` (docs/protocol.md, "Turn clocks and pause"): one
line at the top of the screen, each seat's time counting down, redrawn in place every
second (only that line, so what the person types is left alone).

The remaining time comes from the update (``clock.left_ms``, as of its sending) and is
counted down from when the update arrived here: no wall time crosses the network.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

import trio

if TYPE_CHECKING:
    from lantable.protocol import Update


def clock_text(ms: float) -> str:
    """``1:05``; past an hour ``1:02:05``."""
    s = max(0, -(-int(ms) // 1000))
    h, m, r = s // 3600, (s % 3600) // 60, s % 60
    return f"{h}:{m:02d}:{r:02d}" if h else f"{m}:{r:02d}"


def clock_line(update: Update, arrived: float, seat: int | None, names: list[str],
               now: float | None = None) -> str | None:
    """The clock's line for ``update`` (None at a table with no clock and no pause):
    ``Clock (30 s a decision): ▶ ann 0:12 (you) · bo 0:30``; ``arrived`` and ``now`` are
    ``time.monotonic()`` readings."""
    clock, pause = update.clock, update.pause
    if update.status != "playing" or (clock is None and pause is None):
        return None
    parts = []
    if clock is not None:
        elapsed = ((time.monotonic() if now is None else now) - arrived) * 1000
        seats = []
        for i, left in enumerate(clock["left_ms"]):
            running = i in clock["running"]
            shown = clock_text(left - elapsed if running else left)
            you = " (you)" if i == seat else ""
            name = names[i] if i < len(names) else f"seat {i}"
            seats.append(f"{'▶ ' if running else ''}{name}{you} {shown}")
        rule = (f"{clock['seconds']} s a decision" if clock["kind"] == "decision"
                else f"{clock_text(clock['seconds'] * 1000)} a player"
                + (f" + {clock['increment']} s a move" if clock.get("increment") else ""))
        parts.append(f"Clock ({rule}): " + "  ·  ".join(seats))
    if pause is not None and pause.get("paused"):
        parts.append("PAUSED: the clock is stopped")
    if pause is not None and pause.get("ask"):
        ask = pause["ask"]
        waiting = ", ".join(names[s] for s in ask["waiting"] if s < len(names))
        what = "pause" if ask["paused"] else "resume"
        parts.append(f"{names[ask['by']]} asks to {what}; waiting for {waiting}"
                     + (f" (type /{what} to agree)" if seat in ask["waiting"] else ""))
    return " | ".join(parts)


async def tick(screens: list[Any], out: TextIO = sys.stdout, every: float = 1.0) -> None:
    """Redraw the first line of a live terminal with the clock, every ``every`` seconds
    (save the cursor, write row 1, restore it), until cancelled."""
    while True:
        await trio.sleep(every)
        screen = screens[0] if screens else None
        line = screen.clock_line() if screen is not None and screen.fits else None
        if line is None:
            continue
        out.write(f"\0337\033[1;1H\033[2K{line}\0338")
        out.flush()
