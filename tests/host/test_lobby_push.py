"""The ``lobby`` push (issue 28, goal 3: bench/party.py): the first change after a quiet
spell goes out at once; a burst of changes goes out as one push per
``LOBBY_PUSH_EVERY``, not one per change to every watcher.

The clock is trio's MockClock, frozen: time passes only when the test jumps it."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing

from lantable.host import lobby as lobby_module
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


async def test_a_big_lobby_to_many_watchers_is_pushed_less_often(
        registry, mock_clock, monkeypatch) -> None:
    """Pushes take at most ``LOBBY_PUSH_BYTES_PER_S`` of the host's link: after a push
    of B bytes to W watchers, the next waits B * W / that rate (here made small, so
    that two watchers of a one-table lobby stretch the spell past 0.25 s)."""
    monkeypatch.setattr(lobby_module, "LOBBY_PUSH_BYTES_PER_S", 100)
    async with memory_peer(registry) as running:
        pushes: list[tuple[float, int]] = []
        send = running.peer._send_lobby

        def spy() -> int:
            sent = send()
            pushes.append((trio.current_time(), sent))
            return sent

        running.peer._send_lobby = spy  # type: ignore[method-assign]
        watchers = []
        for name in ("ann", "bo"):
            watcher = running.open()
            await watcher.send_map({"t": "hello", "proto": 1, "name": name, "lobby": True})
            await _lobby(watcher)
            watchers.append(watcher)
        maker = await running.connect("cy")
        await maker.send_map({"t": "create", "id": 1, "game": "tally", "seats": 2})
        for watcher in watchers:
            assert len((await _lobby(watcher))["tables"]) == 1
        (at, sent), = pushes
        spell = sent / 100
        assert sent > 0 and spell > 2 * LOBBY_PUSH_EVERY  # both watchers' bytes count
        await maker.send_map({"t": "create", "id": 2, "game": "tally", "seats": 2})
        await trio.testing.wait_all_tasks_blocked()
        mock_clock.jump(LOBBY_PUSH_EVERY)
        await trio.testing.wait_all_tasks_blocked()
        assert len(pushes) == 1  # 0.25 s is not enough for this many bytes
        mock_clock.jump(spell - LOBBY_PUSH_EVERY)
        for watcher in watchers:
            assert len((await _lobby(watcher))["tables"]) == 2
        assert len(pushes) == 2 and pushes[1][0] - at >= spell
