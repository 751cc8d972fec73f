"""The browser's WebSocket at a host with worker processes (host/workers.py): a
WebSocket connection follows its table to the worker that owns it, as a TCP one does,
and comes back to the front for the front's tables.

Browser-protocol clients (web/wsclient.py) against real worker processes: a table
made and played on a worker to the end, then a table of the front's on the same
connections; a worker killed with SIGKILL, its WebSocket players resuming with their
tokens; a message half-sent while the connection is handed over (and a WebSocket
broken then: its error, no traceback); a page bot at a worker's table; and the page
itself in Chromium at ``lantable host --workers 2``: a game with a bot, "Play again",
and a resume after its table's worker is SIGKILLed.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
import trio
from wsproto.events import BytesMessage, TextMessage

from lantable.clients.runner import PageBotCommand
from lantable.host.peer import serve_peer
from lantable.host.workers import owner
from lantable.plugins import load_registry
from lantable.web import serve_web
from lantable.web.wsclient import WsClient, open_ws

RACE = {"target": 16, "max_step": 2}


@pytest.fixture
def site(nursery, tmp_path):
    async def start(workers: int = 2, bots: bool = False):
        running = await nursery.start(lambda task_status: serve_peer(
            registry=load_registry(), db=str(tmp_path / "journal.sqlite"), name="w",
            bind="127.0.0.1", port=0, workers=workers,
            bots=PageBotCommand() if bots else None, task_status=task_status))
        web = await nursery.start(lambda task_status: serve_web(
            peer=running.peer, bind="127.0.0.1", port=0, task_status=task_status))
        return running, web.port

    return start


async def _open(port: int, name: str, **hello: object) -> tuple[WsClient, dict]:
    ws = await open_ws("127.0.0.1", port, origin=f"http://127.0.0.1:{port}",
                       host_header=f"127.0.0.1:{port}")
    await ws.send({"t": "hello", "proto": 1, "name": name, **hello})
    with trio.fail_after(10):
        return ws, await ws.receive_until("welcome")


async def _until(ws: WsClient, t: str, **match: object) -> dict:
    with trio.fail_after(10):
        return await ws.receive_until(t, **match)


async def _play(clients: dict[int, WsClient], table: str, first: dict[int, dict],
                moves: int | None = None) -> dict:
    """Play ``table`` with each seat's first legal action from each seat's latest
    update (``first``), to the end or ``moves`` actions; the last update."""
    updates, done, ids = dict(first), 0, 100
    while True:
        last = max(updates.values(), key=lambda u: u["seq"])
        if last["status"] == "finished" or (moves is not None and done >= moves):
            return last
        (seat,) = last["to_act"]
        ids += 1
        await clients[seat].send({"t": "act", "id": ids, "table": table, "seat": seat,
                                  "action": updates[seat]["legal"][0]})
        for s, c in clients.items():
            updates[s] = await _until(c, "update", table=table, seq=last["seq"] + 1)
        done += 1


async def _seat(clients: dict[int, WsClient], table: str) -> tuple[dict[int, str], dict[int, dict]]:
    """Join every client at its seat; their tokens and their first updates once all sit."""
    tokens = {}
    for seat, c in clients.items():
        await c.send({"t": "join", "id": 10 + seat, "table": table, "seat": seat})
        tokens[seat] = (await _until(c, "joined", id=10 + seat))["token"]
    first = {}
    for seat, c in clients.items():
        update = await _until(c, "update", table=table)
        while update["status"] == "waiting":
            update = await _until(c, "update", table=table)
        first[seat] = update
    return tokens, first


async def test_browser_players_play_a_worker_table_then_one_of_the_front(site) -> None:
    running, port = await site()
    a, _ = await _open(port, "ann", lobby=True)
    b, _ = await _open(port, "bob")
    await a.send({"t": "create", "id": 1, "game": "race", "seats": 2, "seed": 5,
                  "options": RACE})
    table = (await _until(a, "created", id=1))["table"]
    assert owner(table, 2) != 0  # made on a worker, as over TCP
    clients = {0: a, 1: b}
    _, first = await _seat(clients, table)
    assert (await _play(clients, table, first))["status"] == "finished"
    # The lobby still reaches a browser whose connection now lives on a worker.
    home = running.peer.create_table("race", 2, RACE, 7)  # one of the front's own
    assert owner(home.id, 2) == 0
    while not any(t["id"] == home.id for t in (await _until(a, "lobby"))["tables"]):
        pass
    # The game is over: the same connections go back to the front for its table.
    _, first = await _seat(clients, home.id)
    assert (await _play(clients, home.id, first))["status"] == "finished"
    for c in clients.values():
        await c.aclose()


async def test_a_websocket_player_resumes_after_its_worker_is_killed(site) -> None:
    running, port = await site()
    front = running.peer.handoff
    a, _ = await _open(port, "ann")
    b, _ = await _open(port, "bob")
    await a.send({"t": "create", "id": 1, "game": "race", "seats": 2, "seed": 3,
                  "options": RACE})
    table = (await _until(a, "created", id=1))["table"]
    where = owner(table, 2)
    clients = {0: a, 1: b}
    tokens, first = await _seat(clients, table)
    acknowledged = (await _play(clients, table, first, moves=3))["seq"]
    pid = front.pool[where].process.pid
    os.kill(pid, signal.SIGKILL)
    with trio.fail_after(10):
        for c in clients.values():  # the worker's sockets close with it
            while await c.receive() is not None:
                pass
        while not front.pool[where].ready.is_set() or front.pool[where].process.pid == pid:
            await trio.sleep(0.05)
    back, first = {}, {}
    for seat in (0, 1):
        back[seat], welcome = await _open(port, f"p{seat}", token=tokens[seat])
        assert welcome["resumed"] == {"table": table, "seat": seat, "token": tokens[seat]}
        first[seat] = await _until(back[seat], "update", table=table)
        assert first[seat]["seq"] == acknowledged  # nothing acknowledged was lost
    assert (await _play(back, table, first))["status"] == "finished"


async def test_a_message_half_sent_at_the_hand_off_arrives_whole_or_is_refused(
        site, caplog) -> None:
    _, port = await site()
    for cut in (5, 8):  # inside the next frame's header; inside its payload
        a, _ = await _open(port, "ann")
        await a.send({"t": "create", "id": 1, "game": "race", "seats": 2, "seed": 3,
                      "options": RACE})
        table = (await _until(a, "created", id=1))["table"]
        join = a.ws.send(BytesMessage(data=_pack({"t": "join", "id": 2, "table": table,
                                                  "seat": 0})))
        ping = a.ws.send(BytesMessage(data=_pack({"t": "ping", "id": 3})))
        # The join and part of the next message in one write: a header's first bytes go
        # to the worker with the socket; a payload begun, the front reads the rest first.
        await a.stream.send_all(join + ping[:cut])
        await trio.sleep(0.2)
        await a.stream.send_all(ping[cut:])
        assert (await _until(a, "joined", id=2))["table"] == table
        await _until(a, "pong", id=3)
        await a.aclose()
    # A client that breaks the WebSocket while the front waits for its message's end
    # gets the error any broken WebSocket gets.
    a, _ = await _open(port, "mallory")
    await a.send({"t": "create", "id": 1, "game": "race", "seats": 2, "seed": 3,
                  "options": RACE})
    table = (await _until(a, "created", id=1))["table"]
    join = a.ws.send(BytesMessage(data=_pack({"t": "join", "id": 2, "table": table})))
    ping = a.ws.send(BytesMessage(data=_pack({"t": "ping", "id": 3})))
    await a.stream.send_all(join + ping[:8])  # the front waits for the ping's end ...
    await trio.sleep(0.1)
    await a.stream.send_all(ping[8:] + a.ws.send(TextMessage(data="no")))  # ... and a text
    error = await _until(a, "error")
    assert error["code"] == "bad_frame"
    assert await a.receive() is None  # closed, by the front, politely
    assert not [r for r in caplog.records if r.exc_info]  # no traceback anywhere


async def test_a_page_bot_plays_at_a_worker_table(site) -> None:
    _, port = await site(bots=True)
    a, _ = await _open(port, "ann")
    await a.send({"t": "create", "id": 1, "game": "race", "seats": 2, "seed": 3,
                  "options": RACE})
    table = (await _until(a, "created", id=1))["table"]
    assert owner(table, 2) != 0
    await a.send({"t": "join", "id": 2, "table": table, "seat": 0})
    await _until(a, "joined", id=2)
    await a.send({"t": "add_bot", "id": 3, "table": table, "seat": 1, "strategy": "random"})
    ids = 10
    with trio.fail_after(30):
        while True:
            update = await a.receive_until("update", table=table)
            if update["status"] == "finished":
                break
            if update["to_act"] == [0]:
                ids += 1
                await a.send({"t": "act", "id": ids, "table": table, "seat": 0,
                              "action": update["legal"][0]})
    await a.aclose()


def _pack(msg: dict) -> bytes:
    import msgpack

    return bytes(msgpack.packb(msg))


# -- the page itself, in Chromium (tests/web/conftest.py) -------------------------------


@pytest.fixture
def workers_host(tmp_path):
    from .webhost import HostProcess

    proc = HostProcess(tmp_path / "journal.db", "--workers", "2").start()
    try:
        yield proc
    finally:
        proc.stop()


def test_the_page_plays_a_table_of_a_worker_with_a_bot_and_again(workers_host, browser) -> None:
    from .test_browser import play_until_over
    from .test_seats_web import open_race, person, shot

    ann = person(browser, "ann")
    table = open_race(ann, workers_host, seats=2, target=4)
    assert owner(table, 2) != 0  # the page's table is a worker's
    ann.wait_for_selector("#bots")
    ann.select_option("#add-bot-strategy", "random")
    ann.click("#add-bot button[type=submit]")
    ann.wait_for_selector("#turn:not(:has-text('more player'))")
    assert play_until_over(ann) >= 1
    assert ann.is_visible("#scores")
    shot(ann, "finished-at-a-worker-table-390x844")
    # "Play again": the rematch is made on the same worker, the bot comes along.
    ann.click("#play-again")
    deadline = time.monotonic() + 20  # (wait_for_function would eval: the CSP forbids it)
    while (again := ann.evaluate("location.hash").split("/")[-1]) == table:
        assert time.monotonic() < deadline, "no rematch table"
        ann.wait_for_timeout(50)
    assert owner(again, 2) == owner(table, 2)
    ann.wait_for_selector("#turn:not(:has-text('more player'))")
    assert play_until_over(ann) >= 1
    assert not ann.errors, ann.errors
    ann.context.close()


def _worker_pid(host_pid: int, index: int) -> int:
    """The pid of worker ``index`` of the ``lantable host`` process ``host_pid``."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if parent == host_pid and b"lantable.host.worker" in argv and \
                f'"index": {index},'.encode() in argv[-2]:
            return int(entry)
    raise AssertionError(f"no worker {index} under {host_pid}")


def test_the_page_resumes_after_its_tables_worker_is_killed(workers_host, browser) -> None:
    from .test_browser import play_until_over
    from .test_seats_web import open_race, person

    ann = person(browser, "ann")
    sockets: list[object] = []
    ann.on("websocket", lambda ws: sockets.append(ws))
    table = open_race(ann, workers_host, seats=2, target=8)
    ann.select_option("#add-bot-strategy", "random")
    ann.click("#add-bot button[type=submit]")
    ann.wait_for_selector("#turn:not(:has-text('more player'))")
    ann.wait_for_selector("#actions button.choice:not([disabled])")
    ann.click("#actions button.choice")
    assert workers_host.proc is not None
    os.kill(_worker_pid(workers_host.proc.pid, owner(table, 2)), signal.SIGKILL)
    # The page's socket closes with the worker; it reconnects to the front, which hands
    # it to the restarted worker by its seat's token, and the game goes on (the bot's
    # process reconnects likewise).
    assert play_until_over(ann) >= 1
    assert len(sockets) >= 2  # it did reconnect
    assert ann.evaluate("location.hash").endswith(table)
    assert not ann.errors, ann.errors
    ann.context.close()
