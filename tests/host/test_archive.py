"""Finished tables (host/archive.py): listed in the lobby until a person hides them,
paged, replayed step by step as each seat or a spectator saw them, marked to keep,
and compacted out of the journal unless kept (docs/protocol.md, "Finished tables and
replays")."""

from __future__ import annotations

import pytest
import trio

from lantable.clients.client import RequestError, open_client
from lantable.clients.verify import JournalCopy, verify
from lantable.host.archive import FINISHED_PAGE, LOBBY_FINISHED, Archive, compact
from lantable.host.journal import Journal
from lantable.protocol import HideTable, KeepTable, ListTables, Replay

from .tally import Tally


async def _play(client, target: int = 4, seed: int = 5, seats: int = 1) -> str:
    """Open a tally table, play it to the end with ``client`` in every seat."""
    table = await client.create("tally", seats, {"target": target}, seed=seed)
    updates = client.updates(table)
    for s in range(seats):
        await client.join(table, seat=s)
    while True:
        with trio.fail_after(5):
            update = await updates.receive()
        if update.status == "finished":
            return table
        if update.legal:
            await client.act(table, {"type": "add", "n": 1}, seat=update.seat)


async def test_finished_tables_stay_listed_until_a_person_hides_them(peer):
    async with open_client("127.0.0.1", peer.port, name="ann") as a:
        first = await _play(a, seed=1)
        second = await _play(a, seed=2)
        listed = await a._request(ListTables, finished=True)
        assert [t["id"] for t in listed.tables] == [second, first]  # newest first
        assert listed.total == 2 and not listed.more
        assert all(t["status"] == "finished" for t in listed.tables)
        assert peer.peer.lobby().finished == 2
        assert {t["id"] for t in peer.peer.lobby().tables} == {first, second}
        # the plain list_tables stays the lobby of unfinished tables
        assert await a.list_tables() == []
        await a._request(HideTable, table=first)
        listed = await a._request(ListTables, finished=True)
        assert [t["id"] for t in listed.tables] == [second] and listed.total == 1
        assert [t["id"] for t in peer.peer.lobby().tables] == [second]


async def test_a_hidden_table_stays_hidden_after_a_restart_and_still_replays(make_peer):
    running = await make_peer(name="one", db="j.sqlite")
    async with open_client("127.0.0.1", running.port, name="ann") as a:
        first = await _play(a, seed=1)
        second = await _play(a, seed=2)
        await a._request(HideTable, table=first)
    await running.stop()
    again = await make_peer(name="two", db="j.sqlite")
    async with open_client("127.0.0.1", again.port, name="ann") as a:
        listed = await a._request(ListTables, finished=True)
        assert [t["id"] for t in listed.tables] == [second]
        step = await a._request(Replay, table=first, step=1)
        assert step.steps == 4 and step.view["counter"] == 1


async def test_hiding_or_keeping_a_table_that_is_not_finished_is_refused(peer):
    async with open_client("127.0.0.1", peer.port, name="ann") as a:
        table = await a.create("tally", 2, {"target": 4}, seed=1)
        for request in (HideTable(id=0, table=table), KeepTable(id=0, table=table, keep=True),
                        Replay(id=0, table=table, step=0)):
            fields = {k: v for k, v in request.to_map().items() if k not in ("t", "id")}
            with pytest.raises(RequestError) as err:
                await a._request(type(request), **fields)
            assert err.value.code == "not_finished", request
        with pytest.raises(RequestError) as err:
            await a._request(HideTable, table="nosuch")
        assert err.value.code == "no_such_table"


