"""Chat (host/chat.py; docs/protocol.md, "Chat and rematch"): who reads what, the size
and rate limits, mutes, the lobby, and a restart that keeps the lines."""

from __future__ import annotations

import sys
from typing import Any

import trio

from lantable.host.limits import DEFAULT_LIMITS

from .memory import MemoryClient, memory_peer


async def until(client: MemoryClient, want: Any) -> dict[str, Any]:
    """The next frame for which ``want(frame)`` holds (updates and others are skipped)."""
    with trio.fail_after(5):
        while True:
            frame = await client.next_map()
            if want(frame):
                return frame


def reply(rid: int) -> Any:
    return lambda f: f.get("id") == rid and f["t"] != "update"


def chat_line(f: dict[str, Any]) -> bool:
    return f["t"] == "chat_message"


async def table_of(running: Any, seats: int = 2,
                   target: int = 20) -> tuple[str, list[MemoryClient]]:
    """A playing tally table: ``seats`` players ann, bo, ... seated in order."""
    opener = await running.connect("opener")
    await opener.send_map({"t": "create", "id": 1, "game": "tally", "seats": seats,
                           "options": {"target": target}})
    table = (await until(opener, reply(1)))["table"]
    players = []
    for i, name in enumerate(["ann", "bo", "cy", "dee"][:seats]):
        c = await running.connect(name)
        await c.send_map({"t": "join", "id": 1, "table": table, "seat": i})
        assert (await until(c, reply(1)))["t"] == "joined"
        players.append(c)
    return table, players


async def watcher(running: Any, table: str, name: str) -> MemoryClient:
    c = await running.connect(name)
    await c.send_map({"t": "join", "id": 1, "table": table, "spectate": True})
    assert (await until(c, reply(1)))["t"] == "joined"
    return c


async def say(c: MemoryClient, rid: int, text: str, table: str | None) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "chat", "id": rid, "text": text}
    if table is not None:
        msg["table"] = table
    await c.send_map(msg)
    return await until(c, reply(rid))


async def test_players_chat_reaches_the_table_with_the_seat_name(registry) -> None:
    async with memory_peer(registry) as running:
        table, (ann, bo) = await table_of(running)
        cy = await watcher(running, table, "cy")
        sent = await say(ann, 5, "good luck <b>all</b>", table)
        assert sent["t"] == "chat_message" and sent["room"] == "players" and sent["n"] == 1
        assert (sent["name"], sent["seat"], sent["text"]) == ("ann", 0, "good luck <b>all</b>")
        for other in (bo, cy):
            got = await until(other, chat_line)
            assert got["text"] == "good luck <b>all</b>" and "id" not in got


async def test_a_spectators_chat_never_reaches_a_player_during_the_game(registry) -> None:
    async with memory_peer(registry) as running:
        table, (ann, bo) = await table_of(running, target=3)
        cy = await watcher(running, table, "cy")
        dee = await watcher(running, table, "dee")
        sent = await say(cy, 2, "ann's secret card is 42", table)
        assert sent["room"] == "spectators" and "seat" not in sent
        assert (await until(dee, chat_line))["text"] == "ann's secret card is 42"
        # The next chat line each player receives is a player's own: cy's never came.
        await say(bo, 3, "your move", table)
        assert (await until(ann, chat_line))["text"] == "your move"
        await ann.send_map({"t": "chat_history", "id": 4, "table": table})
        log = await until(ann, reply(4))
        assert [m["text"] for m in log["messages"]] == ["your move"]
        await cy.send_map({"t": "chat_history", "id": 4, "table": table})
        log = await until(cy, reply(4))
        assert [m["text"] for m in log["messages"]] == ["ann's secret card is 42", "your move"]
        # Once the game is over the players may read what the spectators said.
        await ann.send_map({"t": "act", "id": 6, "table": table, "action": {"type": "add", "n": 3}})
        await until(ann, lambda f: f["t"] == "update" and f["status"] == "finished")
        await ann.send_map({"t": "chat_history", "id": 7, "table": table})
        log = await until(ann, reply(7))
        assert [m["text"] for m in log["messages"]] == ["ann's secret card is 42", "your move"]


