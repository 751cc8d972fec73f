"""One connection: the thin I/O wrapper, the handshake, and request routing.

Each connection runs in its own nursery with a reader (this task) and a writer
(draining the client's bounded outbox). Protocol errors, broken streams and slow
readers end only this connection; they never reach a table or another client.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Final

import trio

from lantable.plugins import BadOptions
from lantable.protocol import (
    MIN_PROTOCOL_VERSION,
    NEED_DATA,
    PROTOCOL_VERSION,
    Act,
    Bye,
    Connection,
    ConnectionClosed,
    Create,
    Created,
    Error,
    ErrorCode,
    Games,
    Hello,
    Join,
    Leave,
    ListGames,
    ListTables,
    Message,
    Ping,
    Pong,
    ProtocolError,
    Query,
    Resume,
    Sync,
    Tables,
    Welcome,
    negotiate,
)

from .link import ClientLink, flush
from .table import (
    ActRequest,
    DetachRequest,
    JoinRequest,
    LeaveRequest,
    QueryRequest,
    ResumeRequest,
    SyncRequest,
)

if TYPE_CHECKING:
    from .peer import Peer
    from .table import Table

LOGGER = logging.getLogger(__name__)

HELLO_TIMEOUT: Final = 10.0  # seconds a new connection has to say hello
FLUSH_TIMEOUT: Final = 2.0  # seconds to flush a final error before closing
READ_SIZE: Final = 65536  # bytes per receive; frames are reassembled by the protocol


async def _next_message(stream: trio.SocketStream, conn: Connection) -> Message | ConnectionClosed:
    """The next message from the client, reading its socket as needed.

    Reads wait for readiness first and then ``os.read`` the descriptor, rather than
    ``stream.receive_some``: a request is read with one system call instead of two
    (trio tries the read before it waits, and that try always fails on an idle
    connection), which is measurable at thousands of requests per second.

    Raises:
        trio.BrokenResourceError: the connection failed.
        RemoteProtocolError: the client broke the protocol.
    """
    fd = stream.socket.fileno()
    while True:
        event = conn.next_event()
        if event is not NEED_DATA:
            return event  # type: ignore[return-value]
        await trio.lowlevel.wait_readable(fd)
        try:
            data = os.read(fd, READ_SIZE)
        except BlockingIOError:  # a spurious wake-up
            continue
        except OSError as exc:  # reset by the peer
            raise trio.BrokenResourceError(f"receive failed: {exc}") from exc
        conn.receive_data(data)


async def _send_now(stream: trio.abc.Stream, data: bytes) -> None:
    with trio.move_on_after(FLUSH_TIMEOUT):
        try:
            await stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass


async def handle_connection(stream: trio.SocketStream, peer: Peer) -> None:
    """Serve one client until it leaves, breaks the protocol, or is too slow.

    Never raises (but ``Cancelled``): a bug met while serving one client is
    logged and ends only that connection.
    """
    try:
        await _handle(stream, peer)
    except Exception:
        LOGGER.exception("connection failed unexpectedly; closed")


async def _handle(stream: trio.SocketStream, peer: Peer) -> None:
    try:
        host, port = stream.socket.getpeername()[:2]
        where = f"{host}:{port}"
    except OSError:
        where = "?"
    conn = Connection("host")
    async with stream:
        try:
            with trio.fail_after(HELLO_TIMEOUT):
                hello = await _next_message(stream, conn)
        except trio.TooSlowError:
            await _send_now(stream, conn.send_error(Error(
                code=ErrorCode.HELLO_TIMEOUT, message=f"no hello within {HELLO_TIMEOUT} s")))
            LOGGER.info("connection %s: no hello in time", where)
            return
        except ProtocolError as exc:
            await _send_now(stream, conn.send_error(Error(code=exc.code, message=str(exc))))
            LOGGER.info("connection %s: refused (%s: %s)", where, exc.code, exc)
            return
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        if not isinstance(hello, Hello):
            return  # closed before saying anything
        proto = negotiate(hello.proto, hello.min_proto)
        if proto is None:
            conn.send_failed()
            await _send_now(stream, conn.send_error(Error(
                code=ErrorCode.VERSION_UNSUPPORTED, id=hello.id,
                message=f"client speaks {hello.min_proto or hello.proto}..{hello.proto}; "
                        f"this host speaks {MIN_PROTOCOL_VERSION}..{PROTOCOL_VERSION}")))
            return
        link = ClientLink(hello.name, where, conn, fd=stream.socket.fileno())
        found: tuple[Table, int] | None = None
        if hello.token is not None:
            found = peer.find_token(hello.token)
            if found is None:
                await _send_now(stream, conn.send_error(Error(
                    code=ErrorCode.BAD_TOKEN, id=hello.id,
                    message="no seat has that resume token")))
                LOGGER.info("connection %s: hello with an unknown token", where)
                return
        resumed = None
        if found is not None:
            resume, seat = found
            resumed = {"table": resume.id, "seat": seat, "token": hello.token}
        link.send(Welcome(proto=proto, peer=peer.peer_id, name=peer.name, tables=peer.summaries(),
                          resumed=resumed, id=hello.id))
        joined: set[str] = set()
        if found is not None:
            joined.add(resume.id)
            resume.handle(ResumeRequest(link, None, hello.token))
        LOGGER.debug("connection %s: %s welcomed", where, hello.name)
        try:
            await _serve_session(stream, conn, link, peer, joined)
        finally:
            for table_id in joined:
                table = peer.tables.get(table_id)
                if table is not None:
                    table.handle(DetachRequest(link))


async def _serve_session(stream: trio.SocketStream, conn: Connection, link: ClientLink,
                         peer: Peer, joined: set[str]) -> None:
    writer_done = trio.Event()

    async def writer() -> None:
        try:
            async with link.outbox_receive:
                async for data in link.outbox_receive:
                    chunks = [data]
                    while True:  # batch whatever else is ready into one write
                        try:
                            chunks.append(link.outbox_receive.receive_nowait())
                        except (trio.WouldBlock, trio.EndOfChannel):
                            break
                    try:
                        await stream.send_all(b"".join(chunks))
                    except BaseException:
                        conn.send_failed()
                        raise
                    link.queued -= len(chunks)  # direct writes may resume once this is 0
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            link.close_direct()
            writer_done.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(writer)

        async def watch_drop() -> None:
            await link.dropped.wait()
            nursery.cancel_scope.cancel(reason="client too slow")

        nursery.start_soon(watch_drop)
        try:
            while True:
                msg = await _next_message(stream, conn)
                if isinstance(msg, (ConnectionClosed, Bye)):
                    break
                _route(msg, link, peer, joined)  # replies go out at the batch's end
                if conn.trailing_data:
                    await trio.lowlevel.checkpoint()  # a burst of requests yields between them
        except ProtocolError as exc:
            LOGGER.info("connection %s (%s): protocol error %s: %s",
                        link.peer, link.name, exc.code, exc)
            link.send(Error(code=exc.code, message=str(exc)))
            flush()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            link.close_direct()  # never write to this descriptor number once it closes
        link.outbox.close()
        with trio.move_on_after(FLUSH_TIMEOUT):
            await writer_done.wait()
        nursery.cancel_scope.cancel()


def _route(msg: Message, link: ClientLink, peer: Peer, joined: set[str]) -> None:
    """Handle one request; a table request is applied by :meth:`Table.handle`, which
    never awaits, so requests to a table run one at a time (docs/decisions.md)."""
    if isinstance(msg, Act):
        table = _table(msg.table, msg.id, link, peer)
        if table is not None:
            table.handle(ActRequest(link, msg.id, msg.seat, msg.action))
    elif isinstance(msg, Query):
        table = _table(msg.table, msg.id, link, peer)
        if table is not None:
            table.handle(QueryRequest(link, msg.id, msg.seat, msg.query))
    elif isinstance(msg, Ping):
        link.send(Pong(id=msg.id))
    elif isinstance(msg, Sync):
        table = _table(msg.table, msg.id, link, peer)
        if table is not None:
            table.handle(SyncRequest(link, msg.id))
    elif isinstance(msg, Join):
        table = _table(msg.table, msg.id, link, peer)
        if table is not None:
            joined.add(msg.table)
            table.handle(JoinRequest(link, msg.id, msg.seat, msg.spectate))
    elif isinstance(msg, Resume):
        found = peer.find_token(msg.token)
        if found is None:
            link.send(Error(code=ErrorCode.BAD_TOKEN, id=msg.id,
                            message="no seat has that resume token"))
        else:
            table = found[0]
            joined.add(table.id)
            table.handle(ResumeRequest(link, msg.id, msg.token))
    elif isinstance(msg, Leave):
        table = _table(msg.table, msg.id, link, peer)
        if table is not None:
            table.handle(LeaveRequest(link, msg.id))
    elif isinstance(msg, ListTables):
        link.send(Tables(id=msg.id, tables=peer.summaries()))
    elif isinstance(msg, ListGames):
        link.send(Games(id=msg.id, games=peer.games()))
    elif isinstance(msg, Create):
        try:
            table = peer.create_table(msg.game, msg.seats, msg.options, msg.seed)
        except KeyError as exc:
            link.send(Error(code=ErrorCode.NO_SUCH_GAME, id=msg.id, message=str(exc.args[0])))
        except BadOptions as exc:
            link.send(Error(code=ErrorCode.BAD_OPTIONS, id=msg.id, message=str(exc)))
        else:
            link.send(Created(id=msg.id, table=table.id))
    else:  # pragma: no cover - the state table admits no other type here
        link.send(Error(code=ErrorCode.UNEXPECTED_MESSAGE, message=f"unexpected {msg.t!r}"))


def _table(table_id: str, req_id: int, link: ClientLink, peer: Peer) -> Table | None:
    table = peer.tables.get(table_id)
    if table is None:
        link.send(Error(code=ErrorCode.NO_SUCH_TABLE, id=req_id, table=table_id,
                        message=f"no table {table_id!r} on this peer"))
    return table

