"""Issue 9's findings, one test each (named after the finding): a hostile or careless
client must get a clear answer and leave every table, and the host, as they were."""

from __future__ import annotations

import random
import socket

import pytest
import trio

import lantable.plugins.kaisers_pirates as kaisers_pirates
from lantable.clients.client import RequestError, open_client
from lantable.host import table as table_module
from lantable.host.limits import DEFAULT_LIMITS
from lantable.plugins import load_registry
from lantable.protocol import Hello, ListTables, encode_frame

from .conftest import Tally


@pytest.fixture
def registry():
    return load_registry(autoload=False, plugins={"tally": Tally(),
                                                  "kaisers-pirates": kaisers_pirates})


async def _session(raw_client, port: int, name: str = "raw"):
    raw = await raw_client(port)
    await raw.send(Hello(proto=1, name=name))
    assert (await raw.next_map())["t"] == "welcome"
    return raw


# -- 1. one frame freezes the host ---------------------------------------------------


async def test_finding_1_huge_seats_are_refused_before_any_work(peer, monkeypatch):
    built = []

    class CountingSeat(table_module.Seat):
        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(table_module, "Seat", CountingSeat)
    async with open_client("127.0.0.1", peer.port, name="a") as a:
        for seats in (10**5, 2**64 - 1, -(2**63), 0):
            with pytest.raises(RequestError) as info:
                await a.create("tally", seats)
            assert info.value.code == "bad_options"
            assert "expected 1..6" in str(info.value)
            assert built == []  # no seat list was built for a refused count
        assert await a.create("tally", 2)


# -- 3. an action that poisons a table -----------------------------------------------


def _floats(value):
    """``value`` with every int (not bool) made an equal float: what a careless client
    in a language without ints sends."""
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


async def test_finding_3_float_for_int_actions_are_journalled_as_the_game_own(peer):
    """Kaiser's Pirates played to the end with every int of every action sent as a
    float: nothing faults, the journal holds ints only, and a replay (a restart) gives
    the same game."""
    async with open_client("127.0.0.1", peer.port, name="a") as a, \
            open_client("127.0.0.1", peer.port, name="b") as b:
        table_id = await a.create("kaisers-pirates", 2, seed=5)
        await a.join(table_id)
        await b.join(table_id)
        clients = {0: a, 1: b}
        rng = random.Random(1)
        table = peer.peer.tables[table_id]
        for _ in range(400):
            to_act = table.game.to_act(table.state)
            if not to_act:
                break
            seat = to_act[0]
            legal = table.game.legal_actions(table.state, seat)
            await clients[seat].act(table_id, _floats(rng.choice(legal)), seat=seat)
            assert table.status != "faulted"
        assert table.seq > 20

    def has_float(value):
        if isinstance(value, dict):
            return any(has_float(v) for v in value.values())
        if isinstance(value, list):
            return any(has_float(v) for v in value)
        return isinstance(value, float)

    actions = peer.peer.journal.actions(table_id)
    assert actions and not any(has_float(rec.action) for rec in actions)
    state = table.state
    table._replay()
    assert table.state == state


async def test_finding_3_float_for_int_options_are_refused_or_made_the_game_own(peer):
    async with open_client("127.0.0.1", peer.port, name="a") as a:
        with pytest.raises(RequestError) as info:
            await a.create("tally", 2, {"target": 20.0})
        assert info.value.code == "bad_options"
        with pytest.raises(RequestError) as info:  # a float for an int in Kaiser's Pirates
            await a.create("kaisers-pirates", 2, {"extra_removed": 1.0})
        assert info.value.code == "bad_options"
        # An enumerated option gets the game's own value, never the client's float.
        table = await a.create("kaisers-pirates", 2, {"team_game": False})
        assert peer.peer.table(table).options["team_game"] is False


# -- 4. a table faulted when the game did nothing wrong ------------------------------


