"""The web server without a browser: HTTP routes, the WebSocket bridge, words, the lobby
push, and hostile WebSocket clients (which must disturb no table)."""

from __future__ import annotations

import msgpack
import pytest
import trio

from lantable.clients.client import open_client
from lantable.clients.runner import run_bot
from lantable.host.peer import serve_peer
from lantable.plugins import load_registry
from lantable.web import same_origin, serve_web
from lantable.web.join import join_url, qr_text
from lantable.web.wsclient import Refused, open_ws


@pytest.fixture
def registry():
    return load_registry()


@pytest.fixture
async def site(nursery, registry, tmp_path):
    """A peer on loopback and its web server: ``(running peer, web port)``."""
    running = await nursery.start(lambda task_status: serve_peer(
        registry=registry, db=str(tmp_path / "journal.sqlite"), name="web-peer",
        bind="127.0.0.1", port=0, task_status=task_status))
    web = await nursery.start(lambda task_status: serve_web(
        peer=running.peer, bind="127.0.0.1", port=0, task_status=task_status))
    return running, web.port


async def http(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP/1.1 exchange (Connection: close): status, headers, body."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(request)
        data = b""
        with trio.fail_after(5):
            while chunk := await stream.receive_some(65536):
                data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def get(path: str, extra: str = "", method: str = "GET") -> bytes:
    return (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{extra}\r\n"
            ).encode()


async def hello(ws, **fields):
    await ws.send({"t": "hello", "proto": 1, "name": "web", **fields})
    return await ws.receive()


# -- HTTP ------------------------------------------------------------------------------


async def test_the_app_page_names_the_games_with_renderers(site) -> None:
    _, port = site
    status, headers, body = await http(port, get("/"))
    assert status == 200 and headers["content-type"].startswith("text/html")
    from lantable.plugins import load_registry

    drawn = sorted(g.id for g in load_registry().games.values() if g.web_renderer())
    assert {"manila", "kaisers-pirates", "nero", "blackbeard"} <= set(drawn)
    assert f'content="{",".join(drawn)}"'.encode() in body
    assert "frame-ancestors 'none'" in headers["content-security-policy"]


async def test_static_files_and_game_renderers_are_served_with_their_types(site) -> None:
    _, port = site
    status, headers, body = await http(port, get("/static/app.js"))
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert b"registerRenderer" in body
    status, headers, _ = await http(port, get("/static/vendor/msgpack-3.1.3.min.js"))
    assert status == 200
    status, headers, body = await http(port, get("/games/manila/board.js"))
    assert status == 200 and b"registerRenderer" in body
    status, _, _ = await http(port, get("/games/race/board.js"))  # race has no renderer
    assert status == 404


@pytest.mark.parametrize("path", ["/nope", "/static/../server.py", "/static/%2e%2e/server.py",
                                  "/static/", "/games/manila/../__init__.py", "/games/x/board.js"])
async def test_unknown_and_escaping_paths_are_404(site, path) -> None:
    _, port = site
    status, _, body = await http(port, get(path))
    assert status == 404, body


async def test_other_methods_are_405_and_head_has_no_body(site) -> None:
    _, port = site
    status, headers, _ = await http(port, get("/", method="DELETE"))
    assert status == 405 and headers["allow"] == "GET, HEAD"
    status, headers, body = await http(port, get("/static/app.css", method="HEAD"))
    assert status == 200 and body == b"" and int(headers["content-length"]) > 100


async def test_an_unchanged_file_is_304_by_etag(site) -> None:
    _, port = site
    _, headers, _ = await http(port, get("/static/app.css"))
    etag = f"If-None-Match: {headers['etag']}\r\n"
    status, _, body = await http(port, get("/static/app.css", etag))
    assert status == 304 and body == b""


async def test_garbage_http_gets_400(site) -> None:
    _, port = site
    status, _, _ = await http(port, b"\x16\x03\x01 not http at all\r\n\r\n")
    assert status == 400


# -- the WebSocket is the protocol ------------------------------------------------------


async def test_a_websocket_client_plays_with_words(site, registry) -> None:
    _, port = site
    ws = await open_ws("127.0.0.1", port)
    welcome = await hello(ws, words=True)
    assert welcome["t"] == "welcome" and welcome["name"] == "web-peer"
    await ws.send({"t": "create", "id": 1, "game": "race", "seats": 1, "options": {"target": 3},
                   "seed": 1})
    table = (await ws.receive_until("created"))["table"]
    await ws.send({"t": "join", "id": 2, "table": table})
    first = await ws.receive_until("update")
    assert first["full"] and len(first["labels"]) == len(first["legal"])
    game = registry["race"]
    names = ["web"]
    assert first["labels"] == [game.describe(first["view"], 0, a, names) for a in first["legal"]]
    await ws.send({"t": "act", "id": 3, "table": table, "action": first["legal"][0]})
    await ws.receive_until("accepted", id=3)
    after = await ws.receive_until("update")
    assert after["sentences"] == [game.describe_event(after["view"], 0, e, names)
                                  for e in after["events"]]
    await ws.aclose()


async def test_without_words_updates_carry_none(site) -> None:
    _, port = site
    ws = await open_ws("127.0.0.1", port)
    await hello(ws)
    await ws.send({"t": "create", "id": 1, "game": "race", "seats": 1})
    table = (await ws.receive_until("created"))["table"]
    await ws.send({"t": "join", "id": 2, "table": table})
    update = await ws.receive_until("update")
    assert "labels" not in update and "sentences" not in update
    await ws.aclose()


async def test_the_lobby_is_pushed(site) -> None:
    _, port = site
    watcher = await open_ws("127.0.0.1", port)
    await hello(watcher, lobby=True)
    assert (await watcher.receive_until("lobby"))["tables"] == []  # at once, after welcome
    other = await open_ws("127.0.0.1", port)
    await hello(other)
    await other.send({"t": "create", "id": 1, "game": "race", "seats": 2})
    table = (await other.receive_until("created"))["table"]
    pushed = await watcher.receive_until("lobby")
    assert [t["id"] for t in pushed["tables"]] == [table]
    await other.send({"t": "join", "id": 2, "table": table})
    pushed = await watcher.receive_until("lobby")
    assert pushed["tables"][0]["taken"] == 1 and "id" not in pushed
    await watcher.aclose()
    await other.aclose()


async def test_a_foreign_origin_is_refused_and_the_same_origin_accepted(site) -> None:
    _, port = site
    with pytest.raises(Refused) as refused:
        await open_ws("127.0.0.1", port, origin="http://evil.example")
    assert refused.value.status == 403 and b"evil.example" in refused.value.body
    ws = await open_ws("127.0.0.1", port, origin=f"http://127.0.0.1:{port}")
    assert (await hello(ws))["t"] == "welcome"
    await ws.aclose()


def test_same_origin_rules() -> None:
    assert same_origin(None, "h:1")  # a program, not a page
    assert same_origin("http://h:1", "h:1")
    assert same_origin("http://H:1", "h:1")
    assert not same_origin("http://h:2", "h:1")
    assert not same_origin("null", "h:1")
    assert not same_origin("file://", "h:1")
    assert not same_origin("http://h:1", None)


# -- hostile clients -------------------------------------------------------------------------


async def test_hostile_websockets_get_errors_while_a_table_finishes(site) -> None:
    running, port = site
    tcp = running.port
    async with trio.open_nursery() as nursery:
        # A concurrent table: two bots over TCP play Race to the end.
        ws = await open_ws("127.0.0.1", port)
        await hello(ws)
        await ws.send({"t": "create", "id": 1, "game": "race", "seats": 2,
                       "options": {"target": 40}, "seed": 3})
        table = (await ws.receive_until("created"))["table"]
        results = []

        async def bot(i: int) -> None:
            results.append(await run_bot("127.0.0.1", tcp, table, "random", i, name=f"bot{i}"))

        for i in range(2):
            nursery.start_soon(bot, i)

        # Garbage: not msgpack.
        bad = await open_ws("127.0.0.1", port)
        await bad.send_bytes(b"\xc1\xc1\xc1")
        err = await bad.receive()
        assert err["t"] == "error" and err["code"] == "bad_frame"
        assert await bad.receive() is None  # and closed

        # A text message is not a frame.
        bad = await open_ws("127.0.0.1", port)
        await hello(bad)
        await bad.send_text("hello?")
        assert (await bad.receive_until("error"))["code"] == "bad_frame"
        assert await bad.receive() is None

        # Oversize: one byte over the request limit (the same Limits as TCP).
        bad = await open_ws("127.0.0.1", port)
        await hello(bad)
        await bad.send_bytes(b"\x00" * (running.peer.limits.max_request_bytes + 1))
        err = await bad.receive_until("error")
        assert err["code"] == "frame_too_large"
        assert await bad.receive() is None

        # A message before hello.
        bad = await open_ws("127.0.0.1", port)
        await bad.send({"t": "ping", "id": 1})
        assert (await bad.receive_until("error"))["code"] == "unexpected_message"

        # Out of turn: a spectator's act is refused and the session goes on.
        await ws.send({"t": "join", "id": 2, "table": table, "spectate": True})
        await ws.receive_until("joined", id=2)
        await ws.send({"t": "act", "id": 3, "table": table, "action": {"type": "step", "n": 1}})
        err = await ws.receive_until("error", id=3)
        assert err["code"] == "not_seated"
        await ws.send({"t": "ping", "id": 4})
        await ws.receive_until("pong", id=4)
        # ... and the table plays on to its end.
        with trio.fail_after(30):
            while True:
                update = await ws.receive_until("update")
                if update["status"] == "finished":
                    break
        await ws.aclose()
    assert sorted(seat for seat, _ in results) == [0, 1]
    assert results[0][1] == results[1][1] and results[0][1]["rank"] in ([1, 2], [2, 1])


async def test_a_valid_frame_with_an_exact_limit_size_is_not_refused_for_size(site) -> None:
    """The WebSocket path checks the same limit as TCP: a request of exactly
    ``max_request_bytes`` passes the size check (and then fails as garbage, which
    proves it was read, not refused early)."""
    running, port = site
    bad = await open_ws("127.0.0.1", port)
    await hello(bad)
    body = msgpack.packb({"t": "ping", "id": 1, "pad": "x" * 10})
    await bad.send_bytes(body + b" " * (running.peer.limits.max_request_bytes - len(body)))
    err = await bad.receive_until("error")
    assert err["code"] == "bad_frame"


# -- the join URL ------------------------------------------------------------------------


def test_join_url_and_qr() -> None:
    assert join_url("192.168.1.5", 47880) == "http://192.168.1.5:47880/"
    assert join_url("fe80::1", 8) == "http://[fe80::1]:8/"
    text = qr_text("http://192.168.1.5:47880/")
    assert len(text.splitlines()) > 10 and "█" in text


# -- the lobby's peers -------------------------------------------------------------------


async def test_hello_lobby_gets_the_lobby_at_once_and_lan_peers_are_pushed(site) -> None:
    running, port = site
    ws = await open_ws("127.0.0.1", port)
    assert (await hello(ws, lobby=True))["t"] == "welcome"
    first = await ws.receive()
    assert first == {"t": "lobby", "tables": [], "peers": [], "finished": 0}
    bo = {"name": "bo", "peer_id": "b0", "open_tables": 1, "games": ["race"],
          "address": "10.0.0.2", "port": 47800, "url": "http://10.0.0.2:47880/"}
    running.peer.set_lan_peers([bo])
    assert (await ws.receive_until("lobby"))["peers"] == [bo]
    await ws.aclose()


def test_the_web_port_travels_in_the_txt_record() -> None:
    from lantable.protocol.discovery import decode_txt, encode_txt

    txt = encode_txt(name="ann", peer_id="a1", games=["race"], open_tables=0, web_port=47880)
    assert txt["web"] == "47880"
    info = decode_txt("ann (a1)", txt, addresses=["10.0.0.1"], port=47800)
    assert info.web_port == 47880
    for bad in ("", "x", "0", "70000"):
        assert decode_txt("ann (a1)", {**txt, "web": bad}, addresses=[], port=1).web_port is None
    assert "web" not in encode_txt(name="ann", peer_id="a1", games=[], open_tables=0)


async def test_lan_peers_come_and_go_from_discovery(registry, tmp_path) -> None:
    """watch_lan_peers with a stand-in for the discovery browser (the real one is
    tested on network namespaces in tests/host): itself left out, URLs built."""
    from contextlib import asynccontextmanager

    from lantable.host.journal import Journal
    from lantable.host.peer import Peer
    from lantable.protocol.discovery import PeerEvent, PeerInfo
    from lantable.web.lan import best_address, watch_lan_peers

    journal = Journal(str(tmp_path / "j.sqlite"))
    peer = Peer(registry=registry, journal=journal, name="me")

    def info(name, pid, addresses, web=None):
        return PeerInfo(instance=f"{name} ({pid})", name=name, peer_id=pid,
                        addresses=tuple(addresses), port=47800, proto=1, games=("race",),
                        open_tables=1, web_port=web)

    send, receive = trio.open_memory_channel(10)

    @asynccontextmanager
    async def fake_browser(interfaces=None):
        yield receive

    for event in [PeerEvent("added", info("me", peer.peer_id, ["10.0.0.1"], 1)),
                  PeerEvent("added", info("bo", "b0", ["fe80::1%2", "10.0.0.2"], 47880)),
                  PeerEvent("added", info("cy", "c0", ["fe80::9%2"]))]:
        send.send_nowait(event)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch_lan_peers, peer, fake_browser)
        with trio.fail_after(5):
            while len(peer.lan_peers) < 2:
                await trio.sleep(0.01)
        assert [p["name"] for p in peer.lan_peers] == ["bo", "cy"]
        assert peer.lan_peers[0]["url"] == "http://10.0.0.2:47880/"
        assert peer.lan_peers[1]["url"] is None and peer.lan_peers[1]["address"] is None
        send.send_nowait(PeerEvent("removed", info("bo", "b0", [])))
        with trio.fail_after(5):
            while len(peer.lan_peers) != 1:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    journal.close()
    assert best_address(["2001:db8::1"]) == "2001:db8::1"


