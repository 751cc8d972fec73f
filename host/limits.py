"""Every limit the host enforces, in one place: defaults, meaning and error code.

A LAN-party host must stay useful whatever its clients send or fail to read, so each
resource a client can make the host hold (memory, connections, tables, journal bytes,
time) has a bound here. ``lantable host`` turns each field into a command-line flag
(``--max-connections``, ...) and ``docs/limits.md`` lists them with their error
codes. Every transport (TCP, and the web port's WebSocket) reads its limits from the same
:class:`Limits` object and hands decoded messages to the same request handling, so a
limit never depends on how a client connected.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from lantable.protocol import DEFAULT_MAX_FRAME, ErrorCode

MIB: Final = 1 << 20


@dataclass(frozen=True, slots=True)
class Limits:
    """The host's limits; every field has a ``--flag`` of the same name on ``lantable host``."""

    #: Largest frame body accepted or sent (``frame_too_large``, fatal).
    max_frame: int = DEFAULT_MAX_FRAME
    #: Largest frame body a client may send (``frame_too_large``, fatal): requests are
    #: small, so a connection pins at most this much of a half-sent frame.
    max_request_bytes: int = 64 * 1024
    #: Largest player or peer name, in UTF-8 bytes (``bad_name``, refuses the hello).
    max_name_bytes: int = 64
    #: Largest ``create.options`` map, encoded (``too_large``).
    max_options_bytes: int = 4096
    #: Largest ``act.action`` map, encoded (``too_large``); also bounds journal growth
    #: per action.
    max_action_bytes: int = 4096
    #: Deepest nesting of maps and lists inside an action or options (``too_large``).
    max_depth: int = 16
    #: Unfinished tables on this peer (``too_many_tables``).
    max_tables: int = 1000
    #: Waiting tables (no game yet) opened from one client address (``too_many_tables``).
    max_tables_per_client: int = 32
    #: Unfinished tables (waiting or playing) opened from one client address
    #: (``too_many_tables``): one machine cannot fill the peer with tables it plays alone.
    max_open_tables_per_client: int = 64
    #: Finished tables kept reachable by id (sync, spectate) after they leave the lobby.
    keep_finished: int = 256
    #: Seconds a waiting table with no seat taken, or a playing table one person plays
    #: alone and has left, stays open before it is closed as abandoned (``table_closed``
    #: to its spectators); frees the table limits above. A full peer closes the one left
    #: longest at once for a newcomer's ``create``.
    waiting_ttl: float = 600.0
    #: Open connections, all addresses (``too_many_connections``, fatal).
    max_connections: int = 1000
    #: Open connections from one address (``too_many_connections``, fatal).
    max_connections_per_address: int = 256
    #: Spectators of one table (``too_many_spectators``).
    max_spectators: int = 64
    #: Seconds a new connection has to send ``hello`` (``hello_timeout``, fatal).
    hello_timeout: float = 10.0
    #: Seconds a connection that holds no seat and watches no table may stay silent
    #: (``idle_timeout``, fatal); a ``ping`` keeps it open.
    idle_timeout: float = 300.0
    #: Seconds a frame may take to arrive once its first byte has (``frame_timeout``, fatal).
    frame_timeout: float = 30.0
    #: Bytes waiting to be written to one client before it is dropped (``too_slow``, fatal).
    max_outbox_bytes: int = 8 * MIB
    #: Largest ``tables``/``welcome`` table list, encoded; longer lists are paged.
    max_list_bytes: int = 256 * 1024
    #: Bots people added from the page that this peer runs at once (``too_many_bots``).
    max_page_bots: int = 8
    #: Seconds a seat's player must be away before another player may hand the seat
    #: to a page bot (``not_dropped``).
    bot_grace: float = 30.0
    #: Longest chat line, in UTF-8 bytes (``too_large``).
    max_chat_bytes: int = 500
    #: Chat lines one connection may send at once before the rate applies (``too_fast``).
    chat_burst: int = 5
    #: Seconds per chat line after the burst: one connection's steady rate (``too_fast``).
    chat_every: float = 2.0
    #: Chat lines per room (a table's players, its spectators, the lobby) that
    #: ``chat_history`` gives; the journal keeps them all.
    chat_keep: int = 100
    #: Requests to take back a move that one seat may make at one table (``bad_undo``).
    max_undo_asks: int = 20

    def replace(self, **changes: Any) -> Limits:
        return dataclasses.replace(self, **changes)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not value > 0:
                raise ValueError(f"limit {f.name} must be positive, got {value!r}")
        if self.max_list_bytes > self.max_frame // 2:
            raise ValueError("max_list_bytes must be at most half of max_frame")
        if self.max_request_bytes > self.max_frame:
            raise ValueError("max_request_bytes must be at most max_frame")


