"""The two hidden-deck calls for cards seen but not given (``decks.show``) and claims
made face down (``"sealed"``), over loopback TCP and where the host deals: high card
with its options ``peek`` (each seat is shown its neighbour's first card) and
``blind`` (tricks played face down, each play sealing its claim, turned over
together). No peer sees a card it should not, the host included; ``lantable verify``
checks every show and seal, and names the seat and step of what was altered
(docs/fair-play.md, "Hidden decks")."""

from __future__ import annotations

import dataclasses
import random

import pytest
import trio

from lantable.clients.fairdecks import SeatDecks
from lantable.clients.verify import verify
from lantable.host.table import FINISHED
from lantable.plugins import IllegalAction
from lantable.plugins.decks import Requests, sealed_of
from lantable.protocol.deck_errors import DeckError
from lantable.protocol.hidden_deck import open_card

from .hiddengames import first, highcard_registry, play_hidden, unlock_steps
from .highcard import highcard_game
from .test_table import copy_of

SEATS = 3
OPTIONS = {"rounds": 2, "keep": 1, "peek": True, "blind": True}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("showseal") / "journal.sqlite")
    return trio.run(lambda: play_hidden(db, SEATS, options=OPTIONS))


def _truth(records, deck, number, n):
    secrets = sorted((r for r in records if r["kind"] == "deck_secrets"
                      and r["deck"] == f"{deck}/{number}"), key=lambda r: r["seat"])
    order = list(range(n))
    for m in secrets:
        order = [order[src] for src in m["permutation"]]
    return order


def _verify(game, records=None, actions=None):
    copy = copy_of(game.db, game.table)
    changes = {}
    if records is not None:
        changes["fair"] = records
    if actions is not None:
        changes["actions"] = actions
    return verify(dataclasses.replace(copy, **changes), highcard_registry()["highcard"])



def test_a_whole_game_with_shows_and_seals_between_three_bots_over_tcp(game) -> None:
    table = game.host_table
    assert table.status == FINISHED and len(game.results) == SEATS
    assert [s.problems for s in game.seats.values()] == [[]] * SEATS
    records = game.journal().fair_records(game.table)
    shows = [r for r in records if r["kind"] == "deck_op" and r["op"] == "show"]
    assert len(shows) == 2 * SEATS  # each seat peeks once a round
    sealed = [r for r in records if r["kind"] == "sealed"]
    assert len(sealed) == 2 * SEATS * 2  # every play of the two tricks of both rounds
    report = _verify(game)
    assert report.ok, report.problems
    assert report.deals == 2


def test_the_actions_carry_seals_never_the_card(game) -> None:
    copy = copy_of(game.db, game.table)
    plays = [a for _seq, _seat, a, *_ in copy.actions if a.get("type") == "play"]
    assert plays and all(a["sealed"] and all(set(c) == {"deck", "pos", "seal"}
                                             for c in a["sealed"]) for a in plays)


def test_the_host_never_opens_a_card_dealt_or_shown_to_one_seat(game) -> None:
    table = game.host_table
    records = game.journal().fair_records(game.table)
    hidden = 0
    for rnd in table.fair.decks.done:
        deal = rnd.deal
        truth = _truth(records, rnd.deck, rnd.round, deal.n)
        for pos in range(deal.n):
            if pos in deal.opened:
                assert truth[pos] == rnd.public[pos]
                continue
            hidden += 1
            assert pos not in deal.got and pos not in rnd.public
            points = [r["point"] for r in unlock_steps(records)
                      if r["deck"] == f"{rnd.deck}/{rnd.round}" and r["pos"] == pos]
            for point in [*points, deal.passes["lock"][-1][pos].hex()]:
                with pytest.raises(DeckError):
                    open_card(bytes.fromhex(point), [], deal.cards)
    assert hidden >= SEATS + 2 * (20 - SEATS * 3)
    assert table.state["known"] == [{}] * SEATS and table.state["seen"] == [{}] * SEATS


