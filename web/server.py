"""The web server every peer runs: the browser app over HTTP, and the protocol over a
WebSocket, on one port.

One trio task per connection, like the TCP listener: h11 reads HTTP requests
(static files, keep-alive), and a request to ``/ws`` is upgraded with wsproto and
handed to the host's own connection code through :class:`FrameStream`. Both
libraries are sans-IO, like ``lantable.protocol``; docs/decisions.md ("The web
server is h11 and wsproto on the host's trio") says why no ASGI framework.

Routes (all ``GET`` or ``HEAD``):

- ``/`` the app; ``/static/...`` its files (package data of ``lantable.web``);
- ``/games/<game id>/...`` a game's own browser renderer (``game_web_renderer``);
- ``/ws`` the WebSocket. A browser's upgrade is refused (403) unless its ``Origin``
  is this very server (the ``Host`` it asked for), so that no other web page a
  player has open can play their seat.

Every request must name this peer in its ``Host`` header (:class:`HostNames`: an
address, ``localhost``, the peer's mDNS and host names, or a name given with
``lantable host --allow-host``); any other name is refused with 421, which is what
stops a DNS-rebinding page, whose ``Origin`` and ``Host`` agree on the attacker's name.
HTTP connections are counted with the peer's other connections (docs/limits.md), kept
alive between requests, and every request gets a status, never a traceback.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import mimetypes
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

import h11
import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, RejectConnection, RejectData, Request
from wsproto.utilities import RemoteProtocolError as WsRemoteError

from lantable.host.listener import admit, handle_connection, release
from lantable.protocol.discovery import DEFAULT_WEB_PORT

from . import card_engine
from .lan import watch_lan_peers
from .websocket import FrameStream

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from lantable.host.peer import Peer

LOGGER = logging.getLogger(__name__)

REQUEST_TIMEOUT: Final = 10.0  # seconds to send a whole request head
IDLE_TIMEOUT: Final = 15.0  # seconds a kept-alive HTTP connection may idle between requests
MAX_REQUEST_HEAD: Final = 16384  # bytes of request line and headers (h11's default)
MAX_REQUESTS: Final = 1000  # requests on one kept-alive connection before it is closed
LINGER: Final = 1.0  # seconds a closing connection reads what its client still sends
MAX_PATH: Final = 1024  # bytes of a URL path looked up; longer ones are 404 at once
READ_SIZE: Final = 65536

STATIC: Final = resources.files(__package__) / "static"
_SAFE_PATH = re.compile(r"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$")
_TYPES: Final = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".html": "text/html; charset=utf-8", ".svg": "image/svg+xml",
                 ".json": "application/json", ".map": "application/json",
                 ".txt": "text/plain; charset=utf-8", ".png": "image/png",
                 ".ico": "image/x-icon", ".mjs": "text/javascript; charset=utf-8",
                 ".wasm": "application/wasm", ".zip": "application/zip"}
# The app loads nothing from elsewhere, and nothing else may frame it. WebAssembly may
# be compiled (the card engine, web/card_engine.py); JavaScript eval may not.
_SECURITY: Final = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
     b"connect-src 'self' ws: wss:; img-src 'self' data:; "
     b"style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


@dataclass(frozen=True)
class RunningWeb:
    """What :func:`serve_web` passes back once it listens."""

    listeners: list[trio.SocketListener]
    files: Any = None  # the served files (_Files), for tests
    names: Any = None  # the Host names answered to (HostNames)

    @property
    def port(self) -> int:
        return int(self.listeners[0].socket.getsockname()[1])


class _Files:
    """The files the server may send, read once per path (they are package data).

    Only files found are kept: they are the package's own, so the cache is bounded by
    what is installed, whatever paths clients ask for (a miss is looked up each time
    and remembered nowhere)."""

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self._cache: dict[str, tuple[bytes, bytes, bytes]] = {}

    def renderers(self) -> list[str]:
        """The ids of the games that ship a browser renderer."""
        return sorted(g.id for g in self.peer.registry.games.values() if g.web_renderer())

    def get(self, path: str) -> tuple[bytes, bytes, bytes] | None:
        """``(body, content type, etag)`` for a URL path, or None."""
        found = self._cache.get(path)
        if found is None and len(path) <= MAX_PATH:
            try:
                found = self._load(path)
            except (OSError, ValueError):  # a name too long for the file system, ...
                found = None
            if found is not None:
                self._cache[path] = found
        return found

    def _load(self, path: str) -> tuple[bytes, bytes, bytes] | None:
        if path == "/":
            page = (STATIC / "index.html").read_text(encoding="utf-8")
            body = page.replace("{{renderers}}", ",".join(self.renderers())).replace(
                "{{engine}}", "1" if card_engine.pyodide_dir() is not None else "").encode()
            return _entry(body, ".html")
        if path.startswith("/pyodide/"):
            raw = card_engine.pyodide_file(path[len("/pyodide/"):])
            return None if raw is None else _entry(raw, "." + path.rsplit(".", 1)[-1])
        if path == "/engine/python.zip":
            return _entry(card_engine.python_zip(sorted(self.peer.registry.games)), ".zip")
        base: Traversable | None
        if path.startswith("/static/"):
            base, rest = STATIC, path[len("/static/"):]
        elif path.startswith("/games/"):
            game_id, _, rest = path[len("/games/"):].partition("/")
            game = self.peer.registry.games.get(game_id)
            base = game.web_renderer() if game is not None else None
        else:
            return None
        if base is None or not _SAFE_PATH.match(rest) or ".." in rest.split("/"):
            return None
        file = base.joinpath(*rest.split("/"))
        if not file.is_file():
            return None
        return _entry(file.read_bytes(), "." + rest.rsplit(".", 1)[-1])


def _entry(body: bytes, suffix: str) -> tuple[bytes, bytes, bytes]:
    ctype = _TYPES.get(suffix) or mimetypes.types_map.get(suffix, "application/octet-stream")
    etag = b'"' + hashlib.sha256(body).hexdigest()[:20].encode() + b'"'
    return body, ctype.encode(), etag


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket upgrade with this ``Origin`` may proceed.

    No ``Origin`` is a program, not a browser page (bots, tests): allowed, as over
    TCP. A browser always sends one, and it must name the server the page asked for.
    """
    if origin is None:
        return True
    if host is None:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without port, brackets or trailing dot, lowercased."""
    header = header.strip().lower()
    if header.startswith("["):  # an IPv6 literal
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        header = header.partition(":")[0]
    return header.rstrip(".")


class HostNames:
    """The names this peer answers to in a ``Host`` header (the DNS-rebinding guard).

    An address literal is always this peer's (a rebinding page has a name, not an
    address, in its ``Host``); so are ``localhost`` and its subdomains, this machine's
    host name (bare, ``.local`` and fully qualified), the peer's own mDNS name
    (``lantable-<peer id>.local``, host/discovery.py) and every name in ``extra``
    (``lantable host --allow-host NAME``, for a name a LAN's DNS gives this machine).
    """

    def __init__(self, peer_id: str = "", extra: Iterable[str] = ()) -> None:
        names = {"localhost"}
        try:
            hostname = socket.gethostname().lower().rstrip(".")
        except OSError:  # pragma: no cover - a machine with no name
            hostname = ""
        if hostname:
            short = hostname.split(".")[0]
            names |= {hostname, short, f"{short}.local"}
        if peer_id:
            names.add(f"lantable-{peer_id[:40]}.local".lower())
        names |= {host_name(n) for n in extra if n.strip()}
        self.names = frozenset(names)

    def allows(self, header: str | None) -> bool:
        """Whether a request with this ``Host`` header (None: none was sent, as by an
        HTTP/1.0 program, which no browser is) is for this peer."""
        if header is None:
            return True
        name = host_name(header)
        if name in self.names or name.endswith(".localhost"):
            return True
        try:
            ipaddress.ip_address(name.partition("%")[0])  # a zone id: fe80::1%eth0
        except ValueError:
            return False
        return True


async def open_web_listeners(bind: str | None = None, port: int = DEFAULT_WEB_PORT,
                             ) -> list[trio.SocketListener]:
    """The web port's sockets (opened before the peer starts, so that discovery can
    advertise the port). ``bind`` None means every address, IPv4 and IPv6; port 0
    picks a free one."""
    return await trio.open_tcp_listeners(port, host=bind)


async def serve_web(*, peer: Peer, bind: str | None = None, port: int = DEFAULT_WEB_PORT,
                    listeners: list[trio.SocketListener] | None = None,
                    browse_lan: Any = None, interfaces: list[str] | None = None,
                    allow_hosts: Iterable[str] = (),
                    task_status: trio.TaskStatus[RunningWeb] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve the web app and the WebSocket for ``peer`` until cancelled.

    Args:
        listeners: from :func:`open_web_listeners`; else ``bind:port`` is opened here.
        browse_lan: a discovery browser (``lantable.clients.discovery.open_browser``)
            to list the other peers in the lobby, or None for none.
        interfaces: the interfaces to browse on (None: every LAN interface).
        allow_hosts: more names this peer answers to in ``Host`` (:class:`HostNames`).
    """
    files = _Files(peer)
    names = HostNames(peer.peer_id, allow_hosts)
    if listeners is None:
        listeners = await open_web_listeners(bind, port)
    running = RunningWeb(listeners, files, names)
    LOGGER.info("web app on port %d", running.port)

    async def handler(stream: trio.SocketStream) -> None:
        try:
            await _serve_http(stream, peer, files, names)
        except Exception:
            LOGGER.exception("web connection failed unexpectedly; closed")

    async with trio.open_nursery() as nursery:
        task_status.started(running)
        nursery.start_soon(trio.serve_listeners, handler, listeners)
        if browse_lan is not None:
            nursery.start_soon(watch_lan_peers, peer, browse_lan, interfaces)


