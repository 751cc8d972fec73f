"""A host spread over worker processes (``lantable host --workers N``).

The front process runs the peer as always (listeners, the lobby, discovery, the
web server, fair tables) and starts ``N`` worker processes, each a peer
of its own over the same journal file (SQLite WAL: every process commits its own
batches; a write waits for another process's commit, never for its batch). Tables
are spread by id: table ``t`` belongs to process ``int(t, 16) % (N + 1)``, where 0
is the front and 1..N the workers. A process creates only ids of its own and
restores only its own tables, so a restart (with any ``N``) restores every table.

A connection follows its table: the front reads the ``hello`` and answers the
lobby's requests; a ``create`` (but a fair one) is made on a worker and
answered by the front; the first request that names a worker's table (``join``,
``act``, ...; a ``resume`` or a hello's token of a worker's seat) hands the socket
itself to that worker with ``SCM_RIGHTS`` over a Unix socket, with what the front
had read but not handled and the client's hello; from then on the worker reads and
writes that socket. A browser's WebSocket goes the same way, with the bytes of a frame
header not yet whole, from which the worker rebuilds it (lantable.web's
``FrameStream.hand_over`` and ``rebuilt``). Page bots run in their table's process
and connect to the front like any client. A worker hands a connection back to the
front (which hands it on) when it names another process's table while holding no
seat here at an unfinished table. Every byte the client sees is what a one-process host would send
(the protocol is unchanged); the hand-off waits until everything the previous
process owed the client is written.

A worker that dies closes its connections (the players' clients reconnect with
their tokens); the front starts it again at once, it restores its tables from the
journal, and the other workers' tables never stopped. docs/decisions.md, "Worker
processes", has the design, the alternatives and the measurements.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import json
import logging
import math
import os
import socket
import sqlite3
import struct
import sys
from typing import TYPE_CHECKING, Any, Final

import msgpack
import trio

from lantable.protocol import (
    SESSION,
    Chat,
    ChatHistory,
    Connection,
    Create,
    Created,
    Error,
    ErrorCode,
    Hello,
    ListTables,
    Message,
    Rematch,
    Resume,
    Tables,
    Welcome,
    from_map,
)

from .limits import Limits
from .link import ClientLink
from .listener import _send_now, admit, release
from .requests import _TABLE_REQUESTS, route
from .table import FINISHED

if TYPE_CHECKING:
    from .lobby import Peer
    from .table import Table

LOGGER = logging.getLogger(__name__)

CONTROL_MAX: Final = 16 << 20  # bytes in one control message (in CHUNK-sized datagrams)
HANDOFF_DRAIN: Final = 2.0  # seconds the previous process may take to write what it owes
READY_WAIT: Final = 10.0  # seconds a hand-off waits for a (re)starting worker
RESTART_DELAY: Final = 0.2  # seconds before a dead worker is started again
MAX_HOPS: Final = 3  # hand-offs of one request (front -> worker -> front -> worker)

GONE: Final = "gone"  # claim(): the connection was handed to another process
DONE: Final = "done"  # claim(): the request was answered here, by a worker's reply


# The requests that name a table (when their ``table`` is set): they go where it is.
_NAMES_TABLE: Final = (*_TABLE_REQUESTS, Chat, ChatHistory, Rematch)


def owner(table_id: str, workers: int) -> int:
    """The process a table belongs to: 0 the front, 1..``workers`` a worker."""
    try:
        return int(table_id, 16) % (workers + 1)
    except ValueError:
        return 0  # not an id this host makes: the front answers no_such_table


class Control:
    """One end of a ``SOCK_SEQPACKET`` Unix socket pair: msgpack messages, each with
    file descriptors if it carries a connection. A message goes in datagrams of at most
    ``CHUNK`` bytes (the kernel bounds one datagram by the socket's send buffer, often
    ~200 KiB), the first one saying the whole length; a lock keeps one message's
    datagrams together when several tasks send. One task receives."""

    CHUNK: Final = 32768
    _HEAD: Final = struct.Struct(">I")

    def __init__(self, sock: socket.socket) -> None:
        sock.setblocking(False)
        self.sock = sock
        self._lock = trio.Lock()

    async def send(self, obj: dict[str, Any], fds: list[int] | None = None) -> None:
        data = msgpack.packb(obj, use_bin_type=True)
        if len(data) > CONTROL_MAX:
            raise ValueError(f"a control message of {len(data)} bytes")
        async with self._lock:
            first = True
            for i in range(0, max(len(data), 1), self.CHUNK):
                part = data[i:i + self.CHUNK]
                if first:
                    part = self._HEAD.pack(len(data)) + part
                await self._send_datagram(part, (fds or []) if first else [])
                first = False

    async def _send_datagram(self, data: bytes, fds: list[int]) -> None:
        while True:
            try:
                socket.send_fds(self.sock, [data], fds)
                return
            except BlockingIOError:
                await trio.lowlevel.wait_writable(self.sock)

    async def _datagram(self) -> tuple[bytes, list[int]] | None:
        while True:
            try:
                data, fds, _flags, _addr = socket.recv_fds(
                    self.sock, self.CHUNK + self._HEAD.size, 4)
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self.sock)
                continue
            except OSError:
                return None
            if not data:
                for fd in fds:
                    os.close(fd)
                return None
            return data, fds

    async def receive(self) -> tuple[dict[str, Any], list[int]] | None:
        """The next message and its descriptors; None at EOF (the other process died)."""
        got = await self._datagram()
        if got is None:
            return None
        first, fds = got
        (size,) = self._HEAD.unpack_from(first)
        parts, have = [first[self._HEAD.size:]], len(first) - self._HEAD.size
        while have < size:
            more = await self._datagram()
            if more is None:
                for fd in fds:
                    os.close(fd)
                return None
            parts.append(more[0])
            have += len(more[0])
        return msgpack.unpackb(b"".join(parts), raw=False), fds

    def close(self) -> None:
        self.sock.close()


def _socket_stream(stream: trio.abc.Stream) -> trio.SocketStream | None:
    """The TCP socket under ``stream``: itself, or a WebSocket's (lantable.web's
    ``FrameStream``, which can be handed over); None: a stream that cannot."""
    if isinstance(stream, trio.SocketStream):
        return stream
    sock = getattr(stream, "transport", None)
    if isinstance(sock, trio.SocketStream) and hasattr(stream, "hand_over"):
        return sock
    return None


def _holds_here(peer: Peer, link: ClientLink) -> bool:
    """Whether ``link`` sits at or watches an unfinished table of this process (it
    must then stay: handing it off would leave its seats)."""
    for table_id in (*link.seats, *link.watching):
        table = peer.table(table_id)
        if table is not None and table.status != FINISHED:
            return True
    return False


class Handoff:
    """What both kinds of process share: handing a connection to another one, and
    asking another process something (a request with an id, its reply)."""

    index = 0  # this process: 0 the front, 1..workers a worker
    workers = 0

    def __init__(self) -> None:
        self._rids = itertools.count(1)
        self._replies: dict[int, tuple[trio.Event, list[dict[str, Any]]]] = {}

    async def request(self, control: Control, request: dict[str, Any]) -> dict[str, Any] | None:
        """Send ``request`` and wait for its reply (None: none came in time)."""
        rid = next(self._rids)
        done, box = trio.Event(), list[dict[str, Any]]()
        self._replies[rid] = (done, box)
        try:
            await control.send({**request, "rid": rid})
            with trio.move_on_after(READY_WAIT):
                await done.wait()
        finally:
            self._replies.pop(rid, None)
        return box[0] if box else None

    def replied(self, reply: dict[str, Any]) -> None:
        waiting = self._replies.get(reply.get("rid", 0))
        if waiting is not None:
            waiting[1].append(reply)
            waiting[0].set()

    async def go(self, index: int, stream: trio.abc.Stream, conn: Connection, link: ClientLink,
                 msg: Message, peer: Peer, hops: int) -> str:
        """Hand the connection to process ``index`` for ``msg``; if it cannot go now, or
        must stay (it plays here), answer ``msg`` with why."""
        table = getattr(msg, "table", None)
        req_id = getattr(msg, "id", None)
        if _holds_here(peer, link):
            link.send(Error(code=ErrorCode.NO_SUCH_TABLE, id=req_id, table=table, message=(
                "that table is served by another process of this host (lantable host "
                "--workers) and this connection plays at a table here: open it on another "
                "connection (in a browser, another tab), or finish or leave your game "
                "first")))
            return DONE
        if await self.hand_off(index, stream, conn, link, msg, peer, hops + 1):
            return GONE
        link.send(Error(code=ErrorCode.TABLE_FAULTED, id=req_id, table=table, message=(
            "the process that serves this table is restarting; its tables are restored "
            "from the journal: try again in a moment")))
        return DONE

    async def serve_bots(self, address: tuple[str, int]) -> None:
        """Where page bots connect (the front's TCP listener), once it listens."""

    def summaries(self) -> list[dict[str, Any]]:
        """Other processes' tables, for this one's lobby."""
        return []

    def lobby_changed(self) -> None:
        """The lobby changed (this process's view of it)."""

    def owns(self, table_id: str) -> bool:
        """Whether this process makes and restores the table."""
        return owner(table_id, self.workers) == self.index

    async def resume_elsewhere(self, stream: trio.abc.Stream, conn: Connection,
                               link: ClientLink, hello: Hello, proto: int, peer: Peer) -> bool:
        """A hello's token of another process's seat: welcome the client and hand the
        connection there to resume it. False: not another's (the token is unknown)."""
        return False

    async def claim(self, stream: trio.abc.Stream, conn: Connection, link: ClientLink,
                    msg: Message, peer: Peer, hops: int = 0) -> str | None:
        """Deal with ``msg`` before :func:`route` does: hand the connection to the
        process that owns what it names (:data:`GONE`), answer it from another
        process (:data:`DONE`), or None: route it here."""
        raise NotImplementedError

    async def hand_off(self, index: int, stream: trio.abc.Stream, conn: Connection,
                       link: ClientLink, msg: Message | None, peer: Peer, hops: int,
                       resume: str | None = None, preface: bytes = b"",
                       lobby: bool | None = None) -> bool:
        """Give the connection to process ``index`` with ``msg`` to handle first.
        False if it cannot go (the process is not running): serve it here."""
        control = await self.ready_control(index)
        sock = _socket_stream(stream)
        if control is None or sock is None:
            return False
        peer.batch.end()  # what this process owes the client is written first
        link.settle()  # by the writer thread too (what would block goes to the outbox)
        with trio.move_on_after(HANDOFF_DRAIN):
            while link.queued:  # noqa: ASYNC110 - the writer task drains it
                await trio.sleep(0.002)
        if link.queued:
            link.drop()  # a client that does not read: as if too slow
            return True
        ws: bytes | None = None
        if sock is not stream:  # a WebSocket (lantable.web): between two messages
            ws = await stream.hand_over(conn.receive_data, HANDOFF_DRAIN)  # type: ignore[attr-defined]
            if ws is None:
                link.drop()  # closing, or a message held half-sent: as if too slow
                return True
        peer.links.discard(link)
        if lobby is None:
            lobby = link in peer.lobby_watchers
        peer.lobby_watchers.discard(link)
        link.close_direct()
        state = {"op": "conn", "name": link.name, "where": link.peer, "host": link.address,
                 "key": link.key, "key_refused": link.key_refused, "words": link.words,
                 "decks": link.decks, "lobby": lobby, "hops": hops, "resume": resume,
                 "msg": None if msg is None else msg.to_map(),
                 "size": conn.last_frame_size, "pending": conn.take_buffered(),
                 "preface": preface, "ws": ws,
                 "ws_stream": None if ws is None else _class_path(type(stream))}
        await control.send(state, [sock.socket.fileno()])
        return True

    async def ready_control(self, index: int) -> Control | None:
        raise NotImplementedError


# ---------------------------------------------------------------------------
# the front
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class Worker:
    """The front's view of one worker process."""

    index: int
    control: Control | None = None
    process: trio.Process | None = None
    ready: trio.Event = dataclasses.field(default_factory=trio.Event)
    tables: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    restarts: int = 0
    watched: bool = False  # some connection there watches the lobby (hello.lobby)


class Front(Handoff):
    """The front process's side: starts the workers, keeps their tables' summaries for
    the lobby, hands connections to them and makes tables on them."""

    def __init__(self, peer: Peer, workers: int, db: str, name: str, limits: Limits) -> None:
        self.peer = peer
        self.workers = workers
        self.db = db
        self.name = name
        self.limits = limits
        super().__init__()
        self.pool = {i: Worker(i) for i in range(1, workers + 1)}
        self._next = itertools.cycle(range(1, workers + 1))
        self._tokens: sqlite3.Connection | None = None
        self.stopping = False
        self._lobby_changed = trio.Event()
        self.bots_at: tuple[str, int] | None = None  # where page bots connect (serve_bots)

    async def serve_bots(self, address: tuple[str, int]) -> None:
        """The front listens: the workers' page bots connect to ``address`` (like the
        front's own, they are handed to the worker their seat's token names)."""
        self.bots_at = address
        for worker in self.pool.values():
            if worker.control is not None and worker.ready.is_set():
                await worker.control.send({"op": "bots", "at": list(address)})

    def summaries(self) -> list[dict[str, Any]]:
        return [s for w in self.pool.values() for s in w.tables.values()]

    def lobby_changed(self) -> None:
        if any(w.watched for w in self.pool.values()):
            self._lobby_changed.set()

    async def _forward_lobby(self) -> None:
        """Send the lobby to the workers whose connections watch it, after each change
        (at most 10 times a second), until cancelled."""
        while True:
            await self._lobby_changed.wait()
            self._lobby_changed = trio.Event()
            lobby = self.peer.lobby().to_map()
            for worker in self.pool.values():
                if worker.watched and worker.control is not None and worker.ready.is_set():
                    await worker.control.send({"op": "lobby", "lobby": lobby})
            await trio.sleep(0.1)

    async def ready_control(self, index: int) -> Control | None:
        worker = self.pool.get(index)
        if worker is None:
            return None
        with trio.move_on_after(READY_WAIT):
            await worker.ready.wait()
        return worker.control if worker.ready.is_set() else None

    def token_owner(self, token: str) -> tuple[int, str, int] | None:
        """(process, table, seat) of a resume token of another process's table, from the
        journal (a token is committed before anyone is told it)."""
        if self._tokens is None:
            self._tokens = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True,
                                           check_same_thread=False)
        try:
            row = self._tokens.execute(
                "SELECT table_id, seat FROM seats WHERE token=? UNION ALL "
                "SELECT table_id, seat FROM page_bots WHERE token=? LIMIT 1",
                (token, token)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        return owner(row[0], self.workers), row[0], row[1]

    async def resume_elsewhere(self, stream: trio.abc.Stream, conn: Connection,
                               link: ClientLink, hello: Hello, proto: int, peer: Peer) -> bool:
        if _socket_stream(stream) is None or hello.token is None:
            return False
        found = self.token_owner(hello.token)
        if found is None or found[0] == 0:
            return False
        tables, more = peer.summaries()
        preface = conn.send(Welcome(
            proto=proto, peer=peer.peer_id, name=peer.name, tables=tables, id=hello.id,
            resumed={"table": found[1], "seat": found[2], "token": hello.token},
            more=more or None))
        if hello.lobby:
            preface += conn.send(peer.lobby())
        if not await self.hand_off(found[0], stream, conn, link, None, peer, 1,
                                   resume=hello.token, preface=preface, lobby=bool(hello.lobby)):
            await _send_now(stream, conn.send_error(Error(
                code=ErrorCode.TABLE_FAULTED, id=hello.id,
                message="the process that serves this seat is restarting; its tables are "
                        "restored from the journal: reconnect in a moment")))
        return True

    async def claim(self, stream: trio.abc.Stream, conn: Connection, link: ClientLink,
                    msg: Message, peer: Peer, hops: int = 0) -> str | None:
        if hops >= MAX_HOPS:
            return None
        if isinstance(msg, _NAMES_TABLE) and msg.table:
            where = owner(msg.table, self.workers)
            if where == 0:
                return None
            return await self.go(where, stream, conn, link, msg, peer, hops)
        if _socket_stream(stream) is None:
            return None  # a stream that cannot be handed over (a test's memory stream)
        if isinstance(msg, Resume) and peer.find_token(msg.token) is None:
            found = self.token_owner(msg.token)
            if found is None or found[0] == 0:
                return None
            return await self.go(found[0], stream, conn, link, msg, peer, hops)
        if isinstance(msg, Create) and msg.fair is None:
            return await self._create(msg, link)
        return None

    async def _create(self, msg: Create, link: ClientLink) -> str | None:
        """Make the table on the worker with the fewest tables in play (someone seated),
        the next in turn among equals; None (make it here) if none runs."""
        turn = next(self._next)
        running = [w for w in self.pool.values() if w.ready.is_set() and w.control is not None]
        if not running:
            return None
        worker = min(running, key=lambda w: (_in_play(w.tables),
                                             (w.index - turn) % self.workers))
        assert worker.control is not None
        reply = await self.request(worker.control, {
            "op": "create", "game": msg.game, "seats": msg.seats, "options": msg.options,
            "seed": msg.seed, "creator": link.address, "clock": msg.clock, "undo": msg.undo})
        if reply is None:
            link.send(Error(code=ErrorCode.TABLE_FAULTED, id=msg.id,
                            message="the worker process that was making this table stopped; "
                                    "try again"))
            return DONE
        if "table" in reply:
            worker.tables[reply["table"]] = reply["summary"]
            link.send(Created(id=msg.id, table=reply["table"]))
            self.peer._changed()
        else:
            link.send(Error(code=ErrorCode(reply["code"]), id=msg.id, message=reply["message"]))
        return DONE

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
                  ) -> None:
        """Keep every worker running until cancelled; then stop them (bounded)."""
        try:
            async with trio.open_nursery() as nursery:
                for worker in self.pool.values():
                    await nursery.start(self._keep, worker)
                nursery.start_soon(self._forward_lobby)
                task_status.started()
        finally:
            self.stopping = True
            with trio.CancelScope(shield=True), trio.move_on_after(3.0):
                for worker in self.pool.values():
                    if worker.control is not None:
                        worker.control.close()  # EOF: the worker stops gently
                for worker in self.pool.values():
                    if worker.process is not None:
                        await worker.process.wait()
            for worker in self.pool.values():
                if worker.process is not None and worker.process.returncode is None:
                    worker.process.kill()
            if self._tokens is not None:
                self._tokens.close()

    async def _keep(self, worker: Worker, *,
                    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run ``worker``; start it again whenever it dies."""
        started = False
        delay = RESTART_DELAY
        while True:
            born = trio.current_time()
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            config = {"index": worker.index, "workers": self.workers, "db": self.db,
                      "name": self.name, "fd": theirs.fileno(), "peer_id": self.peer.peer_id,
                      "bots": _runner(self.peer), "bots_at": self.bots_at,
                      "limits": {k: _json_number(v) for k, v in
                                 dataclasses.asdict(self.limits).items()}}
            worker.process = await trio.lowlevel.open_process(
                [sys.executable, "-m", "lantable.host.worker", json.dumps(config)],
                pass_fds=(theirs.fileno(),))
            theirs.close()
            worker.control = Control(ours)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._listen, worker, nursery.cancel_scope)
                if not started:
                    with trio.move_on_after(READY_WAIT * 3):
                        await worker.ready.wait()
                    task_status.started()
                    started = True
                code = await worker.process.wait()
                nursery.cancel_scope.cancel()
            worker.ready = trio.Event()
            worker.control.close()
            worker.control = None
            worker.tables.clear()
            worker.watched = False
            self.peer._changed()
            if self.stopping:
                return
            worker.restarts += 1
            lived = trio.current_time() - born
            # One that dies at once (a damaged journal, a broken install) is tried again
            # ever more slowly, up to a minute apart, rather than in a tight loop.
            delay = RESTART_DELAY if lived > 10 else min(max(delay * 2, RESTART_DELAY), 60.0)
            LOGGER.error("worker %d (pid %d) ended (exit %s) after %.1f s; its players' "
                         "connections closed and they reconnect with their tokens; starting "
                         "it again in %.1f s", worker.index, worker.process.pid, code, lived,
                         delay)
            await trio.sleep(delay)

    async def _listen(self, worker: Worker, scope: trio.CancelScope) -> None:
        control = worker.control
        assert control is not None
        while True:
            got = await control.receive()
            if got is None:
                return  # the process ended; _keep notices
            msg, fds = got
            op = msg.get("op")
            if op == "tables":
                for table_id, summary in msg["set"].items():
                    worker.tables[table_id] = summary
                for table_id in msg["gone"]:
                    worker.tables.pop(table_id, None)
                self.peer._changed()
            elif op == "ready":
                if self.bots_at is not None:  # said again: it may have started before
                    await control.send({"op": "bots", "at": list(self.bots_at)})
                worker.ready.set()
                LOGGER.info("worker %d ready (pid %d, %d tables)", worker.index,
                            worker.process.pid if worker.process else 0, len(worker.tables))
            elif op == "reply":
                self.replied(msg)
            elif op == "watched":
                worker.watched = bool(msg["watched"])
                if worker.watched:
                    self._lobby_changed.set()
            elif op == "list":
                tables, more = self.peer.summaries(int(msg["offset"]))
                await control.send({"op": "reply", "rid": msg["rid"], "tables": tables,
                                    "more": more})
            elif op == "conn" and len(fds) == 1:
                trio.lowlevel.spawn_system_task(adopt, self.peer, fds[0], msg)
                continue
            for fd in fds:  # not a message that carries one
                os.close(fd)


def _runner(peer: Peer) -> list[str] | None:
    """The front's page bot runner as ``[module, class]``, for a worker to make its own
    (a class made without arguments, as ``lantable host`` gives); None: no bots."""
    if peer.bots is None:
        return None
    return _class_path(type(peer.bots.runner))


def _class_path(kind: type) -> list[str]:
    """A class as ``[module, qualified name]``, for another process to import."""
    return [kind.__module__, kind.__qualname__]


def resolve(path: list[str]) -> Any:
    """The object a :func:`_class_path` names, imported in this process."""
    module, name = path
    found: Any = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    return found


def _in_play(tables: dict[str, dict[str, Any]]) -> int:
    """How many of a worker's tables someone sits at (playing, or waiting with a seat
    taken): the load a new table's players would share."""
    return sum(1 for s in tables.values() if s["status"] == "playing" or s["taken"])


