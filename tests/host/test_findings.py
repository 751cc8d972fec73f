"""Issue 9's findings, one test each (named after the finding): a hostile or careless
client must get a clear answer and leave every table, and the host, as they were."""

from __future__ import annotations

import random
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import time
from functools import partial

import pytest
import trio

import lantable.plugins.kaisers_pirates as kaisers_pirates
from lantable.clients.client import RequestError, open_client
from lantable.host import table as table_module
from lantable.host.limits import DEFAULT_LIMITS
from lantable.plugins import hookimpl, load_registry
from lantable.protocol import Hello, ListTables, encode_frame

from .memory import memory_peer
from .rawclient import RawClient
from .tally import Tally


class SetView(Tally):
    """Tally whose view holds a set while the counter is odd: not msgpack data."""

    @hookimpl
    def game_info(self):
        return {**super().game_info(), "id": "setview"}

    @hookimpl
    def game_view(self, state, seat):
        view = super().game_view(state, seat)
        if state["counter"] % 2:
            view["odd"] = {1, 2}
        return view


@pytest.fixture
def registry():
    return load_registry(autoload=False, plugins={"tally": Tally(), "setview": SetView(),
                                                  "kaisers-pirates": kaisers_pirates})


async def _session(port: int, name: str = "raw"):
    raw = await RawClient.open(port)
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


async def test_finding_4_an_update_too_large_to_encode_is_a_host_error(peer):
    """The game's view is over the frame limit: the requester hears ``internal``, the
    table is not faulted, and it goes on once the views fit again."""
    async with open_client("127.0.0.1", peer.port, name="maker") as a:
        table_id = await a.create("tally", 1, {"pad": 2 << 20}, seed=1)
    raw = await _session(peer.port)
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


async def test_finding_4_an_unencodable_update_is_a_host_error(peer):
    async with open_client("127.0.0.1", peer.port, name="maker") as a:
        table_id = await a.create("setview", 1, {"target": 5}, seed=1)
    raw = await _session(peer.port)
    await raw.send_map({"t": "join", "id": 1, "table": table_id})
    assert (await raw.next_map())["t"] == "joined"
    assert (await raw.next_map())["t"] == "update"  # counter 0: fine
    await raw.send_map({"t": "act", "id": 2, "table": table_id, "action": {"type": "add", "n": 1}})
    frames = [await raw.next_map(), await raw.next_map()]
    assert frames[0]["t"] == "accepted"
    assert frames[1]["t"] == "error" and frames[1]["code"] == "internal"
    table = peer.peer.table(table_id)
    assert table.status == "playing" and table.seq == 1
    await raw.send_map({"t": "act", "id": 3, "table": table_id, "action": {"type": "add", "n": 1}})
    assert (await raw.next_map())["t"] == "accepted"
    update = await raw.next_map()
    assert update["t"] == "update" and update["seq"] == 2 and update["view"]["counter"] == 2


# -- 6. well-framed input that closed the connection without an error ----------------


async def test_finding_6_non_ascii_token_gets_bad_token(peer):
    async with open_client("127.0.0.1", peer.port, name="holder") as a:
        await a.join(await a.create("tally", 2))  # a token to compare with
    raw = await RawClient.open(peer.port)
    await raw.send(Hello(proto=1, name="x", token="jeton-\u00e9t\u00e9-\u2603"))
    frames = await raw.read_all()
    assert [f["code"] for f in frames] == ["bad_token"]
    raw = await _session(peer.port)
    await raw.send_map({"t": "resume", "id": 4, "token": "\u00e9" * 30})
    reply = await raw.next_map()
    assert reply["code"] == "bad_token" and reply["id"] == 4


async def test_finding_6_seed_out_of_64_bits_gets_bad_options(peer):
    raw = await _session(peer.port)
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
async def test_finding_6_a_thousand_deep_map_gets_an_error(peer, field):
    raw = await _session(peer.port)
    msg = {"t": "act", "id": 1, "table": "t1", "action": {"type": "x"}}
    if field == "options":
        msg = {"t": "create", "id": 1, "game": "tally", "seats": 2}
    msg[field] = _deep(1000)
    await raw.send_map(msg)
    reply = await raw.next_map()
    assert reply["t"] == "error"
    assert reply["code"] in ("bad_message", "too_large")
    assert len(reply["message"]) < 300


