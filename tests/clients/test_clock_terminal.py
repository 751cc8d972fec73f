"""The turn clock in `lantable play` (issue 30, item 2), in a real terminal (tmux): the
first line shows each seat's time and counts down in place, between updates, without
touching the line the person types on. Screens go to tests/artifacts/<test name>/.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess

import pytest

from lantable.clients.clockline import clock_line, clock_text
from lantable.clients.commands.seats import clock_option
from lantable.protocol import Update

from .tty import HAVE_TMUX, LANTABLE, Host, Tmux


def test_lantable_new_reads_a_clock():
    assert clock_option("decision:30") == {"kind": "decision", "seconds": 30}
    assert clock_option("chess:600:5:forfeit") == {"kind": "chess", "seconds": 600,
                                                    "increment": 5, "on_timeout": "forfeit"}
    for bad in ("sand:30", "decision", "chess:ten", "decision:1:2:3"):
        with pytest.raises(argparse.ArgumentTypeError):
            clock_option(bad)


def test_the_clock_line_counts_from_the_updates_arrival():
    update = Update(table="t", seq=3, status="playing", seats=[{}, {}], seat=0, view={},
                    to_act=[0], clock={"kind": "chess", "seconds": 300, "increment": 5,
                                       "on_timeout": "bot", "left_ms": [61_000, 300_000],
                                       "running": [0]})
    line = clock_line(update, arrived=100.0, seat=0, names=["ann", "bo"], now=102.5)
    assert line == "Clock (5:00 a player + 5 s a move): ▶ ann (you) 0:59  ·  bo 5:00"
    assert clock_text(3_600_000 + 62_000) == "1:01:02" and clock_text(-5) == "0:00"
    paused = Update(table="t", seq=3, status="playing", seats=[{}, {}], seat=0, view={},
                    to_act=[0], pause={"paused": False, "ask": {"paused": True, "by": 1,
                                                                 "agreed": [1], "waiting": [0]}})
    assert clock_line(paused, 0, 0, ["ann", "bo"]) == ("bo asks to pause; waiting for ann "
                                                       "(type /pause to agree)")
    assert clock_line(paused, 0, 1, ["ann", "bo"]) == "bo asks to pause; waiting for ann"


class _Screen:
    """What TableChat writes to: its notice line and chat lines."""

    def __init__(self) -> None:
        self.notice, self.chat, self.update = "", [], None

    def refresh(self) -> None:
        pass


async def test_pause_and_resume_from_the_terminal(nursery, tmp_path):
    """`/pause` and `/resume` in `lantable play` ask the others, or agree when they ask
    (clients/tablechat.py); a table with a terminal player can be paused."""
    from types import SimpleNamespace

    import trio

    from lantable.clients.client import open_client
    from lantable.clients.tablechat import TableChat
    from lantable.host.peer import serve_peer
    from lantable.plugins import load_registry

    running = await nursery.start(lambda task_status: serve_peer(
        registry=load_registry(), db=str(tmp_path / "journal.sqlite"), name="pause-peer",
        bind="127.0.0.1", port=0, task_status=task_status))
    with trio.fail_after(30):
        async with open_client("127.0.0.1", running.port, name="ann") as ann, \
                open_client("127.0.0.1", running.port, name="bo") as bo:
            table = await ann.create("race", 2, {}, seed=1)
            await ann.join(table)
            await bo.join(table)
            chat = TableChat()
            chat.screen = _Screen()
            chat.attach(ann, SimpleNamespace(table=table), nursery)
            await chat.command("/pause")
            assert chat.screen.notice == "Asked; waiting for 1 more player to agree."
            assert (await bo.pause(table, True)).paused
            await chat.command("/pause")  # already paused: the host says why, in words
            assert chat.screen.notice.startswith("Refused: ")
            await bo.pause(table, False)
            await chat.command("/resume")
            assert chat.screen.notice == "The game goes on."
            assert not running.peer.tables[table].timing.paused


@pytest.mark.skipif(not HAVE_TMUX, reason="needs tmux")
def test_lantable_play_shows_the_clock_counting_down(tmp_path):
    host = Host(tmp_path / "journal.sqlite").start()
    bots = None
    tmux = None
    try:
        table = host.run("new", "race", "--connect", host.address, "--seats", "2", "--seed",
                         "1", "--option", "target=40", "--option", "max_step=1",
                         "--clock", "chess:60:forfeit").strip()
        env = {"XDG_DATA_HOME": os.environ["XDG_DATA_HOME"], "PYTHONPATH": os.getcwd()}
        tmux = Tmux("clock-counts-down", [*LANTABLE, "play", "--connect", host.address,
                                          "--table", table, "--name", "ann", "--seat", "0"],
                    env, height=50)
        # ann sits first: a bot started sooner could take seat 0 (CI saw it)
        tmux.wait_for(lambda s: "Waiting for 1 more player" in s, label="ann-seated")
        bots = subprocess.Popen([*LANTABLE, "bot", "--connect", host.address, "--table",
                                 table, "--count", "1"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        pattern = re.compile(r"Clock \(1:00 a player\): ▶ ann \(you\) 0:(\d\d)  ·  random")
        first = tmux.wait_for(lambda s: pattern.search(s) and "Choose 1-" in s,
                              label="clock-shown")
        assert first.splitlines()[0].startswith("Clock (1:00 a player)")
        shown = int(pattern.search(first).group(1))
        # nobody moves: the first line counts down by itself
        later = tmux.wait_for(lambda s: pattern.search(s) and
                              int(pattern.search(s).group(1)) <= shown - 2,
                              timeout=10, label="clock-counted-down")
        assert "Choose 1-" in later  # the question is still on screen
        tmux.send("1")
        after = tmux.wait_for(lambda s: "move 2" in s, label="after-moves")
        assert "Clock (1:00 a player)" in after
    finally:
        if tmux is not None:
            tmux.close()
        if bots is not None:
            bots.kill()
            bots.wait(10)
        host.kill()
