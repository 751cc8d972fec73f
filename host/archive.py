"""Finished tables: listed in the lobby until a person hides them, stepped through in
replays, marked to keep, and compacted out of the journal when nobody asked to keep
them (docs/protocol.md, "Finished tables and replays"; docs/decisions.md, "A
long-lived journal" and "Whose view a replay shows").

The journal (host/journal.py) holds every table; this module adds one table of its
own to the same SQLite file, ``archive``: one row per finished table, in the order
they finished, with the summary the lobby lists (packed once, when the table
finished), whether a person hid it and whether a person asked to keep it. A peer with
100,000 finished tables loads only their row ids at start (a few tens of
milliseconds) and reads a page of summaries by row id range when one is asked for,
so neither its start nor ``list_tables`` grows with the history.
"""

from __future__ import annotations

import bisect
import logging
import pickle
import sqlite3
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

import msgpack

from .journal import ActionRecord
from .table import FINISHED, Table, _visible
from .words import seat_names, update_words

if TYPE_CHECKING:
    import pluggy

    from lantable.plugins import Game, Registry

    from .journal import Journal

LOGGER = logging.getLogger(__name__)

FINISHED_PAGE: Final = 50  # finished tables per list_tables reply (finished: true)
LOBBY_FINISHED: Final = 20  # the newest finished tables that welcome's lobby push carries
REPLAYS_CACHED: Final = 4  # replays kept ready to step through (the newest asked for)
COMPACT_KEEP: Final = 1000  # lantable host --compact: newest finished tables kept whole

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS archive (
    table_id TEXT PRIMARY KEY,
    finished REAL NOT NULL,
    summary BLOB NOT NULL,     -- the lobby's summary of the table (msgpack), as it finished
    hidden INTEGER NOT NULL DEFAULT 0,  -- a person took it off the lobby's list
    kept INTEGER NOT NULL DEFAULT 0,    -- a person asked to keep it through compaction
    last_action INTEGER  -- no action of the table has a larger rowid (a replay's scan ends)
);
"""


def _create(db: sqlite3.Connection) -> None:
    """The archive table, as this lantable writes it (an archive of the first version,
    without ``last_action``, gets the column: unknown, its replays scan to the end)."""
    db.executescript(_SCHEMA)
    columns = {row[1] for row in db.execute("PRAGMA table_info(archive)")}
    if "last_action" not in columns:
        db.execute("ALTER TABLE archive ADD COLUMN last_action INTEGER")


def _pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


class ReplayRefused(Exception):
    """A replay, hide or keep that cannot be done; ``code`` is the wire error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class ReplayLog:
    """A finished table replayed once: the state after every step (pickled, so that any
    step is one load away), and what each action was."""

    table: str
    game: Game
    guarded: Any  # the table's GuardedGame
    names: list[str]
    states: list[bytes]  # step -> the state after it (0: as set up)
    actors: list[int | None]  # step -> the seat that acted (None at 0)
    events: list[list[dict[str, Any]]]  # step -> the events of that action
    scores: dict[str, Any] | None
    seat_views: bool  # False at a hidden-deck table: the host never saw the seats' cards

    @property
    def steps(self) -> int:
        return len(self.states) - 1

    def step(self, step: int, seat: int | None) -> dict[str, Any]:
        """The fields of a ``replay_step`` for ``step`` as ``seat`` saw it.

        Raises:
            ReplayRefused: no such step or seat, or a seat's view at a hidden-deck table.
        """
        if type(step) is not int or not 0 <= step <= self.steps:
            raise ReplayRefused("bad_replay", f"step {step!r} is not in 0..{self.steps}: this "
                                              f"game had {self.steps} actions")
        if seat is not None:
            if type(seat) is not int or not 0 <= seat < len(self.names):
                raise ReplayRefused("bad_replay", f"seat {seat!r} is not in 0.."
                                                  f"{len(self.names) - 1}")
            if not self.seat_views:
                raise ReplayRefused("bad_replay", "this table dealt hidden cards that only "
                                                  "their seats ever saw: its replay shows the "
                                                  "spectator's view only")
        state = pickle.loads(self.states[step])
        view = self.guarded.view(state, seat)
        seen = [e for e in self.events[step] if _visible(e, seat)]
        words = update_words(self.game, view, seat, None, seen, self.names)
        return {"table": self.table, "game": self.game.id, "step": step, "steps": self.steps,
                "seat": seat, "seat_views": self.seat_views, "names": self.names,
                "view": view, "to_act": self.guarded.to_act(state), "events": seen,
                "sentences": words.get("sentences", []), "actor": self.actors[step],
                "scores": self.scores if step == self.steps else None}


def _backfill_rows(path: str) -> list[tuple[str, float, bytes, int | None]]:
    """The archive rows of a journal's finished tables, read with a connection of its
    own (a worker thread may call this while the peer serves)."""
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT id, game, seats, options, created FROM tables "
                          "WHERE status='finished' ORDER BY created").fetchall()
        names: dict[str, dict[int, str]] = {}
        for tid, seat, name in db.execute(
                "SELECT s.table_id, s.seat, s.name FROM seats s JOIN tables t "
                "ON t.id = s.table_id WHERE t.status='finished'"):
            names.setdefault(tid, {})[seat] = name
        seqs, lasts = {}, {}
        for tid, seq, last in db.execute("SELECT table_id, max(seq), max(rowid) FROM actions "
                                         "GROUP BY table_id"):
            seqs[tid], lasts[tid] = seq, last
        fair = {tid: msgpack.unpackb(rec, raw=False) for tid, rec, _ in db.execute(
            "SELECT table_id, record, min(rowid) FROM fairplay GROUP BY table_id")}
    finally:
        db.close()
    out = []
    for tid, game, seats, options, created in rows:
        config = fair.get(tid)
        seated = names.get(tid, {})
        summary = {"id": tid, "game": game, "seats": seats, "taken": len(seated),
                   "names": [seated.get(s) for s in range(seats)],
                   "status": FINISHED, "seq": seqs.get(tid, 0),
                   "options": msgpack.unpackb(options, raw=False),
                   "fair": None if config is None else
                   {k: v for k, v in config.items() if k != "kind"}}
        out.append((tid, created, _pack(summary), lasts.get(tid)))
    return out


