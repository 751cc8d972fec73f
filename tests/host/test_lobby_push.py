"""The ``lobby`` push (issue 28, goal 3: bench/party.py): the first change after a quiet
spell goes out at once; a burst of changes goes out as one push per
``LOBBY_PUSH_EVERY``, not one per change to every watcher.

The clock is trio's MockClock, frozen: time passes only when the test jumps it."""

from __future__ import annotations

from typing import Any

from lantable.host.lobby import LOBBY_PUSH_EVERY

from .memory import MemoryClient, memory_peer

BURST = 20


async def _lobby(client: MemoryClient) -> dict[str, Any]:
    while True:
        frame = await client.next_map()
        if frame["t"] == "lobby":
            return frame


async def test_a_burst_of_changes_is_one_push_per_interval(registry, mock_clock) -> None:
    async with memory_peer(registry) as running:
        watchers = []
        for name in ("ann", "bo"):
            watcher = running.open()
            await watcher.send_map({"t": "hello", "proto": 1, "name": name, "lobby": True})
            assert (await _lobby(watcher))["tables"] == []  # at once, after welcome
            watchers.append(watcher)
        maker = await running.connect("cy")
        await maker.send_map({"t": "create", "id": 1, "game": "tally", "seats": 2})
        assert (await maker.next_map())["t"] == "created"
        for watcher in watchers:  # a change after a quiet spell: pushed with no time passing
            assert len((await _lobby(watcher))["tables"]) == 1
        for i in range(2, BURST + 2):  # the burst: every create answered, no time passing
            await maker.send_map({"t": "create", "id": i, "game": "tally", "seats": 2})
        for i in range(2, BURST + 2):
            assert (await maker.next_map())["id"] == i
        await maker.send_map({"t": "ping", "id": 99})
        assert (await maker.next_map())["t"] == "pong"  # the host has done all it was asked
        mock_clock.jump(LOBBY_PUSH_EVERY)
        for watcher in watchers:  # one push for the whole burst (was: one per create)
            assert len((await _lobby(watcher))["tables"]) == BURST + 1
