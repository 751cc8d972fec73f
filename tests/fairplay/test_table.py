"""Fair tables over loopback TCP: a whole Manila game between four bots, replayed and
verified; every kind of tampering with its journal is caught and named; a seat that
equivocates or withholds is named to everyone (docs/fair-play.md)."""

from __future__ import annotations

import shutil
import sqlite3

import msgpack
import pytest
import trio

from lantable.clients.cli import main as cli_main
from lantable.clients.client import RequestError, open_client
from lantable.clients.verify import JournalCopy, verify
from lantable.host.peer import serve_peer
from lantable.host.table import FINISHED, Table
from lantable.plugins import load_registry

from .fairgames import Equivocating, Timeline, Withholding, play_fair


def copy_of(db: str, table: str) -> JournalCopy:
    from lantable.host.journal import Journal

    journal = Journal(db)
    try:
        r = journal.table(table)
        return JournalCopy(r.id, r.game, r.game_version, r.seats, r.options, r.seed, r.status,
                           [(a.seq, a.seat, a.action, a.events) for a in journal.actions(table)],
                           journal.fair_records(table))
    finally:
        journal.close()


@pytest.fixture(scope="module")
def manila(tmp_path_factory):
    """One whole fair game of Manila between four random bots over TCP (seeded bots;
    the randomness is the seats' own)."""
    registry = load_registry()
    db = str(tmp_path_factory.mktemp("manila") / "journal.sqlite")
    game = trio.run(lambda: play_fair(registry, "manila", 4, db))
    return registry, game


def test_a_whole_fair_manila_game_between_four_bots_over_tcp(manila) -> None:
    registry, game = manila
    assert len(game.results) == 4 and all(r == game.results[0] for r in game.results)
    copy = copy_of(game.db, game.table)
    events = [r for r in copy.fair if r["kind"] == "event"]
    assert copy.status == FINISHED and len(events) >= 5
    assert events[0]["seq"] == 0 and [e["event"] for e in events] == list(
        range(1, len(events) + 1))
    # every seat and the spectator checked every event as it came, and found nothing
    for seats in [*game.seats.values(), game.spectator]:
        assert seats.problems == [] and seats.events[game.table] == len(events)
    report = verify(copy, registry["manila"])
    assert report.ok, report.problems
    assert report.scores["scores"] == game.results[0]["scores"]
    assert report.events == len(events) and report.actions == len(copy.actions)


def test_the_same_actions_and_reveals_replay_to_the_same_result(manila) -> None:
    from lantable.host.journal import Journal

    registry, game = manila
    journal = Journal(game.db)
    record = journal.table(game.table)
    states = []
    for _ in range(2):
        table = Table.restore(record, registry["manila"], journal)
        states.append(table.state)
        assert table.status == FINISHED
        assert registry["manila"].scores(table.state) == game.results[0]
    assert states[0] == states[1]
    journal.close()


