"""The hardening suite's tools for the web port (issue 25): blocking HTTP and WebSocket
clients on raw sockets, a fuzzer of request paths, methods and headers, of WebSocket
messages (the protocol's, through ``fuzzing.client_message``), control frames,
fragments and text, and floods of slow and idle connections. Shared by the bounded
tests (``tests/host/test_hardening.py``) and the long run (``bench/fuzz.py --web``).

The oracle is the same as on the TCP port: every HTTP request gets a status line
(the documented ones), every WebSocket message its documented reply or a documented
fatal ``error`` and a close; never a traceback in the host's log. Sent only to
loopback, bounded in count and time.
"""

from __future__ import annotations

import random
import socket
import time
from collections import Counter
from typing import Any

import msgpack
from hypothesis import strategies as st
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Message,
    Ping,
    Pong,
    RejectConnection,
    RejectData,
    Request,
    TextMessage,
)

from .fuzzing import CODES, FATAL, Counts, source

#: Every status the web port documents (docs/protocol.md, "WebSocket").
STATUSES = {101, 200, 304, 400, 403, 404, 405, 413, 414, 421, 431, 500, 501, 503}
PATHS = ["/", "/static/app.js", "/static/app.css", "/static/fairplay.js",
         "/games/manila/board.js", "/games/kaisers-pirates/board.js", "/ws", "/nope",
         "/static/../server.py", "/static/%2e%2e/x", "/games/x/y", "/static/",
         "/games/manila/../__init__.py", "//", "/static//app.js", "/static/app.js?x=1"]
METHODS = [b"GET", b"HEAD", b"POST", b"PUT", b"DELETE", b"OPTIONS", b"BREW", b"CONNECT"]


def _path(rng: random.Random) -> bytes:
    kind = rng.randrange(8)
    if kind < 3:
        return rng.choice(PATHS).encode()
    if kind == 3:
        return b"/static/" + b"n" * rng.choice([100, 255, 256, 300, 1000, 4000, 15000])
    if kind == 4:
        return b"/games/x%d/" % rng.randrange(10**6) + b"q" * rng.randrange(1, 15000)
    if kind == 5:
        return b"/" + bytes(rng.randrange(33, 127) for _ in range(rng.randrange(1, 200)))
    if kind == 6:
        return b"/static/" + b"/".join(b"d" * rng.randrange(1, 300)
                                       for _ in range(rng.randrange(1, 8)))
    return b"/%s" % bytes(rng.randrange(0x80, 0x100) for _ in range(rng.randrange(1, 40)))


def _headers(rng: random.Random, port: int) -> list[tuple[bytes, bytes]]:
    host = rng.choice([b"127.0.0.1:%d" % port, b"localhost:%d" % port, b"[::1]:%d" % port,
                       b"evil.example:%d" % port, b"127.0.0.1", b"", b"x" * 300])
    out = [(b"Host", host)] if rng.random() < 0.95 else []
    for _ in range(rng.randrange(4)):
        out.append(rng.choice([
            (b"If-None-Match", b'"%x"' % rng.randrange(2**64)),
            (b"Origin", rng.choice([b"http://evil.example", b"null",
                                    b"http://127.0.0.1:%d" % port])),
            (b"Connection", rng.choice([b"close", b"keep-alive", b"upgrade"])),
            (b"Upgrade", rng.choice([b"websocket", b"h2c"])),
            (b"X-Pad", b"p" * rng.choice([10, 1000, 8000, 20000])),
            (b"Content-Length", str(rng.choice([0, 5, 10**9])).encode()),
            (b"Transfer-Encoding", b"chunked"),
        ]))
    return out


def _statuses(data: bytes) -> list[int]:
    out = []
    for line in data.split(b"\r\n"):
        if line.startswith(b"HTTP/1.1 ") and line[9:12].isdigit():
            out.append(int(line[9:12]))
    return out


