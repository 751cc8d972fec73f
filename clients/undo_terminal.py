"""Undo by consent at the terminal (``lantable play``): the ``undo`` command and the
question to the other seats (docs/protocol.md, "Undo by consent").

The lines a person types go through :class:`UndoLines` first: ``undo``, and ``yes`` or
``no`` while a question waits, are handled here at any time, on one's turn or not; any
other line goes to the choice prompt, as it would without undo (typed ahead, it waits
for the next turn). Bots (``lantable bot``) accept every request
(``client.undo.auto_accept``) and print nothing.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any, TextIO

import trio

from .client import RequestError
from .terminal import _lines_of

LOGGER = logging.getLogger(__name__)

YES = ("yes", "y")
NO = ("no", "n")


class UndoLines:
    """The person's lines, with the undo commands taken out (see the module)."""

    def __init__(self, say: Callable[[str], None], stdin: TextIO = sys.stdin,
                 log: Callable[[str], None] | None = None,
                 source: trio.MemoryReceiveChannel[str | None] | None = None) -> None:
        self.say = say
        self.log = log  # the screen's "last events": a granted or refused undo goes there
        self.stdin = stdin
        self.source = source  # the lines to read (chat commands taken out); None: stdin
        self.client: Any = None
        self.table: str | None = None
        self.question: Any = None  # the `undo` asking this seat, while it waits
        self.deciding = False  # the choice prompt waits for a line
        self._send, self.receive = trio.open_memory_channel[str | None](64)
        self._started = False

    def attach(self, client: Any) -> None:
        """A (new) connection: hear its undo notices; start reading lines once."""
        self.client = client
        client.undo.on_notice = self.notice
        if not self._started:
            self._started = True
            trio.lowlevel.spawn_system_task(self._run)

    def notice(self, msg: Any) -> None:
        self.table = msg.table
        text = msg.message
        if msg.state == "offer":
            text += ' Type "undo" to ask the others to let you take it back.'
        elif msg.state == "asked" and msg.ask is not None:
            self.question = msg
            text += ' Type "yes" to let them take it back, or "no" to keep it. \a'
        elif msg.state != "asked":
            self.question = None
        if msg.state in ("done", "refused") and self.log is not None:
            self.log(msg.message)
        self.say(text)

    async def _run(self) -> None:
        try:
            source = self.source if self.source is not None else _lines_of(self.stdin)
            async for line in source:
                if line is None:
                    self._send.send_nowait(None)
                    return
                if await self.command(line.strip()):
                    continue
                await self._send.send(line)  # for the choice prompt, now or at the next turn
        except Exception:  # noqa: BLE001 - a system task must not take the run down
            LOGGER.exception("reading the terminal failed")

    async def command(self, line: str) -> bool:
        """Handle ``line`` if it is an undo command; whether it was."""
        word = line.lower()
        if self.client is None or self.table is None:
            return False
        try:
            if word == "undo":
                await self.client.undo.ask(self.table)
                return True
            q = self.question
            if q is not None and word in YES + NO:
                self.question = None
                await self.client.undo.answer(q.table, q.undoes, word in YES, q.ask, seq=q.seq)
                self.say("You let them take it back." if word in YES else
                         "You said no: the move stands.")
                return True
        except RequestError as exc:
            self.say(exc.message)
            return True
        return False
