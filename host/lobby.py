"""The lobby: every table this peer owns, the tokens that resume their seats, and
the limits on opening more.

:class:`Peer` knows nothing of sockets: the listener (host/listener.py) serves it to
connections, and host/peer.py runs it (listeners, discovery, stopping).
"""

from __future__ import annotations

import logging
import random
import secrets
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import msgpack
import trio

from lantable.plugins import BadOptions
from lantable.protocol import Error, ErrorCode, Lobby, Renamed

from .archive import Archive
from .journal import Journal
from .limits import DEFAULT_LIMITS, LimitExceeded, Limits
from .link import BatchEnd
from .names import name_problem
from .table import FINISHED, PLAYING, WAITING, GameFailed, Table

if TYPE_CHECKING:
    from lantable.plugins import Registry

    from .link import ClientLink
    from .pagebots import PageBots

LOGGER = logging.getLogger(__name__)

SEED_RANGE: Final = range(-(2**63), 2**63)  # what the journal (SQLite INTEGER) can hold
# Seconds between two ``lobby`` pushes: the first change after a quiet spell goes out at
# once, the changes in the next this-many seconds together in one push. Fifty tables
# filling up at a party are some 250 changes in a few seconds; pushed one by one, each
# of 150 browsers got 250 copies of a 10 KB lobby, and the host wrote them while every
# table's updates waited (bench/party.py: joins answered after 2-5 s).
LOBBY_PUSH_EVERY: Final = 0.25
# Bytes per second the lobby's pushes may take of the host's link, over all watchers: a
# push of B bytes to W watchers is followed by a quiet spell of at least B * W / this.
# At a party of 200 (bench/party.py) the lobby lists 50 tables (10 KB) and 156 browsers
# watch it: pushed every 0.25 s that was 6 MB/s of Wi-Fi airtime, more than every
# table's updates together, for a list a person reads at leisure. At 1 MB/s such a
# lobby goes out every 1.6 s; a small one (a few tables, a few phones) still every 0.25 s.
LOBBY_PUSH_BYTES_PER_S: Final = 1 << 20


