"""The peer: the lobby of tables on this machine and the listener that serves it."""

from __future__ import annotations

import logging
import random
import secrets
import signal
import socket
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import msgpack
import trio

from lantable.plugins import BadOptions
from lantable.protocol import ErrorCode, Lobby
from lantable.protocol.discovery import DEFAULT_PORT

from .journal import Journal, JournalFailed
from .limits import DEFAULT_LIMITS, LimitExceeded, Limits
from .link import FlushAtBatchEnd
from .table import FINISHED, WAITING, GameFailed, Table

if TYPE_CHECKING:
    from lantable.plugins import Registry

LOGGER = logging.getLogger(__name__)

SEED_RANGE: Final = range(-(2**63), 2**63)  # what the journal (SQLite INTEGER) can hold
STOP_TIMEOUT: Final = 1.5  # seconds a gentle stop may take before it just ends


@dataclass
class Peer:
    """Every table this peer owns, by id, and the tokens that resume their seats.

    ``tables`` is the lobby: every unfinished table. A table that finishes leaves it
    for ``finished`` (the newest ``limits.keep_finished``, still reachable by id for a
    last ``sync``, a spectator or a ``leave``); the journal keeps every table for
    ``lantable replay``.
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
    links: set[Any] = field(default_factory=set)  # every welcomed client (ClientLink)
    lobby_watchers: set[Any] = field(default_factory=set)  # links that said hello.lobby
    lan_peers: list[dict[str, Any]] = field(default_factory=list)  # other peers, for the lobby

    def __post_init__(self) -> None:
        if not self.peer_id:
            self.peer_id = self.journal.meta("peer_id") or uuid.uuid4().hex[:12]
            self.journal.set_meta("peer_id", self.peer_id)

    def table(self, table_id: str) -> Table | None:
        """The table ``table_id``, in the lobby or recently finished; None if unknown."""
        return self.tables.get(table_id) or self.finished.get(table_id)

    def summaries(self, offset: int = 0) -> tuple[list[dict[str, Any]], bool]:
        """The lobby's tables from ``offset`` on, as many as fit ``limits.max_list_bytes``
        encoded, and whether more follow. No ``welcome`` or ``tables`` reply can then
        outgrow a frame, however many tables the peer has."""
        out: list[dict[str, Any]] = []
        budget = self.limits.max_list_bytes
        tables = list(self.tables.values())
        for table in tables[max(offset, 0):]:
            summary = table.summary()
            budget -= len(msgpack.packb(summary, use_bin_type=True))
            if budget < 0:
                return out, True
            out.append(summary)
        return out, False

    def open_tables(self) -> int:
        return sum(1 for t in self.tables.values() if t.free_seats())

    def games(self) -> list[dict[str, Any]]:
        return [g.info for g in self.registry.games.values()]

    def find_token(self, token: str) -> tuple[Table, int] | None:
        """The table and seat a resume token was issued for, or None."""
        wanted = token.encode("utf-8", "surrogatepass")  # compare_digest refuses non-ASCII str
        for table in (*self.tables.values(), *self.finished.values()):
            for seat, slot in enumerate(table.seats):
                if slot.token is not None and secrets.compare_digest(slot.token.encode(), wanted):
                    return table, seat
        return None

    def lobby(self) -> Lobby:
        """The ``lobby`` message: every table here and the other peers on the LAN."""
        tables, _ = self.summaries()  # as many as fit a frame, like welcome's
        return Lobby(tables=tables, peers=self.lan_peers)

    def set_lan_peers(self, peers: list[dict[str, Any]]) -> None:
        """The other peers discovery sees now (lantable.web keeps this current)."""
        self.lan_peers = peers
        self._push_lobby()

    def _push_lobby(self) -> None:
        if self.lobby_watchers:
            lobby = self.lobby()
            for link in list(self.lobby_watchers):
                link.send(lobby)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
        self._push_lobby()

    def _start(self, table: Table) -> Table:
        table.on_change = lambda: self._table_changed(table)
        table.max_spectators = self.limits.max_spectators
        if table.status == FINISHED:
            self._retire(table)
        else:
            self.tables[table.id] = table
        return table

    def _table_changed(self, table: Table) -> None:
        if table.status == FINISHED and table.id in self.tables:
            del self.tables[table.id]
            self._retire(table)
        self._changed()

    def close_abandoned(self, now: float) -> int:
        """Close the waiting tables nobody has sat at for ``limits.waiting_ttl`` seconds
        (trio time ``now``); how many were closed."""
        closed = 0
        for table in list(self.tables.values()):
            if table.status != WAITING or any(s.token for s in table.seats):
                table.empty_since = None
                continue
            if table.empty_since is None:
                table.empty_since = now
            elif now - table.empty_since >= self.limits.waiting_ttl:
                table.close_abandoned()
                del self.tables[table.id]
                closed += 1
        if closed:
            self._changed()
        return closed

    def _retire(self, table: Table) -> None:
        self.finished[table.id] = table
        while len(self.finished) > self.limits.keep_finished:
            del self.finished[next(iter(self.finished))]

    def create_table(self, game_id: str, seats: int, options: dict[str, Any] | None,
                     seed: int | None = None, creator: str = "",
                     fair: dict[str, Any] | None = None) -> Table:
        """Open a table for a client at address ``creator``; with ``fair``, a fair one.

        Raises:
            KeyError: no such game. BadOptions: seats, options or seed refused.
            LimitExceeded: the peer, or this client, has too many tables.
        """
        game = self.registry[game_id]
        if seed is not None and seed not in SEED_RANGE:
            raise BadOptions(f"seed={seed}, expected a signed 64-bit integer")
        if len(self.tables) >= self.limits.max_tables:
            raise LimitExceeded(ErrorCode.TOO_MANY_TABLES,
                                f"this peer has {len(self.tables)} unfinished tables, its "
                                "limit; join one, or wait for one to finish")
        mine = sum(1 for t in self.tables.values() if t.creator == creator and t.status == WAITING)
        if mine >= self.limits.max_tables_per_client:
            raise LimitExceeded(ErrorCode.TOO_MANY_TABLES,
                                f"you already opened {mine} tables that wait for players, "
                                "the limit; fill or leave one first")
        table_id = secrets.token_hex(4)
        while table_id in self.tables or table_id in self.finished:
            table_id = secrets.token_hex(4)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        try:
            table = Table.create(table_id=table_id, game=game, seats=seats, options=options,
                                 seed=seed, journal=self.journal, pm=self.registry.pm,
                                 fair=fair)
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
        for table_id, why in damaged:
            LOGGER.error("table %s could not be restored from journal %s (%s); skipped. The "
                         "other tables are served; `lantable replay --table %s` shows what "
                         "is left of it", table_id, self.journal.path, why, table_id)


@dataclass
class RunningPeer:
    """What :func:`serve_peer` passes back once it listens; :meth:`stop` ends it gently."""

    peer: Peer
    listeners: list[trio.SocketListener]
    _accepting: trio.CancelScope = field(default_factory=trio.CancelScope)
    _accepted: trio.Event = field(default_factory=trio.Event)  # set when accepting ended
    _advertising: trio.CancelScope = field(default_factory=trio.CancelScope)
    _advertised: trio.Event = field(default_factory=trio.Event)  # set when discovery ended
    _stopping: bool = False
    _stopped: trio.Event = field(default_factory=trio.Event)  # set when stop() is done

    @property
    def port(self) -> int:
        return self.listeners[0].socket.getsockname()[1]

    @property
    def addresses(self) -> list[tuple[str, int]]:
        return [ln.socket.getsockname()[:2] for ln in self.listeners]

    async def stop(self, why: str = "the host is stopping; reconnect later and resume your "
                                    "seats with their tokens") -> None:
        """Stop accepting, tell every client ``shutting_down``, send the LAN goodbye and
        let the writers drain (all within ``STOP_TIMEOUT``); then :func:`serve_peer`
        closes the journal and returns. Idempotent."""
        if self._stopping:
            await self._stopped.wait()
            return
        self._stopping = True
        from lantable.protocol import Error

        from .link import flush

        with trio.CancelScope(shield=True), trio.move_on_after(STOP_TIMEOUT):
            self._accepting.cancel()
            await self._accepted.wait()  # then close: never under a pending accept()
            for listener in self.listeners:
                await listener.aclose()
            self._advertising.cancel()  # the goodbye goes out while clients are told
            links = list(self.peer.links)
            for link in links:
                link.send(Error(code=ErrorCode.SHUTTING_DOWN, message=why))
            flush()
            LOGGER.info("stopping: told %d connection(s): %s", len(links), why)
            # Poll: many writers, each may drain or fail; bounded by STOP_TIMEOUT.
            while any(link.queued for link in links if link.receiving):  # noqa: ASYNC110
                await trio.sleep(0.02)
            await self._advertised.wait()
        self._stopped.set()


async def serve_peer(*, registry: Registry, db: str, name: str | None = None,
                     bind: str | None = None, port: int = DEFAULT_PORT,
                     discovery: Any = None, limits: Limits = DEFAULT_LIMITS,
                     task_status: trio.TaskStatus[RunningPeer] = trio.TASK_STATUS_IGNORED,
                     ) -> None:
    """Run a peer: restore its tables, listen on ``bind:port`` and serve until cancelled
    or stopped.

    Args:
        registry: the installed games.
        db: the journal file (one per peer).
        name: the peer's display name (default: the host name).
        bind: address to listen on; ``None`` for every address, IPv4 and IPv6.
        port: TCP port; 0 picks a free one.
        discovery: an async callable ``(running_peer, task_status)`` started once
            the peer listens (advertisement on the LAN), or None.
        limits: what clients may make the host hold (docs/limits.md).

    Passes back a :class:`RunningPeer` through ``task_status`` once it accepts
    connections. Each connection gets its own nursery; a failure in one never
    reaches another or a table. Cancelled, it stops at once; :meth:`RunningPeer.stop`
    first tells clients and the LAN (:func:`serve_until_signalled` does that on
    SIGINT and SIGTERM). If the journal fails (a full disk), clients are told, and
    :class:`JournalFailed` is raised.
    """
    from .listener import handle_connection

    journal = Journal(db)
    journal_failed = trio.Event()
    journal.on_failure = lambda exc: journal_failed.set()
    peer = Peer(registry=registry, journal=journal, name=name or socket.gethostname(),
                limits=limits)
    for err in registry.errors:
        LOGGER.error("game plugin %s not loaded: %s", err.plugin, err)
    _raise_file_limit(limits.max_connections + 64)  # journal, discovery, listeners
    instrument = FlushAtBatchEnd()
    trio.lowlevel.add_instrument(instrument)
    try:
        async with trio.open_nursery() as nursery:
            peer.restore_tables()
            listeners = await trio.open_tcp_listeners(port, host=bind)
            running = RunningPeer(peer, listeners)

            async def stop_if_journal_fails() -> None:
                await journal_failed.wait()
                failure = journal.failed or JournalFailed("journal failed")
                await running.stop(f"the host cannot write its journal ({failure}); it stops. "
                                   "Nothing you were shown is lost: reconnect when it is back")
                raise failure

            nursery.start_soon(stop_if_journal_fails)
            nursery.start_soon(_give_back_memory, peer)
            nursery.start_soon(_close_abandoned_tables, peer)
            LOGGER.info("peer %s (%s) listening on %s", peer.name, peer.peer_id, running.addresses)

            async def handler(stream: trio.SocketStream) -> None:
                await handle_connection(stream, peer)

            async def accept() -> None:
                try:
                    with running._accepting:
                        await trio.serve_listeners(handler, listeners, handler_nursery=nursery)
                finally:
                    running._accepted.set()

            nursery.start_soon(accept)
            if discovery is not None:

                async def advertise(task_status: trio.TaskStatus[None]) -> None:
                    try:
                        with running._advertising:
                            await discovery(running, task_status=task_status)
                    finally:
                        running._advertised.set()

                await nursery.start(advertise)
            else:
                running._advertised.set()
            task_status.started(running)
            await running._stopped.wait()
            nursery.cancel_scope.cancel()
    finally:
        trio.lowlevel.remove_instrument(instrument)
        journal.close()


async def _close_abandoned_tables(peer: Peer) -> None:
    """Sweep the lobby for abandoned waiting tables, a few times per ``waiting_ttl``."""
    every = min(max(peer.limits.waiting_ttl / 4, 0.05), 30.0)
    while True:
        peer.close_abandoned(trio.current_time())
        await trio.sleep(every)


TRIM_EVERY: Final = 10.0  # seconds between checks for freed memory to give back


async def _give_back_memory(peer: Peer) -> None:
    """Hand freed heap memory back to the system after a crowd leaves.

    A thousand connections (spectators, a flood) each leave buffers behind; Python
    frees them, but glibc keeps the pages, so the host's RSS stayed at its peak. When
    the connection count has fallen well below its recent peak, ``malloc_trim`` returns
    what is free (a few milliseconds, at most every ``TRIM_EVERY`` seconds).
    """
    try:
        import ctypes

        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc
        return
    peak = 0
    while True:
        await trio.sleep(TRIM_EVERY)
        now = sum(peer.connections.values())
        if peak - now >= 64:
            trim(0)
            peak = now
        peak = max(peak, now)


def _raise_file_limit(wanted: int) -> None:
    """Let the process open ``wanted`` files if the hard limit allows (a common soft
    limit, 1024, is below ``max_connections``); where it does not, say so once."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    except (ValueError, OSError):
        new = soft
    if new < wanted:
        LOGGER.warning("this process may open %d files; --max-connections needs about %d",
                       new, wanted)


async def serve_until_signalled(*, task_status: trio.TaskStatus[RunningPeer] =
                                trio.TASK_STATUS_IGNORED, **kwargs: Any) -> None:
    """:func:`serve_peer` (same arguments) until SIGINT or SIGTERM, then stop gently:
    clients hear ``shutting_down``, the LAN a goodbye, the journal is closed; returns
    normally (``lantable host`` exits 0). Must run in the main thread."""
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            running = await nursery.start(lambda task_status: serve_peer(
                task_status=task_status, **kwargs))
            task_status.started(running)
            async for signum in signals:
                LOGGER.info("%s received: stopping", signal.Signals(signum).name)
                await running.stop()
                break