def replay_log(journal: Journal, registry: Registry, table_id: str,
               pm: pluggy.PluginManager | None = None) -> ReplayLog:
    """Replay a finished table of ``journal`` from its seed, keeping every step.

    Raises:
        ReplayRefused: no such table, not finished, or its game is not installed.
    """
    record = journal.table(table_id)
    if record is None:
        raise ReplayRefused("no_such_table", f"no table {table_id!r} in this peer's journal")
    if record.status != FINISHED:
        raise ReplayRefused("not_finished", f"table {table_id} is {record.status}: only a "
                                            "finished game can be replayed (a replay shows "
                                            "every seat's view)")
    if record.game not in registry:
        raise ReplayRefused("no_such_game", f"table {table_id} was a game of {record.game!r}, "
                                            "which is not installed on this peer")
    from .fairplay import FairTable

    game = registry[record.game]
    table = Table(record.id, game, record.seats, record.options, record.seed,
                  cast("Journal", _Bounded(journal, _actions(journal, table_id))), pm)
    fair = journal.fair_records(record.id)
    if fair:
        table.fair = FairTable.restore(table, fair)
    states: list[bytes] = []
    actors: list[int | None] = []
    events: list[list[dict[str, Any]]] = []

    def keep(rec: Any) -> None:
        states.append(pickle.dumps(table.state, protocol=pickle.HIGHEST_PROTOCOL))
        actors.append(None if rec is None else rec.seat)
        events.append([] if rec is None else rec.events)

    table._replay(on_step=keep)
    scores = table.g.scores(table.state) if table.g.is_over(table.state) else None
    return ReplayLog(record.id, game, table.g, seat_names([record.names.get(s)
                                                          for s in range(record.seats)]),
                     states, actors, events, scores, seat_views=not table.hidden)


