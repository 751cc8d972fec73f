"""A minimal lantable client over the web port's WebSocket, on trio and wsproto.

What the browser does, in Python: one msgpack map per binary WebSocket message. The
tests use it to play the hostile client (garbage, oversize, a foreign ``Origin``) and
``bench/web.py`` to time the WebSocket path against TCP.
"""

from __future__ import annotations

from typing import Any

import msgpack
import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    RejectConnection,
    RejectData,
    Request,
    TextMessage,
)


class Refused(Exception):
    """The server refused the WebSocket upgrade (``status`` and ``body`` say why)."""

    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(f"upgrade refused with HTTP {status}: {body.decode(errors='replace')}")
        self.status = status
        self.body = body


class WsClient:
    """One open WebSocket; :meth:`receive` returns decoded maps, None once closed."""

    def __init__(self, stream: trio.SocketStream, ws: WSConnection) -> None:
        self.stream = stream
        self.ws = ws
        self._messages: list[dict[str, Any]] = []
        self._partial = b""
        self.closed: CloseConnection | None = None

    async def send(self, msg: dict[str, Any]) -> None:
        await self.send_bytes(msgpack.packb(msg, use_bin_type=True))

    async def send_bytes(self, data: bytes) -> None:
        await self.stream.send_all(self.ws.send(BytesMessage(data=data)))

    async def send_text(self, text: str) -> None:
        await self.stream.send_all(self.ws.send(TextMessage(data=text)))

    async def receive(self) -> dict[str, Any] | None:
        while not self._messages:
            if self.closed is not None:
                return None
            data = await self.stream.receive_some(65536)
            if not data:
                self.closed = CloseConnection(code=1006)
                return None
            self.ws.receive_data(data)
            for event in self.ws.events():
                if isinstance(event, BytesMessage):
                    self._partial += event.data
                    if event.message_finished:
                        message: dict[str, Any] = msgpack.unpackb(self._partial, raw=False)
                        self._messages.append(message)
                        self._partial = b""
                elif isinstance(event, CloseConnection):
                    self.closed = event
                    if self.ws.state.name not in ("CLOSED", "LOCAL_CLOSING"):
                        try:
                            await self.stream.send_all(self.ws.send(event.response()))
                        except (trio.BrokenResourceError, trio.ClosedResourceError):
                            pass  # the server has closed already
        return self._messages.pop(0)

    async def receive_until(self, t: str, **match: Any) -> dict[str, Any]:
        """Messages until one of type ``t`` (with these field values); EOFError if closed."""
        while True:
            msg = await self.receive()
            if msg is None:
                raise EOFError(f"closed before a {t!r}")
            if msg.get("t") == t and all(msg.get(k) == v for k, v in match.items()):
                return msg

    async def aclose(self) -> None:
        try:
            if self.ws.state.name == "OPEN":
                await self.stream.send_all(self.ws.send(CloseConnection(code=1000)))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        await self.stream.aclose()


async def open_ws(host: str, port: int, *, origin: str | None = None,
                  path: str = "/ws", host_header: str | None = None) -> WsClient:
    """Connect and upgrade; ``origin`` is sent as the ``Origin`` header if given, and
    ``host_header`` (default ``host:port``) as the ``Host``.

    Raises:
        Refused: the server answered the upgrade with an HTTP error.
    """
    stream = await trio.open_tcp_stream(host, port)
    ws = WSConnection(ConnectionType.CLIENT)
    extra = [(b"Origin", origin.encode())] if origin is not None else []
    await stream.send_all(ws.send(Request(host=host_header or f"{host}:{port}", target=path,
                                          extra_headers=extra)))
    status, body = 0, b""
    while True:
        data = await stream.receive_some(65536)
        if not data:
            await stream.aclose()
            raise Refused(status, body)
        ws.receive_data(data)
        for event in ws.events():
            if isinstance(event, AcceptConnection):
                return WsClient(stream, ws)
            if isinstance(event, RejectConnection):
                status = event.status_code
                if not event.has_body:
                    await stream.aclose()
                    raise Refused(status, body)
            elif isinstance(event, RejectData):
                body += event.data
                if event.body_finished:
                    await stream.aclose()
                    raise Refused(status, body)
