"""LAN discovery, the host's side: advertise this peer with DNS-SD over mDNS.

python-zeroconf runs its own asyncio loop in a thread. Its blocking calls (start,
register, update, unregister, close) go through ``trio.to_thread``, so nothing blocks
the trio loop. The records themselves (instance label, TXT) are built by the pure
codec in ``lantable.protocol.discovery``; browsing for peers is the clients' side
(``lantable.clients.discovery``), and ``python -m lantable.clients.commands.discovery``
is a small advertiser and browser for the tests and the benchmark.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Final

import trio
from zeroconf import EventLoopBlocked, IPVersion, ServiceInfo, Zeroconf

from lantable.protocol.discovery import (
    SERVICE_TYPE,
    Interfaces,
    encode_txt,
    instance_label,
    resolve_interfaces,
)

__all__ = ["Advertiser", "make_peer_advertiser", "run_advertiser"]

LOGGER = logging.getLogger(__name__)

RECORD_TTL: Final = 120  # s for every record (RFC 6762 host-record TTL); browsers refresh at 80 %
GOODBYE_TIMEOUT: Final = 3.0  # s to send the goodbyes on shutdown (zeroconf needs ~0.25 s)
UPDATE_INTERVAL: Final = 0.2  # s at least between two TXT updates of a running peer
# RFC 6762 section 8.1 sends the three probes 250 ms apart; python-zeroconf waits 500 ms
# (zeroconf.const._CHECK_TIME). The RFC spacing makes a peer visible half a second sooner.
PROBE_SPACING_MS: Final = 250


def _use_rfc_probe_spacing() -> None:
    """Set zeroconf's probe spacing to the RFC's; a no-op if zeroconf changes its constant."""
    from zeroconf import _core

    if getattr(_core, "_CHECK_TIME", None) == 500:
        setattr(_core, "_CHECK_TIME", PROBE_SPACING_MS)  # noqa: B010 (a private constant)


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

        async with trio.open_nursery() as nursery:
            advertiser = await nursery.start(partial(
                run_advertiser, name=peer.name, peer_id=peer.peer_id, port=running.port,
                games=sorted(peer.registry.games), interfaces=interfaces,
                open_tables=peer.open_tables(), addresses=bound or None, web_port=web_port))
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
