"""One connection: the thin I/O wrapper, the handshake, and the session's tasks.

Each connection runs in its own nursery with a reader (this task), a writer
(draining the client's bounded outbox) and a watchdog (idle and frame timeouts).
Protocol errors, broken streams and slow readers end only this connection; they
never reach a table or another client.

The TCP specifics stay in this module's I/O functions. What happens to a message
once decoded (:func:`check_hello` here, :func:`~.requests.route` in host/requests.py)
takes a :class:`ClientLink` and the frame's size only, so another transport reuses
it with the same limits.
"""

from __future__ import annotations

import logging
import math
import os
import unicodedata
from typing import TYPE_CHECKING, Any, Final

import trio

from lantable.protocol import (
    MIN_PROTOCOL_VERSION,
    NEED_DATA,
    PROTOCOL_VERSION,
    Bye,
    Connection,
    ConnectionClosed,
    Error,
    ErrorCode,
    Hello,
    Message,
    ProtocolError,
    Welcome,
    fairplay,
    negotiate,
)

from .limits import Limits
from .link import ClientLink
from .reader import Claim, Session
from .requests import route

if TYPE_CHECKING:
    from .lobby import Peer
    from .table import Table

LOGGER = logging.getLogger(__name__)

FLUSH_TIMEOUT: Final = 2.0  # seconds to flush a final error before closing
READ_SIZE: Final = 65536  # bytes per receive; frames are reassembled by the protocol


class _Refusals:
    """Connections refused because the host is full, logged at most every ``EVERY``
    seconds with a count: a flood must not become a flood of log lines."""

    EVERY: Final = 10.0

    def __init__(self) -> None:
        self.count = 0
        self.logged = -math.inf

    def note(self, host: str, total: int, mine: int) -> None:
        self.count += 1
        now = trio.current_time()
        if now - self.logged >= self.EVERY:
            LOGGER.warning("host full (%d connections, %d from %s): refused %d connection(s) "
                           "in the last %g s", total, mine, host, self.count, self.EVERY)
            self.count, self.logged = 0, now


_REFUSALS = _Refusals()


class _Clock:
    """When the connection last completed a message, and since when a frame is half-read
    (the watchdog's inputs; the reader updates them at the cost of a clock read)."""

    __slots__ = ("last_message", "partial_since")

    def __init__(self) -> None:
        self.last_message = trio.current_time()
        self.partial_since: float | None = None


async def _next_message(stream: trio.abc.Stream, conn: Connection,
                        clock: _Clock | None = None) -> Message | ConnectionClosed:
    """The next message from the client, reading its socket as needed.

    Reads wait for readiness first and then ``os.read`` the descriptor, rather than
    ``stream.receive_some``: a request is read with one system call instead of two
    (trio tries the read before it waits, and that try always fails on an idle
    connection), which is measurable at thousands of requests per second.

    Raises:
        trio.BrokenResourceError: the connection failed.
        RemoteProtocolError: the client broke the protocol.
    """
    if not isinstance(stream, trio.SocketStream):  # a WebSocket (lantable.web)
        return await _next_message_from(stream, conn, clock)
    fd = stream.socket.fileno()
    while True:
        event = conn.next_event()
        if event is not NEED_DATA:
            if clock is not None:
                clock.last_message = trio.current_time()
                clock.partial_since = None
            return event
        if clock is not None and clock.partial_since is None and conn.trailing_data:
            clock.partial_since = trio.current_time()
        await trio.lowlevel.wait_readable(fd)
        try:
            data = os.read(fd, READ_SIZE)
        except BlockingIOError:  # a spurious wake-up
            continue
        except OSError as exc:  # reset by the peer
            raise trio.BrokenResourceError(f"receive failed: {exc}") from exc
        conn.receive_data(data)


async def _next_message_from(stream: trio.abc.Stream, conn: Connection,
                             clock: _Clock | None = None) -> Message | ConnectionClosed:
    """:func:`_next_message` for any other stream that carries lantable frames (a
    WebSocket, a test's memory stream). The WebSocket adapter hands over whole frames
    only, so it marks a half-received message on the clock itself (``stream.clock``),
    for the same ``frame_timeout``."""
    if clock is not None and hasattr(stream, "clock"):
        stream.clock = clock
    while True:
        event = conn.next_event()
        if event is not NEED_DATA:
            if clock is not None:
                clock.last_message = trio.current_time()
                clock.partial_since = None
            return event
        if clock is not None and clock.partial_since is None and conn.trailing_data:
            clock.partial_since = trio.current_time()
        conn.receive_data(bytes(await stream.receive_some(READ_SIZE)))  # no copy of bytes


