"""Issue 9, finding 11: a client's update queue is bounded, and a bot that loses its
connection, even before `joined`, comes back and plays its seat to the end. Tokens
are remembered per peer and table."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
import trio

from lantable.clients.client import (
    EVENT_BACKLOG,
    RequestError,
    UpdateFeed,
    new_join_id,
    open_client,
)
from lantable.clients.runner import run_bot
from lantable.clients.tokens import TokenStore
from lantable.host.peer import serve_peer
from lantable.plugins import load_registry
from lantable.protocol import Update


def _update(seq: int, events: list | None) -> Update:
    return Update(table="t", seq=seq, status="playing", seats=[], seat=0, view={"n": seq},
                  to_act=[0], events=events)


async def test_finding_11_a_slow_reader_gets_the_latest_update_with_every_event():
    feed = UpdateFeed(backlog=3)
    for seq in range(1, 101):
        feed.send_nowait(_update(seq, [{"type": "e", "n": seq}]))
    assert len(feed) == 3  # bounded, however many arrive
    got = [await feed.receive() for _ in range(3)]
    assert [u.seq for u in got] == [1, 2, 100] and got[-1].view == {"n": 100}
    events = [e["n"] for u in got for e in u.events]
    assert events == list(range(1, 101))  # nothing a person should read is lost
    feed.close()
    assert [u async for u in feed] == []


async def test_finding_11_folded_events_are_bounded_too():
    feed = UpdateFeed(backlog=1)
    for seq in range(EVENT_BACKLOG + 500):
        feed.send_nowait(_update(seq, [{"type": "e", "n": seq}]))
    update = await feed.receive()
    assert len(update.events) == EVENT_BACKLOG and update.events[-1]["n"] == seq


def test_tokens_are_remembered_per_peer_and_table(tmp_path):
    store = TokenStore(tmp_path / "seats.json")
    store.remember("peer1", "t1", 2, "tok-a", name="ann")
    store.remember("peer1", "t1", 0, "tok-b", name="greedy-1@den")
    store.remember("peer2", "t1", 1, "tok-c", name="ann")
    assert store.find("peer1", "t1", name="ann") == (2, "tok-a")
    assert store.find("peer1", "t1", 0) == (0, "tok-b")
    assert store.find("peer1", "t1", name="bob") is None  # bots never take others' seats
    assert store.find("peer2", "t1", name="bob", any_name=True) == (1, "tok-c")
    store.forget("peer1", "t1", 2)
    assert store.find("peer1", "t1", name="ann") is None
    assert (tmp_path / "seats.json").stat().st_mode & 0o777 == 0o600


class _Proxy:
    """A TCP proxy to the host for the first connection's misfortunes: ``up`` and
    ``down`` see each chunk (client to host) or frame (host to client) of the first
    connection and return False to cut it there; later connections pass untouched."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.connections = 0

    def up(self, chunk: int, data: bytes) -> bool:
        return True

    def down(self, msg: dict[str, Any]) -> bool:
        return True

    async def handle(self, client: trio.SocketStream) -> None:
        first = self.connections == 0
        self.connections += 1
        async with client, await trio.open_tcp_stream("127.0.0.1", self.target) as host:
            async with trio.open_nursery() as nursery:
                async def up() -> None:
                    chunks = 0
                    async for data in client:
                        chunks += 1
                        if first and not self.up(chunks, data):
                            break
                        await host.send_all(data)
                    nursery.cancel_scope.cancel()

                async def down() -> None:
                    buf = b""
                    async for data in host:
                        buf += data
                        while len(buf) >= 4 and len(buf) >= 4 + int.from_bytes(buf[:4]):
                            n = 4 + int.from_bytes(buf[:4])
                            body, buf = buf[:n], buf[n:]
                            if first and not self.down(msgpack.unpackb(body[4:], raw=False)):
                                nursery.cancel_scope.cancel()
                                return
                            await client.send_all(body)
                    nursery.cancel_scope.cancel()

                nursery.start_soon(up)
                nursery.start_soon(down)


class _DropOnce(_Proxy):
    """Cuts the first connection at the client's second message (its join), before
    any reply: `joined` never arrives."""

    def up(self, chunk: int, data: bytes) -> bool:
        return chunk < 2


