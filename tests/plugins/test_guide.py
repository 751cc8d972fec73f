"""The plugin guide's own example (docs/plugins.md, section 8) passes every command the
guide recommends: games, check, simulate, demo."""

from __future__ import annotations

import re
import types
from pathlib import Path

import pytest

from lantable.clients import cli
from lantable.clients.commands import common
from lantable.plugins import load_registry

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"


def _coinflip() -> types.ModuleType:
    text = GUIDE.read_text()
    code = re.search(r"`src/lantable_coinflip/__init__.py`:\n\n```python\n(.*?)```", text,
                     re.S).group(1)
    module = types.ModuleType("lantable_coinflip")
    exec(compile(code, str(GUIDE), "exec"), module.__dict__)  # noqa: S102 - our own guide
    return module


@pytest.fixture
def coinflip(monkeypatch):
    module = _coinflip()
    monkeypatch.setattr(common, "load_registry",
                        lambda: load_registry(autoload=True, plugins={"coinflip": module}))
    return module


@pytest.mark.parametrize("command", [
    ["games"],
    ["check", "coinflip", "--games", "3"],
    ["simulate", "coinflip", "--players", "3", "--games", "50"],
    ["demo", "--game", "coinflip", "--players", "3"],
])
def test_the_guides_example_passes_every_recommended_command(coinflip, capfd, command):
    assert cli.main(command) == 0
    out = capfd.readouterr().out
    assert "coinflip" in out.lower() or "coin flip" in out.lower() or "won" in out, out