def http_requests(port: int, count: int, tally: Counts, rng: random.Random) -> Counter:
    """``count`` fuzzed HTTP requests, one to four per connection (kept alive): each
    must get a documented status, or (a broken head) a 400-class status and a close."""
    seen: Counter = Counter()
    sent = 0
    while sent < count:
        per = rng.randrange(1, 5)
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError as exc:
            seen[type(exc).__name__] += 1
            continue
        tally.connections += 1
        data = b""
        with sock:
            try:  # the host may answer and close before it has read every request
                for _ in range(per):
                    method = rng.choice(METHODS) if rng.random() < 0.3 else b"GET"
                    head = b"%s %s HTTP/1.1\r\n" % (method, _path(rng)) + b"".join(
                        b"%s: %s\r\n" % h for h in _headers(rng, port)) + b"\r\n"
                    if rng.random() < 0.05:  # raw garbage instead
                        head = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
                    sent += 1
                    tally.frames += 1
                    sock.sendall(head)
                sock.shutdown(socket.SHUT_WR)
            except OSError as exc:
                seen[type(exc).__name__] += 1
            try:
                deadline = time.monotonic() + 15
                while time.monotonic() < deadline:
                    chunk = sock.recv(262144)
                    if not chunk:
                        break
                    data += chunk
            except OSError as exc:
                seen[type(exc).__name__] += 1
        statuses = _statuses(data)
        if not statuses:
            tally.fail(f"HTTP: no status for a connection of {per} request(s)")
        for status in statuses:
            seen[status] += 1
            if status not in STATUSES:
                tally.fail(f"HTTP: undocumented status {status}")
    return seen


