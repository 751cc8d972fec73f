"""A host with worker processes (host/workers.py): real worker processes beside an
in-process front, raw clients over loopback.

What is checked: tables spread over the workers are played to the end; a client sees
exactly the bytes a one-process host sends; a worker killed with SIGKILL loses nothing
acknowledged, the other worker's tables go on without a hiccup, and the killed one's
players get their connection closed and resume their seats with their tokens once the
front started the worker again. (SIGKILL of the whole host with workers, restarted:
tests/host/test_restart.py.)
"""

from __future__ import annotations

import os
import signal
import sqlite3
import struct

import msgpack
import pytest
import trio

from lantable.host.peer import serve_peer
from lantable.host.workers import owner
from lantable.plugins import load_registry

RACE = {"target": 24, "max_step": 2}


class Raw:
    """A client on raw frames that keeps every byte it received."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.received = bytearray()
        self._buf = b""
        self._ids = iter(range(1, 1 << 30))
        self.latest: dict[str, dict] = {}  # the newest update of each table

    @classmethod
    async def open(cls, port: int, name: str, **hello: object) -> Raw:
        self = cls(await trio.open_tcp_stream("127.0.0.1", port))
        await self.send({"t": "hello", "proto": 1, "name": name, **hello})
        return self

    async def send(self, msg: dict) -> int:
        if msg["t"] != "hello":
            msg = {"id": next(self._ids), **msg}
        body = msgpack.packb(msg)
        await self.stream.send_all(struct.pack(">I", len(body)) + body)
        return int(msg.get("id", 0))

    async def next(self, timeout: float = 10.0) -> dict:
        """The next frame; EOFError when the host closed the connection."""
        with trio.fail_after(timeout):
            while len(self._buf) < 4 or len(self._buf) < 4 + struct.unpack(
                    ">I", self._buf[:4])[0]:
                try:
                    data = await self.stream.receive_some(65536)
                except trio.BrokenResourceError:
                    data = b""
                if not data:
                    raise EOFError("the host closed the connection")
                self.received += data
                self._buf += data
        (n,) = struct.unpack(">I", self._buf[:4])
        frame, self._buf = self._buf[4:4 + n], self._buf[4 + n:]
        msg = msgpack.unpackb(frame, raw=False)
        if msg["t"] == "update":
            self.latest[msg["table"]] = msg
        return msg

    async def until(self, t: str, **fields: object) -> dict:
        while True:
            msg = await self.next()
            if msg["t"] == t and all(msg.get(k) == v for k, v in fields.items()):
                return msg


async def _create(client: Raw, seats: int = 2, seed: int = 3) -> str:
    req = await client.send({"t": "create", "game": "race", "seats": seats, "seed": seed,
                             "options": RACE})
    return str((await client.until("created", id=req))["table"])


async def _play(clients: dict[int, Raw], table: str, moves: int | None = None) -> dict:
    """Play ``table`` (seat -> client) with each seat's first legal action, to the end
    (or ``moves`` actions); the last update."""
    updates = {}
    for seat, c in clients.items():
        while c.latest.get(table, {}).get("status", "waiting") == "waiting":
            await c.next()
        updates[seat] = c.latest[table]
    done = 0
    while True:
        last = max(updates.values(), key=lambda u: u["seq"])
        if last["status"] == "finished" or (moves is not None and done >= moves):
            return last
        (seat,) = last["to_act"]
        mine = updates[seat]
        assert mine["seq"] == last["seq"] and mine["legal"], mine
        await clients[seat].send({"t": "act", "table": table, "seat": seat,
                                  "action": mine["legal"][0]})
        for s, c in clients.items():
            updates[s] = await c.until("update", table=table, seq=last["seq"] + 1)
        done += 1
    return last


@pytest.fixture
def start_host(nursery, tmp_path):
    async def start(workers: int, db: str = "journal.sqlite"):
        return await nursery.start(lambda task_status: serve_peer(
            registry=load_registry(), db=str(tmp_path / db), name="w", bind="127.0.0.1",
            port=0, workers=workers, task_status=task_status))

    return start


async def _session(port: int) -> tuple[bytes, bytes, dict]:
    """One scripted game of two clients; what each received, and the ids to hide."""
    a, b = await Raw.open(port, "ann"), await Raw.open(port, "bob")
    welcome = await a.until("welcome")
    await b.until("welcome")
    table = await _create(a)
    await a.send({"t": "join", "table": table, "seat": 0})
    token_a = (await a.until("joined"))["token"]
    await b.send({"t": "join", "table": table, "seat": 1})
    token_b = (await b.until("joined"))["token"]
    last = await _play({0: a, 1: b}, table)
    assert last["status"] == "finished"
    await a.send({"t": "ping"})
    await a.until("pong")
    secrets = {table: "T" * len(table), token_a: "A" * len(token_a),
               token_b: "B" * len(token_b), welcome["peer"]: "P" * len(welcome["peer"])}
    for c in (a, b):
        await c.stream.aclose()
    return bytes(a.received), bytes(b.received), secrets


def _hide(data: bytes, secrets: dict) -> bytes:
    for secret, mask in secrets.items():
        data = data.replace(secret.encode(), mask.encode())
    return data


async def test_clients_see_the_same_bytes_as_from_one_process(start_host):
    one = await start_host(0, "one.sqlite")
    spread = await start_host(2, "spread.sqlite")
    a1, b1, s1 = await _session(one.port)
    a2, b2, s2 = await _session(spread.port)
    # Race has no timestamps in its frames: only the ids differ, and they are masked.
    assert _hide(a1, s1) == _hide(a2, s2)
    assert _hide(b1, s1) == _hide(b2, s2)
    assert len(a1) > 1000  # a whole game went by


async def test_tables_spread_over_workers_are_played_to_the_end(start_host, tmp_path):
    running = await start_host(2)
    creator = await Raw.open(running.port, "maker")
    await creator.until("welcome")
    tables = [await _create(creator, seed=s) for s in range(4)]
    assert {owner(t, 2) for t in tables} == {1, 2}  # round robin over both workers
    # the lobby, served by the front, lists the workers' tables
    await creator.send({"t": "list_tables"})
    assert {t["id"] for t in (await creator.until("tables"))["tables"]} == set(tables)
    results = {}

    async def play(table: str) -> None:
        clients = {}
        for seat in (0, 1):
            clients[seat] = await Raw.open(running.port, f"p{seat}")
            await clients[seat].send({"t": "join", "table": table, "seat": seat})
            await clients[seat].until("joined")
        results[table] = await _play(clients, table)

    async with trio.open_nursery() as nursery:
        for table in tables:
            nursery.start_soon(play, table)
    assert all(r["status"] == "finished" for r in results.values())
    with trio.fail_after(5):  # finished, they leave the lobby (told by their workers)
        while True:
            await creator.send({"t": "list_tables"})
            if not (await creator.until("tables"))["tables"]:
                break
            await trio.sleep(0.02)
    with sqlite3.connect(tmp_path / "journal.sqlite") as db:
        status = dict(db.execute("SELECT id, status FROM tables"))
    assert all(status[t] == "finished" for t in tables)


async def test_a_killed_worker_loses_nothing_and_the_other_tables_go_on(start_host,
                                                                        tmp_path):
    running = await start_host(2)
    front = running.peer.handoff
    maker = await Raw.open(running.port, "maker")
    await maker.until("welcome")
    tables = [await _create(maker, seed=s) for s in range(2)]
    by_worker = {owner(t, 2): t for t in tables}
    assert set(by_worker) == {1, 2}
    seated: dict[str, dict[int, Raw]] = {}
    tokens: dict[str, dict[int, str]] = {}
    for table in tables:
        seated[table], tokens[table] = {}, {}
        for seat in (0, 1):
            c = seated[table][seat] = await Raw.open(running.port, f"p{seat}")
            await c.send({"t": "join", "table": table, "seat": seat})
            tokens[table][seat] = (await c.until("joined"))["token"]
    doomed, spared = by_worker[1], by_worker[2]
    before = await _play(seated[doomed], doomed, moves=5)
    acknowledged = before["seq"]  # the update of the 5th move was seen
    mid = await _play(seated[spared], spared, moves=3)

    pid = front.pool[1].process.pid
    os.kill(pid, signal.SIGKILL)
    for c in seated[doomed].values():  # its players are told: their connection closes
        with pytest.raises(EOFError):
            await c.until("never")
    # The other worker's table never stopped: same connections, next moves.
    last = await _play(seated[spared], spared, moves=2)
    assert last["seq"] == mid["seq"] + 2
    # The front starts the worker again; its players resume with their tokens.
    with trio.fail_after(20):
        while not front.pool[1].ready.is_set() or front.pool[1].process.pid == pid:
            await trio.sleep(0.05)
    back = {}
    for seat in (0, 1):
        back[seat] = await Raw.open(running.port, f"p{seat}", token=tokens[doomed][seat])
        welcome = await back[seat].until("welcome")
        assert welcome["resumed"] == {"table": doomed, "seat": seat,
                                      "token": tokens[doomed][seat]}
    update = await back[0].until("update", table=doomed)
    assert update["seq"] == acknowledged  # nothing acknowledged was lost
    assert (await _play(back, doomed))["status"] == "finished"
    assert (await _play(seated[spared], spared))["status"] == "finished"


async def test_a_connection_on_a_worker_sees_the_whole_lobby_and_is_told_why_it_stays(
        start_host):
    running = await start_host(2)
    maker = await Raw.open(running.port, "maker")
    await maker.until("welcome")
    tables = [await _create(maker, seed=s) for s in range(2)]
    first, second = sorted(tables, key=lambda t: owner(t, 2))
    player = await Raw.open(running.port, "player")
    await player.send({"t": "join", "table": first, "seat": 0})
    await player.until("joined")  # served by worker 1 from now on
    req = await player.send({"t": "list_tables"})
    listed = await player.until("tables", id=req)
    assert {t["id"] for t in listed["tables"]} == set(tables)  # the front's lobby
    req = await player.send({"t": "join", "table": second, "seat": 0})
    refused = await player.until("error", id=req)
    assert refused["code"] == "no_such_table" and "another process" in refused["message"]
    other = await Raw.open(running.port, "other")  # a second connection may
    await other.send({"t": "join", "table": second, "seat": 0})
    assert (await other.until("joined"))["table"] == second
    # chat names its table too: a connection still in the front is taken to it
    third = await Raw.open(running.port, "third")
    await third.until("welcome")
    req = await third.send({"t": "chat_history", "table": first})
    while True:
        reply = await third.next()
        if reply.get("id") == req:
            break
    assert reply["t"] == "chat_log" or reply["code"] != "no_such_table", reply
    req = await third.send({"t": "chat_history", "table": "00000003"})  # the front's, none
    while True:
        reply = await third.next()
        if reply.get("id") == req:
            break
    assert reply["code"] == "no_such_table"  # what the line above would get, left here


async def test_fair_tables_stay_in_the_front(start_host):
    running = await start_host(2)
    maker = await Raw.open(running.port, "maker")
    await maker.until("welcome")
    req = await maker.send({"t": "create", "game": "race", "seats": 2, "options": RACE,
                            "fair": {}})
    fair = (await maker.until("created", id=req))["table"]
    assert owner(fair, 2) == 0 and running.peer.table(fair) is not None
    assert running.peer.table(await _create(maker)) is None  # a plain one: on a worker


async def test_the_control_socket_carries_large_messages_and_descriptors():
    import socket

    from lantable.host.workers import Control

    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    a, b = Control(ours), Control(theirs)
    r, w = os.pipe()
    big = {"op": "conn", "blob": os.urandom(300_000)}  # more than one datagram may hold
    async with trio.open_nursery() as nursery:
        nursery.start_soon(a.send, big, [r])
        nursery.start_soon(a.send, {"op": "small"})
        got = [await b.receive(), await b.receive()]
    by_op = {m["op"]: (m, fds) for m, fds in got}
    assert by_op["conn"][0] == big and len(by_op["conn"][1]) == 1
    os.write(w, b"x")
    assert os.read(by_op["conn"][1][0], 1) == b"x"  # the same pipe, passed over
    a.close()
    assert await b.receive() is None  # EOF: the other process is gone
    for fd in (r, w, by_op["conn"][1][0]):
        os.close(fd)
    b.close()


async def test_a_lobby_watcher_on_a_worker_still_hears_of_every_table(start_host):
    running = await start_host(2)
    maker = await Raw.open(running.port, "maker")
    await maker.until("welcome")
    first = await _create(maker)
    watcher = await Raw.open(running.port, "watcher", lobby=True)
    await watcher.until("lobby")
    await watcher.send({"t": "join", "table": first, "seat": 0})
    await watcher.until("joined")  # on first's worker from now on
    await trio.sleep(0.5)  # that worker tells the front it has a watcher (every 0.2 s)
    later = [await _create(maker, seed=s) for s in (5, 6)]  # on both workers
    with trio.fail_after(5):
        while True:
            lobby = await watcher.until("lobby")
            if set(later) <= {t["id"] for t in lobby["tables"]}:
                break
