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


def _start_host(db: str, port: int, workers: int = 0) -> subprocess.Popen:
    proc = subprocess.Popen(
        [*LANTABLE, "host", "--bind", "127.0.0.1", "--port", str(port), "--db", db,
         "--no-discovery", "--workers", str(workers)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    assert "listening on" in line, line
    return proc


def _actions(db: str) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT count(*) FROM actions").fetchone()[0]


def _worker_pid(host: int, index: int) -> int:
    """The pid of worker ``index`` of the host process ``host`` (host/workers.py)."""
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline") as f:
                cmdline = f.read()
        except (OSError, ValueError):
            continue
        if ppid == host and "lantable.host.worker\x00" in cmdline and \
                f'"index": {index},' in cmdline:
            return int(entry)
    raise AssertionError(f"no worker {index} under {host}")


def _run(db: str, *, kill_after: int | None, workers: int = 0, kill: str = "host") -> dict:
    """Play a race table with three bots; SIGKILL ``kill`` ("host", or "worker": the
    worker process that owns the table) after ``kill_after`` actions, and restart it."""
    port = _free_port()
    host = _start_host(db, port, workers)
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
            if kill == "worker":  # the front starts it again by itself
                from lantable.host.workers import owner

                os.kill(_worker_pid(host.pid, owner(table, workers)), signal.SIGKILL)
            else:
                os.kill(host.pid, signal.SIGKILL)
                host.wait()
            killed_at = _actions(db)
            assert killed_at < 1000, "the game ended before the kill; make it longer"
            if kill != "worker":
                host = _start_host(db, port, workers)
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


@pytest.fixture(scope="module")
def calm(tmp_path_factory):
    """The game played without a kill, once for every kind of kill."""
    return _run(str(tmp_path_factory.mktemp("calm") / "calm.sqlite"), kill_after=None)


@pytest.mark.parametrize(("workers", "kill"), [(0, "host"), (2, "host"), (2, "worker")])
def test_sigkill_mid_game_then_restart_finishes_like_an_uninterrupted_run(tmp_path, calm,
                                                                          workers, kill):
    """Also with worker processes (host/workers.py): SIGKILL of the front (all of the
    host) or of the worker that serves the table."""
    killed = _run(str(tmp_path / "killed.sqlite"), kill_after=100, workers=workers, kill=kill)
    assert calm["status"] == killed["status"] == "finished"
    assert killed["scores"] == calm["scores"]
    assert killed["actions"] == calm["actions"]
