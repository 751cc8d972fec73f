"""Chat: at each table, among its players and among its spectators, and in the lobby
of this peer (docs/protocol.md, "Chat and rematch").

A table has two rooms. Its **players** (the connections that hold a seat) talk in
``players``, which its spectators read too; its **spectators** talk in
``spectators``, which a player receives only once the table is finished, so that
nobody who watches can tell a player what they see. The peer's **lobby** is one
room for every connection.

Every line is journalled in this module's own table of the peer's journal, ``chat``
(in the batch's transaction, like an action), with the table's update number when
it was said, so a restarted peer still gives the last lines (``chat_history``) and
``lantable replay`` prints them among the moves. Lines are bounded in size
(``max_chat_bytes``) and in rate per connection (a token bucket: ``chat_burst``
lines at once, then one per ``chat_every`` seconds); a refused line costs the host
one error and nothing else. A person can mute another by name (``mute``): the host
then sends that connection none of their lines (its history leaves them out too).
"""

from __future__ import annotations

import logging
import sqlite3
import time
import unicodedata
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final
from weakref import WeakKeyDictionary

import trio

from lantable.protocol import (
    Chat,
    ChatHistory,
    ChatLog,
    ChatMessage,
    Error,
    ErrorCode,
    Mute,
    Muted,
)

from .table import FINISHED

if TYPE_CHECKING:
    from .journal import Journal
    from .link import ClientLink
    from .lobby import Peer
    from .table import Table

LOGGER = logging.getLogger(__name__)

PLAYERS: Final = "players"
SPECTATORS: Final = "spectators"
LOBBY: Final = "lobby"
LOBBY_TABLE: Final = ""  # the table id lobby lines are journalled under
MAX_MUTED: Final = 64  # names one connection may mute

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL,   -- '' for the peer's lobby
    room TEXT NOT NULL,       -- players, spectators or lobby
    n INTEGER NOT NULL,       -- the line's number in its room, from 1
    seq INTEGER NOT NULL,     -- the table's update number when it was said
    seat INTEGER,             -- the speaker's seat, for a player
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL
);
"""


def _now() -> float:
    try:
        return trio.current_time()
    except RuntimeError:
        return time.monotonic()


def chat_problem(text: str, max_bytes: int) -> tuple[ErrorCode, str] | None:
    """Why ``text`` cannot be said (the code and a sentence), or None."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        return (ErrorCode.TOO_LARGE,
                f"the line is {size} bytes long; a chat line may have at most {max_bytes}")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
        return (ErrorCode.BAD_CHAT, "the line has control characters (a new line, a tab, an "
                                    "escape); send plain text on one line")
    if not text.strip():
        return ErrorCode.BAD_CHAT, "the line is empty; say something"
    return None


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class PeerChat:
    """One peer's chat: its rooms' newest lines, the rate buckets and the mutes."""

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self.journal: Journal = peer.journal
        self.journal._db.execute(_SCHEMA)  # one statement: never commits a batch
        # (table id, room) -> its newest lines, each with its place in the journal's order
        self.logs: dict[tuple[str, str], deque[tuple[int, dict[str, Any]]]] = {}
        self.order = 0  # the place of lines said since the start (after every journalled one)
        self.counts: dict[tuple[str, str], int] = {}
        self.buckets: WeakKeyDictionary[ClientLink, _Bucket] = WeakKeyDictionary()
        self.mutes: WeakKeyDictionary[ClientLink, set[str]] = WeakKeyDictionary()

    # -- the rooms -------------------------------------------------------------------

    def _log(self, table_id: str, room: str) -> deque[tuple[int, dict[str, Any]]]:
        """A room's newest lines, read from the journal the first time (a restart)."""
        key = (table_id, room)
        log = self.logs.get(key)
        if log is None:
            keep = self.peer.limits.chat_keep
            self.journal._insert_pending()
            rows = self.journal._db.execute(
                "SELECT rowid, n, seat, name, text, at FROM chat WHERE table_id=? AND room=? "
                "ORDER BY n DESC LIMIT ?", (table_id, room, keep)).fetchall()
            log = deque(((rowid - (1 << 62), _line(table_id, room, n, seat, name, text, int(at)))
                         for rowid, n, seat, name, text, at in reversed(rows)), maxlen=keep)
            self.logs[key] = log
            self.counts[key] = rows[0][1] if rows else 0
        return log

    def _room(self, link: ClientLink, table: Table) -> str | None:
        if link.seats.get(table.id):
            return PLAYERS
        if link in table.spectators:
            return SPECTATORS
        return None

    def _readers(self, table: Table, room: str) -> set[ClientLink]:
        players = {s.client for s in table.seats if s.client is not None}
        if room == PLAYERS or table.status == FINISHED:
            return players | table.spectators
        return set(table.spectators) - players

    def _rooms_for(self, link: ClientLink, table: Table) -> list[str]:
        """The rooms ``link`` may read at ``table``."""
        if link.seats.get(table.id):
            return [PLAYERS, SPECTATORS] if table.status == FINISHED else [PLAYERS]
        return [PLAYERS, SPECTATORS]

    # -- requests --------------------------------------------------------------------

    def say(self, link: ClientLink, req_id: int, text: str, table_id: str | None) -> None:
        def refuse(code: ErrorCode, message: str) -> None:
            link.send(Error(code=code, id=req_id, table=table_id, message=message))

        limits = self.peer.limits
        problem = chat_problem(text, limits.max_chat_bytes)
        if problem is not None:
            refuse(*problem)
            return
        table = None
        if table_id is not None:
            table = self.peer.table(table_id)
            if table is None:
                refuse(ErrorCode.NO_SUCH_TABLE, f"no table {table_id!r} on this peer")
                return
            room = self._room(link, table)
            if room is None:
                refuse(ErrorCode.NOT_SEATED, "sit at this table or watch it before chatting "
                                             "there")
                return
        else:
            room = LOBBY
        wait = self._spend(link)
        if wait > 0:
            refuse(ErrorCode.TOO_FAST, f"you are chatting too fast: one line every "
                                       f"{limits.chat_every:g} s after {limits.chat_burst} "
                                       f"at once; wait {wait:.1f} s")
            return
        seat = None
        name = link.name
        if room == PLAYERS and table is not None:
            seat = min(link.seats[table.id])
            name = table.seats[seat].name or name
        key = (table_id or LOBBY_TABLE, room)
        log = self._log(*key)
        n = self.counts[key] = self.counts[key] + 1
        line = _line(table_id, room, n, seat, name, text, int(time.time()))
        self.journal._write("INSERT INTO chat VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            (key[0], room, n, table.seq if table is not None else 0, seat, name,
                             text, line["at"]))
        self.order += 1
        log.append((self.order, line))
        readers = (self._readers(table, room) if table is not None
                   else set(self.peer.lobby_watchers))
        readers.discard(link)
        for reader in readers:
            if name not in self.mutes.get(reader, ()):
                reader.send(ChatMessage(**line))
        link.send(ChatMessage(**line, id=req_id))

    def _spend(self, link: ClientLink) -> float:
        """Take one line from ``link``'s bucket: 0, or the seconds until it may talk."""
        limits = self.peer.limits
        now = _now()
        bucket = self.buckets.get(link)
        if bucket is None:
            bucket = self.buckets[link] = _Bucket(float(limits.chat_burst), now)
        bucket.tokens = min(float(limits.chat_burst),
                            bucket.tokens + (now - bucket.at) / limits.chat_every)
        bucket.at = now
        if bucket.tokens < 1:
            return (1 - bucket.tokens) * limits.chat_every
        bucket.tokens -= 1
        return 0.0

    def history(self, link: ClientLink, req_id: int, table_id: str | None) -> None:
        if table_id is None:
            lines = [x for _, x in self._log(LOBBY_TABLE, LOBBY)]
        else:
            table = self.peer.table(table_id)
            if table is None:
                link.send(Error(code=ErrorCode.NO_SUCH_TABLE, id=req_id, table=table_id,
                                message=f"no table {table_id!r} on this peer"))
                return
            if self._room(link, table) is None:
                link.send(Error(code=ErrorCode.NOT_SEATED, id=req_id, table=table_id,
                                message="sit at this table or watch it to read its chat"))
                return
            lines = [x for _, x in sorted(
                (item for room in self._rooms_for(link, table)
                 for item in self._log(table_id, room)), key=lambda item: item[0])]
        muted = self.mutes.get(link, set())
        link.send(ChatLog(id=req_id, table=table_id,
                          messages=[x for x in lines if x["name"] not in muted]))

    def mute(self, link: ClientLink, req_id: int, name: str, mute: bool) -> None:
        muted = self.mutes.setdefault(link, set())
        if mute and name not in muted and len(muted) >= MAX_MUTED:
            link.send(Error(code=ErrorCode.TOO_LARGE, id=req_id,
                            message=f"you have muted {MAX_MUTED} names, the most; unmute one "
                                    "first"))
            return
        if mute:
            muted.add(name)
        else:
            muted.discard(name)
        link.send(Muted(id=req_id, names=sorted(muted)))


