"""The trio client library: connect, hello, create, join, act, follow updates, resume.

    async with open_client("127.0.0.1", 47800, name="ann") as client:
        table = await client.create("race", seats=2)
        joined = await client.join(table)
        async for update in client.updates(table):
            ...

One reader task per client routes replies to the request that awaits them (by
``id``) and updates to the table's channel. A gap in update numbers makes the
client ask for a full view (``sync``) on its own: a reconnect is a resync.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Final

import trio

from lantable.protocol import (
    NEED_DATA,
    PROTOCOL_VERSION,
    Accepted,
    Act,
    Answer,
    Bye,
    Connection,
    ConnectionClosed,
    Create,
    Created,
    Error,
    Games,
    Hello,
    Join,
    Joined,
    Leave,
    ListGames,
    ListTables,
    Message,
    Ping,
    ProtocolError,
    Query,
    Resume,
    Sync,
    Tables,
    Update,
    Welcome,
)

CONNECT_TIMEOUT: Final = 10.0  # seconds for TCP connect plus hello/welcome
REQUEST_TIMEOUT: Final = 30.0  # seconds a request may wait for its reply
READ_SIZE: Final = 65536

# A table's updates, as the reader hands them to whoever awaits them.
_UpdateChannel = tuple[trio.MemorySendChannel[Update], trio.MemoryReceiveChannel[Update]]


class ClientError(Exception):
    """Base of the client library's errors."""


