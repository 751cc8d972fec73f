"""`lantable play` takes back a move (issue 30, item 3): the offer, the ``undo``
command, `lantable bot` accepting on its own, and the question to a person at the
terminal. Screens are saved under tests/artifacts/<test name>/."""

from __future__ import annotations

import os

import pytest

from .test_play_terminal import PROMPT, _bots
from .tty import HAVE_TMUX, LANTABLE, Host, Tmux

pytestmark = pytest.mark.skipif(not HAVE_TMUX, reason="needs tmux")


def _play(sessions, label: str, host: Host, table: str, name: str) -> Tmux:
    env = {"XDG_DATA_HOME": os.environ["XDG_DATA_HOME"], "PYTHONPATH": os.getcwd()}
    tmux = Tmux(label, [*LANTABLE, "play", "--connect", host.address, "--table", table,
                        "--name", name], env, height=70)
    sessions.append(tmux)
    return tmux


def test_undo_at_the_terminal_with_a_bot_and_a_person_who_consents(host, sessions, procs):
    table = host.run("new", "manila", "--connect", host.address, "--seats", "3",
                     "--seed", "3").strip()
    ann = _play(sessions, "undo-ann", host, table, "ann")
    ann.wait_for(lambda s: "Waiting for 2 more players" in s, label="seated")
    bob = _play(sessions, "undo-bob", host, table, "bob")
    bob.wait_for(lambda s: "Waiting for 1 more player" in s, label="bob-seated")
    _bots(procs, host, table, "--strategy", "random", "--name", "robo")
    # Manila 4.1: the auction for harbour master; ann (seat 0) bids first.
    ann.wait_for(lambda s: PROMPT in s and "bid 1 to be harbour master" in s, label="turn")
    ann.send("bid 1")
    offered = ann.wait_for(lambda s: 'Type "undo"' in s, label="offer")
    assert "You may ask to take back your last move." in offered
    ann.send("undo")
    asked = bob.wait_for(lambda s: 'Type "yes"' in s, label="asked")
    assert "ann asks to take back their last move; waiting for" in asked
    bob.send("yes")
    done = ann.wait_for(lambda s: "ann took back their last move." in s, label="done")
    assert "Traceback" not in done
    ann.wait_for(lambda s: PROMPT in s and "bid 1 to be harbour master" in s, label="again")
    out = host.run("replay", "--db", str(host.db), "--table", table)
    assert "took back #1, with the consent of" in out and "robo" in out and "bob" in out
