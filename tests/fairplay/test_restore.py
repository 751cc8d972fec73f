"""A fair table restored from its journal (a restarted peer), driven without a network:
the restored table has the same state and the same pending event, asks a resumed
seat for its reveal again, and finishes with a journal that verifies."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lantable.clients.fairplay import FairSeats
from lantable.clients.verify import JournalCopy, verify
from lantable.host.journal import Journal
from lantable.host.table import FINISHED, PLAYING, Table
from lantable.plugins import load_registry
from lantable.protocol import Accepted, Error, FairEvent, FairRequest, Joined
from lantable.protocol import fairplay as fp


class FakeLink:
    """A client link that keeps what the table sends it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.key = fp.Identity().public
        self.seats: dict[str, set[int]] = {}
        self.watching: set[str] = set()
        self.receiving = True
        self.sent: list[Any] = []
        self.updates: list[dict[str, Any]] = []

    def send(self, msg: Any) -> bool:
        self.sent.append(msg)
        return True

    def send_update(self, shared: Any, **own: Any) -> bool:
        self.updates.append({**shared.fields, **own})
        return True

    def take(self, kind: type) -> list[Any]:
        found = [m for m in self.sent if isinstance(m, kind)]
        self.sent = [m for m in self.sent if not isinstance(m, kind)]
        return found


def act(table: Table, seats: dict[int, tuple[FakeLink, FairSeats]], seat: int,
        action: dict[str, Any], rid: int = 7) -> None:
    """The seat's signed action, as the client library sends it."""
    base, sig = seats[seat][1].sign_action(table.id, seat, table.seq, action)
    table.act(seats[seat][0], rid, seat, action, base, sig)


def answer_all(table: Table, seats: dict[int, tuple[FakeLink, FairSeats]]) -> int:
    """Answer every fair_request the seats hold; returns how many were answered."""
    n = 0
    for seat, (link, fair) in seats.items():
        for req in link.take(FairRequest):
            make, fields = fair.answer(req)
            n += 1
            if make.t == "commit":
                table.commit(link, 100 + n, seat, fields["tip"], fields["length"],
                             fields["sig"])
            else:
                table.reveal(link, 100 + n, seat, fields["event"], fields["link"],
                             fields["sig"])
    return n


def test_a_fair_table_restored_mid_event_carries_on(tmp_path, dice_registry) -> None:
    game = dice_registry["dice"]
    journal = Journal(tmp_path / "j.sqlite")
    table = Table.create(table_id="t1", game=game, seats=2, options={"turns": 6}, seed=5,
                         journal=journal, fair={"timeout": 5})
    seats = {}
    for s in range(2):
        link = FakeLink(f"p{s}")
        seats[s] = (link, FairSeats(fp.Identity()))
        link.key = seats[s][1].identity.public
        table.join(link, 1, s, False)
    tokens = {s: link.take(Joined)[0].token for s, (link, _) in seats.items()}
    while answer_all(table, seats):  # commitments, then the set-up event
        pass
    assert table.status == PLAYING
    # act until an action waits for its random event
    while table.fair.pending is None:
        (seat,) = game.to_act(table.state)
        act(table, seats, seat, {"type": "roll"})
    pending = table.fair.pending
    held = seats[pending.seat][0].take(Accepted)[-1]
    assert held.seq == table.seq + 1  # answered at once, applied once the reveals are in
    journal.commit()

    # the peer restarts: a new table object from the same journal
    again = Table.restore(journal.table("t1"), game, journal)
    assert again.state == table.state and again.seq == table.seq
    assert (again.fair.pending.event, again.fair.pending.digest) == (pending.event,
                                                                   pending.digest)
    # seats resume with their tokens and are asked for the same reveal again
    fresh = {}
    for s, (old, fair) in seats.items():
        link = FakeLink(old.name)
        link.key = old.key
        fresh[s] = (link, fair)
        again.resume(link, 3, tokens[s])
        (req,) = [m for m in link.sent if isinstance(m, FairRequest)]
        assert (req.kind, req.event, req.digest) == ("reveal", pending.event, pending.digest)
    answer_all(again, fresh)
    assert again.fair.pending is None and again.seq == held.seq
    while again.status != FINISHED:
        answer_all(again, fresh)
        if again.status == FINISHED or again.fair.pending is not None:
            continue
        (seat,) = game.to_act(again.state)
        act(again, fresh, seat, {"type": "roll"})
    assert not [m for link, _ in fresh.values() for m in link.sent if isinstance(m, Error)]
    journal.commit()
    r = journal.table("t1")
    copy = JournalCopy(r.id, r.game, r.game_version, r.seats, r.options, r.seed, r.status,
                       [(a.seq, a.seat, a.action, a.events) for a in journal.actions("t1")],
                       journal.fair_records("t1"))
    report = verify(copy, game)
    assert report.ok, report.problems
    assert report.events == 1 + 6  # the set-up and one per roll
    # every seat gets every event when the table ends, and each checks
    for link, fair in fresh.values():
        events = link.take(FairEvent)
        assert [e.event for e in events] == list(range(1, 8))
        assert [fair.check(e) for e in events] == [[]] * 7


