"""Our own hardening suite, bounded (``bench/fuzz.py`` runs the same for long):

- a structure-aware protocol fuzzer (hypothesis strategies from the message schemas,
  plus raw mutation) against a real ``lantable host``: every frame gets its documented
  reply or a documented fatal error and a close, and the host's log has no traceback;
- an exhaustion test per limit, measuring the host's RSS, while a bot game finishes;
- crash consistency: SIGKILL at random points under 16 tables, restart, every table's
  result equal to the uninterrupted run.
"""

from __future__ import annotations

import random
import sqlite3
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import fuzzing
from .fuzzing import Counts, Host, Session, Wire, client_message, frame

pytestmark = pytest.mark.slow

MIB = 1 << 20
# Small limits, so that a bounded test reaches each of them.
FLAGS = ["--max-connections", "60", "--max-tables", "2000", "--max-tables-per-client", "500",
         "--max-spectators", "10", "--idle-timeout", "3", "--frame-timeout", "1.5",
         "--max-outbox-bytes", str(512 * 1024)]


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    h = Host(str(tmp_path_factory.mktemp("hardening") / "journal.sqlite"), *FLAGS)
    yield h
    code = h.stop()
    try:
        assert code == 0, f"the host exited with {code}"
        assert h.tracebacks() == []
    finally:
        h.cleanup()


@pytest.fixture(scope="module")
def known():
    return {}


def _check_host(host: Host) -> None:
    assert host.alive()
    assert host.tracebacks() == []
    w = Wire(host.port)
    w.send(frame({"t": "hello", "proto": 1, "name": "check"}))
    assert w.next()["t"] == "welcome"
    w.send(frame({"t": "ping", "id": 7}))
    assert w.next() == {"t": "pong", "id": 7}
    w.close()


_SETTINGS = settings(max_examples=60, deadline=None, database=None, derandomize=True,
                     suppress_health_check=[HealthCheck.function_scoped_fixture,
                                            HealthCheck.too_slow])


def test_fuzz_structured_frames_get_their_documented_answer(host, known):
    bots = fuzzing.start_bot_game(host.port, seed=3)
    counts = Counts()

    @_SETTINGS
    @given(messages=st.lists(client_message(), min_size=1, max_size=10),
           seed=st.integers(0, 2**32))
    def run(messages, seed):
        failures = len(counts.failures)
        session = Session(host.port, counts, random.Random(seed), known)
        if seed % 3 == 0:
            session.opening()
        for msg in messages:
            session.send(msg)
        session.close()
        assert counts.failures[failures:] == []

    run()
    assert counts.frames > 200 and len(counts.errors) >= 5, counts
    assert fuzzing.bot_game_finished(bots)
    _check_host(host)


def test_fuzz_raw_mutations_are_refused_cleanly(host, known):
    counts = Counts()

    @_SETTINGS
    @given(messages=st.lists(client_message(), min_size=1, max_size=4),
           seed=st.integers(0, 2**32))
    def run(messages, seed):
        failures = len(counts.failures)
        session = Session(host.port, counts, random.Random(seed), known)
        for msg in messages[:-1]:
            session.send(msg)
        session.send(messages[-1], raw=True)
        session.close()
        assert counts.failures[failures:] == []

    run()
    assert set(counts.errors) & {"bad_frame", "frame_too_large"}, counts
    _check_host(host)


# -- exhaustion, one per limit -----------------------------------------------------------


def _grows_little(host: Host, before: int, bound: int = 120 * MIB) -> None:
    after = host.rss()
    assert after - before < bound, f"host RSS grew {(after - before) / MIB:.0f} MiB"


def test_exhaust_connections(host):
    bots = fuzzing.start_bot_game(host.port, seed=4)
    before = host.rss()
    seen = fuzzing.flood_connections(host.port, 100)
    assert seen["too_many_connections"] >= 30 and seen["welcome"] <= 60, seen
    _grows_little(host, before)
    assert fuzzing.bot_game_finished(bots)
    _check_host(host)


def test_exhaust_tables_and_the_lobby_list(tmp_path):
    host = Host(str(tmp_path / "tables.sqlite"), "--max-tables", "300",
                "--max-tables-per-client", "250", "--max-list-bytes", "20000")
    try:
        bots = fuzzing.start_bot_game(host.port, seed=6)
        before = host.rss()
        seen = fuzzing.flood_tables(host.port, 400)
        assert seen["too_many_tables"] > 0 and seen["created"] <= 250, seen
        w = Wire(host.port)
        w.send(frame({"t": "hello", "proto": 1, "name": "lister"}))
        welcome = w.next()
        assert welcome["t"] == "welcome" and welcome["more"] is True
        assert len(frame(welcome)) <= 20000 + 200
        w.close()
        _grows_little(host, before)
        assert fuzzing.bot_game_finished(bots)
        _check_host(host)
        assert host.stop() == 0
    finally:
        host.cleanup()