def _winners(table: Table) -> list[str]:
    """The names of the seats ranked first (none if the game gave no ranking)."""
    try:
        scores = table.final_scores or table.g.scores(table.state)
        rank = scores.get("rank") if isinstance(scores, dict) else None
        if not isinstance(rank, list):
            return []
        names = seat_names([s.name for s in table.seats])
        return [names[s] for s, r in enumerate(rank) if r == 1 and s < len(names)]
    except Exception:  # a game's scores that fail: the list shows no winner
        LOGGER.exception("table %s: no winner for the lobby", table.id)
        return []


def _actions(journal: Journal, table_id: str) -> list[ActionRecord]:
    """A finished table's actions: a scan of the log from its first action to its last
    (the archive's ``last_action``), not to the end of a long journal's log."""
    row = journal._db.execute(
        "SELECT t.first_action, a.last_action FROM tables t LEFT JOIN archive a "
        "ON a.table_id = t.id WHERE t.id=?", (table_id,)).fetchone()
    if row is None:
        return []
    first, last = row
    if last is None:
        return journal.actions(table_id)
    return [ActionRecord(seq, seat, msgpack.unpackb(a, raw=False), msgpack.unpackb(e, raw=False),
                         at)
            for seq, seat, a, e, at in journal._db.execute(
                "SELECT seq, seat, action, events, at FROM actions WHERE rowid BETWEEN ? AND ? "
                "AND table_id=? ORDER BY rowid", (first, last, table_id))]


class _Bounded:
    """The journal as a replay reads it: the table's actions fetched already."""

    def __init__(self, journal: Journal, actions: list[ActionRecord]) -> None:
        self._journal = journal
        self._actions = actions

    def actions(self, table_id: str) -> list[ActionRecord]:
        return self._actions

    def __getattr__(self, name: str) -> Any:
        return getattr(self._journal, name)