async def test_finding_6_float_option_in_kaisers_pirates_setup_is_answered(peer):
    raw = await _session(peer.port)
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
        # The host journals the game's own legal action, not the client's bytes; junk
        # under the action limit is refused too (issue 25, finding 13).
        for _ in range(20):
            await a.act(table_id, {"type": "add", "n": 1.0})
        with pytest.raises(RequestError) as info:
            await a.act(table_id, {"type": "add", "n": 1, "junk": "y" * 3000})
        assert info.value.code == "illegal_action"
    actions = peer.peer.journal.actions(table_id)
    assert [a.action for a in actions] == [{"type": "add", "n": 1}] * 20
    assert sum(len(repr(a.action)) for a in actions) < 20 * 30


async def test_finding_7_no_request_frame_over_the_request_limit_is_buffered(peer):

    raw = await _session(peer.port)
    await raw.send_bytes(struct.pack(">I", DEFAULT_LIMITS.max_request_bytes + 1))
    frames = await raw.read_all()
    assert frames[-1]["code"] == "frame_too_large"
    with trio.fail_after(5):
        async with open_client("127.0.0.1", peer.port, name="after") as a:
            await a.list_tables()


# -- 2. lock-out by table list -------------------------------------------------------


async def test_finding_2_long_or_control_names_are_refused(peer):
    for name in ("n" * 1000, "\u00e9" * 33, "bell\x07", "esc\x1b[2J"):
        raw = await RawClient.open(peer.port)
        await raw.send(Hello(proto=1, name=name))
        frames = await raw.read_all()
        assert [f["code"] for f in frames] == ["bad_name"], name
    raw = await _session(peer.port, name="\u00e9" * 32)  # 64 bytes is fine


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


async def test_finding_2_abandoned_waiting_tables_close_and_free_the_limits(registry,
                                                                            autojump_clock):
    limits = DEFAULT_LIMITS.replace(max_tables_per_client=2, waiting_ttl=300, idle_timeout=3600)
    async with memory_peer(registry, limits) as running:
        a, w = await running.connect("a"), await running.connect("watcher")
        await a.send_map({"t": "create", "id": 1, "game": "tally", "seats": 2})
        empty = (await a.next_map())["table"]
        await a.send_map({"t": "create", "id": 2, "game": "tally", "seats": 2})
        seated = (await a.next_map())["table"]
        await a.send_map({"t": "join", "id": 3, "table": seated})
        assert (await a.next_map())["t"] == "joined"
        await w.send_map({"t": "join", "id": 1, "table": empty, "spectate": True})
        assert (await w.next_map())["t"] == "joined"
        await a.send_map({"t": "create", "id": 4, "game": "tally", "seats": 2})
        while (reply := await a.next_map()).get("id") != 4:
            pass
        assert reply["code"] == "too_many_tables"
        await trio.sleep(299)
        assert empty in running.peer.tables  # not yet
        while (closed := await w.next_map())["t"] != "error":
            pass  # the spectator is told (after its updates)
        assert closed["code"] == "table_closed" and trio.current_time() < 400
        assert empty not in running.peer.tables
        assert seated in running.peer.tables  # a table someone sat at stays
        await w.send_map({"t": "list_tables", "id": 2})
        assert empty not in [t["id"] for t in (await w.next_map())["tables"]]
        await a.send_map({"t": "create", "id": 5, "game": "tally", "seats": 2})
        while (reply := await a.next_map()).get("id") != 5:
            pass
        assert reply["t"] == "created"
        assert running.peer.journal.table(empty).status == "abandoned"


# -- 5. memory held by slow or idle clients ------------------------------------------