def _fair_table(game: Any, seats_n: int, journal: Journal, table_id: str
                ) -> tuple[Table, dict[int, tuple[FakeLink, FairSeats]]]:
    """A fair table with every seat taken and committed, its set-up event settled."""
    table = Table.create(table_id=table_id, game=game, seats=seats_n, options=None, seed=1,
                         journal=journal, fair={})
    seats = {}
    for s in range(seats_n):
        fair = FairSeats(fp.Identity())
        link = FakeLink(f"p{s}")
        link.key = fair.identity.public
        seats[s] = (link, fair)
        table.join(link, 1, s, False)
    while answer_all(table, seats):
        pass
    return table, seats


@pytest.mark.parametrize("game_id", sorted(load_registry().games))
def test_every_installed_game_plays_fair_and_verifies(tmp_path, game_id) -> None:
    """Every game draws only through its rng and only after validating, so it plays
    unchanged at a fair table; a stretch of random play verifies."""
    game = load_registry()[game_id]
    journal = Journal(tmp_path / "j.sqlite")
    seats_n = max(game.info["min_seats"], min(3, game.info["max_seats"]))
    table, seats = _fair_table(game, seats_n, journal, "g")
    pick = random.Random(3)
    for _ in range(150):
        if table.status == FINISHED:
            break
        answer_all(table, seats)
        if table.fair.pending is not None or table.status == FINISHED:
            continue
        seat = pick.choice(game.to_act(table.state))
        action = pick.choice(game.concrete_actions(table.state, seat))
        act(table, seats, seat, action)
    answer_all(table, seats)
    refused = [m for link, _ in seats.values() for m in link.sent if isinstance(m, Error)]
    assert refused == []
    journal.commit()
    r = journal.table("g")
    copy = JournalCopy(r.id, r.game, r.game_version, r.seats, r.options, r.seed, r.status,
                       [(a.seq, a.seat, a.action, a.events) for a in journal.actions("g")],
                       journal.fair_records("g"))
    report = verify(copy, game)
    assert report.ok, report.problems
    assert report.events >= 1 and report.actions >= 1


