"""Pirates of the Spanish Main with a hidden deck at 3 seats over loopback TCP, under the
multiplayer sheet (6.2, the default at 3+ seats) and sea monsters: three random bots
play a short game;
gold at home would stay face down; when the game ends every token not turned over is
opened to everyone (the last deal of the table), and only then are the winners named;
``lantable verify`` passes, and fails on an altered card of that final opening
(docs/fair-play.md, "Pirates of the Spanish Main with a hidden deck")."""

from __future__ import annotations

import dataclasses

import pytest
import trio

from lantable.clients.verify import verify
from lantable.host.table import FINISHED
from lantable.plugins import load_registry
from lantable.plugins.spanish_main import hidden as SH

from .hiddengames import play_hidden
from .test_table import copy_of

SEATS = 3
GAME = "pirates-spanish-main"
OPTIONS = {"hidden_deck": True, "max_rounds": 2, "monsters": True}  # every fleet has a monster


@pytest.fixture(scope="module")
def registry():
    return load_registry(autoload=True)


@pytest.fixture(scope="module")
def game(tmp_path_factory, registry):
    db = str(tmp_path_factory.mktemp("sm-sheet-hidden") / "journal.sqlite")
    return trio.run(lambda: play_hidden(db, SEATS, options=OPTIONS, registry=registry,
                                        game=GAME, limit=300))


def test_the_sheet_game_opens_every_token_at_the_end_then_names_the_winners(game, registry):
    table = game.host_table
    assert table.status == FINISHED and len(game.results) == SEATS
    assert all(r == game.results[0] for r in game.results)
    assert [s.problems for s in game.seats.values()] == [[]] * SEATS
    S = table.state
    assert S["options"]["multiplayer_mode"] == "official_sheet"
    assert sum(bool(s.get("monster")) for s in S["ships"]) == SEATS
    assert S["phase"] == "over" and S["revealed"] and S["hidden"]["final"]
    values = SH.pool(S)
    (rnd,) = table.fair.decks.done
    assert sorted(rnd.public) == list(range(rnd.deal.n))  # every token opened, at the end
    assert all(t["face_up"] and t["gold"] == values[rnd.public[k]]
               for k, t in enumerate(S["treasure"]))
    gold = S["home_gold"]
    assert S["winner"] == [p for p in range(SEATS) if gold[p] == max(gold)]
    report = verify(copy_of(game.db, game.table), registry[GAME])
    assert report.ok, report.problems
    assert report.scores["scores"] == game.results[0]["scores"]


def test_verify_catches_an_altered_card_of_the_final_opening(game, registry):
    copy = copy_of(game.db, game.table)
    records = [dict(r) for r in copy.fair]
    rec = [r for r in records if r["kind"] == "opened"][-1]
    pos, card = rec["cards"][-1]
    rec["cards"] = [*rec["cards"][:-1], [pos, (card + 1) % len(SH.pool(game.host_table.state))]]
    report = verify(dataclasses.replace(copy, fair=records), registry[GAME])
    assert any("opened to card" in p and "secrets put card" in p for p in report.problems), \
        report.problems