async def test_finding_5_idle_lobby_connections_time_out_seated_ones_stay(registry,
                                                                          autojump_clock):
    async with memory_peer(registry, DEFAULT_LIMITS.replace(idle_timeout=300)) as running:
        seated = await running.connect("seated")
        await seated.send_map({"t": "create", "id": 1, "game": "tally", "seats": 2})
        table = (await seated.next_map())["table"]
        await seated.send_map({"t": "join", "id": 2, "table": table})
        pinger = await running.connect("pinger")
        idle = await running.connect("idle")
        start = trio.current_time()
        closed: list[tuple[float, list]] = []

        async def watch_idle() -> None:
            frames = await idle.read_all()
            closed.append((trio.current_time() - start, frames))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch_idle)
            for n in range(1, 8):  # a ping every 100 s keeps a lobby connection alive
                await trio.sleep(100)
                await pinger.send_map({"t": "ping", "id": n})
        ((after, frames),) = closed
        assert frames[-1]["code"] == "idle_timeout" and 300 <= after < 400
        await seated.send_map({"t": "list_tables", "id": 3})  # a seat holder is never idle
        while (reply := await seated.next_map()).get("id") != 3:
            pass
        assert reply["t"] == "tables"
        while (reply := await pinger.next_map())["t"] == "pong" and reply["id"] < 7:
            pass
        assert reply == {"t": "pong", "id": 7}


async def test_finding_5_a_frame_that_never_finishes_times_out(registry, autojump_clock):
    async with memory_peer(registry, DEFAULT_LIMITS.replace(frame_timeout=30)) as running:
        slow = await running.connect()
        start = trio.current_time()
        await slow.send_bytes(b"\x00\x00\x10\x00" + b"\x81")  # 4 KiB announced, 1 byte sent
        sent = 0
        try:
            for _ in range(20):  # a slow loris: one more byte every 5 s does not help
                await trio.sleep(5)
                await slow.send_bytes(b"\xa0")
                sent += 1
        except trio.BrokenResourceError:  # the host hung up
            pass
        assert sent < 20
        frames = await slow.read_all()
        assert frames[-1]["code"] == "frame_timeout"
        assert 30 <= trio.current_time() - start < 40


async def test_finding_5_connections_and_spectators_are_capped(make_peer):
    running = await make_peer(DEFAULT_LIMITS.replace(max_connections=3, max_spectators=1))
    async with open_client("127.0.0.1", running.port, name="a") as a, \
            open_client("127.0.0.1", running.port, name="b") as b:
        table = await a.create("tally", 2)
        await a.join(table, spectate=True)
        with pytest.raises(RequestError) as info:
            await b.join(table, spectate=True)
        assert info.value.code == "too_many_spectators"
        c = await RawClient.open(running.port)
        await c.send(Hello(proto=1, name="c"))
        assert (await c.next_map())["t"] == "welcome"
        d = await RawClient.open(running.port)
        frames = await d.read_all()
        assert [f["code"] for f in frames] == ["too_many_connections"]
    with trio.fail_after(5):  # a and b left: room again
        while sum(running.peer.connections.values()) > 1:
            await trio.sleep(0.01)
    e = await _session(running.port, name="e")
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


# -- 8. shutdown -----------------------------------------------------------------------

