"""One batch end per peer: two peers in one process share no output, no journal
transaction and no failure (docs/decisions.md, "One batch end per peer")."""

from __future__ import annotations

import sqlite3

import trio

from lantable.clients.client import open_client
from lantable.host.journal import Journal, JournalFailed
from lantable.host.link import BatchEnd, ClientLink
from lantable.host.peer import serve_peer
from lantable.protocol import Connection, Hello, Pong, Welcome


def _session_conn() -> Connection:
    host, client = Connection("host"), Connection("client")
    host.receive_data(client.send(Hello(proto=1, name="c")))
    host.next_event()
    host.send(Welcome(proto=1, peer="p", name="n", tables=[]))
    return host


class _FullDisk:
    """Stands for a journal's SQLite connection on a full disk: commits fail."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __getattr__(self, name: str):
        return getattr(self._db, name)

    def execute(self, sql: str, *args):
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)


def test_two_batch_ends_share_nothing():
    journals = [Journal(":memory:"), Journal(":memory:")]
    batches = [BatchEnd(j) for j in journals]
    links = [ClientLink(n, "test", _session_conn(), b) for n, b in zip("ab", batches,
                                                                       strict=True)]
    for n, journal in enumerate(journals):
        journal.create_table(f"t{n}", "tally", "1", 2, {}, n)
        links[n].send(Pong(id=n))
    assert list(batches[0].dirty) == [links[0]] and list(batches[1].dirty) == [links[1]]

    assert batches[0].end() is True  # wrote to the outbox (no socket): wakes the writer
    assert not journals[0].uncommitted and journals[1].uncommitted  # its own journal only
    assert (links[0].queued, links[1].queued) == (1, 0)  # its own links only

    journals[1]._db = _FullDisk(journals[1]._db)
    links[0].send(Pong(id=2))
    batches[1].end()  # fails to commit: its own output is discarded, nobody else's
    assert journals[1].failed is not None and journals[0].failed is None
    assert links[1].queued == 0 and not batches[1].dirty
    assert list(batches[0].dirty) == [links[0]]
    batches[0].end()
    assert links[0].queued == 2


async def test_two_peers_in_one_process_share_nothing(registry, tmp_path):
    """A peer whose disk fills stops; the other peer in the same process plays on."""
    async with trio.open_nursery() as nursery:
        failing = None

        async def run_failing(task_status: trio.TaskStatus) -> None:
            nonlocal failing
            try:
                await serve_peer(registry=registry, db=str(tmp_path / "a.sqlite"), name="a",
                                 bind="127.0.0.1", port=0, task_status=task_status)
            except* JournalFailed as group:
                failing = group

        a = await nursery.start(run_failing)
        b = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=str(tmp_path / "b.sqlite"), name="b", bind="127.0.0.1",
            port=0, task_status=task_status))
        assert a.peer.batch is not b.peer.batch
        with trio.fail_after(10):
            async with open_client("127.0.0.1", b.port, name="ann") as ann:
                table = await ann.create("tally", 1, {"target": 6})
                await ann.join(table)
                await ann.act(table, {"type": "add", "n": 1})
                a.peer.journal._db = _FullDisk(a.peer.journal._db)
                async with open_client("127.0.0.1", a.port, name="bob") as bob:
                    try:
                        await bob.create("tally", 1)
                    except Exception:  # noqa: BLE001 - the failing peer stops; how is its own
                        pass
                while failing is None:
                    await trio.sleep(0.01)
                for n in (2, 3):  # the other peer never noticed
                    assert await ann.act(table, {"type": "add", "n": n}) == n
        assert b.peer.journal.failed is None
        assert [r.action["n"] for r in b.peer.journal.actions(table)] == [1, 2, 3]
        nursery.cancel_scope.cancel()