def _json_number(value: Any) -> Any:
    return str(value) if isinstance(value, float) and not math.isfinite(value) else value


# ---------------------------------------------------------------------------
# a connection handed over, in any process
# ---------------------------------------------------------------------------


async def adopt(peer: Peer, fd: int, state: dict[str, Any]) -> None:
    """Serve a connection another process handed over, from where it left it.
    Never raises."""
    try:
        sock = socket.socket(fileno=fd)
    except OSError:
        os.close(fd)
        return
    stream: trio.abc.Stream = trio.SocketStream(trio.socket.from_stdlib_socket(sock))
    if state.get("ws") is not None:  # a WebSocket: rebuilt from where the other left it
        # by the class of the stream the front handed over (lantable.web's FrameStream;
        # the host names no web module: the web layer imports the host, not back).
        kind: Any = resolve(state["ws_stream"])
        stream = kind.rebuilt(stream, state["ws"], peer.limits.max_request_bytes)
    host = str(state["host"])
    refusal = admit(peer, host)
    if refusal is not None:
        with trio.CancelScope(shield=True):
            with trio.move_on_after(0.5):
                try:
                    await stream.send_all(Connection("host").send_error(Error(
                        code=ErrorCode.TOO_MANY_CONNECTIONS, message=refusal)))
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
            await trio.aclose_forcefully(stream)
        return
    try:
        await _adopted(stream, peer, state)
    except Exception:
        LOGGER.exception("connection %s handed over failed unexpectedly; closed",
                         state.get("where"))
    finally:
        release(peer, host)