def test_lantable_verify_passes_a_fair_game(manila, capsys) -> None:
    _, game = manila
    assert cli_main(["verify", "--db", game.db, "--table", game.table]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK: table") and "every signature, link, seed, roll and shuffle" in out


def _tamper(db: str, tmp_path, edit) -> str:
    """A copy of the journal with one record changed by ``edit``."""
    path = str(tmp_path / "tampered.sqlite")
    shutil.copy(db, path)
    con = sqlite3.connect(path)
    edit(con)
    con.commit()
    con.close()
    return path


def _second_action_event(con) -> tuple[int, dict]:
    """The rowid and record of the first event that served an action (not the set-up)."""
    for rowid, blob in con.execute("SELECT rowid, record FROM fairplay ORDER BY rowid"):
        rec = msgpack.unpackb(blob)
        if rec["kind"] == "event" and rec["seq"] > 0:
            return rowid, rec
    raise AssertionError("no action event")


def _put(con, rowid: int, rec: dict) -> None:
    con.execute("UPDATE fairplay SET record=? WHERE rowid=?", (msgpack.packb(rec), rowid))


def _alter_reveal(con) -> str:
    rowid, rec = _second_action_event(con)
    rec["reveals"][1]["link"] = "ab" * 32
    _put(con, rowid, rec)
    return f"event {rec['event']} (action {rec['seq']}): seat 1's"


def _alter_signature(con) -> str:
    rowid, rec = _second_action_event(con)
    sig = rec["reveals"][2]["sig"]
    rec["reveals"][2]["sig"] = ("0" if sig[0] != "0" else "1") + sig[1:]
    _put(con, rowid, rec)
    return f"event {rec['event']} (action {rec['seq']}): seat 2's reveal signature"


def _alter_roll(con) -> str:
    _, rec = _second_action_event(con)
    rowid, blob = con.execute("SELECT rowid, events FROM actions WHERE seq=?",
                              (rec["seq"],)).fetchone()
    events = msgpack.unpackb(blob)
    for event in events:  # bump the first number of the first event that has one
        key = next((k for k, v in event.items() if type(v) is int and k != "seat"), None)
        if key is not None:
            event[key] += 1
            break
    else:
        events.append({"type": "forged"})
    con.execute("UPDATE actions SET events=? WHERE rowid=?", (msgpack.packb(events), rowid))
    return f"action {rec['seq']} (seat "


def _alter_action(con) -> str:
    _, rec = _second_action_event(con)
    rowid, blob = con.execute("SELECT rowid, action FROM actions WHERE seq=?",
                              (rec["seq"],)).fetchone()
    action = msgpack.unpackb(blob)
    action["forged"] = True
    con.execute("UPDATE actions SET action=? WHERE rowid=?", (msgpack.packb(action), rowid))
    return f"event {rec['event']} (action {rec['seq']}): its digest does not match"


def _alter_last_action(con) -> str:
    """The last action, after every random event: only its seat's signature covers it."""
    rowid, seq, seat, blob = con.execute(
        "SELECT rowid, seq, seat, action FROM actions ORDER BY rowid DESC LIMIT 1").fetchone()
    action = msgpack.unpackb(blob)
    action["forged"] = True
    con.execute("UPDATE actions SET action=? WHERE rowid=?", (msgpack.packb(action), rowid))
    return f"action {seq} (seat {seat}): its signature: the act signature does not match"


def _reuse_signature(con) -> str:
    """Issue 25, finding 9: a later action given the signature record of the same action
    by the same seat earlier (its base, lower, and its signature)."""
    acts = {}
    for rowid, blob in con.execute("SELECT rowid, record FROM fairplay ORDER BY rowid"):
        rec = msgpack.unpackb(blob)
        if rec["kind"] == "act":
            acts[rec["seq"]] = (rowid, rec)
        elif rec["kind"] == "pending" and rec.get("signed"):
            acts[rec["seq"]] = (rowid, rec)
    seen: dict = {}
    for seq, seat, blob in con.execute("SELECT seq, seat, action FROM actions ORDER BY seq"):
        key = (seat, blob)
        if key in seen and seq in acts and acts[seq][1]["kind"] == "act":
            first = acts[seen[key]][1]
            first = first.get("signed", first)
            rowid, rec = acts[seq]
            _put(con, rowid, {**rec, "base": first["base"], "sig": first["sig"]})
            return f"action {seq} (seat {seat}): its signature: it was signed for update"
        seen.setdefault(key, seq)
    raise AssertionError("no action repeated by a seat")


@pytest.mark.parametrize("alter", [_alter_reveal, _alter_signature, _alter_roll, _alter_action,
                                   _alter_last_action, _reuse_signature],
                         ids=["reveal", "signature", "roll", "action", "last-action",
                              "issue25_9_reused-signature"])
def test_verify_fails_naming_the_event_when_the_journal_is_altered(manila, tmp_path, alter,
                                                                   capsys) -> None:
    registry, game = manila
    named = []
    db = _tamper(game.db, tmp_path, lambda con: named.append(alter(con)))
    report = verify(copy_of(db, game.table), registry["manila"])
    assert not report.ok
    assert any(p.startswith(named[0]) for p in report.problems), (named, report.problems)
    assert cli_main(["verify", "--db", db, "--table", game.table]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH: " + named[0] in out and "FAIL:" in out


async def test_a_table_without_fair_play_says_so_and_is_verified_as_such(
        tmp_path, dice_registry) -> None:
    db = str(tmp_path / "j.sqlite")
    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=dice_registry, db=db, bind="127.0.0.1", port=0, task_status=task_status))
        async with open_client("127.0.0.1", running.port, name="a") as a:
            table = await a.create("dice", 2, seed=3)
            summary = next(t for t in await a.list_tables() if t["id"] == table)
            assert summary["fair"] is None
        nursery.cancel_scope.cancel()
    report = verify(copy_of(db, table), dice_registry["dice"])
    assert report.ok and not report.fair and "NOT FAIR PLAY" in report.verdict()


