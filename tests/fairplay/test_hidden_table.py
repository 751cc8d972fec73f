"""Hidden decks at a fair table, over loopback TCP: a whole game of the test game
"high card" between bots, where no peer sees a card it should not, the host included;
``lantable verify`` audits every deal and names the seat and step of anything altered;
seats that withhold or lie about a card are named (docs/fair-play.md, "Hidden decks")."""

from __future__ import annotations

import dataclasses

import pytest
import trio

from lantable.clients.client import RequestError, open_client
from lantable.clients.fairdecks import SeatDecks
from lantable.clients.verify import verify
from lantable.host.journal import Journal
from lantable.host.peer import serve_peer
from lantable.host.table import FINISHED, Table
from lantable.protocol import Create, Error, Hello, Join
from lantable.protocol import hidden_deal as hdl
from lantable.protocol.deck_errors import DeckError
from lantable.protocol.hidden_deck import open_card

from .conftest import Dice
from .hiddengames import altered, first, highcard_registry, play_hidden, unlock_steps
from .test_table import copy_of

OPTIONS = {"rounds": 2, "keep": 1}  # two shuffles; a card stays in each hand, never shown


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("hidden") / "journal.sqlite")
    return trio.run(lambda: play_hidden(db, 3, options=OPTIONS))


def _truth(records, deck, number, n):
    """The card at every position of a round, from the seats' published secrets."""
    secrets = sorted((r for r in records if r["kind"] == "deck_secrets"
                      and r["deck"] == f"{deck}/{number}"), key=lambda r: r["seat"])
    order = list(range(n))
    for m in secrets:
        order = [order[src] for src in m["permutation"]]
    return order


def test_a_whole_hidden_game_between_three_bots_over_tcp(game) -> None:
    table = game.host_table
    assert table.status == FINISHED and len(game.results) == 3
    assert all(r == game.results[0] for r in game.results)
    assert [s.problems for s in game.seats.values()] == [[], [], []]
    records = game.journal().fair_records(game.table)
    rounds = [r for r in records if r["kind"] == "deck_op" and r["op"] == "shuffle"]
    assert len(rounds) == 2
    assert sum(r["kind"] == "deck_secrets" for r in records) == 2 * 3
    assert sum(r["kind"] == "opened" for r in records) > 0
    report = verify(copy_of(game.db, game.table), highcard_registry()["highcard"])
    assert report.ok, report.problems
    assert report.deals == 2 and report.scores["scores"] == game.results[0]["scores"]


def test_the_host_never_opens_a_card_dealt_to_one_seat(game) -> None:
    """The host never holds a key of a card dealt to one seat and never turned over;
    every point of it that passed through the host (or its journal) is still locked by
    the seat it was going to, so none is a card."""
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
            holder = deal.owner.get(pos)
            if holder is not None and rnd.round == 2:  # ... while its holder knows it
                assert game.seats[holder].known(game.table, holder)["cards"][pos] == truth[pos]
    assert hidden >= 3 + 2 * (20 - 3 * 3)  # the cards kept in hand, and the undealt ones
    # The game's state on the host holds positions, and only the cards turned over.
    assert table.state["known"] == [{}, {}, {}] and "_dealer" not in table.state
    last = table.fair.decks.done[-1]
    assert {int(p): c for p, c in table.state["open"].items()} == last.public


def test_each_seat_knows_exactly_the_cards_dealt_or_given_to_it(game) -> None:
    records = game.journal().fair_records(game.table)
    last = game.host_table.fair.decks.done[-1]
    truth = _truth(records, last.deck, last.round, last.deal.n)
    dealt = {s: set() for s in range(3)}
    for r in unlock_steps(records):
        if r["deck"] == f"cards/{last.round}":
            dealt[r["to"]].add(r["pos"])
    for seat, decks in game.seats.items():
        known = decks.known(game.table, seat)["cards"]
        assert set(known) == dealt[seat] | set(last.public)
        assert all(truth[p] == c for p, c in known.items())


def test_each_seat_sees_its_own_hand_in_its_view(game) -> None:
    """The client puts the cards its seat knows into the view (``_hand``) for the
    game's board and words; the host's view has positions only."""
    for seat, views in game.views.items():
        dealt = [v for v in views if v and v.get("phase") == "pass"]
        assert dealt, "no view of a dealt hand"
        for view in dealt:
            hand = view["_hand"]["cards"]
            assert {str(p) for p in view["hands"][seat]} <= set(hand)
            assert view["cards"] == {}  # the host's own view knows no card of the hand


def test_a_restart_replays_the_cards_turned_over(game) -> None:
    journal = Journal(game.db)
    try:
        record = journal.table(game.table)
        restored = Table.restore(record, highcard_registry()["highcard"], journal)
        assert restored.state == game.host_table.state and restored.seq == game.host_table.seq
        assert [r.round for r in restored.fair.decks.done] == [1, 2]
        assert restored.fair.decks.done[-1].public == game.host_table.fair.decks.done[-1].public
    finally:
        journal.close()


# -- lantable verify names what was altered ---------------------------------------------------




