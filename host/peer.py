"""Running a peer: its lobby (host/lobby.py) served on TCP listeners, advertised on
the LAN, swept for abandoned tables, and stopped gently on a signal."""

from __future__ import annotations

import logging
import signal
import socket
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import trio

from lantable.protocol import Error, ErrorCode
from lantable.protocol.discovery import DEFAULT_PORT

from .journal import Journal, JournalFailed
from .limits import DEFAULT_LIMITS, Limits
from .listener import handle_connection
from .lobby import Peer
from .pagebots import BotRunner, PageBots
from .reader import Reader
from .rematch import rematches_of

__all__ = ["DEFAULT_PORT", "STOP_TIMEOUT", "Peer", "RunningPeer", "keep_house",
           "serve_peer", "serve_until_signalled"]

if TYPE_CHECKING:
    from lantable.plugins import Registry

LOGGER = logging.getLogger(__name__)

STOP_TIMEOUT: Final = 1.5  # seconds a gentle stop may take before it just ends
FILE_RESERVE: Final = 64  # descriptors kept back from connections (docs/limits.md)


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
    _hurry: trio.CancelScope = field(default_factory=trio.CancelScope)  # cuts the drain short

    @property
    def port(self) -> int:
        port: int = self.listeners[0].socket.getsockname()[1]
        return port

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
        with trio.CancelScope(shield=True), trio.move_on_after(STOP_TIMEOUT):
            self._accepting.cancel()
            await self._accepted.wait()  # then close: never under a pending accept()
            for listener in self.listeners:
                await listener.aclose()
            self._advertising.cancel()  # the goodbye goes out while clients are told
            links = list(self.peer.links)
            for link in links:
                link.send(Error(code=ErrorCode.SHUTTING_DOWN, message=why))
            self.peer.batch.end()
            LOGGER.info("stopping: told %d connection(s): %s", len(links), why)
            # Poll: many writers, each may drain or fail; bounded by STOP_TIMEOUT.
            with self._hurry:
                while self.peer.batch.sender_busy() or any(  # noqa: ASYNC110
                        link.queued for link in links if link.receiving):
                    await trio.sleep(0.02)
            await self._advertised.wait()
        self._stopped.set()


