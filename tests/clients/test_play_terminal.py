"""`lantable play` in a real terminal (tmux): what a person sees and types.

Each test saves the screens it checked under tests/artifacts/<test name>/.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from .tty import HAVE_TMUX, LANTABLE, Host, Tmux

pytestmark = pytest.mark.skipif(not HAVE_TMUX, reason="needs tmux")

PROMPT = "Choose 1-"


def _move(screen: str) -> int | None:
    found = re.search(r"— table \w+.*?, move (\d+)", screen)
    return int(found.group(1)) if found else None


def _play(sessions, name: str, host: Host, table: str, *extra: str) -> Tmux:
    env = {"XDG_DATA_HOME": os.environ["XDG_DATA_HOME"], "PYTHONPATH": os.getcwd()}
    tmux = Tmux(name, [*LANTABLE, "play", "--connect", host.address, "--table", table,
                       "--name", "ann", *extra], env, height=70)
    sessions.append(tmux)
    return tmux


def _bots(procs, host: Host, table: str, *args: str) -> subprocess.Popen:
    proc = subprocess.Popen([*LANTABLE, "bot", "--connect", host.address, "--table", table,
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    procs.append(proc)
    return proc


def _next_decision(tmux: Tmux, after: int | None, label: str, timeout: float = 60) -> str:
    """The next screen that asks for a decision at a later move, or the end."""
    return tmux.wait_for(lambda s: "Game over" in s or (
        PROMPT in s and _move(s) is not None and (after is None or _move(s) > after)),
        timeout=timeout, label=label)


def test_a_whole_seeded_game_of_manila_in_a_terminal(host, sessions, procs):
    table = host.run("new", "manila", "--connect", host.address, "--seats", "3",
                     "--seed", "3").strip()
    tmux = _play(sessions, "manila-whole-game", host, table)
    waiting = tmux.wait_for(lambda s: "Waiting for 2 more players" in s, label="seated")
    assert "ann (you)" in waiting and f"seat 0 at table {table}" in waiting
    _bots(procs, host, table, "--strategy", "mcts", "--budget", "0.15")
    _bots(procs, host, table, "--strategy", "greedy", "--name", "bob")

    screen = _next_decision(tmux, None, "first-decision")
    # The board, the names, whose turn and the money, in words.
    for text in ("Voyage 1: auction for harbour master", "Share prices:", "ann (you)",
                 "mcts-1@", "bob", "Your move.", "bid 1 to be harbour master",
                 "fortune if the game ended now 30", "cash"):
        assert text in screen, text
    # An illegal action typed as JSON is refused with its reason on one line.
    tmux.send('{"type": "bid", "amount": 9999}')
    refused = tmux.wait_for(lambda s: "Refused:" in s and PROMPT in s, label="refused")
    line = next(x for x in refused.splitlines() if "Refused:" in x)
    assert "bid must be an int from" in line and "Traceback" not in refused
    seen_waiting = seen_costs = typed = False
    move = None
    for step in range(200):
        if "Game over" in screen:
            break
        move = _move(screen)
        seen_costs |= "— costs" in screen
        if not typed and "insurance — free, you get 10 now" in screen:
            tmux.send("insurance")  # a choice typed in the game's words
            typed = True
        else:
            tmux.send("1")
        # Between our decisions the screen says whom we wait for.
        seen_waiting |= "Waiting for" in tmux.screen()
        screen = _next_decision(tmux, move, f"decision-{step + 1}")
    assert "Game over" in screen, "no end after 200 decisions"
    assert re.search(r"Game over\. You (won|came \d\w\w|tied)[^:]*: -?\d+ to -?\d+, -?\d+", screen)
    # A seat that did not win is told who did.
    assert "Game over. You won" in screen or re.search(r"; (ann|bob|mcts-1@\S+)( and \S+)? "
                                                      r"(won|tied for first) with -?\d+", screen)
    assert "A share price reached 30: the game is over" in screen
    assert seen_costs and typed
    assert seen_waiting or any("Waiting for" in p.read_text() for p in tmux.folder.iterdir())
    assert any("ann takes the insurance" in p.read_text() for p in tmux.folder.iterdir())


def test_a_turn_of_kaisers_pirates_then_ctrl_c_says_how_to_come_back(host, sessions, procs):
    table = host.run("new", "kaisers-pirates", "--connect", host.address, "--seats", "2",
                     "--seed", "5").strip()
    tmux = _play(sessions, "kaisers-pirates-turn", host, table, "--seat", "0")
    tmux.wait_for(lambda s: "Waiting for 1 more player" in s, label="seated")
    _bots(procs, host, table, "--strategy", "random")
    screen = _next_decision(tmux, None, "first-decision")
    for text in ("Round 1 of 3", "German ships", "merchants", "Your hand:", "ann (you)",
                 "random-1@", "att ", "def ", " VP"):
        assert text in screen, text
    move = _move(screen)
    decisions = 0
    while decisions < 12 and "Game over" not in screen:
        labels = [x for x in screen.splitlines() if re.match(r"\s+\d+\. ", x)]
        pick = next((x.split(".")[0].strip() for x in labels if "for its action" not in x), "1")
        tmux.send(pick)
        decisions += 1
        screen = _next_decision(tmux, move, f"decision-{decisions}")
        move = _move(screen)
    assert any("Committed this turn" in p.read_text() for p in tmux.folder.iterdir())
    tmux.ctrl_c()
    left = tmux.wait_for(lambda s: "Come back with:" in s, label="ctrl-c", timeout=10)
    assert "your seat waits for you" in left and "Traceback" not in left


def test_closing_play_mid_game_and_running_it_again_resumes_the_seat(host, sessions, procs):
    table = host.run("new", "race", "--connect", host.address, "--seats", "2", "--seed", "1",
                     "--option", "target=30", "--option", "max_step=1").strip()
    first = _play(sessions, "resume-first", host, table)
    first.wait_for(lambda s: "Waiting for 1 more player" in s, label="seated")
    _bots(procs, host, table)
    screen = _next_decision(first, None, "decision-1")
    first.send("1")
    screen = _next_decision(first, _move(screen), "decision-2")
    before = _move(screen)
    first.ctrl_c()
    first.wait_for(lambda s: "Come back with:" in s, label="ctrl-c", timeout=10)
    # The same command again, no token, no seat: the remembered seat comes back.
    again = _play(sessions, "resume-again", host, table)
    screen = again.wait_for(lambda s: PROMPT in s, label="resumed")
    assert "ann (you)" in screen and _move(screen) == before
    assert f"seat 0 at table {table}" in screen
    for step in range(40):
        if "Game over" in screen:
            break
        again.send("1")
        screen = _next_decision(again, _move(screen), f"decision-{step}")
    assert "Game over. You" in screen


def test_a_host_restart_mid_game_and_play_carries_on_by_itself(host, sessions, procs):
    table = host.run("new", "race", "--connect", host.address, "--seats", "2", "--seed", "2",
                     "--option", "target=30", "--option", "max_step=1").strip()
    tmux = _play(sessions, "host-restart", host, table)
    tmux.wait_for(lambda s: "Waiting for 1 more player" in s, label="seated")
    bot = _bots(procs, host, table)
    screen = _next_decision(tmux, None, "decision-1")
    tmux.send("1")
    screen = _next_decision(tmux, _move(screen), "decision-2")
    before = _move(screen)
    host.kill()
    tmux.wait_for(lambda s: "reconnecting" in s, label="host-gone")
    host.start()
    screen = tmux.wait_for(lambda s: PROMPT in s and "reconnected" in s, label="host-back")
    assert _move(screen) == before
    for step in range(40):
        if "Game over" in screen:
            break
        tmux.send("1")
        screen = _next_decision(tmux, _move(screen), f"after-restart-{step}")
    assert "Game over. You" in screen
    out, err = bot.communicate(timeout=60)
    assert bot.returncode == 0 and "finished" in out, err
