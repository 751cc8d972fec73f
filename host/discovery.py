"""LAN discovery: advertise a peer and browse for others with DNS-SD over mDNS.

python-zeroconf runs its own asyncio loop in a thread. Its blocking calls
(start, register, update, unregister, close) go through ``trio.to_thread``; the
browser's callbacks run in the browser's own thread, resolve the instance there,
and hand the result to trio with ``trio.from_thread.run_sync``. Nothing blocks
the trio loop.

Liveness: zeroconf keeps a PTR record for at least 1125 s whatever TTL the
responder sets, so a peer that dies without a goodbye would linger. The browser
therefore connects to every known peer's TCP port every ``CHECK_INTERVAL``
seconds and hides a peer after ``DROP_AFTER`` failed checks in a row; it shows
the peer again as soon as a check succeeds (a link that came back). A goodbye
removes a peer at once.

Run ``python -m lantable.host.discovery --help`` for a small advertiser and
browser (used by the tests and the benchmark).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import signal
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import asdict
from functools import partial
from typing import Any, Final

import trio
from zeroconf import (
    EventLoopBlocked,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)

from .discovery_records import (
    SERVICE_TYPE,
    Interfaces,
    PeerEvent,
    PeerInfo,
    decode_txt,
    encode_txt,
    instance_label,
    resolve_interfaces,
)

__all__ = ["SERVICE_TYPE", "Advertiser", "PeerEvent", "PeerInfo", "find_peers",
           "make_peer_advertiser", "open_browser", "run_advertiser"]

LOGGER = logging.getLogger(__name__)

RECORD_TTL: Final = 120  # s for every record (RFC 6762 host-record TTL); browsers refresh at 80 %
RESOLVE_TIMEOUT: Final = 1.5  # s to resolve an instance's SRV/TXT/A when they are not cached
CHECK_INTERVAL: Final = 2.0  # s between TCP liveness checks of each known peer
CHECK_TIMEOUT: Final = 1.5  # s for one check's connect (a dead link times out, a dead peer refuses)
DROP_AFTER: Final = 2  # failed checks in a row that hide a peer: at most ~7 s after it dies
GOODBYE_TIMEOUT: Final = 3.0  # s to send the goodbyes on shutdown (zeroconf needs ~0.25 s)
UPDATE_INTERVAL: Final = 0.2  # s at least between two TXT updates of a running peer
EVENT_BUFFER: Final = 64  # PeerEvents queued for a slow reader before the browser waits
# RFC 6762 section 8.1 sends the three probes 250 ms apart; python-zeroconf waits 500 ms
# (zeroconf.const._CHECK_TIME). The RFC spacing makes a peer visible half a second sooner.
PROBE_SPACING_MS: Final = 250


def _use_rfc_probe_spacing() -> None:
    """Set zeroconf's probe spacing to the RFC's; a no-op if zeroconf changes its constant."""
    from zeroconf import _core

    if getattr(_core, "_CHECK_TIME", None) == 500:
        _core._CHECK_TIME = PROBE_SPACING_MS  # type: ignore[attr-defined]


def _open_zeroconf(interfaces: list[str] | None) -> tuple[Zeroconf, Interfaces]:
    """A started Zeroconf on the chosen interfaces (blocking), and what was chosen."""
    chosen = resolve_interfaces(interfaces)
    _use_rfc_probe_spacing()
    if chosen.zeroconf is None:
        zc = Zeroconf(ip_version=IPVersion.V4Only, use_asyncio=False)
    else:
        zc = Zeroconf(interfaces=chosen.zeroconf, use_asyncio=False,
                      ip_version=IPVersion.All if chosen.ipv6 else IPVersion.V4Only)
    return zc, chosen


def _now_ms() -> int:
    return int(time.time() * 1000)


async def _close_zeroconf(zc: Zeroconf) -> None:
    with trio.CancelScope(shield=True):
        await trio.to_thread.run_sync(zc.close)


# ---------------------------------------------------------------------------
# advertising
# ---------------------------------------------------------------------------


class Advertiser:
    """One registered instance; :meth:`update` refreshes its TXT record."""

    def __init__(self, zc: Zeroconf, info: ServiceInfo, *, name: str, peer_id: str,
                 games: list[str], open_tables: int, rev: int, web_port: int | None = None,
                 ) -> None:
        self._zc = zc
        self._info = info
        self._name = name
        self._peer_id = peer_id
        self._games = list(games)
        self._open_tables = open_tables
        self._rev = rev
        self._web_port = web_port
        self._lock = trio.Lock()

    @property
    def instance(self) -> str:
        """The instance label as registered (zeroconf may have renamed it)."""
        return self._info.name[: -len(SERVICE_TYPE) - 1]

    async def update(self, *, open_tables: int, games: list[str] | None = None) -> None:
        """Announce a new open-table count (and games, if given); no-op if unchanged."""
        async with self._lock:
            games = self._games if games is None else list(games)
            if (open_tables, games) == (self._open_tables, self._games):
                return
            self._open_tables, self._games = open_tables, games
            self._rev = max(self._rev + 1, _now_ms())
            info = self._info
            new = ServiceInfo(SERVICE_TYPE, info.name, port=info.port, server=info.server,
                              properties=encode_txt(name=self._name, peer_id=self._peer_id,
                                                    games=games, open_tables=open_tables,
                                                    rev=self._rev, web_port=self._web_port),
                              host_ttl=RECORD_TTL, other_ttl=RECORD_TTL,
                              addresses=info.addresses_by_version(IPVersion.All))
            await trio.to_thread.run_sync(self._zc.update_service, new)
            self._info = new


async def run_advertiser(*, name: str, peer_id: str, port: int, games: list[str],
                         interfaces: list[str] | None = None, open_tables: int = 0,
                         addresses: list[str] | None = None, web_port: int | None = None,
                         task_status: trio.TaskStatus[Advertiser] = trio.TASK_STATUS_IGNORED,
                         ) -> None:
    """Advertise one peer until cancelled; pass back an :class:`Advertiser`.

    Args:
        name: the display name (TXT ``name``; the instance label is built from it).
        peer_id: the peer's stable id (TXT ``id``).
        port: the peer's TCP port.
        games: game ids (TXT ``games``, comma-separated, cut to fit).
        interfaces: interface names or addresses; None for every LAN interface.
        open_tables: tables with a free seat now (TXT ``open``).
        addresses: the addresses to advertise (default: those of ``interfaces``).
        web_port: the port of the peer's web app (TXT ``web``), if it serves one.

    On cancellation the goodbye goes out (shielded, within ``GOODBYE_TIMEOUT``)
    before the sockets close.
    """
    zc, chosen = await trio.to_thread.run_sync(_open_zeroconf, interfaces)
    rev = _now_ms()
    try:
        label = instance_label(name, peer_id)
        info = ServiceInfo(SERVICE_TYPE, f"{label}.{SERVICE_TYPE}", port=port,
                           server=f"lantable-{peer_id[:40]}.local.",
                           properties=encode_txt(name=name, peer_id=peer_id, games=games,
                                                 open_tables=open_tables, rev=rev,
                                                 web_port=web_port),
                           host_ttl=RECORD_TTL, other_ttl=RECORD_TTL,
                           parsed_addresses=[a.split("%")[0]
                                             for a in addresses or chosen.addresses])
        await trio.to_thread.run_sync(partial(zc.register_service, info, allow_name_change=True))
        advertiser = Advertiser(zc, info, name=name, peer_id=peer_id, games=games,
                                open_tables=open_tables, rev=rev, web_port=web_port)
        try:
            LOGGER.info("advertising %r on port %d at %s", advertiser.instance, port,
                        info.parsed_addresses())
            task_status.started(advertiser)
            await trio.sleep_forever()
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(GOODBYE_TIMEOUT):
                await trio.to_thread.run_sync(zc.unregister_service, advertiser._info,
                                              abandon_on_cancel=True)
    finally:
        await _close_zeroconf(zc)


def make_peer_advertiser(*, interfaces: list[str] | None = None, web_port: int | None = None,
                         ) -> Callable[..., Awaitable[None]]:
    """The ``discovery`` callable for :func:`lantable.host.peer.serve_peer`
    (``web_port``: the peer's web app, advertised for browsers on the LAN).

    It advertises the running peer and re-announces its open-table count
    whenever the peer's table summaries change (at most every ``UPDATE_INTERVAL``).
    """

    async def advertise(running: Any,
                        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        peer = running.peer
        bound = [host for host, _ in running.addresses if host not in ("0.0.0.0", "::")]
        wake_send, wake_receive = trio.open_memory_channel[None](1)

        def changed() -> None:
            try:
                wake_send.send_nowait(None)
            except trio.WouldBlock:
                pass  # an update is already due; it will read the latest count

        web: dict[str, Any] = {"web_port": web_port} if web_port is not None else {}
        async with trio.open_nursery() as nursery:
            advertiser = await nursery.start(partial(
                run_advertiser, name=peer.name, peer_id=peer.peer_id, port=running.port,
                games=sorted(peer.registry.games), interfaces=interfaces,
                open_tables=peer.open_tables(), addresses=bound or None, **web))
            peer.on_change = changed
            changed()  # tables may have changed while the registration probed
            try:
                task_status.started()
                async for _ in wake_receive:
                    try:
                        await advertiser.update(open_tables=peer.open_tables())
                    except EventLoopBlocked:  # zeroconf's thread is stuck; the peer serves on
                        LOGGER.warning("TXT update not sent: zeroconf is not responding",
                                       exc_info=True)
                    await trio.sleep(UPDATE_INTERVAL)
            finally:
                peer.on_change = None

    return advertise


# ---------------------------------------------------------------------------
# browsing
# ---------------------------------------------------------------------------


class _Directory:
    """The peers zeroconf knows, their liveness, and what the reader has been told."""

    def __init__(self) -> None:
        self.known: dict[str, PeerInfo] = {}
        self.failures: dict[str, int] = {}
        self._changed = trio.Event()

    def put(self, name: str, info: PeerInfo | None) -> None:
        """Zeroconf resolved ``name`` (``info``) or lost it (None). Trio thread."""
        if info is None:
            self.known.pop(name, None)
            self.failures.pop(name, None)
        else:
            self.known[name] = info
            self.failures.setdefault(name, 0)
        self._changed.set()

    async def publish(self, send: trio.MemorySendChannel[PeerEvent]) -> None:
        """Send the difference between the live peers and what was sent, on every change."""
        told: dict[str, PeerInfo] = {}
        async with send:
            while True:
                await self._changed.wait()
                self._changed = trio.Event()
                live = {n: p for n, p in self.known.items() if self.failures[n] < DROP_AFTER}
                for name in [n for n in told if n not in live]:
                    await send.send(PeerEvent("removed", told.pop(name)))
                for name, peer in live.items():
                    if told.get(name) != peer:
                        await send.send(PeerEvent("updated" if name in told else "added", peer))
                        told[name] = peer

    async def check_liveness(self) -> None:
        """Connect to every known peer every ``CHECK_INTERVAL`` seconds."""
        while True:
            await trio.sleep(CHECK_INTERVAL)
            async with trio.open_nursery() as nursery:
                for name, peer in list(self.known.items()):
                    nursery.start_soon(self._check, name, peer)

    async def _check(self, name: str, peer: PeerInfo) -> None:
        ok = await _reachable(peer)
        if name not in self.failures:
            return
        was_live = self.failures[name] < DROP_AFTER
        self.failures[name] = 0 if ok else self.failures[name] + 1
        if (self.failures[name] < DROP_AFTER) != was_live:
            LOGGER.info("peer %r %s", name, "is back" if ok else "does not answer; hidden")
            self._changed.set()


async def _reachable(peer: PeerInfo) -> bool:
    """Whether one of the peer's addresses accepts a TCP connection on its port."""
    for address in peer.addresses:
        with trio.move_on_after(CHECK_TIMEOUT):
            try:
                stream = await trio.open_tcp_stream(address, peer.port)
            except OSError:
                continue
            await stream.aclose()
            return True
    return False


def _resolve(zc: Zeroconf, chosen: Interfaces, service_type: str, name: str) -> PeerInfo | None:
    """The instance's PeerInfo from the cache or the network (blocking), or None."""
    info = zc.get_service_info(service_type, name, timeout=int(RESOLVE_TIMEOUT * 1000))
    if info is None or info.port is None:
        return None
    return decode_txt(name[: -len(service_type) - 1], info.decoded_properties,
                      addresses=chosen.scoped(info.parsed_scoped_addresses()), port=info.port)


@asynccontextmanager
async def open_browser(*, interfaces: list[str] | None = None
                       ) -> AsyncIterator[trio.MemoryReceiveChannel[PeerEvent]]:
    """Browse for peers; yield a channel of :class:`PeerEvent` until the block ends.

    Every live peer arrives as ``added``; TXT or address changes as ``updated``;
    a goodbye or ``DROP_AFTER`` failed liveness checks as ``removed`` (and a
    hidden peer that answers again as ``added``).
    """
    zc, chosen = await trio.to_thread.run_sync(_open_zeroconf, interfaces)
    try:
        directory = _Directory()
        token = trio.lowlevel.current_trio_token()

        def on_change(zeroconf: Zeroconf, service_type: str, name: str,
                      state_change: ServiceStateChange) -> None:  # the browser's thread
            peer = None
            if state_change is not ServiceStateChange.Removed:
                try:
                    peer = _resolve(zeroconf, chosen, service_type, name)
                except Exception:  # an exception here would end the browser's thread
                    LOGGER.exception("cannot resolve %r; ignored", name)
            try:
                trio.from_thread.run_sync(directory.put, name, peer, trio_token=token)
            except trio.RunFinishedError:
                pass

        send, receive = trio.open_memory_channel[PeerEvent](EVENT_BUFFER)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(directory.publish, send)
                nursery.start_soon(directory.check_liveness)
                browser = await trio.to_thread.run_sync(
                    partial(ServiceBrowser, zc, SERVICE_TYPE, handlers=[on_change]))
                try:
                    async with receive:
                        yield receive
                finally:
                    nursery.cancel_scope.cancel(reason="browser closed")
                    with trio.CancelScope(shield=True):
                        await trio.to_thread.run_sync(browser.cancel)
        except BaseExceptionGroup as group:
            # The caller's block runs inside our nursery; give back its own exception
            # (a KeyboardInterrupt, a ValueError) as it was raised, not in a group.
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
    finally:
        await _close_zeroconf(zc)


async def find_peers(*, timeout: float,  # noqa: ASYNC109 (the API: a listening window)
                     interfaces: list[str] | None = None) -> list[PeerInfo]:
    """The peers that answer within ``timeout`` seconds, sorted by name and id."""
    peers: dict[str, PeerInfo] = {}
    async with open_browser(interfaces=interfaces) as events:
        with trio.move_on_after(timeout):
            async for event in events:
                if event.kind == "removed":
                    peers.pop(event.peer.instance, None)
                else:
                    peers[event.peer.instance] = event.peer
    return sorted(peers.values(), key=lambda p: (p.name, p.peer_id))


# ---------------------------------------------------------------------------
# command line (tests and benchmarks)
# ---------------------------------------------------------------------------


def _emit(obj: dict[str, Any]) -> None:
    print(json.dumps({"t": time.time(), **obj}), flush=True)


async def _cli_advertise(args: argparse.Namespace) -> None:
    async def listen(task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(args.port, host=args.bind)
        task_status.started()

        async def handler(stream: trio.SocketStream) -> None:
            await stream.aclose()

        await trio.serve_listeners(handler, listeners)

    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async with trio.open_nursery() as nursery:
            if args.listen:
                await nursery.start(listen)
            _emit({"event": "starting"})
            advertiser = await nursery.start(partial(
                run_advertiser, name=args.name, peer_id=args.peer_id or uuid.uuid4().hex[:12],
                port=args.port, games=args.games.split(",") if args.games else [],
                interfaces=args.interface, open_tables=args.open))
            _emit({"event": "advertised", "instance": advertiser.instance})
            async for _ in signals:
                break
            nursery.cancel_scope.cancel(reason="signal")
    _emit({"event": "stopped"})


async def _cli_browse(args: argparse.Namespace) -> None:
    if not args.watch:
        peers = await find_peers(timeout=args.timeout, interfaces=args.interface)
        if args.json:
            print(json.dumps({"peers": [asdict(p) for p in peers]}), flush=True)
        else:
            for p in peers:
                print(f"{p.name}  {','.join(p.addresses)}:{p.port}  id {p.peer_id}  "
                      f"open {p.open_tables}  games {','.join(p.games)}")
        return
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async with trio.open_nursery() as nursery:

            async def stop() -> None:
                async for _ in signals:
                    nursery.cancel_scope.cancel(reason="signal")

            nursery.start_soon(stop)
            with trio.move_on_after(args.timeout if args.timeout > 0 else math.inf):
                async with open_browser(interfaces=args.interface) as events:
                    _emit({"event": "ready"})
                    async for event in events:
                        _emit({"event": event.kind, "peer": asdict(event.peer)})
            nursery.cancel_scope.cancel()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lantable.host.discovery",
                                     description="Advertise or browse lantable peers (DNS-SD).")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("advertise", help="advertise one instance until SIGINT/SIGTERM")
    p.add_argument("--name", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--peer-id", default=None, help="default: random")
    p.add_argument("--games", default="race", help="comma-separated game ids")
    p.add_argument("--open", type=int, default=0, help="open tables to announce")
    p.add_argument("--listen", action="store_true", help="also accept TCP on --port (liveness)")
    p.add_argument("--bind", default=None, help="with --listen: the address to listen on")
    p.add_argument("--interface", action="append", metavar="IF")
    p = sub.add_parser("browse", help="list peers (or --watch events as JSON lines)")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds (with --watch: 0 = forever)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--watch", action="store_true", help="print each event as a JSON line")
    p.add_argument("--interface", action="append", metavar="IF")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING - 10 * args.verbose,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    trio.run(_cli_advertise if args.command == "advertise" else _cli_browse, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
