"""A peer served on trio memory streams, for tests that need no socket.

The listener (``handle_connection``) serves any stream of lantable frames, so a test
can run a whole peer (its lobby, batch end and housekeeping) in the test's own trio
run and talk to it through ``trio.testing.memory_stream_pair``. Nothing touches the
network, and with pytest-trio's ``autojump_clock`` every timeout (hello, idle, frame,
abandoned tables) passes at once instead of in real seconds::

    async def test_idle(registry, autojump_clock):
        async with memory_peer(registry, limits) as peer:
            client = await peer.connect("ann")
            ...
"""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgpack
import trio
import trio.testing

from lantable.host.journal import Journal
from lantable.host.limits import DEFAULT_LIMITS, Limits
from lantable.host.listener import handle_connection
from lantable.host.peer import Peer, keep_house
from lantable.protocol import encode_frame


class MemoryClient:
    """The client's end of a memory stream: send raw maps or bytes, read frames."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self._buf = b""

    async def send_map(self, obj: dict[str, Any]) -> None:
        await self.stream.send_all(encode_frame(obj))

    async def send_bytes(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def next_map(self) -> dict[str, Any]:
        """The next frame; raises EOFError once the host closed."""
        while True:
            if len(self._buf) >= 4:
                (n,) = struct.unpack(">I", self._buf[:4])
                if len(self._buf) >= 4 + n:
                    body, self._buf = self._buf[4:4 + n], self._buf[4 + n:]
                    return msgpack.unpackb(body, raw=False)
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError("the host closed the connection")
            self._buf += data

    async def read_all(self) -> list[dict[str, Any]]:
        """Every frame until the host closes."""
        out = []
        while True:
            try:
                out.append(await self.next_map())
            except EOFError:
                return out


class MemoryPeer:
    """A running peer; :meth:`connect` opens a connection to it."""

    def __init__(self, peer: Peer, nursery: trio.Nursery) -> None:
        self.peer = peer
        self._nursery = nursery

    def open(self) -> MemoryClient:
        """A new connection that has said nothing yet."""
        client, server = trio.testing.memory_stream_pair()
        self._nursery.start_soon(handle_connection, server, self.peer, "memory")
        return MemoryClient(client)

    async def connect(self, name: str = "raw") -> MemoryClient:
        """A new connection past hello and welcome."""
        client = self.open()
        await client.send_map({"t": "hello", "proto": 1, "name": name})
        assert (await client.next_map())["t"] == "welcome"
        return client


@asynccontextmanager
async def memory_peer(registry: Any, limits: Limits = DEFAULT_LIMITS,
                      journal: str = ":memory:") -> AsyncIterator[MemoryPeer]:
    """Run a peer with ``registry``'s games in this trio run until the block ends."""
    peer = Peer(registry=registry, journal=Journal(journal), name="memory", limits=limits)
    try:
        with peer.batch.installed():
            async with trio.open_nursery() as nursery:
                await nursery.start(keep_house, peer)
                yield MemoryPeer(peer, nursery)
                nursery.cancel_scope.cancel()
    finally:
        peer.journal.close()
