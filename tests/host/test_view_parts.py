"""A game that splits its views (``game_view_parts``) sends exactly the updates it
would send with whole views: same seat views, same spectator view."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from lantable.clients.client import open_client
from lantable.plugins import hookimpl, load_registry

from .tally import Tally


class SplitTally(Tally):
    """Tally, with its views also given as a public part and each seat's own part."""

    calls = 0

    @hookimpl
    def game_info(self) -> dict[str, Any]:
        return {**super().game_info(), "id": "split-tally"}

    @hookimpl
    def game_view_parts(self, state: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        SplitTally.calls += 1
        public = self.game_view(state, None)
        return public, [{"my_secret": state["secret"][s]} for s in range(state["n"])]


@pytest.fixture
def registry():
    return load_registry(autoload=False, plugins={"tally": Tally(), "split-tally": SplitTally()})


async def _play(port: int, game: str) -> list[tuple[int | None, int, Any]]:
    """Two seats and a spectator; every update's (seat, seq, view) as received."""
    seen: list[tuple[int | None, int, Any]] = []
    async with open_client("127.0.0.1", port, name="a") as a, \
            open_client("127.0.0.1", port, name="b") as b, \
            open_client("127.0.0.1", port, name="w") as w:
        table = await a.create(game, 2, {"target": 8}, seed=3)
        clients = [a, b]
        for seat, client in enumerate(clients):
            await client.join(table, seat=seat)
        await w.join(table, spectate=True)
        streams = [a.updates(table), b.updates(table), w.updates(table)]
        done = [False, False, False]
        with trio.fail_after(10):
            while not all(done):
                for i, stream in enumerate(streams):
                    if done[i]:
                        continue
                    update = await stream.receive()
                    seen.append((update.seat, update.seq, update.view))
                    done[i] = update.status == "finished"
                    if i < 2 and update.legal:
                        await clients[i].act(table, update.legal[0])
    return sorted(seen, key=lambda x: (x[1], -1 if x[0] is None else x[0]))


async def test_split_views_send_the_same_updates_as_whole_views(peer):
    split = await _play(peer.port, "split-tally")
    assert SplitTally.calls >= 8  # the host used the parts: once per change, not per seat
    assert split == await _play(peer.port, "tally")
