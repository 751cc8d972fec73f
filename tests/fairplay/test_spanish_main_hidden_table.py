"""Pirates of the Spanish Main with a hidden deck at a fair table over loopback TCP: a
greedy bot (which samples states with the game's hidden sampler) and a random one play
a whole game; every seat deals with its own client and lists its actions with the
game's client half; ``lantable verify`` passes the journal and names the seat and step
of each kind of altered record; the host never opens a treasure token nobody turned
over; each seat knows exactly the values it was shown (docs/fair-play.md, "Pirates of
the Spanish Main with a hidden deck")."""

from __future__ import annotations

import pytest
import trio

from lantable.clients.verify import verify
from lantable.host.table import FINISHED
from lantable.plugins import load_registry
from lantable.plugins.spanish_main import hidden as SH
from lantable.protocol.deck_errors import DeckError
from lantable.protocol.hidden_deck import open_card

from .hiddengames import altered, cards_of, first, play_hidden, unlock_steps
from .test_table import copy_of

pytestmark = pytest.mark.slow  # a whole 12-round game over TCP: about 14 s on the loaded machine

SEATS = 2
GAME = "pirates-spanish-main"
OPTIONS = {"hidden_deck": True, "max_rounds": 12}  # enough for the greedy seat to bring some home


@pytest.fixture(scope="module")
def registry():
    return load_registry(autoload=True)


@pytest.fixture(scope="module")
def game(tmp_path_factory, registry):
    """A game in which an island was explored and a token turned over, which the checks
    below read. The dice come from the seats' secret chains, so play varies from run to
    run; a game without either (a CI run had one) is played again, up to 3 games."""
    for n in range(3):
        db = str(tmp_path_factory.mktemp(f"sm-hidden{n}") / "journal.sqlite")
        played = trio.run(lambda db=db: play_hidden(db, SEATS, options=OPTIONS,
                                                    registry=registry, game=GAME, limit=300,
                                                    strategies=["greedy", "random"]))
        records = played.journal().fair_records(played.table)
        if any(r["kind"] == "deck_op" and r["op"] == "show" for r in records) and any(
                r["kind"] == "deck_key" and r.get("seat") == 1 for r in records):
            break
    return played



def test_a_whole_hidden_deck_game_between_two_bots_over_tcp(game, registry) -> None:
    table = game.host_table
    assert table.status == FINISHED and len(game.results) == SEATS
    assert all(r == game.results[0] for r in game.results)
    assert [s.problems for s in game.seats.values()] == [[]] * SEATS
    records = game.journal().fair_records(game.table)
    assert sum(r["kind"] == "deck_op" and r["op"] == "show" for r in records) > 0  # explored
    report = verify(copy_of(game.db, game.table), registry[GAME])
    assert report.ok, report.problems
    assert report.deals == 1
    assert report.scores["scores"] == game.results[0]["scores"]


def test_the_host_never_opens_a_token_nobody_turned_over(game) -> None:
    table = game.host_table
    records = game.journal().fair_records(game.table)
    (rnd,) = table.fair.decks.done
    deal = rnd.deal
    name = f"{rnd.deck}/{rnd.round}"
    truth = cards_of(records, name, deal.n, SEATS)
    hidden = 0
    for pos in range(deal.n):
        if pos in deal.opened:
            assert truth[pos] == rnd.public[pos]
            assert SH.pool(table.state)[truth[pos]] == table.state["treasure"][pos]["gold"]
            continue
        hidden += 1
        assert pos not in deal.got and pos not in rnd.public  # no key of it, ever
        points = [r["point"] for r in unlock_steps(records)
                  if r["deck"] == name and r["pos"] == pos]
        for point in [*points, deal.passes["lock"][-1][pos].hex()]:
            with pytest.raises(DeckError):
                open_card(bytes.fromhex(point), [], deal.cards)
    S = table.state
    assert hidden == sum(not t["face_up"] for t in S["treasure"]) > 0
    assert all(t["gold"] is None for t in S["treasure"] if not t["face_up"])
    assert S["hidden"]["known"] == [{}] * SEATS and "_dealer" not in S