async def test_a_websocket_message_left_half_sent_gets_frame_timeout(nursery, registry,
                                                                     tmp_path) -> None:
    """The TCP watchdog's frame_timeout holds for a WebSocket message cut short."""
    from wsproto.events import BytesMessage as WsBytes

    from lantable.host.limits import Limits

    running = await nursery.start(lambda task_status: serve_peer(
        registry=registry, db=str(tmp_path / "journal.sqlite"), bind="127.0.0.1", port=0,
        limits=Limits(frame_timeout=0.5), task_status=task_status))
    web = await nursery.start(lambda task_status: serve_web(
        peer=running.peer, bind="127.0.0.1", port=0, task_status=task_status))
    ws = await open_ws("127.0.0.1", web.port)
    await hello(ws)
    # The first fragment of a message, and then nothing.
    await ws.stream.send_all(ws.ws.send(WsBytes(data=b"\x81\xa1t", message_finished=False)))
    with trio.fail_after(5):
        err = await ws.receive_until("error")
    assert err["code"] == "frame_timeout"
    assert await ws.receive() is None


# -- issue 25: the web port as hard as the TCP port ---------------------------------------


async def _raw(port: int) -> trio.SocketStream:
    return await trio.open_tcp_stream("127.0.0.1", port)


async def _get_many(stream: trio.SocketStream, paths: list[str], within: float = 5
                    ) -> list[int]:
    """GET each path in turn on one connection: the statuses answered (fewer if the
    server closes the connection first)."""
    import h11

    client = h11.Connection(h11.CLIENT)
    statuses: list[int] = []
    with trio.move_on_after(within):
        for path in paths:
            try:
                await stream.send_all(client.send(h11.Request(
                    method="GET", target=path, headers=[("Host", "127.0.0.1")]))
                    + client.send(h11.EndOfMessage()))
            except (trio.BrokenResourceError, h11.LocalProtocolError):
                break
            while True:
                event = client.next_event()
                if event is h11.NEED_DATA:
                    client.receive_data(await stream.receive_some(65536))
                elif isinstance(event, h11.Response):
                    statuses.append(event.status_code)
                elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                    break
            if client.our_state is not h11.DONE or client.their_state is not h11.DONE:
                break
            client.start_next_cycle()
    return statuses


