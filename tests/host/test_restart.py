"""A host killed with SIGKILL mid-game and restarted with the same journal.

Real processes: ``lantable host`` and ``lantable bot`` over loopback. The bots
reconnect with their tokens and finish; the result equals an uninterrupted run.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.slow

LANTABLE = [sys.executable, "-m", "lantable.clients.cli"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_host(db: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [*LANTABLE, "host", "--bind", "127.0.0.1", "--port", str(port), "--db", db,
         "--no-discovery"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    assert "listening on" in line, line
    return proc


def _actions(db: str) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT count(*) FROM actions").fetchone()[0]


def _run(db: str, *, kill_after: int | None) -> dict:
    port = _free_port()
    host = _start_host(db, port)
    try:
        table = subprocess.run(
            [*LANTABLE, "new", "race", "--connect", f"127.0.0.1:{port}", "--seats", "3",
             "--seed", "11", "--option", "target=1500", "--option", "max_step=3"],
            check=True, capture_output=True, text=True).stdout.strip()
        bots = subprocess.Popen(
            [*LANTABLE, "bot", "--connect", f"127.0.0.1:{port}", "--table", table, "--count", "3",
             "--seed", "5", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if kill_after is not None:
            deadline = time.monotonic() + 60
            while _actions(db) < kill_after:
                assert time.monotonic() < deadline, "the bots never got going"
                assert bots.poll() is None, bots.stderr.read()
                time.sleep(0.01)
            os.kill(host.pid, signal.SIGKILL)
            host.wait()
            killed_at = _actions(db)
            assert killed_at < 1000, "the game ended before the kill; make it longer"
            host = _start_host(db, port)
        out, err = bots.communicate(timeout=120)
        assert bots.returncode == 0, err
        result = json.loads(out)
        replay = json.loads(subprocess.run(
            [*LANTABLE, "replay", "--db", db, "--table", table, "--json"],
            check=True, capture_output=True, text=True).stdout)
        return {"scores": result["scores"], "actions": [a["action"] for a in replay["actions"]],
                "status": replay["status"]}
    finally:
        host.kill()
        host.wait()


def test_sigkill_mid_game_then_restart_finishes_like_an_uninterrupted_run(tmp_path):
    calm = _run(str(tmp_path / "calm.sqlite"), kill_after=None)
    killed = _run(str(tmp_path / "killed.sqlite"), kill_after=100)
    assert calm["status"] == killed["status"] == "finished"
    assert killed["scores"] == calm["scores"]
    assert killed["actions"] == calm["actions"]