def test_each_seat_knows_exactly_the_values_it_was_shown(game) -> None:
    records = game.journal().fair_records(game.table)
    (rnd,) = game.host_table.fair.decks.done
    name = f"{rnd.deck}/{rnd.round}"
    truth = cards_of(records, name, rnd.deal.n, SEATS)
    S = game.host_table.state
    for seat, decks in game.seats.items():
        known = decks.known(game.table, seat).get(SH.DECK, {})
        seen = {k for k, t in enumerate(S["treasure"]) if t["seen"][seat]}
        assert set(known) == seen | set(rnd.public)
        assert all(truth[p] == c for p, c in known.items())




def test_verify_names_the_seat_of_an_altered_pass(game, registry) -> None:
    def change(records):
        rec = first(records, "deck_pass", seat=1, stage="shuffle")
        rec["points"] = [rec["points"][1], rec["points"][0], *rec["points"][2:]]

    report = altered(game, registry[GAME], change)
    assert any(f"deck {SH.DECK} round 1: seat 1's pass (shuffle)" in p
               for p in report.problems), report.problems


def test_verify_names_the_seat_of_an_altered_show_step(game, registry) -> None:
    """An exploring seat is shown the island's tokens: the other seat's unlock steps."""
    records = [dict(r) for r in copy_of(game.db, game.table).fair]
    rec = first(records, "deck_steps")
    to, pos, *_ = rec["steps"][0]
    other = next(r for r in records if r["kind"] == "deck_steps"
                 and r["steps"][0][1] != pos)
    rec["steps"][0][3] = other["steps"][0][3]
    report = altered(game, registry[GAME], lambda rs: rs.__setitem__(slice(None), records))
    assert any(f"seat {rec['seat']}'s unlock step" in p and f"{pos} (to " in p
               for p in report.problems), report.problems


def test_verify_names_a_show_to_another_seat(game, registry) -> None:
    """A host that shows a token to a seat the game did not name: the requests differ."""
    def change(records):
        show = first(records, "deck_op", op="show")
        show["seat"] = 1 - show["seat"]

    report = altered(game, registry[GAME], change)
    assert not report.ok and report.problems


def test_verify_names_the_seat_of_an_altered_key(game, registry) -> None:
    def change(records):
        rec = first(records, "deck_key", seat=1)
        rec["key"] = first(records, "deck_key", seat=0)["key"]

    report = altered(game, registry[GAME], change)
    assert any("seat 1's unlock key for position" in p for p in report.problems), \
        report.problems


def test_verify_names_the_seat_of_an_altered_secret(game, registry) -> None:
    def change(records):
        rec = first(records, "deck_secrets", seat=0)
        rec["permutation"] = [rec["permutation"][1], rec["permutation"][0],
                              *rec["permutation"][2:]]

    report = altered(game, registry[GAME], change)
    assert any(p.startswith(f"deck {SH.DECK} round 1: seat 0:") for p in report.problems), \
        report.problems


def test_verify_catches_an_altered_opened_card(game, registry) -> None:
    def change(records):
        rec = first(records, "opened")
        pos, card = rec["cards"][0]
        rec["cards"] = [[pos, (card + 1) % len(SH.pool(game.host_table.state))]]

    report = altered(game, registry[GAME], change)
    assert any("opened to card" in p and "secrets put card" in p for p in report.problems), \
        report.problems


def test_verify_fails_without_a_seats_secrets(game, registry) -> None:
    def change(records):
        records.remove(first(records, "deck_secrets", seat=1))

    report = altered(game, registry[GAME], change)
    assert any(f"deck {SH.DECK} round 1: seat(s) [1] never published their secrets" in p
               for p in report.problems), report.problems


def test_a_restart_replays_the_tokens_turned_over(game, registry) -> None:
    from lantable.host.journal import Journal
    from lantable.host.table import Table

    journal = Journal(game.db)
    try:
        restored = Table.restore(journal.table(game.table), registry[GAME], journal)
        assert restored.state == game.host_table.state and restored.seq == game.host_table.seq
        assert restored.fair.decks.done[-1].public == game.host_table.fair.decks.done[-1].public
    finally:
        journal.close()