async def test_a_chat_flood_gets_too_fast_and_the_host_serves_the_others(registry) -> None:
    limits = DEFAULT_LIMITS.replace(chat_burst=3, chat_every=60.0)
    async with memory_peer(registry, limits) as running:
        table, (ann, bo) = await table_of(running)
        for i in range(20):
            await ann.send_map({"t": "chat", "id": 100 + i, "table": table, "text": f"spam {i}"})
        answers = [await until(ann, reply(100 + i)) for i in range(20)]
        assert [a["t"] for a in answers[:3]] == ["chat_message"] * 3
        assert {a.get("code") for a in answers[3:]} == {"too_fast"}
        assert "one line every 60 s after 3 at once" in answers[3]["message"]
        # bo is served at once: a ping, its own line, and it got only ann's 3 lines.
        await bo.send_map({"t": "ping", "id": 9})
        assert (await until(bo, reply(9)))["t"] == "pong"
        assert (await say(bo, 10, "please stop", table))["n"] == 4
        await bo.send_map({"t": "chat_history", "id": 11, "table": table})
        log = await until(bo, reply(11))
        assert [m["text"] for m in log["messages"]] == ["spam 0", "spam 1", "spam 2",
                                                        "please stop"]


async def test_chat_lines_are_bounded_and_plain(registry) -> None:
    async with memory_peer(registry, DEFAULT_LIMITS.replace(max_chat_bytes=10)) as running:
        table, (ann, _bo) = await table_of(running)
        stranger = await running.connect("eve")
        cases = [(ann, "x" * 11, table, "too_large"), (ann, "é" * 6, table, "too_large"),
                 (ann, "a\nb", table, "bad_chat"), (ann, "\x1b[2J", table, "bad_chat"),
                 (ann, "   ", table, "bad_chat"), (stranger, "hi", table, "not_seated"),
                 (ann, "hi", "nope", "no_such_table")]
        for i, (c, text, where, code) in enumerate(cases):
            got = await say(c, 20 + i, text, where)
            assert got["t"] == "error" and got["code"] == code, (text, got)
        assert (await say(ann, 40, "x" * 10, table))["t"] == "chat_message"


async def test_a_person_can_mute_another(registry) -> None:
    async with memory_peer(registry) as running:
        table, (ann, bo) = await table_of(running)
        await bo.send_map({"t": "mute", "id": 3, "name": "ann", "mute": True})
        assert (await until(bo, reply(3))) == {"t": "muted", "id": 3, "names": ["ann"]}
        await say(ann, 4, "you are slow", table)
        await say(ann, 5, "sorry", table)
        await bo.send_map({"t": "mute", "id": 6, "name": "ann", "mute": False})
        assert (await until(bo, reply(6)))["names"] == []
        await say(ann, 7, "well played", table)
        assert (await until(bo, chat_line))["text"] == "well played"


async def test_lobby_chat_reaches_every_lobby_watcher(registry) -> None:
    async with memory_peer(registry) as running:
        watchers = []
        for name in ("ann", "bo"):
            c = running.open()
            await c.send_map({"t": "hello", "proto": 1, "name": name, "lobby": True})
            await until(c, lambda f: f["t"] == "lobby")
            watchers.append(c)
        ann, bo = watchers
        sent = await say(ann, 1, "who plays Manila?", None)
        assert sent["room"] == "lobby" and "table" not in sent and sent["name"] == "ann"
        got = await until(bo, chat_line)
        assert (got["room"], got["text"]) == ("lobby", "who plays Manila?")


async def test_a_restart_keeps_the_chat_and_replay_prints_it(registry, tmp_path) -> None:
    db = str(tmp_path / "journal.sqlite")
    async with memory_peer(registry, journal=db) as running:
        table, (ann, bo) = await table_of(running)
        cy = await watcher(running, table, "cy")
        await say(ann, 2, "first", table)
        await ann.send_map({"t": "act", "id": 3, "table": table, "action": {"type": "add", "n": 2}})
        await until(ann, reply(3))
        await say(bo, 4, "second", table)
        await say(cy, 5, "from the stands", table)
        await say(ann, 6, "hello lobby", None)
    async with memory_peer(registry, journal=db) as running:
        c = await running.connect("cy")
        await c.send_map({"t": "join", "id": 1, "table": table, "spectate": True})
        await until(c, reply(1))
        await c.send_map({"t": "chat_history", "id": 2, "table": table})
        log = await until(c, reply(2))
        assert [(m["name"], m["text"]) for m in log["messages"]] == [
            ("ann", "first"), ("bo", "second"), ("cy", "from the stands")]
        assert (await say(c, 3, "still here", table))["n"] == 2  # numbering goes on
        await c.send_map({"t": "chat_history", "id": 4})
        assert [m["text"] for m in (await until(c, reply(4)))["messages"]] == ["hello lobby"]
    done = await trio.run_process([sys.executable, "-m", "lantable.clients.cli", "replay",
                                   "--db", db, "--table", table], capture_stdout=True)
    out = done.stdout.decode()
    assert out.index("ann (players): first") < out.index("#1 ") < out.index("bo (players): second")
    assert "cy (spectators): from the stands" in out
