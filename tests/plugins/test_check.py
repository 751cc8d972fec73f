"""`lantable check GAME`: the installed games pass, and a game that leaks a hidden
value through an event fails with the key named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lantable.clients.cli import main
from lantable.plugins import IllegalAction, hookimpl, load_registry
from lantable.plugins.conformance import check_game
from lantable.plugins.viewdoc import paths_in_page, undescribed


class Peek:
    """Two seats each hold a secret hand; a seat may look at its own hand. With
    ``leaky``, the "looked" event carries the hand but no "to": everyone sees it."""

    def __init__(self, leaky: bool) -> None:
        self.leaky = leaky

    @hookimpl
    def game_info(self):
        return {"id": "leaky" if self.leaky else "peek", "title": "Peek", "version": "1",
                "min_seats": 2, "max_seats": 2, "options": {}}

    @hookimpl
    def game_setup(self, seats, options, rng):
        return {"hands": [sorted(rng.sample(range(100, 200), 3)) for _ in range(seats)],
                "turn": 0, "moves": 0}

    @hookimpl
    def game_to_act(self, state):
        return [] if state["moves"] >= 6 else [state["turn"]]

    @hookimpl
    def game_legal_actions(self, state, seat):
        return [{"type": "look"}] if seat in self.game_to_act(state) else []

    @hookimpl
    def game_apply(self, state, seat, action, rng):
        if action != {"type": "look"}:
            raise IllegalAction(f"{action!r}: the only action is look")
        state["moves"] += 1
        state["turn"] = 1 - seat
        event = {"type": "looked", "seat": seat, "hand": list(state["hands"][seat])}
        if not self.leaky:
            event["to"] = [seat]
        return [event, {"type": "passed_on", "seat": seat}]

    @hookimpl
    def game_view(self, state, seat):
        view = {"turn": state["turn"], "moves": state["moves"]}
        if seat is not None:
            view["my_hand"] = list(state["hands"][seat])
        return view

    @hookimpl
    def game_scores(self, state):
        return {"scores": [0, 0], "rank": [1, 1]}


def _game(leaky: bool):
    name = "leaky" if leaky else "peek"
    return load_registry(autoload=False, plugins={name: Peek(leaky)})[name]


def test_a_game_that_keeps_secrets_passes():
    assert check_game(_game(False), games=2) == []


def test_an_event_that_leaks_a_hand_fails_naming_the_event_and_key():
    failures = check_game(_game(True), games=2)
    assert len(failures) == 1
    assert "event 'looked' key 'hand'" in failures[0] and "hidden 'my_hand'" in failures[0]


def test_the_installed_games_pass_lantable_check(capsys):
    for game in ("race", "manila"):
        assert main(["check", game, "--games", "2"]) == 0
        assert "every check passed" in capsys.readouterr().out


def test_lantable_check_of_an_unknown_game_is_one_line():
    proc = subprocess.run([sys.executable, "-m", "lantable.clients.cli", "check", "nosuchgame"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and "no game 'nosuchgame'" in proc.stderr


# -- a game's page: every key of every view described (docs/games/GAME.md) -------------

PEEK_PAGE = """# Peek
## View
| Path | Type | Meaning |
|---|---|---|
| `turn` | int | the seat to act |
| `moves` | int | looks so far |
| `my_hand` | list of int | your own hand |
| `my_hand[]` | int | a card |
## Actions
| `{"type": "look"}` | look at your hand |
"""


def test_a_game_whose_page_describes_every_view_key_passes():
    assert check_game(_game(False), games=2, page=PEEK_PAGE) == []


def test_a_view_key_missing_from_the_page_fails_naming_the_key():
    page = PEEK_PAGE.replace("| `my_hand` | list of int | your own hand |\n", "").replace(
        "| `moves` | int | looks so far |\n", "")
    failures = check_game(_game(False), games=2, page=page)
    assert failures and "`moves` (and my_hand)" in failures[0]
    assert "does not describe" in failures[0]


def test_a_page_without_a_view_table_is_a_finding():
    failures = check_game(_game(False), games=1, page="# Peek\n\nNothing here.\n")
    assert failures == ["peek: the game's page has no '## View' table of backticked paths, "
                        "so no view key is described"]


def test_page_paths_match_lists_and_maps_keyed_by_data():
    page = ("## View\n| `boats` | map |\n| `boats.*` | map |\n| `boats.*.crew` | list |\n"
            "| `boats.*.crew[]` | int |\n| `players` | list |\n| `players[].cash` | int |\n"
            "## Actions\n| `gold` | not a view row |\n")
    paths = paths_in_page(page)
    assert "gold" not in paths
    view = {"boats": {"b1": {"crew": [1, 2], "at": 3}, "b2": {"crew": [], "at": 0}},
            "players": [{"cash": 1, "shares": [1]}, {"cash": 2, "shares": []}], "gold": 4}
    # Each missing key named once, in the page's own words ('*' for the data-keyed map).
    assert undescribed(view, paths) == ["boats.*.at", "players[].shares", "gold"]
    assert undescribed({"boats": {}, "players": []}, paths) == []


PAGES = sorted(Path(__file__).resolve().parents[2].joinpath("docs", "games").glob("*.md"))


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_every_game_page_describes_its_games_views(page: Path) -> None:
    games = load_registry()
    assert page.stem in games, f"docs/games/{page.name} names no installed game"
    assert check_game(games[page.stem], games=1, seed=3,
                      page=page.read_text(encoding="utf-8")) == []


def test_lantable_check_finds_the_seed_games_page(capsys):
    assert main(["check", "race", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "views checked against" in out
    assert out.rstrip().endswith("every check passed (1 random game)")
