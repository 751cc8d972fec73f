"""Client tests: every test keeps its remembered seats (resume tokens) in its own data
directory, never in the user's, and subprocesses inherit it. The terminal tests share
``host`` (a real ``lantable host`` process), ``sessions`` (tmux sessions closed after
the test) and ``procs`` (processes killed after it); see tty.py."""

from __future__ import annotations

import subprocess

import pytest

from .tty import Host, Tmux


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path, monkeypatch):
    home = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "lantable"


@pytest.fixture
def host(tmp_path):
    host = Host(tmp_path / "journal.sqlite").start()
    yield host
    host.kill()


@pytest.fixture
def sessions():
    opened: list[Tmux] = []
    yield opened
    for tmux in opened:
        tmux.close()


@pytest.fixture
def procs():
    started: list[subprocess.Popen] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