LANTABLE = [sys.executable, "-m", "lantable.clients.cli"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_finding_8_a_signal_stops_the_host_gently(tmp_path, signum):
    """Clients hear ``shutting_down``, the journal is closed (its WAL file folded in and
    removed), and the process exits 0 within 2 s."""
    db = tmp_path / "journal.sqlite"
    port = _free_port()
    host = subprocess.Popen([*LANTABLE, "host", "--bind", "127.0.0.1", "--port", str(port),
                             "--db", str(db), "--no-discovery"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "listening on" in host.stdout.readline()
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(encode_frame({"t": "hello", "proto": 1, "name": "stayer"}))
        sock.sendall(encode_frame({"t": "create", "id": 1, "game": "race", "seats": 2}))
        sock.settimeout(5)
        received = b""
        while received.count(b"created") < 1:
            received += sock.recv(65536)
        started = time.monotonic()
        host.send_signal(signum)
        while chunk := sock.recv(65536):
            received += chunk
        assert host.wait(timeout=5) == 0
        assert time.monotonic() - started < 2.0
        assert b"shutting_down" in received
        stderr = host.stderr.read()
        assert "Traceback" not in stderr and "stopped" in stderr
        assert not (tmp_path / "journal.sqlite-wal").exists()  # closed cleanly
    finally:
        host.kill()
        host.wait()


class _FullDisk:
    """Stands for the journal's SQLite connection on a full disk: commits fail."""

    def __init__(self, db):
        self._db = db

    def __getattr__(self, name):
        return getattr(self._db, name)

    def execute(self, sql, *args):
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)


async def test_finding_8_a_full_disk_is_told_to_clients(registry, tmp_path):
    from lantable.host.journal import JournalFailed
    from lantable.host.peer import serve_peer

    frames = []
    try:
        async with trio.open_nursery() as nursery:
            running = await nursery.start(lambda task_status: serve_peer(
                registry=registry, db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
                task_status=task_status))
            raw = await _session(running.port)
            running.peer.journal._db = _FullDisk(running.peer.journal._db)
            await raw.send_map({"t": "create", "id": 1, "game": "tally", "seats": 2})
            frames = await raw.read_all()
    except* JournalFailed:
        pass
    else:
        raise AssertionError("the host should stop when its journal fails")
    assert [f.get("code") for f in frames] == ["shutting_down"]
    assert "disk is full" in frames[0]["message"]


# -- 9. a damaged journal --------------------------------------------------------------


def _journal_with_tables(path, n: int = 3) -> list[str]:
    from lantable.host.journal import Journal

    journal = Journal(path)
    ids = [f"t{i}" for i in range(n)]
    for i, table_id in enumerate(ids):
        journal.create_table(table_id, "tally", "1", 1, {"target": 5, "bugs": False, "pad": 0}, i)
        journal.take_seat(table_id, 0, "ann", f"token{i}")
        journal.set_status(table_id, "playing")
        journal.append(table_id, 1, 0, {"type": "add", "n": 1}, [])
    journal.close()
    return ids


@pytest.mark.parametrize("damage", ["garbage", "truncated", "zeroed", "future"])
def test_finding_9_a_damaged_journal_is_named_with_what_to_do(tmp_path, damage):
    from lantable.host.journal import Journal, JournalDamaged

    path = tmp_path / "journal.sqlite"
    _journal_with_tables(path)
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"this is not a database\n" * 100)
    elif damage == "truncated":
        path.write_bytes(data[:50])
    elif damage == "zeroed":
        path.write_bytes(b"\0" * 4096 + data[4096:])
    else:
        with sqlite3.connect(path) as con:
            con.execute("UPDATE meta SET value='99' WHERE key='schema'")
    with pytest.raises(JournalDamaged) as info:
        Journal(path)
    text = str(info.value)
    assert str(path) in text
    assert ("newer lantable" in text) if damage == "future" else ("mv " in text)
    assert path.exists()


def test_finding_9_the_cli_says_so_without_a_traceback(tmp_path):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"\x00garbage" * 500)
    done = subprocess.run([*LANTABLE, "host", "--bind", "127.0.0.1", "--port", "0", "--db",
                           str(path), "--no-discovery"], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert f"error: journal {path} cannot be read" in done.stderr


async def test_finding_9_one_corrupt_table_does_not_stop_the_others(registry, tmp_path, caplog):
    from lantable.host.journal import Journal
    from lantable.host.peer import Peer

    path = tmp_path / "journal.sqlite"
    ids = _journal_with_tables(path, 4)
    with sqlite3.connect(path) as con:
        con.execute("UPDATE tables SET options=x'c1c1' WHERE id='t1'")
        con.execute("UPDATE actions SET action=x'c1' WHERE table_id='t2'")
    peer = Peer(registry=registry, journal=Journal(path), name="p")
    peer.restore_tables()
    assert sorted(peer.tables) == [ids[0], ids[3]]
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 2 and all(str(path) in e and "skipped" in e for e in errors)
    assert not any(r.exc_info for r in caplog.records if r.levelname == "ERROR")


# -- 10. discovery survives strangers ------------------------------------------------


async def _stranger(nursery, behaviour: str) -> int:
    """A TCP server on loopback that misbehaves as ``behaviour`` says; its port."""

    async def serve(stream: trio.SocketStream) -> None:
        if behaviour == "reset":
            stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                     struct.pack("ii", 1, 0))
            await stream.aclose()
        elif behaviour == "http":
            await stream.receive_some(1024)
            await stream.send_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            await stream.aclose()
        elif behaviour == "wrong-frame":
            await stream.send_all(encode_frame({"t": "pong", "id": 1}))
            await trio.sleep(0.2)
            await stream.aclose()
        elif behaviour == "old-version":
            await stream.send_all(encode_frame({"t": "error", "code": "version_unsupported",
                                                "message": "I speak 7 only"}))
            await stream.aclose()
        else:  # silent
            await trio.sleep(30)

    listeners = await nursery.start(partial(trio.serve_tcp, serve, 0, host="127.0.0.1"))
    return listeners[0].socket.getsockname()[1]


async def test_finding_10_peers_shows_strangers_as_unreachable(peer, nursery, monkeypatch):
    from lantable.clients import lan
    from lantable.protocol.discovery import PeerInfo

    monkeypatch.setattr(lan, "FETCH_TIMEOUT", 1.0)
    infos = [PeerInfo(instance="good", name="good", peer_id="g", addresses=("127.0.0.1",),
                      port=peer.port, proto=1, games=("tally",), open_tables=0)]
    for behaviour in ("reset", "http", "wrong-frame", "old-version", "silent"):
        port = await _stranger(nursery, behaviour)
        infos.append(PeerInfo(instance=behaviour, name=behaviour, peer_id=behaviour,
                              addresses=("127.0.0.1",), port=port, proto=1, games=(),
                              open_tables=0))

    async def found(**kwargs):
        return infos

    monkeypatch.setattr("lantable.clients.discovery.find_peers", found)
    peers = await lan.lan_peers(0.1, None)
    by_name = {p["name"]: p for p in peers}
    assert by_name["good"]["error"] is None and by_name["good"]["tables"] == []
    for behaviour in ("reset", "http", "wrong-frame", "old-version", "silent"):
        assert by_name[behaviour]["error"], behaviour
        assert by_name[behaviour]["tables"] is None
    text = lan.format_peers(peers)
    assert text.count("unreachable:") == 5 and "Traceback" not in text
    assert await lan.find_peer(name=None, timeout=0.1, interfaces=None) == ("127.0.0.1",
                                                                            peer.port)


async def test_finding_5_a_client_that_reads_is_never_dropped_by_the_byte_bound(make_peer):
    """The outbox's byte count goes down as the writer sends: a reader that keeps up gets
    many times the bound through the outbox and stays."""
    running = await make_peer(DEFAULT_LIMITS.replace(max_outbox_bytes=64 * 1024))
    for i in range(150):
        running.peer.create_table("tally", 6, None, creator=f"10.0.{i // 100}.{i % 100}")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # writes go via the outbox
    sock.connect(("127.0.0.1", running.port))
    stream = trio.SocketStream(trio.socket.from_stdlib_socket(sock))
    raw = RawClient(stream)
    await raw.send(Hello(proto=1, name="steady"))
    await raw.next_map()
    total = 0
    for burst in range(20):  # each burst overfills the socket: the rest goes via the outbox
        for i in range(3):
            await raw.send_map({"t": "list_tables", "id": i})
        await trio.sleep(0.05)
        for i in range(3):
            reply = await raw.next_map()
            assert reply["t"] == "tables" and reply["id"] == i, burst
            total += len(encode_frame(reply))
    assert total > 10 * 64 * 1024
    await stream.aclose()