def test_exhaust_spectators(host):
    w = Wire(host.port)
    w.send(frame({"t": "hello", "proto": 1, "name": "maker"}))
    w.next()
    w.send(frame({"t": "create", "id": 1, "game": "race", "seats": 2}))
    table = w.next()
    assert table["t"] in ("created", "error")
    if table["t"] == "error":  # the table flood left no room: reuse a waiting table
        w.send(frame({"t": "list_tables", "id": 2}))
        table = {"table": w.next()["tables"][0]["id"]}
    before = host.rss()
    seen = fuzzing.flood_spectators(host.port, table["table"], 30)
    assert seen["joined"] <= 10 and seen["too_many_spectators"] >= 20, seen
    _grows_little(host, before)
    w.close()
    _check_host(host)


def test_exhaust_partial_frames_and_idle_connections(host):
    bots = fuzzing.start_bot_game(host.port, seed=5)
    before = host.rss()
    wires, _ = fuzzing.flood_partial_frames(host.port, 40)
    codes = []
    for w in wires:
        try:
            codes.append(w.next().get("code"))
        except (fuzzing.Closed, TimeoutError):
            codes.append(None)
        w.close()
    assert codes.count("frame_timeout") >= 35, codes
    idle = Wire(host.port)
    idle.send(frame({"t": "hello", "proto": 1, "name": "idle"}))
    idle.next()
    started = time.monotonic()
    assert idle.next()["code"] == "idle_timeout" and time.monotonic() - started < 8
    _grows_little(host, before)
    assert fuzzing.bot_game_finished(bots)
    _check_host(host)


def test_exhaust_outbox_of_clients_that_never_read(host):
    before = host.rss()
    socks = fuzzing.flood_unread(host.port, 5, 3000)
    time.sleep(3)
    _grows_little(host, before, bound=60 * MIB)
    for s in socks:
        s.close()
    _check_host(host)


def test_exhaust_oversize_fields(host):
    w = Wire(host.port)
    w.send(frame({"t": "hello", "proto": 1, "name": "big"}))
    w.next()
    w.send(frame({"t": "create", "id": 1, "game": "race", "seats": 2,
                  "options": {"target": "x" * 8000}}))
    assert w.next()["code"] == "too_large"
    w.send(frame({"t": "act", "id": 2, "table": "nope", "action": {"type": "x" * 9000}}))
    assert w.next()["code"] == "too_large"
    w.send(HEADER_TOO_BIG)
    assert w.next()["code"] == "frame_too_large"
    _check_host(host)


HEADER_TOO_BIG = fuzzing.HEADER.pack(70_000) + b"\x80"


# -- crash consistency -------------------------------------------------------------------


def _results(db: str) -> dict[str, list]:
    """Every table's game result (its journalled actions) by seed."""
    with sqlite3.connect(db) as con:
        seeds = dict(con.execute("SELECT id, seed FROM tables"))
        out: dict[int, list] = {}
        for table_id, seed in seeds.items():
            out[seed] = [row for row in con.execute(
                "SELECT seq, seat, action FROM actions WHERE table_id=? ORDER BY rowid",
                (table_id,))]
    return out


def _play_16(db: str, kill_after: list[int]) -> dict:
    """16 race tables played by lean bots; SIGKILL the host once the journal holds each
    count of actions in ``kill_after``, and restart it on the same journal and port."""
    import threading

    host = Host(db)
    port = host.port
    try:
        w = Wire(port)
        w.send(frame({"t": "hello", "proto": 1, "name": "maker"}))
        w.next()
        tables = []
        for i in range(16):
            w.send(frame({"t": "create", "id": i, "game": "race", "seats": 2, "seed": 100 + i,
                          "options": {"target": 120, "max_step": 3}}))
            tables.append(w.next()["table"])
        w.close()
        bots = [fuzzing.SeatBot(port, t, seat, 100 + i) for i, t in enumerate(tables)
                for seat in (0, 1)]
        deadline = time.monotonic() + 120
        threads = [threading.Thread(target=b.run, args=(deadline,), daemon=True) for b in bots]
        for t in threads:
            t.start()
        for count in kill_after:
            while _actions(db) < count:
                assert time.monotonic() < deadline and host.alive()
                time.sleep(0.01)
            host.proc.kill()
            host.proc.wait()
            host.cleanup()
            host = _restart(db, port)
        for t in threads:
            t.join(timeout=max(deadline - time.monotonic(), 1))
        assert all(b.scores is not None for b in bots), [b.error for b in bots]
        assert not kill_after or sum(b.reconnects for b in bots) > 0
        assert host.tracebacks() == []
    finally:
        host.cleanup()
    return _results(db)


def _actions(db: str) -> int:
    try:
        with sqlite3.connect(db, timeout=1) as con:
            return con.execute("SELECT count(*) FROM actions").fetchone()[0]
    except sqlite3.Error:
        return 0


def _restart(db: str, port: int) -> Host:
    """The host again on the same port (the bots reconnect to it)."""
    deadline = time.monotonic() + 20
    while True:
        try:
            return Host(db, port=port)
        except RuntimeError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_crash_consistency_sigkill_under_16_tables(tmp_path):
    rng = random.Random(2026)
    clean = _play_16(str(tmp_path / "clean.sqlite"), [])
    total = sum(len(actions) for actions in clean.values())
    kills = sorted(rng.sample(range(20, total - 20), 4))
    killed = _play_16(str(tmp_path / "killed.sqlite"), kills)
    assert len(clean) == 16 and killed == clean