async def test_finding_4_an_update_too_large_to_encode_is_a_host_error(peer, raw_client):
    """The game's view is over the frame limit: the requester hears ``internal``, the
    table is not faulted, and it goes on once the views fit again."""
    async with open_client("127.0.0.1", peer.port, name="maker") as a:
        table_id = await a.create("tally", 1, {"pad": 2 << 20}, seed=1)
    raw = await _session(raw_client, peer.port)
    await raw.send_map({"t": "join", "id": 1, "table": table_id})
    frames = [await raw.next_map(), await raw.next_map()]
    assert frames[0]["t"] == "joined"
    assert frames[1]["t"] == "error" and frames[1]["code"] == "internal"
    assert "could not be sent" in frames[1]["message"]
    table = peer.peer.table(table_id)
    assert table.status == "playing"
    assert peer.peer.journal.table(table_id).status == "playing"
    await raw.send_map({"t": "act", "id": 2, "table": table_id, "action": {"type": "add", "n": 1}})
    reply = await raw.next_map()
    assert reply["t"] == "accepted" and reply["seq"] == 1
    assert table.status == "playing"


# -- 6. well-framed input that closed the connection without an error ----------------


async def test_finding_6_non_ascii_token_gets_bad_token(peer, raw_client):
    async with open_client("127.0.0.1", peer.port, name="holder") as a:
        await a.join(await a.create("tally", 2))  # a token to compare with
    raw = await raw_client(peer.port)
    await raw.send(Hello(proto=1, name="x", token="jeton-\u00e9t\u00e9-\u2603"))
    frames = await raw.read_all()
    assert [f["code"] for f in frames] == ["bad_token"]
    raw = await _session(raw_client, peer.port)
    await raw.send_map({"t": "resume", "id": 4, "token": "\u00e9" * 30})
    reply = await raw.next_map()
    assert reply["code"] == "bad_token" and reply["id"] == 4


async def test_finding_6_seed_out_of_64_bits_gets_bad_options(peer, raw_client):
    raw = await _session(raw_client, peer.port)
    for i, seed in enumerate((2**63, 2**64 - 1)):
        await raw.send_map({"t": "create", "id": i, "game": "tally", "seats": 2, "seed": seed})
        reply = await raw.next_map()
        assert reply["t"] == "error" and reply["code"] == "bad_options" and reply["id"] == i
    await raw.send_map({"t": "create", "id": 9, "game": "tally", "seats": 2, "seed": 2**63 - 1})
    assert (await raw.next_map())["t"] == "created"


def _deep(depth: int):
    value: dict = {"leaf": 1}
    for _ in range(depth):
        value = {"k": value}
    return value


@pytest.mark.parametrize("field", ["table", "action", "options"])
async def test_finding_6_a_thousand_deep_map_gets_an_error(peer, raw_client, field):
    raw = await _session(raw_client, peer.port)
    msg = {"t": "act", "id": 1, "table": "t1", "action": {"type": "x"}}
    if field == "options":
        msg = {"t": "create", "id": 1, "game": "tally", "seats": 2}
    msg[field] = _deep(1000)
    await raw.send_map(msg)
    reply = await raw.next_map()
    assert reply["t"] == "error"
    assert reply["code"] in ("bad_message", "too_large")
    assert len(reply["message"]) < 300


async def test_finding_6_float_option_in_kaisers_pirates_setup_is_answered(peer, raw_client):
    raw = await _session(raw_client, peer.port)
    for i, options in enumerate(({"extra_removed": 2.5}, {"first_player": 1.0},
                                 {"coal": 1.0})):
        await raw.send_map({"t": "create", "id": i, "game": "kaisers-pirates", "seats": 2,
                            "options": options})
        reply = await raw.next_map()
        assert reply["id"] == i and reply["t"] in ("error", "created")
        if reply["t"] == "error":
            assert reply["code"] == "bad_options"
    await raw.send_map({"t": "ping", "id": 99})
    assert (await raw.next_map())["t"] == "pong"  # the connection lives


