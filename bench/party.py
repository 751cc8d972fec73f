"""A 200-person LAN party against one host (issue 28, goals 3 and 5); prints JSON.

The host runs as its own process (``lantable host`` on 127.0.0.1, its web port on,
discovery off). The party runs in ``--procs`` other processes (the tables are dealt
out among them; a table lives wholly in one process, so that one clock times it), and
a probe in one more. Each person, bot and spectator has its own source address in
127.0.0.0/8, as at a real party (the host's limits per address are not the test).

- ``--tables`` tables of 4 seats, alternately Manila (even tables) and Race to N (odd
  tables: target 21, steps of 1-2, about 14 actions a game). Seats 0 and 2 are
  people, seats 1 and 3 bots, so that people and bots take turns.
- A person is a browser over the web port's WebSocket (one msgpack map per binary
  message, ``hello`` with ``words`` and ``lobby``, ``list_games`` after ``welcome``,
  a ``ping`` every 20 s, exactly as web/static/app.js does). Asked to act, a person
  thinks a time drawn uniformly from ``--think`` (seeded), then sends one of the
  legal actions at random.
- A bot is a lean TCP client (raw frames, docs/protocol.md) that sends a random legal
  action the moment its update asks for one ("flat out").
- People leave at random (each person's next leave after an exponential time of mean
  ``--leave-every`` s: the socket is closed, half the time after a ``bye``), stay
  away a time drawn from ``--away``, then come back as the page does: a new
  WebSocket, ``hello``, ``list_games``, then ``resume`` with their token (or ``join``
  when the table was replaced while they were away). While a person is away their
  table waits for them.
- A finished game is followed, after a few seconds, by a new table for the same four
  (a person creates it, or a bot if both people are away); everyone joins it.
- One spectator per table watches it over the WebSocket (a browser: ``words``,
  ``lobby``) and follows it to the next table.
- ``--lobby-clients`` browsers sit in the lobby (``lobby: true``) and also send
  ``list_tables`` every ``--lobby-every`` s (jittered).

Measured after ``--warmup`` s (counts over the whole run):

- **per-update latency at people's seats**: for an update that an ``act`` caused
  (``full`` false, ``seq`` n), the time from that ``act``'s send, by whichever seat of
  the table sent it, to the arrival of the update with ``seq`` n at each person's
  seat connected then (one sample per person per update), p50/p99/max; the same at
  spectators and at bots. The act that made ``seq`` n is known from its
  ``accepted``. The arrival time is taken when the client process reads the bytes,
  so a busy client process adds to it: its CPU is reported. To keep that small, the
  clients decode only the top-level fields they act on and skip the bytes of boards,
  sentences, events and lobby lists (many simulated browsers share one process).
- the host's RSS: peak (VmHWM) and sampled once a minute; the host's CPU per accepted
  action (all its work: updates, joins, lobby pushes, pings, the web path);
- per table: accepted actions, the longest the table waited on the host
  (``host_wait_max_s``: an ``act`` until its update reached the actor, a ``create``
  until ``created``, a ``join`` or ``resume`` until its reply; pending ones at the
  end count up to the end), and the longest gap between two accepted actions
  (which includes thinking and people away). A table **starves** if the host kept
  it waiting longer than ``--starve-after`` s, or if it accepted no action;
- a person's rejoin (new WebSocket to the full update for their seat) and the
  lobby's ``list_tables`` round trip, p50/p99;
- **WebSocket minus TCP** (goal 5): the probe plays two one-seat Race tables, one
  over TCP and one over the WebSocket (no ``words``, as bench/web.py's ``ws``),
  in turn, one act each every ``--probe-every`` s (each after the same pause, the
  two taking turns to go first); act to update, p50 each and
  the median over 10-s windows of (WebSocket p50 - TCP p50). It runs alone for
  ``--idle-seconds`` before the party (``idle``), then through it (``party``). The
  people's own act round trips (WebSocket with words) and the bots' (TCP) are
  reported beside it;
- the machine: how busy its cores were (anything, other tenants included) and the
  load average, and the party processes' and the probe's own CPU.

With ``PARTY_PROFILE=FILE`` in the environment the host runs under cProfile, its
profile written to FILE when it stops (its timings then mean little).

Usage: python bench/party.py [--minutes M] [--tables K] [--seed S] [--procs P] [--json FILE]
"""

from __future__ import annotations

import heapq
import json
import os
import random
import selectors
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

HEADER = struct.Struct(">I")

# The values the party's clients never read: their bytes are skipped, not decoded. A
# browser decodes its own messages in its own process; here dozens of simulated
# browsers share one, and decoding every board, sentence and lobby list would make the
# client processes, not the host, the slow part of each measured latency.
_SKIPPED = frozenset({"view", "labels", "sentences", "board_text", "events", "seats", "tables",
                      "clock", "pause", "scores"})


def _decode(body: bytes) -> dict[str, Any]:
    """A message's map with the values in ``_SKIPPED`` left out."""
    up = msgpack.Unpacker(raw=False)
    up.feed(body)
    out: dict[str, Any] = {}
    for _ in range(up.read_map_header()):
        key = up.unpack()
        if key in _SKIPPED:
            up.skip()
        else:
            out[key] = up.unpack()
    return out