def test_verify_names_the_seat_of_an_altered_pass(game) -> None:
    def change(records):
        rec = first(records, "deck_pass", seat=1, stage="lock")
        rec["points"] = [rec["points"][1], rec["points"][0], *rec["points"][2:]]

    report = altered(game, highcard_registry()["highcard"], change)
    assert not report.ok
    assert any("deck cards round 1: seat 1's pass (lock)" in p for p in report.problems), \
        report.problems


def test_verify_names_the_seat_of_an_altered_key(game) -> None:
    def change(records):
        rec = first(records, "deck_key", seat=2)
        rec["key"] = first(records, "deck_key", seat=0)["key"]

    report = altered(game, highcard_registry()["highcard"], change)
    assert any("seat 2's unlock key for position" in p for p in report.problems), \
        report.problems


def test_verify_names_the_seat_of_an_altered_unlock_step(game) -> None:
    def change(records):
        rec = first(records, "deck_steps", seat=1)
        rec["steps"][0][3] = first(records, "deck_steps", seat=0)["steps"][0][3]

    report = altered(game, highcard_registry()["highcard"], change)
    assert any("seat 1's unlock steps for positions 0 (to 0)" in p for p in report.problems), \
        report.problems


def test_verify_names_the_seat_of_an_altered_secret(game) -> None:
    def change(records):
        rec = first(records, "deck_secrets", seat=0, deck="cards/2")
        rec["permutation"] = [rec["permutation"][1], rec["permutation"][0],
                              *rec["permutation"][2:]]

    report = altered(game, highcard_registry()["highcard"], change)
    assert any(p.startswith("deck cards round 2: seat 0:") for p in report.problems), \
        report.problems


def test_verify_catches_an_altered_opened_card(game) -> None:
    def change(records):
        rec = first(records, "opened")
        pos, card = rec["cards"][0]
        rec["cards"] = [[pos, (card + 1) % 20]]

    report = altered(game, highcard_registry()["highcard"], change)
    assert any("opened to card" in p and "secrets put card" in p for p in report.problems)


def test_verify_names_a_false_claim_in_an_action(game) -> None:
    """A claim altered in the journal fails the action's signature and the audit."""
    copy = copy_of(game.db, game.table)
    actions = [list(a) for a in copy.actions]
    seq, seat, action, _ = next(a for a in actions if a[2].get("claims"))
    claim = action["claims"][0]
    action["claims"] = [dict(claim, card=(claim["card"] + 1) % 20)]
    report = verify(dataclasses.replace(copy, actions=[tuple(a) for a in actions]),
                    highcard_registry()["highcard"])
    assert any(f"action {seq} (seat {seat}): it claims card" in p and "false claim" in p
               for p in report.problems), report.problems
    assert any(f"action {seq} (seat {seat}): its signature" in p for p in report.problems)


def test_verify_fails_without_a_seats_secrets(game) -> None:
    def change(records):
        records.remove(first(records, "deck_secrets", seat=1, deck="cards/1"))

    report = altered(game, highcard_registry()["highcard"], change)
    assert any("deck cards round 1: seat(s) [1] never published their secrets" in p
               for p in report.problems)


# -- seats that cheat or stall -------------------------------------------------------------


class Liar(SeatDecks):
    """Claims a better card than it holds for its first play."""

    def __init__(self, base: SeatDecks) -> None:
        super().__init__(base.identity, base._games)
        self.lied = False

    def legal(self, table, seat, view):
        legal = super().legal(table, seat, view)
        if legal and legal[0]["type"] == "play" and not self.lied:
            self.lied = True
            claim = legal[0]["claims"][0]
            return [dict(legal[0], claims=[dict(claim, card=(claim["card"] + 1) % 20)])]
        return legal


class Silent(SeatDecks):
    """Never hands over unlock keys (``kind``) or its lock pass."""

    def __init__(self, base: SeatDecks, kind: str) -> None:
        super().__init__(base.identity, base._games)
        self.kind = kind

    def answer(self, req):
        return None if req.kind == self.kind else super().answer(req)


def test_a_false_claim_is_caught_when_the_card_is_turned_over(tmp_path) -> None:
    game = trio.run(lambda: play_hidden(str(tmp_path / "j.sqlite"), 2, cheat=lambda i, d: (
        Liar(d) if i == 0 else d)))
    table = game.host_table
    assert table.status == FINISHED and table.final_scores["forfeit"] == [0]
    assert any("seat 0 (bot0) claimed card" in n and "forfeits" in n for n in game.notices)
    records = game.journal().fair_records(game.table)
    fault = first(records, "fault", reason="false_claim")
    assert fault["seat"] == 0 and fault["claimed"] != fault["card"]
    report = verify(copy_of(game.db, game.table), highcard_registry()["highcard"])
    assert report.ok, report.problems  # caught and settled: the journal checks
    assert any("seat 0 (bot0) claimed card" in n for n in report.notes)


@pytest.mark.parametrize("kind", ["keys", "lock", "unlock"])
def test_a_seat_that_withholds_its_keys_or_pass_is_named(tmp_path, kind) -> None:
    game = trio.run(lambda: play_hidden(str(tmp_path / "j.sqlite"), 2, fair={"timeout": 0.5},
                                        cheat=lambda i, d: Silent(d, kind) if i == 1 else d))
    table = game.host_table
    assert table.status == FINISHED and table.final_scores["forfeit"] == [1]
    what = {"keys": "unlock keys", "lock": "pass", "unlock": "unlock steps"}[kind]
    late = [n for n in game.notices if n.startswith("the table is dealing: waiting for seat 1")]
    named = [n for n in game.notices if f"seat 1 (bot1) did not send its {what} for deck" in n]
    assert late and named and game.notices.index(late[0]) < game.notices.index(named[0]), \
        game.notices


# -- who may sit --------------------------------------------------------------------------


def test_a_client_that_cannot_deal_gets_a_clear_error_not_a_hang(tmp_path) -> None:
    """What the browser sends: a hello without ``decks``. It may watch, not sit."""
    from lantable.protocol import NEED_DATA, Connection
    from lantable.protocol import fairplay as fp

    async def main():
        async with trio.open_nursery() as nursery:
            running = await nursery.start(lambda task_status: serve_peer(
                registry=highcard_registry(), db=str(tmp_path / "j.sqlite"), bind="127.0.0.1",
                port=0, task_status=task_status))
            stream = await trio.open_tcp_stream("127.0.0.1", running.port)
            conn = Connection("client")

            async def next_message():
                with trio.fail_after(5):
                    while True:
                        event = conn.next_event()
                        if event is not NEED_DATA:
                            return event
                        conn.receive_data(await stream.receive_some(65536))

            await stream.send_all(conn.send(Hello(proto=1, name="phone",
                                                  key=fp.Identity().public)))
            await next_message()  # welcome
            await stream.send_all(conn.send(Create(id=1, game="highcard", seats=2,
                                                   fair={"hidden_decks": True})))
            created = await next_message()
            await stream.send_all(conn.send(Join(id=2, table=created.table)))
            refused = await next_message()
            nursery.cancel_scope.cancel()
            return refused

    refused = trio.run(main)
    assert isinstance(refused, Error)
    assert refused.code == "no_decks" and "client half" in refused.message


def test_hidden_decks_need_a_game_that_declares_decks(tmp_path) -> None:
    from lantable.plugins import load_registry

    async def main():
        async with trio.open_nursery() as nursery:
            running = await nursery.start(lambda task_status: serve_peer(
                registry=load_registry(autoload=False, plugins={"dice": Dice()}),
                db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
                task_status=task_status))
            async with open_client("127.0.0.1", running.port, name="ann") as client:
                with pytest.raises(RequestError) as info:
                    await client.create("dice", 2, fair={"hidden_decks": True})
            nursery.cancel_scope.cancel()
            return info.value

    error = trio.run(main)
    assert error.code == "bad_options" and "dice has no hidden decks" in str(error)


class Unmasked(SeatDecks):
    """Issue 25, finding 6: returns the points of its shuffle pass as they came (signed
    properly), so that every card would open to no card."""

    def __init__(self, base: SeatDecks) -> None:
        super().__init__(base.identity, base._games)

    def answer(self, req):
        out = super().answer(req)
        if out is not None and req.kind == "shuffle":
            cls, fields = out
            fields = {**fields, "points": req.points}
            player = self.players[(req.table, req.seat, req.deck, req.round)]
            points = [req.points[i:i + 32].hex() for i in range(0, len(req.points), 32)]
            signed = {"t": "deck_pass", "table": req.table, "deck": player.deck,
                      "seat": req.seat, "stage": "shuffle", "points": points}
            fields["sig"] = bytes.fromhex(self.identity.sign("deck_pass",
                                                             *hdl._pass_fields(signed)))
            return cls, fields
        return out


def test_issue25_6_a_shuffle_pass_that_masks_nothing_is_named_at_once_and_forfeits(
        tmp_path) -> None:
    game = trio.run(lambda: play_hidden(str(tmp_path / "j.sqlite"), 2, fair={"timeout": 0.5},
                                        cheat=lambda i, d: Unmasked(d) if i == 1 else d,
                                        limit=30))
    table = game.host_table
    assert table.status == FINISHED and table.final_scores["forfeit"] == [1]
    named = [n for n in game.notices if "seat 1 (bot1)" in n and "as it came" in n]
    assert named, game.notices
    fault = first(game.journal().fair_records(game.table), "fault", reason="bad_deal")
    assert fault["seat"] == 1


@pytest.mark.parametrize("kind", ["shuffle", "lock", "unlock", "keys"])
def test_issue25_7_verify_passes_an_honest_journal_after_a_forfeit_during_a_deal(tmp_path,
                                                                                 kind) -> None:
    game = trio.run(lambda: play_hidden(str(tmp_path / "j.sqlite"), 2, fair={"timeout": 0.5},
                                        cheat=lambda i, d: Silent(d, kind) if i == 1 else d))
    assert game.host_table.final_scores["forfeit"] == [1]
    report = verify(copy_of(game.db, game.table), highcard_registry()["highcard"])
    assert report.ok, report.problems
    assert game.seats[0].problems == []  # asked for no secrets of a round it never dealt
