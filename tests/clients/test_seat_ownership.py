"""One laptop, many seats: ``lantable play`` and ``lantable bot`` never take each
other's remembered seats; taking one over is explicit (``--take-over``), and a person
confirms it (issue 22, item 5).

The scenario of the issue: ``lantable new`` -> ``lantable bot --count 1`` ->
``lantable play`` on the same machine (one token store). ``play`` used to resume the
bot's remembered seat 0: the bot died ("taken over by another connection with the
same token") and the table was stuck.
"""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from .tty import HAVE_TMUX, LANTABLE, Host, Tmux

pytestmark = pytest.mark.skipif(not HAVE_TMUX, reason="needs tmux")


def _env() -> dict[str, str]:
    return {"XDG_DATA_HOME": os.environ["XDG_DATA_HOME"], "PYTHONPATH": os.getcwd()}


def _play(sessions, label: str, host: Host, table: str, *extra: str) -> Tmux:
    tmux = Tmux(label, [*LANTABLE, "play", "--connect", host.address, "--table", table,
                        "--name", "ann", *extra], _env(), height=50)
    sessions.append(tmux)
    return tmux


def _bot(procs, host: Host, table: str, *extra: str) -> subprocess.Popen:
    proc = subprocess.Popen([*LANTABLE, "bot", "--connect", host.address, "--table", table,
                             "--count", "1", *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    procs.append(proc)
    return proc


def _seated(proc: subprocess.Popen) -> str:
    """The bot's first line: where it sat."""
    line = proc.stdout.readline()
    assert "seat" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
    return line


def test_play_after_bot_takes_a_free_seat_not_the_bots(host, sessions, procs):
    """The issue's scenario: the person gets seat 1, the bot keeps seat 0, the game runs."""
    table = host.run("new", "race", "--connect", host.address, "--seats", "2",
                     "--option", "target=5", "--seed", "1").strip()
    bot = _bot(procs, host, table)
    assert "seat 0" in _seated(bot)
    tmux = _play(sessions, "ownership-play-after-bot", host, table)
    screen = tmux.wait_for(lambda s: "Choose 1-" in s or "Waiting for" in s
                           or "Game over" in s or "Error" in s, label="seated", timeout=30)
    assert f"seat 1 at table {table}" in screen, screen
    assert "ann (you)" in screen
    time.sleep(0.5)
    assert bot.poll() is None, f"the bot died: {bot.stderr.read()}"
    # The person plays to the end against the bot.
    for _ in range(10):
        if "Game over" in screen:
            break
        if "Choose 1-" in screen:
            tmux.send("1")
        screen = tmux.wait_for(lambda s: "Game over" in s or "Choose 1-" in s,
                               label="decision", timeout=30)
    assert "Game over" in screen
    assert bot.wait(timeout=30) == 0, bot.stderr.read()


def test_a_second_play_on_the_same_laptop_takes_another_seat(host, sessions):
    """Two terminals of one person (hot seat): the second never resumes the first's seat
    while the first is running."""
    table = host.run("new", "race", "--connect", host.address, "--seats", "2",
                     "--option", "target=5", "--seed", "1").strip()
    first = _play(sessions, "ownership-first-play", host, table)
    first.wait_for(lambda s: f"seat 0 at table {table}" in s and "Waiting for 1 more" in s,
                   label="first-seated")
    second = _play(sessions, "ownership-second-play", host, table)
    screen = second.wait_for(lambda s: f"at table {table}" in s and "ann" in s, label="second")
    assert f"seat 1 at table {table}" in screen
    assert "taken over" not in first.screen()


def test_taking_over_a_bots_seat_is_explicit_and_confirmed(host, sessions, procs):
    table = host.run("new", "race", "--connect", host.address, "--seats", "2",
                     "--option", "target=9", "--seed", "1").strip()
    bot = _bot(procs, host, table)
    assert "seat 0" in _seated(bot)
    bo = Tmux("ownership-take-over-bo", [*LANTABLE, "play", "--connect", host.address,
                                         "--table", table, "--name", "bo"], _env(), height=50)
    sessions.append(bo)  # a person at seat 1 who thinks for ever: the game waits
    bo.wait_for(lambda s: f"seat 1 at table {table}" in s and "Choose 1-" in s, label="bo")
    # Naming the bot's seat without --take-over: refused, with how to take it.
    refused = subprocess.run([*LANTABLE, "play", "--connect", host.address, "--table", table,
                              "--seat", "0", "--name", "ann"], capture_output=True, text=True,
                             timeout=30, env={**os.environ, **_env()})
    assert refused.returncode != 0
    assert "--take-over" in refused.stderr and "Traceback" not in refused.stderr
    assert bot.poll() is None
    # With --take-over, a person is asked first; "n" leaves the bot alone.
    tmux = _play(sessions, "ownership-take-over-no", host, table, "--seat", "0", "--take-over")
    tmux.wait_for(lambda s: "[y/N]" in s, label="asked")
    tmux.send("n")
    tmux.wait_for(lambda s: "not taken" in s, label="declined")
    assert bot.poll() is None
    # "y" takes it: the bot stops, saying why; the person plays seat 0.
    tmux = _play(sessions, "ownership-take-over-yes", host, table, "--seat", "0",
                 "--take-over")
    tmux.wait_for(lambda s: "[y/N]" in s, label="asked")
    tmux.send("y")
    screen = tmux.wait_for(lambda s: f"seat 0 at table {table}" in s and "ann (you)" in s,
                           label="taken")  # the seat is named after the person who took it
    assert "random-1@" not in screen
    bot.wait(timeout=30)
    assert "taken over" in bot.stderr.read()
