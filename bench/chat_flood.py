"""A chat flood against a real ``lantable host`` process on loopback; prints JSON.

One connection sends chat lines at a table as fast as the socket takes them (frames
written back to back, never waiting for an answer); meanwhile a second player at the
same table pings the host every 10 ms and chats once a second. Measured: how many
lines the flooder got accepted and refused (``too_fast``), how fast the host refused
them, the other player's ping round trip (idle, then during the flood: p50, p99,
max), whether every line of the other player was answered, how many of the flood's
lines reached the other player (only the accepted ones may), and the journal's
chat rows afterwards.

Usage: python bench/chat_flood.py [--lines N]
"""

from __future__ import annotations

import json
import socket
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import msgpack
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder


def frame(obj: dict) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


class Conn:
    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.buf = b""
        self.send({"t": "hello", "proto": 1, "name": name})
        assert self.read()["t"] == "welcome"

    def send(self, obj: dict) -> None:
        self.sock.sendall(frame(obj))

    def read(self) -> dict:
        while True:
            if len(self.buf) >= 4:
                (n,) = struct.unpack(">I", self.buf[:4])
                if len(self.buf) >= 4 + n:
                    body, self.buf = self.buf[4:4 + n], self.buf[4 + n:]
                    return msgpack.unpackb(body, raw=False)
            data = self.sock.recv(65536)
            if not data:
                raise EOFError
            self.buf += data

    def until(self, want) -> dict:
        while True:
            msg = self.read()
            if want(msg):
                return msg


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pings(conn: Conn, count: int, seen: list[dict]) -> list[float]:
    rtts = []
    for i in range(count):
        t0 = time.perf_counter()
        conn.send({"t": "ping", "id": 10_000 + i})
        while True:
            msg = conn.read()
            if msg.get("t") == "pong" and msg.get("id") == 10_000 + i:
                break
            seen.append(msg)
        rtts.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.01)
    return rtts


def summary(rtts: list[float]) -> dict:
    rtts = sorted(rtts)
    return {"p50_ms": round(statistics.median(rtts), 3),
            "p99_ms": round(rtts[int(len(rtts) * 0.99) - 1], 3), "max_ms": round(rtts[-1], 3)}


def main() -> None:
    ap = bench_parser(__doc__)
    ap.add_argument("--lines", type=int, default=20_000, help="chat lines the flooder sends")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    db = folder / "journal.sqlite"
    port = free_port()
    host = subprocess.Popen([sys.executable, "-m", "lantable.clients.cli", "host", "--bind",
                             "127.0.0.1", "--port", str(port), "--db", str(db),
                             "--no-discovery", "--no-web"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert "listening on" in host.stdout.readline()
        opener = Conn(port, "opener")
        opener.send({"t": "create", "id": 1, "game": "race", "seats": 2,
                     "options": {"target": 1000}})
        table = opener.until(lambda m: m.get("id") == 1)["table"]
        flooder, other = Conn(port, "flood"), Conn(port, "other")
        for i, c in enumerate((flooder, other)):
            c.send({"t": "join", "id": 2, "table": table, "seat": i})
            assert c.until(lambda m: m.get("id") == 2 and m["t"] != "update")["t"] == "joined"
        seen: list[dict] = []
        idle = pings(other, 200, seen)
        answers: dict[str, int] = {}

        def flood() -> None:
            data = b"".join(frame({"t": "chat", "id": 100 + i, "table": table,
                                   "text": f"flood {i} " + "x" * 100})
                            for i in range(args.lines))
            t0 = time.perf_counter()
            flooder.sock.sendall(data)
            got = 0
            while got < args.lines:
                msg = flooder.read()
                if msg.get("id", 0) >= 100 and msg["t"] in ("chat_message", "error"):
                    key = msg["t"] if msg["t"] == "chat_message" else msg["code"]
                    answers[key] = answers.get(key, 0) + 1
                    got += 1
            answers["seconds"] = time.perf_counter() - t0  # type: ignore[assignment]

        thread = threading.Thread(target=flood)
        thread.start()
        during = pings(other, 200, seen)
        other.send({"t": "chat", "id": 3, "table": table, "text": "please stop"})
        mine = other.until(lambda m: m.get("id") == 3)
        thread.join()
        seconds = answers.pop("seconds")
        flood_seen = sum(1 for m in seen if m.get("t") == "chat_message" and m["name"] == "flood")
    finally:
        host.terminate()
        host.wait(timeout=10)
    rows = sqlite3.connect(db).execute("SELECT count(*) FROM chat").fetchone()[0]
    print(json.dumps({
        "lines_sent": args.lines, "answers": answers,
        "refusals_per_second": round(answers.get("too_fast", 0) / seconds),
        "flood_seconds": round(seconds, 3),
        "other_ping_idle": summary(idle), "other_ping_during_flood": summary(during),
        "other_line_answered": mine["t"], "flood_lines_the_other_received": flood_seen,
        "journal_chat_rows": rows,
    }, indent=1))


if __name__ == "__main__":
    main()