async def _serve_http(stream: trio.SocketStream, peer: Peer, files: _Files,
                      names: HostNames) -> None:
    try:
        host, port = stream.socket.getpeername()[:2]
        where = f"{host}:{port}"
    except OSError:
        host, where = "?", "?"
    http = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_REQUEST_HEAD)
    refusal = admit(peer, host)  # an HTTP connection counts like any other
    if refusal is not None:  # said before reading anything: written by hand
        body = f"{refusal}\n".encode()
        with trio.CancelScope(shield=True), trio.move_on_after(0.5):
            await _send_quietly(stream, b"HTTP/1.1 503 Service Unavailable\r\n"
                                b"content-type: text/plain; charset=utf-8\r\n"
                                b"content-length: %d\r\nretry-after: 10\r\n"
                                b"connection: close\r\n\r\n%s" % (len(body), body))
        await trio.aclose_forcefully(stream)
        return
    counted = [True]  # until a WebSocket takes the connection over (and counts it)
    try:
        async with stream:
            await _serve_requests(stream, http, peer, files, names, host, where, counted)
            if counted[0]:
                await _linger(stream)
    finally:
        if counted[0]:
            release(peer, host)


async def _linger(stream: trio.SocketStream) -> None:
    """Close gently: say we are done, and read (and drop) what the client still sends
    for a moment, so that the close does not reset the connection and destroy the
    answer the client has not read yet (a "lingering close")."""
    try:
        with trio.move_on_after(LINGER):
            await stream.send_eof()
            read = 0
            while read < READ_SIZE * 4 and (data := await stream.receive_some(READ_SIZE)):
                read += len(data)
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        pass