class Archive:
    """The finished tables of one journal: the lobby's list of them, hide and keep
    marks, and replays.

    Args:
        journal: the journal the finished tables are read from (and marks written to:
            with the peer's other writes, committed at the batch end).
        registry: the installed games (for replays).
    """

    def __init__(self, journal: Journal, registry: Registry,
                 pm: pluggy.PluginManager | None = None, *, later: bool = False) -> None:
        self.journal = journal
        self.registry = registry
        self.pm = pm
        db = journal._db
        _create(db)
        # A journal from before the archive: its finished tables are listed once, now,
        # or (``later``: a peer, which serves first) by :meth:`catch_up`; the meta key
        # "archive" says it was done (a listing cut short is done again).
        self.behind = journal.meta("archive") != "listed" and db.execute(
            "SELECT 1 FROM tables WHERE status='finished' LIMIT 1").fetchone() is not None
        if not self.behind:
            self._listed_all()
        elif not later:
            self._insert(_backfill_rows(journal.path))
            self._listed_all()
        # The row ids of the listed (not hidden) tables, oldest first: paging by offset
        # is an index into this list, then one range read of the archive's rows.
        self._listed: list[int] = [r for (r,) in db.execute(
            "SELECT rowid FROM archive WHERE hidden=0 ORDER BY rowid")]
        self._newest: list[dict[str, Any]] | None = None
        self._replays: OrderedDict[str, ReplayLog] = OrderedDict()

    def _listed_all(self) -> None:
        self.behind = False
        if self.journal.meta("archive") != "listed":
            self.journal.set_meta("archive", "listed")
            self.journal.commit()

    def _insert(self, rows: list[tuple[str, float, bytes, int | None]]) -> None:
        db = self.journal._db
        self.journal.commit()
        db.execute("BEGIN")
        db.executemany("INSERT OR IGNORE INTO archive (table_id, finished, summary, "
                       "last_action) VALUES (?, ?, ?, ?)", rows)
        db.execute("COMMIT")

    async def catch_up(self, on_done: Any = None) -> None:
        """List an older journal's finished tables without holding the peer's start up:
        read in a worker thread (its own connection), written in slices between the
        peer's batches; then ``on_done()`` (the lobby is pushed again)."""
        if not self.behind:
            return
        import trio.lowlevel

        t0 = time.perf_counter()
        try:
            rows = await trio.to_thread.run_sync(_backfill_rows, self.journal.path)
            for i in range(0, len(rows), 2000):
                self._insert(rows[i:i + 2000])
                await trio.lowlevel.checkpoint()
        except (sqlite3.Error, ValueError) as exc:  # a full disk, a damaged row: keep serving
            if self.journal._db.in_transaction:
                self.journal._db.execute("ROLLBACK")
            LOGGER.error("journal %s: its older finished tables could not be listed (%s); "
                         "they replay by id, and the next start tries again",
                         self.journal.path, exc)
            return
        self._listed = [r for (r,) in self.journal._db.execute(
            "SELECT rowid FROM archive WHERE hidden=0 ORDER BY rowid")]
        self._newest = None
        self._listed_all()
        LOGGER.info("journal %s: listed its %d finished tables in the lobby (once, %.1f s)",
                    self.journal.path, len(rows), time.perf_counter() - t0)
        if on_done is not None:
            on_done()

    # -- the lobby's list ---------------------------------------------------------

    def add(self, table: Table) -> None:
        """A table finished: list it (committed with the batch that finished it)."""
        summary = table.summary()
        summary["status"] = FINISHED
        summary["ended"] = int(time.time())
        summary["winners"] = _winners(table)
        self.journal._insert_pending()  # its last action has its rowid
        (last,) = self.journal._db.execute("SELECT max(rowid) FROM actions").fetchone()
        self.journal._write("INSERT OR IGNORE INTO archive (table_id, finished, summary, "
                            "last_action) VALUES (?, ?, ?, ?)",
                            (table.id, time.time(), _pack(summary), last))
        row = self.journal._db.execute("SELECT rowid, hidden FROM archive WHERE table_id=?",
                                       (table.id,)).fetchone()
        if row is not None and not row[1] and (not self._listed or row[0] > self._listed[-1]):
            self._listed.append(row[0])
            self._newest = None

    @property
    def total(self) -> int:
        """How many finished tables the lobby lists."""
        return len(self._listed)

    def page(self, offset: int = 0,
             count: int = FINISHED_PAGE) -> tuple[list[dict[str, Any]], bool]:
        """The listed finished tables, newest first, from ``offset`` on: at most ``count``,
        and whether more follow."""
        offset = max(offset, 0)
        hi = len(self._listed) - 1 - offset
        if hi < 0 or count <= 0:
            return [], False
        lo = max(hi - count + 1, 0)
        rows = self.journal._db.execute(
            "SELECT summary, kept FROM archive WHERE rowid BETWEEN ? AND ? AND hidden=0 "
            "ORDER BY rowid DESC", (self._listed[lo], self._listed[hi])).fetchall()
        out = []
        for blob, kept in rows:
            summary = msgpack.unpackb(blob, raw=False)
            if kept:
                summary["kept"] = True
            out.append(summary)
        return out, lo > 0

    def newest(self) -> list[dict[str, Any]]:
        """The newest ``LOBBY_FINISHED`` listed tables (kept until the list changes)."""
        if self._newest is None:
            self._newest = self.page(0, LOBBY_FINISHED)[0]
        return list(self._newest)

    def _row(self, table_id: str) -> tuple[int, int, int]:
        row = self.journal._db.execute("SELECT rowid, hidden, kept FROM archive WHERE "
                                       "table_id=?", (table_id,)).fetchone()
        if row is None:
            record = self.journal.table(table_id)
            if record is None:
                raise ReplayRefused("no_such_table", f"no table {table_id!r} on this peer")
            raise ReplayRefused("not_finished", f"table {table_id} is {record.status}, not "
                                                "finished")
        return int(row[0]), int(row[1]), int(row[2])

    def hide(self, table_id: str) -> None:
        """Take a finished table off the lobby's list (for everyone; its journal stays).

        Raises:
            ReplayRefused: no such table, or it is not finished.
        """
        rowid, hidden, _ = self._row(table_id)
        if hidden:
            return
        self.journal._write("UPDATE archive SET hidden=1 WHERE rowid=?", (rowid,))
        i = bisect.bisect_left(self._listed, rowid)
        if i < len(self._listed) and self._listed[i] == rowid:
            del self._listed[i]
        self._newest = None

    def keep(self, table_id: str, keep: bool) -> None:
        """Mark a finished table to keep through compaction (or take the mark off).

        Raises:
            ReplayRefused: no such table, or it is not finished.
        """
        rowid, _, _ = self._row(table_id)
        self.journal._write("UPDATE archive SET kept=? WHERE rowid=?", (int(keep), rowid))
        self._newest = None

    def kept(self, table_id: str) -> bool:
        row = self.journal._db.execute("SELECT kept FROM archive WHERE table_id=?",
                                       (table_id,)).fetchone()
        return bool(row and row[0])

    # -- replays ------------------------------------------------------------------

    def replay(self, table_id: str, step: int, seat: int | None) -> dict[str, Any]:
        """The fields of one ``replay_step``.

        Raises:
            ReplayRefused: see :func:`replay_log` and :meth:`ReplayLog.step`.
        """
        log = self._replays.get(table_id)
        if log is None:
            self.journal._insert_pending()
            log = replay_log(self.journal, self.registry, table_id, self.pm)
            self._replays[table_id] = log
            while len(self._replays) > REPLAYS_CACHED:
                self._replays.popitem(last=False)
        else:
            self._replays.move_to_end(table_id)
        out = log.step(step, seat)
        out["kept"] = self.kept(table_id) or None
        return out