# -- 7. the journal as a disk-filler -------------------------------------------------


async def test_finding_7_padded_actions_are_refused_and_the_journal_stays_small(peer):
    async with open_client("127.0.0.1", peer.port, name="a") as a:
        table_id = await a.create("tally", 1, {"target": 1000}, seed=1)
        await a.join(table_id)
        for _ in range(5):
            with pytest.raises(RequestError) as info:
                await a.act(table_id, {"type": "add", "n": 1, "junk": "x" * 60_000})
            assert info.value.code == "too_large"
        # Junk under the action limit reaches the game, which ignores it; the host
        # journals the game's own legal action, not the client's bytes.
        for _ in range(20):
            await a.act(table_id, {"type": "add", "n": 1.0})
        await a.act(table_id, {"type": "add", "n": 1, "junk": "y" * 3000})
    actions = peer.peer.journal.actions(table_id)
    assert [a.action for a in actions[:20]] == [{"type": "add", "n": 1}] * 20
    assert len(actions) == 21
    assert sum(len(repr(a.action)) for a in actions) < DEFAULT_LIMITS.max_action_bytes + 20 * 30


async def test_finding_7_no_request_frame_over_the_request_limit_is_buffered(peer, raw_client):
    import struct

    raw = await _session(raw_client, peer.port)
    await raw.send_bytes(struct.pack(">I", DEFAULT_LIMITS.max_request_bytes + 1))
    frames = await raw.read_all()
    assert frames[-1]["code"] == "frame_too_large"
    with trio.fail_after(5):
        async with open_client("127.0.0.1", peer.port, name="after") as a:
            await a.list_tables()


# -- 2. lock-out by table list -------------------------------------------------------


async def test_finding_2_long_or_control_names_are_refused(peer, raw_client):
    for name in ("n" * 1000, "\u00e9" * 33, "bell\x07", "esc\x1b[2J"):
        raw = await raw_client(peer.port)
        await raw.send(Hello(proto=1, name=name))
        frames = await raw.read_all()
        assert [f["code"] for f in frames] == ["bad_name"], name
    raw = await _session(raw_client, peer.port, name="\u00e9" * 32)  # 64 bytes is fine


async def test_finding_2_the_table_list_is_paged_and_never_outgrows_a_frame(make_peer):
    running = await make_peer(DEFAULT_LIMITS.replace(max_list_bytes=3000))
    made = {running.peer.create_table("tally", 6, {"pad": 1}, creator=f"10.0.0.{i}").id
            for i in range(60)}
    async with open_client("127.0.0.1", running.port, name="lister") as a:
        first = a.welcome.tables
        assert 0 < len(first) < 60 and a.welcome.more is True
        seen = [t["id"] for t in first]
        while True:
            reply = await a._request(ListTables, offset=len(seen))
            seen += [t["id"] for t in reply.tables]
            if not reply.more:
                break
        assert set(seen) == made and len(seen) == 60


async def test_finding_2_finished_tables_leave_the_lobby_but_stay_reachable(peer):
    async with open_client("127.0.0.1", peer.port, name="a") as a:
        table_id = await a.create("tally", 1, {"target": 2}, seed=1)
        await a.join(table_id)
        await a.act(table_id, {"type": "add", "n": 2})
        assert table_id not in [t["id"] for t in await a.list_tables()]
        update = await a.sync(table_id)  # still reachable by id
        assert update.status == "finished"
    assert peer.peer.journal.table(table_id).status == "finished"  # kept for replay
    async with open_client("127.0.0.1", peer.port, name="b") as b:
        assert table_id not in [t["id"] for t in b.welcome.tables]