RACE = {"target": 21, "max_step": 2}
PEOPLE_SEATS = (0, 2)
PING_EVERY = 20.0  # s, the page's heartbeat (web/static/app.js HEARTBEAT)
MAX_TABLES = 250  # one source address block per table: 127.10.<table>.<seat + 1>


def _now() -> float:
    return time.perf_counter()


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _summary_ms(values: list[float]) -> dict[str, Any]:
    """p50/p99/max in ms of seconds."""
    out: dict[str, Any] = {"samples": len(values)}
    for name, q in (("p50_ms", 0.5), ("p99_ms", 0.99), ("max_ms", 1.0)):
        v = _pct(values, q)
        out[name] = None if v is None else round(v * 1e3, 3)
    return out


# ---------------------------------------------------------------------------
# connections: raw TCP frames, or a WebSocket as a browser's
# ---------------------------------------------------------------------------


class Conn:
    """One client connection, read by the worker's selector.

    TCP: 4-byte length and a msgpack map. WebSocket: the upgrade by hand, then one
    binary message per map; client frames are masked with four zero bytes (RFC 6455
    5.3: the server cannot tell the key from any other; bench/web.py does the same).
    """

    def __init__(self, loop: Loop, kind: str, port: int, src: str,
                 on_open: Callable[[], None], on_message: Callable[[dict[str, Any], float], None],
                 on_close: Callable[[], None]) -> None:
        self.loop, self.kind = loop, kind
        self.on_open, self.on_message, self.on_close = on_open, on_message, on_close
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind((src, 0))
        self.sock.connect(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.partial = b""
        self.open = kind == "tcp"
        self.closed = False
        loop.sel.register(self.sock, selectors.EVENT_READ, self)
        if kind == "ws":
            self.sock.sendall(
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n".encode())
        else:
            loop.later(0.0, on_open)

    def send(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        body = msgpack.packb(msg, use_bin_type=True)
        if self.kind == "tcp":
            data = HEADER.pack(len(body)) + body
        elif len(body) < 126:
            data = bytes((0x82, 0x80 | len(body))) + b"\0\0\0\0" + body
        else:
            data = b"\x82\xfe" + len(body).to_bytes(2, "big") + b"\0\0\0\0" + body
        try:
            self.sock.sendall(data)
        except OSError:
            self.close()

    def readable(self) -> None:
        try:
            data = self.sock.recv(1 << 18)
        except OSError:
            data = b""
        at = _now()
        if not data:
            self.close()
            return
        buf = self.buf + data if self.buf else data
        if not self.open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                self.buf = buf
                return
            if not buf.startswith(b"HTTP/1.1 101"):  # refused (503: too many connections)
                self.close()
                return
            buf, self.open = buf[end + 4:], True
            self.on_open()
        pos, n = 0, len(buf)
        if self.kind == "tcp":
            while n - pos >= 4:
                (size,) = HEADER.unpack_from(buf, pos)
                if n - pos - 4 < size:
                    break
                self.on_message(_decode(buf[pos + 4:pos + 4 + size]), at)
                pos += 4 + size
                if self.closed:
                    return
        else:
            while n - pos >= 2:
                op, size, head = buf[pos] & 0x0F, buf[pos + 1] & 0x7F, 2
                if size == 126:
                    if n - pos < 4:
                        break
                    size, head = int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
                elif size == 127:
                    if n - pos < 10:
                        break
                    size, head = int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
                if n - pos - head < size:
                    break
                payload = buf[pos + head:pos + head + size]
                fin = buf[pos] & 0x80
                pos += head + size
                if op == 8:  # close
                    self.close()
                    return
                if op in (0, 2):
                    if fin and not self.partial:  # the usual, unfragmented message
                        body = payload
                    else:
                        self.partial += payload
                        body = self.partial
                    if fin:
                        self.partial = b""
                        self.on_message(_decode(body), at)
                        if self.closed:
                            return
        self.buf = buf[pos:]

    def close(self, bye: bool = False) -> None:
        if self.closed:
            return
        if bye and self.open:
            self.send({"t": "bye"})
        self.closed = True
        try:
            self.loop.sel.unregister(self.sock)
        except (KeyError, ValueError):
            pass
        self.sock.close()
        self.on_close()


class Loop:
    """A selector and a timer heap: one thread serves every connection of a process."""

    def __init__(self) -> None:
        self.sel = selectors.DefaultSelector()
        self.timers: list[tuple[float, int, Callable[[], None]]] = []
        self.count = 0

    def later(self, delay: float, fn: Callable[[], None]) -> None:
        self.count += 1
        heapq.heappush(self.timers, (_now() + delay, self.count, fn))

    def run_until(self, stop_at: float) -> None:
        while True:
            now = _now()
            if now >= stop_at:
                return
            while self.timers and self.timers[0][0] <= now:
                heapq.heappop(self.timers)[2]()
            wait = min(0.05, stop_at - now)
            if self.timers:
                wait = max(0.0, min(wait, self.timers[0][0] - _now()))
            for key, _ in self.sel.select(wait):
                conn = key.data
                if not conn.closed:
                    conn.readable()


# ---------------------------------------------------------------------------
# the party: tables, seats, spectators, the lobby
# ---------------------------------------------------------------------------


class Stats:
    def __init__(self, measure_from: float) -> None:
        self.measure_from = measure_from
        self.lat: dict[str, list[float]] = {"people": [], "spectators": [], "bots": []}
        self.rtt: dict[str, list[float]] = {"people": [], "bots": []}
        self.rejoins: list[float] = []
        self.lobby_rtt: list[float] = []
        self.lobby_pushes = 0
        self.errors: dict[str, int] = {}
        self.unexpected_closes = 0
        self.leaves = 0

    def measuring(self) -> bool:
        return _now() >= self.measure_from

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Worker:
    def __init__(self, port: int, web_port: int, tables: list[int], lobby: list[int],
                 args: dict[str, Any]) -> None:
        self.port, self.web_port, self.args = port, web_port, args
        self.loop = Loop()
        self.start = _now()
        self.stop_at = self.start + args["seconds"]
        self.stats = Stats(self.start + args["warmup"])
        self.ids = iter(range(1, 1 << 62))
        self.tables = [Table(self, i) for i in tables]
        self.lobbies = [LobbyClient(self, k) for k in lobby]

    def run(self) -> dict[str, Any]:
        cpu0 = _cpu()
        for table in self.tables:
            table.begin()
        for lobby in self.lobbies:
            lobby.connect()
        self.loop.run_until(self.stop_at)
        end = _now()
        cpu = _cpu() - cpu0
        out = {"cpu_s": cpu, "lat": self.stats.lat, "rtt": self.stats.rtt,
               "rejoins": self.stats.rejoins, "lobby_rtt": self.stats.lobby_rtt,
               "lobby_pushes": self.stats.lobby_pushes, "errors": self.stats.errors,
               "unexpected_closes": self.stats.unexpected_closes, "leaves": self.stats.leaves,
               "tables": [t.report(end) for t in self.tables]}
        for table in self.tables:
            for seat in table.seats:
                if seat.conn is not None:
                    seat.conn.close(bye=True)
            if table.spectator.conn is not None:
                table.spectator.conn.close(bye=True)
        for lobby in self.lobbies:
            if lobby.conn is not None:
                lobby.conn.close(bye=True)
        return out


class Table:
    """One table of four (and its successors): two people, two bots, one spectator."""

    def __init__(self, worker: Worker, index: int) -> None:
        self.w, self.index = worker, index
        self.game = "manila" if index % 2 == 0 else "race"
        self.rng = random.Random(worker.args["seed"] * 1000 + index)
        self.seats = [Seat(self, s) for s in range(4)]
        self.spectator = Spectator(self)
        self.tid: str | None = None
        self.creating: float | None = None  # create sent at
        self.games = 0
        self.finished: set[str] = set()
        self.actions = 0
        self.act_sent: dict[int, float] = {}  # act id -> sent at
        self.sent: dict[int, float] = {}  # seq -> its act's send time
        self.early: dict[int, list[tuple[float, str]]] = {}  # seq -> arrivals before accepted
        self.host_wait_max = 0.0
        self.host_wait_what = ""  # what waited longest, and when (s into the party)
        self.host_wait_at = 0.0
        self.last_action: float | None = None
        self.longest_gap = 0.0
        self.waits: dict[Any, float] = {}  # what waits on the host -> since

    def src(self, slot: int) -> str:
        return f"127.10.{self.index}.{slot + 1}"

    def begin(self) -> None:
        for seat in self.seats:
            seat.connect()
        self.spectator.connect()

    # the host keeps this table waiting from ``since`` (for ``key``) until done()
    def wait(self, key: Any) -> None:
        self.waits[key] = _now()

    def done(self, key: Any, at: float) -> None:
        since = self.waits.pop(key, None)
        if since is not None and at - since > self.host_wait_max:
            self.host_wait_max = at - since
            self.host_wait_what, self.host_wait_at = key[0], since - self.w.start

    def maybe_create(self) -> None:
        """Open the next table, by a person if one is here, else by a bot."""
        if self.creating is not None:
            return
        creator = next((s for s in (self.seats[0], self.seats[2], self.seats[1])
                        if s.welcomed), None)
        if creator is None or creator.conn is None:
            return
        rid = next(self.w.ids)
        self.creating = _now()
        self.wait(("create", rid))
        creator.requests[rid] = "create"
        creator.conn.send({"t": "create", "id": rid, "game": self.game, "seats": 4,
                           "options": RACE if self.game == "race" else {},
                           "seed": self.rng.randrange(1 << 62)})

    def created(self, tid: str, rid: int, at: float) -> None:
        self.done(("create", rid), at)
        self.tid, self.creating = tid, None
        self.sent.clear()
        self.early.clear()
        self.games += 1
        for seat in self.seats:
            seat.new_table()
        self.spectator.new_table()

    def accepted(self, rid: int, seq: int) -> None:
        sent = self.act_sent.pop(rid, None)
        self.actions += 1
        now = _now()
        if self.last_action is not None:
            self.longest_gap = max(self.longest_gap, now - self.last_action)
        self.last_action = now
        if sent is None:
            return
        self.sent[seq] = sent
        self.sent.pop(seq - 64, None)
        self.early.pop(seq - 64, None)
        for at, kind in self.early.pop(seq, []):
            self.record(kind, at - sent)

    def arrived(self, kind: str, msg: dict[str, Any], at: float) -> None:
        """An update caused by an act reached a seat or spectator of kind ``kind``."""
        seq = msg["seq"]
        sent = self.sent.get(seq)
        if sent is not None:
            self.record(kind, at - sent)
        elif len(self.early) < 64:
            self.early.setdefault(seq, []).append((at, kind))

    def record(self, kind: str, seconds: float) -> None:
        if self.w.stats.measuring():
            self.w.stats.lat[kind].append(seconds)

    def finish(self, tid: str) -> None:
        if tid in self.finished or tid != self.tid:
            return
        self.finished.add(tid)
        self.w.loop.later(self.rng.uniform(2.0, 8.0), self.maybe_create)

    def report(self, end: float) -> dict[str, Any]:
        for key in list(self.waits):
            self.done(key, end)
        return {"index": self.index, "game": self.game, "actions": self.actions,
                "games": self.games, "host_wait_max_s": round(self.host_wait_max, 4),
                "host_wait_max_for": self.host_wait_what,
                "host_wait_max_began_s": round(self.host_wait_at, 2),
                "longest_gap_s": round(self.longest_gap, 2)}


class Seat:
    """A person (WebSocket, thinks) or a bot (TCP, flat out) at one seat of a Table."""

    def __init__(self, table: Table, seat: int) -> None:
        self.t, self.seat = table, seat
        self.person = seat in PEOPLE_SEATS
        self.kind = "people" if self.person else "bots"
        self.rng = random.Random(table.rng.randrange(1 << 62))
        self.conn: Conn | None = None
        self.welcomed = False
        self.token: str | None = None
        self.token_table: str | None = None
        self.joined_table: str | None = None  # the table whose updates this seat gets
        self.update: dict[str, Any] | None = None
        self.pending: tuple[int, int, float] | None = None  # act id, seq it makes, sent at
        self.planned: int | None = None  # the seq a person's thinking is for
        self.requests: dict[int, str] = {}
        self.reconnect_at: float | None = None
        self.leaving_scheduled = False
        self.gen = 0  # a person's thinking counts only for the connection it began on

    def connect(self) -> None:
        w = self.t.w
        self.welcomed, self.requests, self.joined_table = False, {}, None
        self.update, self.pending, self.planned = None, None, None
        self.gen += 1
        self.conn = Conn(w.loop, "ws" if self.person else "tcp",
                         w.web_port if self.person else w.port, self.t.src(self.seat),
                         self.opened, self.message, self.closed)
        if self.person and not self.leaving_scheduled:  # once: these timers re-arm
            self.leaving_scheduled = True
            self.schedule_leave()
            w.loop.later(PING_EVERY * self.rng.random(), self.ping)

    def opened(self) -> None:
        if self.conn is None:
            return
        hello: dict[str, Any] = {"t": "hello", "proto": 1, "name": f"p{self.t.index}-{self.seat}",
                                 "id": 0}
        if self.person:
            hello |= {"words": True, "lobby": not self.t.w.args["no_people_lobby"]}
        self.conn.send(hello)

    def closed(self) -> None:
        if self.conn is not None and self.reconnect_at is None:
            self.t.w.stats.unexpected_closes += 1
        self.conn, self.welcomed = None, False
        for rid in list(self.requests):
            self.t.waits.pop(("req", rid), None)
            self.t.waits.pop(("create", rid), None)
            self.t.act_sent.pop(rid, None)
        if self.pending is not None:
            self.t.waits.pop(("act", self.pending[0]), None)
        self.pending = None

    def send(self, msg: dict[str, Any], what: str) -> int:
        rid = next(self.t.w.ids)
        self.requests[rid] = what
        assert self.conn is not None
        self.conn.send({**msg, "id": rid})
        return rid

    def new_table(self) -> None:
        """The table was replaced: take this seat at the new one (now, or on coming back)."""
        if self.welcomed:
            self.join()

    def join(self) -> None:
        if self.t.tid is None:
            return
        rid = self.send({"t": "join", "table": self.t.tid, "seat": self.seat}, "join")
        self.t.wait(("req", rid))

    def message(self, msg: dict[str, Any], at: float) -> None:
        t = msg["t"]
        if t == "update":
            self.on_update(msg, at)
            return
        rid = msg.get("id")
        what = self.requests.pop(rid, None) if rid is not None else None
        if t == "welcome":
            self.welcomed = True
            if self.person:
                self.send({"t": "list_games"}, "games")
            if self.token is not None and self.token_table == self.t.tid:
                rid = self.send({"t": "resume", "token": self.token}, "resume")
                self.t.wait(("req", rid))
            elif self.t.tid is not None:
                self.join()
            else:
                self.t.maybe_create()
        elif t == "created":
            self.t.created(msg["table"], rid, at)
        elif t == "joined":
            self.t.done(("req", rid), at)
            self.token, self.token_table = msg["token"], msg["table"]
            self.joined_table = msg["table"]
        elif t == "accepted":
            if self.pending is not None and self.pending[0] == rid:
                self.t.accepted(rid, msg["seq"])
        elif t == "error":
            self.t.w.stats.error(f"{what}:{msg.get('code')}")
            self.t.done(("req", rid), at)
            self.t.done(("create", rid), at)
            if what == "create":
                self.t.creating = None
                self.t.w.loop.later(1.0, self.t.maybe_create)
            elif what == "act" and self.pending is not None and self.pending[0] == rid:
                self.t.done(("act", rid), at)
                self.t.act_sent.pop(rid, None)
                self.pending = None
                self.planned = None
                if self.update is not None:  # a bot tries again a moment later
                    self.t.w.loop.later(0.05, lambda: self.retry(self.gen))
            elif what in ("join", "resume") and msg.get("code") in ("bad_token", "seat_taken"):
                self.token = None
                self.t.w.loop.later(1.0, self.join)

    def ping(self) -> None:
        """The page's heartbeat."""
        if self.conn is not None and self.welcomed:
            self.send({"t": "ping"}, "ping")
        self.t.w.loop.later(PING_EVERY, self.ping)

    def on_update(self, msg: dict[str, Any], at: float) -> None:
        if msg["table"] != self.t.tid or msg.get("seat") != self.seat:
            return
        if self.reconnect_at is not None and msg.get("full"):
            if self.t.w.stats.measuring():
                self.t.w.stats.rejoins.append(at - self.reconnect_at)
            self.reconnect_at = None
        if not msg.get("full"):
            self.t.arrived(self.kind, msg, at)
        if self.pending is not None and msg["seq"] >= self.pending[1]:
            rid, _, sent = self.pending
            self.t.done(("act", rid), at)
            if self.t.w.stats.measuring():
                self.t.w.stats.rtt[self.kind].append(at - sent)
            self.pending = None
        self.update = msg
        if msg["status"] == "finished":
            self.t.finish(msg["table"])
            return
        self.plan(msg)

    def plan(self, msg: dict[str, Any]) -> None:
        legal = msg.get("legal")
        if not legal or msg["status"] != "playing" or self.seat not in msg["to_act"]:
            return
        if self.pending is not None:
            return
        if not self.person:
            self.act(msg)
        elif self.planned != msg["seq"]:
            self.planned = msg["seq"]
            lo, hi = self.t.w.args["think"]
            gen, seq = self.gen, msg["seq"]
            self.t.w.loop.later(self.rng.uniform(lo, hi), lambda: self.thought(gen, seq))

    def thought(self, gen: int, seq: int) -> None:
        """A person's thinking is over: act, if the table still asks the same."""
        u = self.update
        if gen == self.gen and u is not None and u["seq"] == seq:
            self.retry(gen)

    def retry(self, gen: int) -> None:
        u = self.update
        if (gen != self.gen or self.conn is None or u is None or self.pending is not None
                or u["status"] != "playing" or self.seat not in u["to_act"] or not u.get("legal")):
            return
        self.act(u)

    def act(self, msg: dict[str, Any]) -> None:
        rid = self.send({"t": "act", "table": msg["table"], "seat": self.seat,
                         "action": self.rng.choice(msg["legal"])}, "act")
        now = _now()
        self.pending = (rid, msg["seq"] + 1, now)
        self.t.act_sent[rid] = now
        self.t.wait(("act", rid))

    def schedule_leave(self) -> None:
        every = self.t.w.args["leave_every"]
        if every > 0:
            self.t.w.loop.later(self.rng.expovariate(1.0 / every), self.leave)

    def leave(self) -> None:
        """Close the page (or lose the Wi-Fi); come back after a while."""
        if self.conn is None:
            self.schedule_leave()
            return
        self.t.w.stats.leaves += 1
        conn = self.conn
        self.conn = None  # an expected close
        self.reconnect_at = -1.0
        conn.close(bye=self.rng.random() < 0.5)
        lo, hi = self.t.w.args["away"]
        self.t.w.loop.later(self.rng.uniform(lo, hi), self.come_back)

    def come_back(self) -> None:
        self.reconnect_at = _now()
        self.connect()
        self.schedule_leave()


class Spectator:
    """A browser watching one table, following it to the next."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.conn: Conn | None = None
        self.welcomed = False
        self.watching: str | None = None

    def connect(self) -> None:
        self.conn = Conn(self.t.w.loop, "ws", self.t.w.web_port, self.t.src(4),
                         self.opened, self.message, self.closed)

    def opened(self) -> None:
        assert self.conn is not None
        self.conn.send({"t": "hello", "proto": 1, "name": f"s{self.t.index}", "id": 0,
                        "words": True, "lobby": True})

    def closed(self) -> None:
        if self.conn is not None:
            self.t.w.stats.unexpected_closes += 1
        self.conn = None

    def new_table(self) -> None:
        if not self.welcomed or self.conn is None or self.t.tid is None:
            return
        if self.watching is not None:
            self.conn.send({"t": "leave", "id": next(self.t.w.ids), "table": self.watching})
        self.watching = self.t.tid
        self.conn.send({"t": "join", "id": next(self.t.w.ids), "table": self.t.tid,
                        "spectate": True})

    def message(self, msg: dict[str, Any], at: float) -> None:
        t = msg["t"]
        if t == "welcome":
            self.welcomed = True
            assert self.conn is not None
            self.conn.send({"t": "list_games", "id": next(self.t.w.ids)})
            self.new_table()
        elif t == "update" and msg["table"] == self.t.tid and not msg.get("full"):
            self.t.arrived("spectators", msg, at)
        elif t == "error":
            self.t.w.stats.error(f"spectate:{msg.get('code')}")


class LobbyClient:
    """A browser in the lobby: pushed lobbies, and a list_tables now and then."""

    def __init__(self, worker: Worker, k: int) -> None:
        self.w, self.k = worker, k
        self.rng = random.Random(worker.args["seed"] * 7919 + k)
        self.conn: Conn | None = None
        self.asked: dict[int, float] = {}

    def connect(self) -> None:
        self.conn = Conn(self.w.loop, "ws", self.w.web_port, f"127.20.0.{self.k + 1}",
                         self.opened, self.message, self.closed)

    def opened(self) -> None:
        assert self.conn is not None
        self.conn.send({"t": "hello", "proto": 1, "name": f"lobby{self.k}", "id": 0,
                        "words": True, "lobby": True})

    def closed(self) -> None:
        if self.conn is not None:
            self.w.stats.unexpected_closes += 1
        self.conn = None

    def refresh(self) -> None:
        if self.conn is None:
            return
        rid = next(self.w.ids)
        self.asked[rid] = _now()
        self.conn.send({"t": "list_tables", "id": rid})
        every = self.w.args["lobby_every"]
        self.w.loop.later(self.rng.uniform(0.5 * every, 1.5 * every), self.refresh)

    def message(self, msg: dict[str, Any], at: float) -> None:
        t = msg["t"]
        if t == "welcome":
            self.w.loop.later(self.rng.uniform(0, self.w.args["lobby_every"]), self.refresh)
        elif t == "lobby":
            self.w.stats.lobby_pushes += 1
        elif t == "tables":
            sent = self.asked.pop(msg.get("id"), None)
            if sent is not None and self.w.stats.measuring():
                self.w.stats.lobby_rtt.append(at - sent)


# ---------------------------------------------------------------------------
# the probe: WebSocket vs TCP at one-seat tables, under the party
# ---------------------------------------------------------------------------


def _probe(port: int, web_port: int, seconds: float, every: float) -> dict[str, Any]:
    sys.path.insert(0, str(Path(__file__).parent))
    from web import TcpClient, WsClient, open_table, play

    cpu0 = _cpu()
    clients = {"tcp": TcpClient(port), "ws": WsClient(web_port)}
    state = {name: (*open_table(c, False), 10) for name, c in clients.items()}
    for name, client in clients.items():  # warm-up
        table, update, rid = state[name]
        _, update, rid = play(client, table, update, 50, rid)
        state[name] = (table, update, rid)
    samples: list[tuple[float, float, float]] = []  # (at, tcp ms, ws ms)
    start = _now()
    stop_at = start + seconds
    order = list(clients)
    while _now() < stop_at:
        # Each act after the same pause, and the two in turn first: the first act after
        # a pause pays for waking the host up (0.3-0.4 ms here, idle).
        pair = {}
        order.reverse()
        for name in order:
            time.sleep(every / 2)
            table, update, rid = state[name]
            times, update, rid = play(clients[name], table, update, 1, rid)
            state[name] = (table, update, rid)
            pair[name] = times[0]
        samples.append((_now() - start, pair["tcp"], pair["ws"]))
    windows: dict[int, list[tuple[float, float]]] = {}
    for at, tcp, ws in samples:
        windows.setdefault(int(at // 10), []).append((tcp, ws))
    diffs = [statistics.median(w for _, w in pairs) - statistics.median(t for t, _ in pairs)
             for pairs in windows.values() if len(pairs) >= 5]
    tcp = [s[1] for s in samples]
    ws = [s[2] for s in samples]
    return {"pairs": len(samples),
            "tcp_p50_ms": round(statistics.median(tcp), 4),
            "tcp_p99_ms": round(_pct(tcp, 0.99) or 0.0, 4),
            "ws_p50_ms": round(statistics.median(ws), 4),
            "ws_p99_ms": round(_pct(ws, 0.99) or 0.0, 4),
            "ws_minus_tcp_p50_ms": round(statistics.median(diffs), 4) if diffs else
            round(statistics.median(ws) - statistics.median(tcp), 4),
            "windows": len(diffs), "cpu_s": round(_cpu() - cpu0, 2)}


# ---------------------------------------------------------------------------
# coordinator
# ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _proc_status(pid: int, field: str) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _proc_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine() -> tuple[int, int]:
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def _start_host(tmp: Path) -> tuple[subprocess.Popen[bytes], int, int, Any]:
    port, web_port = _free_port(), _free_port()
    log = open(tmp / "host.log", "w")  # noqa: SIM115 - closed with the host
    host = subprocess.Popen(
        [sys.executable, *(["-m", "cProfile", "-o", os.environ["PARTY_PROFILE"]]
                           if os.environ.get("PARTY_PROFILE") else []),
         "-m", "lantable.clients.cli", "host", "--bind", "127.0.0.1",
         "--port", str(port), "--web-port", str(web_port), "--db", str(tmp / "j.sqlite"),
         "--no-discovery", "--no-qr", "--no-page-bots"], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while "play in a browser" not in (tmp / "host.log").read_text():
        if time.monotonic() > deadline or host.poll() is not None:
            raise RuntimeError((tmp / "host.log").read_text()[-2000:])
        time.sleep(0.05)
    return host, port, web_port, log


def _spawn(tmp: Path, *argv: str) -> tuple[subprocess.Popen[bytes], Path]:
    """A party process; it writes its result to the file returned (not to a pipe,
    which it would fill while nobody reads it)."""
    out = tmp / f"out-{len(list(tmp.glob('out-*')))}.json"
    out.touch()
    return subprocess.Popen([sys.executable, __file__, *argv, str(out)]), out


def _collect(spawned: tuple[subprocess.Popen[bytes], Path]) -> dict[str, Any]:
    proc, out = spawned
    if proc.wait() != 0:
        raise RuntimeError(f"a party process failed ({proc.returncode})")
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def run(args: Any) -> dict[str, Any]:
    if not 1 <= args.tables <= MAX_TABLES:
        raise SystemExit(f"--tables must be 1..{MAX_TABLES}")
    seconds = args.minutes * 60
    wargs = {"seconds": seconds, "warmup": args.warmup, "seed": args.seed,
             "think": args.think, "away": args.away, "leave_every": args.leave_every,
             "lobby_every": args.lobby_every, "no_people_lobby": args.no_people_lobby}
    with tempfile.TemporaryDirectory(prefix="lantable-party-") as tmpdir:
        tmp = Path(tmpdir)
        host, port, web_port, log = _start_host(tmp)
        try:
            idle = _collect(_spawn(tmp, "--probe", str(port), str(web_port), str(args.idle_seconds),
                                   str(args.probe_every))) if args.idle_seconds > 0 else None
            load0 = os.getloadavg()
            busy0, cpu0 = _machine(), _proc_cpu(host.pid)
            workers = [_spawn(tmp, "--worker", str(port), str(web_port),
                              json.dumps(list(range(p, args.tables, args.procs))),
                              json.dumps(list(range(p, args.lobby_clients, args.procs))),
                              json.dumps(wargs)) for p in range(args.procs)]
            probe = _spawn(tmp, "--probe", str(port), str(web_port), str(seconds),
                           str(args.probe_every))
            rss: list[float] = []
            started = time.monotonic()
            next_sample = started
            while any(p.poll() is None for p, _ in [*workers, probe]):
                if time.monotonic() >= next_sample:
                    rss.append(round(_proc_status(host.pid, "VmRSS"), 1))
                    next_sample += 60 if seconds >= 120 else 1
                time.sleep(0.2)
                if time.monotonic() > started + seconds + 120:
                    raise RuntimeError("the party processes did not stop")
            rss.append(round(_proc_status(host.pid, "VmRSS"), 1))
            host_cpu = _proc_cpu(host.pid) - cpu0
            busy1 = _machine()
            load1 = os.getloadavg()
            peak = _proc_status(host.pid, "VmHWM")
            results = [_collect(p) for p in workers]
            party_probe = _collect(probe)
            host_alive = host.poll() is None
        finally:
            host.terminate()
            try:
                host.wait(10)
            except subprocess.TimeoutExpired:
                host.kill()
                host.wait()
            log.close()
    return _report(args, seconds, results, idle, party_probe, host_cpu, peak, rss,
                   (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]), load0, load1, host_alive)


def _report(args: Any, seconds: float, results: list[dict[str, Any]], idle: Any, probe: Any,
            host_cpu: float, peak: float, rss: list[float], busy: float,
            load0: tuple[float, ...], load1: tuple[float, ...], host_alive: bool
            ) -> dict[str, Any]:
    lat: dict[str, list[float]] = {"people": [], "spectators": [], "bots": []}
    rtt: dict[str, list[float]] = {"people": [], "bots": []}
    tables: list[dict[str, Any]] = []
    errors: dict[str, int] = {}
    rejoins: list[float] = []
    lobby: list[float] = []
    for r in results:
        for k in lat:
            lat[k] += r["lat"][k]
        for k in rtt:
            rtt[k] += r["rtt"][k]
        tables += r["tables"]
        rejoins += r["rejoins"]
        lobby += r["lobby_rtt"]
        for code, n in r["errors"].items():
            errors[code] = errors.get(code, 0) + n
    tables.sort(key=lambda t: t["index"])
    actions = sum(t["actions"] for t in tables)
    counts = [t["actions"] for t in tables]
    starving = [t["index"] for t in tables
                if t["actions"] == 0 or t["host_wait_max_s"] > args.starve_after]
    people = _summary_ms(lat["people"])
    workers_cpu = sum(r["cpu_s"] for r in results)
    by_game: dict[str, list[int]] = {}
    for t in tables:
        by_game.setdefault(t["game"], []).append(t["actions"])
    party_p50 = {k: _pct(v, 0.5) for k, v in rtt.items()}
    return {
        "bench": "party", "minutes": args.minutes, "seed": args.seed,
        "tables": args.tables, "people": 2 * args.tables, "bots": 2 * args.tables,
        "spectators": args.tables, "lobby_clients": args.lobby_clients,
        "games": {g: len(v) for g, v in sorted(by_game.items())},
        "think_s": args.think, "procs": args.procs,
        "people_update_latency": people,
        "people_p99_goal_ms": 10.0,
        "people_p99_ok": people["p99_ms"] is not None and people["p99_ms"] <= 10.0,
        "spectator_update_latency": _summary_ms(lat["spectators"]),
        "bot_update_latency": _summary_ms(lat["bots"]),
        "actions": actions, "actions_per_s": round(actions / seconds, 2),
        "host": {"alive_at_end": host_alive, "peak_rss_mb": round(peak, 1),
                 "rss_goal_mb": 200, "rss_ok": peak <= 200,
                 "rss_mb_samples": rss, "cpu_s": round(host_cpu, 2),
                 "cpu_pct_of_a_core": round(100 * host_cpu / seconds, 1),
                 "cpu_us_per_action": round(host_cpu / max(1, actions) * 1e6, 1)},
        "clients": {"party_cpu_s": round(workers_cpu, 2),
                    "party_cpu_us_per_action": round(workers_cpu / max(1, actions) * 1e6, 1),
                    "probe_cpu_s": probe["cpu_s"]},
        "machine": {"cpus": os.cpu_count(), "busy_pct": round(100 * busy, 1),
                    "loadavg_before": [round(x, 2) for x in load0],
                    "loadavg_after": [round(x, 2) for x in load1]},
        "tables_detail": {
            "actions_min": min(counts), "actions_median": statistics.median(counts),
            "actions_max": max(counts),
            "actions_median_by_game": {g: statistics.median(v) for g, v in by_game.items()},
            "games_played": sum(t["games"] for t in tables),
            "host_wait_max_s": max(t["host_wait_max_s"] for t in tables),
            "longest_gap_s_max": max(t["longest_gap_s"] for t in tables),
            "starve_after_s": args.starve_after, "starving": starving,
            "per_table": tables},
        "no_table_starves": not starving,
        "rejoins": {"leaves": sum(r["leaves"] for r in results), **_summary_ms(rejoins)},
        "lobby": {"pushes": sum(r["lobby_pushes"] for r in results),
                  "list_tables": _summary_ms(lobby)},
        "ws_vs_tcp": {
            "goal_ms": 0.3, "idle": idle, "party": probe,
            "ok": probe["ws_minus_tcp_p50_ms"] <= 0.3,
            "people_act_rtt": _summary_ms(rtt["people"]),
            "bots_act_rtt": _summary_ms(rtt["bots"]),
            "people_minus_bots_act_rtt_p50_ms": None if None in party_p50.values() else
            round((party_p50["people"] - party_p50["bots"]) * 1e3, 4)},
        "errors": errors,
        "unexpected_closes": sum(r["unexpected_closes"] for r in results),
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        port, web_port, tables, lobby, wargs, out = sys.argv[2:8]
        w = Worker(int(port), int(web_port), json.loads(tables), json.loads(lobby),
                   json.loads(wargs))
        Path(out).write_text(json.dumps(w.run()))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--probe":
        port, web_port, seconds, every, out = sys.argv[2:7]
        Path(out).write_text(json.dumps(_probe(int(port), int(web_port), float(seconds),
                                               float(every))))
        return
    ap = bench_parser(__doc__)
    ap.add_argument("--minutes", type=float, default=10.0, help="how long the party lasts")
    ap.add_argument("--tables", type=int, default=50, help=f"tables of 4 (1..{MAX_TABLES})")
    ap.add_argument("--seed", type=int, default=1, help="seeds every choice and think time")
    ap.add_argument("--procs", type=int, default=2, help="processes that run the party")
    ap.add_argument("--think", type=float, nargs=2, default=[2.0, 20.0], metavar=("MIN", "MAX"),
                    help="a person thinks a uniform time in this range, s")
    ap.add_argument("--leave-every", type=float, default=180.0,
                    help="mean s between a person's leaves (0: nobody leaves)")
    ap.add_argument("--away", type=float, nargs=2, default=[2.0, 15.0], metavar=("MIN", "MAX"),
                    help="a person who left comes back after a uniform time in this range, s")
    ap.add_argument("--lobby-clients", type=int, default=6, help="browsers in the lobby")
    ap.add_argument("--lobby-every", type=float, default=3.0,
                    help="mean s between a lobby browser's list_tables")
    ap.add_argument("--no-people-lobby", action="store_true",
                    help="people's pages do not watch the lobby (a diagnostic: what its "
                         "pushes cost the tables)")
    ap.add_argument("--warmup", type=float, default=10.0,
                    help="s before latencies are recorded (the tables fill up)")
    ap.add_argument("--starve-after", type=float, default=1.0,
                    help="a table the host keeps waiting longer than this (s) starves")
    ap.add_argument("--probe-every", type=float, default=0.05,
                    help="s between the probe's TCP/WebSocket act pairs")
    ap.add_argument("--idle-seconds", type=float, default=10.0,
                    help="s the probe runs alone before the party (0: not at all)")
    ap.add_argument("--json", type=Path, default=None, help="also write the report here")
    args = ap.parse_args()
    report = run(args)
    text = json.dumps(report, indent=2)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
