"""The other peers on the LAN, for the browser's lobby, as a discovery browser reports them.

The browser (``lantable.clients.discovery.open_browser``) is handed in by the CLI,
which composes the peer; ``web/`` does not import the clients.

Each peer that advertises a web port (TXT ``web``) is listed with the URL of its web
app, so a person can walk from one peer's tables to another's. Peers come and go as
discovery reports them; every change is pushed to the lobbies (``Peer.set_lan_peers``).
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .join import join_url

if TYPE_CHECKING:
    from lantable.host.peer import Peer
    from lantable.protocol.discovery import PeerInfo

LOGGER = logging.getLogger(__name__)


def peer_entry(info: PeerInfo) -> dict[str, Any]:
    """One peer as the ``lobby`` message lists it (docs/protocol.md)."""
    address = best_address(info.addresses)
    return {"name": info.name, "peer_id": info.peer_id, "open_tables": info.open_tables,
            "games": list(info.games), "address": address, "port": info.port,
            "url": join_url(address, info.web_port) if address and info.web_port else None}


def best_address(addresses: tuple[str, ...] | list[str]) -> str | None:
    """An address a browser can use: IPv4 first, then global IPv6 (a link-local IPv6
    address needs a zone, which URLs cannot carry portably)."""
    v4 = [a for a in addresses if ":" not in a]
    if v4:
        return v4[0]
    for a in addresses:
        if not ipaddress.ip_address(a.split("%")[0]).is_link_local:
            return a.split("%")[0]
    return None


async def watch_lan_peers(peer: Peer, open_browser: Callable[..., Any],
                          interfaces: list[str] | None = None) -> None:
    """Keep ``peer.lan_peers`` current until cancelled (this peer itself left out)."""
    seen: dict[str, dict[str, Any]] = {}
    async with open_browser(interfaces=interfaces) as events:
        async for event in events:
            if event.peer.peer_id == peer.peer_id:
                continue
            if event.kind == "removed":
                seen.pop(event.peer.instance, None)
            else:
                seen[event.peer.instance] = peer_entry(event.peer)
            peer.set_lan_peers(sorted(seen.values(), key=lambda p: (p["name"], p["peer_id"])))
