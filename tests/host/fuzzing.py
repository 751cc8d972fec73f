"""The hardening suite's tools: a real ``lantable host`` process, blocking wire clients,
a structure-aware protocol fuzzer and resource floods. Shared by the bounded tests
(``tests/host/test_hardening.py``) and the long runs (``bench/fuzz.py``).

The fuzzer's frames come from hypothesis strategies built from the message schemas
(``lantable.protocol.CLIENT_TYPES``: every field's type hint and whether it is
required), biased towards valid values so that requests reach tables and games: table
ids, tokens and legal actions are placeholders filled in at send time from what the
connection has seen. Then some fields are made ill-typed, dropped or padded, and some
frames are mutated as raw bytes. The verdict on every frame is the protocol's promise:
its documented reply (matched by ``id``), or a documented fatal ``error`` and a close;
never silence, never an undocumented code, and never a traceback in the host's log.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgpack
from hypothesis import strategies as st

from lantable.protocol import CLIENT_TYPES, FATAL_CODES, ErrorCode

LANTABLE = [sys.executable, "-m", "lantable.clients.cli"]
HEADER = struct.Struct(">I")
CODES = {c.value for c in ErrorCode}
FATAL = {c.value for c in FATAL_CODES}
REPLY_TIMEOUT = 10.0  # seconds a request may wait for its answer on a busy machine


def frame(msg: Any) -> bytes:
    body = msgpack.packb(msg, use_bin_type=True)
    return HEADER.pack(len(body)) + body


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------
# the host under test
# ---------------------------------------------------------------------------


class Host:
    """``lantable host`` on loopback, its log in a file (scanned for tracebacks)."""

    def __init__(self, db: str, *flags: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)  # noqa: SIM115
        self.proc = subprocess.Popen(
            [*LANTABLE, "host", "--bind", "127.0.0.1", "--port", str(self.port), "--db", db,
             "--no-discovery", *flags],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            self.stop()
            raise RuntimeError(f"the host did not start: {line!r} {self.log_text()[-2000:]}")

    def rss(self) -> int:
        """The host's resident memory in bytes (from /proc)."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_text(self) -> str:
        self.log.flush()
        with open(self.log.name) as f:
            return f.read()

    def tracebacks(self) -> list[str]:
        text = self.log_text()
        return [m.group(0)[:3000] for m in re.finditer(r"Traceback.*?(?=\n\S|\Z)", text, re.S)]

    def stop(self) -> int | None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        return self.proc.returncode

    def cleanup(self) -> None:
        self.stop()
        self.log.close()
        with contextlib.suppress(OSError):
            os.unlink(self.log.name)


# ---------------------------------------------------------------------------
# a blocking client on raw frames
# ---------------------------------------------------------------------------


class Closed(Exception):
    """The host closed the connection."""


class Wire:
    """One connection: send frames, read frames (raw maps) with a timeout."""

    def __init__(self, port: int, timeout: float = REPLY_TIMEOUT, source: str | None = None
                 ) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                             source_address=(source, 0) if source else None)
        self.buf = b""
        self.timeout = timeout

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def next(self) -> dict[str, Any]:
        """The next frame. Raises Closed at EOF or reset, TimeoutError when silent."""
        deadline = time.monotonic() + self.timeout
        while True:
            if len(self.buf) >= 4:
                (n,) = HEADER.unpack_from(self.buf)
                if len(self.buf) >= 4 + n:
                    body, self.buf = self.buf[4:4 + n], self.buf[4 + n:]
                    return msgpack.unpackb(body, raw=False, strict_map_key=False)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame from the host")
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(262144)
            except (ConnectionResetError, BrokenPipeError) as exc:
                raise Closed(str(exc)) from None
            if not data:
                raise Closed("EOF")
            self.buf += data

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def welcomed(port: int, name: str, timeout: float = REPLY_TIMEOUT, wait: float = 20.0,
             source: str | None = None) -> Wire:
    """A connection past its hello; retried while the host is full (a flood's
    connections take a moment to be cleaned up after they close)."""
    deadline = time.monotonic() + wait
    while True:
        w = Wire(port, timeout=timeout, source=source)
        try:
            w.send(frame({"t": "hello", "proto": 1, "name": name}))
            msg = w.next()
            if msg["t"] == "welcome":
                return w
            if msg.get("code") != "too_many_connections" or time.monotonic() > deadline:
                raise RuntimeError(f"hello refused: {msg}")
        except (Closed, OSError):
            if time.monotonic() > deadline:
                raise
        w.close()
        time.sleep(0.1)


