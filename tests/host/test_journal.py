"""The journal's group commit: nothing a client sees is uncommitted, and a failed
commit stops the peer without showing anything it lost."""

from __future__ import annotations

import sqlite3

import pytest
import trio

from lantable.clients.client import open_client
from lantable.host.journal import Journal, JournalFailed
from lantable.host.peer import serve_peer


def test_writes_are_visible_to_readers_only_after_commit(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    journal.create_table("t1", "tally", "1", 2, {}, 7)
    journal.append("t1", 1, 0, {"type": "add", "n": 1}, [])
    assert [a.seq for a in journal.actions("t1")] == [1]  # the writer sees its own writes
    other = sqlite3.connect(path)
    assert other.execute("SELECT count(*) FROM actions").fetchone() == (0,)
    journal.commit()
    assert other.execute("SELECT count(*) FROM actions").fetchone() == (1,)
    other.close()
    journal.close()


def test_close_commits(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    journal.create_table("t1", "tally", "1", 2, {}, 7)
    journal.close()
    assert Journal(tmp_path / "j.sqlite").table("t1") is not None


async def test_every_update_a_client_saw_is_in_the_journal(peer, tmp_path):
    """Read the journal from another connection each time an update arrives: the
    action behind it is already committed (journal before broadcast, with group commit)."""
    reader = sqlite3.connect(tmp_path / "journal.sqlite")
    async with open_client("127.0.0.1", peer.port, name="a") as a:
        table = await a.create("tally", 1, {"target": 12}, seed=5)
        updates = a.updates(table)
        await a.join(table, seat=0)
        while True:
            with trio.fail_after(5):
                update = await updates.receive()
            committed = reader.execute(
                "SELECT coalesce(max(seq), 0) FROM actions WHERE table_id=?",
                (table,)).fetchone()[0]
            assert committed >= update.seq
            if update.status == "finished":
                break
            if update.legal:
                await a.act(table, {"type": "add", "n": 1})
        assert update.seq == 12
    reader.close()


class _DiskFullOnCommit:
    """Stands in for the journal's SQLite connection: committing fails, as when the
    disk fills up: a COMMIT, or a statement that SQLite commits by itself (one made
    outside a transaction: the journal writes a batch of actions alone that way);
    everything else goes to the real connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args):
        if sql == "COMMIT" or (sql.startswith("INSERT") and not self._db.in_transaction):
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._db, name)


async def test_a_failed_commit_stops_the_peer_and_shows_nothing_it_lost(registry, tmp_path):
    db = tmp_path / "journal.sqlite"
    seqs: list[int] = []
    with pytest.RaisesGroup(pytest.RaisesExc(JournalFailed, match="disk is full"),
                            flatten_subgroups=True):
        async with trio.open_nursery() as nursery:
            running = await nursery.start(lambda task_status: serve_peer(
                registry=registry, db=str(db), name="p", bind="127.0.0.1", port=0,
                task_status=task_status))
            async with open_client("127.0.0.1", running.port, name="a") as a:
                table = await a.create("tally", 1, {"target": 50}, seed=1)
                updates = a.updates(table)
                await a.join(table, seat=0)
                await a.act(table, {"type": "add", "n": 1})
                journal = running.peer.journal
                real = journal._db
                journal._db = _DiskFullOnCommit(real)
                with trio.move_on_after(5):
                    try:
                        await a.act(table, {"type": "add", "n": 2})  # its commit fails
                    except Exception:
                        pass  # the peer stops; the connection closes
                    async for update in updates:
                        seqs.append(update.seq)
    assert seqs and max(seqs) <= 1, seqs  # the lost action was never shown
    # A restart sees exactly what was committed: the first action.
    journal = Journal(db)
    (record,) = journal.tables()
    assert [a.seq for a in journal.actions(record.id)] == [1]
    journal.close()


_V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, game_version TEXT NOT NULL,
    seats INTEGER NOT NULL, options BLOB NOT NULL, seed INTEGER NOT NULL, status TEXT NOT NULL,
    created REAL NOT NULL);
CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE, PRIMARY KEY (table_id, seat));
CREATE TABLE actions (table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL,
    action BLOB NOT NULL, events BLOB NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, seq));
INSERT INTO meta VALUES ('schema', '1');
"""


def test_a_version_1_journal_is_migrated_and_keeps_every_action(tmp_path):
    import msgpack

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(_V1_SCHEMA)
    for table in ("aaaa", "bbbb"):
        db.execute("INSERT INTO tables VALUES (?, 'tally', '1', 2, ?, 7, 'playing', 0)",
                   (table, msgpack.packb({})))
    # Interleaved, as two busy tables write them.
    for seq in (1, 2, 3):
        for table in ("bbbb", "aaaa"):
            db.execute("INSERT INTO actions VALUES (?, ?, 0, ?, ?, 0)",
                       (table, seq, msgpack.packb({"n": seq}), msgpack.packb([])))
    db.execute("INSERT INTO seats VALUES ('aaaa', 0, 'ann', 'tok-ann')")
    db.commit()
    db.close()
    journal = Journal(path)
    assert journal.meta("schema") == "4"
    assert journal.table("aaaa").tokens == {0: "tok-ann"} and not journal.table("aaaa").join_ids
    for table in ("aaaa", "bbbb"):
        assert [(a.seq, a.action) for a in journal.actions(table)] == \
            [(s, {"n": s}) for s in (1, 2, 3)]
    # New tables and actions work as in a new journal.
    journal.create_table("cccc", "tally", "1", 2, {}, 1)
    journal.append("cccc", 1, 0, {"n": 9}, [])
    assert [a.action for a in journal.actions("cccc")] == [{"n": 9}]
    journal.take_seat("cccc", 1, "bob", "tok-bob", b"nonce-of-bob-123")
    assert journal.table("cccc").join_ids == {1: b"nonce-of-bob-123"}
    journal.close()


def test_a_newer_journal_is_refused(tmp_path):
    path = tmp_path / "new.sqlite"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    db.commit()
    db.close()
    with pytest.raises(RuntimeError, match="schema 99"):
        Journal(path)


def test_actions_of_interleaved_tables_come_back_in_order(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    journal.create_table("old", "tally", "1", 2, {}, 1)
    journal.append("old", 1, 0, {"n": 1}, [])
    journal.commit()
    journal.create_table("new", "tally", "1", 2, {}, 1)
    for seq in range(1, 6):
        journal.append("new", seq, 0, {"n": seq}, [])
        journal.append("old", seq + 1, 1, {"n": seq + 1}, [])
    journal.commit()
    assert [a.seq for a in journal.actions("old")] == list(range(1, 7))
    assert [a.seq for a in journal.actions("new")] == list(range(1, 6))
    assert journal.actions("missing") == []
    journal.close()



def test_a_commit_leaves_nothing_open():
    journal = Journal(":memory:")
    assert not journal.uncommitted
    journal.create_table("t1", "tally", "1", 2, {}, 7)
    journal.append("t1", 1, 0, {"n": 1}, [])  # pending: inserted by the commit itself
    assert journal.uncommitted
    journal.commit()
    assert not journal.uncommitted
    journal.append("t1", 2, 1, {"n": 2}, [])  # appends alone wait for a commit too
    assert journal.uncommitted
    journal.close()


@pytest.mark.parametrize("held", [0.01, 0.4])
def test_a_contended_commit_waits_for_another_process_lock(tmp_path, held, monkeypatch):
    """A host with worker processes: another connection holds the write lock (a
    worker's commit). The batch's one INSERT retries briefly, then (held past 0.2 s)
    waits as SQLite does: either way it commits once the lock is free, and loses
    nothing."""
    import threading
    import time

    from lantable.host import journal as journal_module

    naps: list[float] = []
    sleep = time.sleep

    def nap(seconds: float) -> None:
        naps.append(seconds)
        sleep(seconds)

    monkeypatch.setattr(journal_module.time, "sleep", nap)
    path = tmp_path / "j.sqlite"
    first = Journal(path)
    first.create_table("t1", "tally", "1", 2, {}, 7)
    first.commit()
    mine = Journal(path)
    mine.contended = True
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # the other process's write lock
    other.execute("INSERT INTO meta VALUES ('other', 'x')")
    release = threading.Timer(held, lambda: other.execute("COMMIT"))
    release.start()
    try:
        mine.append("t1", 1, 0, {"type": "add", "n": 1}, [])
        mine.append("t1", 2, 1, {"type": "add", "n": 2}, [])
        mine.commit()  # neither fails nor loses the rows
    finally:
        release.join()
    assert other.execute("SELECT count(*) FROM actions").fetchone() == (2,)
    assert other.execute("SELECT value FROM meta WHERE key='other'").fetchone() == ("x",)
    assert mine._db.execute("PRAGMA busy_timeout").fetchone() == (10000,)  # restored
    assert naps and naps[0] < 1e-3  # it retried sooner than SQLite's 1 ms
    other.close()
    mine.close()
    first.close()
