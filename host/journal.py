"""The journal: one SQLite file per peer, the source of truth for every table.

Every accepted action is appended before its update is broadcast, so a table
can always be rebuilt by replaying its actions from its seed (docs/architecture.md).
Writes open a transaction that the peer's batch end
(:class:`lantable.host.link.BatchEnd`) commits once per trio scheduler batch, just
before the batch's output is written to the sockets: one commit covers every table
that acted in the batch (group commit), and nothing a client sees is ever
uncommitted. The database runs in WAL mode with ``synchronous=NORMAL``: a commit
survives the process being killed (SIGKILL), which is what a restart relies on.
Calls are short and made from the trio thread.
"""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, NoReturn

import msgpack

SCHEMA_VERSION: Final = 4  # bump with a migration (_MIGRATIONS) when the tables below change

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    game_version TEXT NOT NULL,
    seats INTEGER NOT NULL,
    options BLOB NOT NULL,
    seed INTEGER NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    first_action INTEGER NOT NULL DEFAULT 1  -- no action of this table has a smaller rowid
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    join_id BLOB,  -- the client's nonce for the join that took the seat (a retry's key)
    PRIMARY KEY (table_id, seat)
);
-- An append-only log with no index: rowid order is write order, and a table's
-- actions lie at or after its tables.first_action. A primary key on (table_id, seq)
-- made each commit rewrite one index page per table that acted, three times the cost.
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action BLOB NOT NULL,
    events BLOB NOT NULL,
    at REAL NOT NULL
);
-- Fair play (host/fairplay.py): a fair table's config, commitments, pending and settled
-- random events and faults, each a msgpack map with a "kind", in write order.
CREATE TABLE IF NOT EXISTS fairplay (
    table_id TEXT NOT NULL,
    record BLOB NOT NULL
);
-- Page bots (host/pagebots.py): the seats a bot of this peer plays, so that a restarted
-- peer starts them again. ``token`` is the one the bot resumes the seat with.
CREATE TABLE IF NOT EXISTS page_bots (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    strategy TEXT NOT NULL,
    strength INTEGER,
    token TEXT NOT NULL,
    handed INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
-- Turn clocks and pauses (host/clock.py): a table's clock config, time-outs, pauses and
-- resumes, each a msgpack map with a "kind", in write order. A new table, not a changed
-- one: an older journal gets it when opened, with no migration.
CREATE TABLE IF NOT EXISTS clock (
    table_id TEXT NOT NULL,
    record BLOB NOT NULL
);
"""

# from version -> the script that brings a journal to version + 1
_MIGRATIONS: Final = {
    1: """
ALTER TABLE tables ADD COLUMN first_action INTEGER NOT NULL DEFAULT 1;
CREATE TABLE actions_v2 (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL,
    action BLOB NOT NULL, events BLOB NOT NULL, at REAL NOT NULL
);
INSERT INTO actions_v2 SELECT table_id, seq, seat, action, events, at FROM actions
    ORDER BY table_id, seq;
DROP TABLE actions;
ALTER TABLE actions_v2 RENAME TO actions;
""",
    2: "ALTER TABLE seats ADD COLUMN join_id BLOB;",
    3: """
CREATE TABLE IF NOT EXISTS page_bots (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, strategy TEXT NOT NULL,
    strength INTEGER, token TEXT NOT NULL, handed INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
""",
}


# A batch of at most this many actions (and nothing else) is written by one INSERT
# statement; a larger one by a transaction (SQLite allows 32,766 parameters, 6 a row).
_ONE_STATEMENT_ROWS: Final = 64


BUSY_TIMEOUT_MS: Final = 10000  # how long a write waits for another process's commit
_SQLITE_BUSY: Final = 5  # SQLite's result code for a lock another connection holds


@functools.cache
def _insert_rows(n: int) -> str:
    """The INSERT of ``n`` action rows (one string per ``n``: SQLite's statement cache
    keeps each one prepared)."""
    return "INSERT INTO actions VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?)"] * n)


def _pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def _unpack(blob: bytes) -> Any:
    """Raises ValueError for a blob that is not one msgpack value."""
    try:
        return msgpack.unpackb(blob, raw=False)
    except Exception as exc:  # msgpack raises many types on garbage
        raise ValueError(f"a damaged record ({type(exc).__name__}: {exc})") from None


@dataclass(frozen=True, slots=True)
class TableRecord:
    """What the journal knows of one table."""

    id: str
    game: str
    game_version: str
    seats: int
    options: dict[str, Any]
    seed: int
    status: str
    created: float
    names: dict[int, str]
    tokens: dict[int, str]
    join_ids: dict[int, bytes] = field(default_factory=dict)  # seats taken with a join_id
    # seat -> {"strategy", "strength", "token", "handed"}: the seats page bots play
    bots: dict[int, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ActionRecord:
    seq: int
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    at: float


class JournalDamaged(RuntimeError):
    """The journal file cannot be opened as a lantable journal: not SQLite, damaged, or
    written by a newer lantable. The message names the file and what to do."""


def _damaged(path: str, exc: BaseException | str) -> JournalDamaged:
    return JournalDamaged(
        f"journal {path} cannot be read ({exc}). Nothing was changed. Keep it for "
        f"`sqlite3 {path} .recover` and start with a new one: move it aside "
        f"(mv {path} {path}.damaged) or give another --db")


class JournalFailed(Exception):
    """A commit failed (disk full, I/O error); what it held was rolled back.

    The host stops rather than show clients anything the journal does not hold;
    a restart rebuilds every table from what was committed.
    """


class Journal:
    """Append-only record of tables, seats and accepted actions.

    Args:
        path: the SQLite file (created if missing); ``":memory:"`` for tests.

    Writes are grouped into a transaction that :meth:`commit` ends (the peer's batch
    end calls it); reads through this object see them at once. :meth:`close` commits.
    """

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the journal.

        Raises:
            JournalDamaged: the file is not a journal this lantable can read.
        """
        self.path = str(path)
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            try:
                self._db.close()
            except (AttributeError, sqlite3.Error):
                pass
            raise _damaged(self.path, exc) from None

    def _open(self) -> None:
        self.failed: JournalFailed | None = None
        self._pending: list[tuple[Any, ...]] = []  # appended actions not yet inserted
        # Told once, at the failed commit.
        self.on_failure: Callable[[JournalFailed], None] | None = None
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        # A host with worker processes writes from each (host/workers.py): a write waits
        # for another process's commit rather than fail.
        self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        # Set by a host with worker processes: other processes commit to this file too.
        self.contended = False
        self._db.executescript(_SCHEMA)
        row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            return
        try:
            version = int(row[0])
        except ValueError:
            raise sqlite3.DatabaseError(f"schema version {row[0]!r} is not a number") from None
        if version > SCHEMA_VERSION:
            self._db.close()
            raise JournalDamaged(
                f"journal {self.path} was written by a newer lantable (journal schema "
                f"{version}; this one reads up to {SCHEMA_VERSION}). Upgrade lantable, or "
                "give another --db. The file was not changed")
        missing = [v for v in range(version, SCHEMA_VERSION) if v not in _MIGRATIONS]
        if missing:
            raise sqlite3.DatabaseError(f"schema {version} has no migration to {SCHEMA_VERSION}")
        while version < SCHEMA_VERSION:
            self._db.executescript(f"BEGIN; {_MIGRATIONS[version]} "
                                   f"UPDATE meta SET value='{version + 1}' WHERE key='schema';"
                                   " COMMIT;")
            version += 1

    @property
    def uncommitted(self) -> bool:
        """Whether writes wait for :meth:`commit` (never, once the journal failed)."""
        return self.failed is None and (bool(self._pending) or self._db.in_transaction)

    def close(self) -> None:
        if self.uncommitted:
            self.commit()
        self._db.close()

    def commit(self) -> None:
        """Make every write so far durable.

        Raises:
            JournalFailed: the commit failed; the writes since the last commit are
                rolled back and this journal refuses every later write.
        """
        if self.failed is not None:
            raise self.failed
        rows = self._pending
        if rows and len(rows) <= _ONE_STATEMENT_ROWS and not self._db.in_transaction:
            # Only actions to write (the usual batch): one INSERT of every row, which
            # SQLite commits on its own, atomically and as durably as a COMMIT; it saves
            # the BEGIN and the COMMIT round trips.
            self._pending = []
            try:
                self._insert_now(_insert_rows(len(rows)), [x for row in rows for x in row])
            except sqlite3.Error as exc:
                self._fail("commit", exc)
            return
        self._insert_pending()  # opens the transaction if only appends were pending
        if self._db.in_transaction:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._fail("commit", exc)

    def _insert_now(self, sql: str, params: list[Any]) -> None:
        """Run the batch's one INSERT. In a journal other processes write too
        (:attr:`contended`: a host with worker processes), SQLite's own wait for the
        write lock sleeps 1 ms at the least, twenty times another process's commit (and
        the whole process waits with it: measured, 149 such sleeps in 4 s of a worker
        at 64 Manila tables); so this retries after 20 µs, doubling to 2 ms, for up to
        0.2 s, then waits as SQLite does (``busy_timeout``)."""
        if not self.contended:
            self._db.execute(sql, params)
            return
        self._db.execute("PRAGMA busy_timeout=0")
        try:
            delay, give_up = 20e-6, time.monotonic() + 0.2
            while True:
                try:
                    self._db.execute(sql, params)
                    return
                except sqlite3.OperationalError as exc:
                    if getattr(exc, "sqlite_errorcode", 0) & 0xFF != _SQLITE_BUSY or \
                            time.monotonic() > give_up:
                        break
                time.sleep(delay)
                delay = min(2 * delay, 2e-3)
        finally:
            self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        self._db.execute(sql, params)  # raises again, or waits for the lock as before

    def _fail(self, what: str, exc: sqlite3.Error) -> NoReturn:
        """Roll back what is not committed, refuse everything from now on, tell the owner."""
        self.failed = JournalFailed(f"journal {self.path}: {what} failed: {exc}")
        self._pending.clear()
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite may already have rolled back, or no transaction was open
        if self.on_failure is not None:
            self.on_failure(self.failed)
        raise self.failed from exc

    def _begin(self) -> None:
        if self.failed is not None:
            raise self.failed
        if not self._db.in_transaction:
            self._db.execute("BEGIN IMMEDIATE")  # the write lock now: never a busy upgrade

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        self._begin()
        self._db.execute(sql, params)

    def _insert_pending(self) -> None:
        """Insert the appended actions, all in one statement (before a commit or a read)."""
        if not self._pending:
            return
        rows, self._pending = self._pending, []
        try:
            self._begin()
            self._db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.Error as exc:
            self._fail("insert", exc)

    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._write("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- writes ---------------------------------------------------------------

    def create_table(self, table_id: str, game: str, game_version: str, seats: int,
                     options: dict[str, Any], seed: int) -> None:
        self._write(
            "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, 'waiting', ?,"
            " (SELECT coalesce(max(rowid), 0) + 1 FROM actions))",
            (table_id, game, game_version, seats, _pack(options), seed, time.time()),
        )

    def take_seat(self, table_id: str, seat: int, name: str, token: str,
                  join_id: bytes | None = None) -> None:
        self._write("INSERT INTO seats (table_id, seat, name, token, join_id)"
                    " VALUES (?, ?, ?, ?, ?)", (table_id, seat, name, token, join_id))

    def free_seat(self, table_id: str, seat: int) -> None:
        self._write("DELETE FROM seats WHERE table_id=? AND seat=?", (table_id, seat))

    def rename_seat(self, table_id: str, seat: int, name: str) -> None:
        self._write("UPDATE seats SET name=? WHERE table_id=? AND seat=?", (name, table_id, seat))

    def add_page_bot(self, table_id: str, seat: int, strategy: str, strength: int | None,
                     token: str, handed: bool) -> None:
        self._write("INSERT OR REPLACE INTO page_bots (table_id, seat, strategy, strength, "
                    "token, handed) VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, seat, strategy, strength, token, int(handed)))

    def remove_page_bot(self, table_id: str, seat: int) -> None:
        self._write("DELETE FROM page_bots WHERE table_id=? AND seat=?", (table_id, seat))

    def set_status(self, table_id: str, status: str) -> None:
        self._write("UPDATE tables SET status=? WHERE id=?", (status, table_id))

    def append(self, table_id: str, seq: int, seat: int, action: dict[str, Any],
               events: list[dict[str, Any]]) -> None:
        """Record accepted action number ``seq`` (inserted and committed together with
        the batch's other actions, before anything of the batch is sent)."""
        if self.failed is not None:
            raise self.failed
        self._pending.append((table_id, seq, seat, _pack(action), _pack(events), time.time()))

    def fair_append(self, table_id: str, record: dict[str, Any]) -> None:
        """Record one fair-play fact of a table (committed with the batch)."""
        self._write("INSERT INTO fairplay VALUES (?, ?)", (table_id, _pack(record)))

    def clock_append(self, table_id: str, record: dict[str, Any]) -> None:
        """Record one turn-clock or pause fact of a table (committed with the batch)."""
        self._write("INSERT INTO clock VALUES (?, ?)", (table_id, _pack(record)))

    # -- reads ----------------------------------------------------------------

    def clock_records(self, table_id: str) -> list[dict[str, Any]]:
        """A table's clock and pause records in write order (host/clock.py)."""
        return [_unpack(r) for (r,) in self._db.execute(
            "SELECT record FROM clock WHERE table_id=? ORDER BY rowid", (table_id,))]

    def fair_records(self, table_id: str) -> list[dict[str, Any]]:
        """A table's fair-play records in write order; empty for a table that does not
        play fair."""
        return [_unpack(r) for (r,) in self._db.execute(
            "SELECT record FROM fairplay WHERE table_id=? ORDER BY rowid", (table_id,))]

    def table(self, table_id: str) -> TableRecord | None:
        row = self._db.execute("SELECT * FROM tables WHERE id=?", (table_id,)).fetchone()
        return self._record(row) if row else None

    def tables(self, *, unfinished: bool = False,
               damaged: list[tuple[str, str]] | None = None) -> list[TableRecord]:
        """Every table's record (or the unfinished ones), oldest first.

        A table whose row cannot be read is left out and, if ``damaged`` is given,
        reported there as ``(table id, why)``: one bad row never hides the others.

        Raises:
            JournalDamaged: not even the list of tables can be read.
        """
        sql = "SELECT id FROM tables"
        if unfinished:
            sql += " WHERE status IN ('waiting', 'playing', 'faulted')"
        try:
            ids = [r[0] for r in self._db.execute(sql + " ORDER BY created")]
        except sqlite3.DatabaseError as exc:
            raise _damaged(self.path, exc) from None
        out = []
        for table_id in ids:
            try:
                out.append(self.table(table_id))
            except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
                if damaged is not None:
                    damaged.append((str(table_id), f"{type(exc).__name__}: {exc}"))
        return [r for r in out if r is not None]

    def _record(self, row: tuple[Any, ...]) -> TableRecord:
        """Raises ValueError (a blob that is not msgpack) or sqlite3.DatabaseError."""
        names, tokens, join_ids = {}, {}, {}
        for seat, name, token, join_id in self._db.execute(
            "SELECT seat, name, token, join_id FROM seats WHERE table_id=?", (row[0],)
        ):
            names[seat] = name
            tokens[seat] = token
            if join_id is not None:
                join_ids[seat] = bytes(join_id)
        bots = {seat: {"strategy": strategy, "strength": strength, "token": token,
                       "handed": bool(handed)}
                for seat, strategy, strength, token, handed in self._db.execute(
                    "SELECT seat, strategy, strength, token, handed FROM page_bots "
                    "WHERE table_id=?", (row[0],))}
        return TableRecord(row[0], row[1], row[2], row[3], _unpack(row[4]), row[5], row[6],
                           row[7], names, tokens, join_ids, bots)

    def actions(self, table_id: str) -> list[ActionRecord]:
        """The table's actions in order (a scan of the log from the table's creation on)."""
        self._insert_pending()
        row = self._db.execute("SELECT first_action FROM tables WHERE id=?", (table_id,)).fetchone()
        if row is None:
            return []
        return [
            ActionRecord(seq, seat, _unpack(a), _unpack(e), at)
            for seq, seat, a, e, at in self._db.execute(
                "SELECT seq, seat, action, events, at FROM actions"
                " WHERE rowid >= ? AND table_id=? ORDER BY rowid",
                (row[0], table_id),
            )
        ]
