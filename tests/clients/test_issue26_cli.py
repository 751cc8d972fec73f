"""Issue 26, items 6-8: a plugin that fails to load is named with its cause everywhere,
a hook written but never registered is warned about, the examples docs/plugins.md
cites ship in the package, `lantable games` shows options' ranges, and `lantable
peers --json` reports what a peer advertised."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
import trio

from lantable.clients import cli
from lantable.clients.client import RequestError, open_client
from lantable.clients.commands import common
from lantable.clients.lan import fetch_tables
from lantable.host.peer import serve_peer
from lantable.plugins import hookimpl, load_registry
from lantable.protocol.discovery import PeerInfo

from .test_cli_errors import NoSampler

ROOT = Path(__file__).resolve().parents[2]


def _typo() -> types.ModuleType:
    module = types.ModuleType("trails")

    @hookimpl
    def game_describe_actoin(state, seat, action, names):  # the typo
        return "walk"

    module.game_describe_actoin = game_describe_actoin
    for name in ("game_info", "game_setup", "game_to_act", "game_legal_actions",
                 "game_apply", "game_view", "game_scores"):
        setattr(module, name, getattr(NoSampler(), name))
    return module


@pytest.fixture
def broken(monkeypatch):
    registry = load_registry(autoload=False, plugins={"trails": _typo()})
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    return registry


@pytest.mark.parametrize("command", [["check", "trails"], ["simulate", "trails", "--players",
                                                             "1"], ["demo", "--game", "trails"]])
def test_a_game_that_failed_to_load_is_named_with_its_cause(broken, capfd, command):
    assert cli.main(command) == 1
    err = capfd.readouterr().err
    assert err.count("\n") == 1, err
    assert "did not load" in err and "game_describe_actoin" in err, err
    assert "no game 'trails' is installed" not in err


async def test_the_host_says_the_cause_too(broken, tmp_path):
    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=broken, db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
            task_status=task_status))
        async with open_client("127.0.0.1", running.port, name="ann") as ann:
            with pytest.raises(RequestError) as info:
                await ann.create("trails", 1)
        nursery.cancel_scope.cancel()
    assert info.value.code == "no_such_game"
    assert "game_describe_actoin" in info.value.message


def test_a_hook_written_but_not_registered_is_a_warning(monkeypatch, capfd):
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "trailspkg"))
    sys.modules.pop("trails", None)
    import trails

    registry = load_registry(autoload=False, plugins={"trails": trails})
    monkeypatch.setattr(common, "load_registry", lambda: registry)
    assert cli.main(["check", "trails", "--games", "1"]) == 0
    err = capfd.readouterr().err
    assert "game_render_text is defined without @hookimpl" in err, err
    assert "game_describe_event is defined in trails.text but not imported" in err, err
    assert cli.main(["games"]) == 0
    out = capfd.readouterr()
    assert "game_describe_event is defined in trails.text" in out.err
    assert "--option length=3  (a whole number from 1 to 9)" in out.out


def test_games_shows_ranges_and_kinds(capsys):
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    assert "--option terrain=0  (a whole number from 0 to 3)" in out
    assert "--option target=21  (a whole number)" in out
    assert "--option hide_cash=false  (true or false)" in out


def test_the_examples_the_guide_cites_ship_in_the_package():
    guide = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    assert "tests/fairplay/highcard.py" not in guide
    assert "lantable.plugins.examples.highcard" in guide
    from lantable.plugins.conformance import check_game
    from lantable.plugins.examples.highcard import highcard_game

    assert check_game(highcard_game(), games=2) == []
    packages = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"lantable.plugins.examples"' in packages


async def test_peers_json_reports_what_was_advertised():
    with trio.socket.socket() as s:  # a port nobody listens on: unreachable
        await s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    peer = PeerInfo(instance="stranger", name="stranger", peer_id="abc",
                    addresses=("127.0.0.1",), port=port, proto=1, games=("manila",),
                    open_tables=2, web_port=47880)
    out = await fetch_tables(peer)
    assert out["error"] is not None and out["tables"] is None
    assert out["proto"] == 1 and out["web_port"] == 47880 and out["open_tables"] == 2