async def _send_now(stream: trio.abc.Stream, data: bytes, within: float = FLUSH_TIMEOUT) -> None:
    with trio.move_on_after(within):
        try:
            await stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass


async def handle_connection(stream: trio.abc.Stream, peer: Peer, where: str | None = None,
                            ) -> None:
    """Serve one client until it leaves, breaks the protocol, or is too slow.

    ``stream`` is a TCP socket, or any stream of lantable frames (the web server's
    WebSocket adapter, which names its client in ``where``): everything after the
    bytes is the same code for both.

    Never raises (but ``Cancelled``): a bug met while serving one client is
    logged and ends only that connection.
    """
    try:
        # A WebSocket (lantable.web) counts against its TCP connection's address.
        base: Any = stream if isinstance(stream, trio.SocketStream) else getattr(
            stream, "transport", None)
        host, port = base.socket.getpeername()[:2]
    except (OSError, AttributeError):
        host, port = "?", 0
    limits = peer.limits
    conn = Connection("host", limits.max_frame, limits.max_request_bytes)
    refusal = admit(peer, host)
    if refusal is not None:
        with trio.CancelScope(shield=True):  # say why, briefly, then close
            await _send_now(stream, conn.send_error(Error(
                code=ErrorCode.TOO_MANY_CONNECTIONS, message=refusal)), within=0.5)
            await trio.aclose_forcefully(stream)
        return
    try:
        await _handle(stream, peer, conn, host, where or f"{host}:{port}")
    except Exception:
        LOGGER.exception("connection %s:%s failed unexpectedly; closed", host, port)
    finally:
        release(peer, host)


def connection_room(peer: Peer) -> int:
    """How many connections the peer may hold at once: ``max_connections``, or fewer
    if the process may not open that many files (``peer.fd_room``, set by
    host/peer.py with descriptors kept back for the journal and the listeners)."""
    room = peer.limits.max_connections
    return room if peer.fd_room is None else max(1, min(room, peer.fd_room))


def admit(peer: Peer, host: str) -> str | None:
    """Count a new connection from ``host`` (any transport: TCP, the web port's HTTP and
    WebSocket), or say why the host is full (the ``too_many_connections`` message; the
    refusal is logged, at most every few seconds). An admitted connection is given
    back with :func:`release`."""
    total = sum(peer.connections.values())
    mine = peer.connections.get(host, 0)
    if total >= connection_room(peer) or mine >= peer.limits.max_connections_per_address:
        _REFUSALS.note(host, total, mine)
        return (f"this host is full ({total} connections, {mine} from {host}); "
                "try again later")
    peer.connections[host] = mine + 1
    return None


def release(peer: Peer, host: str) -> None:
    """A connection :func:`admit` counted has closed."""
    left = peer.connections.get(host, 1) - 1
    if left > 0:
        peer.connections[host] = left
    else:
        peer.connections.pop(host, None)


def check_hello(hello: Hello, limits: Limits) -> Error | None:
    """The error refusing ``hello``, or None if it may go on (any transport)."""
    if len(hello.name.encode("utf-8", "surrogatepass")) > limits.max_name_bytes:
        return Error(code=ErrorCode.BAD_NAME, id=hello.id,
                     message=f"name is longer than {limits.max_name_bytes} bytes")
    if any(unicodedata.category(ch) == "Cc" for ch in hello.name):
        return Error(code=ErrorCode.BAD_NAME, id=hello.id,
                     message="name has control characters")
    proto = negotiate(hello.proto, hello.min_proto)
    if proto is None:
        return Error(
            code=ErrorCode.VERSION_UNSUPPORTED, id=hello.id,
            message=f"client speaks {hello.min_proto or hello.proto}..{hello.proto}; "
                    f"this host speaks {MIN_PROTOCOL_VERSION}..{PROTOCOL_VERSION}")
    return None


