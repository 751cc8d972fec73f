"""Network benchmark: K tables x N bot clients (N seats, 4 by default) over loopback
TCP; prints JSON.

The host runs as its own process (``lantable host``); the bots run in N separate
processes, one per seat (``--seats 1``: one bot alone at each race table): process ``s``
holds seat ``s`` at every table and plays random legal moves as fast as updates arrive.
The bots are lean load generators (a selector loop over the sans-IO protocol), so the
machine's two cores go to the host rather than to the clients. Every table always has
exactly one move in flight; a game that ends is followed by a fresh table. Measured,
after a warm-up:

- accepted actions per second over all tables;
- action-to-update latency at the acting bot (send ``act`` -> receive the update
  that includes it), p50 and p99;
- the host's peak RSS (VmHWM);
- where the CPU goes: the host's and the bots' CPU per accepted action, and how busy
  the machine's cores were (a core left idle means the host, a single thread, is the
  bottleneck);
- the floor: a raw msgpack echo round trip over the same loopback, same run.

Usage: python bench/net.py [--game race|manila] [--tables K ...] [--seats N] [--seconds S]
[--runs R] [--workers W ...]

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


def _worker(port: int, seat: int, slots: list[list[str]], seconds: float, warmup: float,
            seed: int) -> dict:
    """Play ``seat`` at every table slot; a slot is a list of tables played one after another.

    The bots here are load generators, so they are as lean as a client can be: one
    thread, blocking sockets behind a selector, and raw frames (a 4-byte length and a
    msgpack map, exactly as docs/protocol.md describes them for a client in another
    language). They read every update, as a real client must, but decode nothing
    they don't need. ``lantable bot`` uses the trio client library instead.
    """
    import selectors

    rng = random.Random(seed)
    sel = selectors.DefaultSelector()
    latencies: list[float] = []
    start = time.monotonic()
    measure_from, stop_at = start + warmup, start + warmup + seconds
    ids = iter(range(1, 1 << 62))
    header = struct.Struct(">I")
    packb, unpackb = msgpack.packb, msgpack.unpackb

    def frame(msg: dict) -> bytes:
        body = packb(msg)
        return header.pack(len(body)) + body

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
                msg = unpackb(buf[pos + 4:pos + 4 + n])
                pos += 4 + n
                if not self.on_message(msg):
                    return False
            self.buf = buf[pos:]
            return True

        def on_message(self, msg: dict) -> bool:
            t = msg["t"]
            if t == "welcome":
                self.join_next()
            if t != "update" or msg["table"] != self.table:
                return True
            if self.pending is not None and msg["seq"] >= self.pending:
                if time.monotonic() >= measure_from:
                    latencies.append(time.perf_counter() - self.sent_at)
                self.pending = None
            if msg["status"] == "finished":
                return self.join_next()
            legal = msg.get("legal")
            if legal and self.pending is None and msg["seat"] == seat:
                self.pending = msg["seq"] + 1
                self.sent_at = time.perf_counter()
                self.sock.sendall(frame({"t": "act", "id": next(ids), "table": self.table,
                                         "action": rng.choice(legal), "seat": seat}))
            return True

    bots = [Bot(tables) for tables in slots]
    for bot in bots:
        sel.register(bot.sock, selectors.EVENT_READ, bot)
    cpu_start: float | None = None
    ran_dry = False
    closed: list[str] = []  # tables whose connection the host closed (not run dry)
    while time.monotonic() < stop_at:
        if cpu_start is None and time.monotonic() >= measure_from:
            cpu_start = _own_cpu()
        for key, _ in sel.select(timeout=0.1):
            if not key.data.on_readable():
                sel.unregister(key.fileobj)
                ran_dry = True
    cpu = _own_cpu() - (cpu_start if cpu_start is not None else 0.0)
    for bot in bots:
        bot.sock.close()
    return {"latencies": latencies, "actions": len(latencies), "cpu": cpu, "ran_dry": ran_dry,
            "closed": len(closed)}


def _own_cpu() -> float:
    t = os.times()
    return t.user + t.system


async def _create_tables(port: int, game: str, count: int, seed: int, seats: int) -> list[str]:
    from lantable.clients.client import open_client

    async with open_client("127.0.0.1", port, name="bench") as client:
        return [await client.create(game, seats, OPTIONS.get(game), seed + i)
                for i in range(count)]


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


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies over all cores, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def _host_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of the host's process (the front, with --workers) and of its worker
    processes together."""
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
            total += _cpu_seconds(child)
        except OSError:  # ended meanwhile
            pass
    return _cpu_seconds(pid), total


