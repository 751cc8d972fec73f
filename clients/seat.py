"""Playing a seat: the loop that turns a table's updates into decisions.

:func:`play_seat` is the same for a person at the terminal and for a bot: it follows
the table, asks its ``decide`` whenever the seat must act, and sends the answer.
:mod:`.session` wraps it to hold the seat through drops; :mod:`.runner` gives it a
bot's decisions.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import trio

from .client import Client, RequestError

if TYPE_CHECKING:
    from lantable.plugins import Action
    from lantable.protocol import Update

LOGGER = logging.getLogger(__name__)

Decide = Callable[["Update", list["Action"]], Awaitable["Action"]]


async def play_seat(client: Client, table: str, seat: int | None, decide: Decide,
                    on_update: Callable[[Update], None] | None = None,
                    on_refused: Callable[[Action, RequestError], None] | None = None,
                    on_idle: Callable[[], None] | None = None,
                    ) -> dict[str, Any] | None:
    """Follow ``table`` as ``seat`` (None: watch) and decide whenever it must, until the
    game ends. A refused action is reported to ``on_refused`` (default: a log warning)
    and the seat decides again on a fresh view. ``on_idle`` is called when no update
    is waiting and the seat has nothing to decide (a screen redraws then, once, rather
    than for every update of a burst).

    Returns:
        The final scores, or None if the connection ended first.
    """
    # Updates already queued when our action was accepted describe the table before
    # it (other seats may have acted in between): decide only on updates numbered at
    # least the one our last action produced.
    fresh_from = 0
    feed = client.updates(table)
    async for update in feed:
        if on_update is not None:
            on_update(update)
        if update.status == "finished":
            return update.scores
        if (seat is None or update.seat != seat or not update.legal
                or update.status != "playing" or update.seq < fresh_from):
            if on_idle is not None and not len(feed):
                on_idle()
            continue
        action = await _decide_unless_lost(client, table, decide, update)
        if action is None:  # the connection ended while we were deciding
            return None
        try:
            fresh_from = await client.act(table, action, seat=seat)
        except RequestError as exc:
            if on_refused is not None:
                on_refused(action, exc)
            else:
                LOGGER.warning("table %s seat %d: %s refused (%s); resyncing",
                               table, seat, action, exc)
            fresh_from = (await client.sync(table)).seq
    return None


async def _decide_unless_lost(client: Client, table: str, decide: Decide,
                              update: Update) -> Action | None:
    """The decision, or None as soon as the seat is lost (the connection closed, or the
    seat was resumed elsewhere): a person thinking at the keyboard hears it at once,
    not when they act."""
    chosen: list[Action] = []
    async with trio.open_nursery() as nursery:
        async def choose() -> None:
            chosen.append(await decide(update, update.legal or []))
            nursery.cancel_scope.cancel()

        async def watch() -> None:
            await client.lost(table).wait()
            nursery.cancel_scope.cancel()

        nursery.start_soon(choose)
        nursery.start_soon(watch)
    return chosen[0] if chosen else None
