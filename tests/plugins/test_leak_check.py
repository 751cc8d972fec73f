"""Issue 26, item 4: `lantable check` fails a game whose events leak a hand, within the
same action and in another form than the view's, and passes the honest version
(tests/plugins/leaky.py, a small third-party card game)."""

from __future__ import annotations

import pytest

from lantable.clients import cli
from lantable.clients.commands import common
from lantable.plugins import load_registry

from .leaky import Peek

GAMES = {"peek": Peek(), "peek-remaining": Peek("remaining"), "peek-name": Peek("name"),
         "peek-position": Peek("position"),
         "peek-remaining-nosampler": Peek("remaining", sampler=False)}


@pytest.fixture(autouse=True)
def peek_installed(monkeypatch):
    registry = load_registry(autoload=False, plugins=dict(GAMES))
    assert sorted(registry.games) == sorted(GAMES), registry.errors
    assert not registry["peek-remaining-nosampler"].has_sampler
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    return registry


def _check(game: str, capsys) -> tuple[int, str]:
    code = cli.main(["check", game, "--games", "3"])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_honest_game_passes(capsys):
    code, text = _check("peek", capsys)
    assert code == 0, text
    assert "every check passed" in text


@pytest.mark.parametrize(("leak", "says"), [
    ("remaining", "'left'"),  # the acting seat's remaining hand, in its own public event
    ("name", "'hint'"),  # the next seat's card by name; views show ids
    ("position", "'where'"),  # where the next seat's best card sits in its hand
    ("remaining-nosampler", "'left'"),  # found without a sampler too
])
def test_a_leaking_event_fails_the_check(capsys, leak, says):
    code, text = _check(f"peek-{leak}", capsys)
    assert code == 1, text
    assert "FAIL" in text and "'played'" in text and says in text, text
