"""The peer over real loopback TCP: whole games, and every kind of bad input.

Each hostile case also checks that a game at another table on the same host is
not disturbed: it keeps accepting actions and finishes.
"""

from __future__ import annotations

import random
import struct

import pytest
import trio

from lantable.clients.client import RequestError, open_client
from lantable.clients.runner import bot_decider
from lantable.clients.seat import play_seat
from lantable.host.limits import DEFAULT_LIMITS
from lantable.protocol import Hello

from .memory import memory_peer
from .rawclient import RawClient


async def _play_table(port: int, table: str, seats: int, seed: int = 1) -> list[dict]:
    """Bots take every seat of ``table`` and play it out; returns each bot's scores."""
    results: list[dict] = []

    async def one(i: int) -> None:
        async with open_client("127.0.0.1", port, name=f"bot{i}") as client:
            joined = await client.join(table)
            decide = bot_decider(_RandomChooser(), joined.seat, random.Random(seed + joined.seat))
            results.append(await play_seat(client, table, joined.seat, decide))

    async with trio.open_nursery() as nursery:
        for i in range(seats):
            nursery.start_soon(one, i)
    return results


@pytest.fixture(params=["1", "always", "0"],
                ids=["writes-auto", "writes-all-on-thread", "writes-on-trio-thread"])
async def peer(request, make_peer, monkeypatch):
    """A running peer, its socket writes made three ways: by the writer thread for busy
    batches (the default), by the writer thread always (every write that would block,
    every settle), and by the trio thread (no compiled writer, or turned off)."""
    monkeypatch.setenv("LANTABLE_WRITER_THREAD", request.param)
    return await make_peer()


class _RandomChooser:
    def choose(self, view, seat, legal, rng):
        return rng.choice(legal)


@pytest.fixture
async def other_table(peer, nursery):
    """A game in progress at another table, played slowly by two bots in the background.

    Yields an object whose ``done`` event is set when that game finished normally.
    """
    async with open_client("127.0.0.1", peer.port, name="maker") as client:
        table = await client.create("tally", 2, {"target": 60}, seed=3)

    class Other:
        done = trio.Event()
        scores: list[dict] = []

    async def slow_bot(i: int) -> None:
        async with open_client("127.0.0.1", peer.port, name=f"other{i}") as client:
            joined = await client.join(table)
            rng = random.Random(i)

            async def decide(update, legal):
                await trio.sleep(0.002)
                return rng.choice(legal)

            Other.scores.append(await play_seat(client, table, joined.seat, decide))

    async def run() -> None:
        async with trio.open_nursery() as n:
            n.start_soon(slow_bot, 0)
            n.start_soon(slow_bot, 1)
        Other.done.set()

    nursery.start_soon(run)
    return Other


async def _assert_other_table_finishes(other) -> None:
    with trio.fail_after(20):
        await other.done.wait()
    assert len(other.scores) == 2 and all(s is not None for s in other.scores)


async def test_whole_game_over_tcp_matches_in_process_play(peer):
    async with open_client("127.0.0.1", peer.port, name="maker") as client:
        table = await client.create("tally", 3, {"target": 30}, seed=42)
    results = await _play_table(peer.port, table, 3, seed=5)
    assert len(results) == 3 and results[0] == results[1] == results[2]
    # The journal has every action; replaying it gives the same final scores.
    assert peer.peer.table(table).status == "finished"
    actions = peer.peer.journal.actions(table)
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    game = peer.peer.registry["tally"]
    state = game.setup(3, {"target": 30}, rng := random.Random(42))
    for a in actions:
        game.apply(state, a.seat, a.action, rng)
    assert game.scores(state) == results[0]


async def test_garbage_bytes_get_bad_frame_and_close(peer, other_table):
    raw = await RawClient.open(peer.port)
    await raw.send(Hello(proto=1, name="junk"))
    welcome = await raw.next_map()
    assert welcome["t"] == "welcome"
    await raw.send_bytes(struct.pack(">I", 5) + b"\xc1\xc1\xc1\xc1\xc1")
    frames = await raw.read_all()
    assert frames[-1]["t"] == "error" and frames[-1]["code"] == "bad_frame"
    await _assert_other_table_finishes(other_table)


