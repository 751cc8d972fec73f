"""bench/netbot.c, the net bench's bots in C: compiled as bench/net.py compiles it, it
plays a real host (race and Manila tables, beside the Python bot at the same tables and
with the same report), its msgpack skipper agrees with Python's msgpack on valid,
truncated and mutated bodies, and hostile frames from a fake host end only their own
socket, counted, never a crash. Skipped without a C compiler."""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import msgpack
import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="no C compiler")


@pytest.fixture(scope="module")
def net() -> ModuleType:
    sys.path.insert(0, str(BENCH))  # bench/net.py imports bench/_help.py
    try:
        spec = importlib.util.spec_from_file_location("bench_net", BENCH / "net.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


@pytest.fixture(scope="module")
def netbot(net: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> str:
    exe, why = net._build_netbot(str(tmp_path_factory.mktemp("netbot")))
    assert exe is not None, why
    return str(exe)


def _frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


# ---------------------------------------------------------------------------
# against a real host
# ---------------------------------------------------------------------------


def test_c_bots_play_race_and_manila_beside_the_python_bot(net: ModuleType, netbot: str,
                                                           tmp_path: Path) -> None:
    import trio

    from lantable.clients.client import open_client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    host = subprocess.Popen(
        [sys.executable, "-m", "lantable.clients.cli", "host", "--bind", "127.0.0.1", "--port",
         str(port), "--db", str(tmp_path / "j.sqlite"), "--no-discovery",
         *net._host_flags(sys.executable)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True)
    try:
        assert host.stdout is not None and "listening" in host.stdout.readline()

        async def create() -> list[str]:
            async with open_client("127.0.0.1", port, name="t") as client:
                race = [await client.create("race", 3, net.OPTIONS["race"], i) for i in range(2)]
                # Spares: a Manila game may end within the run.
                manila = [await client.create("manila", 3, None, 10 + i) for i in range(40)]
                return race + manila

        tables = trio.run(create)
        slots = [[tables[0]], [tables[1]], tables[2:]]
        measure_from = time.monotonic() + 0.3
        stop_at = measure_from + 1.2
        # Seats 0 and 1: the C bots, one process for both (it naps after each wake-up);
        # seat 2: the Python bot, at the same tables.
        procs = [net._start_bots(netbot, port, [0, 1], slots, measure_from, stop_at, 1, 200),
                 net._start_bots(None, port, [2], slots, measure_from, stop_at, 2, 0)]
        reports = [json.loads(p.communicate(timeout=30)[0]) for p in procs]

        async def seqs() -> dict[str, int]:
            async with open_client("127.0.0.1", port, name="t") as client:
                return {t["id"]: t["seq"] for t in await client.list_tables()}

        played = trio.run(seqs)
    finally:
        host.terminate()
        host.wait()
    assert all(p.returncode == 0 for p in procs)
    python_keys = set(reports[1])
    for report in reports[:1]:
        assert set(report) == python_keys
        assert report["actions"] > 0 and report["answered"] >= report["actions"]
        assert report["actions"] == len(report["latencies"])
        assert all(isinstance(x, float) and x > 0 for x in report["latencies"])
        assert report["ran_dry"] is False and report["closed"] == 0, report | {"latencies": 0}
        assert report["cpu"] >= report["system"] >= 0
    assert reports[1]["actions"] > 0 and not reports[1]["ran_dry"]
    # Every seat took turns, both the C process's seats among them (a race table's
    # seats act in turn: 3 actions need seats 0, 1 and 2).
    assert played[tables[0]] >= 3 and played[tables[1]] >= 3
    assert any(played.get(t, 0) > 0 for t in tables[2:])  # a finished one may be unlisted


# ---------------------------------------------------------------------------
# the msgpack skipper against Python's msgpack
# ---------------------------------------------------------------------------


def _random_object(rng: random.Random, depth: int = 0) -> Any:
    """Every msgpack type and length class; lengths over 16 bits only near the top."""
    big = 65536 if depth < 2 else 300
    kind = rng.randrange(12 if depth < 4 else 9)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, 1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**64 - 1,
                           -1, -32, -33, -128, -129, -32768, -32769, -(2**31), -(2**31) - 1,
                           -(2**63)])
    if kind == 2:
        return rng.choice([0.5, -1e300, 1.0])
    if kind == 3:
        return "x" * rng.choice([0, 1, 31, 32, 255, 256, big])
    if kind == 4:
        return bytes(rng.choice([0, 1, 255, 256, big]))
    if kind == 5:
        return msgpack.ExtType(rng.randrange(128), bytes(rng.choice([1, 2, 4, 8, 16, 0, 3, 300,
                                                                     big])))
    if kind == 6:
        return msgpack.ExtType(rng.randrange(128), b"")
    if kind in (7, 8):
        return rng.randrange(-(2**31), 2**31)
    if kind in (9, 10):
        return [_random_object(rng, depth + 1) for _ in range(rng.choice([0, 1, 3, 15, 16, 17]))]
    return {f"k{i}": _random_object(rng, depth + 1) for i in range(rng.choice([0, 1, 15, 16, 20]))}


def _python_accepts(body: bytes) -> bool:
    try:
        msgpack.unpackb(body, raw=True, strict_map_key=False, object_pairs_hook=list,
                        ext_hook=lambda code, data: (code, data))  # any type, reserved too
    except ValueError as exc:
        # Ext type -1 is a timestamp to Python, checked for its length; to the skipper
        # it is an ext like any other (the host never sends one).
        return "timestamp" in str(exc)
    except Exception:
        return False
    return True


def test_the_skipper_agrees_with_python_msgpack(netbot: str) -> None:
    rng = random.Random(5)
    bodies: list[bytes] = [b"", b"\xc1", b"\xdf\xff\xff\xff\xff", b"\xdd\x00\x00\x00\x01",
                           b"\xdb\xff\xff\xff\xff", b"\xc9\x00\x00\x00\x01", b"\xc0\xc0",
                           b"\x91" * 500 + b"\xc0"]
    for _ in range(300):
        whole = msgpack.packb(_random_object(rng))
        bodies.append(whole)
        bodies.append(whole[:rng.randrange(len(whole))])  # truncated
        bodies.append(whole + b"\xc0")  # trailing bytes
        mutated = bytearray(whole)
        for _ in range(rng.randrange(1, 4)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        bodies.append(bytes(mutated))
    proc = subprocess.run([netbot, "--check"], input=b"".join(map(_frame, bodies)),
                          capture_output=True, timeout=60, check=True)
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == len(bodies)
    wrong = [(body[:40], line) for body, line in zip(bodies, lines, strict=True)
             if (line.split()[0] == "ok") != _python_accepts(body)]
    assert not wrong
    assert lines[7] == "ok"  # the 500 nested arrays: well formed, but not a map
    deep = b"\x81\xa1x" + b"\x91" * 200_000 + b"\xc0"  # no recursion: no stack to overflow
    proc = subprocess.run([netbot, "--check"], input=_frame(deep), capture_output=True,
                          timeout=60, check=True)
    assert proc.stdout.decode().split() == ["ok", "map"]


# ---------------------------------------------------------------------------
# hostile frames from a fake host
# ---------------------------------------------------------------------------

GOOD_UPDATE = {"t": "update", "table": "good", "seq": 3, "status": "playing", "seat": 0,
               "to_act": [0], "view": {"a": [1.5, None, b"\x00", {"b": -(2**40)}]},
               "legal": [{"type": "step", "n": 1},
                         {"type": "x", "v": [0.25, "s" * 40, msgpack.ExtType(5, b"ab")]}]}

# Table id -> the frames (whole, with their length) the fake host sends after the join.
# Every one but "good" and "other" is malformed and must end that socket alone.
HOSTILE = {
    "good": _frame(msgpack.packb(GOOD_UPDATE)),
    "other": _frame(msgpack.packb({"t": "update", "table": "zzz", "deep": [[[[[]]]]],
                                   "f": msgpack.ExtType(1, b"12345678")})),
    "big": struct.pack(">I", (1 << 20) + 1) + b"\x80",
    "trunc": _frame(msgpack.packb({"t": "update", "table": "trunc", "seq": 1})[:-2]),
    "trail": _frame(msgpack.packb({"t": "update"}) + b"\xc0"),
    "array": _frame(msgpack.packb(["t", "update"])),
    "no_t": _frame(msgpack.packb({"x": 1})),
    "count": _frame(b"\xdf\xff\xff\xff\xff\xa1t"),
    "c1": _frame(b"\x81\xa1t\xc1"),
    "seq": _frame(msgpack.packb({"t": "update", "table": "seq", "seq": "1",
                                 "status": "playing"})),
    # A slot of two tables: the first one's end moves the bot to the second.
    "fin1": _frame(msgpack.packb({"t": "update", "table": "fin1", "seq": 9,
                                  "status": "finished", "seat": 0})),
    "fin2": _frame(msgpack.packb({"t": "error", "code": "x"})),
}
SLOTS = [table for table in HOSTILE if table != "fin2"]


def _fake_host(listener: socket.socket, seen: dict[str, list[dict]]) -> None:
    """Welcome each connection, read its join, send its table's frames, answer an act
    with the update that includes it, and keep what it sends until it closes."""

    def serve(conn: socket.socket) -> None:
        conn.settimeout(10)
        got: list[dict] = []
        buf = b""
        table = None
        with conn:
            while data := conn.recv(65536):
                buf += data
                while len(buf) >= 4 and len(buf) >= 4 + struct.unpack(">I", buf[:4])[0]:
                    n = struct.unpack(">I", buf[:4])[0]
                    msg = msgpack.unpackb(buf[4:4 + n])
                    buf = buf[4 + n:]
                    got.append(msg)
                    if msg["t"] == "hello":
                        conn.sendall(_frame(msgpack.packb({"t": "welcome", "proto": 1})))
                    elif msg["t"] == "join":
                        table = msg["table"]
                        seen[table] = got
                        conn.sendall(HOSTILE[table])
                    elif msg["t"] == "act" and table == "good":
                        conn.sendall(_frame(msgpack.packb(
                            {"t": "update", "table": "good", "seq": 4, "status": "playing",
                             "seat": 0})))

    threads = []
    for _ in SLOTS:
        conn, _ = listener.accept()
        thread = threading.Thread(target=serve, args=(conn,), daemon=True)
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join(15)


def test_bad_arguments_are_refused(netbot: str) -> None:
    for args in (["1", "0", "0", "1", "7", "-5"], ["0", "0", "0", "1", "7"],
                 ["1", "x", "0", "1", "7"], ["1", "0", "0", "nan", "7"], ["1", "0"]):
        proc = subprocess.run([netbot, *args], input="t\n", capture_output=True, text=True,
                              timeout=10)
        assert proc.returncode == 2 and proc.stderr.startswith(("netbot:", "usage:")), args
    proc = subprocess.run([netbot, "1", "0", "0", "1", "7"], input="x" * 300 + "\n",
                          capture_output=True, text=True, timeout=10)
    assert proc.returncode == 2 and "table id over" in proc.stderr
    for line in ("@x t", "@-1 t", "@1001 t", "@ t"):  # a slot's own seat
        proc = subprocess.run([netbot, "1", "0", "0", "1", "7"], input=line + "\n",
                              capture_output=True, text=True, timeout=10)
        assert proc.returncode == 2 and "bad slot seat" in proc.stderr, line


def test_hostile_frames_end_their_socket_only(netbot: str) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(len(SLOTS))
        seen: dict[str, list[dict]] = {}
        server = threading.Thread(target=_fake_host, args=(listener, seen), daemon=True)
        server.start()
        now = time.monotonic()
        proc = subprocess.run(
            [netbot, str(listener.getsockname()[1]), "0", repr(now), repr(now + 1.0), "7"],
            input="".join(f"{table}\n" for table in SLOTS).replace("fin1", "fin1 fin2"),
            capture_output=True, text=True,
            timeout=30)
        server.join(15)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    malformed = len(HOSTILE) - 4
    assert report["closed"] == malformed and report["ran_dry"] is True, proc.stderr
    assert proc.stderr.count("malformed") == malformed
    assert report["actions"] == report["answered"] == 1
    # The act: the chosen legal action's bytes, copied verbatim, for the right table.
    hello, join, act = seen["good"][:3]
    assert hello == {"t": "hello", "proto": 1, "name": "bench0"}
    assert join["t"] == "join" and join["seat"] == 0
    assert act["t"] == "act" and act["table"] == "good" and act["seat"] == 0
    assert act["action"] in GOOD_UPDATE["legal"] and act["id"] > join["id"]
    assert len(seen["other"]) == 2  # read, ignored, still open
    assert [m["table"] for m in seen["fin2"] if m["t"] == "join"] == ["fin1", "fin2"]