@pytest.fixture
async def limited_site(nursery, registry, tmp_path):
    """A peer with 6 connections per address and its web server."""
    from lantable.host.limits import Limits

    running = await nursery.start(lambda task_status: serve_peer(
        registry=registry, db=str(tmp_path / "journal.sqlite"), bind="127.0.0.1", port=0,
        limits=Limits(max_connections_per_address=6), task_status=task_status))
    web = await nursery.start(lambda task_status: serve_web(
        peer=running.peer, bind="127.0.0.1", port=0, task_status=task_status))
    return running, web


async def test_issue25_1_paths_that_miss_are_not_cached(limited_site) -> None:
    _, web = limited_site
    before = len(web.files._cache)
    for i in range(200):
        status, _, _ = await http(web.port, get(f"/games/x{i}/" + "q" * 15_000))
        assert status in (404, 431), status
        status, _, _ = await http(web.port, get(f"/static/nope{i}.js"))
        assert status == 404
    assert len(web.files._cache) == before  # nothing remembered for a miss
    status, _, _ = await http(web.port, get("/static/app.css"))
    assert status == 200 and len(web.files._cache) == before + 1


async def test_issue25_2_a_ping_flood_is_cut_off_and_pongs_do_not_pile_up(site) -> None:
    from wsproto.events import Ping

    running, port = site
    ws = await open_ws("127.0.0.1", port)
    await hello(ws)
    flood = b"".join(ws.ws.send(Ping(payload=b"p" * 125)) for _ in range(5000))
    with trio.fail_after(10):
        try:
            await ws.stream.send_all(flood)
        except trio.BrokenResourceError:
            pass
        err = await ws.receive_until("error")
    assert err["code"] == "bad_frame" and "ping" in err["message"]
    assert await ws.receive() is None
    # a few pings are answered (the latest one, with the next output) and harm nothing
    ws = await open_ws("127.0.0.1", port)
    await hello(ws)
    await ws.stream.send_all(b"".join(ws.ws.send(Ping(payload=b"%d" % i)) for i in range(20)))
    await ws.send({"t": "ping", "id": 1})
    assert (await ws.receive_until("pong", id=1))["t"] == "pong"
    await ws.aclose()


