"""A long-lived host (issue 28, goal 4): a journal of 100,000 finished tables and
1,000,000 actions; how long the peer takes to serve again, how fast the lobby pages
through its tables, and the journal's bytes per action. Prints JSON.

The journal is built synthetically, straight into SQLite, with the schema a peer
writes (``lantable.host.journal``): ``--tables`` finished Manila tables of 4 seats,
``--actions`` actions in all, each action and its events taken in turn from one real
seeded Manila game (so that the blobs have real sizes), interleaved as tables that
play at once would be. The build is timed but is not a figure of the host.

Then ``--runs`` times: ``lantable host`` is started as its own process on the journal
(loopback, no web, no discovery) and timed from the spawn until a client gets its
``welcome``. The first start may include a one-time upgrade of the journal (reported
apart, ``first_start_s``); the others are medians. A start on an empty journal
(``empty_start_s``) is the floor: Python, imports, the plugins.

Against the last started peer, ``--requests`` ``list_tables`` round trips, one at a
time, alternate the lobby's first page and a page of finished tables at a random
offset (``finished: true``); p50/p99 in ms. A host that does not list finished tables
ignores the field and answers its (short) list of unfinished ones.

Last, ``lantable host --compact --compact-keep N`` is timed on the same journal, and
the journal's size and bytes per action after it reported.

Usage: python bench/longlived.py [--tables N] [--actions N] [--runs R] [--keep FILE]
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

HEADER = struct.Struct(">I")
LANTABLE = str(Path(sys.executable).with_name("lantable"))


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def real_manila_actions(seed: int = 7) -> list[tuple[int, bytes, bytes]]:
    """(seat, action blob, events blob) of one seeded Manila game played by random bots."""
    from lantable.plugins import load_registry

    game = load_registry()["manila"]
    rng = random.Random(seed)
    state = game.setup(4, None, rng)
    out = []
    while game.to_act(state):
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        events = game.apply(state, seat, action, rng)
        out.append((seat, pack(action), pack(events)))
    return out


def build(path: Path, tables: int, actions: int, *, concurrent: int = 16) -> dict[str, Any]:
    """A journal of ``tables`` finished tables and ``actions`` actions (schema of today's
    lantable: the host's own Journal creates it)."""
    from lantable.host.journal import Journal

    Journal(path).close()  # the schema, as a peer writes it
    sample = real_manila_actions()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    rng = random.Random(1)
    per = actions // tables
    names = ["Ada", "Brook", "Cyd", "Dee"]
    options = pack({})
    t0 = time.time() - tables * 60.0
    k = 0
    rowid = 0
    for first in range(0, tables, concurrent):
        group = [f"{i:08x}" for i in range(first, min(first + concurrent, tables))]
        for n, tid in enumerate(group):
            db.execute("INSERT INTO tables VALUES (?, 'manila', '1', 4, ?, ?, 'finished', ?, ?)",
                       (tid, options, rng.randrange(2**62), t0 + (first + n) * 60.0, rowid + 1))
            db.executemany("INSERT INTO seats (table_id, seat, name, token) VALUES (?, ?, ?, ?)",
                           [(tid, s, names[s], os.urandom(16).hex()) for s in range(4)])
        rows = []
        for seq in range(1, per + 1):  # the group's tables take turns, as at a party
            for tid in group:
                seat, a, e = sample[k % len(sample)]
                k += 1
                rows.append((tid, seq, seat, a, e, t0))
        db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", rows)
        rowid += len(rows)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return {"tables": tables, "actions": rowid, "per_table": per}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    def __init__(self, port: int, timeout: float = 5.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def send(self, msg: dict[str, Any]) -> None:
        body = pack(msg)
        self.sock.sendall(HEADER.pack(len(body)) + body)

    def recv(self) -> dict[str, Any]:
        while True:
            if len(self.buf) >= 4:
                (n,) = HEADER.unpack_from(self.buf)
                if len(self.buf) >= 4 + n:
                    body, self.buf = self.buf[4:4 + n], self.buf[4 + n:]
                    out: dict[str, Any] = msgpack.unpackb(body, raw=False)
                    return out
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk

    def close(self) -> None:
        self.sock.close()


def start(db: Path, port: int, *extra: str) -> tuple[subprocess.Popen[bytes], float, Client]:
    """Spawn a host; seconds until a client is welcomed."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([LANTABLE, "host", "--db", str(db), "--bind", "127.0.0.1",
                             "--port", str(port), "--no-web", "--no-discovery",
                             "--no-page-bots", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the host exited ({proc.returncode})")
        try:
            client = Client(port, timeout=30.0)
        except OSError:
            time.sleep(0.005)
            continue
        client.send({"t": "hello", "proto": 1, "name": "bench", "id": 0})
        welcome = client.recv()
        if welcome.get("t") != "welcome":
            raise RuntimeError(f"no welcome: {welcome}")
        return proc, time.perf_counter() - t0, client


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def list_tables(client: Client, requests: int, finished: int) -> dict[str, Any]:
    rng = random.Random(2)
    times: dict[str, list[float]] = {"lobby": [], "finished": []}
    listed: list[int] = []
    for i in range(requests):
        msg: dict[str, Any] = {"t": "list_tables", "id": i + 1}
        kind = "finished" if i % 2 else "lobby"
        if kind == "finished":
            msg["finished"] = True
            msg["offset"] = rng.randrange(max(finished, 1))
        t0 = time.perf_counter()
        client.send(msg)
        reply = client.recv()
        times[kind].append(time.perf_counter() - t0)
        if reply.get("t") != "tables":
            raise RuntimeError(f"list_tables answered {reply}")
        if kind == "finished":
            listed.append(len(reply["tables"]))
    every = sorted(times["lobby"] + times["finished"])
    out: dict[str, Any] = {"requests": requests}
    for name, ts in (("all", every), ("lobby", sorted(times["lobby"])),
                     ("finished_pages", sorted(times["finished"]))):
        out[name] = {"p50_ms": round(statistics.median(ts) * 1000, 3),
                     "p99_ms": round(ts[max(int(len(ts) * 0.99) - 1, 0)] * 1000, 3),
                     "max_ms": round(ts[-1] * 1000, 3)}
    out["tables_per_finished_page_median"] = statistics.median(listed) if listed else 0
    return out


def listed(client: Client, tables: int, limit: float = 120.0) -> float:
    """Seconds until the host lists ``tables`` finished tables (0 for a host that lists
    none: it never will)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < limit:
        client.send({"t": "list_tables", "id": 999_999, "finished": True})
        reply = client.recv()
        if reply.get("total") is None:
            return 0.0
        if reply["total"] >= tables:
            return time.perf_counter() - t0
        time.sleep(0.05)
    raise RuntimeError(f"finished tables not listed after {limit} s")


def compact(db: Path, keep: int) -> dict[str, Any]:
    """``lantable host --compact`` with ``--compact-keep keep``, timed (the command
    compacts, then serves: it is stopped once it serves)."""
    t0 = time.perf_counter()
    proc, seconds, client = start(db, free_port(), "--compact", "--compact-keep", str(keep))
    client.close()
    stop(proc)
    con = sqlite3.connect(db)
    actions = con.execute("SELECT count(*) FROM actions").fetchone()[0]
    tables = con.execute("SELECT count(*) FROM tables").fetchone()[0]
    con.close()
    size = db.stat().st_size
    return {"keep": keep, "serves_after_s": round(seconds, 2),
            "wall_s": round(time.perf_counter() - t0, 2), "tables_left": tables,
            "actions_left": actions, "journal_bytes": size,
            "bytes_per_action": round(size / max(actions, 1), 1)}


def main() -> None:
    ap = bench_parser(__doc__)
    ap.add_argument("--tables", type=int, default=100_000, help="finished tables in the journal")
    ap.add_argument("--actions", type=int, default=1_000_000, help="actions in the journal")
    ap.add_argument("--runs", type=int, default=5, help="starts of the peer timed")
    ap.add_argument("--requests", type=int, default=2000, help="list_tables requests timed")
    ap.add_argument("--compact-keep", type=int, default=1000,
                    help="then time the compaction (lantable host with compact), keeping this many")
    ap.add_argument("--keep", type=Path, default=None,
                    help="build the journal here (and reuse it if it is there)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="lantable-longlived-"))
    try:
        db = args.keep or tmp / "journal.sqlite"
        out: dict[str, Any] = {"bench": "longlived", "machine": "2 cores, shared"}
        if not db.exists():
            t0 = time.perf_counter()
            out["journal"] = build(db, args.tables, args.actions)
            out["build_s"] = round(time.perf_counter() - t0, 2)
        work = tmp / "run.sqlite"
        shutil.copy(db, work)
        out["journal_bytes"] = work.stat().st_size
        n_actions = sqlite3.connect(work).execute("SELECT count(*) FROM actions").fetchone()[0]
        out["bytes_per_action"] = round(out["journal_bytes"] / max(n_actions, 1), 1)
        empty = tmp / "empty.sqlite"
        starts, empties = [], []
        for run in range(args.runs):  # alternating with an empty journal: the same noise
            proc, seconds, client = start(empty, free_port())
            empties.append(seconds)
            client.close()
            stop(proc)
            proc, seconds, client = start(work, free_port())
            starts.append(seconds)
            if run == 0:  # an older journal's finished tables are listed after it serves
                out["first_start_listed_after_s"] = round(listed(client, args.tables), 2)
            if run < args.runs - 1:
                client.close()
                stop(proc)
        out["empty_start_s_median"] = round(statistics.median(empties), 3)
        out["first_start_s"] = round(starts[0], 3)
        out["start_s_median"] = round(statistics.median(starts[1:] or starts), 3)
        out["start_s_all"] = [round(s, 3) for s in starts]
        out["list_tables"] = list_tables(client, args.requests, args.tables)
        client.close()
        stop(proc)
        out["journal_bytes_after_starts"] = work.stat().st_size
        try:
            out["compact"] = compact(work, args.compact_keep)
        except RuntimeError as exc:  # a lantable without --compact
            out["compact"] = {"error": str(exc)}
        print(json.dumps(out, indent=2))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
