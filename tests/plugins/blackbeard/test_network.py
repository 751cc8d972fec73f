"""Blackbeard over TCP on loopback: a real host, `lantable new`, `lantable bot` and
`lantable play`, as people at a LAN party run them (no discovery: --no-discovery,
--connect)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

LANTABLE = [sys.executable, "-m", "lantable.clients.cli"]


def _run(*args: str) -> str:
    return subprocess.run([*LANTABLE, *args], check=True, capture_output=True, text=True,
                          timeout=300).stdout


@pytest.fixture
def host(tmp_path: Path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([*LANTABLE, "host", "--bind", "127.0.0.1", "--port", str(port),
                             "--db", str(tmp_path / "j.sqlite"), "--no-discovery"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert "listening" in proc.stdout.readline()
        yield f"127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()


def test_bots_play_a_whole_game_over_tcp(host: str) -> None:
    table = _run("new", "blackbeard", "--connect", host, "--seats", "4",
                     "--seed", "7").strip()
    out = json.loads(_run("bot", "--connect", host, "--table", table,
                              "--count", "4", "--seed", "1", "--json"))
    assert sorted(out["seats"]) == [0, 1, 2, 3]
    assert len(out["scores"]["scores"]) == 4 and 1 in out["scores"]["rank"]


def test_a_person_plays_whole_turns_against_bots(host: str) -> None:
    """A person at seat 0 deploys a pirate and plays his Player-Turns in `lantable play`
    (a bad entry first, then always choice 1) while two bots fill seats 1-2: he plays
    an Action card, sails, and ends his turn; no traceback."""
    table = _run("new", "blackbeard", "--connect", host, "--seats", "3",
                     "--seed", "2").strip()
    person = subprocess.Popen([*LANTABLE, "play", "--connect", host, "--table", table,
                               "--seat", "0", "--name", "livia"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert table in person.stdout.readline()  # the screen's title line
    bots = subprocess.Popen([*LANTABLE, "bot", "--connect", host, "--table", table,
                             "--count", "2", "--seed", "3"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out, err = person.communicate("x\n" + "1\n" * 60, timeout=240)
    finally:
        bots.kill()
        bots.communicate(timeout=30)
    assert "No choice matches 'x'" in out
    assert "Your move." in out and "put Edward Low to sea in N. Atlantic" in out
    for line in ("livia puts Edward Low to sea in N. Atlantic", "livia's turn 1",
                 "livia plays Fair Winds for 3 Actions", "livia ends the turn"):
        assert line in out, line
    assert "Traceback" not in err, err