async def test_finding_2_tables_per_client_and_per_peer_are_capped(make_peer):
    running = await make_peer(DEFAULT_LIMITS.replace(max_tables=5, max_tables_per_client=3))
    async with open_client("127.0.0.1", running.port, name="a") as a:
        tables = [await a.create("tally", 1) for _ in range(3)]
        with pytest.raises(RequestError) as info:
            await a.create("tally", 1)
        assert info.value.code == "too_many_tables"
        await a.join(tables[0])  # that table starts: a waiting one fewer
        tables.append(await a.create("tally", 1))
        running.peer.create_table("tally", 2, None, creator="10.1.1.1")
        with pytest.raises(RequestError) as info:
            await a.create("tally", 1)
        assert info.value.code == "too_many_tables" and "this peer" in str(info.value)


# -- 5. memory held by slow or idle clients ------------------------------------------


async def test_finding_5_idle_lobby_connections_time_out_seated_ones_stay(make_peer, raw_client):
    running = await make_peer(DEFAULT_LIMITS.replace(idle_timeout=0.3))
    async with open_client("127.0.0.1", running.port, name="seated") as seated:
        await seated.join(await seated.create("tally", 2))
        raw = await _session(raw_client, running.port)
        with trio.fail_after(5):
            frames = await raw.read_all()
        assert frames[-1]["code"] == "idle_timeout"
        await trio.sleep(0.5)
        assert await seated.list_tables()  # a seat holder is never idle


async def test_finding_5_a_frame_that_never_finishes_times_out(make_peer, raw_client):
    running = await make_peer(DEFAULT_LIMITS.replace(frame_timeout=0.3))
    raw = await _session(raw_client, running.port)
    await raw.send_bytes(b"\x00\x00\x10\x00" + b"\x81")  # 4 KiB announced, 1 byte sent
    with trio.fail_after(5):
        frames = await raw.read_all()
    assert frames[-1]["code"] == "frame_timeout"


async def test_finding_5_connections_and_spectators_are_capped(make_peer, raw_client):
    running = await make_peer(DEFAULT_LIMITS.replace(max_connections=3, max_spectators=1))
    async with open_client("127.0.0.1", running.port, name="a") as a, \
            open_client("127.0.0.1", running.port, name="b") as b:
        table = await a.create("tally", 2)
        await a.join(table, spectate=True)
        with pytest.raises(RequestError) as info:
            await b.join(table, spectate=True)
        assert info.value.code == "too_many_spectators"
        c = await raw_client(running.port)
        await c.send(Hello(proto=1, name="c"))
        assert (await c.next_map())["t"] == "welcome"
        d = await raw_client(running.port)
        frames = await d.read_all()
        assert [f["code"] for f in frames] == ["too_many_connections"]
    with trio.fail_after(5):  # a and b left: room again
        while sum(running.peer.connections.values()) > 1:
            await trio.sleep(0.01)
    e = await _session(raw_client, running.port, name="e")
    await e.send_map({"t": "ping", "id": 1})
    assert (await e.next_map())["t"] == "pong"


async def test_finding_5_a_client_that_never_reads_is_dropped_at_the_byte_bound(make_peer):
    """Pipelined ``list_tables`` with many tables, never read: dropped once its outbox
    holds the byte bound, long before the write bound (512 writes)."""
    running = await make_peer(DEFAULT_LIMITS.replace(max_outbox_bytes=256 * 1024))
    for i in range(200):
        running.peer.create_table("tally", 6, None, creator=f"10.0.{i // 100}.{i % 100}")
    sock = socket.create_connection(("127.0.0.1", running.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(encode_frame({"t": "hello", "proto": 1, "name": "sponge"}))
    burst = b"".join(encode_frame({"t": "list_tables", "id": i}) for i in range(300))
    await trio.to_thread.run_sync(sock.sendall, burst)
    with trio.fail_after(10):  # dropped: its connection is gone though it never closed
        while running.peer.connections:
            await trio.sleep(0.02)
    sock.close()