async def _handle(stream: trio.abc.Stream, peer: Peer, conn: Connection, host: str,
                  where: str) -> None:
    limits = peer.limits
    async with stream:
        try:
            with trio.fail_after(limits.hello_timeout):
                hello = await _next_message(stream, conn)
        except trio.TooSlowError:
            await _send_now(stream, conn.send_error(Error(
                code=ErrorCode.HELLO_TIMEOUT,
                message=f"no hello within {limits.hello_timeout} s")))
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
        refusal = check_hello(hello, limits)
        if refusal is not None:
            conn.send_failed()
            await _send_now(stream, conn.send_error(refusal))
            LOGGER.info("connection %s: hello refused (%s: %s)", where, refusal.code,
                        refusal.message)
            return
        proto = negotiate(hello.proto, hello.min_proto)
        assert proto is not None  # check_hello refused the hello otherwise
        # A WebSocket (lantable.web) writes straight to its socket too, framing each
        # write as binary messages; its writer then sends those bytes unchanged.
        link = ClientLink(hello.name, where, conn, peer.batch,
                          fd=stream.socket.fileno() if isinstance(stream, trio.SocketStream)
                          else getattr(stream, "fd", None),
                          max_outbox_bytes=limits.max_outbox_bytes,
                          frame=getattr(stream, "frame_output", None))
        link.address = host
        link.key, link.key_refused = _public_key(hello.key)
        link.words = bool(hello.words)
        link.decks = bool(hello.decks)
        found: tuple[Table, int] | None = None
        if hello.token is not None:
            found = peer.find_token(hello.token)
            if found is None and peer.handoff is not None and await peer.handoff.resume_elsewhere(
                    stream, conn, link, hello, proto, peer):
                return  # another process's seat: the connection went there (host/workers.py)
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
        _welcome(link, peer, proto, resumed, hello.id)
        if hello.lobby:
            peer.lobby_watchers.add(link)
            link.send(peer.lobby())  # the first of the pushes
        joined: set[str] = set()
        peer.links.add(link)
        if found is not None and hello.token is not None:
            joined.add(resume.id)
            resume.resume(link, None, hello.token)
        LOGGER.debug("connection %s: %s welcomed", where, hello.name)
        try:
            await _serve_session(stream, conn, link, peer, joined)
        finally:
            peer.links.discard(link)
            peer.lobby_watchers.discard(link)
            for table_id in joined:
                table = peer.table(table_id)
                if table is not None:
                    table.detach(link)


def _welcome(link: ClientLink, peer: Peer, proto: int, resumed: dict[str, Any] | None,
             req_id: int | None) -> None:
    """Send ``welcome``. A function of its own so that the lobby list it builds is not
    kept alive by the connection's frame for the whole session (it was: ~0.5 MB per
    connection on a busy host)."""
    tables, more = peer.summaries()
    link.send(Welcome(proto=proto, peer=peer.peer_id, name=peer.name, tables=tables,
                      resumed=resumed, id=req_id, more=more or None))


async def _serve_session(stream: trio.abc.Stream, conn: Connection, link: ClientLink,
                         peer: Peer, joined: set[str]) -> None:
    writer_done = trio.Event()
    send_out = getattr(stream, "send_framed", stream.send_all)  # the link's bytes, as they are

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
                        await send_out(b"".join(chunks))
                    except BaseException:
                        conn.send_failed()
                        raise
                    link.queued -= len(chunks)  # direct writes may resume once this is 0
                    link.queued_bytes -= sum(map(len, chunks))
                    del data, chunks  # not held while waiting for the next write
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            link.close_direct()
            writer_done.set()

    limits = peer.limits
    clock = _Clock()
    reading = trio.CancelScope()
    # The front of a host with worker processes hands connections over between two
    # requests, so it reads each in the session's task (host/workers.py), as other
    # streams do; a worker's reader routes what it owns (``routes_here``).
    by_reader = peer.reader is not None and (
        peer.handoff is None or hasattr(peer.handoff, "routes_here"))

    async def watchdog() -> None:
        """Close a connection that holds a frame half-sent for ``frame_timeout``, or
        that holds nothing (no seat, no table watched) and said nothing for
        ``idle_timeout``; say why first."""
        tick = min(max(min(limits.frame_timeout, limits.idle_timeout) / 4, 0.05), 5.0)
        while True:
            await trio.sleep(tick)
            now = trio.current_time()
            if clock.partial_since is not None and \
                    now - clock.partial_since >= limits.frame_timeout:
                code, why = (ErrorCode.FRAME_TIMEOUT,
                             f"a frame did not finish within {limits.frame_timeout} s")
            elif not link.seats and not link.watching and \
                    now - clock.last_message >= limits.idle_timeout:
                code, why = (ErrorCode.IDLE_TIMEOUT,
                             f"nothing received for {limits.idle_timeout} s while holding no "
                             "seat and watching no table (send ping to stay)")
            else:
                continue
            LOGGER.info("connection %s (%s): %s", link.peer, link.name, why)
            link.send(Error(code=code, message=why))
            reading.cancel()
            return

    async with trio.open_nursery() as nursery:
        nursery.start_soon(writer)

        async def watch_drop() -> None:
            await link.dropped.wait()
            nursery.cancel_scope.cancel(reason="client too slow")

        nursery.start_soon(watch_drop)
        if math.isfinite(limits.idle_timeout) or math.isfinite(limits.frame_timeout):
            nursery.start_soon(watchdog)
        try:
            with reading:
                if by_reader and isinstance(stream, trio.SocketStream):  # the usual TCP
                    # session: the peer's reader reads it
                    await _read_by_reader(stream, conn, link, peer, joined, clock)
                else:
                    await _read_here(stream, conn, link, peer, joined, clock)
            peer.batch.end()  # a watchdog's error, before the outbox closes
        except ProtocolError as exc:
            LOGGER.info("connection %s (%s): protocol error %s: %s",
                        link.peer, link.name, exc.code, exc)
            link.send(Error(code=exc.code, message=str(exc)))
            peer.batch.end()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            link.close_direct()  # never write to this descriptor number once it closes
        link.outbox.close()
        with trio.move_on_after(FLUSH_TIMEOUT):
            await writer_done.wait()
        nursery.cancel_scope.cancel()


