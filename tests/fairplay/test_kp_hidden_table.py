"""Kaiser's Pirates with a hidden Action deck at a fair table over loopback TCP: bots
play a whole game; every seat deals with its own client and lists its actions with
the game's client half; ``lantable verify`` passes the journal and names the seat and
step of what was altered; the host never opens a card dealt to one seat
(docs/fair-play.md, "Kaiser's Pirates")."""

from __future__ import annotations

import dataclasses

import pytest
import trio

from lantable.clients.verify import verify
from lantable.host.table import FINISHED
from lantable.plugins import load_registry
from lantable.plugins.kaisers_pirates.hidden import DECK
from lantable.plugins.kaisers_pirates.masked import is_masked, split
from lantable.protocol.deck_errors import DeckError
from lantable.protocol.hidden_deck import open_card

from .hiddengames import cards_of, first, play_hidden, unlock_steps
from .test_table import copy_of

SEATS = 3
OPTIONS = {"hidden_deck": True}
GAME = "kaisers-pirates"


@pytest.fixture(scope="module")
def registry():
    return load_registry(autoload=True)


@pytest.fixture(scope="module")
def game(tmp_path_factory, registry):
    db = str(tmp_path_factory.mktemp("kp-hidden") / "journal.sqlite")
    return trio.run(lambda: play_hidden(db, SEATS, options=OPTIONS, registry=registry,
                                        game=GAME, limit=600))



def _verify(game, registry, **changes):
    copy = copy_of(game.db, game.table)
    return verify(dataclasses.replace(copy, **changes), registry[GAME])


@pytest.mark.slow
def test_a_whole_hidden_deck_game_between_three_bots_over_tcp(game, registry) -> None:
    table = game.host_table
    assert table.status == FINISHED and len(game.results) == SEATS
    assert all(r == game.results[0] for r in game.results)
    assert [s.problems for s in game.seats.values()] == [[]] * SEATS
    records = game.journal().fair_records(game.table)
    shuffles = [r for r in records if r["kind"] == "deck_op" and r["op"] == "shuffle"]
    assert len(shuffles) == table.state["round"]  # a fresh deck every round
    assert sum(r["kind"] == "opened" for r in records) > 10
    assert sum(r["kind"] == "sealed" for r in records) > 5  # face-down commitments
    report = _verify(game, registry)
    assert report.ok, report.problems
    assert report.deals == len(shuffles)
    assert report.scores["scores"] == game.results[0]["scores"]


@pytest.mark.slow
def test_the_host_never_opens_a_card_dealt_to_one_seat(game) -> None:
    table = game.host_table
    records = game.journal().fair_records(game.table)
    hidden = carried = 0
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
            carried += len(points)
            for point in [*points, deal.passes["lock"][-1][pos].hex()]:
                with pytest.raises(DeckError):
                    open_card(bytes.fromhex(point), [], deal.cards)
    assert hidden >= len(table.fair.decks.done) * 20  # the set-aside cards at least
    assert carried > 10  # points the host carried of cards still in hands: none is a card
    S = table.state  # the host's state: tokens in every hand, no dealer, no known card
    assert "_dealer" not in S and S["hidden"]["known"] == [{}] * SEATS
    opened = {S["action_cards"][k] for k in table.fair.decks.done[-1].public.values()}
    for p in S["players"]:
        assert all(is_masked(c) or c in opened or c in S["discards"] for c in p["hand"])