def _line(table_id: str | None, room: str, n: int, seat: int | None, name: str, text: str,
          at: float) -> dict[str, Any]:
    """A line as ``chat_message`` carries it (its fields, without ``t`` and ``id``)."""
    line: dict[str, Any] = {"room": room, "n": n, "name": name, "text": text, "at": at}
    if table_id:
        line["table"] = table_id
    if seat is not None:
        line["seat"] = seat
    return line


def chat_of(peer: Peer) -> PeerChat:
    """The peer's chat, made on first use."""
    chat: PeerChat | None = getattr(peer, "_chat", None)
    if chat is None:
        chat = PeerChat(peer)
        setattr(peer, "_chat", chat)  # noqa: B010 - kept on the peer, out of lobby.py
    return chat


def route_chat(msg: Chat | ChatHistory | Mute, link: ClientLink, peer: Peer) -> None:
    """Serve one chat request (from host/requests.py)."""
    chat = chat_of(peer)
    if isinstance(msg, Chat):
        chat.say(link, msg.id, msg.text, msg.table)
    elif isinstance(msg, ChatHistory):
        chat.history(link, msg.id, msg.table)
    else:
        chat.mute(link, msg.id, msg.name, msg.mute)


def read_chat(journal: Journal, table_id: str) -> list[dict[str, Any]]:
    """Every chat line of a table in the journal, in the order said (``lantable
    replay``): each with its room, seq (the moves made before it), seat, name, text."""
    try:
        rows = journal._db.execute(
            "SELECT room, n, seq, seat, name, text, at FROM chat WHERE table_id=? "
            "ORDER BY rowid", (table_id,)).fetchall()
    except sqlite3.OperationalError:  # a journal from before chat: no such table
        return []
    return [{"room": room, "n": n, "seq": seq, "seat": seat, "name": name, "text": text,
             "at": at} for room, n, seq, seat, name, text, at in rows]
