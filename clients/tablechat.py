"""Chat and rematch in ``lantable play`` (docs/protocol.md, "Chat and rematch").

:class:`Keyboard` reads every typed line: a line that starts with ``/`` is a command
(``/say TEXT``, ``/mute NAME``, ``/unmute NAME``, ``/pause``, ``/resume``, ``/again``,
``/no``, ``/help``),
served at once, whether or not it is your turn; any other line goes on to the
decider (:class:`~.terminal.TerminalDecider`, through :attr:`Keyboard.decisions`).
:class:`TableChat` follows the table's chat on the seat's connection: each line the
host sends is shown on the screen (``Screen.chat``), and it remembers a rematch the
host offers, so that ``/again`` after the game joins it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import trio

from lantable.protocol import (
    Chat,
    ChatHistory,
    ChatLog,
    ChatMessage,
    Joined,
    Message,
    Mute,
    PauseNoted,
    Rematch,
    RematchOffered,
)

from .client import ClientError

if TYPE_CHECKING:
    from .client import Client
    from .screen import Screen
    from .session import Held

LOGGER = logging.getLogger(__name__)

HELP = ("Commands: /say TEXT (chat at this table), /mute NAME, /unmute NAME, /pause and "
        "/resume (ask the others, or agree when they ask), /again (play again with the same "
        "people when the game is over), /no (decline a rematch).")


def chat_line(msg: ChatMessage | dict[str, Any]) -> str:
    """A chat line in words: "ann: good luck", "cy (watching): ..."."""
    get = msg.get if isinstance(msg, dict) else (lambda k: getattr(msg, k))
    who = f"{get('name')} (watching)" if get("room") == "spectators" else str(get("name"))
    return f"{who}: {get('text')}"


class TableChat:
    """The chat and rematch of the table this terminal sits at."""

    def __init__(self) -> None:
        self.client: Client | None = None
        self.table: str | None = None
        self.screen: Screen | None = None
        self.offer: RematchOffered | None = None
        self.next: Joined | None = None  # the rematch seat we took (/again)
        self.wanted = trio.Event()  # /again or /no was typed after the game
        self._nursery: trio.Nursery | None = None

    def attach(self, client: Client, held: Held, nursery: trio.Nursery) -> None:
        """The seat's connection (again, after a reconnect): follow its chat."""
        self.client, self.table = client, held.table
        self._nursery = nursery
        client.listeners.append(self._heard)
        nursery.start_soon(self._history, client, held.table)

    async def _history(self, client: Client, table: str) -> None:
        try:
            log = await client._request(ChatHistory, table=table)
        except (ClientError, trio.TooSlowError):
            return
        if isinstance(log, ChatLog) and self.screen is not None:
            self.screen.chat.clear()
            self.screen.chat.extend(chat_line(m) for m in log.messages)

    def _heard(self, msg: Message) -> None:
        if isinstance(msg, ChatMessage) and msg.table == self.table:
            self._show(chat_line(msg))
        elif isinstance(msg, RematchOffered) and msg.table == self.table:
            self.offer = msg
            mine = [s for s in msg.seats if s["state"] == "asked"]
            names = ", ".join(s["name"] for s in mine)
            self._show(f"** {msg.by} asks for a rematch (same game and options, seats "
                       f"rotated): type /again to play, /no to decline"
                       + (f"; waiting for {names}" if names else "") + " **")

    def _show(self, text: str) -> None:
        if self.screen is not None:
            self.screen.chat.append(text)
            if self.screen.update is not None:
                self.screen.refresh()

    def _say(self, text: str) -> None:
        if self.screen is not None:
            self.screen.notice = text
            self.screen.refresh()

    async def command(self, line: str) -> None:
        """Serve one ``/`` command typed by the person."""
        word, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        client = self.client
        try:
            if word in ("/say", "/s") and rest:
                if client is None or self.table is None:
                    self._say("Not at a table yet; wait a moment.")
                    return
                said = await client._request(Chat, table=self.table, text=rest)
                if isinstance(said, ChatMessage):  # our own line comes back as the reply
                    self._show(chat_line(said))
            elif word in ("/mute", "/unmute") and rest and client is not None:
                await client._request(Mute, name=rest, mute=word == "/mute")
                self._say(f"{rest} is muted: their lines no longer reach you." if word == "/mute"
                          else f"{rest} is heard again.")
            elif word in ("/pause", "/resume") and client is not None and self.table is not None:
                noted = await client.pause(self.table, word == "/pause")  # host/clock.py
                self._say(_pause_said(noted))
            elif word in ("/again", "/no") and client is not None and self.table is not None:
                reply = await client._request(Rematch, table=self.table,
                                              decline=True if word == "/no" else None)
                if isinstance(reply, Joined):
                    self.next = reply
                    self._say(f"You are in the rematch: table {reply.table}, seat "
                              f"{reply.seat}. It starts when everyone has said yes.")
                else:
                    self._say("You said no to the rematch.")
                self.wanted.set()
            else:
                self._say(HELP)
        except ClientError as exc:
            self._say(f"Refused: {getattr(exc, 'message', exc)}")
        except trio.TooSlowError:
            self._say("The host did not answer in time; try again.")


class Keyboard:
    """Every typed line: ``/`` commands to :class:`TableChat`, the rest to the decider."""

    def __init__(self, stdin: TextIO, chat: TableChat) -> None:
        self.stdin = stdin
        self.chat = chat
        self._send, self.decisions = trio.open_memory_channel[str | None](64)

    async def pump(self, lines_of: Callable[[TextIO], trio.MemoryReceiveChannel[str | None]]
                   ) -> None:
        lines = lines_of(self.stdin)
        async for line in lines:
            if line is not None and line.strip().startswith("/"):
                await self.chat.command(line)
                continue
            await self._send.send(line)
            if line is None:
                return


def _pause_said(noted: PauseNoted) -> str:
    """What a ``/pause`` or ``/resume`` did, in words."""
    if noted.waiting:
        return (f"Asked; waiting for {len(noted.waiting)} more "
                f"{'player' if len(noted.waiting) == 1 else 'players'} to agree.")
    return ("The table is paused: the clock is stopped. Type /resume to ask to go on."
            if noted.paused else "The game goes on.")