class WebSocket:
    """A blocking WebSocket client on a raw socket (sends what it is told, even junk)."""

    def __init__(self, port: int, origin: bytes | None = None, host: str | None = None,
                 timeout: float = 10.0, src: str | None = None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                             source_address=(src, 0) if src else None)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.messages: list[dict[str, Any]] = []
        self.partial = b""
        self.closed = False
        extra = [(b"Origin", origin)] if origin else []
        self.sock.sendall(self.ws.send(Request(host=host or f"127.0.0.1:{port}", target="/ws",
                                               extra_headers=extra)))
        self.status = 0
        while not self.status:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed during the upgrade")
            self.ws.receive_data(data)
            for event in self.ws.events():
                if isinstance(event, AcceptConnection):
                    self.status = 101
                elif isinstance(event, RejectConnection):
                    self.status = event.status_code
                elif isinstance(event, RejectData):
                    pass

    def send(self, event: Any) -> None:
        self.sock.sendall(self.ws.send(event))

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def next(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next lantable message; None once closed. TimeoutError if silent."""
        deadline = time.monotonic() + timeout
        while not self.messages:
            if self.closed:
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message from the host")
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(262144)
            except (ConnectionResetError, BrokenPipeError):
                data = b""
            if not data:
                self.closed = True
                continue
            self.ws.receive_data(data)
            for event in self.ws.events():
                if isinstance(event, BytesMessage):
                    self.partial += event.data
                    if event.message_finished:
                        self.messages.append(msgpack.unpackb(self.partial, raw=False,
                                                             strict_map_key=False))
                        self.partial = b""
                elif isinstance(event, CloseConnection):
                    self.closed = True
        return self.messages.pop(0)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def _fragments(body: bytes, rng: random.Random, ws: WebSocket) -> list[Message]:
    """``body`` as one to eight fragments, pings between them sometimes."""
    cuts = sorted(rng.sample(range(1, max(len(body), 2)), min(rng.randrange(0, 8),
                                                               max(len(body) - 1, 0))))
    parts = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    out: list[Any] = []
    for i, part in enumerate(parts):
        out.append(BytesMessage(data=part, message_finished=i == len(parts) - 1))
        if rng.random() < 0.2:
            out.append(Ping(payload=b"f"))
    return out


def websocket_session(port: int, messages: list[dict[str, Any]], tally: Counts,
                      rng: random.Random) -> Counter:
    """One WebSocket: hello, then ``messages`` as binary messages, whole or in fragments,
    with pings, pongs, text and junk among them; every request with an ``id`` gets an
    answer with that id or a documented fatal error and a close."""
    seen: Counter = Counter()
    try:
        ws = WebSocket(port)
    except OSError as exc:
        seen[type(exc).__name__] += 1
        return seen
    tally.connections += 1
    seen[ws.status] += 1
    if ws.status != 101:
        ws.close()
        return seen
    try:
        ws.send(BytesMessage(data=msgpack.packb({"t": "hello", "proto": 1, "name": "wsfuzz",
                                                 "words": rng.random() < 0.5})))
        tally.frames += 1
        if not _judge(ws, None, tally, seen):
            return seen
        for i, msg in enumerate(messages):
            msg = {**msg, "id": 1000 + i} if "id" in msg else msg
            kind = rng.randrange(10)
            body = msgpack.packb(msg, use_bin_type=True)
            if kind == 0:
                ws.send(TextMessage(data="not a frame"))
            elif kind == 1:
                for _ in range(rng.randrange(1, 60)):
                    ws.send(rng.choice([Ping(payload=b"x" * rng.randrange(126)),
                                        Pong(payload=b"u")]))
                continue
            elif kind < 5:
                for event in _fragments(body, rng, ws):
                    ws.send(event)
            else:
                ws.send(BytesMessage(data=body))
            tally.frames += 1
            if not _judge(ws, msg.get("id") if kind else None, tally, seen):
                return seen
    except (OSError, TimeoutError) as exc:
        seen[type(exc).__name__] += 1
    finally:
        ws.close()
    return seen


def _judge(ws: WebSocket, req_id: int | None, tally: Counts, seen: Counter) -> bool:
    """Read until the reply to ``req_id`` (or, with None, until the host is quiet for a
    moment); whether the connection is still open."""
    while True:
        try:
            msg = ws.next(timeout=10 if req_id is not None else 0.3)
        except TimeoutError:
            if req_id is not None:
                tally.fail(f"WebSocket: no answer to request {req_id}")
            return not ws.closed
        if msg is None:
            return False
        tally.replies[msg.get("t")] += 1
        if msg.get("t") == "error":
            code = msg.get("code")
            tally.errors[code] += 1
            seen[code] += 1
            if code not in CODES:
                tally.fail(f"WebSocket: undocumented error code {code!r}")
            if code in FATAL and msg.get("id") is None:
                after = ws.next(timeout=5) if not ws.closed else None
                if after is not None and not ws.closed:
                    tally.fail(f"WebSocket: still open after fatal {code}")
                return False
        if req_id is None or msg.get("id") == req_id:
            return True


def websocket_messages() -> st.SearchStrategy[list[dict[str, Any]]]:
    from .fuzzing import client_message

    return st.lists(client_message(), min_size=1, max_size=8)


def ping_flood(port: int, pings: int, tally: Counts) -> Counter:
    """One welcomed WebSocket sends ``pings`` 125-byte pings as fast as it can: the host
    must close it (``bad_frame``) long before the end."""
    seen: Counter = Counter()
    ws = WebSocket(port)
    tally.connections += 1
    ws.send(BytesMessage(data=msgpack.packb({"t": "hello", "proto": 1, "name": "pinger"})))
    ws.next()
    started = time.monotonic()
    sent = 0
    try:
        for _ in range(pings // 100):
            ws.send_raw(b"".join(ws.ws.send(Ping(payload=b"p" * 125)) for _ in range(100)))
            sent += 100
    except OSError:
        pass
    tally.frames += sent
    try:
        while (msg := ws.next(timeout=10)) is not None:
            seen[msg.get("code") or msg.get("t")] += 1
    except TimeoutError:
        seen["TimeoutError"] += 1
    seen["pings_sent"] = sent
    seen["ms_to_close"] = int((time.monotonic() - started) * 1000)
    ws.close()
    return seen


def flood_http(port: int, count: int, spread: int = 1, slow: bool = False,
               hold: Any = None) -> Counter:
    """Open ``count`` HTTP connections at once from ``spread`` loopback addresses; each
    sends nothing (idle) or, ``slow``, the first bytes of a request head (a slowloris).
    ``hold()`` runs while they are open; then a request on each says what became of it:
    its status, or that the host closed it (idle or too slow), or refused it (503)."""
    seen: Counter = Counter()
    socks = []
    try:
        for i in range(count):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                                source_address=(source(i, spread), 0)
                                                if spread > 1 else None)
                if slow:
                    sock.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: 127.0.0.1\r\nX-")
                socks.append(sock)
            except OSError as exc:
                seen[type(exc).__name__] += 1
        if hold is not None:
            hold()
        for sock in socks:
            try:
                sock.sendall(b"a: b\r\n\r\n" if slow else
                             b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                sock.settimeout(5)
                data = sock.recv(65536)
                statuses = _statuses(data)
                seen[statuses[0] if statuses else "closed"] += 1
            except OSError:
                seen["closed"] += 1
    finally:
        for sock in socks:
            sock.close()
    return seen


def rebinding(port: int) -> Counter:
    """The DNS-rebinding upgrade (foreign Host and Origin that agree) and the honest one."""
    seen: Counter = Counter()
    for host in ("evil.example", "127.0.0.1", "localhost"):
        ws = WebSocket(port, origin=f"http://{host}:{port}".encode(), host=f"{host}:{port}")
        seen[f"{host}: {ws.status}"] += 1
        ws.close()
    return seen
