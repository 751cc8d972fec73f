"""WebSocket vs TCP: action -> update latency at one table, same host, same run; prints JSON.

The host runs as its own process (``lantable host`` with its web server). One client
at a time plays a one-seat Race table (a target it never reaches) as fast as its
updates come back, and times each ``act`` from the send to the arrival of the update
that shows it. Three clients take turns, in rounds, so that the machine's noise falls
on all of them alike:

- ``tcp``: the protocol over TCP (a blocking socket, raw frames);
- ``ws``: the same messages over the web port's WebSocket, one per binary message;
- ``ws_words``: the WebSocket with ``hello.words``, as the browser asks (the host
  adds the game's labels and sentences to every update).

With ``--workers N`` the host runs N worker processes (``lantable host --workers``):
the tables are made on the workers, so every client's connection, the WebSocket ones
included, is handed to a worker at its ``join`` and measured there.

Usage: python bench/web.py [--actions N] [--rounds R] [--workers N]
"""

from __future__ import annotations

import json
import socket
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
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, BytesMessage, Request

HEADER = struct.Struct(">I")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TcpClient:
    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def send(self, msg: dict[str, Any]) -> None:
        body = msgpack.packb(msg, use_bin_type=True)
        self.sock.sendall(HEADER.pack(len(body)) + body)

    def recv(self) -> dict[str, Any]:
        while True:
            if len(self.buf) >= 4:
                (n,) = HEADER.unpack_from(self.buf)
                if len(self.buf) >= 4 + n:
                    body, self.buf = self.buf[4:4 + n], self.buf[4 + n:]
                    return msgpack.unpackb(body, raw=False)
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("host closed")
            self.buf += data


class WsClient:
    """The handshake through wsproto; then frames by hand, as lean as the TCP client,
    so that the difference measured is the host's. Client frames must be masked
    (RFC 6455 5.3): the key here is four zero bytes, which a server cannot tell from
    any other and which costs the client no XOR."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.sock.sendall(self.ws.send(Request(host=f"127.0.0.1:{port}", target="/ws")))
        self.ready: list[dict[str, Any]] = []
        self.partial = b""
        while not self._pump(accept=True):
            pass
        self.buf = b""

    def _pump(self, accept: bool = False) -> bool:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("host closed")
        self.ws.receive_data(data)
        accepted = False
        for event in self.ws.events():
            if isinstance(event, AcceptConnection):
                accepted = True
            elif isinstance(event, BytesMessage):
                self.partial += event.data
                if event.message_finished:
                    self.ready.append(msgpack.unpackb(self.partial, raw=False))
                    self.partial = b""
        return accepted

    def send(self, msg: dict[str, Any]) -> None:
        body = msgpack.packb(msg, use_bin_type=True)
        if len(body) < 126:
            head = bytes((0x82, 0x80 | len(body)))
        else:
            head = b"\x82\xfe" + len(body).to_bytes(2, "big")
        self.sock.sendall(head + b"\0\0\0\0" + body)

    def recv(self) -> dict[str, Any]:
        if self.ready:
            return self.ready.pop(0)
        while True:  # unmasked binary frames from the server, FIN set
            if len(self.buf) >= 2:
                size, at = self.buf[1] & 0x7F, 2
                if size == 126:
                    size, at = int.from_bytes(self.buf[2:4], "big"), 4
                elif size == 127:
                    size, at = int.from_bytes(self.buf[2:10], "big"), 10
                if len(self.buf) >= at + size:
                    body, self.buf = self.buf[at:at + size], self.buf[at + size:]
                    return msgpack.unpackb(body, raw=False)
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("host closed")
            self.buf += data


def until(client: Any, t: str) -> dict[str, Any]:
    while True:
        msg = client.recv()
        if msg["t"] == t:
            return msg
        if msg["t"] == "error":
            raise RuntimeError(msg)


def open_table(client: Any, words: bool) -> tuple[str, dict[str, Any]]:
    client.send({"t": "hello", "proto": 1, "name": "bench", **({"words": True} if words else {})})
    until(client, "welcome")
    client.send({"t": "create", "id": 1, "game": "race", "seats": 1,
                 "options": {"target": 10**9, "max_step": 2}, "seed": 1})
    table = until(client, "created")["table"]
    client.send({"t": "join", "id": 2, "table": table})
    return table, until(client, "update")


def play(client: Any, table: str, update: dict[str, Any], n: int, rid: int
         ) -> tuple[list[float], dict[str, Any], int]:
    """``n`` actions; the latency of each in ms."""
    times = []
    for _ in range(n):
        rid += 1
        t0 = time.perf_counter()
        client.send({"t": "act", "id": rid, "table": table, "action": update["legal"][0]})
        update = until(client, "update")
        times.append((time.perf_counter() - t0) * 1000)
    return times, update, rid


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 4)


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--actions", type=int, default=500, help="actions per client per round")
    parser.add_argument("--rounds", type=int, default=10, help="rounds measured")
    parser.add_argument("--workers", type=int, default=0,
                        help="worker processes of the host (0: one process)")
    args = parser.parse_args()
    port, web_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as tmp:
        log = open(Path(tmp) / "host.log", "w")  # noqa: SIM115 - closed with the host
        host = subprocess.Popen(
            [sys.executable, "-m", "lantable.clients.cli", "host", "--bind", "127.0.0.1",
             "--port", str(port), "--web-port", str(web_port), "--db", str(Path(tmp) / "j.db"),
             "--no-discovery", "--no-qr",
             *(["--workers", str(args.workers)] if args.workers else [])],
            stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 20
            while "play in a browser" not in (Path(tmp) / "host.log").read_text():
                if time.monotonic() > deadline or host.poll() is not None:
                    raise RuntimeError((Path(tmp) / "host.log").read_text())
                time.sleep(0.05)
            clients = {"tcp": (TcpClient(port), False), "ws": (WsClient(web_port), False),
                       "ws_words": (WsClient(web_port), True)}
            state = {name: (*open_table(c, words), 10) for name, (c, words) in clients.items()}
            for name, (client, _) in clients.items():  # warm-up
                table, update, rid = state[name]
                _, update, rid = play(client, table, update, 200, rid)
                state[name] = (table, update, rid)
            samples: dict[str, list[float]] = {name: [] for name in clients}
            per_round: dict[str, list[float]] = {name: [] for name in clients}
            for _ in range(args.rounds):
                for name, (client, _) in clients.items():
                    table, update, rid = state[name]
                    times, update, rid = play(client, table, update, args.actions, rid)
                    state[name] = (table, update, rid)
                    samples[name] += times
                    per_round[name].append(statistics.median(times))
        finally:
            host.terminate()
            host.wait(10)
            log.close()
    out: dict[str, Any] = {"actions_per_client": args.actions * args.rounds,
                           "rounds": args.rounds, "workers": args.workers}
    for name, values in samples.items():
        out[name] = {"p50_ms": pct(values, 0.5), "p99_ms": pct(values, 0.99),
                     "round_p50s_ms": [round(x, 4) for x in per_round[name]]}
    diffs = [w - t for w, t in zip(per_round["ws"], per_round["tcp"], strict=True)]
    out["ws_minus_tcp_p50_ms"] = round(statistics.median(diffs), 4)
    words = [w - t for w, t in zip(per_round["ws_words"], per_round["ws"], strict=True)]
    out["words_cost_p50_ms"] = round(statistics.median(words), 4)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
