"""Chat, and a rematch at the end of a game (docs/protocol.md, "Chat and rematch").

They live apart from :mod:`._messages` like the fair-play messages; they register in
the same tables and are checked the same way.
"""

from __future__ import annotations

from typing import Any

from ._messages import Message, _message

# -- client -> host -------------------------------------------------------------------


@_message("chat", "client")
class Chat(Message):
    """Say something: at a table (to its players, or a spectator to its spectators),
    or without ``table`` in this peer's lobby. Answered with the ``chat_message``."""

    id: int
    text: str
    table: str | None = None


@_message("chat_history", "client")
class ChatHistory(Message):
    """Ask for the last lines this connection may read at a table, or in the lobby."""

    id: int
    table: str | None = None


@_message("mute", "client")
class Mute(Message):
    """Stop (or start again) receiving the chat of the person called ``name``."""

    id: int
    name: str
    mute: bool


@_message("rematch", "client")
class Rematch(Message):
    """At a finished table: play again with the same people, seats rotated (the first
    asker opens the new table; each player confirms with this too), or decline."""

    id: int
    table: str  # the finished table
    decline: bool | None = None


# -- host -> client -------------------------------------------------------------------


@_message("chat_message", "host")
class ChatMessage(Message):
    """One line of chat; ``id`` is set on the copy that answers the sender's ``chat``."""

    room: str  # "players", "spectators" or "lobby"
    n: int  # the line's number in its room, from 1
    name: str  # who said it (their seat's name at a table)
    text: str
    at: int  # when, whole seconds since the epoch (the host's clock)
    table: str | None = None
    seat: int | None = None  # the speaker's seat, for a player
    id: int | None = None


@_message("chat_log", "host")
class ChatLog(Message):
    """Reply to ``chat_history``: the newest lines, oldest first."""

    id: int
    messages: list[dict[str, Any]]  # chat_message maps without "t" and "id"
    table: str | None = None


@_message("muted", "host")
class Muted(Message):
    """Reply to ``mute``: every name this connection has muted now."""

    id: int
    names: list[str]


@_message("rematch_offered", "host")
class RematchOffered(Message):
    """A rematch of a finished table is open (or changed): who is in, who is asked."""

    table: str  # the finished table
    next: str  # the new table
    by: str  # who asked for it
    seats: list[dict[str, Any]]  # per new seat: {"name", "from", "bot", "state"}