async def _adopted(stream: trio.abc.Stream, peer: Peer, state: dict[str, Any]) -> None:
    from .listener import _serve_session, claim_or_route  # as any connection's

    limits = peer.limits
    async with stream:
        conn = Connection("host", limits.max_frame, limits.max_request_bytes)
        conn.state = SESSION  # the hello was answered by the front
        sock = _socket_stream(stream)
        assert sock is not None
        link = ClientLink(str(state["name"]), str(state["where"]), conn, peer.batch,
                          fd=sock.socket.fileno(), max_outbox_bytes=limits.max_outbox_bytes,
                          frame=getattr(stream, "frame_output", None))
        link.address = str(state["host"])
        link.key, link.key_refused = state["key"], state["key_refused"]
        link.words, link.decks = bool(state["words"]), bool(state["decks"])
        if state["preface"]:
            link.send_encoded(state["preface"])  # the welcome, if the front did not write it
        peer.links.add(link)
        if state["lobby"]:
            peer.lobby_watchers.add(link)
        joined: set[str] = set()
        try:
            if state["pending"]:
                conn.receive_data(state["pending"])
            if state["resume"] is not None:  # a hello's token
                found = peer.find_token(state["resume"])
                if found is not None:
                    joined.add(found[0].id)
                    found[0].resume(link, None, state["resume"])
            if state["msg"] is not None:
                msg = from_map(state["msg"], "client")
                if peer.handoff is None:
                    route(msg, int(state["size"]), link, peer, joined)
                elif await claim_or_route(stream, conn, link, msg, peer, joined,
                                          int(state["size"]), int(state["hops"])):
                    return
            await _serve_session(stream, conn, link, peer, joined)
        finally:
            peer.links.discard(link)
            peer.lobby_watchers.discard(link)
            for table_id in joined:
                table: Table | None = peer.table(table_id)
                if table is not None:
                    table.detach(link)


