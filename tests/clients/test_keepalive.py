"""The client library pings on its own: a person who only reads the lobby is never
dropped by the host's idle timeout (300 s), on a peer served over memory streams
under trio's autojump clock (no real waiting)."""

from __future__ import annotations

import trio

from lantable.clients.client import PING_EVERY, open_session
from lantable.host.limits import DEFAULT_LIMITS
from lantable.plugins import load_registry

from ..host.memory import memory_peer


async def test_an_idle_person_in_the_lobby_is_never_dropped(autojump_clock):
    assert PING_EVERY < DEFAULT_LIMITS.idle_timeout / 2
    async with memory_peer(load_registry(autoload=False, plugins={})) as running:
        stream = running.open().stream
        async with open_session(stream, name="reader") as client:
            await trio.sleep(10 * DEFAULT_LIMITS.idle_timeout)  # an hour of reading
            assert not client.closed.is_set()
            assert await client.list_tables() == []  # still served
        silent = running.open()  # a connection that never pings is dropped, as before
        await silent.send_map({"t": "hello", "proto": 1, "name": "silent"})
        frames = await silent.read_all()
        assert frames[-1]["code"] == "idle_timeout"