@pytest.mark.parametrize("path", ["/static/" + "n" * 300, "/games/manila/" + "n" * 300,
                                  "/static/" + "/".join(["d" * 250] * 3) + ".js"])
async def test_issue25_10_an_overlong_file_name_is_404_without_a_traceback(site, path,
                                                                           caplog) -> None:
    _, port = site
    status, _, body = await http(port, get(path))
    assert status == 404, body
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


async def test_issue25_5_http_connections_count_against_the_connection_limits(
        limited_site) -> None:
    running, web = limited_site
    held = [await _raw(web.port) for _ in range(6)]
    await trio.sleep(0.2)
    assert running.peer.connections.get("127.0.0.1") == 6
    # a seventh HTTP connection is told the host is full, and so is a TCP client
    extra = await _raw(web.port)
    assert await _get_many(extra, ["/"]) == [503]
    await extra.aclose()
    with pytest.raises(Exception, match="full"):
        async with open_client("127.0.0.1", running.port, name="late"):
            pass
    for stream in held:
        await stream.aclose()
    with trio.fail_after(5):
        while running.peer.connections.get("127.0.0.1"):
            await trio.sleep(0.05)
    async with open_client("127.0.0.1", running.port, name="later"):
        pass


async def test_issue25_14_http_connections_are_kept_alive(limited_site) -> None:
    _, web = limited_site
    stream = await _raw(web.port)
    paths = ["/", "/static/app.css", "/static/app.js", "/nope", "/static/app.css"]
    assert await _get_many(stream, paths) == [200, 200, 200, 404, 200]
    await stream.aclose()


