"""Blackbeard with hidden decks at a fair table over loopback TCP: three bots (greedy
and mcts, which sample states with Blackbeard's hidden sampler, and random) play a
whole game; every seat deals with its own client (clients/fairdecks.py) and lists its
actions with Blackbeard's client half; ``lantable verify`` passes the journal and names
the seat and step of each kind of altered record; the host never opens a card dealt to
one seat, nor a merchant still face down (docs/fair-play.md, "Blackbeard with hidden
decks")."""

from __future__ import annotations

import dataclasses

import pytest
import trio

from lantable.clients.verify import verify
from lantable.host.table import FINISHED
from lantable.plugins import load_registry
from lantable.plugins.blackbeard import hidden as BH
from lantable.protocol.deck_errors import DeckError
from lantable.protocol.hidden_deck import open_card

from .hiddengames import altered, cards_of, first, play_hidden, unlock_steps
from .test_table import copy_of

SEATS = 3
OPTIONS = {"hidden_deck": True}


@pytest.fixture(scope="module")
def registry():
    return load_registry(autoload=True)


@pytest.fixture(scope="module")
def game(tmp_path_factory, registry):
    db = str(tmp_path_factory.mktemp("bb-hidden") / "journal.sqlite")
    return trio.run(lambda: play_hidden(db, SEATS, options=OPTIONS, registry=registry,
                                        game="blackbeard", limit=300,
                                        strategies=["greedy", "mcts", "random"],
                                        bot_options={"mcts": {"iterations": 8}}))



def test_a_whole_hidden_deck_blackbeard_game_between_three_bots_over_tcp(game, registry):
    table = game.host_table
    assert table.status == FINISHED and len(game.results) == SEATS
    assert all(r == game.results[0] for r in game.results)
    assert [s.problems for s in game.seats.values()] == [[]] * SEATS
    records = game.journal().fair_records(game.table)
    shuffles = [r for r in records if r["kind"] == "deck_op" and r["op"] == "shuffle"]
    assert sorted(r["deck"] for r in shuffles) == [BH.DECK, BH.MDECK]
    assert sum(r["kind"] == "opened" for r in records) > 3  # cards played face up
    report = verify(copy_of(game.db, game.table), registry["blackbeard"])
    assert report.ok, report.problems
    assert report.deals == 2
    assert report.scores["scores"] == game.results[0]["scores"]


def test_the_host_never_opens_a_card_dealt_to_one_seat_nor_a_face_down_merchant(game):
    table = game.host_table
    records = game.journal().fair_records(game.table)
    hidden = {BH.DECK: 0, BH.MDECK: 0}
    for rnd in table.fair.decks.done:
        deal = rnd.deal
        name = f"{rnd.deck}/{rnd.round}"
        truth = cards_of(records, name, deal.n, SEATS)
        for pos in range(deal.n):
            if pos in deal.opened:
                assert truth[pos] == rnd.public[pos]
                continue
            hidden[rnd.deck] += 1
            assert pos not in deal.got and pos not in rnd.public  # no key of it, ever
            points = [r["point"] for r in unlock_steps(records)
                      if r["deck"] == name and r["pos"] == pos]
            for point in [*points, deal.passes["lock"][-1][pos].hex()]:
                with pytest.raises(DeckError):
                    open_card(bytes.fromhex(point), [], deal.cards)
    # The deck's cards still in hands or never drawn, and merchants never found.
    assert hidden[BH.DECK] >= sum(len(h) for h in table.state["hands"])
    assert hidden[BH.MDECK] >= sum(not m["face_up"] for m in table.state["merchants"])
    # The host's state holds positions and the cards played face up, never a hand.
    S = table.state
    assert S["hidden"]["known"] == [{}] * SEATS and "_dealer" not in S
    assert all(BH.CARD_MASK <= c for h in S["hands"] for c in h)
    assert all(m["id"] >= BH.MERCH_MASK for m in S["merchants"] if not m["face_up"])
    assert not [c for c in S["deck"] if c < BH.CARD_MASK and c not in BH.MPI]