class LimitExceeded(Exception):
    """A request would pass a limit; ``code`` is the wire error code to answer with."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


DEFAULT_LIMITS: Final = Limits()

#: The error code each limit produces (docs/limits.md is checked against this).
CODES: Final[dict[str, ErrorCode | None]] = {
    "max_frame": ErrorCode.FRAME_TOO_LARGE,
    "max_request_bytes": ErrorCode.FRAME_TOO_LARGE,
    "max_name_bytes": ErrorCode.BAD_NAME,
    "max_options_bytes": ErrorCode.TOO_LARGE,
    "max_action_bytes": ErrorCode.TOO_LARGE,
    "max_depth": ErrorCode.TOO_LARGE,
    "max_tables": ErrorCode.TOO_MANY_TABLES,
    "max_tables_per_client": ErrorCode.TOO_MANY_TABLES,
    "max_open_tables_per_client": ErrorCode.TOO_MANY_TABLES,
    "keep_finished": None,
    "waiting_ttl": ErrorCode.TABLE_CLOSED,
    "max_connections": ErrorCode.TOO_MANY_CONNECTIONS,
    "max_connections_per_address": ErrorCode.TOO_MANY_CONNECTIONS,
    "max_spectators": ErrorCode.TOO_MANY_SPECTATORS,
    "hello_timeout": ErrorCode.HELLO_TIMEOUT,
    "idle_timeout": ErrorCode.IDLE_TIMEOUT,
    "frame_timeout": ErrorCode.FRAME_TIMEOUT,
    "max_outbox_bytes": ErrorCode.TOO_SLOW,
    "max_list_bytes": None,
    "max_page_bots": ErrorCode.TOO_MANY_BOTS,
    "bot_grace": ErrorCode.NOT_DROPPED,
    "max_chat_bytes": ErrorCode.TOO_LARGE,
    "chat_burst": ErrorCode.TOO_FAST,
    "chat_every": ErrorCode.TOO_FAST,
    "chat_keep": None,
    "max_undo_asks": ErrorCode.BAD_UNDO,
}


#: One line per limit for ``lantable host --help``.
HELP: Final[dict[str, str]] = {
    "max_frame": "largest frame sent, bytes",
    "max_request_bytes": "largest frame a client may send, bytes",
    "max_name_bytes": "longest player name, UTF-8 bytes",
    "max_options_bytes": "largest create request (its options), bytes",
    "max_action_bytes": "largest act request (its action), bytes",
    "max_depth": "deepest nesting in an action or options",
    "max_tables": "unfinished tables on this host",
    "max_tables_per_client": "waiting tables opened from one address",
    "max_open_tables_per_client": "unfinished tables opened from one address",
    "keep_finished": "finished tables kept reachable by id",
    "waiting_ttl": "seconds before a table nobody sat at is closed",
    "max_connections": "open connections",
    "max_connections_per_address": "open connections from one address",
    "max_spectators": "spectators per table",
    "hello_timeout": "seconds to say hello",
    "idle_timeout": "seconds of silence for a connection with no seat or table",
    "frame_timeout": "seconds for a frame to arrive once begun",
    "max_outbox_bytes": "bytes waiting for a client that does not read",
    "max_list_bytes": "largest table list in one reply, bytes (longer lists are paged)",
    "max_page_bots": "bots added from the web page that this host runs at once",
    "bot_grace": "seconds a player is away before their seat may be handed to a bot",
    "max_chat_bytes": "longest chat line, UTF-8 bytes",
    "chat_burst": "chat lines a connection may send at once",
    "chat_every": "seconds per chat line after the burst",
    "chat_keep": "chat lines per room given to a newcomer",
    "max_undo_asks": "requests to take back a move that one seat may make at one table",
}


def flag(name: str) -> str:
    """The ``lantable host`` flag of limit ``name``."""
    return "--" + name.replace("_", "-")


_SCALARS: Final = frozenset({int, str, bool, float, bytes, type(None)})


def depth_at_most(value: Any, limit: int) -> bool:
    """True if ``value`` nests maps and lists no deeper than ``limit`` (iteratively, so
    a hostile 100,000-deep value cannot exhaust the stack)."""
    if type(value) is dict and limit >= 1 and all(
            [type(v) in _SCALARS for v in value.values()]):
        return True  # a flat map, as most actions are
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= limit:
            return False
        stack.extend((child, depth + 1) for child in children)
    return True
