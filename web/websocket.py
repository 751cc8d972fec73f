"""A WebSocket as a stream of lantable frames, so the host serves it like a TCP socket.

The browser sends one msgpack message per binary WebSocket message, without the
4-byte length prefix (the WebSocket already frames it). :class:`FrameStream` puts the
prefix back on what it receives and takes it off what it sends, and otherwise looks
like any :class:`trio.abc.Stream`: the host's connection code
(:func:`lantable.host.listener.handle_connection`) then runs unchanged, with the same
handshake, state machine, limits and errors as over TCP (docs/decisions.md, "The
browser speaks the same protocol").

A message over the frame limit is never buffered whole: once its fragments pass the
limit, the stream hands the host a length prefix that says so, and the host's frame
reader refuses it with ``frame_too_large`` exactly as it refuses an oversize TCP frame.

Control frames are bounded too: only the answer to the latest ping waits to be sent
(RFC 6455 5.5.3 allows it), and a client may send ``CONTROL_BURST`` pings and pongs at
once and ``CONTROL_RATE`` a second after that; past it the connection is closed with
``bad_frame`` (docs/limits.md, "The web port"), so a ping flood costs the host no more
than a few requests would.
"""

from __future__ import annotations

import base64
import os
import struct
from typing import Any, Final

import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Ping,
    Pong,
    Request,
    TextMessage,
)
from wsproto.utilities import LocalProtocolError as WsLocalError
from wsproto.utilities import RemoteProtocolError as WsRemoteError

from lantable.protocol import DEFAULT_MAX_FRAME, ErrorCode, RemoteProtocolError

HEADER: Final = struct.Struct(">I")  # the lantable frame header (docs/protocol.md)
READ_SIZE: Final = 65536
CONTROL_BURST: Final = 32  # pings and pongs a client may send at once ...
CONTROL_RATE: Final = 2.0  # ... and per second after that


def binary_header(size: int) -> bytes:
    """The header of one unmasked, final, binary WebSocket frame of ``size`` bytes
    (RFC 6455 5.2; a server never masks). Written here rather than through wsproto's
    event objects: this runs for every update sent to a browser."""
    if size < 126:
        return bytes((0x82, size))
    if size < 1 << 16:
        return b"\x82\x7e" + size.to_bytes(2, "big")
    return b"\x82\x7f" + size.to_bytes(8, "big")