async def test_garbage_instead_of_hello(peer, other_table):
    raw = await RawClient.open(peer.port)
    await raw.send_bytes(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    frames = await raw.read_all()
    assert frames and frames[-1]["t"] == "error"
    assert frames[-1]["code"] in ("frame_too_large", "bad_frame")
    await _assert_other_table_finishes(other_table)


async def test_four_gib_length_prefix_refused_before_buffering(peer, other_table):
    raw = await RawClient.open(peer.port)
    await raw.send(Hello(proto=1, name="big"))
    await raw.next_map()
    await raw.send_bytes(b"\xff\xff\xff\xff" + b"\x00" * 100)
    frames = await raw.read_all()
    assert frames[-1]["code"] == "frame_too_large"
    await _assert_other_table_finishes(other_table)


async def test_unknown_message_type(peer, other_table):
    raw = await RawClient.open(peer.port)
    await raw.send(Hello(proto=1, name="u"))
    await raw.next_map()
    await raw.send_map({"t": "teleport", "id": 1})
    frames = await raw.read_all()
    assert frames[-1]["t"] == "error" and frames[-1]["code"] == "unknown_type"
    await _assert_other_table_finishes(other_table)


async def test_wrong_protocol_version(peer):
    raw = await RawClient.open(peer.port)
    await raw.send_map({"t": "hello", "proto": 99, "min_proto": 7, "name": "future"})
    frames = await raw.read_all()
    assert frames == [frames[-1]] and frames[-1]["code"] == "version_unsupported"


async def test_request_before_hello(peer):
    raw = await RawClient.open(peer.port)
    await raw.send_map({"t": "list_tables", "id": 1})
    frames = await raw.read_all()
    assert frames[-1]["code"] == "unexpected_message"


async def test_no_hello_in_time(registry, autojump_clock):
    async with memory_peer(registry, DEFAULT_LIMITS.replace(hello_timeout=10)) as running:
        silent = running.open()
        frames = await silent.read_all()
        assert frames == [frames[-1]] and frames[-1]["code"] == "hello_timeout"
        assert trio.current_time() >= 10


async def test_out_of_turn_and_illegal_actions_are_refused_and_the_game_goes_on(peer):
    async with open_client("127.0.0.1", peer.port, name="a") as a, \
            open_client("127.0.0.1", peer.port, name="b") as b:
        table = await a.create("tally", 2, seed=1)
        ja = await a.join(table)
        jb = await b.join(table)
        first, second = (a, b) if ja.seat == 0 else (b, a)
        with pytest.raises(RequestError) as info:
            await second.act(table, {"type": "add", "n": 1})
        assert info.value.code == "not_to_act"
        for bad in ({"type": "add", "n": 9}, {"type": "nope"}, {"no": "type"}):
            with pytest.raises(RequestError) as info:
                await first.act(table, bad)
            assert info.value.code == "illegal_action"
        assert await first.act(table, {"type": "add", "n": 2}) == 1
        assert await second.act(table, {"type": "add", "n": 1}) == 2
        # Acting at a table where this connection holds no seat.
        other = await a.create("tally", 2, seed=2)
        with pytest.raises(RequestError) as info:
            await a.act(other, {"type": "add", "n": 1})
        assert info.value.code == "not_seated"
        with pytest.raises(RequestError) as info:
            await a.act("nosuchtable", {"type": "add", "n": 1})
        assert info.value.code == "no_such_table"
        assert jb.token != ja.token


async def test_create_errors(peer):
    async with open_client("127.0.0.1", peer.port, name="a") as a:
        with pytest.raises(RequestError) as info:
            await a.create("chess", 2)
        assert info.value.code == "no_such_game"
        with pytest.raises(RequestError) as info:
            await a.create("tally", 9)
        assert info.value.code == "bad_options"
        with pytest.raises(RequestError) as info:
            await a.create("tally", 2, {"colour": "red"})
        assert info.value.code == "bad_options"
        table = await a.create("tally", 1)
        await a.join(table)
        with pytest.raises(RequestError) as info:
            await a.join(table)
        assert info.value.code == "table_full"


async def test_forged_token_in_hello_is_refused(peer):
    raw = await RawClient.open(peer.port)
    await raw.send_map({"t": "hello", "proto": 1, "name": "thief", "token": "forged-token"})
    frames = await raw.read_all()
    assert frames[-1]["code"] == "bad_token"


async def test_resume_with_token_takes_the_seat_over(peer):
    async with open_client("127.0.0.1", peer.port, name="a") as a:
        table = await a.create("tally", 2, seed=9)
        ja = await a.join(table)
        async with open_client("127.0.0.1", peer.port, name="b") as b:
            await b.join(table)
            # Someone else presents a's token: the seat moves, a is told why.
            async with open_client("127.0.0.1", peer.port, name="a2", token=ja.token) as a2:
                assert a2.welcome.resumed == {"table": table, "seat": ja.seat, "token": ja.token}
                update = await a2.updates(table).receive()
                assert update.full and update.seat == ja.seat
                with trio.fail_after(5):
                    while not a.errors:
                        await trio.sleep(0.01)
                assert a.errors[0].code == "bad_token"
                if ja.seat in update.to_act:
                    assert await a2.act(table, {"type": "add", "n": 1}) == 1
                    with pytest.raises(RequestError) as info:
                        await a.act(table, {"type": "add", "n": 1})
                    assert info.value.code in ("not_seated", "not_to_act")
            with pytest.raises(RequestError) as info:
                await b.resume("not-a-token")
            assert info.value.code == "bad_token"


async def test_a_client_that_never_reads_is_dropped(peer, other_table):
    async with open_client("127.0.0.1", peer.port, name="maker") as client:
        table = await client.create("tally", 1, {"target": 100000, "pad": 60000}, seed=1)
        await client.join(table)
        raw = await RawClient.open(peer.port)
        raw.stream.setsockopt(__import__("socket").SOL_SOCKET, __import__("socket").SO_RCVBUF, 4096)
        await raw.send(Hello(proto=1, name="sleeper"))
        await raw.next_map()  # welcome; then never read again
        await raw.send_map({"t": "join", "id": 1, "table": table, "spectate": True})
        # Play until the host gives up on the sleeper; the player is never held up.
        dropped = False
        with trio.fail_after(30):
            for _ in range(3000):
                await client.act(table, {"type": "add", "n": 1})
                link = next((s for s in peer.peer.table(table).spectators), None)
                if link is None:
                    dropped = True
                    break
        assert dropped, "the host kept queueing for a client that never reads"
    await _assert_other_table_finishes(other_table)


async def test_a_burst_of_requests_in_one_write_is_answered_and_others_keep_playing(
        peer, other_table):
    """2,000 pings in a single send: every one is answered, in order, and the game at
    another table keeps going meanwhile (the reader yields between buffered requests)."""
    from lantable.protocol import encode_frame

    raw = await RawClient.open(peer.port)
    await raw.send(Hello(proto=1, name="burst"))
    await raw.next_map()
    n = 2000
    await raw.send_bytes(b"".join(encode_frame({"t": "ping", "id": i}) for i in range(1, n + 1)))
    ids = [(await raw.next_map())["id"] for _ in range(n)]
    assert ids == list(range(1, n + 1))
    await _assert_other_table_finishes(other_table)


async def test_a_slow_reader_catches_up_with_every_update_in_order(peer):
    """A spectator that stops reading long enough to fill its socket (but not its
    outbox) gets every update, in order and without a gap, once it reads again: the
    host queued what the socket refused and went back to direct writes after."""
    async with open_client("127.0.0.1", peer.port, name="player") as player:
        table = await player.create("tally", 1, {"target": 100000, "pad": 30000}, seed=1)
        await player.join(table)
        raw = await RawClient.open(peer.port)
        await raw.send(Hello(proto=1, name="slow"))
        await raw.next_map()  # welcome
        await raw.send_map({"t": "join", "id": 1, "table": table, "spectate": True})
        actions = 150  # about 4.5 MB of updates: beyond what the loopback socket buffers hold
        for _ in range(actions):
            await player.act(table, {"type": "add", "n": 1})
        link = next(iter(peer.peer.table(table).spectators))
        assert link.queued > 0  # the socket filled up; the rest waits in the outbox
        seqs = []
        while len(seqs) < actions + 1:
            msg = await raw.next_map()
            if msg["t"] == "update":
                seqs.append(msg["seq"])
        assert seqs == list(range(actions + 1))
        # Caught up: the next update is written straight to the socket again.
        with trio.fail_after(5):
            while link.queued:
                await trio.sleep(0.01)
        await player.act(table, {"type": "add", "n": 1})
        msg = await raw.next_map()
        assert msg["t"] == "update" and msg["seq"] == actions + 1 and link.queued == 0


async def test_a_connection_reset_mid_game_frees_nothing_and_the_seat_resumes(peer,
                                                                               other_table):
    """A client whose connection is reset (RST, not a clean close) while seated: the
    host notices, shows the seat disconnected, and the token still resumes it."""
    import socket

    async with open_client("127.0.0.1", peer.port, name="a") as a:
        table = await a.create("tally", 2, {"target": 30}, seed=2)
        await a.join(table, seat=0)
        raw = await RawClient.open(peer.port)
        await raw.send(Hello(proto=1, name="flaky"))
        await raw.next_map()  # welcome
        await raw.send_map({"t": "join", "id": 1, "table": table, "seat": 1})
        joined = await raw.next_map()
        assert joined["t"] == "joined" and joined["seat"] == 1
        raw.stream.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        await raw.stream.aclose()  # linger 0: the kernel sends RST
        with trio.fail_after(5):
            while peer.peer.table(table).seats[1].client is not None:
                await trio.sleep(0.01)
        async with open_client("127.0.0.1", peer.port, name="back") as back:
            resumed = await back.resume(joined["token"])
            assert resumed.seat == 1
            assert peer.peer.table(table).seats[1].client is not None
    await _assert_other_table_finishes(other_table)


async def test_plugin_crash_faults_only_that_table_and_restores_it(peer, other_table):
    async with open_client("127.0.0.1", peer.port, name="a") as a:
        table = await a.create("tally", 1, {"bugs": True, "target": 5}, seed=4)
        await a.join(table)
        assert await a.act(table, {"type": "add", "n": 2}) == 1
        with pytest.raises(RequestError) as info:
            await a.act(table, {"type": "boom"})
        assert info.value.code == "table_faulted"
        # Restored from the journal: the counter is back to 2 and play goes on.
        assert peer.peer.table(table).state["counter"] == 2
        assert await a.act(table, {"type": "add", "n": 3}) == 2
        assert peer.peer.table(table).status == "finished"
    await _assert_other_table_finishes(other_table)


async def test_a_game_that_keeps_failing_leaves_its_table_faulted_and_the_host_serving(
        peer, other_table):
    """The plugin fails building views from some point on, so even the restored table
    cannot be shown: the table stays faulted (updates without views, actions refused
    with table_faulted), the client keeps its connection, and other tables play on."""
    async with open_client("127.0.0.1", peer.port, name="a") as a:
        table = await a.create("tally", 1, {"bugs": True, "target": 20}, seed=4)
        updates = a.updates(table)
        await a.join(table)
        assert await a.act(table, {"type": "add", "n": 3}) == 1
        with pytest.raises(RequestError) as info:
            await a.act(table, {"type": "add", "n": 3})  # counter 6: views fail from now on
        assert info.value.code == "table_faulted"
        assert peer.peer.table(table).status == "faulted"
        with trio.fail_after(5):
            while True:
                update = await updates.receive()
                if update.status == "faulted":
                    break
        assert update.view is None and update.legal is None
        with pytest.raises(RequestError) as info:
            await a.act(table, {"type": "add", "n": 1})
        assert info.value.code == "table_faulted"
        await a.ping()  # the connection is still served
    await _assert_other_table_finishes(other_table)


async def test_spectator_sees_public_view_and_no_private_events(peer):
    async with open_client("127.0.0.1", peer.port, name="a") as a, \
            open_client("127.0.0.1", peer.port, name="watcher") as w:
        table = await a.create("tally", 1, seed=4)
        await w.join(table, spectate=True)
        await a.join(table)
        await a.act(table, {"type": "add", "n": 1})
        with trio.fail_after(5):
            while True:
                update = await w.updates(table).receive()
                if update.seq == 1:
                    break
        assert "my_secret" not in update.view and update.legal is None
        assert [e["type"] for e in update.events] == ["added"]
        mine = await a.sync(table)
        assert "my_secret" in mine.view


async def test_restart_rebuilds_tables_and_seats_resume(registry, tmp_path):
    from lantable.host.peer import serve_peer

    db = str(tmp_path / "j.sqlite")

    async def start(nursery):
        return await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=db, name="p", bind="127.0.0.1", port=0, task_status=task_status))

    async with trio.open_nursery() as nursery:
        running = await start(nursery)
        async with open_client("127.0.0.1", running.port, name="a") as a:
            table = await a.create("tally", 1, {"target": 10}, seed=8)
            token = (await a.join(table)).token
            await a.act(table, {"type": "add", "n": 3})
            await a.act(table, {"type": "add", "n": 3})
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        running = await start(nursery)
        async with open_client("127.0.0.1", running.port, name="a", token=token) as a:
            update = await a.updates(table).receive()
            assert update.seq == 2 and update.view["counter"] == 6 and update.legal
            await a.act(table, {"type": "add", "n": 3})
            assert await a.act(table, {"type": "add", "n": 1}) == 4
        assert running.peer.table(table).status == "finished"
        nursery.cancel_scope.cancel()


async def test_ipv6_loopback(registry, tmp_path, nursery):
    import socket

    if not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    from lantable.host.peer import serve_peer

    try:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=str(tmp_path / "v6.sqlite"), bind="::1", port=0,
            task_status=task_status))
    except OSError as exc:
        pytest.skip(f"cannot listen on ::1: {exc}")
    async with open_client("::1", running.port, name="six") as client:
        table = await client.create("tally", 1, seed=1)
        await client.join(table)
        assert await client.act(table, {"type": "add", "n": 1}) == 1