class _DropJoined(_Proxy):
    """Passes the first connection's join to the host, then cuts the connection
    instead of passing back its ``joined``: the host took and journalled the seat,
    the client never heard."""

    dropped: dict[str, Any] | None = None

    def down(self, msg: dict[str, Any]) -> bool:
        if msg["t"] == "joined":
            self.dropped = msg
            return False
        return True


async def _bot_behind(proxy_type: type[_Proxy], tmp_path: Any, check: Any) -> None:
    """A host with a one-seat race table, ``proxy_type`` in front of it, and a random
    bot that plays that seat through the proxy; then ``check(running, proxy, table,
    store, seat, scores)`` while the host still runs."""
    registry = load_registry()
    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
            task_status=task_status))
        proxy = proxy_type(running.port)
        listeners = await nursery.start(trio.serve_tcp, proxy.handle, 0)
        proxy_port = listeners[0].socket.getsockname()[1]
        async with open_client("127.0.0.1", running.port, name="maker") as maker:
            table = await maker.create("race", 1, {"target": 6}, seed=1)
        store = TokenStore(tmp_path / "seats.json")
        with trio.fail_after(30):
            seat, scores = await run_bot("127.0.0.1", proxy_port, table, "random", 0,
                                         name="random-1@test", store=store, quiet=True)
        check(running, proxy, table, store, seat, scores)
        nursery.cancel_scope.cancel()


async def test_finding_11_a_bot_cut_off_before_joined_retries_and_plays_to_the_end(tmp_path):
    def check(running, proxy, table, store, seat, scores) -> None:
        assert proxy.connections >= 2 and seat == 0 and scores["rank"] == [1]
        assert running.peer.table(table).status == "finished"
        assert store.find(running.peer.peer_id, table, name="random-1@test") is not None
    await _bot_behind(_DropOnce, tmp_path, check)


async def test_finding_11_a_bot_whose_joined_was_lost_gets_the_same_seat_back(tmp_path):
    """The join reached the host (the seat is journalled and the one-seat table has
    started), only the reply was lost: the bot's retry, with the same join_id, gets
    that seat and token back and plays it to the end, rather than being refused."""
    def check(running, proxy, table, store, seat, scores) -> None:
        assert proxy.dropped is not None and proxy.connections >= 2
        assert seat == proxy.dropped["seat"] == 0 and scores["rank"] == [1]
        record = running.peer.journal.table(table)
        assert record.status == "finished" and record.tokens == {0: proxy.dropped["token"]}
        assert store.find(running.peer.peer_id, table, name="random-1@test") == (
            0, proxy.dropped["token"])
    await _bot_behind(_DropJoined, tmp_path, check)


async def test_a_join_retried_with_its_join_id_survives_a_host_restart(tmp_path):
    registry = load_registry()
    join_id = new_join_id()
    seen = []
    for _restart in range(2):  # the same join, before and after a restart
        async with trio.open_nursery() as nursery:
            running = await nursery.start(lambda task_status: serve_peer(
                registry=registry, db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
                task_status=task_status))
            async with open_client("127.0.0.1", running.port, name="ann") as ann:
                if not seen:
                    table = await ann.create("race", 2, seed=1)
                for _ in range(2):
                    joined = await ann.join(table, join_id=join_id)
                    seen.append((joined.seat, joined.token))
                with pytest.raises(RequestError) as info:
                    await ann.join(table, join_id=b"short")
                assert info.value.code == "bad_join_id"
            nursery.cancel_scope.cancel()
    assert len(seen) == 4 and len(set(seen)) == 1  # one seat, one token
    async with trio.open_nursery() as nursery:  # another nonce is another join
        running = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
            task_status=task_status))
        async with open_client("127.0.0.1", running.port, name="bob") as bob:
            assert (await bob.join(table, join_id=new_join_id())).seat == 1 - seen[0][0]
        nursery.cancel_scope.cancel()


