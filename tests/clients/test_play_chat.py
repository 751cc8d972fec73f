"""Chat, the bell and a rematch in `lantable play` (issue 30, items 1, 4 and 5): a
real terminal (tmux) against a real host, and the decider's bell on its own."""

from __future__ import annotations

import io

import pytest
import trio
from rich.console import Console

from lantable.clients.screen import Screen
from lantable.clients.terminal import TerminalDecider
from lantable.plugins import load_registry
from lantable.protocol import Update

from .test_play_terminal import _bots, _move, _play  # host, sessions, procs: conftest.py
from .tty import HAVE_TMUX


async def test_the_bell_rings_once_when_a_decision_comes() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    screen = Screen(load_registry()["race"], 0, console)
    update = Update(table="t", seq=0, status="playing", seats=[{"name": "ann"}, {"name": "bo"}],
                    seat=0, view={"seats": 2, "target": 3, "max_step": 2, "counter": 0,
                                  "turn": 0, "moves": 0, "winner": None},
                    to_act=[0], legal=[{"type": "step", "n": 1}, {"type": "step", "n": 2}])
    screen.on_update(update)
    send, lines = trio.open_memory_channel[str | None](4)
    for typed in ("nonsense", "2"):  # a refused line redraws, and does not ring again
        send.send_nowait(typed)
    chosen = await TerminalDecider(screen, lines=lines, bell=True)(update, update.legal)
    assert chosen == {"type": "step", "n": 2}
    assert out.getvalue().count("\a") == 1
    quiet = io.StringIO()
    screen.console = Console(file=quiet, force_terminal=True, width=100)
    send.send_nowait("1")
    await TerminalDecider(screen, lines=lines, bell=False)(update, update.legal)
    assert "\a" not in quiet.getvalue()


@pytest.mark.skipif(not HAVE_TMUX, reason="needs tmux")
def test_chat_at_the_table_then_play_again_from_the_terminal(host, sessions, procs):  # noqa: F811
    table = host.run("new", "race", "--connect", host.address, "--seats", "2",
                     "--option", "target=4", "--option", "max_step=2").strip()
    tmux = _play(sessions, "play-chat", host, table)
    tmux.wait_for(lambda s: "Waiting for 1 more player" in s, label="seated")
    tmux.send("/say hello <b>bot</b>")  # while waiting: not a decision
    tmux.wait_for(lambda s: "ann: hello <b>bot</b>" in s, label="chat-waiting")
    _bots(procs, host, table)
    screen = tmux.wait_for(lambda s: "Game over" in s or "Choose 1-" in s, label="first")
    tmux.send("/say my move now")
    screen = tmux.wait_for(lambda s: "ann: my move now" in s and ("Choose 1-" in s
                                                                  or "Game over" in s),
                           label="chat-deciding")
    assert "ann: hello <b>bot</b>" in screen  # the earlier line is still there
    for _ in range(10):
        if "Game over" in screen:
            break
        move = _move(screen)
        tmux.send("1")
        screen = tmux.wait_for(lambda s, move=move: "Game over" in s or (
            "Choose 1-" in s and _move(s) is not None and _move(s) > move), label="move")
    screen = tmux.wait_for(lambda s: "Type /again" in s, label="over")
    tmux.send("/again")
    screen = tmux.wait_for(lambda s: "Waiting for 1 more player" in s and table not in s,
                           label="rematch")
    assert "ann (you)" in screen