def test_each_seat_knows_exactly_its_cards_and_the_one_shown_to_it(game) -> None:
    records = game.journal().fair_records(game.table)
    last = game.host_table.fair.decks.done[-1]
    truth = _truth(records, last.deck, last.round, last.deal.n)
    shown = {r["seat"]: r["positions"] for r in records
             if r["kind"] == "deck_op" and r["op"] == "show"}  # the last round's
    dealt = {s: set() for s in range(SEATS)}
    for r in records:
        if r["kind"] == "deck_op" and r["op"] == "deal":
            dealt[r["seat"]] = set(r["positions"])
        elif r["kind"] == "deck_op" and r["op"] == "give":
            dealt[r["seat"]].add(r["pos"])
    for seat, decks in game.seats.items():
        known = decks.known(game.table, seat)["cards"]
        assert set(known) == dealt[seat] | set(shown[seat]) | set(last.public)
        assert all(truth[p] == c for p, c in known.items())
    for seat in range(SEATS):  # the shown card stayed its holder's
        (pos,) = shown[seat]
        assert last.deal.owner[pos] == (seat + 1) % SEATS


# -- lantable verify names what was altered -----------------------------------------------


def test_verify_names_the_seat_of_an_altered_show_step(game) -> None:
    records = [dict(r) for r in copy_of(game.db, game.table).fair]
    show = first(records, "deck_op", op="show", seat=0)
    (pos,) = show["positions"]
    rec, i = next((r, i) for r in records[records.index(show):] if r["kind"] == "deck_steps"
                  for i, (to, at, *_) in enumerate(r["steps"]) if at == pos and to == 0)
    other = next(r for r in records if r["kind"] == "deck_steps" and r is not rec)
    rec["steps"][i][3] = other["steps"][0][3]
    report = _verify(game, records=records)
    assert any(f"seat {rec['seat']}'s unlock step" in p and f"{pos} (to " in p
               for p in report.problems), report.problems


def test_verify_names_a_show_to_another_seat(game) -> None:
    """A host that shows a card to a seat the game did not name: the requests differ."""
    records = [dict(r) for r in copy_of(game.db, game.table).fair]
    show = first(records, "deck_op", op="show", seat=0)
    show["seat"] = 2
    report = _verify(game, records=records)
    assert not report.ok
    assert any(f"update {show['seq']}: the deck requests" in p for p in report.problems), \
        report.problems


def test_verify_names_an_altered_seal(game) -> None:
    copy = copy_of(game.db, game.table)
    actions = [list(a) for a in copy.actions]
    seq, seat, action, *_ = next(a for a in actions if a[2].get("sealed"))
    first = action["sealed"][0]
    action["sealed"] = [dict(first, seal="0" * 64)]
    report = _verify(game, actions=[tuple(a) for a in actions])
    assert any(f"action {seq} (seat {seat}): its claim made face down" in p
               and "false claim" in p for p in report.problems), report.problems
    assert any(f"action {seq} (seat {seat}): its signature" in p for p in report.problems)


# -- a seat that seals a false claim ------------------------------------------------------


class SealLiar(SeatDecks):
    """Seals a card other than the one it plays, in its first play."""

    def __init__(self, base: SeatDecks) -> None:
        super().__init__(base.identity, base._games)
        self.lied = False

    def seal(self, table, seat, action):
        if action.get("sealed") and not self.lied:
            self.lied = True
            action = dict(action, sealed=[dict(c, card=(c["card"] + 1) % 20)
                                          for c in action["sealed"]])
        return super().seal(table, seat, action)


def test_a_false_sealed_claim_is_named_when_the_card_is_opened(tmp_path) -> None:
    game = trio.run(lambda: play_hidden(str(tmp_path / "j.sqlite"), 2, options=OPTIONS,
                                        cheat=lambda i, d: SealLiar(d) if i == 1 else d))
    table = game.host_table
    assert table.status == FINISHED and table.final_scores["forfeit"] == [1]
    assert any("seat 1 (bot1) sealed a claim" in n and "forfeits" in n for n in game.notices), \
        game.notices
    fault = first(game.journal().fair_records(game.table), "fault", reason="false_claim")
    assert fault["seat"] == 1
    report = _verify(game)
    assert report.ok, report.problems  # caught and settled: the journal checks
    assert any("seat 1 (bot1) sealed a claim" in n for n in report.notes), report.notes


# -- where the host deals ---------------------------------------------------------------------


def test_where_the_host_deals_a_show_is_told_as_shown_and_a_seal_checked_at_once() -> None:
    g = highcard_game()
    rng = random.Random(4)
    state = g.setup(2, {"peek": True, "blind": True}, rng)
    for s in (0, 1):  # each saw its neighbour's first card, which stayed in that hand
        (pos,) = map(int, state["seen"][s])
        assert pos == state["hands"][1 - s][0] and str(pos) not in state["known"][s]
        assert state["_dealer"]["decks"]["cards"]["held"][str(pos)] == 1 - s
    for s in (0, 1):
        g.apply(state, s, g.legal_actions(state, s)[0], rng)
    seat = g.to_act(state)[0]
    action = g.legal_actions(state, seat)[0]
    assert sealed_of(action) == [("cards", action["pos"])]
    lie = dict(action, sealed=[dict(action["sealed"][0],
                                    card=(action["sealed"][0]["card"] + 1) % 20)])
    with pytest.raises(IllegalAction, match="sealed claim: .* is not card"):
        g.apply(state, seat, lie, rng)
    sealed = dict(action, sealed=[{"deck": "cards", "pos": action["pos"], "seal": "ab" * 32}])
    with pytest.raises(IllegalAction, match="carries its card, not a seal"):
        g.apply(state, seat, sealed, rng)
    g.apply(state, seat, action, rng)


def test_requests_and_sealed_claims_are_checked_for_shape() -> None:
    decks = Requests({"cards": 20}, 2)
    decks.show("cards", [3], 1)
    assert decks.take() == [{"op": "show", "deck": "cards", "positions": [3], "seat": 1}]
    with pytest.raises(ValueError, match="positions"):
        decks.show("cards", [20], 1)
    with pytest.raises(ValueError, match="no seat"):
        decks.show("cards", [1], 2)
    for bad in ("x", [{"deck": "cards", "pos": 1}], [{"deck": "cards", "pos": 1, "card": 2,
                                                       "seal": "a" * 64}],
                [{"deck": "cards", "pos": 1, "seal": "A" * 64}],
                [{"deck": "cards", "pos": 1, "card": 2}, {"deck": "cards", "pos": 1, "card": 3}]):
        with pytest.raises(IllegalAction):
            sealed_of({"sealed": bad})
    assert sealed_of({"sealed": [{"deck": "cards", "pos": 1, "seal": "a" * 64}]}) == [("cards", 1)]


def test_a_restart_rebuilds_the_shows_and_seals(game) -> None:
    from lantable.host.journal import Journal
    from lantable.host.table import Table

    journal = Journal(game.db)
    try:
        restored = Table.restore(journal.table(game.table), highcard_registry()["highcard"],
                                 journal)
        assert restored.state == game.host_table.state
        last, was = restored.fair.decks.done[-1], game.host_table.fair.decks.done[-1]
        assert last.public == was.public and last.deal.owner == was.deal.owner
        assert last.seals == {} and was.seals == {}  # every seal was checked at its opening
    finally:
        journal.close()


def test_the_host_refuses_a_sealed_claim_that_shows_its_card_or_is_not_the_seats(game) -> None:
    decks = game.host_table.fair.decks
    last = decks.rounds["cards"]
    mine = next(p for p, s in last.deal.owner.items() if s == 0 and p not in last.deal.opened)
    decks.check_sealed(0, {"sealed": [{"deck": "cards", "pos": mine, "seal": "a" * 64}]})
    with pytest.raises(IllegalAction, match="not its card"):
        decks.check_sealed(0, {"sealed": [{"deck": "cards", "pos": mine, "card": 1}]})
    with pytest.raises(IllegalAction, match="is not seat 1's"):
        decks.check_sealed(1, {"sealed": [{"deck": "cards", "pos": mine, "seal": "a" * 64}]})