@dataclass
class Peer:
    """Every table this peer owns, by id, and the tokens that resume their seats.

    ``tables`` is the lobby: every unfinished table. A table that finishes leaves it
    for ``finished`` (the newest ``limits.keep_finished``, still reachable by id for a
    last ``sync``, a spectator or a ``leave``); the journal keeps every table for
    ``lantable replay``, and ``archive`` lists the finished ones until a person hides
    them, and replays them (host/archive.py).
    """

    registry: Registry
    journal: Journal
    name: str
    peer_id: str = ""
    tables: dict[str, Table] = field(default_factory=dict)
    on_change: Any = None  # called when the table summary changes (discovery TXT)
    limits: Limits = DEFAULT_LIMITS
    finished: dict[str, Table] = field(default_factory=dict)  # oldest first
    connections: dict[str, int] = field(default_factory=dict)  # open connections by address
    # Connections the process has descriptors for (None: enough for max_connections).
    fd_room: int | None = None
    links: set[Any] = field(default_factory=set)  # every welcomed client (ClientLink)
    lobby_watchers: set[Any] = field(default_factory=set)  # links that said hello.lobby
    lan_peers: list[dict[str, Any]] = field(default_factory=list)  # other peers, for the lobby
    bots: PageBots | None = None  # the bots people add from the page; None: none
    # A host with worker processes: hands connections to them (host/workers.py); None: one.
    handoff: Any = None
    # Commits the journal and writes the links' output at each scheduler batch's end.
    batch: BatchEnd = field(init=False)
    # Finished tables listed until hidden, and their replays (host/archive.py); by
    # default those of this peer's journal (``lantable replay --web`` gives another's).
    archive: Archive = field(init=False)
    # Set to push the lobby (push_lobbies runs); None: every change pushes at once.
    _lobby_due: trio.Event | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.batch = BatchEnd(self.journal)
        if not self.peer_id:
            self.peer_id = self.journal.meta("peer_id") or uuid.uuid4().hex[:12]
            self.journal.set_meta("peer_id", self.peer_id)
        self.archive = Archive(self.journal, self.registry, self.registry.pm, later=True)

    def table(self, table_id: str) -> Table | None:
        """The table ``table_id``, in the lobby or recently finished; None if unknown."""
        return self.tables.get(table_id) or self.finished.get(table_id)

    def summaries(self, offset: int = 0) -> tuple[list[dict[str, Any]], bool]:
        """The lobby's tables from ``offset`` on, as many as fit ``limits.max_list_bytes``
        encoded, and whether more follow. No ``welcome`` or ``tables`` reply can then
        outgrow a frame, however many tables the peer has."""
        out: list[dict[str, Any]] = []
        budget = self.limits.max_list_bytes
        tables: list[Any] = list(self.tables.values())
        if self.handoff is not None:  # and the worker processes' (host/workers.py)
            tables += self.handoff.summaries()
        for table in tables[max(offset, 0):]:
            summary = table if isinstance(table, dict) else table.summary()
            budget -= len(msgpack.packb(summary, use_bin_type=True))
            if budget < 0:
                return out, True
            out.append(summary)
        return out, False

    def owns(self, table_id: str) -> bool:
        """Whether this process makes and restores table ``table_id`` (always, but in a
        host with worker processes: host/workers.py)."""
        return self.handoff is None or bool(self.handoff.owns(table_id))

    def open_tables(self) -> int:
        return sum(1 for t in self.tables.values() if t.free_seats())

    def games(self) -> list[dict[str, Any]]:
        """Every game's info; with page bots, also the strategies they play it with."""
        if self.bots is None:
            return [g.info for g in self.registry.games.values()]
        return [{**g.info, "page_bots": self.bots.strategies(g)}
                for g in self.registry.games.values()]

    def find_token(self, token: str) -> tuple[Table, int] | None:
        """The table and seat a resume token (a seat's, or its page bot's) was issued
        for, or None."""
        for table in (*self.tables.values(), *self.finished.values()):
            found = table.seat_of_token(token)
            if found is not None:
                return table, found[0]
        return None

    def rename(self, link: ClientLink, req_id: int, name: str) -> None:
        """``rename``: the connection's name, now, at every table where it sits."""
        why = name_problem(name, self.limits.max_name_bytes)
        if why is not None:
            link.send(Error(code=ErrorCode.NAME_REFUSED, id=req_id, message=why))
            return
        link.name = name
        changed = False
        for table_id, seats in list(link.seats.items()):
            table = self.table(table_id)
            if table is not None and seats:
                changed |= table.rename(link, seats, name)
        link.send(Renamed(id=req_id, name=name))
        if changed:
            self._changed()

    def lobby(self) -> Lobby:
        """The ``lobby`` message: every table here and the other peers on the LAN."""
        tables, _ = self.summaries()  # as many as fit a frame, like welcome's
        # ... and the newest finished tables (host/archive.py): listed until hidden
        return Lobby(tables=tables + self.archive.newest(), peers=self.lan_peers,
                     finished=self.archive.total)

    def archive_changed(self) -> None:
        """A finished table was hidden or marked to keep: the lobby shows it."""
        self._push_lobby()

    def set_lan_peers(self, peers: list[dict[str, Any]]) -> None:
        """The other peers discovery sees now (lantable.web keeps this current)."""
        self.lan_peers = peers
        self._push_lobby()

    def _push_lobby(self) -> None:
        if self.handoff is not None:  # workers' connections watch it too (host/workers.py)
            self.handoff.lobby_changed()
        if self.lobby_watchers:
            if self._lobby_due is None:
                self._send_lobby()
            else:
                self._lobby_due.set()

    async def push_lobbies(self, *,
                           task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Push the lobby when it changed, at most once per ``LOBBY_PUSH_EVERY``, and
        no more bytes a second than ``LOBBY_PUSH_BYTES_PER_S``; until cancelled
        (host/peer.py keep_house runs it)."""
        due = self._lobby_due = trio.Event()
        task_status.started()
        try:
            while True:
                await due.wait()
                due = self._lobby_due = trio.Event()
                sent = self._send_lobby()
                await trio.sleep(max(LOBBY_PUSH_EVERY, sent / LOBBY_PUSH_BYTES_PER_S))
        finally:
            self._lobby_due = None

    def _send_lobby(self) -> int:
        """Send the ``lobby`` message to every watcher, encoded once: at a party of
        200 the lobby holds 50 tables (about 10 KB) and every browser watches it, and
        encoding it once per watcher took some 70 us each, about 11 ms for each join
        that a whole room's updates waited behind (bench/party.py). The bytes sent, over
        all watchers."""
        if not self.lobby_watchers:
            return 0
        lobby = self.lobby()
        data: bytes | None = None
        sent = 0
        for link in list(self.lobby_watchers):
            if not link.receiving:
                continue
            if data is None:  # checks the message once, as send() would for each
                data = link.conn.send(lobby)
            link.send_encoded(data)
            sent += len(data)
        return sent

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
        self._push_lobby()

    def _start(self, table: Table) -> Table:
        table.on_change = lambda: self._table_changed(table)
        table.max_spectators = self.limits.max_spectators
        table.page_bots = self.bots
        table.bot_grace = self.limits.bot_grace
        if table.undo is not None:
            table.undo.max_asks = self.limits.max_undo_asks  # host/undo.py
        if table.status == FINISHED:
            self._retire(table)
            self.archive.add(table)
        else:
            self.tables[table.id] = table
        return table

    def _table_changed(self, table: Table) -> None:
        if table.status == FINISHED and table.id in self.tables:
            del self.tables[table.id]
            self._retire(table)
            self.archive.add(table)
        self._changed()

    def close_abandoned(self, now: float) -> int:
        """Close the tables nobody has been at for ``limits.waiting_ttl`` seconds (trio
        time ``now``): waiting tables with no seat taken, and playing tables one person
        plays alone (:meth:`Table.solo`) with no seat connected. How many were closed."""
        closed = 0
        for table in list(self.tables.values()):
            if not self._lapsing(table):
                table.empty_since = None
                continue
            if table.empty_since is None:
                table.empty_since = now
            elif now - table.empty_since >= self.limits.waiting_ttl:
                self._lapse(table)
                closed += 1
        if closed:
            self._changed()
        return closed

    @staticmethod
    def _lapsing(table: Table) -> bool:
        """Whether nobody is at ``table``, so that it lapses after ``waiting_ttl``."""
        if table.status == WAITING:
            return not any(s.token for s in table.seats)
        return table.status == PLAYING and table.solo() and not table.attended()

    def _lapse(self, table: Table) -> None:
        table.close_abandoned("nobody sat at this table; it was closed"
                              if table.status == WAITING else
                              "this table was played by one person, who left it; it was closed")
        del self.tables[table.id]

    def _make_room(self) -> bool:
        """The peer is full: close the one-person table left for longest, so that a
        newcomer can open a table whatever others played alone and left behind (a
        waiting table still waits for its players until ``waiting_ttl``). Whether one
        was closed."""
        idle = [t for t in self.tables.values() if t.status == PLAYING and self._lapsing(t)]
        if not idle:
            return False
        never = float("inf")  # not yet seen by the sweep: as if just left
        oldest = min(idle, key=lambda t: never if t.empty_since is None else t.empty_since)
        LOGGER.info("table %s lapses early: the peer is full and a newcomer opens a table",
                    oldest.id)
        self._lapse(oldest)
        self._changed()
        return True

    def _retire(self, table: Table) -> None:
        self.finished[table.id] = table
        while len(self.finished) > self.limits.keep_finished:
            del self.finished[next(iter(self.finished))]

    def create_table(self, game_id: str, seats: int, options: dict[str, Any] | None,
                     seed: int | None = None, creator: str = "",
                     fair: dict[str, Any] | None = None,
                     clock: dict[str, Any] | None = None, undo: str | None = None) -> Table:
        """Open a table for a client at address ``creator``; with ``fair``, a fair one;
        with ``clock``, one with a turn clock (host/clock.py); ``undo``: its undo setting
        (host/undo.py).

        Raises:
            KeyError: no such game. BadOptions: seats, options or seed refused.
            LimitExceeded: the peer, or this client, has too many tables.
        """
        game = self.registry[game_id]
        if seed is not None and seed not in SEED_RANGE:
            raise BadOptions(f"seed={seed}, expected a signed 64-bit integer")
        mine = [t for t in self.tables.values() if t.creator == creator]
        waiting = sum(1 for t in mine if t.status == WAITING)
        refusal = None
        if waiting >= self.limits.max_tables_per_client:
            refusal = (f"you already opened {waiting} tables that wait for players, the "
                       "limit; fill or leave one first")
        elif len(mine) >= self.limits.max_open_tables_per_client:
            refusal = (f"you already opened {len(mine)} tables that are not finished, the "
                       "limit; finish or leave one first")
        if len(self.tables) >= self.limits.max_tables and (refusal or not self._make_room()):
            raise LimitExceeded(ErrorCode.TOO_MANY_TABLES,
                                f"this peer has {len(self.tables)} unfinished tables, its "
                                "limit; join one, or wait for one to finish")
        if refusal is not None:
            raise LimitExceeded(ErrorCode.TOO_MANY_TABLES, refusal)
        table_id = secrets.token_hex(4)
        while table_id in self.tables or table_id in self.finished or not self.owns(table_id):
            table_id = secrets.token_hex(4)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        try:
            table = Table.create(table_id=table_id, game=game, seats=seats, options=options,
                                 seed=seed, journal=self.journal, pm=self.registry.pm,
                                 fair=fair, clock=clock, undo=undo)
        except GameFailed as exc:
            LOGGER.exception("game %s failed to set up a table with options %r",
                             game_id, options)
            raise BadOptions(f"{game_id}: the game failed to set up with these options "
                             f"({exc.__cause__!r:.200})") from exc
        table.creator = creator
        self._start(table)
        self._changed()
        return table

    def restore_tables(self) -> None:
        """Rebuild every unfinished table of the journal (on start-up)."""
        damaged: list[tuple[str, str]] = []
        for record in self.journal.tables(unfinished=True, damaged=damaged):
            if not self.owns(record.id):
                continue  # another process's (host/workers.py)
            if record.game not in self.registry:
                LOGGER.error("table %s needs game %r, which is not installed; skipped",
                             record.id, record.game)
                continue
            try:
                table = Table.restore(record, self.registry[record.game], self.journal,
                                      self.registry.pm)
            except Exception as exc:
                damaged.append((record.id, f"{type(exc).__name__}: {exc}"))
                LOGGER.debug("table %s: restore failed", record.id, exc_info=True)
                continue
            self._start(table)
            table.start_bots()
        for table_id, why in damaged:
            LOGGER.error("table %s could not be restored from journal %s (%s); skipped. The "
                         "other tables are served; `lantable replay --table %s` shows what "
                         "is left of it", table_id, self.journal.path, why, table_id)
