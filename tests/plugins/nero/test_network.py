"""Nero over TCP on loopback: a real host, `lantable new`, `lantable bot` and `lantable
play`, as people at a LAN party run them (no discovery: --no-discovery, --connect)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

LANTABLE = [sys.executable, "-m", "lantable.clients.cli"]


def _run(*args: str) -> str:
    return subprocess.run([*LANTABLE, *args], check=True, capture_output=True, text=True,
                          timeout=300).stdout


@pytest.fixture
def host(tmp_path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([*LANTABLE, "host", "--bind", "127.0.0.1", "--port", str(port),
                             "--db", str(tmp_path / "j.sqlite"), "--no-discovery"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert "listening" in proc.stdout.readline()
        yield f"127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()


def test_bots_play_a_whole_game_over_tcp(host: str) -> None:
    table = _run("new", "nero", "--connect", host, "--seats", "3", "--seed", "4",
                 "--option", "short_game=true").strip()
    out = json.loads(_run("bot", "--connect", host, "--table", table, "--count", "3",
                          "--json"))
    assert sorted(out["seats"]) == [0, 1, 2]
    assert len(out["scores"]["scores"]) == 3
    assert 1 in out["scores"]["rank"]


def test_a_person_plays_a_round_against_bots(host: str) -> None:
    """A person at seat 0 plays the opening decisions of a game in `lantable play` (a bad
    entry first, then always choice 1) while two bots fill seats 1-2; when the person's
    input ends, play stops with one line saying the seat waits, and no traceback."""
    table = _run("new", "nero", "--connect", host, "--seats", "3", "--seed", "2",
                 "--option", "short_game=true").strip()
    person = subprocess.Popen([*LANTABLE, "play", "--connect", host, "--table", table,
                               "--seat", "0", "--name", "livia"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = person.stdout.readline()  # the screen's title line (lantable play, issue 11)
    assert table in first, first
    bots = subprocess.Popen([*LANTABLE, "bot", "--connect", host, "--table", table,
                             "--count", "2"], stdout=subprocess.PIPE, text=True)
    try:
        out, err = person.communicate("x\n" + "1\n" * 40, timeout=180)
    finally:
        bots.kill()
        bots.communicate(timeout=30)
    assert "No choice matches 'x'" in out
    assert "livia" in out and "Your move." in out
    assert "step to " in out or "march " in out or "base" in out  # choices in words
    assert "Traceback" not in err, err
    assert "your seat waits for you" in err, err
