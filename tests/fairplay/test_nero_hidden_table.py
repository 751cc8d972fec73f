"""Nero with a hidden deck at a fair table over loopback TCP: four random bots play a
whole game; every seat deals with its own client (clients/fairdecks.py) and lists its
actions with Nero's client half; ``lantable verify`` passes the journal; the host never
opens a card dealt to one seat (docs/fair-play.md, "Nero with a hidden deck")."""

from __future__ import annotations

import pytest
import trio

from lantable.clients.verify import verify
from lantable.host.table import FINISHED
from lantable.plugins import load_registry
from lantable.plugins.nero import hands as H
from lantable.plugins.nero.data import NCARDS
from lantable.plugins.nero.hidden import DECK
from lantable.protocol.deck_errors import DeckError
from lantable.protocol.hidden_deck import open_card

from .hiddengames import cards_of, play_hidden, unlock_steps
from .test_table import copy_of

SEATS = 4
# The short game (6 cards each) keeps the test quick; every rule is the same.
OPTIONS = {"hidden_deck": True, "short_game": True}


@pytest.fixture(scope="module")
def registry():
    return load_registry(autoload=True)


@pytest.fixture(scope="module")
def game(tmp_path_factory, registry):
    db = str(tmp_path_factory.mktemp("nero-hidden") / "journal.sqlite")
    return trio.run(lambda: play_hidden(db, SEATS, options=OPTIONS, registry=registry,
                                        game="nero", limit=600))



def test_a_whole_hidden_deck_nero_game_between_four_bots_over_tcp(game, registry) -> None:
    table = game.host_table
    assert table.status == FINISHED and len(game.results) == SEATS
    assert all(r == game.results[0] for r in game.results)
    assert [s.problems for s in game.seats.values()] == [[]] * SEATS
    records = game.journal().fair_records(game.table)
    shuffles = [r for r in records if r["kind"] == "deck_op" and r["op"] == "shuffle"]
    assert len(shuffles) == table.state["game_turn"]  # a fresh deck at each Game Turn
    assert sum(r["kind"] == "opened" for r in records) > 10  # cards played face up
    report = verify(copy_of(game.db, game.table), registry["nero"])
    assert report.ok, report.problems
    assert report.deals == len(shuffles)
    assert report.scores["scores"] == game.results[0]["scores"]


def test_the_host_never_opens_a_card_dealt_to_one_seat(game) -> None:
    table = game.host_table
    records = game.journal().fair_records(game.table)
    hidden = 0
    for rnd in table.fair.decks.done:
        deal = rnd.deal
        name = f"{rnd.deck}/{rnd.round}"
        truth = cards_of(records, name, deal.n, SEATS)
        for pos in range(deal.n):
            if pos in deal.opened:
                assert truth[pos] == rnd.public[pos]
                continue
            hidden += 1
            assert pos not in deal.got and pos not in rnd.public  # no key of it, ever
            points = [r["point"] for r in unlock_steps(records)
                      if r["deck"] == name and r["pos"] == pos]
            for point in [*points, deal.passes["lock"][-1][pos].hex()]:
                with pytest.raises(DeckError):
                    open_card(bytes.fromhex(point), [], deal.cards)
    # Per Game Turn at least the box (55 - 24 cards) stays hidden, and discards too.
    assert hidden >= len(table.fair.decks.done) * (NCARDS - SEATS * 6)
    # The host's state holds positions and the cards played face up, never a hand.
    S = table.state
    assert S["hidden"]["known"] == [{}] * SEATS and "_dealer" not in S
    assert all(H.is_masked(c) for h in S["hands"] for c in h)
    assert all(H.is_masked(c) for c in S["box_face_down"])
    assert set(S["box_face_up"]) <= set(table.fair.decks.done[-1].public.values())


def test_each_seat_knows_exactly_its_own_cards(game) -> None:
    records = game.journal().fair_records(game.table)
    last = game.host_table.fair.decks.done[-1]
    name = f"{last.deck}/{last.round}"
    truth = cards_of(records, name, last.deal.n, SEATS)
    dealt: dict[int, set[int]] = {s: set() for s in range(SEATS)}
    for r in unlock_steps(records):
        if r["deck"] == name:
            dealt[r["to"]].add(r["pos"])
    for seat, decks in game.seats.items():
        known = decks.known(game.table, seat)[DECK]
        assert set(known) == dealt[seat] | set(last.public)
        assert all(truth[p] == c for p, c in known.items())