def test_bad_commitments_and_reveals_get_clear_errors_and_change_nothing(tmp_path,
                                                                        dice_registry) -> None:
    game = dice_registry["dice"]
    journal = Journal(tmp_path / "j.sqlite")
    table = Table.create(table_id="h", game=game, seats=2, options=None, seed=1,
                         journal=journal, fair={"length": 8})
    links = [FakeLink("a"), FakeLink("b")]
    fairs = [FairSeats(fp.Identity()), FairSeats(fp.Identity())]
    for s, link in enumerate(links):
        link.key = fairs[s].identity.public
        table.join(link, 1, s, False)
    a = links[0]
    (req,) = a.take(FairRequest)
    _, good = fairs[0].answer(req)

    def refused(request, *args) -> str:
        request(a, *args)
        (err,) = a.take(Error)
        return f"{err.code}: {err.message}"

    assert refused(table.commit, 2, 1, good["tip"], 8, good["sig"]).startswith(
        "not_seated: this connection does not hold seat 1")
    assert "must be 64 lowercase hex digits" in refused(
        table.commit, 3, 0, "xyz", 8, good["sig"])
    assert "asks for chains of 8 links, got 9" in refused(
        table.commit, 4, 0, good["tip"], 9, good["sig"])
    assert "commit signature does not match" in refused(
        table.commit, 5, 0, "00" * 32, 8, good["sig"])
    assert "no reveal of event 1 is asked of seat 0 now" in refused(
        table.reveal, 6, 0, 1, "00" * 32, "00" * 64)
    assert not table.fair.commits and table.status == "waiting"
    faults = lambda: [r for r in journal.fair_records("h") if r["kind"] == "fault"]  # noqa: E731
    table.commit(a, 7, 0, good["tip"], 8, good["sig"])
    assert a.take(Accepted) and "already committed" in refused(
        table.commit, 8, 0, good["tip"], 8, good["sig"])
    # a seat that leaves while the set-up event waits: the event is held again
    b = links[1]
    answer_all(table, {1: (b, fairs[1])})
    assert table.fair.pending is not None and table.fair.pending.seq == 0
    # a seat that sends bad reveals again and again is named once, and refused each time
    for rid in (20, 21, 22):
        assert refused(table.reveal, rid, 0, 1, "00" * 32, "00" * 64).startswith(
            "bad_reveal: reveal of event 1: the reveal signature is not a valid Ed25519 "
            "signature: its R is a point of small order")  # all zeros (issue 25, finding 8)
    assert [(f["seat"], f["reason"]) for f in faults()] == [(0, "bad_reveal")]
    a.sent.clear()
    table.leave(b, 9)
    assert table.fair.pending is None and 1 not in table.fair.commits
    c = FakeLink("c")
    c.key = fairs[1].identity.public
    table.join(c, 10, 1, False)
    a.take(FairRequest)
    answer_all(table, {1: (c, fairs[1])})
    assert table.fair.pending is not None  # a new set-up event, with c's commitment
    answer_all(table, {0: (a, fairs[0]), 1: (c, fairs[1])})
    assert table.status == PLAYING
    journal.commit()
    again = Table.restore(journal.table("h"), game, journal)  # the uncommitted seat stays out
    assert again.state == table.state and again.fair.commits == table.fair.commits
    assert again.fair.pending is None and again.status == PLAYING
    # actions must be signed by their seat, for an update it has seen
    (seat,) = game.to_act(table.state)
    link = a if seat == 0 else c
    fair = fairs[seat]
    roll = {"type": "roll"}
    for base, sig, why in [
            (None, None, "this table plays fair: sign your action"),
            (0, fairs[1 - seat].identity.sign("act", "h", seat, 0, roll), "does not match"),
            (5, fair.identity.sign("act", "h", seat, 5, roll), "act.base 5 is not an update"),
            (0, fair.sign_action("h", seat, 0, {"type": "stand"})[1], "does not match")]:
        table.act(link, 12, seat, roll, base, sig)
        (err,) = link.take(Error)
        assert err.code == "bad_reveal" and why in err.message, err.message
    assert table.seq == 0 and table.fair.pending is None
    # a table without fair play refuses fair-play requests plainly
    plain = Table.create(table_id="p", game=game, seats=2, options=None, seed=1,
                         journal=journal)
    plain.commit(a, 11, 0, good["tip"], 8, good["sig"])
    (err,) = a.take(Error)
    assert err.code == "bad_reveal" and "does not play fair" in err.message