class FrameStream(trio.abc.Stream):
    """Lantable frames over an accepted WebSocket (``ws`` has sent its 101 already).

    Args:
        stream: the TCP stream under the WebSocket.
        ws: the server side of the WebSocket, past its handshake.
        max_frame: the largest message body accepted; bigger ones are cut short and
            reported to the host as an oversize frame.
    """

    def __init__(self, stream: trio.abc.Stream, ws: WSConnection,
                 max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self._stream = stream
        self.transport = stream  # the TCP stream (the host counts connections by address)
        self._ws = ws
        self._max = max_frame
        self._send_lock = trio.Lock()  # the reader answers pings while the writer sends
        self._partial: list[bytes] = []
        self._partial_size = 0
        self._closed = False
        self._pong = b""  # the answer to the latest ping, sent with the next output
        self._control = b""  # the close answer, sent with the next output
        self._allowance = float(CONTROL_BURST)  # control frames the client may send now
        self._allowed_at = trio.current_time()
        self.clock: Any = None  # the host's watchdog clock (host/listener.py), if any
        self.handed = False  # given to another process (host/workers.py): close nothing

    # -- handing the WebSocket to another process (host/workers.py) --------------------
    #
    # With no extension negotiated (the server accepts none: web/server.py), a server's
    # WebSocket between two messages is its socket plus the bytes of a frame header not
    # yet whole: the other process rebuilds it from those (:meth:`rebuilt`).

    def _leftover(self) -> bytes | None:
        """The bytes read and not yet parsed, if the stream is between messages (no
        frame or message half-received); None otherwise."""
        try:  # wsproto 1.x internals (tests/web/test_workers_web.py notices a change)
            proto = self._ws.connection._proto  # type: ignore[union-attr]
            decoder = proto._frame_decoder
            if self._partial or decoder.header is not None \
                    or proto._message_decoder.opcode is not None:
                return None
            return bytes(decoder.buffer.buffer)
        except AttributeError:  # another wsproto: no hand-off (the client is closed)
            return None

    async def hand_over(self, pending: Any, within: float) -> bytes | None:
        """Make the WebSocket ready to go to another process: the answers to pings
        sent, and, if a message is half-received, read on (for ``within`` seconds at
        most) until it is whole, its frames given to ``pending(frames)`` (the host's
        connection buffer). The bytes to rebuild it from (:meth:`rebuilt`), or None: it
        cannot go (closing, or a message still half-sent); then it is left as it was."""
        with trio.move_on_after(within):
            while not self._closed:
                if self._pong or self._control:
                    await self.send_framed(self.frame_output(b""))
                left = self._leftover()
                if left is not None:
                    self.handed = True
                    return left
                frames = await self.receive_some()
                if frames:
                    pending(frames)
        return None

    @classmethod
    def rebuilt(cls, stream: trio.abc.Stream, leftover: bytes,
                max_frame: int = DEFAULT_MAX_FRAME) -> FrameStream:
        """The server side of an open WebSocket another process accepted and handed
        over (:meth:`hand_over`): a wsproto connection brought to OPEN by a handshake
        of its own (nothing of it is sent), then given the bytes read past it."""
        ws = WSConnection(ConnectionType.SERVER)
        key = base64.b64encode(os.urandom(16))
        ws.initiate_upgrade_connection(
            [(b"host", b"lantable"), (b"upgrade", b"websocket"), (b"connection", b"Upgrade"),
             (b"sec-websocket-key", key), (b"sec-websocket-version", b"13")], "/ws")
        event = next(ws.events())
        assert isinstance(event, Request)
        ws.send(AcceptConnection())  # the 101 the client had from the first process
        frames = cls(stream, ws, max_frame)
        if leftover:
            ws.receive_data(leftover)
        return frames

    # -- receiving -----------------------------------------------------------------

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        """Whole lantable frames (length prefix and body), or ``b""`` once closed.

        Raises:
            RemoteProtocolError: a text message (``bad_frame``), or a broken WebSocket.
        """
        while True:
            out = self._frames_ready()
            if out or self._closed:
                return out
            try:
                data = await self._receive()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                data = b""
            if not data:
                self._closed = True
                return b""
            try:
                self._ws.receive_data(data)
            except WsRemoteError as exc:
                raise RemoteProtocolError(f"broken WebSocket: {exc}", ErrorCode.BAD_FRAME) from exc
            if self.clock is not None and self.clock.partial_since is None:
                self.clock.partial_since = trio.current_time()  # until a whole message is in

    async def _receive(self) -> bytes:
        """One read: wait for readiness, then ``recv`` once (like the TCP listener's
        ``_next_message``, a request costs one system call instead of two)."""
        sock = getattr(self._stream, "socket", None)
        if sock is None:
            return bytes(await self._stream.receive_some(READ_SIZE))
        fd = sock.fileno()
        while True:
            await trio.lowlevel.wait_readable(fd)
            try:
                return os.read(fd, READ_SIZE)
            except BlockingIOError:  # a spurious wake-up
                continue

    def _frames_ready(self) -> bytes:
        out = []
        for event in self._ws.events():
            if isinstance(event, BytesMessage):
                frame = self._add(bytes(event.data), event.message_finished)
                if frame is not None:
                    out.append(frame)
                    if len(frame) == HEADER.size:  # an oversize frame: nothing follows it
                        break
            elif isinstance(event, TextMessage):
                raise RemoteProtocolError(
                    "a text WebSocket message is not a lantable frame; send msgpack in "
                    "binary messages", ErrorCode.BAD_FRAME)
            elif isinstance(event, (Ping, Pong)):
                self._count_control()
                if isinstance(event, Ping):  # only the latest one is answered
                    self._pong = self._ws.send(event.response())
            elif isinstance(event, CloseConnection):
                self._closed = True
                try:
                    self._control += self._ws.send(event.response())
                except WsLocalError:
                    pass
                break
        return b"".join(out)

    def _count_control(self) -> None:
        """A ping or pong arrived: within the client's allowance, or the end.

        Raises:
            RemoteProtocolError: more control frames than ``CONTROL_BURST`` at once and
                ``CONTROL_RATE`` a second (``bad_frame``).
        """
        now = trio.current_time()
        self._allowance = min(CONTROL_BURST,
                              self._allowance + (now - self._allowed_at) * CONTROL_RATE)
        self._allowed_at = now
        if self._allowance < 1:
            raise RemoteProtocolError(
                f"too many WebSocket pings: at most {CONTROL_BURST} at once and "
                f"{CONTROL_RATE:g} a second (send the protocol's ping to keep a connection)",
                ErrorCode.BAD_FRAME)
        self._allowance -= 1

    def _add(self, data: bytes, finished: bool) -> bytes | None:
        """Gather one message's fragments; its frame once whole, or an oversize header."""
        self._partial_size += len(data)
        if self._partial_size > self._max:
            size = self._partial_size
            self._partial, self._partial_size = [], 0
            return HEADER.pack(min(size, 2**32 - 1))
        self._partial.append(data)
        if not finished:
            return None
        body = b"".join(self._partial)
        self._partial, self._partial_size = [], 0
        return HEADER.pack(len(body)) + body

    # -- sending ---------------------------------------------------------------------
    #
    # The host writes a connection's output synchronously at the end of a scheduler
    # batch, straight to the socket when nothing is queued (host/link.py), so the
    # WebSocket framing happens there, in :meth:`frame_output`, and the connection's
    # writer task sends already framed bytes (:meth:`send_framed`). Control frames
    # (pongs, the close answer) ride with the next output, which keeps every byte on
    # the socket in one order; a client that wants a prompt answer sends the
    # protocol's ``ping``, which the host answers at once.

    @property
    def fd(self) -> int | None:
        """The socket's descriptor, for the host's direct writes."""
        sock = getattr(self._stream, "socket", None)
        return sock.fileno() if sock is not None else None

    def frame_output(self, data: bytes) -> bytes:
        """Lantable frames (any number, each whole) as one binary message each."""
        view = memoryview(data)
        out: list[bytes | memoryview] = [self._pong, self._control]
        self._pong = self._control = b""
        while view:
            (size,) = HEADER.unpack_from(view)
            out += (binary_header(size), view[HEADER.size:HEADER.size + size])
            view = view[HEADER.size + size:]
        return b"".join(out)

    async def send_framed(self, data: bytes) -> None:
        """Send bytes :meth:`frame_output` made."""
        async with self._send_lock:
            await self._stream.send_all(data)

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        """Send lantable frames as binary messages (what the host sends outside a
        session's output, e.g. the error that refuses a hello)."""
        await self.send_framed(self.frame_output(bytes(data)))

    async def wait_send_all_might_not_block(self) -> None:
        await self._stream.wait_send_all_might_not_block()

    async def send_eof(self) -> None:  # pragma: no cover - not used by the host
        raise NotImplementedError

    async def aclose(self) -> None:
        """Close the WebSocket politely (code 1000), then the TCP stream (only that,
        once handed to another process: the WebSocket goes on there)."""
        if self.handed:
            await self._stream.aclose()
            return
        try:
            with trio.move_on_after(1):
                if self._ws.state.name == "OPEN":
                    self._control += self._ws.send(CloseConnection(code=1000))
                if self._control or self._pong:
                    await self.send_framed(self.frame_output(b""))
        except (trio.BrokenResourceError, trio.ClosedResourceError, WsLocalError):
            pass
        finally:
            await self._stream.aclose()