# ---------------------------------------------------------------------------
# frames from the schemas
# ---------------------------------------------------------------------------

_INT_EDGES = [0, 1, -1, 2, 3, 7, 255, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64 - 1, -(2**63)]


def _plain(max_leaves: int = 6) -> st.SearchStrategy[Any]:
    """Any msgpack value (ints to 64 bits, floats, text, bytes, nesting)."""
    scalars = st.one_of(
        st.none(), st.booleans(), st.sampled_from(_INT_EDGES),
        st.integers(min_value=-(2**63), max_value=2**64 - 1),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40),
        st.binary(max_size=40))
    return st.recursive(scalars, lambda kids: st.one_of(
        st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=8), kids, max_size=4)),
        max_leaves=max_leaves)


def _valid(name: str, hint: Any) -> st.SearchStrategy[Any]:
    """A plausible value for field ``name``: placeholders the sender resolves."""
    if name == "table":
        return st.one_of(st.builds(lambda k: f"@table{k}", st.integers(0, 9)),
                         st.text(max_size=12))
    if name == "token":
        return st.one_of(st.builds(lambda k: f"@token{k}", st.integers(0, 9)),
                         st.text(max_size=30))
    if name == "action":
        return st.sampled_from(["@legal", "@legal", "@legal-float", "@legal-junk",
                                "@legal-deep"])
    if name == "game":
        return st.sampled_from(["race", "race", "race", "manila", "kaisers-pirates", "chess"])
    if name == "seats":
        return st.one_of(st.just(1), st.just(1), st.integers(1, 4),
                         st.sampled_from([0, -1, 10**7, 2**64 - 1]))
    if name == "options":
        return st.one_of(st.none(), st.none(), st.none(), st.just({}), st.just({"target": 6}),
                         st.just({"target": 6.0}), st.just({"max_step": 9}),
                         st.dictionaries(st.text(max_size=10), _plain(3), max_size=3))
    if name == "name":
        return st.one_of(st.text(max_size=20), st.just("x" * 100), st.just("a\x1bb"))
    if name in ("id",):
        return st.integers(0, 2**31)
    if name in ("seat", "offset", "seed"):
        return st.one_of(st.none(), st.integers(0, 4), st.sampled_from(_INT_EDGES))
    if name in ("proto", "min_proto"):
        return st.one_of(st.just(1), st.sampled_from([0, 2, 99]))
    if name == "spectate":
        return st.booleans()
    if name == "join_id":  # 8 to 32 bytes, else bad_join_id
        return st.one_of(st.binary(min_size=8, max_size=32), st.binary(max_size=40))
    if name == "fair":  # fair play (docs/fair-play.md): mostly a plain table
        return st.one_of(st.none(), st.none(), st.none(), st.just({}),
                         st.just({"timeout": 5, "on_withhold": "host_rng"}),
                         st.dictionaries(st.text(max_size=10), _plain(2), max_size=2))
    if name in ("tip", "link", "sig", "key"):  # hex values of the fair-play messages
        return st.one_of(st.text(alphabet="0123456789abcdef", min_size=64, max_size=128),
                         st.text(max_size=10))
    return _plain()


@st.composite
def client_message(draw: st.DrawFn, types: list[str] | None = None) -> dict[str, Any]:
    """A client map built from its message class's schema: valid fields mostly, some
    ill-typed, missing or extra."""
    t = draw(st.sampled_from(types or sorted(set(CLIENT_TYPES) - {"hello"})))
    cls = CLIENT_TYPES[t]
    msg: dict[str, Any] = {"t": t}
    for name, hint, _check, required in cls._checks:
        if not required and draw(st.integers(0, 2)) == 0:
            continue  # an optional field left out
        kind = draw(st.integers(0, 19))
        if kind == 0 and required:
            continue  # a required field missing: bad_message
        msg[name] = draw(_plain() if kind == 1 else _valid(name, hint))
    if draw(st.integers(0, 19)) == 0:
        msg[draw(st.text(min_size=1, max_size=8))] = draw(_plain())  # an unknown extra key
    if draw(st.integers(0, 49)) == 0:
        msg["t"] = draw(st.one_of(st.text(max_size=10), _plain(2)))
    return msg


def _floats(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


MUTATIONS = ("flip", "truncate", "prefix", "garbage", "split")


def mutate(data: bytes, rng: random.Random) -> bytes | list[bytes]:
    """Raw byte damage to one encoded frame (a list means: send in pieces)."""
    how = rng.choice(MUTATIONS)
    if how == "flip" and len(data) > 4:
        i = rng.randrange(4, len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]
    if how == "truncate" and len(data) > 5:
        cut = rng.randrange(5, len(data))
        return HEADER.pack(cut - 4) + data[4:cut]
    if how == "prefix":
        return HEADER.pack(rng.choice([0, 1, 2**31, 2**32 - 1, len(data)])) + data[4:]
    if how == "garbage":
        body = rng.randbytes(rng.randrange(1, 64))
        return HEADER.pack(len(body)) + body
    cut = rng.randrange(1, len(data)) if len(data) > 1 else 1
    return [data[:cut], data[cut:]]


# ---------------------------------------------------------------------------
# a fuzzing session: one connection, its context and the verdicts
# ---------------------------------------------------------------------------


@dataclass
class Counts:
    """What a run did and saw (bench/fuzz.py prints it as JSON)."""

    frames: int = 0
    connections: int = 0
    tables_created: int = 0
    errors: Counter = field(default_factory=Counter)
    replies: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def fail(self, why: str) -> None:
        if len(self.failures) < 50:
            self.failures.append(why)


class Session:
    """A fuzzing client: says hello, sends frames, checks each answer."""

    def __init__(self, port: int, tally: Counts, rng: random.Random,
                 known: dict[str, list[str]]) -> None:
        self.port, self.tally, self.rng, self.known = port, tally, rng, known
        self.legal: dict[str, list[dict[str, Any]]] = {}
        self.wire: Wire | None = None
        self.mine: str | None = None  # the table this session created last

    def _connect(self, hello: dict[str, Any] | None = None) -> bool:
        self.wire = Wire(self.port)
        self.tally.connections += 1
        hello = hello or {"t": "hello", "proto": 1, "name": f"fuzz{self.rng.randrange(99)}"}
        self.wire.send(frame(hello))
        self.tally.frames += 1
        try:
            first = self.wire.next()
        except Closed:
            self.tally.fail(f"closed without an answer to {hello!r:.200}")
            return False
        self._note(first)
        if first["t"] == "welcome":
            return True  # tables are remembered only when this fuzzer made them: the
            # bot games alongside must keep their seats
        if first["t"] != "error":
            self.tally.fail(f"hello answered with {first!r:.200}")
        self._expect_close()
        return False

    def _remember(self, kind: str, value: str) -> None:
        seen = self.known.setdefault(kind, [])
        if value not in seen:
            seen.append(value)
            del seen[:-50]

    def _note(self, msg: dict[str, Any]) -> None:
        t = msg.get("t")
        self.tally.replies[t] += 1
        if t == "error":
            code = msg.get("code")
            self.tally.errors[code] += 1
            if code not in CODES:
                self.tally.fail(f"undocumented error code {code!r}")
        elif t == "created":
            self.tally.tables_created += 1
            self._remember("table", msg["table"])
            self.mine = msg["table"]
        elif t == "joined" and msg.get("token"):
            self._remember("token", msg["token"])
        elif t == "update" and msg.get("legal"):
            self.legal[msg["table"]] = msg["legal"]

    def _expect_close(self) -> None:
        """After a fatal error: nothing but the close may follow."""
        try:
            while True:
                msg = self.wire.next()
                if msg.get("t") != "update":
                    self.tally.fail(f"{msg!r:.200} after a fatal error")
                    break
        except (Closed, TimeoutError) as exc:
            if isinstance(exc, TimeoutError):
                self.tally.fail("the host kept the connection open after a fatal error")
        self.wire.close()
        self.wire = None

    def opening(self) -> None:
        """A game of one's own first: create a one-seat race, take the seat, and act,
        so that the fuzzed frames after it reach a playing table with legal actions."""
        self.send({"t": "create", "id": 1, "game": "race", "seats": 1,
                   "options": {"target": 50}})
        self.send({"t": "join", "id": 2, "table": "@table"})
        self.send({"t": "sync", "id": 3, "table": "@table"})  # its update carries the legal
        self.send({"t": "act", "id": 4, "table": "@table", "action": "@legal"})

    def resolve(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Fill the placeholders with what this fuzzer has seen."""
        out = dict(msg)
        for key, value in msg.items():
            if not isinstance(value, str) or not value.startswith("@"):
                continue
            if value.startswith("@table") and self.known.get("table"):
                # The newest table half the time: a join after a create starts a game.
                tables = self.known["table"]
                out[key] = self.mine or tables[-1] if self.rng.random() < 0.5 \
                    else self.rng.choice(tables)
            elif value.startswith("@token") and self.known.get("token"):
                out[key] = self.rng.choice(self.known["token"])
            elif value.startswith("@legal"):
                table = out.get("table")
                legal = self.legal.get(table) if isinstance(table, str) else None
                action = dict(self.rng.choice(legal)) if legal else {"type": "step", "n": 1}
                if value == "@legal-float":
                    action = _floats(action)
                elif value == "@legal-junk":
                    action["junk"] = "j" * self.rng.choice([10, 5000, 60000])
                elif value == "@legal-deep":
                    for _ in range(self.rng.choice([5, 40])):
                        action = {"type": "x", "k": action}
                out[key] = action
        return out

    def send(self, msg: dict[str, Any], raw: bool = False) -> None:
        """Send one map (resolved), or a raw mutation of it, and judge the answer."""
        if self.wire is None and not self._connect():
            return
        msg = self.resolve(msg)
        try:
            data = frame(msg)
        except (OverflowError, ValueError, TypeError):
            return  # not encodable by any client
        mutated = mutate(data, self.rng) if raw else data
        try:
            for piece in (mutated if isinstance(mutated, list) else [mutated]):
                self.wire.send(piece)
        except OSError:
            self.tally.fail(f"host closed before we could send {msg!r:.200}")
            self.wire = None
            return
        self.tally.frames += 1
        if raw:
            return self._judge_raw()
        req_id = msg.get("id") if type(msg.get("id")) is int else None
        if msg.get("t") == "bye":
            return self._expect_close()
        self._judge(msg, req_id)

    def _judge(self, msg: dict[str, Any], req_id: int | None) -> None:
        while True:
            try:
                reply = self.wire.next()
            except Closed:
                self.tally.fail(f"closed with no error after {msg!r:.300}")
                self.wire = None
                return
            except TimeoutError:
                self.tally.fail(f"no answer to {msg!r:.300}")
                self.wire.close()
                self.wire = None
                return
            self._note(reply)
            t = reply.get("t")
            if t == "error" and reply.get("code") in FATAL and reply.get("id") is None:
                return self._expect_close()
            if t == "update" and reply.get("id") is None:
                continue
            if t == "error" and reply.get("id") is None:
                continue  # unsolicited (a seat taken over, an update too large)
            if req_id is not None and reply.get("id") == req_id:
                return
            if req_id is None:
                self.tally.fail(f"{reply!r:.200} answers {msg!r:.200}, which had no valid id")
                return

    def _judge_raw(self) -> None:
        """A damaged frame: whatever comes must be documented, and the host must either
        answer, or close after a fatal error, or wait for the rest (we then hang up)."""
        self.wire.sock.shutdown(socket.SHUT_WR)
        try:
            while True:
                msg = self.wire.next()
                self._note(msg)
        except Closed:
            pass
        except TimeoutError:
            self.tally.fail("the host kept a half-closed connection with a damaged frame")
        self.wire.close()
        self.wire = None

    def close(self) -> None:
        if self.wire is not None:
            with contextlib.suppress(OSError):
                self.wire.send(frame({"t": "bye"}))
            self.wire.close()
            self.wire = None


# ---------------------------------------------------------------------------
# a bot game alongside (the host must keep finishing games)
# ---------------------------------------------------------------------------


def start_bot_game(port: int, *, target: int = 60, seed: int = 1) -> subprocess.Popen:
    """Create a race table and start ``lantable bot`` on its two seats; returns the bots'
    process (exit 0 and JSON scores when the game finished)."""
    table = subprocess.run(
        [*LANTABLE, "new", "race", "--connect", f"127.0.0.1:{port}", "--seats", "2",
         "--seed", str(seed), "--option", f"target={target}", "--option", "max_step=3"],
        check=True, capture_output=True, text=True, timeout=60).stdout.strip()
    return subprocess.Popen(
        [*LANTABLE, "bot", "--connect", f"127.0.0.1:{port}", "--table", table, "--count", "2",
         "--seed", str(seed), "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)


def bot_game_finished(bots: subprocess.Popen, timeout: float = 120) -> bool:
    try:
        out, err = bots.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        bots.kill()
        bots.communicate()
        print("the bot game did not finish in time", file=sys.stderr)
        return False
    if bots.returncode != 0 or '"scores"' not in out:
        print(f"bot game failed ({bots.returncode}): {out[-500:]} {err[-2000:]}", file=sys.stderr)
        return False
    return True


# ---------------------------------------------------------------------------
# floods: one per limit
# ---------------------------------------------------------------------------


def source(i: int, spread: int) -> str | None:
    """A loopback source address (127.0.0.2 ...) to look like ``spread`` machines."""
    return None if spread <= 1 else f"127.0.0.{2 + i % spread}"


def flood_connections(port: int, count: int, spread: int = 1, hold: Any = None) -> Counter:
    """Open ``count`` connections at once (hello each), from ``spread`` loopback
    addresses; ``hold()`` runs while they are all open, then they close."""
    seen: Counter = Counter()
    socks = []
    try:
        for i in range(count):
            try:
                w = Wire(port, timeout=5, source=source(i, spread))
                w.send(frame({"t": "hello", "proto": 1, "name": f"c{i}"}))
                msg = w.next()
                seen[msg.get("code") or msg["t"]] += 1
                socks.append(w)
            except (Closed, OSError, TimeoutError) as exc:
                seen[type(exc).__name__] += 1
        if hold is not None:
            hold()
    finally:
        for w in socks:
            w.close()
    return seen


def flood_tables(port: int, count: int, game: str = "race") -> Counter:
    """Create ``count`` tables over one connection (pipelined in batches)."""
    seen: Counter = Counter()
    w = Wire(port)
    w.send(frame({"t": "hello", "proto": 1, "name": "tables"}))
    w.next()
    for start in range(0, count, 200):
        n = min(200, count - start)
        w.send(b"".join(frame({"t": "create", "id": start + i, "game": game, "seats": 2})
                        for i in range(n)))
        got = 0
        while got < n:
            msg = w.next()
            if msg["t"] in ("created", "error"):
                seen[msg.get("code") or msg["t"]] += 1
                got += 1
    w.close()
    return seen


def flood_spectators(port: int, table: str, count: int, spread: int = 1,
                     hold: Any = None) -> Counter:
    """``count`` connections that each watch ``table`` and then read nothing more;
    ``hold()`` runs while they are all connected, then they leave."""
    seen: Counter = Counter()
    wires = []
    for i in range(count):
        w = Wire(port, source=source(i, spread))
        w.send(frame({"t": "hello", "proto": 1, "name": f"s{i}"}))
        w.next()
        w.send(frame({"t": "join", "id": 1, "table": table, "spectate": True}))
        while True:
            msg = w.next()
            if msg.get("id") == 1:
                seen[msg.get("code") or msg["t"]] += 1
                break
        wires.append(w)
    if hold is not None:
        hold()
    for w in wires:
        w.close()
    return seen


def flood_partial_frames(port: int, count: int, size: int = 60_000, spread: int = 1
                         ) -> tuple[list[Wire], Counter]:
    """``count`` connections that each send hello and then half of a large frame; the
    caller closes them (or lets the frame timeout do it). Also returns the hellos'
    answers by code (``welcome``, ``too_many_connections``)."""
    wires, seen = [], Counter()
    for i in range(count):
        try:
            w = Wire(port, source=source(i, spread))
            w.send(frame({"t": "hello", "proto": 1, "name": f"p{i}"}))
            msg = w.next()
            seen[msg.get("code") or msg["t"]] += 1
            if msg["t"] != "welcome":
                w.close()
                continue
            w.send(HEADER.pack(size) + b"\x81" + b"\0" * (size // 2))
            wires.append(w)
        except (Closed, OSError, TimeoutError) as exc:
            seen[type(exc).__name__] += 1
    return wires, seen


def flood_unread(port: int, count: int, requests: int) -> list[socket.socket]:
    """``count`` connections that pipeline ``requests`` list_tables and never read."""
    socks = []
    burst = b"".join(frame({"t": "list_tables", "id": i}) for i in range(requests))
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(frame({"t": "hello", "proto": 1, "name": f"u{i}"}))
        s.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            s.send(burst)
        socks.append(s)
    return socks


# ---------------------------------------------------------------------------
# lean bots that survive host restarts (crash consistency)
# ---------------------------------------------------------------------------


class SeatBot:
    """Plays one seat of one table over raw frames; reconnects and resumes with its token
    whenever the host goes away. Decisions depend only on (seed, table, seat, seq) and
    the legal actions, so a run with restarts decides exactly as one without."""

    def __init__(self, port: int, table: str, seat: int, seed: int, pause: float = 0.0
                 ) -> None:
        self.port, self.table, self.seat, self.seed = port, table, seat, seed
        self.pause = pause  # seconds to think before each action
        self.actions = 0
        self.token: str | None = None
        self.scores: Any = None
        self.reconnects = 0
        self.error: str | None = None

    def run(self, deadline: float) -> None:
        acted = -1
        while time.monotonic() < deadline and self.scores is None:
            try:
                w = Wire(self.port, timeout=30)
            except OSError:
                time.sleep(0.05)
                continue
            try:
                hello = {"t": "hello", "proto": 1, "name": f"bot{self.seat}"}
                if self.token:
                    hello["token"] = self.token
                w.send(frame(hello))
                if w.next()["t"] != "welcome":
                    self.error = "refused"
                    return
                if self.token is None:
                    w.send(frame({"t": "join", "id": 1, "table": self.table, "seat": self.seat}))
                while True:
                    m = w.next()
                    if m["t"] == "joined":
                        self.token = m["token"]
                    elif m["t"] == "update" and m["table"] == self.table:
                        if m["status"] == "finished":
                            self.scores = m["scores"]
                            break
                        if m.get("legal") and self.seat in m["to_act"] and m["seq"] != acted:
                            rng = random.Random(f"{self.seed}/{self.seat}/{m['seq']}")
                            time.sleep(self.pause)
                            self.actions += 1
                            w.send(frame({"t": "act", "id": 2, "table": self.table,
                                          "action": rng.choice(m["legal"])}))
                            acted = m["seq"]
            except (Closed, OSError, TimeoutError):
                self.reconnects += 1
                acted = -1
                time.sleep(0.05)
            finally:
                w.close()