# ---------------------------------------------------------------------------
# a worker process
# ---------------------------------------------------------------------------


class WorkerSide(Handoff):
    """A worker's side: hands connections that name another process's table back to
    the front, and tells the front of its tables."""

    def __init__(self, index: int, workers: int, control: Control) -> None:
        super().__init__()
        self.index = index
        self.workers = workers
        self.control = control
        self.dirty: set[str] = set()
        self.changed = trio.Event()

    async def ready_control(self, index: int) -> Control | None:
        return self.control if index == 0 else None

    def routes_here(self, msg: Message) -> bool:
        """Whether :meth:`claim` would surely route ``msg`` here: a request to a table of
        this worker (nearly every request), which the peer's reader (host/reader.py) then
        routes at once; for anything else the session's task awaits :meth:`claim`."""
        table = msg.table if isinstance(msg, _NAMES_TABLE) else None
        if not table:
            return False
        return owner(table, self.workers) == self.index

    async def claim(self, stream: trio.abc.Stream, conn: Connection, link: ClientLink,
                    msg: Message, peer: Peer, hops: int = 0) -> str | None:
        if hops >= MAX_HOPS:
            return None
        if isinstance(msg, ListTables) and not msg.finished:  # the lobby is the front's
            reply = await self.request(self.control, {"op": "list", "offset": msg.offset or 0})
            if reply is None:
                return None  # this process's tables, rather than nothing
            link.send(Tables(id=msg.id, tables=reply["tables"], more=reply["more"] or None))
            return DONE
        if isinstance(msg, _NAMES_TABLE) and msg.table:
            if owner(msg.table, self.workers) == self.index:
                return None
        elif isinstance(msg, (Chat, ChatHistory)):  # the lobby's chat is the front's
            if _holds_here(peer, link):
                return None  # a player's lobby line stays with this worker's lobby
        elif not (isinstance(msg, Resume) and peer.find_token(msg.token) is None):
            return None
        return await self.go(0, stream, conn, link, msg, peer, hops)

    async def tell_watched(self, peer: Peer) -> None:
        """Tell the front whether a connection here watches the lobby (it then sends the
        lobby after each change), until cancelled."""
        watched = False
        while True:
            now = bool(peer.lobby_watchers)
            if now != watched:
                watched = now
                await self.control.send({"op": "watched", "watched": watched})
            await trio.sleep(0.2)

    def mark(self, table_id: str) -> None:
        self.dirty.add(table_id)
        self.changed.set()

    async def tell_front(self, peer: Peer) -> None:
        """Send the front the summaries of the tables that changed, until cancelled."""
        while True:
            await self.changed.wait()
            self.changed = trio.Event()
            dirty, self.dirty = self.dirty, set()
            changed = {t: peer.tables[t].summary() for t in dirty if t in peer.tables}
            await self.control.send({"op": "tables", "set": changed,
                                     "gone": [t for t in dirty if t not in changed]})
            await trio.sleep(0.01)  # at most 100 pushes a second
