"""Blackbeard's long game with hidden decks at a fair table over loopback TCP: the second
pass (the discards, all seen face up, reshuffled while hands keep their cards) is a
fresh hidden deck ``events2-k`` that every seat shuffles and locks again; an mcts, a
greedy (both sampling second-pass states with the game's hidden sampler) and a random
bot play a whole long game; ``lantable verify`` passes, and names the seat
and step of an altered record of the second deck; the host never holds a key of a
second-pass card dealt to one seat; each seat knows exactly its own (docs/fair-play.md,
"Blackbeard with hidden decks")."""

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

from .hiddengames import altered, cards_of, play_hidden, unlock_steps
from .test_table import copy_of

SEATS = 3
OPTIONS = {"hidden_deck": True, "game_length": "long"}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def registry():
    return load_registry(autoload=True)


@pytest.fixture(scope="module")
def game(tmp_path_factory, registry):
    db = str(tmp_path_factory.mktemp("bb-long-hidden") / "journal.sqlite")
    return trio.run(lambda: play_hidden(db, SEATS, options=OPTIONS, registry=registry,
                                        game="blackbeard", limit=300,
                                        strategies=["mcts", "greedy", "random"],
                                        bot_options={"mcts": {"iterations": 8}}))


def _second(game):
    (rnd,) = [r for r in game.host_table.fair.decks.done if r.deck.startswith("events2-")]
    return rnd


def test_a_whole_long_hidden_deck_game_deals_its_second_pass_afresh(game, registry):
    table = game.host_table
    assert table.status == FINISHED and len(game.results) == SEATS
    assert [s.problems for s in game.seats.values()] == [[]] * SEATS
    S = table.state
    assert S["deck_pass"] == 2 and S["hidden"]["pass2"]["shuffled"]
    rnd = _second(game)
    assert rnd.deck == S["hidden"]["pass2"]["deck"] == f"events2-{rnd.deal.n}"
    records = game.journal().fair_records(game.table)
    shuffles = [r["deck"] for r in records if r["kind"] == "deck_op" and r["op"] == "shuffle"]
    assert shuffles == [BH.DECK, BH.MDECK, rnd.deck]
    assert any(r["deck"] == f"{rnd.deck}/1" for r in unlock_steps(records))
    report = verify(copy_of(game.db, game.table), registry["blackbeard"])
    assert report.ok, report.problems
    assert report.deals == 3
    # Every card of the second pass was seen face up in the first (the discards).
    assert all(c in BH.NONMPI for c in S["hidden"]["pass2"]["cards"])


def test_the_host_never_opens_a_second_pass_card_dealt_to_one_seat(game):
    rnd = _second(game)
    records = game.journal().fair_records(game.table)
    name = f"{rnd.deck}/{rnd.round}"
    truth = cards_of(records, name, rnd.deal.n, SEATS)
    hidden = 0
    for pos in range(rnd.deal.n):
        if pos in rnd.deal.opened:
            assert truth[pos] == rnd.public[pos]
            continue
        hidden += 1
        assert pos not in rnd.deal.got and pos not in rnd.public
        points = [r["point"] for r in unlock_steps(records)
                  if r["deck"] == name and r["pos"] == pos]
        for point in [*points, rnd.deal.passes["lock"][-1][pos].hex()]:
            with pytest.raises(DeckError):
                open_card(bytes.fromhex(point), [], rnd.deal.cards)
    S = game.host_table.state
    assert hidden >= sum(c >= BH.P2_MASK for h in S["hands"] for c in h)
    assert S["hidden"]["known"] == [{}] * SEATS and "_dealer" not in S


def test_each_seat_knows_exactly_its_own_second_pass_cards(game):
    rnd = _second(game)
    records = game.journal().fair_records(game.table)
    name = f"{rnd.deck}/{rnd.round}"
    truth = cards_of(records, name, rnd.deal.n, SEATS)
    dealt: dict[int, set[int]] = {s: set() for s in range(SEATS)}
    for r in unlock_steps(records):
        if r["deck"] == name:
            dealt[r["to"]].add(r["pos"])
    assert any(dealt.values())
    for seat, decks in game.seats.items():
        known = decks.known(game.table, seat).get(rnd.deck, {})
        assert set(known) == dealt[seat] | set(rnd.public)
        assert all(truth[p] == c for p, c in known.items())



def test_verify_names_the_seat_of_an_altered_second_pass_pass_and_step(game, registry):
    deck = f"{_second(game).deck}/1"

    def change_pass(records):
        rec = next(r for r in records if r["kind"] == "deck_pass" and r["deck"] == deck
                   and r["seat"] == 2 and r["stage"] == "shuffle")
        rec["points"] = [rec["points"][-1], *rec["points"][1:-1], rec["points"][0]]

    report = altered(game, registry["blackbeard"], change_pass)
    assert any(f"deck {_second(game).deck} round 1: seat 2's pass (shuffle)" in p
               for p in report.problems), report.problems

    def change_step(records):
        steps = [r for r in records if r["kind"] == "deck_steps" and r["deck"] == deck]
        rec = steps[0]
        rec["steps"][0][3] = next(st[3] for r in steps for st in r["steps"]
                                  if st[3] != rec["steps"][0][3])
        change_step.seat = rec["seat"]

    report = altered(game, registry["blackbeard"], change_step)
    assert any(f"seat {change_step.seat}'s unlock steps for positions" in p
               for p in report.problems), report.problems


def test_verify_names_a_false_claim_of_a_second_pass_card(game, registry):
    deck = _second(game).deck
    copy = copy_of(game.db, game.table)
    actions = [list(a) for a in copy.actions]
    seq, seat, action, _ = next(a for a in actions
                                if any(c["deck"] == deck for c in a[2].get("claims") or []))
    claims = action["claims"]
    i = next(i for i, c in enumerate(claims) if c["deck"] == deck)
    k = int(deck.split("-")[1])
    claims[i] = dict(claims[i], card=(claims[i]["card"] + 1) % k)
    report = verify(dataclasses.replace(copy, actions=[tuple(a) for a in actions]),
                    registry["blackbeard"])
    assert any(f"action {seq} (seat {seat}): it claims card" in p and "false claim" in p
               for p in report.problems), report.problems


def test_a_restart_replays_the_second_pass(game, registry):
    from lantable.host.journal import Journal
    from lantable.host.table import Table

    journal = Journal(game.db)
    try:
        restored = Table.restore(journal.table(game.table), registry["blackbeard"], journal)
        assert restored.state == game.host_table.state and restored.seq == game.host_table.seq
        assert [(r.deck, r.public) for r in restored.fair.decks.done] == \
            [(r.deck, r.public) for r in game.host_table.fair.decks.done]
    finally:
        journal.close()