@pytest.mark.slow
def test_each_seat_knows_exactly_its_cards_and_those_shown_to_it(game) -> None:
    records = game.journal().fair_records(game.table)
    last = game.host_table.fair.decks.done[-1]
    name = f"{last.deck}/{last.round}"
    truth = cards_of(records, name, last.deal.n, SEATS)
    told: dict[int, set[int]] = {s: set() for s in range(SEATS)}
    for r in unlock_steps(records):  # dealt, given or shown: each ends in a step to that seat
        if r["deck"] == name:
            told[r["to"]].add(r["pos"])
    S = game.host_table.state
    assert all(told.values())
    for seat, decks in game.seats.items():
        known = decks.known(game.table, seat)[DECK]
        assert set(known) == told[seat] | set(last.public)
        assert all(truth[p] == c for p, c in known.items())
        hand = {split(c)[1] for c in S["players"][seat]["hand"] if is_masked(c)}
        assert hand <= set(known)  # its whole hand, and nobody else's but what it was shown
        for other in range(SEATS):
            if other != seat:
                theirs = {split(c)[1] for c in S["players"][other]["hand"] if is_masked(c)}
                assert not (theirs & set(known)) or any(
                    r["kind"] == "deck_op" and r["op"] == "show" and r["seat"] == seat
                    for r in records)


# -- lantable verify names what was altered ----------------------------------------------



@pytest.mark.slow
def test_verify_names_the_seat_and_step_of_each_altered_record(game, registry) -> None:
    base = copy_of(game.db, game.table)

    def altered(change):
        records = [dict(r) for r in base.fair]
        change(records)
        return _verify(game, registry, fair=records).problems

    def a_pass(records):
        rec = first(records, "deck_pass", seat=1, stage="lock")
        rec["points"] = [rec["points"][1], rec["points"][0], *rec["points"][2:]]

    def a_step(records):
        rec = first(records, "deck_steps", seat=1)
        rec["steps"][0][3] = first(records, "deck_steps", seat=0)["steps"][0][3]

    def a_key(records):
        rec = first(records, "deck_key", seat=2)
        rec["key"] = first(records, "deck_key", seat=0)["key"]

    def a_secret(records):
        rec = first(records, "deck_secrets", seat=0, deck=f"{DECK}/1")
        rec["permutation"] = [rec["permutation"][1], rec["permutation"][0],
                              *rec["permutation"][2:]]

    def an_opened_card(records):
        rec = first(records, "opened")
        pos, card = rec["cards"][0]
        rec["cards"] = [[pos, (card + 1) % 100], *rec["cards"][1:]]

    cases = {a_pass: f"deck {DECK} round 1: seat 1's pass (lock)",
             a_step: "seat 1's unlock steps for positions",
             a_key: "seat 2's unlock key for position",
             a_secret: f"deck {DECK} round 1: seat 0:",
             an_opened_card: "opened to card"}
    for change, named in cases.items():
        problems = altered(change)
        assert any(named in p for p in problems), (change.__name__, problems)


@pytest.mark.slow
def test_verify_names_an_altered_claim_and_an_altered_seal(game, registry) -> None:
    copy = copy_of(game.db, game.table)
    actions = [list(a) for a in copy.actions]
    seq, seat, action, *_ = next(a for a in actions if a[2].get("claims"))
    claim = action["claims"][0]
    action["claims"] = [dict(claim, card=(claim["card"] + 1) % 100)]
    sseq, sseat, sealed, *_ = next(a for a in actions if a[2].get("sealed"))
    sealed["sealed"] = [dict(sealed["sealed"][0], seal="0" * 64)]
    report = _verify(game, registry, actions=[tuple(a) for a in actions])
    assert any(f"action {seq} (seat {seat}): it claims card" in p for p in report.problems), \
        report.problems
    assert any(f"action {sseq} (seat {sseat}): its claim made face down" in p
               for p in report.problems), report.problems


@pytest.mark.slow
def test_a_restart_rebuilds_the_table(game, registry) -> None:
    from lantable.host.journal import Journal
    from lantable.host.table import Table

    journal = Journal(game.db)
    try:
        restored = Table.restore(journal.table(game.table), registry[GAME], journal)
        assert restored.state == game.host_table.state and restored.seq == game.host_table.seq
        last, was = restored.fair.decks.done[-1], game.host_table.fair.decks.done[-1]
        assert last.public == was.public and last.deal.owner == was.deal.owner
    finally:
        journal.close()