async def claim_or_route(stream: trio.abc.Stream, conn: Connection, link: ClientLink,
                         msg: Message, peer: Peer, joined: set[str], size: int | None = None,
                         hops: int = 0) -> bool:
    """Hand ``msg`` to the host's worker processes (``peer.handoff.claim``), and route it
    here (a frame of ``size`` bytes, by default the last one read) if none takes it;
    True if the connection went to another process."""
    claimed = await peer.handoff.claim(stream, conn, link, msg, peer, hops)
    if claimed == "gone":  # handed to another process
        return True
    if claimed is None:  # replies go out at the batch's end
        route(msg, conn.last_frame_size if size is None else size, link, peer, joined)
    return False


async def _read_here(stream: trio.abc.Stream, conn: Connection, link: ClientLink, peer: Peer,
                     joined: set[str], clock: _Clock) -> None:
    """The session's requests, read in its own task until the client leaves (or the
    connection goes to another process); raises as :func:`_next_message` would."""
    while True:
        msg = await _next_message(stream, conn, clock)
        if isinstance(msg, (ConnectionClosed, Bye)):
            return
        if peer.handoff is not None:  # a host with worker processes
            if await claim_or_route(stream, conn, link, msg, peer, joined):
                return
        else:  # replies go out at the batch's end
            route(msg, conn.last_frame_size, link, peer, joined)
        if conn.trailing_data:
            await trio.lowlevel.checkpoint()  # a burst of requests yields


async def _read_by_reader(stream: trio.SocketStream, conn: Connection, link: ClientLink,
                          peer: Peer, joined: set[str], clock: _Clock) -> None:
    """The session's requests, read by the peer's one reader task (host/reader.py)
    until the client leaves (or, at a worker, the connection goes to another process);
    raises as :func:`_next_message` would (a protocol error, a broken socket), or what
    a request's handling raised (a bug)."""
    while True:
        session = Session(stream.socket.fileno(), conn, link, peer, joined, clock)
        # Requests already buffered (sent along with the hello, or after a claimed one):
        # the socket may never be readable again, so they are served here first, one
        # per scheduler batch.
        while not session.ended.is_set() and session.serve(read=False):
            await trio.lowlevel.checkpoint()
        if not session.ended.is_set():
            peer.reader.add(session)
            try:
                await session.ended.wait()
            finally:
                peer.reader.remove(session)  # before the socket closes
        why = session.why
        if isinstance(why, Claim):  # a worker's request that may go elsewhere
            if await claim_or_route(stream, conn, link, why.msg, peer, joined):
                return
            continue
        if why == "broken":
            raise trio.BrokenResourceError("receive failed")
        if why is not None:
            raise why
        return


def _public_key(key: str | None) -> tuple[str | None, str | None]:
    """The hello's Ed25519 public key if it is a strong one, and else why not; a
    malformed or weak key counts as none (a fair table then refuses the join with
    ``no_key``, saying why)."""
    if key is None:
        return None, None
    try:
        return fairplay.check_key(key), None
    except (fairplay.FairPlayError, ValueError) as exc:
        LOGGER.info("a hello carried a public key that is refused (%s); ignored", exc)
        return None, str(exc)