def _one_run(game: str, tables: int, seconds: float, warmup: float, seed: int,
             seats: int = 4, workers: int = 0) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        host_log = open(os.environ.get("BENCH_HOST_LOG", os.devnull), "a")  # noqa: SIM115
        host = subprocess.Popen(
            [sys.executable, "-m", "lantable.clients.cli", "host", "--bind", "127.0.0.1",
             "--port", str(port), "--db", os.path.join(tmp, "j.sqlite"), "--no-discovery",
             # one client opens every spare table (docs/limits.md)
             "--max-tables-per-client", str(10 * SPARE_TABLES),
             "--max-open-tables-per-client", str(10 * SPARE_TABLES), "--max-tables",
             str(10 * SPARE_TABLES), "--workers", str(workers)],
            stdout=subprocess.PIPE, stderr=host_log, text=True)
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
            # One bot process per seat: process s holds seat s of every table.
            procs = [subprocess.Popen(
                [sys.executable, __file__, "--worker", str(port), str(seat), json.dumps(slots),
                 str(seconds), str(warmup), str(seed * 10 + seat)],
                stdout=subprocess.PIPE, text=True) for seat in range(seats)]
            cpu0 = _host_cpu(host.pid)
            load0 = os.getloadavg()[0]
            busy0 = _machine_busy()
            results = [json.loads(p.communicate()[0]) for p in procs]
            cpu1 = _host_cpu(host.pid)
            front_cpu, workers_cpu = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
            host_cpu = front_cpu + workers_cpu
            load = os.getloadavg()[0]
            busy = [b - a for a, b in zip(busy0, _machine_busy(), strict=True)]
            rss = _peak_rss_mb(host.pid)
        finally:
            host.terminate()
            host.wait()
            host_log.close()
    lat = sorted(x for r in results for x in r["latencies"])
    actions = sum(r["actions"] for r in results)
    return {
        "actions_per_s": round(actions / seconds, 1),
        "p50_ms": round(lat[len(lat) // 2] * 1e3, 3) if lat else None,
        "p99_ms": round(lat[int(len(lat) * 0.99)] * 1e3, 3) if lat else None,
        "host_peak_rss_mb": round(rss, 1),
        # Host CPU (user+system) per accepted action over the whole run, warm-up included.
        "host_cpu_us_per_action": round(
            host_cpu / max(1, actions) * 1e6 * seconds / (seconds + warmup), 1),
        # With --workers: the front's share of that (it only accepts and hands over).
        "front_cpu_us_per_action": round(
            front_cpu / max(1, actions) * 1e6 * seconds / (seconds + warmup), 1),
        # The bot processes together, measured window only.
        "bots_cpu_us_per_action": round(sum(r["cpu"] for r in results) / max(1, actions) * 1e6, 1),
        # Share of all cores busy (anything, other tenants included), warm-up included.
        "machine_busy_pct": round(100 * busy[0] / max(1e-9, busy[1]), 1),
        # The machine's 1-minute load average at the run's start and end (other tenants).
        "load_avg": [round(load0, 1), round(load, 1)],
        "samples": len(lat),
        # True if a slot ran out of tables before the end: the run undercounts.
        "ran_out_of_tables": any(r["ran_dry"] for r in results),
        # Of those, connections the host closed (a slot then stops playing).
        "closed_by_host": sum(r["closed"] for r in results),
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        port, seat, slots, seconds, warmup, seed = sys.argv[2:8]
        out = _worker(int(port), int(seat), json.loads(slots), float(seconds), float(warmup),
                      int(seed))
        print(json.dumps(out))
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
    parser.add_argument("--workers", type=int, nargs="+", default=[0],
                        help="worker processes of the host, default 0 (one process): its "
                             "workers option; several values run alternately, run by run, "
                             "reported side by side")
    args = parser.parse_args()
    report: dict[str, Any] = {"bench": "net", "game": args.game, "seats": args.seats,
                              "seconds": args.seconds,
                              "runs": args.runs, "cpus": os.cpu_count(),
                              "echo_floor": _echo_floor()}
    for k in args.tables:
        # Alternating runs (w0, w2, w0, w2, ...): a noisy neighbour hits every setting.
        by_workers: dict[int, list[dict]] = {w: [] for w in args.workers}
        for r in range(args.runs):
            for w in args.workers:
                by_workers[w].append(_one_run(args.game, k, args.seconds, args.warmup,
                                              args.seed + r, args.seats, w))
        for w, runs in by_workers.items():
            name = f"tables_{k}" if args.workers == [0] else f"tables_{k}_workers_{w}"
            report[name] = {
                key: any(r[key] for r in runs) if isinstance(runs[0][key], bool)
                else statistics.median(r[key] for r in runs)
                for key in runs[0] if runs[0][key] is not None and key != "load_avg"
            } | {"all_runs": runs}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