async def test_paging_lists_every_finished_table_once_newest_first(registry, tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    archive = Archive(journal, registry)
    n = FINISHED_PAGE * 2 + 7
    for i in range(n):
        journal._write("INSERT INTO archive (table_id, finished, summary) VALUES (?, ?, ?)",
                       (f"t{i:04}", float(i), b"\x81\xa2id\xa5" + f"t{i:04}".encode()))
    journal.commit()
    archive = Archive(journal, registry)  # as after a restart: listed rows loaded
    assert archive.total == n
    archive.hide("t0100")
    seen, offset, pages = [], 0, 0
    while True:
        page, more = archive.page(offset)
        assert len(page) <= FINISHED_PAGE
        seen += [t["id"] for t in page]
        offset += len(page)
        pages += 1
        if not more:
            break
    expected = [f"t{i:04}" for i in reversed(range(n)) if i != 100]
    assert seen == expected and pages == 3
    assert [t["id"] for t in archive.newest()] == expected[:LOBBY_FINISHED]
    journal.close()


async def test_a_replay_steps_forward_and_back_with_each_seats_view_or_the_spectators(peer):
    async with open_client("127.0.0.1", peer.port, name="ann") as a:
        table = await _play(a, target=5, seats=2, seed=9)
        steps = []
        for step in (0, 1, 2, 5, 2):
            steps.append(await a._request(Replay, table=table, step=step, seat=1))
        assert [s.view["counter"] for s in steps] == [0, 1, 2, 5, 2]
        assert steps[0].actor is None and steps[1].actor == 0 and steps[2].actor == 1
        assert steps[-2].scores is not None and steps[1].scores is None
        assert steps[1].seat_views and steps[1].steps == 5
        # seat 1's view holds its own secret; its events hold only what it saw: the
        # peek of action 1 went to seat 0 (a seat's private event)
        assert "my_secret" in steps[0].view
        assert [e["type"] for e in steps[1].events] == ["added"]
        assert [e["type"] for e in steps[2].events] == ["added", "peek"]
        assert steps[1].sentences and len(steps[1].sentences) == len(steps[1].events)
        spectator = await a._request(Replay, table=table, step=2)
        assert spectator.seat is None and "my_secret" not in spectator.view
        for bad in ({"step": 6}, {"step": -1}, {"step": 1, "seat": 2}):
            with pytest.raises(RequestError) as err:
                await a._request(Replay, table=table, **bad)
            assert err.value.code == "bad_replay"


async def test_a_replay_matches_the_game_as_played(peer):
    """Each replayed step is the view the seat was sent while the game was played."""
    async with open_client("127.0.0.1", peer.port, name="ann") as a:
        table = await a.create("tally", 1, {"target": 6}, seed=3)
        updates = a.updates(table)
        await a.join(table, seat=0)
        seen = {}
        while True:
            with trio.fail_after(5):
                update = await updates.receive()
            if update.view is not None:
                seen[update.seq] = update.view
            if update.status == "finished":
                break
            if update.legal:
                await a.act(table, {"type": "add", "n": 1 + update.seq % 3})
        for seq, view in seen.items():
            assert (await a._request(Replay, table=table, step=seq, seat=0)).view == view


def _journal_with_games(registry, path, n: int) -> list[str]:
    """Play ``n`` finished tally tables into a journal, as a peer does."""
    from lantable.host.table import Table

    journal = Journal(path)
    archive = Archive(journal, registry)
    ids = []
    for i in range(n):
        table = Table.create(table_id=f"t{i:03}", game=registry["tally"], seats=1,
                             options={"target": 3}, seed=i, journal=journal)
        table.status = "playing"
        for seq in range(1, 4):
            events = table.g.apply(table.state, 0, {"type": "add", "n": 1}, table.rng)
            table.seq = seq
            journal.append(table.id, seq, 0, {"type": "add", "n": 1}, events)
        journal.set_status(table.id, "finished")
        table.status = "finished"
        archive.add(table)
        ids.append(table.id)
    journal.commit()
    journal.close()
    return ids


def test_compaction_keeps_kept_and_newest_tables_replayable_and_verifiable(registry, tmp_path):
    path = tmp_path / "j.sqlite"
    ids = _journal_with_games(registry, path, 12)
    journal = Journal(path)
    Archive(journal, registry).keep(ids[1], True)
    # an unfinished table with actions written after every finished one
    journal.create_table("open", "tally", "1", 2, {"target": 9}, 4)
    journal.append("open", 1, 0, {"type": "add", "n": 2},
                   [{"type": "added", "seat": 0, "n": 2}])
    from lantable.host.chat import _SCHEMA as CHAT_SCHEMA

    journal._db.executescript(CHAT_SCHEMA)  # chat lines of a dropped and a kept table
    for table_id in (ids[0], ids[1], ""):
        journal._db.execute("INSERT INTO chat VALUES (?, 'players', 1, 1, 0, 'ann', 'gg', 0)",
                            (table_id,))
    journal.commit()
    done = compact(journal, keep_last=3)
    assert done["tables_dropped"] == 8 and done["actions_dropped"] == 24
    chat_left = {r[0] for r in journal._db.execute("SELECT table_id FROM chat")}
    assert chat_left == {ids[1], ""}  # the dropped table's line goes; the lobby's stays
    left = {t.id for t in journal.tables()}
    assert left == {ids[1], ids[9], ids[10], ids[11], "open"}
    archive = Archive(journal, registry)
    assert archive.total == 4
    for table_id in (ids[1], ids[9], ids[11]):
        step = archive.replay(table_id, 3, 0)
        assert step["view"]["counter"] == 3 and step["scores"] is not None
    assert [a.seq for a in journal.actions("open")] == [1]
    for table_id in (ids[1], ids[11]):  # the journal of a kept table still verifies
        r = journal.table(table_id)
        copy = JournalCopy(r.id, r.game, r.game_version, r.seats, r.options, r.seed, r.status,
                           [(a.seq, a.seat, a.action, a.events) for a in journal.actions(r.id)],
                           journal.fair_records(r.id))
        report = verify(copy, registry["tally"])
        assert report.ok and report.actions == 3, report.problems
    journal.close()


def test_a_compaction_killed_midway_leaves_the_journal_as_it_was(registry, tmp_path):
    path = tmp_path / "j.sqlite"
    ids = _journal_with_games(registry, path, 5)
    journal = Journal(path)
    before = [(t.id, len(journal.actions(t.id))) for t in journal.tables()]
    db = journal._db

    class Crash(Exception):
        pass

    real = db.execute

    class Dying:  # the process dies just before the commit
        def __getattr__(self, name):
            return getattr(db, name)

        def execute(self, sql, *args):
            if sql == "COMMIT":
                raise Crash
            return real(sql, *args)

        def executescript(self, sql):
            return db.executescript(sql)

    journal._db = Dying()
    with pytest.raises(Crash):
        compact(journal, keep_last=1)
    journal._db = db
    assert [(t.id, len(journal.actions(t.id))) for t in journal.tables()] == before
    assert len(before) == len(ids)
    journal.close()


_ = Tally  # the tests' game (tests/host/conftest.py registers it)


async def test_an_older_journals_finished_tables_are_listed_after_the_peer_serves(
        registry, make_peer, tmp_path):
    """A journal from before the archive: the peer serves at once and lists the
    finished tables it already held a moment later (read in a worker thread)."""
    import sqlite3

    ids = _journal_with_games(registry, tmp_path / "old.sqlite", 5)
    db = sqlite3.connect(tmp_path / "old.sqlite")
    db.execute("DROP TABLE archive")  # as a journal written before the archive
    db.execute("DELETE FROM meta WHERE key='archive'")
    db.commit()
    db.close()
    running = await make_peer(db="old.sqlite")
    with trio.fail_after(10):
        while running.peer.archive.behind:
            await trio.sleep(0.01)
    async with open_client("127.0.0.1", running.port, name="ann") as a:
        listed = await a._request(ListTables, finished=True)
        assert [t["id"] for t in listed.tables] == ids[::-1]
        assert listed.tables[0]["seq"] == 3 and listed.tables[0]["game"] == "tally"


def test_host_compact_lists_an_older_journal_first_then_keeps_the_newest(registry, tmp_path):
    """``lantable host --compact`` on a journal from before the archive: its finished
    tables are listed first, so the newest N are kept (not taken for unlisted ones)."""
    import sqlite3

    from lantable.host.archive import compact_journal

    path = tmp_path / "old.sqlite"
    ids = _journal_with_games(registry, path, 6)
    db = sqlite3.connect(path)
    db.execute("DROP TABLE archive")  # as a journal written before the archive
    db.execute("DELETE FROM meta WHERE key='archive'")
    db.commit()
    db.close()
    done = compact_journal(str(path), registry, keep_last=2)
    assert done["tables_dropped"] == 4 and done["actions_kept"] == 6
    journal = Journal(path)
    try:
        assert [t.id for t in journal.tables()] == ids[-2:]
        archive = Archive(journal, registry)
        assert [t["id"] for t in archive.page()[0]] == ids[:-3:-1]
        assert archive.replay(ids[-1], 3, None)["scores"] is not None
    finally:
        journal.close()