async def test_peers_marks_the_seats_whose_players_dropped(tmp_path):
    from lantable.clients.lan import format_peers, mark_connected

    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=load_registry(), db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
            task_status=task_status))
        port = running.port
        async with open_client("127.0.0.1", port, name="ann") as ann:
            table = await ann.create("race", 3, seed=1)
            await ann.join(table)
            async with open_client("127.0.0.1", port, name="bob") as bob:
                await bob.join(table)
            async with open_client("127.0.0.1", port, name="cy") as cy:
                await cy.join(table)  # the last seat: the game starts; bob and cy are gone
            async with open_client("127.0.0.1", port, name="lantable-peers") as peers:
                tables = await peers.list_tables()
                await mark_connected(peers, tables)
        nursery.cancel_scope.cancel()
    text = format_peers([{"name": "den", "address": "127.0.0.1", "port": port, "peer_id": "p",
                          "games": [], "open_tables": 1, "error": None, "tables": tables}])
    assert "ann, bob (disconnected), cy (disconnected)" in text, text


async def test_a_seat_resumed_elsewhere_stops_this_player_instead_of_fighting(tmp_path):
    import pytest

    from lantable.clients.session import SeatPlan, SeatTakenOver, hold_seat

    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=load_registry(), db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
            task_status=task_status))
        port = running.port
        async with open_client("127.0.0.1", port, name="maker") as maker:
            table = await maker.create("race", 2, seed=1)
            await maker.join(table, seat=1)
            held_token: list[str] = []

            def make_decider(game: str, seat: int | None):
                async def decide(update, legal):
                    await trio.sleep_forever()  # a person thinking
                return decide

            def notify(kind: str, text: str) -> None:
                if kind == "sat":
                    nursery.start_soon(steal)

            async def steal() -> None:
                token = TokenStore(tmp_path / "seats.json").find(
                    running.peer.peer_id, table, 0)[1]
                held_token.append(token)
                async with open_client("127.0.0.1", port, name="ann-2", token=token):
                    await trio.sleep(1)

            with pytest.raises(SeatTakenOver), trio.fail_after(10):
                await hold_seat("127.0.0.1", port, SeatPlan(table=table, seat=0), name="ann",
                                make_decider=make_decider,
                                store=TokenStore(tmp_path / "seats.json"), notify=notify)
            assert held_token
        nursery.cancel_scope.cancel()


async def test_a_remembered_seat_belongs_to_the_program_that_took_it():
    """Issue 22.5: which remembered seat a program resumes on its own, and when it
    needs --take-over (and a person's yes)."""
    from lantable.clients.session import SeatOwned, SeatPlan, _remembered
    from lantable.clients.tokens import Remembered

    bot = Remembered(0, "tok-bot", "random-1@den", "bot", running=True)
    gone = Remembered(1, "tok-ann", "ann", "play", running=False)
    old = Remembered(2, "tok-old", "ann", None, running=False)  # before owners were kept
    play = SeatPlan(table="t", program="play")
    assert await _remembered([bot, gone], play, "ann", "t") == gone
    assert await _remembered([bot], play, "ann", "t") is None  # join a free seat instead
    assert await _remembered([old], play, "ann", "t") == old
    assert await _remembered([old], play, "bea", "t") is None
    # The bot's own seat, its process gone: a bot of that name resumes it.
    dead_bot = Remembered(0, "tok-bot", "random-1@den", "bot", running=False)
    assert await _remembered([dead_bot, gone], SeatPlan(table="t", program="bot"),
                             "random-1@den", "t") == dead_bot
    assert await _remembered([dead_bot, gone], SeatPlan(table="t", program="bot"),
                             "random-2@den", "t") is None
    # Naming another program's seat needs --take-over, and a person's yes.
    with pytest.raises(SeatOwned, match="--take-over"):
        await _remembered([bot], SeatPlan(table="t", seat=0), "ann", "t")
    answers = []

    async def no(entry):
        answers.append(entry.seat)
        return False

    async def yes(entry):
        return True

    with pytest.raises(SeatOwned, match="not taken"):
        await _remembered([bot], SeatPlan(table="t", seat=0, take_over=True, confirm=no),
                          "ann", "t")
    assert answers == [0]
    assert await _remembered([bot], SeatPlan(table="t", seat=0, take_over=True, confirm=yes),
                             "ann", "t") == bot
    # A running play of ours (another terminal) is not ours to resume either.
    other_terminal = Remembered(1, "tok-ann", "ann", "play", running=True)
    assert await _remembered([other_terminal], play, "ann", "t") is None
