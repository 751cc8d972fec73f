"""Network benchmark: K tables x N bot clients (N seats, 4 by default) over loopback
TCP; prints JSON.

The host runs as its own process (``lantable host``); the bots, one socket per seat
and table (``--seats 1``: one bot alone at each race table), play random legal moves
as fast as updates arrive. The bots are lean load generators, so the machine's two
cores go to the host rather than to the clients: by default bench/netbot.c (a C
program, one thread on epoll, compiled with ``cc -O2`` once per invocation into a
temporary directory), all seats in one process (``--bot-procs``: the four updates of
a move wake one process once, rather than four processes), else
(``--bots python``, or no C compiler, or it fails to compile: the report says why)
the Python bots below, raw frames on a plain epoll, one process per seat (process
``s`` holds seat ``s`` at every table); both play alike and report alike,
and the report names the bots that ran (``bots``). The C bots' costliest work is
waking up (a context switch per wake-up); ``--bot-nap-us`` lets them serve several
updates per wake-up, at a cost in measured latency (off by default). Every table always has
exactly one move in flight; a game that ends is followed by a fresh table. Measured,
after a warm-up:

- accepted actions per second over all tables;
- action-to-update latency at the acting bot (send ``act`` -> receive the update
  that includes it), p50 and p99;
- the host's peak RSS (VmHWM);
- where the CPU goes: the host's and the bots' CPU per accepted action, and how busy
  the machine's cores were (a core left idle means the host, a single thread, is the
  bottleneck). Every process's window is the same stretch of the shared monotonic
  clock; the host's CPU time is read from /proc at its start and end. CPU time per
  action is the figure that other tenants of the machine disturb least (throughput
  and latency move with their load);
- the floor: a raw msgpack echo round trip over the same loopback, same run.

Two trees compare on identical bots and seeds with ``--host-python`` (each worktree's
own venv; the runs alternate so that all see the same load). ``--profile DIR`` runs the
host under cProfile during the measured window only and reports, per accepted action,
each function's calls and time: the call counts are exact whatever the load (how many
writes, batches, legal-action listings an action costs). ``--syscalls`` counts the
host's system calls per action over the window (``perf stat`` on Linux tracepoints;
it barely slows the host, so the counts are those of an ordinary run).
``--in-process`` measures the host's request path alone, in this process: frames
decoded, routed, applied, journalled, every update encoded, and at each batch end the
commit and one write per link to /dev/null; no sockets, no trio, no bot processes, so
its CPU µs per action is the steadiest figure for comparing the host's own code.

Usage: python bench/net.py [--game race|manila] [--tables K ...] [--seats N] [--seconds S]
[--runs R] [--workers W ...] [--bots c|python] [--bot-nap-us US] [--host-python PY ...]
[--profile DIR] [--syscalls]
       python bench/net.py --in-process [--game G] [--tables K ...] [--actions N] [--batch B]

BENCH_HOST_LOG=PATH in the environment appends the host's log to PATH (default: none).
"""

from __future__ import annotations

import json
import os
import random
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import msgpack
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

OPTIONS = {"race": {"target": 10**9, "max_step": 2}, "manila": {}}
# Tables queued for games that end (Manila does), so every slot always has a game:
# about 10,000 actions' worth over all slots, far more than a run plays. A slot that
# runs dry anyway is reported (``ran_out_of_tables``) rather than counted as slow.
SPARE_TABLES = 640


# ---------------------------------------------------------------------------
# worker process: bots
# ---------------------------------------------------------------------------