async def test_a_seat_that_equivocates_is_caught_and_named(tmp_path, dice_registry) -> None:
    game = await play_fair(dice_registry, "dice", 3, str(tmp_path / "j.sqlite"),
                           fair={"timeout": 0.5, "on_withhold": "host_rng"},
                           options={"turns": 12},
                           cheat=lambda i, f: Equivocating(f, at=3) if i == 2 else f)
    named = [f for f in game.spectator.faults if f.reason == "bad_reveal"]
    assert [(f.seat, f.event) for f in named] == [(2, 3)]
    assert "seat 2 (bot2) sent a reveal for event 3 that does not check" in named[0].message
    assert "does not hash to the link of event 2" in named[0].message
    # the host refused the bad reveal: the cheat learnt why
    assert any("bad_reveal" in p for p in game.seats[2].problems)
    # it then withheld (its honest link would not do either): the event went on without it
    assert [f.outcome for f in game.spectator.faults if f.reason == "withheld"] == ["host_rng"]
    report = verify(copy_of(game.db, game.table), dice_registry["dice"])
    assert report.ok, report.problems
    assert any("seat 2 signed a link that does not hash to its commitment" in n
               for n in report.notes)


async def test_a_seat_that_withholds_is_named_after_the_timeout_and_forfeits(
        tmp_path, dice_registry) -> None:
    with trio.fail_after(20):
        game = await play_fair(dice_registry, "dice", 3, str(tmp_path / "j.sqlite"),
                               fair={"timeout": 0.3}, options={"turns": 30},
                               cheat=lambda i, f: Withholding(f, at=3) if i == 1 else f)
    late, fault = game.spectator.faults  # first a notice of whom the table waits for
    assert (late.seat, late.event, late.reason, late.outcome) == (1, 3, "late", "waiting")
    assert late.message.startswith("waiting for seat 1 (bot1) to reveal its link for event 3;")
    assert late.message.endswith("the table ends and that seat forfeits")
    assert (fault.seat, fault.event, fault.reason, fault.outcome) == (1, 3, "withheld", "forfeit")
    assert fault.message.startswith("seat 1 (bot1) did not reveal its link for event 3 within")
    scores = game.results[0]
    assert scores["forfeit"] == [1] and scores["rank"][1] == 3
    report = verify(copy_of(game.db, game.table), dice_registry["dice"])
    assert report.ok, report.problems
    assert any("seats [1] withheld their reveals and forfeit" in n for n in report.notes)


async def test_a_withheld_reveal_falls_back_to_the_host_rng_with_everyone_told(
        tmp_path, dice_registry) -> None:
    game = await play_fair(dice_registry, "dice", 3, str(tmp_path / "j.sqlite"),
                           fair={"timeout": 0.3, "on_withhold": "host_rng"},
                           options={"turns": 30},
                           cheat=lambda i, f: Withholding(f, at=2) if i == 0 else f)
    assert [(f.seat, f.reason, f.outcome) for f in game.spectator.faults] == [
        (0, "late", "waiting"), (0, "withheld", "host_rng")]
    assert "scores" in game.results[0] and "forfeit" not in game.results[0]
    copy = copy_of(game.db, game.table)
    events = [r for r in copy.fair if r["kind"] == "event"]
    assert events[1]["withheld"] == [0] and events[1]["fallback"]
    assert all(r["seat"] != 0 for e in events[2:] for r in e["reveals"])  # not asked again
    report = verify(copy, dice_registry["dice"])
    assert report.ok, report.problems
    assert any("drawn with the host's value mixed in, because seats [0] withheld" in n
               for n in report.notes)