@pytest.mark.parametrize("host", ["evil.example", "evil.example.", "EVIL.example"])
async def test_issue25_12_dns_rebinding_a_foreign_host_name_is_refused(site, host) -> None:
    _, port = site
    with pytest.raises(Refused) as refused:
        await open_ws("127.0.0.1", port, origin=f"http://{host}:{port}",
                      host_header=f"{host}:{port}")
    assert refused.value.status == 421 and b"--allow-host" in refused.value.body
    status, _, _ = await http(port, get("/").replace(b"Host: 127.0.0.1", f"Host: {host}".encode()))
    assert status == 421


async def test_issue25_12_this_peer_s_own_names_and_added_ones_are_answered(
        nursery, registry, tmp_path) -> None:
    import socket

    from lantable.web.join import lan_address

    running = await nursery.start(lambda task_status: serve_peer(
        registry=registry, db=str(tmp_path / "journal.sqlite"), bind="127.0.0.1", port=0,
        task_status=task_status))
    web = await nursery.start(lambda task_status: serve_web(
        peer=running.peer, bind="127.0.0.1", port=0, allow_hosts=["Party.Lan"],
        task_status=task_status))
    port = web.port
    names = ["127.0.0.1", "localhost", lan_address(), "[::1]", socket.gethostname(),
             f"{socket.gethostname().split('.')[0]}.local",
             f"lantable-{running.peer.peer_id}.local", "party.lan", "app.localhost"]
    for name in names:
        header = f"{name}:{port}"
        ws = await open_ws("127.0.0.1", port, origin=f"http://{header}", host_header=header)
        assert (await hello(ws))["t"] == "welcome", name
        await ws.aclose()
        status, _, _ = await http(port, get("/").replace(b"127.0.0.1", name.encode()))
        assert status == 200, name