async def _serve_requests(stream: trio.SocketStream, http: h11.Connection, peer: Peer,
                          files: _Files, names: HostNames, host: str, where: str,
                          counted: list[bool]) -> None:
    """Answer requests on one connection until it ends (or becomes a WebSocket)."""
    for _ in range(MAX_REQUESTS):
        try:
            request = await _next_request(stream, http)
        except (trio.TooSlowError, trio.BrokenResourceError,
                trio.ClosedResourceError, OSError):
            return
        except h11.RemoteProtocolError as exc:
            await _reply_error(stream, http, exc.error_status_hint, str(exc))
            return
        if request is None:
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in request.headers}
        head = request.method == b"HEAD"
        if not names.allows(headers.get("host")):
            LOGGER.info("web %s: request for host %r refused (not this peer's name)",
                        where, headers.get("host"))
            await _reply_error(
                stream, http, 421,
                f"this lantable peer does not answer to the name "
                f"{headers.get('host')!r:.100}; open it by its address, or start it "
                f"with lantable host --allow-host NAME", head=head)
            return
        target = request.target.decode("latin-1").split("?", 1)[0]
        if target == "/ws" and headers.get("upgrade", "").lower() == "websocket":
            await _upgrade(stream, http, request, headers, peer, host, where, counted)
            return
        try:
            await _answer(stream, http, request, target, headers, files)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        except Exception:  # a bug: the request still gets its status
            LOGGER.exception("web %s: request for %r failed; answered 500", where,
                             target[:200])
            await _reply_error(stream, http, 500, "the host failed on that request "
                                                  "(a bug, logged there)", head=head)
            return
        if not _request_done(http) or http.our_state is not h11.DONE:
            return
        try:
            http.start_next_cycle()
        except h11.LocalProtocolError:
            return


async def _answer(stream: trio.SocketStream, http: h11.Connection, request: h11.Request,
                  target: str, headers: dict[str, str], files: _Files) -> None:
    """Answer one request for a page or a file."""
    head = request.method == b"HEAD"
    if request.method not in (b"GET", b"HEAD"):
        await _respond(stream, http, 405, b"only GET and HEAD here\n",
                       b"text/plain; charset=utf-8",
                       [(b"allow", b"GET, HEAD"), (b"connection", b"close")])
        return
    found = files.get(target)
    if found is None:
        await _respond(stream, http, 404, b"no such page\n", b"text/plain; charset=utf-8",
                       head=head)
        return
    body, ctype, etag = found
    extra = [(b"etag", etag), (b"cache-control", b"no-cache")]
    if headers.get("if-none-match") == etag.decode():
        await _respond(stream, http, 304, b"", ctype, extra)
    else:
        await _respond(stream, http, 200, body, ctype, extra, head=head)