def _worker(port: int, seat: int, slots: list[list[str]], measure_from: float, stop_at: float,
            seed: int) -> dict:
    """Play ``seat`` at every table slot; a slot is a list of tables played one after another.

    The bots here are load generators, so they are as lean as a client can be: one
    thread, blocking sockets behind a selector, and raw frames (a 4-byte length and a
    msgpack map, exactly as docs/protocol.md describes them for a client in another
    language). They read every update, as a real client must, but decode nothing
    they don't need: an update's top-level keys are read one by one (msgpack's
    streaming unpacker skips the values it is not asked for), and the whole update is
    decoded only when this seat must choose (its legal actions) or the message is not
    an update. ``lantable bot`` uses the trio client library instead; bench/netbot.c
    is this function in C (the default bots; same arguments, slots on stdin, same report).
    """
    import select

    rng = random.Random(seed)
    poller = select.epoll()
    by_fd: dict[int, Any] = {}
    latencies: list[float] = []
    answered = 0  # every action answered, warm-up included (the host's total, with --profile)
    ids = iter(range(1, 1 << 62))
    header = struct.Struct(">I")
    packb, unpackb = msgpack.packb, msgpack.unpackb

    def frame(msg: dict) -> bytes:
        body = packb(msg)
        return header.pack(len(body)) + body

    wanted = {"t": 0, "table": 1, "seq": 2, "status": 3, "to_act": 4}

    def peek(body: bytes) -> dict:
        """The message, or of an update that does not ask this seat to act, only the
        fields the bot reads (``t``, ``table``, ``seq``, ``status``, ``to_act``)."""
        up = msgpack.Unpacker()
        up.feed(body)
        out: dict = {}
        for _ in range(up.read_map_header()):
            key = up.unpack()
            if key in wanted:
                out[key] = up.unpack()
                if len(out) == len(wanted):
                    break
            else:
                up.skip()
        if out.get("t") != "update" or (seat in out.get("to_act", ()) and out.get(
                "status") == "playing"):
            return unpackb(body)  # it may have to choose: everything
        return out

    class Bot:
        def __init__(self, tables: list[str]) -> None:
            self.tables = list(tables)
            self.sock = socket.create_connection(("127.0.0.1", port))
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.buf = b""
            self.table = ""
            self.pending: int | None = None
            self.sent_at = 0.0
            self.sock.sendall(frame({"t": "hello", "proto": 1, "name": f"bench{seat}"}))

        def join_next(self) -> bool:
            if not self.tables:
                return False
            self.table = self.tables.pop(0)
            self.sock.sendall(frame({"t": "join", "id": next(ids), "table": self.table,
                                     "seat": seat}))
            return True

        def on_readable(self) -> bool:
            data = self.sock.recv(65536)
            if not data:
                closed.append(self.table)
                return False
            buf = self.buf + data if self.buf else data
            pos, end = 0, len(buf)
            while end - pos >= 4:
                (n,) = header.unpack_from(buf, pos)
                if end - pos - 4 < n:
                    break
                msg = peek(buf[pos + 4:pos + 4 + n])
                pos += 4 + n
                if not self.on_message(msg):
                    return False
            self.buf = buf[pos:]
            return True

        def on_message(self, msg: dict) -> bool:
            nonlocal answered
            t = msg["t"]
            if t == "welcome":
                self.join_next()
            if t != "update" or msg["table"] != self.table:
                return True
            if self.pending is not None and msg["seq"] >= self.pending:
                answered += 1
                if measure_from <= time.monotonic() < stop_at:
                    latencies.append(time.perf_counter() - self.sent_at)
                self.pending = None
            if msg["status"] == "finished":
                return self.join_next()
            legal = msg.get("legal")
            if legal and self.pending is None and msg.get("seat") == seat:
                self.pending = msg["seq"] + 1
                self.sent_at = time.perf_counter()
                self.sock.sendall(frame({"t": "act", "id": next(ids), "table": self.table,
                                         "action": rng.choice(legal), "seat": seat}))
            return True

    bots = [Bot(tables) for tables in slots]
    for bot in bots:
        by_fd[bot.sock.fileno()] = bot
        poller.register(bot.sock.fileno(), select.EPOLLIN)
    cpu_start: float | None = None
    sys_start = 0.0
    ran_dry = False
    closed: list[str] = []  # tables whose connection the host closed (not run dry)
    while time.monotonic() < stop_at:
        if cpu_start is None and time.monotonic() >= measure_from:
            cpu_start, sys_start = _own_cpu(), _own_system()
        for fd, _ in poller.poll(0.1):
            if not by_fd[fd].on_readable():
                poller.unregister(fd)
                ran_dry = True
    cpu = _own_cpu() - (cpu_start if cpu_start is not None else 0.0)
    system = _own_system() - (sys_start if cpu_start is not None else 0.0)
    for bot in bots:
        bot.sock.close()
    poller.close()
    return {"latencies": latencies, "actions": len(latencies), "answered": answered, "cpu": cpu,
            "system": system,
            "ran_dry": ran_dry, "closed": len(closed)}