@pytest.mark.parametrize("path", ["/nope", "/static/" + "n" * 300])
async def test_issue25_10_a_head_request_that_misses_gets_its_status_too(site, path,
                                                                         caplog) -> None:
    """Found by the web fuzzer: a HEAD answered 404 (or 421) with a body broke h11's
    state, which logged a traceback and sent nothing."""
    _, port = site
    status, _, body = await http(port, get(path, method="HEAD"))
    assert status == 404 and body == b""
    foreign = get("/", method="HEAD").replace(b"Host: 127.0.0.1", b"Host: evil.example")
    status, _, body = await http(port, foreign)
    assert status == 421 and body == b""
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


async def test_issue25_5_websockets_give_their_count_back(limited_site) -> None:
    """Found by the web fuzzer: an upgraded connection must be counted once, and given
    back when it closes, however it closes."""
    running, web = limited_site
    for i in range(12):  # twice the per-address limit
        ws = await open_ws("127.0.0.1", web.port)
        await hello(ws)
        if i % 2:
            await ws.send_text("not a frame")  # a fatal error
            assert (await ws.receive_until("error"))["code"] == "bad_frame"
        await ws.aclose()
        with trio.fail_after(5):
            while running.peer.connections:
                await trio.sleep(0.02)


def test_issue25_12_lantable_host_takes_names_to_allow() -> None:
    from lantable.clients.cli import build_parser

    args = build_parser().parse_args(["host", "--allow-host", "den.lan", "--allow-host", "Box"])
    assert args.allow_host == ["den.lan", "Box"]
    assert build_parser().parse_args(["host"]).allow_host is None
