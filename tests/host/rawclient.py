"""A client on raw bytes for the host's hostile tests (``await RawClient.open(port)``)."""

from __future__ import annotations

from typing import Any

import trio


class RawClient:
    """A client on raw bytes for hostile tests: send anything, read frames back."""

    def __init__(self, stream: trio.SocketStream) -> None:
        from lantable.protocol import Connection

        self.stream = stream
        self.conn = Connection("client")

    @classmethod
    async def open(cls, port: int) -> RawClient:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def send_bytes(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def send(self, msg: Any) -> None:
        await self.stream.send_all(self.conn.send(msg))

    async def send_map(self, obj: dict[str, Any]) -> None:
        from lantable.protocol import encode_frame

        await self.stream.send_all(encode_frame(obj))

    async def read_all(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Every frame until the host closes (as raw maps)."""
        import struct

        import msgpack

        buf = b""
        with trio.fail_after(timeout):
            while True:
                try:
                    data = await self.stream.receive_some(65536)
                except trio.BrokenResourceError:
                    data = b""
                if not data:
                    break
                buf += data
        out = []
        while len(buf) >= 4:
            (n,) = struct.unpack(">I", buf[:4])
            out.append(msgpack.unpackb(buf[4:4 + n], raw=False))
            buf = buf[4 + n:]
        return out

    async def next_map(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next frame, as a raw map (reads exactly one frame)."""
        import struct

        import msgpack

        async def exactly(n: int) -> bytes:
            data = b""
            while len(data) < n:
                chunk = await self.stream.receive_some(n - len(data))
                if not chunk:
                    raise EOFError("closed")
                data += chunk
            return data

        with trio.fail_after(timeout):
            (n,) = struct.unpack(">I", await exactly(4))
            return msgpack.unpackb(await exactly(n), raw=False)