def _own_cpu() -> float:
    t = os.times()
    return t.user + t.system


def _own_system() -> float:
    return os.times().system


async def _create_tables(port: int, game: str, count: int, seed: int, seats: int) -> list[str]:
    from lantable.clients.client import open_client

    async with open_client("127.0.0.1", port, name="bench") as client:
        return [await client.create(game, seats, OPTIONS.get(game), seed + i)
                for i in range(count)]


# ---------------------------------------------------------------------------
# in process: the host's request path without sockets
# ---------------------------------------------------------------------------


def _in_process(game: str, tables: int, actions: int, seed: int, seats: int,
                batch: int) -> dict[str, Any]:
    """The host's own work per action, without sockets, trio or other processes: each
    request is a frame fed to its connection (decode), routed to its table (checks,
    the game, the journal, every seat's update encoded), and every ``batch`` actions
    the peer's batch end commits the journal and writes each link's bytes to
    /dev/null. Seats pick random legal actions; only the host's calls are timed
    (process CPU time), so the figure moves little with the machine's load."""
    import dataclasses

    from lantable.host.journal import Journal
    from lantable.host.limits import DEFAULT_LIMITS
    from lantable.host.link import ClientLink
    from lantable.host.lobby import Peer
    from lantable.host.requests import route
    from lantable.plugins import load_registry
    from lantable.protocol import Connection, Welcome

    rng = random.Random(seed)
    header = struct.Struct(">I")
    packb = msgpack.packb
    ids = iter(range(1, 1 << 62))
    devnull = os.open(os.devnull, os.O_WRONLY)
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(os.path.join(tmp, "j.sqlite"))
        known = {f.name for f in dataclasses.fields(DEFAULT_LIMITS)}  # an older tree's
        limits = dataclasses.replace(DEFAULT_LIMITS, **{
            name: 1 << 20 for name in ("max_tables", "max_tables_per_client",
                                       "max_open_tables_per_client") if name in known})
        peer = Peer(registry=load_registry(), journal=journal, name="bench", limits=limits)

        def connect(name: str) -> tuple[ClientLink, Connection, set[str]]:
            conn = Connection("host", limits.max_frame, limits.max_request_bytes)
            body = msgpack.packb({"t": "hello", "proto": 1, "name": name})
            conn.receive_data(header.pack(len(body)) + body)
            conn.next_event()
            link = ClientLink(name, "127.0.0.1:1", conn, peer.batch, fd=devnull)
            link.send(Welcome(proto=1, peer=peer.peer_id, name="bench", tables=[]))
            return link, conn, set()

        def request(client: tuple[ClientLink, Connection, set[str]], msg: dict) -> None:
            link, conn, joined = client
            body = msgpack.packb(msg)
            conn.receive_data(header.pack(len(body)) + body)
            route(conn.next_event(), conn.last_frame_size, link, peer, joined)

        creator = connect("creator")
        players = [[connect(f"t{t}s{s}") for s in range(seats)] for t in range(tables)]
        slots: list[str] = [""] * tables

        def new_table(t: int) -> None:
            before = set(peer.tables)
            request(creator, {"t": "create", "id": next(ids), "game": game, "seats": seats,
                              "options": OPTIONS.get(game), "seed": seed * 1000 + next(ids)})
            (slots[t],) = set(peer.tables) - before
            for s, client in enumerate(players[t]):
                request(client, {"t": "join", "id": next(ids), "table": slots[t], "seat": s})
            peer.batch.end()

        for t in range(tables):
            new_table(t)
        # CPU time of the whole loop (a clock read costs a system call, so not one per
        # action), less the tables made when a game ends; the driver's own share (pick
        # an action, pack it) is a few µs and counts too.
        done = 0
        extra = 0.0
        clock = time.process_time
        start = clock()
        while done < actions:
            for t in range(tables):
                table = peer.table(slots[t])
                assert table is not None
                if table.status != "playing":
                    t0 = clock()
                    new_table(t)
                    extra += clock() - t0
                    table = peer.table(slots[t])
                    assert table is not None
                seat = table.g.to_act(table.state)[0]
                listed = getattr(table, "legal_now", None)  # an older tree lists afresh
                if listed is not None:
                    legal = listed(seat)  # the update listed them already: the host's cache
                else:
                    t0 = clock()
                    legal = table.g.legal_actions(table.state, seat)
                    extra += clock() - t0
                action = rng.choice(legal)
                body = packb({"t": "act", "id": next(ids), "table": slots[t], "action": action,
                              "seat": seat})
                link, conn, joined = players[t][seat]
                conn.receive_data(header.pack(len(body)) + body)
                route(conn.next_event(), conn.last_frame_size, link, peer, joined)
                done += 1
                if done % batch == 0:
                    peer.batch.end()
        cpu = clock() - start - extra
        journal.close()
    os.close(devnull)
    return {"actions": done, "batch": batch,
            "host_cpu_us_per_action": round(cpu / done * 1e6, 1)}


# ---------------------------------------------------------------------------
# the raw echo floor
# ---------------------------------------------------------------------------


def _echo_floor(rounds: int = 5000) -> dict:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]

    def serve() -> None:
        conn, _ = server.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with conn:
            while True:
                head = conn.recv(4, socket.MSG_WAITALL)
                if len(head) < 4:
                    return
                (n,) = struct.unpack(">I", head)
                body = conn.recv(n, socket.MSG_WAITALL)
                obj = msgpack.unpackb(body)
                out = msgpack.packb(obj)
                conn.sendall(struct.pack(">I", len(out)) + out)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    client = socket.create_connection(("127.0.0.1", port))
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    frame = msgpack.packb({"t": "act", "id": 1, "table": "abcd1234",
                           "action": {"type": "step", "n": 1}})
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        client.sendall(struct.pack(">I", len(frame)) + frame)
        head = client.recv(4, socket.MSG_WAITALL)
        (n,) = struct.unpack(">I", head)
        msgpack.unpackb(client.recv(n, socket.MSG_WAITALL))
        times.append(time.perf_counter() - t0)
    client.close()
    thread.join(2)
    server.close()
    times.sort()
    return {"p50_ms": round(times[len(times) // 2] * 1e3, 4),
            "p99_ms": round(times[int(len(times) * 0.99)] * 1e3, 4)}


# ---------------------------------------------------------------------------
# coordinator
# ---------------------------------------------------------------------------


def _peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _cpu_seconds(pid: int, thread: int | None = None) -> tuple[float, float]:
    """(user, system) CPU seconds of process ``pid``, all its threads (or only its
    ``thread``: the main thread's id is the pid), from /proc."""
    with open(f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def _machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies over all cores, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def _host_flags(python: str) -> list[str]:
    """The flags that let one client open every spare table (docs/limits.md), if this
    host has those limits (an older tree, run with ``--host-python``, may not), and
    turn the browser app off."""
    out = subprocess.run([python, "-m", "lantable.clients.cli", "host", "--help"],
                         capture_output=True, text=True, check=False).stdout
    # No browser app: a tree whose web port does not yield would fail to start beside
    # another host on this machine (the app takes no part in the measurement).
    flags = ["--no-web"] if "--no-web" in out else []
    for limit in ("--max-tables-per-client", "--max-open-tables-per-client", "--max-tables"):
        if f"{limit} " in out:
            flags += [limit, str(10 * SPARE_TABLES)]
    return flags


def _profiled_host(out: str, argv: list[str]) -> None:
    """Run ``lantable`` with ``argv`` under cProfile, profiling only between SIGUSR1
    (start) and SIGUSR2 (stop, and write the stats to ``out``): the measured window,
    without start-up, table creation and warm-up."""
    import cProfile
    import runpy
    import signal

    profiler = cProfile.Profile()

    def start(signum: int, frame: Any) -> None:
        profiler.enable()

    def stop(signum: int, frame: Any) -> None:
        profiler.disable()
        profiler.dump_stats(out + ".part")
        os.replace(out + ".part", out)  # whole, or not there

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv = ["lantable", *argv]
    runpy.run_module("lantable.clients.cli", run_name="__main__", alter_sys=True)


def _label(key: tuple[str, int, str]) -> str:
    """A profile entry's name without line numbers or the tree's path, so that two
    trees compare: ``host/table.py:act``, ``~:<built-in method posix.write>``."""
    filename, _, name = key
    return "/".join(filename.split("/")[-2:]) + ":" + name


def _profile_summary(path: str, actions: int, top: int) -> dict[str, Any]:
    """Per accepted action: each function's calls, own time and time with callees (µs,
    under the profiler, which roughly doubles them), the ``top`` by own time."""
    import pstats

    stats = pstats.Stats(path).stats  # type: ignore[attr-defined]
    n = max(1, actions)
    rows = sorted(stats.items(), key=lambda item: -item[1][2])
    total = sum(v[2] for v in stats.values())
    return {
        "actions": actions,
        "profiled_us_per_action": round(total / n * 1e6, 1),
        # [function, calls per action, own µs per action, cumulative µs per action]
        "top": [[_label(key), round(v[1] / n, 3), round(v[2] / n * 1e6, 2),
                 round(v[3] / n * 1e6, 2)] for key, v in rows[:top]],
    }


# System calls counted with --syscalls (Linux tracepoints, through ``perf stat``).
SYSCALLS = ("read", "write", "writev", "sendto", "recvfrom", "epoll_wait", "epoll_ctl",
            "pwrite64", "pread64", "fsync", "fdatasync", "futex")


def _start_syscall_count(pid: int) -> subprocess.Popen[str]:
    """``perf stat`` counting the system calls of ``pid`` until it gets SIGINT."""
    events = ",".join(f"syscalls:sys_enter_{name}" for name in SYSCALLS)
    return subprocess.Popen(["perf", "stat", "-x", ",", "-e", events, "-p", str(pid)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _syscall_counts(perf: subprocess.Popen[str], actions: int) -> dict[str, Any]:
    """Stop ``perf stat`` and give each system call's count per accepted action."""
    import signal

    perf.send_signal(signal.SIGINT)
    _, err = perf.communicate(timeout=10)
    out: dict[str, Any] = {}
    for line in err.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("syscalls:sys_enter_"):
            name = fields[2].removeprefix("syscalls:sys_enter_")
            if fields[0].isdigit() and int(fields[0]):
                out[name] = round(int(fields[0]) / max(1, actions), 3)
    return out or {"error": err.strip()[-300:]}


def _sleep_until(t: float) -> None:
    time.sleep(max(0.0, t - time.monotonic()))


def _host_cpu(pid: int) -> tuple[tuple[float, float], float]:
    """(user, system) CPU seconds of the host's process (the front, with --workers), and
    the CPU seconds of its worker processes together."""
    total = 0.0
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        children.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    for child in children:
        try:
            total += sum(_cpu_seconds(child))
        except OSError:  # ended meanwhile
            pass
    return _cpu_seconds(pid), total


def _build_netbot(folder: str) -> tuple[str | None, str]:
    """Compile bench/netbot.c into ``folder`` with the system's C compiler (``cc``, else
    ``gcc``) at -O2: (the program's path, "") or (None, why not)."""
    import shutil

    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None, "no C compiler (cc or gcc) on PATH"
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "netbot.c")
    exe = os.path.join(folder, "netbot")
    try:
        proc = subprocess.run([compiler, "-O2", "-o", exe, source], capture_output=True,
                              text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{compiler} failed: {exc}"
    if proc.returncode != 0:
        return None, f"{compiler} -O2 bench/netbot.c failed: {proc.stderr.strip()[-500:]}"
    return exe, ""


def _start_bots(netbot: str | None, port: int, seats: list[int], slots: list[list[str]],
                measure_from: float, stop_at: float, seed: int,
                nap_us: float = 0) -> subprocess.Popen[str]:
    """One bot process for ``seats`` at every slot: the C program ``netbot`` (slots on
    stdin, one line per seat and slot, ``@SEAT`` first; ``nap_us``: see
    bench/netbot.c), or with None this script's Python ``--worker`` (one seat). Either
    prints its report (``_worker``'s keys) as one JSON line when ``stop_at`` comes."""
    seat = seats[0]
    if netbot is None:
        assert len(seats) == 1, "a Python bot process plays one seat"
        return subprocess.Popen(
            [sys.executable, __file__, "--worker", str(port), str(seat), json.dumps(slots),
             repr(measure_from), repr(stop_at), str(seed)], stdout=subprocess.PIPE, text=True)
    with tempfile.TemporaryFile("w+") as lines:  # it reads every slot before it connects
        lines.write("".join(f"@{s} " + " ".join(tables) + "\n"
                            for tables in slots for s in seats))
        lines.seek(0)
        return subprocess.Popen([netbot, str(port), str(seat), repr(measure_from),
                                 repr(stop_at), str(seed), repr(nap_us)], stdin=lines,
                                stdout=subprocess.PIPE, text=True)


def _one_run(game: str, tables: int, seconds: float, warmup: float, seed: int,
             seats: int = 4, python: str = sys.executable, profile: str | None = None,
             top: int = 40, syscalls: bool = False, workers: int = 0,
             netbot: str | None = None, nap_us: float = 0, bot_procs: int = 1) -> dict:
    """One measured run; ``python`` runs the host (another tree's venv compares trees on
    identical bots), ``profile`` is where its cProfile stats go, if wanted, and
    ``syscalls`` counts the host's system calls, ``workers`` is the host's option,
    ``netbot`` the compiled C bots (None: the Python bots, one process per seat),
    ``nap_us`` their nap and ``bot_procs`` how many processes share the seats."""
    import signal

    with tempfile.TemporaryDirectory() as tmp:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        argv = ["host", "--bind", "127.0.0.1", "--port", str(port),
                "--db", os.path.join(tmp, "j.sqlite"), "--no-discovery", *_host_flags(python)]
        if workers:
            argv += ["--workers", str(workers)]
        cmd = ([python, __file__, "--profiled-host", profile, *argv] if profile
               else [python, "-m", "lantable.clients.cli", *argv])
        host_log = open(os.environ.get("BENCH_HOST_LOG", os.devnull), "a")  # noqa: SIM115
        host = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=host_log, text=True)
        try:
            assert "listening" in host.stdout.readline()
            import trio

            # A slot is a table followed by spares for when a game ends (Manila does).
            per_slot = 1 if game == "race" else max(2, SPARE_TABLES // tables)
            created = trio.run(_create_tables, port, game, tables * per_slot, seed, seats)
            # Slot i plays tables i, i + K, i + 2K...: a host with worker processes makes
            # tables on them in turn, so each slot's tables share a worker and the K
            # tables played at once are spread evenly (host/workers.py).
            slots = [created[i::tables] for i in range(tables)]
            # The window, in the monotonic clock every process shares.
            measure_from = time.monotonic() + warmup
            stop_at = measure_from + seconds
            # One bot process per seat: process s holds seat s of every table.
            groups = ([[s] for s in range(seats)] if netbot is None else
                      [list(range(seats))[i::bot_procs] for i in range(min(bot_procs, seats))])
            procs = [_start_bots(netbot, port, group, slots, measure_from, stop_at,
                                 seed * 10 + group[0], nap_us) for group in groups]
            _sleep_until(measure_from)
            if profile:
                host.send_signal(signal.SIGUSR1)
            perf = _start_syscall_count(host.pid) if syscalls else None
            cpu0 = _host_cpu(host.pid)
            main0 = sum(_cpu_seconds(host.pid, host.pid))
            load0 = os.getloadavg()[0]
            busy0 = _machine_busy()
            _sleep_until(stop_at)
            cpu1 = _host_cpu(host.pid)
            main_thread = sum(_cpu_seconds(host.pid, host.pid)) - main0
            user, system = (b - a for a, b in zip(cpu0[0], cpu1[0], strict=True))
            workers_cpu = cpu1[1] - cpu0[1]
            load = os.getloadavg()[0]
            busy = [b - a for a, b in zip(busy0, _machine_busy(), strict=True)]
            if profile:
                host.send_signal(signal.SIGUSR2)
            results = [json.loads(p.communicate()[0]) for p in procs]
            if perf is not None:
                counts = _syscall_counts(perf, sum(r["actions"] for r in results))
            rss = _peak_rss_mb(host.pid)
            for _ in range(100):  # the host writes its profile on SIGUSR2 (bounded wait)
                if not profile or os.path.exists(profile):
                    break
                time.sleep(0.1)
        finally:
            host.terminate()
            host.wait()
            host_log.close()
    lat = sorted(x for r in results for x in r["latencies"])
    actions = sum(r["actions"] for r in results)
    out = {
        "bots": "python" if netbot is None else "c",
        # The C bots' nap after each wake-up (--bot-nap-us; latencies include it).
        "bot_nap_us": 0 if netbot is None else nap_us,
        # How many bot processes played the seats (the Python bots: one per seat).
        "bot_procs": len(procs),
        "actions_per_s": round(actions / seconds, 1),
        "p50_ms": round(lat[len(lat) // 2] * 1e3, 3) if lat else None,
        "p99_ms": round(lat[int(len(lat) * 0.99)] * 1e3, 3) if lat else None,
        "host_peak_rss_mb": round(rss, 1),
        # Host CPU (user+system, all threads and worker processes, /proc in clock ticks)
        # per accepted action, over the measured window only.
        "host_cpu_us_per_action": round((user + system + workers_cpu) / max(1, actions) * 1e6,
                                        1),
        # Of that, the CPU of the (front's) trio thread, which runs every table: the
        # rest is the socket writer thread's (host/_sender.c) and the workers'.
        "host_main_thread_us_per_action": round(main_thread / max(1, actions) * 1e6, 1),
        # With --workers: the front's share of that (it only accepts and hands over).
        "front_cpu_us_per_action": round((user + system) / max(1, actions) * 1e6, 1),
        # The kernel's share of the front's (system calls: socket reads and writes, epoll,
        # the journal's file writes).
        "host_system_pct": round(100 * system / max(1e-9, user + system), 1),
        # The bot processes together, measured window only.
        "bots_cpu_us_per_action": round(sum(r["cpu"] for r in results) / max(1, actions) * 1e6, 1),
        # The kernel's share of the bots' (their socket reads and writes, epoll).
        "bots_system_pct": round(100 * sum(r.get("system", 0.0) for r in results)
                                 / max(1e-9, sum(r["cpu"] for r in results)), 1),
        # Share of all cores busy (anything, other tenants included), measured window.
        "machine_busy_pct": round(100 * busy[0] / max(1e-9, busy[1]), 1),
        # The machine's 1-minute load average at the run's start and end (other tenants).
        "load_avg": [round(load0, 1), round(load, 1)],
        "samples": len(lat),
        # True if a slot ran out of tables before the end: the run undercounts.
        "ran_out_of_tables": any(r["ran_dry"] for r in results),
        # Of those, connections the host closed (a slot then stops playing).
        "closed_by_host": sum(r["closed"] for r in results),
    }
    if profile:
        out["profile"] = _profile_summary(profile, actions, top)
    if perf is not None:
        out["syscalls_per_action"] = counts
    return out


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        port, seat, slots, measure_from, stop_at, seed = sys.argv[2:8]
        out = _worker(int(port), int(seat), json.loads(slots), float(measure_from),
                      float(stop_at), int(seed))
        print(json.dumps(out))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--profiled-host":
        _profiled_host(sys.argv[2], sys.argv[3:])
        return
    parser = bench_parser(__doc__)
    parser.add_argument("--game", default="race", help="the game the bots play (race or manila)")
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 16],
                        help="table counts to measure, one configuration each")
    parser.add_argument("--seconds", type=float, default=8.0,
                        help="seconds measured per run, after the warm-up")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds played before measuring")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs per configuration; medians reported")
    parser.add_argument("--seed", type=int, default=1, help="the tables' and bots' seed")
    parser.add_argument("--seats", type=int, default=4,
                        help="seats per table, one bot process each (race: 1-8, manila: 3-5)")
    parser.add_argument("--host-python", nargs="+", default=[sys.executable], metavar="PYTHON",
                        help="the Python (a venv's) that runs the host; several alternate run "
                             "by run, same bots and seeds, reported under by_host (compare "
                             "two trees: each worktree's own .venv/bin/python; default: this one)")
    parser.add_argument("--profile", metavar="DIR", default=None,
                        help="run the host under cProfile during the measured window only and "
                             "report each function's calls and µs per action (the profiler "
                             "slows the host: its throughput is not comparable); the .prof "
                             "files are kept in DIR")
    parser.add_argument("--syscalls", action="store_true",
                        help="count the host's system calls per action during the measured "
                             "window (needs perf and tracepoint access, e.g. root)")
    parser.add_argument("--in-process", action="store_true",
                        help="measure the host's request path in this process, without sockets "
                             "(see the description): CPU µs per action")
    parser.add_argument("--actions", type=int, default=6000,
                        help="actions per run, in process")
    parser.add_argument("--batch", type=int, default=1,
                        help="actions per batch end (commit and writes), in process")
    parser.add_argument("--top", type=int, default=40,
                        help="functions listed per profile, by own time")
    parser.add_argument("--workers", type=int, nargs="+", default=[0],
                        help="worker processes of the host, default 0 (one process): its "
                             "workers option; several values run alternately, run by run, "
                             "reported side by side")
    parser.add_argument("--bots", choices=("c", "python"), default="c",
                        help="the bot processes: c (bench/netbot.c, compiled once per run of "
                             "this script; if no compiler is found or it fails, python "
                             "instead and the report says why) or python (this script's own "
                             "bot loop); default: c")
    parser.add_argument("--bot-nap-us", type=float, default=0.0,
                        help="the C bots, after each wake-up that found a socket ready, "
                             "sleep this many µs so that one wake-up serves several updates: "
                             "less bot CPU per action, but every latency then includes up to "
                             "that delay, and every move waits for it (for many tables only; "
                             "0: never)")
    parser.add_argument("--bot-procs", type=int, default=1,
                        help="how many processes the C bots' seats are dealt over (1: one "
                             "process plays every seat, so the updates of one move wake it "
                             "once, not once per seat; the Python bots always run one "
                             "process per seat)")
    args = parser.parse_args()
    if args.bot_procs < 1:
        parser.error("--bot-procs must be 1 or more")
    if args.in_process:
        report = {"bench": "net", "in_process": True, "game": args.game, "seats": args.seats}
        for k in args.tables:
            runs = [_in_process(args.game, k, args.actions, args.seed + r, args.seats, args.batch)
                    for r in range(args.runs)]
            report[f"tables_{k}"] = _summary(runs)
        print(json.dumps(report, indent=2))
        return
    report: dict[str, Any] = {"bench": "net", "game": args.game, "seats": args.seats,
                              "seconds": args.seconds,
                              "runs": args.runs, "cpus": os.cpu_count(),
                              "echo_floor": _echo_floor()}
    if args.profile:
        os.makedirs(args.profile, exist_ok=True)
        report["profiled"] = True
    pythons = args.host_python
    by_host: dict[str, dict[str, Any]] = {py: {} for py in pythons}
    build = tempfile.TemporaryDirectory(prefix="lantable-netbot-")
    netbot = None
    if args.bots == "c":
        netbot, why = _build_netbot(build.name)
        if netbot is None:
            report["bots_fallback"] = f"python bots: {why}"
    report["bots"] = "python" if netbot is None else "c"
    for k in args.tables:
        runs: dict[tuple[str, int], list[dict[str, Any]]] = {
            (py, w): [] for py in pythons for w in args.workers}
        for r in range(args.runs):
            # Alternating (host 0, host 1, ..., each worker count): a noisy neighbour hits
            # every setting alike.
            for i, py in enumerate(pythons):
                for w in args.workers:
                    prof = None if not args.profile else os.path.join(
                        os.path.abspath(args.profile),
                        f"{args.game}-{k}-host{i}-workers{w}-run{r}.prof")
                    runs[py, w].append(_one_run(args.game, k, args.seconds, args.warmup,
                                                args.seed + r, args.seats, py, prof, args.top,
                                                args.syscalls, w, netbot,
                                                args.bot_nap_us, args.bot_procs))
        for (py, w), done in runs.items():
            name = f"tables_{k}" if args.workers == [0] else f"tables_{k}_workers_{w}"
            by_host[py][name] = _summary(done)
    if len(pythons) == 1:
        report |= by_host[pythons[0]]
    else:
        report["by_host"] = by_host
    build.cleanup()
    print(json.dumps(report, indent=2))


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians of the runs' figures (a flag: any run's; a name: the runs' distinct names
    joined), and every run as it was."""
    plain = [key for key in runs[0] if runs[0][key] is not None
             and key not in ("profile", "syscalls_per_action", "load_avg")]
    return {key: any(r[key] for r in runs) if isinstance(runs[0][key], bool)
            else ",".join(sorted({r[key] for r in runs})) if isinstance(runs[0][key], str)
            else statistics.median(r[key] for r in runs) for key in plain} | {"all_runs": runs}


if __name__ == "__main__":
    main()
