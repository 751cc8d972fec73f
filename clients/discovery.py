"""LAN discovery, the clients' side: browse for peers with DNS-SD over mDNS.

python-zeroconf runs its own asyncio loop in a thread. Its blocking calls go through
``trio.to_thread``; the browser's callbacks run in the browser's own thread, resolve
the instance there, and hand the result to trio with ``trio.from_thread.run_sync``.
Nothing blocks the trio loop. The records are decoded by the pure codec in
``lantable.protocol.discovery``; advertising is the host's side
(``lantable.host.discovery``).

Liveness: zeroconf keeps a PTR record for at least 1125 s whatever TTL the
responder sets, so a peer that dies without a goodbye would linger. The browser
therefore connects to every known peer's TCP port every ``CHECK_INTERVAL``
seconds and hides a peer after ``DROP_AFTER`` failed checks in a row; it shows
the peer again as soon as a check succeeds (a link that came back). A goodbye
removes a peer at once.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Final

import trio
from zeroconf import IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf

from lantable.protocol.discovery import (
    SERVICE_TYPE,
    Interfaces,
    PeerEvent,
    PeerInfo,
    decode_txt,
    resolve_interfaces,
)

__all__ = ["PeerEvent", "PeerInfo", "find_peers", "open_browser"]

LOGGER = logging.getLogger(__name__)

RESOLVE_TIMEOUT: Final = 1.5  # s to resolve an instance's SRV/TXT/A when they are not cached
CHECK_INTERVAL: Final = 2.0  # s between TCP liveness checks of each known peer
CHECK_TIMEOUT: Final = 1.5  # s for one check's connect (a dead link times out, a dead peer refuses)
DROP_AFTER: Final = 2  # failed checks in a row that hide a peer: at most ~7 s after it dies
EVENT_BUFFER: Final = 64  # PeerEvents queued for a slow reader before the browser waits


def _open_zeroconf(interfaces: list[str] | None) -> tuple[Zeroconf, Interfaces]:
    """A started Zeroconf on the chosen interfaces (blocking), and what was chosen."""
    chosen = resolve_interfaces(interfaces)
    if chosen.zeroconf is None:
        zc = Zeroconf(ip_version=IPVersion.V4Only, use_asyncio=False)
    else:
        zc = Zeroconf(interfaces=chosen.zeroconf, use_asyncio=False,
                      ip_version=IPVersion.All if chosen.ipv6 else IPVersion.V4Only)
    return zc, chosen


async def _close_zeroconf(zc: Zeroconf) -> None:
    with trio.CancelScope(shield=True):
        await trio.to_thread.run_sync(zc.close)


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