@pytest.mark.parametrize("live", [False, True])
async def test_links_and_seeds_reach_the_seats_at_the_end_unless_live(tmp_path, dice_registry,
                                                                      live) -> None:
    """A seed lets anyone compute every card it dealt: by default the seats see the
    links and seeds only once the table has ended (option ``live`` sends them at once,
    for games whose every draw is public)."""
    game = await play_fair(dice_registry, "dice", 2, str(tmp_path / "j.sqlite"),
                           fair={"live": live}, options={"turns": 10},
                           cheat=lambda i, f: Timeline(f))
    for seat in game.seats.values():
        kinds = [kind for kind, _, _ in seat.timeline]
        first_event = kinds.index("event")
        finished = next(i for i, (kind, _, status) in enumerate(seat.timeline)
                        if status == "finished")
        assert seat.problems == [] and kinds.count("event") >= 2
        assert first_event < finished
        between = kinds[first_event:finished]
        if live:  # the set-up event comes before the first update of play, and so on
            assert "update" in between
        else:  # every event arrives together, just before the final update
            assert set(between) == {"event"}


async def test_fair_tables_refuse_bad_options_and_keyless_seats(tmp_path, dice_registry) -> None:
    from lantable.protocol import NEED_DATA, Connection, Hello, Join, Welcome

    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=dice_registry, db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
            task_status=task_status))
        async with open_client("127.0.0.1", running.port, name="a") as a:
            for fair, why in [({"on_withhold": "shrug"}, "on_withhold='shrug'"),
                              ({"timeout": 0}, "timeout=0"), ({"colour": 1}, "unknown"),
                              ({"length": 65537}, "length=65537, expected 1..65536")]:
                with pytest.raises(RequestError, match=why) as info:
                    await a.create("dice", 2, fair=fair)
                assert info.value.code == "bad_options"
            table = await a.create("dice", 2, fair={})
        # a raw client that says hello without a key cannot sit at a fair table
        stream = await trio.open_tcp_stream("127.0.0.1", running.port)
        conn = Connection("client")

        async def next_message():
            while (event := conn.next_event()) is NEED_DATA:
                conn.receive_data(await stream.receive_some(65536))
            return event

        with trio.fail_after(5):
            await stream.send_all(conn.send(Hello(proto=1, name="nokey")))
            assert isinstance(await next_message(), Welcome)
            await stream.send_all(conn.send(Join(id=1, table=table)))
            refused = await next_message()
        assert refused.code == "no_key"
        assert "a seat needs a client that signs (hello.key" in refused.message
        await stream.aclose()
        nursery.cancel_scope.cancel()


async def test_chains_that_run_out_are_withholding_and_the_host_rng_takes_over(
        tmp_path, dice_registry) -> None:
    """Past its chain's length no seat can reveal: every seat is named, and under
    host_rng the rest of the game is drawn by the host, announced and noted."""
    game = await play_fair(dice_registry, "dice", 2, str(tmp_path / "j.sqlite"),
                           fair={"timeout": 0.2, "on_withhold": "host_rng", "length": 3},
                           options={"turns": 12})
    withheld = [f for f in game.spectator.faults if f.reason == "withheld"]
    assert sorted(f.seat for f in withheld) == [0, 1] and {f.event for f in withheld} == {4}
    report = verify(copy_of(game.db, game.table), dice_registry["dice"])
    assert report.ok, report.problems
    assert any("no seat was left to reveal" in n for n in report.notes)


async def test_people_are_told_of_faults_and_of_what_was_checked(tmp_path, dice_registry) -> None:
    told: dict[int, list[str]] = {}

    def listening(i, fair):
        told[i] = []
        fair.on_notice = told[i].append
        return fair

    game = await play_fair(dice_registry, "dice", 2, str(tmp_path / "j.sqlite"),
                           fair={"timeout": 0.2, "on_withhold": "host_rng", "length": 3},
                           options={"turns": 12}, cheat=listening)
    assert told[0] and told[0] == told[1]
    assert told[0][0].startswith("waiting for seat 0 (bot0) to reveal its link for event 4")
    assert told[0][2].startswith("seat 0 (bot0) did not reveal its link for event 4 within")
    assert game.seats[0].summary(game.table).startswith("fair play: all ")
    assert game.seats[0].summary("not-a-table") is None