async def serve_peer(*, registry: Registry, db: str, name: str | None = None,
                     bind: str | None = None, port: int = DEFAULT_PORT,
                     discovery: Any = None, limits: Limits = DEFAULT_LIMITS,
                     bots: BotRunner | None = None, workers: int = 0,
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
        bots: how to run the bots people add from the page (host/pagebots.py), or
            None for none (``add_bot`` then gets ``bad_bot``).
        workers: worker processes to spread the tables over (host/workers.py); 0 or 1
            for none (one process). The workers serve the installed games
            (``load_registry()``), whatever ``registry`` is.

    Passes back a :class:`RunningPeer` through ``task_status`` once it accepts
    connections. Each connection gets its own nursery; a failure in one never
    reaches another or a table. Cancelled, it stops at once; :meth:`RunningPeer.stop`
    first tells clients and the LAN (:func:`serve_until_signalled` does that on
    SIGINT and SIGTERM). If the journal fails (a full disk), clients are told, and
    :class:`JournalFailed` is raised.
    """
    journal = Journal(db)
    journal_failed = trio.Event()
    journal.on_failure = lambda exc: journal_failed.set()
    peer = Peer(registry=registry, journal=journal, name=name or socket.gethostname(),
                limits=limits, bots=None if bots is None else PageBots(bots, limits))
    if workers > 1:  # this process is the front (host/workers.py)
        from .workers import Front

        journal.contended = True  # the workers commit to it too

        peer.handoff = Front(peer, workers, db, peer.name, limits)
    for err in registry.errors:
        LOGGER.error("game plugin %s not loaded: %s", err.plugin, err)
    # Descriptors for every connection, and FILE_RESERVE more for the journal, discovery,
    # the listeners and a newcomer's accept: the host never runs out of them.
    files = _raise_file_limit(limits.max_connections + FILE_RESERVE)
    if files is not None and files - FILE_RESERVE < limits.max_connections:
        peer.fd_room = max(files - FILE_RESERVE, 1)
    try:
        with peer.batch.installed():
            async with trio.open_nursery() as nursery:
                await nursery.start(keep_house, peer)
                await nursery.start(peer.batch.serve_sender)  # writes on a thread (link.py)
                if peer.handoff is not None:
                    await nursery.start(peer.handoff.run)  # the workers, ready
                else:  # one task reads every TCP session's requests (host/reader.py)
                    peer.reader = Reader()
                    await nursery.start(peer.reader.run)
                listeners = await trio.open_tcp_listeners(port, host=bind)
                running = RunningPeer(peer, listeners)

                async def stop_if_journal_fails() -> None:
                    await journal_failed.wait()
                    failure = journal.failed or JournalFailed("journal failed")
                    await running.stop(f"the host cannot write its journal ({failure}); it stops. "
                                       "Nothing you were shown is lost: reconnect when it is back")
                    raise failure

                nursery.start_soon(stop_if_journal_fails)
                if peer.bots is not None:  # they connect like anyone, over loopback
                    await nursery.start(peer.bots.serve, _loopback(running.addresses[0]))
                    if peer.handoff is not None:  # the workers' bots connect here too
                        await peer.handoff.serve_bots(_loopback(running.addresses[0]))
                LOGGER.info("peer %s (%s) listening on %s", peer.name, peer.peer_id,
                            running.addresses)

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
        journal.close()


def _loopback(address: tuple[str, int]) -> tuple[str, int]:
    """Where this machine's own clients reach a listener bound to ``address``."""
    host, port = address[0], address[1]
    if host in ("0.0.0.0", ""):
        return "127.0.0.1", port
    if host == "::":
        return "::1", port
    return host, port


async def keep_house(peer: Peer, *,
                     task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """A peer's own work besides its connections, until cancelled: restore its tables
    from the journal (started once done), then close abandoned tables, give freed
    memory back and push the lobby to its watchers. Runs under the peer's installed
    batch end (``peer.batch.installed()``);
    :func:`serve_peer` runs it beside its listeners, tests beside memory streams."""
    peer.restore_tables()
    rematches_of(peer)  # the seats rematches keep, kept from the start (host/rematch.py)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_give_back_memory, peer)
        nursery.start_soon(_close_abandoned_tables, peer)
        nursery.start_soon(peer.archive.catch_up, peer.archive_changed)  # host/archive.py
        await nursery.start(peer.push_lobbies)  # host/lobby.py
        task_status.started()


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


def _raise_file_limit(wanted: int) -> int | None:
    """Let the process open ``wanted`` files if the hard limit allows (a common soft
    limit, 1024, is below ``max_connections``); where it does not, say so once.
    Returns how many files the process may open (None: no limit known)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    if soft >= wanted:
        return int(soft)
    new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    except (ValueError, OSError):
        new = soft
    if new < wanted:
        LOGGER.warning("this process may open %d files; --max-connections needs about %d: "
                       "the host takes at most %d connections", new, wanted,
                       max(new - FILE_RESERVE, 1))
    return int(new)


async def serve_until_signalled(*, task_status: trio.TaskStatus[RunningPeer] =
                                trio.TASK_STATUS_IGNORED, **kwargs: Any) -> None:
    """:func:`serve_peer` (same arguments) until SIGINT or SIGTERM, then stop gently:
    clients hear ``shutting_down``, the LAN a goodbye, the journal is closed; returns
    normally (``lantable host`` exits 0). Must run in the main thread."""
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            served = trio.Event()

            async def peer(task_status: trio.TaskStatus[RunningPeer]) -> None:
                try:
                    await serve_peer(task_status=task_status, **kwargs)
                finally:
                    served.set()  # the journal is closed

            running = await nursery.start(peer)
            task_status.started(running)
            async for signum in signals:
                LOGGER.info("%s received: stopping", signal.Signals(signum).name)
                hurry = trio.CancelScope()

                async def more_signals(hurry: trio.CancelScope = hurry) -> None:
                    with hurry:
                        await _hurry_on_more_signals(signals, running)

                nursery.start_soon(more_signals)
                await running.stop()
                await served.wait()
                hurry.cancel()
                break
    # The journal is closed. The caller (``lantable host``) keeps signals harmless until
    # it exits: see ``clients/commands/peer.py``.


async def _hurry_on_more_signals(signals: Any, running: RunningPeer) -> None:
    """A second signal while stopping cuts the wait for clients' writers short; it
    never skips the journal's close (issue 25, finding 11)."""
    async for signum in signals:
        LOGGER.info("%s received again: hurrying the stop (the journal is still closed "
                    "properly)", signal.Signals(signum).name)
        running._hurry.cancel()
