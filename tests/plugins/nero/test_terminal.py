"""A person answers another player's card with an any-time card in `lantable play`, in a
real terminal (tmux), against two bots over TCP on loopback.

The screens the test checked are saved under tests/artifacts/nero_answer/.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(  # the shared terminal helpers
    "lantable_tests_tty", Path(__file__).resolve().parents[2] / "clients" / "tty.py")
tty = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tty)

pytestmark = pytest.mark.skipif(not tty.HAVE_TMUX, reason="needs tmux")

PROMPT = "Choose 1-"
ANSWER = re.compile(r"^\s+(\d+)\. (play (Bad Omens|Bad Weather|Wounded General/Contender) "
                    r"\(.*\) to (cancel|stop) .*)$", re.M)


def _move(screen: str) -> int | None:
    found = re.search(r"— table \w+.*?, move (\d+)", screen)
    return int(found.group(1)) if found else None


def test_a_person_answers_a_bots_card_with_an_any_time_card(tmp_path) -> None:
    """Seed 8 deals Livia (seat 0) two Bad Omens, two Bad Weather and a Wounded General.
    She takes choice 1 until she is asked whether to answer a bot's card; the screen says
    what is being answered; she answers, and the table sees her answer."""
    host = tty.Host(tmp_path / "journal.sqlite").start()
    env = {"XDG_DATA_HOME": str(tmp_path / "home"), "PYTHONPATH": os.getcwd(),
           "COLUMNS": "130", "LINES": "100"}  # the board, the events and the choices fit
    tmux = bots = None
    try:
        table = host.run("new", "nero", "--connect", host.address, "--seats", "3", "--seed",
                         "8", "--option", "short_game=true").strip()
        tmux = tty.Tmux("nero_answer", [*tty.LANTABLE, "play", "--connect", host.address,
                                        "--table", table, "--seat", "0", "--name", "livia"],
                        env, width=130, height=100)
        # Livia sits first: bots take the lowest free seats, and a bot that got seat 0
        # before her would leave her waiting. The bots keep their tokens apart from hers.
        tmux.wait_for(lambda s: "Waiting for 2 more players" in s, timeout=60, label="seated")
        bot_env = {**os.environ, **env, "XDG_DATA_HOME": str(tmp_path / "bots")}
        bots = subprocess.Popen([*tty.LANTABLE, "bot", "--connect", host.address, "--table",
                                 table, "--count", "2", "--seed", "1"], env=bot_env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        move = None
        for _ in range(80):
            screen = tmux.wait_for(lambda s, after=move: PROMPT in s and _move(s) is not None
                                   and (after is None or _move(s) > after),
                                   timeout=90, label="decision")
            move = _move(screen)
            offered = ANSWER.search(screen)
            if offered:
                break
            tmux.send("1")
        else:
            raise AssertionError("never asked to answer a card in 80 decisions")
        # What is answered is on the screen: the bot, its card, and its target.
        now = next(line for line in screen.splitlines() if "now: any-time cards" in line)
        assert "random-" in now and "(livia to answer)" in now, now
        let = next(line for line in screen.splitlines() if "let it happen:" in line)
        assert "random-" in let, let
        card = offered.group(3)
        tmux.send(offered.group(1))
        after = tmux.wait_for(lambda s: f"livia answers with {card} against" in s,
                              timeout=60, label="answered")
        line = next(x for x in after.splitlines() if f"livia answers with {card}" in x)
        assert "random-" in line, line  # against the bot's card (or its army)
        assert "Traceback" not in after
    finally:
        if tmux is not None:
            tmux.close()
        if bots is not None:
            bots.kill()
            bots.communicate(timeout=30)
        host.kill()