def _request_done(http: h11.Connection) -> bool:
    """Whether the client's request is over (a GET's end follows its head at once), so
    that the connection may carry another: a request with a body to read is the
    connection's last."""
    if http.their_state is h11.SEND_BODY:
        try:
            event = http.next_event()
        except h11.RemoteProtocolError:
            return False
        if not isinstance(event, h11.EndOfMessage):
            return False
    return http.their_state is h11.DONE


async def _next_request(stream: trio.SocketStream, http: h11.Connection) -> h11.Request | None:
    """The next request's head; None at EOF. A request with a body is answered without
    reading it, and its connection closed after the answer.

    Raises:
        trio.TooSlowError: no request began within ``IDLE_TIMEOUT``, or its head did
            not end within ``REQUEST_TIMEOUT`` of its first byte (a slow client).
    """
    with trio.fail_at(trio.current_time() + IDLE_TIMEOUT) as scope:
        while True:
            event = http.next_event()
            if event is not h11.NEED_DATA:
                break
            data = await stream.receive_some(READ_SIZE)
            http.receive_data(data)
            if data:  # the head has begun: it has REQUEST_TIMEOUT to end
                scope.deadline = min(scope.deadline, trio.current_time() + REQUEST_TIMEOUT)
    return event if isinstance(event, h11.Request) else None  # closed (or paused)


def _is_upgrade(request: h11.Request) -> bool:
    return any(k == b"upgrade" for k, _ in request.headers)


async def _respond(stream: trio.SocketStream, http: h11.Connection, status: int, body: bytes,
                   ctype: bytes, extra: list[tuple[bytes, bytes]] | None = None, *,
                   head: bool = False) -> None:
    headers = [(b"content-type", ctype), (b"content-length", str(len(body)).encode()),
               *_SECURITY, *(extra or [])]
    if status == 304:
        headers = [h for h in headers if h[0] not in (b"content-length", b"content-type")]
    data = http.send(h11.Response(status_code=status, headers=headers))
    if body and not head and status != 304:
        data += http.send(h11.Data(data=body))
    data += http.send(h11.EndOfMessage())
    try:
        await stream.send_all(data)
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass


async def _reply_error(stream: trio.SocketStream, http: h11.Connection, status: int,
                       why: str, *, head: bool = False) -> None:
    if http.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
        return
    try:
        await _respond(stream, http, status, f"{why}\n".encode(), b"text/plain; charset=utf-8",
                       [(b"connection", b"close")], head=head)
    except h11.LocalProtocolError:
        pass


async def _upgrade(stream: trio.SocketStream, http: h11.Connection, request: h11.Request,
                   headers: dict[str, str], peer: Peer, host: str, where: str,
                   counted: list[bool]) -> None:
    """Accept the WebSocket (same origin only) and serve the protocol over it."""
    ws = WSConnection(ConnectionType.SERVER)
    try:
        ws.initiate_upgrade_connection(list(request.headers), request.target)
        event = next(ws.events())
    except (WsRemoteError, StopIteration) as exc:
        await _reply_error(stream, http, 400, f"not a valid WebSocket upgrade: {exc}")
        return
    assert isinstance(event, Request)
    origin, named = headers.get("origin"), headers.get("host")
    if not same_origin(origin, named):
        LOGGER.warning("web %s: WebSocket from foreign origin %r (host %r) refused",
                       where, origin, named)
        body = f"WebSocket refused: origin {origin!r} is not this server ({named})\n".encode()
        await _send_quietly(stream, ws.send(RejectConnection(
            status_code=403, has_body=True,
            headers=[(b"content-type", b"text/plain; charset=utf-8"),
                     (b"content-length", str(len(body)).encode())]))
            + ws.send(RejectData(data=body)))
        return
    trailing, _ = http.trailing_data
    release(peer, host)  # from now on counted as a lantable connection (handle_connection)
    counted[0] = False
    await _send_quietly(stream, ws.send(AcceptConnection()))
    if trailing:
        ws.receive_data(bytes(trailing))
    frames = FrameStream(stream, ws, max_frame=peer.limits.max_request_bytes)
    await handle_connection(frames, peer, where=f"{where} (web)")


async def _send_quietly(stream: trio.SocketStream, data: Any) -> None:
    try:
        await stream.send_all(data)
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass
