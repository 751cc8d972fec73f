"""Turn clocks and pause by consent (issue 30, items 2 and 7; host/clock.py): a time-out
journalled and replayed, ``lantable verify`` passing with one and failing when the
record is altered, a chess clock's remaining time in updates, and a paused table
surviving a peer restart.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import msgpack
import pytest
import trio

from lantable.clients.client import RequestError, open_client
from lantable.clients.runner import PageBotCommand
from lantable.host.clock import ClockConfig
from lantable.host.limits import DEFAULT_LIMITS
from lantable.host.peer import serve_peer
from lantable.plugins import BadOptions, load_registry

RACE = {"target": 30, "max_step": 1}


@pytest.fixture(scope="module")
def games():
    return load_registry()


async def _peer(nursery, games, db, bots=None):
    return await nursery.start(lambda task_status: serve_peer(
        registry=games, db=str(db), bind="127.0.0.1", port=0, limits=DEFAULT_LIMITS,
        bots=bots, task_status=task_status))


async def _until(feed, test, seconds=10):
    with trio.fail_after(seconds):
        while True:
            update = await feed.receive()
            if test(update):
                return update


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lantable.clients.cli", *args],
                          capture_output=True, text=True, timeout=60)


def test_clock_options_are_checked():
    assert ClockConfig.from_map({"kind": "chess", "seconds": 60, "increment": 2,
                                 "on_timeout": "forfeit"}).increment == 2
    for bad, words in [({"seconds": 1}, "seconds 1"), ({"kind": "sand", "seconds": 9}, "kind"),
                       ({"seconds": 9, "increment": 3}, "chess"),
                       ({"seconds": 9, "on_timeout": "cry"}, "on_timeout"),
                       ({"seconds": 9.5}, "whole number"), ({"seconds": 9, "x": 1}, "unknown")]:
        with pytest.raises(BadOptions, match=words):
            ClockConfig.from_map(bad)


async def test_create_refuses_a_bad_clock(nursery, games, tmp_path):
    running = await _peer(nursery, games, tmp_path / "j.sqlite")
    async with open_client("127.0.0.1", running.port, name="ann") as ann:
        with pytest.raises(RequestError) as info:
            await ann.create("race", 2, RACE, clock={"kind": "decision", "seconds": 0})
        assert info.value.code == "bad_options" and "seconds 0" in info.value.message
        with pytest.raises(RequestError) as info:
            await ann.create("race", 2, RACE, fair={}, clock={"seconds": 5})
        assert "fair table" in info.value.message


async def _forfeit_by_time(nursery, games, db) -> str:
    """ann and bo play race with a 2 s decision clock; bo never moves and forfeits."""
    running = await _peer(nursery, games, db)
    async with open_client("127.0.0.1", running.port, name="ann") as ann, \
            open_client("127.0.0.1", running.port, name="bo") as bo:
        table = await ann.create("race", 2, RACE, seed=3,
                                 clock={"kind": "decision", "seconds": 2,
                                        "on_timeout": "forfeit"})
        await ann.join(table, 0)
        await bo.join(table, 1)
        feed = ann.updates(table)
        update = await _until(feed, lambda u: u.status == "playing" and u.to_act == [0])
        # the update says how long seat 0 has, in ms, not a wall time
        assert update.clock["kind"] == "decision" and update.clock["running"] == [0]
        assert 1500 < update.clock["left_ms"][0] <= 2000
        await ann.act(table, update.legal[0])
        update = await _until(feed, lambda u: u.to_act == [1])
        assert update.clock["running"] == [1] and update.clock["left_ms"][1] > 1500
        with trio.fail_after(5):
            start = trio.current_time()
            update = await _until(feed, lambda u: u.status == "finished")
            assert trio.current_time() - start >= 1.5  # not before the 2 s
        assert update.scores["forfeit"] == [1] and update.scores["rank"][1] == 2
        assert any(e.code == "out_of_time" and "bo ran out of time (2 s per decision)"
                   in e.message for e in ann.errors)
    await running.stop()
    return table


async def test_a_timeout_is_journalled_replayed_and_verified(nursery, games, tmp_path):
    db = tmp_path / "j.sqlite"
    table = await _forfeit_by_time(nursery, games, db)
    replay = _cli("replay", "--db", str(db), "--table", table)
    assert replay.returncode == 0, replay.stderr
    assert "clock: seat 1 (bo) ran out of time after move 1: it forfeits" in replay.stdout
    assert "clock: 2 s per decision" in replay.stdout
    data = json.loads(_cli("replay", "--db", str(db), "--table", table, "--json").stdout)
    assert [r["kind"] for r in data["clock"]] == ["config", "timeout"]
    verify = _cli("verify", "--db", str(db), "--table", table)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "seat 1 ran out of time after move 1 (the host's word)" in verify.stdout
    # Altered: the time-out named seat 0, who had moved; then a forged result.
    con = sqlite3.connect(db)
    (rowid, blob), = con.execute("SELECT rowid, record FROM clock WHERE table_id=? AND "
                                 "rowid = (SELECT max(rowid) FROM clock)", (table,))
    rec = msgpack.unpackb(blob)
    for change, words in [({"seat": 0}, "seat 0 was not to act"),
                          ({"scores": {**rec["scores"], "forfeit": [0]}}, "the result"),
                          ({"seq": 0}, "actions after it")]:
        con.execute("UPDATE clock SET record=? WHERE rowid=?",
                    (msgpack.packb({**rec, **change}), rowid))
        con.commit()
        verify = _cli("verify", "--db", str(db), "--table", table)
        assert verify.returncode == 1 and words in verify.stdout, (change, verify.stdout)
    con.close()


class RealBots(PageBotCommand):
    pass


async def test_a_timeout_hands_the_seat_to_a_bot_until_its_player_takes_it_back(
        nursery, games, tmp_path):
    running = await _peer(nursery, games, tmp_path / "j.sqlite", PageBotCommand())
    async with open_client("127.0.0.1", running.port, name="ann") as ann, \
            open_client("127.0.0.1", running.port, name="bo") as bo:
        table = await ann.create("race", 2, {"target": 6, "max_step": 1}, seed=3,
                                 clock={"kind": "chess", "seconds": 2, "increment": 1})
        await ann.join(table, 0)
        joined = await bo.join(table, 1)
        feed = ann.updates(table)
        update = await _until(feed, lambda u: u.status == "playing" and u.to_act == [0])
        await ann.act(table, update.legal[0])
        # bo sleeps: after 2 s a random bot plays seat 1, and the game goes on
        update = await _until(feed, lambda u: (u.seats[1].get("bot") or {}).get("handed"))
        assert update.clock["left_ms"][1] == 0
        update = await _until(feed, lambda u: u.to_act == [0], 20)
        assert update.clock["left_ms"][0] > 2000  # 2 s less what ann took, plus 1 s
        assert any(e.code == "out_of_time" for e in bo.errors)
        # bo comes back: the seat is his again, with time to think
        await bo.resume(joined.token)
        update = await _until(feed, lambda u: not u.seats[1].get("bot"), 20)
    records = running.peer.journal.clock_records(table)
    assert [r["kind"] for r in records if r["kind"] != "tick"] == ["config", "timeout"]
    assert records[-1]["kind"] == "tick" or records[1]["outcome"] == "bot"
    await running.stop()


async def test_pause_by_consent_survives_a_restart_and_resumes_next_day(
        nursery, games, tmp_path):
    db = tmp_path / "j.sqlite"
    running = await _peer(nursery, games, db)
    async with open_client("127.0.0.1", running.port, name="ann") as ann, \
            open_client("127.0.0.1", running.port, name="bo") as bo:
        table = await ann.create("race", 2, RACE, seed=3,
                                 clock={"kind": "chess", "seconds": 60})
        a = await ann.join(table, 0)
        b = await bo.join(table, 1)
        feed = bo.updates(table)
        update = await _until(feed, lambda u: u.status == "playing")
        with pytest.raises(RequestError) as info:
            await ann.pause(table, False)
        assert info.value.code == "bad_pause"
        noted = await ann.pause(table, True)
        assert not noted.paused and noted.waiting == [1]
        update = await _until(feed, lambda u: u.pause and u.pause["ask"])
        assert update.pause["ask"] == {"paused": True, "by": 0, "agreed": [0], "waiting": [1]}
        # bo says no: the request is dropped
        await bo.pause(table, False)
        update = await _until(feed, lambda u: u.pause is None)
        await ann.pause(table, True)
        noted = await bo.pause(table, True)
        assert noted.paused and noted.waiting == []
        update = await _until(feed, lambda u: u.pause and u.pause["paused"])
        assert update.clock["running"] == []
        left = update.clock["left_ms"]
        with pytest.raises(RequestError) as info:
            await ann.act(table, {"type": "step", "n": 1})
        assert info.value.code == "paused"
    await running.stop()
    # the next day: the restarted peer has the table paused, with the time it had
    running = await _peer(nursery, games, db)
    async with open_client("127.0.0.1", running.port, name="ann") as ann, \
            open_client("127.0.0.1", running.port, name="bo") as bo:
        await ann.resume(a.token)
        await bo.resume(b.token)
        feed = ann.updates(table)
        update = await _until(feed, lambda u: u.pause is not None)
        assert update.pause["paused"] and update.clock["left_ms"] == left
        summary = next(t for t in await ann.list_tables() if t["id"] == table)
        assert summary["paused"] and summary["clock"]["kind"] == "chess"
        await bo.pause(table, False)
        await ann.pause(table, False)
        update = await _until(feed, lambda u: u.pause is None and u.clock["running"])
        assert update.clock["running"] == [0] and update.legal
        await ann.act(table, update.legal[0])
    kinds = [r["kind"] for r in running.peer.journal.clock_records(table)]
    assert kinds == ["config", "pause", "resume", "tick"]
    await running.stop()


def test_the_clock_bounds_are_the_ones_docs_limits_states():
    from pathlib import Path

    from lantable.host.clock import COMEBACK_MS, INCREMENT, SECONDS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "limits.md").read_text()
    section = doc[doc.index("## Turn clocks and pause"):]
    assert f"`seconds`: {SECONDS[0]} to {SECONDS[-1]}" in section
    assert f"`increment`: {INCREMENT[0]} to {INCREMENT[-1]} seconds" in section
    assert f"at least {COMEBACK_MS // 1000} s" in section


async def test_a_default_action_is_played_for_a_seat_out_of_time_and_verified(
        nursery, games, tmp_path):
    db = tmp_path / "j.sqlite"
    running = await _peer(nursery, games, db)
    async with open_client("127.0.0.1", running.port, name="ann") as ann, \
            open_client("127.0.0.1", running.port, name="bo") as bo:
        with pytest.raises(RequestError) as info:
            await ann.create("manila", 3, clock={"seconds": 5, "on_timeout": "default"})
        assert "manila names no default action" in info.value.message
        table = await ann.create("race", 2, {"target": 30, "max_step": 3}, seed=3,
                                 clock={"kind": "decision", "seconds": 2,
                                        "on_timeout": "default"})
        await ann.join(table, 0)
        await bo.join(table, 1)
        feed = ann.updates(table)
        update = await _until(feed, lambda u: u.status == "playing" and u.to_act == [0])
        await ann.act(table, {"type": "step", "n": 3})
        # bo sleeps: the game's default (step 1) is played for him, and it is ann's turn
        update = await _until(feed, lambda u: u.seq == 2)
        assert update.to_act == [0] and update.events[0]["n"] == 1
        assert update.clock["left_ms"][0] > 1500
        assert any("the game plays its default move for bo" in e.message for e in ann.errors)
    await running.stop()
    replay = _cli("replay", "--db", str(db), "--table", table)
    assert "clock: seat 1 (bo) ran out of time after move 1: the game's default action " \
           "{'type': 'step', 'n': 1} is played for it" in replay.stdout
    verify = _cli("verify", "--db", str(db), "--table", table)
    assert verify.returncode == 0, verify.stdout
    con = sqlite3.connect(db)
    (rowid, blob), = con.execute("SELECT rowid, record FROM clock WHERE rowid = "
                                 "(SELECT max(rowid) FROM clock)")
    rec = msgpack.unpackb(blob)
    con.execute("UPDATE clock SET record=? WHERE rowid=?",
                (msgpack.packb({**rec, "action": {"type": "step", "n": 2}}), rowid))
    con.commit()
    con.close()
    verify = _cli("verify", "--db", str(db), "--table", table)
    assert verify.returncode == 1 and "not the journal's next action" in verify.stdout


async def test_at_a_fair_table_a_timeout_forfeits_and_verify_calls_it_the_hosts_word(
        nursery, games, tmp_path):
    db = tmp_path / "j.sqlite"
    running = await _peer(nursery, games, db)
    async with open_client("127.0.0.1", running.port, name="ann") as ann, \
            open_client("127.0.0.1", running.port, name="bo") as bo:
        table = await ann.create("race", 2, RACE, fair={},
                                 clock={"seconds": 2, "on_timeout": "forfeit"})
        await ann.join(table, 0)
        await bo.join(table, 1)
        feed = ann.updates(table)
        update = await _until(feed, lambda u: u.status == "playing" and u.to_act == [0])
        await ann.act(table, update.legal[0])
        update = await _until(feed, lambda u: u.status == "finished")
        assert update.scores["forfeit"] == [1]
    await running.stop()
    verify = _cli("verify", "--db", str(db), "--table", table)
    assert verify.returncode == 0, verify.stdout
    assert "OK: table" in verify.stdout and "(fair play)" in verify.stdout
    assert "seats [1] ran out of time (the host's word) and forfeit" in verify.stdout