def test_each_seat_knows_exactly_its_own_cards(game) -> None:
    records = game.journal().fair_records(game.table)
    (events,) = [r for r in game.host_table.fair.decks.done if r.deck == BH.DECK]
    name = f"{events.deck}/{events.round}"
    truth = cards_of(records, name, events.deal.n, SEATS)
    dealt: dict[int, set[int]] = {s: set() for s in range(SEATS)}
    for r in unlock_steps(records):
        if r["deck"] == name:
            dealt[r["to"]].add(r["pos"])
    assert all(dealt.values())
    for seat, decks in game.seats.items():
        known = decks.known(game.table, seat)
        assert set(known[BH.DECK]) == dealt[seat] | set(events.public)
        assert all(truth[p] == c for p, c in known[BH.DECK].items())
        merchants = [r for r in game.host_table.fair.decks.done if r.deck == BH.MDECK][0]
        assert set(known.get(BH.MDECK, {})) == set(merchants.public)  # found ones only


# -- lantable verify names what was altered ---------------------------------------------------




def test_verify_names_the_seat_of_an_altered_pass(game, registry) -> None:
    def change(records):
        rec = first(records, "deck_pass", seat=1, stage="lock", deck=f"{BH.DECK}/1")
        rec["points"] = [rec["points"][1], rec["points"][0], *rec["points"][2:]]

    report = altered(game, registry["blackbeard"], change)
    assert any(f"deck {BH.DECK} round 1: seat 1's pass (lock)" in p for p in report.problems), \
        report.problems


def test_verify_names_the_seat_of_an_altered_unlock_step(game, registry) -> None:
    def change(records):
        rec = first(records, "deck_steps", seat=1)
        rec["steps"][0][3] = first(records, "deck_steps", seat=0)["steps"][0][3]

    report = altered(game, registry["blackbeard"], change)
    assert any("seat 1's unlock steps for positions 0 (to " in p for p in report.problems), \
        report.problems


def test_verify_names_the_seat_of_an_altered_key(game, registry) -> None:
    def change(records):
        rec = first(records, "deck_key", seat=2)
        rec["key"] = first(records, "deck_key", seat=0)["key"]

    report = altered(game, registry["blackbeard"], change)
    assert any("seat 2's unlock key for position" in p for p in report.problems), \
        report.problems


def test_verify_names_the_seat_of_an_altered_secret(game, registry) -> None:
    def change(records):
        rec = first(records, "deck_secrets", seat=0, deck=f"{BH.MDECK}/1")
        rec["permutation"] = [rec["permutation"][1], rec["permutation"][0],
                              *rec["permutation"][2:]]

    report = altered(game, registry["blackbeard"], change)
    assert any(p.startswith(f"deck {BH.MDECK} round 1: seat 0:") for p in report.problems), \
        report.problems


def test_verify_catches_an_altered_opened_card(game, registry) -> None:
    def change(records):
        rec = first(records, "opened")
        pos, card = rec["cards"][0]
        rec["cards"] = [[pos, (card + 1) % 20]]

    report = altered(game, registry["blackbeard"], change)
    assert any("opened to card" in p and "secrets put card" in p for p in report.problems), \
        report.problems


def test_verify_names_a_false_claim_in_an_action(game, registry) -> None:
    """A claim altered in the journal fails the action's signature and the audit."""
    copy = copy_of(game.db, game.table)
    actions = [list(a) for a in copy.actions]
    seq, seat, action, _ = next(a for a in actions if a[2].get("claims"))
    claim = action["claims"][0]
    action["claims"] = [dict(claim, card=(claim["card"] + 1) % len(BH.NONMPI))]
    report = verify(dataclasses.replace(copy, actions=[tuple(a) for a in actions]),
                    registry["blackbeard"])
    assert any(f"action {seq} (seat {seat}): it claims card" in p and "false claim" in p
               for p in report.problems), report.problems
    assert any(f"action {seq} (seat {seat}): its signature" in p for p in report.problems)


def test_verify_fails_without_a_seats_secrets(game, registry) -> None:
    def change(records):
        records.remove(first(records, "deck_secrets", seat=1, deck=f"{BH.DECK}/1"))

    report = altered(game, registry["blackbeard"], change)
    assert any(f"deck {BH.DECK} round 1: seat(s) [1] never published their secrets" in p
               for p in report.problems), report.problems


def test_a_restart_replays_the_cards_turned_over(game, registry) -> None:
    from lantable.host.journal import Journal
    from lantable.host.table import Table

    journal = Journal(game.db)
    try:
        restored = Table.restore(journal.table(game.table), registry["blackbeard"], journal)
        assert restored.state == game.host_table.state and restored.seq == game.host_table.seq
        assert [r.public for r in restored.fair.decks.done] == \
            [r.public for r in game.host_table.fair.decks.done]
    finally:
        journal.close()