def compact(journal: Journal, keep_last: int = COMPACT_KEEP) -> dict[str, int]:
    """Keep the journal bounded: drop the finished tables nobody marked to keep, but for
    the newest ``keep_last``, and the abandoned ones (closed before anyone sat), with
    their actions, seats and records (chat lines, clock records, a rematch offer); then
    give the space back (VACUUM). The lobby's chat (table id '') is kept.

    Unfinished tables and tables marked to keep are untouched and still replay and
    verify. One transaction: a crash (SIGKILL) in the middle leaves the journal as it was.
    Run before the peer serves (``lantable host --compact``). Returns what was done.
    """
    db = journal._db
    journal.commit()
    before = _file_size(journal)
    _create(db)
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("CREATE TEMP TABLE doomed (id TEXT PRIMARY KEY)")
        db.execute(
            "INSERT INTO doomed SELECT id FROM tables WHERE status='abandoned' OR "
            "(status='finished' AND id NOT IN (SELECT table_id FROM archive WHERE kept=1) "
            " AND id NOT IN (SELECT table_id FROM archive ORDER BY rowid DESC LIMIT ?))",
            (max(keep_last, 0),))
        dropped = db.execute("SELECT count(*) FROM doomed").fetchone()[0]
        actions_before = db.execute("SELECT count(*) FROM actions").fetchone()[0]
        present = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE "
                                                "type='table'")}
        for name, column in (("seats", "table_id"), ("page_bots", "table_id"),
                             ("fairplay", "table_id"), ("archive", "table_id"),
                             ("chat", "table_id"), ("clock", "table_id"),  # host/chat.py,
                             ("rematch", "old"),  # host/clock.py, host/rematch.py
                             ("tables", "id")):
            if name in present:  # chat and rematch make their tables when first used
                db.execute(f"DELETE FROM {name} WHERE {column} IN (SELECT id FROM doomed)")
        # The log is rebuilt in its write order: rowids shrink, so each table's
        # first_action is set again from where its first action now lies.
        db.execute("CREATE TABLE actions_compacted (table_id TEXT NOT NULL, seq INTEGER "
                   "NOT NULL, seat INTEGER NOT NULL, action BLOB NOT NULL, events BLOB NOT "
                   "NULL, at REAL NOT NULL)")
        db.execute("INSERT INTO actions_compacted SELECT table_id, seq, seat, action, events, "
                   "at FROM actions WHERE table_id NOT IN (SELECT id FROM doomed) ORDER BY rowid")
        db.execute("DROP TABLE actions")
        db.execute("ALTER TABLE actions_compacted RENAME TO actions")
        _first_actions(db)
        actions_after = db.execute("SELECT count(*) FROM actions").fetchone()[0]
        db.execute("DROP TABLE doomed")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("VACUUM")  # may renumber rowids: first_action is set again after it
    db.execute("BEGIN IMMEDIATE")
    _first_actions(db)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return {"tables_dropped": int(dropped), "actions_dropped": actions_before - actions_after,
            "actions_kept": int(actions_after), "bytes_before": before,
            "bytes_after": _file_size(journal)}


def _first_actions(db: sqlite3.Connection) -> None:
    """Set every table's first_action to the rowid of its first action (one pass over
    the log); a table with none gets the next rowid to be written."""
    first = dict(db.execute("SELECT table_id, min(rowid) FROM actions GROUP BY table_id"))
    end = (db.execute("SELECT coalesce(max(rowid), 0) FROM actions").fetchone()[0]) + 1
    ids = [tid for (tid,) in db.execute("SELECT id FROM tables")]
    db.executemany("UPDATE tables SET first_action=? WHERE id=?",
                   [(first.get(tid, end), tid) for tid in ids])
    last = dict(db.execute("SELECT table_id, max(rowid) FROM actions GROUP BY table_id"))
    db.execute("UPDATE archive SET last_action=NULL")
    db.executemany("UPDATE archive SET last_action=? WHERE table_id=?", list(last.items()))


def _file_size(journal: Journal) -> int:
    if journal.path == ":memory:":
        return 0
    import os

    try:
        return os.path.getsize(journal.path) + (os.path.getsize(journal.path + "-wal")
                                                if os.path.exists(journal.path + "-wal") else 0)
    except OSError:
        return 0


# -- requests (host/requests.py hands these here) -------------------------------------


def route_archive(msg: Any, link: Any, peer: Any) -> None:
    """Answer ``replay``, ``hide_table``, ``keep_table`` and ``list_tables`` with
    ``finished``; every refusal is an ``error`` naming what was wrong."""
    from lantable.protocol import (
        Error,
        ErrorCode,
        HideTable,
        KeepTable,
        Replay,
        ReplayStep,
        TableHidden,
        TableKept,
        Tables,
    )

    archive: Archive = peer.archive
    table = getattr(msg, "table", None)
    try:
        if isinstance(msg, Replay):
            link.send(ReplayStep(id=msg.id, **archive.replay(msg.table, msg.step, msg.seat)))
        elif isinstance(msg, HideTable):
            archive.hide(msg.table)
            link.send(TableHidden(id=msg.id, table=msg.table))
            peer.archive_changed()
        elif isinstance(msg, KeepTable):
            archive.keep(msg.table, msg.keep)
            link.send(TableKept(id=msg.id, table=msg.table, keep=msg.keep))
            peer.archive_changed()
        else:  # list_tables with finished: true
            tables, more = archive.page(msg.offset or 0)
            link.send(Tables(id=msg.id, tables=tables, more=more or None, total=archive.total))
    except ReplayRefused as exc:
        link.send(Error(code=ErrorCode(exc.code), id=msg.id, table=table, message=str(exc)))
    except Exception as exc:  # a game that fails while replaying: said, never a traceback
        LOGGER.exception("replay of table %s failed", table)
        link.send(Error(code=ErrorCode.INTERNAL, id=msg.id, table=table,
                        message=f"the replay of table {table} failed on this peer "
                                f"({type(exc).__name__}); its journal is unchanged"))


def compact_journal(path: str, registry: Registry, keep_last: int = COMPACT_KEEP
                    ) -> dict[str, int]:
    """``lantable host --compact``: list an older journal's finished tables first (so
    that none is mistaken for an unlisted one), then :func:`compact` it."""
    from .journal import Journal

    journal = Journal(path)
    try:
        Archive(journal, registry)
        return compact(journal, keep_last)
    finally:
        journal.close()
