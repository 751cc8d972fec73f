"""Replays of fair tables (host/archive.py; docs/protocol.md, "Finished tables and
replays"): a fair table without hidden decks replays every seat's view, as the host
knew the whole game; a hidden-deck table replays the spectator's view only, since its
hidden cards were dealt among the seats and the host never saw them."""

from __future__ import annotations

import pytest
import trio

from lantable.host.archive import Archive, ReplayRefused
from lantable.host.journal import Journal
from lantable.plugins import load_registry

from .fairgames import play_fair
from .hiddengames import highcard_registry, play_hidden


def test_a_hidden_deck_table_replays_the_spectators_view_only(tmp_path) -> None:
    db = str(tmp_path / "journal.sqlite")
    game = trio.run(lambda: play_hidden(db, 3, options={"rounds": 2, "keep": 1}))
    registry = highcard_registry()
    journal = Journal(db)
    try:
        archive = Archive(journal, registry)
        first = archive.replay(game.table, 0, None)
        assert first["seat_views"] is False and first["steps"] > 0
        last = archive.replay(game.table, first["steps"], None)
        assert last["scores"] is not None
        for seat in range(3):
            with pytest.raises(ReplayRefused) as err:
                archive.replay(game.table, 1, seat)
            assert err.value.code == "bad_replay" and "spectator" in str(err.value)
    finally:
        journal.close()


def test_a_fair_table_without_hidden_decks_replays_each_seats_view(tmp_path) -> None:
    registry = load_registry()
    db = str(tmp_path / "journal.sqlite")
    game = trio.run(lambda: play_fair(registry, "race", 2, db,
                                      options={"target": 6, "max_step": 2}))
    journal = Journal(db)
    try:
        archive = Archive(journal, registry)
        start = archive.replay(game.table, 0, 0)
        assert start["seat_views"] is True and start["seat"] == 0
        end = archive.replay(game.table, start["steps"], 1)
        assert end["scores"] == game.results[0]  # the replay ends as the game did
        assert end["step"] == start["steps"] == len(journal.actions(game.table))
    finally:
        journal.close()
