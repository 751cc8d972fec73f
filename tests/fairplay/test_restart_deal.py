"""A peer stopped in the middle of a hidden deal (SIGKILL, or SIGTERM: a gentle stop)
and restarted with the same journal resumes the deal: real processes (``lantable
host``, ``lantable bot``) over loopback, a 4-seat Nero table with hidden decks. The
host is stopped three times in one game: during the set-up's shuffle passes, during
the set-up's unlock steps, and while a later action waits for the keys of a card
turned face up. Each time the bots reconnect with their tokens and the secrets their
process kept, the restarted host asks them again for what its journal lacks, the game
ends, and ``lantable verify`` passes the journal (every pass, step, key and claim)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from typing import Any

import msgpack
import pytest

from .test_restart import LANTABLE, _free_port, _start_host

pytestmark = pytest.mark.slow

Records = list[dict[str, Any]]


def _records(db: str) -> Records:
    with sqlite3.connect(db) as con:
        return [msgpack.unpackb(r[0]) for r in
                con.execute("SELECT record FROM fairplay ORDER BY rowid").fetchall()]


def _under_way(records: Records) -> list[Records] | None:
    """The records of the deal under way (since its ``dealing``), or None."""
    start = None
    for i, rec in enumerate(records):
        if rec["kind"] == "dealing":
            start = i
        elif rec["kind"] in ("dealt", "forfeit"):
            start = None
    return None if start is None else [records[start:]]


def in_passes(records: Records) -> bool:
    deal = _under_way(records)
    return deal is not None and deal[0][0]["seq"] == 0 and 2 <= sum(
        r["kind"] == "deck_pass" for r in deal[0]) <= 6


def in_steps(records: Records) -> bool:
    """Some unlock steps of a deal taken, not all: any deal of the game (the set-up's
    steps are a few batched round trips, over before a loaded machine's test looks)."""
    deal = _under_way(records)
    return deal is not None and sum(r["kind"] == "deck_steps" for r in deal[0]) >= 2


def in_opening(records: Records) -> bool:
    deal = _under_way(records)
    return deal is not None and deal[0][0]["seq"] > 0 and records[-1]["kind"] == "deck_key"


def _wait(db: str, until: Callable[[Records], bool], bots: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the deal never reached that point"
        assert bots.poll() is None, bots.stderr.read() if bots.stderr else ""
        try:
            if until(_records(db)):
                return
        except sqlite3.OperationalError:  # the host is writing: look again
            pass
        time.sleep(0.0005)


def test_a_host_stopped_mid_deal_resumes_it_and_the_journal_verifies(tmp_path) -> None:
    db, port = str(tmp_path / "j.sqlite"), _free_port()
    env = {**os.environ, "LANTABLE_HOME": str(tmp_path / "home")}
    host = _start_host(db, port)
    bots = None
    try:
        table = subprocess.run(
            [*LANTABLE, "new", "nero", "--connect", f"127.0.0.1:{port}", "--seats", "4",
             "--fair", "--hidden-decks", "--fair-timeout", "30", "--option", "hidden_deck=true",
             "--option", "short_game=true"],
            check=True, capture_output=True, text=True, env=env).stdout.strip()
        bots = subprocess.Popen(
            [*LANTABLE, "bot", "--connect", f"127.0.0.1:{port}", "--table", table, "--count",
             "4", "--seed", "5", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=env)
        for until, how in ((in_passes, signal.SIGKILL), (in_steps, signal.SIGTERM),
                           (in_opening, signal.SIGKILL)):
            _wait(db, until, bots)
            os.kill(host.pid, how)
            host.wait()
            host = _start_host(db, port)
        out, err = bots.communicate(timeout=120)
        assert bots.returncode == 0, err
        assert "scores" in json.loads(out)
    finally:
        if bots is not None and bots.poll() is None:
            bots.kill()
            bots.wait()
        host.kill()
        host.wait()
    records = _records(db)
    assert sum(r["kind"] == "dealing" for r in records) == sum(
        r["kind"] == "dealt" for r in records) > 3  # every deal begun ended
    assert [r["message"] for r in records if r["kind"] in ("fault", "forfeit")] == []
    verified = subprocess.run([*LANTABLE, "verify", "--db", db, "--table", table, "--json"],
                              capture_output=True, text=True)
    report = json.loads(verified.stdout)
    assert verified.returncode == 0 and report["ok"], report["problems"]
    assert report["fair"] and report["notes"] == []