class RequestError(ClientError):
    """The host answered a request with ``error``.

    Attributes:
        code: the stable error code (see ``lantable.protocol.ErrorCode``).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Disconnected(ClientError):
    """The connection to the host ended."""


class _Pending:
    __slots__ = ("event", "reply")

    def __init__(self) -> None:
        self.event = trio.Event()
        self.reply: Message | None = None


class Client:
    """A connected, welcomed client. Build it with :func:`open_client`."""

    def __init__(self, stream: trio.SocketStream, conn: Connection, welcome: Welcome) -> None:
        self._stream = stream
        self._conn = conn
        self.welcome = welcome
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._channels: dict[str, _UpdateChannel] = {}
        self._last_seq: dict[str, int] = {}
        self._send_lock = trio.Lock()
        self.errors: list[Error] = []  # unsolicited errors (e.g. a seat resumed elsewhere)
        # Why the connection ended, if the host erred.
        self.protocol_error: ProtocolError | None = None
        self.closed = trio.Event()

    # -- plumbing -------------------------------------------------------------------

    async def _send(self, msg: Message) -> None:
        data = self._conn.send(msg)
        async with self._send_lock:
            try:
                await self._stream.send_all(data)
            except BaseException:
                self._conn.send_failed()
                raise

    async def _request(self, make: Any, **fields: Any) -> Message:
        rid = next(self._ids)
        pending = self._pending[rid] = _Pending()
        try:
            await self._send(make(id=rid, **fields))
            with trio.fail_after(REQUEST_TIMEOUT):
                await pending.event.wait()
        finally:
            self._pending.pop(rid, None)
        reply = pending.reply
        if reply is None:
            raise Disconnected("the connection closed before the reply")
        if isinstance(reply, Error):
            raise RequestError(reply.code, reply.message)
        return reply

    def _channel(self, table: str) -> _UpdateChannel:
        if table not in self._channels:
            self._channels[table] = trio.open_memory_channel[Update](math.inf)
        return self._channels[table]

    async def _read_loop(self, nursery: trio.Nursery) -> None:
        try:
            while True:
                event = self._conn.next_event()
                if event is NEED_DATA:
                    self._conn.receive_data(await self._stream.receive_some(READ_SIZE))
                    continue
                if isinstance(event, ConnectionClosed):
                    break
                self._dispatch(event, nursery)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        except ProtocolError as exc:  # the host broke the protocol: this connection is over
            self.protocol_error = exc
        finally:
            self.closed.set()
            for pending in self._pending.values():
                pending.event.set()
            for send, _ in self._channels.values():
                send.close()

    def _dispatch(self, msg: Message, nursery: trio.Nursery) -> None:
        if isinstance(msg, Update):
            last = self._last_seq.get(msg.table)
            if not msg.full and last is not None and msg.seq > last + 1:
                nursery.start_soon(self._resync, msg.table)  # missed one: ask for the full view
                return
            self._last_seq[msg.table] = msg.seq
            if msg.id is None or msg.id not in self._pending:
                self._channel(msg.table)[0].send_nowait(msg)
                return
        rid = getattr(msg, "id", None)
        pending = self._pending.get(rid) if rid is not None else None
        if pending is not None:
            pending.reply = msg
            pending.event.set()
            if isinstance(msg, Update):
                self._channel(msg.table)[0].send_nowait(msg)
        elif isinstance(msg, Error):
            self.errors.append(msg)

    async def _resync(self, table: str) -> None:
        try:
            await self.sync(table)
        except ClientError:
            pass

    # -- requests ---------------------------------------------------------------------

    async def list_tables(self) -> list[dict[str, Any]]:
        reply = await self._request(ListTables)
        assert isinstance(reply, Tables)
        return reply.tables

    async def list_games(self) -> list[dict[str, Any]]:
        reply = await self._request(ListGames)
        assert isinstance(reply, Games)
        return reply.games

    async def create(self, game: str, seats: int, options: dict[str, Any] | None = None,
                     seed: int | None = None) -> str:
        """Open a table; returns its id. Raises RequestError (no_such_game, bad_options)."""
        reply = await self._request(Create, game=game, seats=seats, options=options, seed=seed)
        assert isinstance(reply, Created)
        return reply.table

    async def join(self, table: str, seat: int | None = None, *, spectate: bool = False) -> Joined:
        """Take a seat (the lowest free one by default) or watch; keep ``.token`` to resume."""
        self._channel(table)
        reply = await self._request(Join, table=table, seat=seat, spectate=spectate)
        assert isinstance(reply, Joined)
        return reply

    async def resume(self, token: str) -> Joined:
        reply = await self._request(Resume, token=token)
        assert isinstance(reply, Joined)
        self._channel(reply.table)
        return reply

    async def leave(self, table: str) -> None:
        await self._request(Leave, table=table)

    async def act(self, table: str, action: dict[str, Any], seat: int | None = None) -> int:
        """Submit an action; returns its update number. Raises RequestError
        (``not_to_act``, ``illegal_action``, ``not_seated`` ...)."""
        reply = await self._request(Act, table=table, action=action, seat=seat)
        assert isinstance(reply, Accepted)
        return reply.seq

    async def sync(self, table: str) -> Update:
        """Ask for a full update of ``table`` (it also arrives on :meth:`updates`)."""
        reply = await self._request(Sync, table=table)
        assert isinstance(reply, Update)
        return reply

    async def query(self, table: str, query: dict[str, Any], seat: int | None = None) -> Any:
        """Ask the game a question from this seat's view (pure, not journalled);
        raises RequestError (``bad_query``, ``not_seated`` ...)."""
        reply = await self._request(Query, table=table, query=query, seat=seat)
        assert isinstance(reply, Answer)
        return reply.answer

    async def ping(self) -> None:
        await self._request(Ping)

    def updates(self, table: str) -> trio.MemoryReceiveChannel[Update]:
        """The channel of updates for ``table``; it ends when the connection does."""
        return self._channel(table)[1]

    async def close(self) -> None:
        try:
            await self._send(Bye())
        except (trio.BrokenResourceError, trio.ClosedResourceError, Exception):
            pass


@asynccontextmanager
async def open_client(host: str, port: int, *, name: str, token: str | None = None,
                      proto: int = PROTOCOL_VERSION) -> AsyncIterator[Client]:
    """Connect, say hello and yield a :class:`Client`; says bye and closes on exit.

    Raises:
        RequestError: the host refused the hello (version, token).
        OSError: the TCP connection failed.
    """
    with trio.fail_after(CONNECT_TIMEOUT):
        stream = await trio.open_tcp_stream(host, port)
    async with stream:
        conn = Connection("client")
        with trio.fail_after(CONNECT_TIMEOUT):
            await stream.send_all(conn.send(Hello(proto=proto, name=name, token=token)))
            while True:
                event = conn.next_event()
                if event is NEED_DATA:
                    conn.receive_data(await stream.receive_some(READ_SIZE))
                    continue
                break
        if isinstance(event, Error):
            raise RequestError(event.code, event.message)
        if not isinstance(event, Welcome):
            raise Disconnected(f"expected welcome, got {event!r}")
        client = Client(stream, conn, event)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(client._read_loop, nursery)
                try:
                    yield client
                finally:
                    with trio.CancelScope(shield=True), trio.move_on_after(1):
                        await client.close()
                    nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            # The reader task never fails on its own, so a group here holds the
            # caller's one exception: give it back as it was raised.
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
