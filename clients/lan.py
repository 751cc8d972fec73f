"""The LAN side of the CLI: list peers and their tables, find a free seat.

Peers are found with zeroconf (:mod:`.discovery`); their tables are then
fetched over TCP with the ordinary client library, since DNS-SD TXT records carry
only a summary.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import TYPE_CHECKING, Any, Final

import trio

from lantable.protocol import ProtocolError

from .client import Client, ClientError, Disconnected, RequestError, open_client

if TYPE_CHECKING:
    from lantable.protocol.discovery import PeerInfo

LOGGER = logging.getLogger(__name__)

FETCH_TIMEOUT: Final = 3.0  # seconds to connect to a found peer and list its tables
CHECK_TABLES: Final = 16  # tables being played whose disconnected seats `peers` marks


def _best_address(peer: PeerInfo) -> str:
    """Prefer IPv4, then global IPv6; link-local IPv6 needs a scope we may not know."""
    def rank(addr: str) -> tuple[int, str]:
        ip = ipaddress.ip_address(addr.split("%")[0])
        return (0 if ip.version == 4 else 2 if ip.is_link_local else 1, addr)

    return sorted(peer.addresses, key=rank)[0]


async def fetch_tables(peer: PeerInfo) -> dict[str, Any]:
    """The peer as JSON-able data, with its tables fetched over TCP (or the error)."""
    address = _best_address(peer)
    out: dict[str, Any] = {
        "name": peer.name, "peer_id": peer.peer_id, "address": address, "port": peer.port,
        "addresses": list(peer.addresses), "games": list(peer.games),
        "open_tables": peer.open_tables,
        # what the peer advertised (TXT), as it said it, reachable or not
        "proto": peer.proto, "web_port": peer.web_port,
        "tables": None, "error": None,
    }
    try:
        with trio.fail_after(FETCH_TIMEOUT):
            async with open_client(address, peer.port, name="lantable-peers") as client:
                out["tables"] = await client.list_tables()
                await mark_connected(client, out["tables"])
    except Exception as exc:  # a stranger on the LAN may do anything; never a crash here
        out["error"] = _why_unreachable(exc)
        LOGGER.debug("peer %s at %s:%d: %s", peer.name, address, peer.port, out["error"],
                     exc_info=True)
    return out


def _why_unreachable(exc: Exception) -> str:
    """What went wrong with a peer, in words for the ``unreachable:`` line."""
    if isinstance(exc, trio.TooSlowError):
        return f"no answer within {FETCH_TIMEOUT:g} s"
    if isinstance(exc, RequestError):
        return f"refused us ({exc})"
    if isinstance(exc, ProtocolError):
        return f"does not speak the lantable protocol ({exc.code}: {exc})"
    if isinstance(exc, (Disconnected, trio.BrokenResourceError, trio.ClosedResourceError)):
        return f"closed the connection before answering ({exc})"
    if isinstance(exc, (OSError, ClientError)):
        return f"cannot connect ({exc})"
    return f"failed ({type(exc).__name__}: {exc})"


async def mark_connected(client: Client, tables: list[dict[str, Any]]) -> None:
    """Add ``connected`` (a bool per seat) to the tables being played: a table summary
    says who sits, only a table's update says who is still there. Watches each such
    table for one update (at most :data:`CHECK_TABLES` of them)."""
    playing = [t for t in tables if t.get("status") == "playing"][:CHECK_TABLES]
    for table in playing:
        await client.join(table["id"], spectate=True)
        update = await client.updates(table["id"]).receive()
        table["connected"] = [bool(s.get("connected")) for s in update.seats]
        await client.leave(table["id"])


async def lan_peers(timeout: float, interfaces: list[str] | None) -> list[dict[str, Any]]:
    """Every peer found within ``timeout`` seconds, with its tables."""
    from .discovery import find_peers

    peers = await find_peers(timeout=timeout, interfaces=interfaces)
    results: list[dict[str, Any]] = []

    async def one(peer: PeerInfo) -> None:
        results.append(await fetch_tables(peer))

    async with trio.open_nursery() as nursery:
        for peer in peers:
            nursery.start_soon(one, peer)
    return sorted(results, key=lambda p: (p["name"], p["peer_id"]))


async def find_free_table(*, game: str | None, timeout: float,
                          interfaces: list[str] | None) -> tuple[str, int, str] | None:
    """(address, port, table) of a waiting table with a free seat, or None.

    Tables of ``game`` only, when given; the oldest listed first, so several
    bots started together fill the same table.
    """
    for peer in await lan_peers(timeout, interfaces):
        for table in peer["tables"] or ():
            if table["status"] == "waiting" and table["taken"] < table["seats"] and \
                    (game is None or table["game"] == game):
                return peer["address"], peer["port"], table["id"]
    return None


async def find_peer(*, name: str | None, timeout: float,
                    interfaces: list[str] | None) -> tuple[str, int] | None:
    """(address, port) of a peer (the one called ``name``, if given), or None."""
    for peer in await lan_peers(timeout, interfaces):
        if peer["error"] is None and (name is None or peer["name"] == name):
            return peer["address"], peer["port"]
    return None


def format_peers(peers: list[dict[str, Any]]) -> str:
    if not peers:
        return "no peers found"
    lines = []
    for p in peers:
        lines.append(f"{p['name']}  {p['address']}:{p['port']}  (peer {p['peer_id']}, "
                     f"{len(p['games'])} games, {p['open_tables']} open tables)")
        if p["error"]:
            lines.append(f"    unreachable: {p['error']}")
        for t in p["tables"] or ():
            fair = "  fair play" if t.get("fair") else ""  # docs/fair-play.md
            lines.append(f"    table {t['id']}  {t['game']:16} {t['taken']}/{t['seats']} seats"
                         f"  {t['status']:8}{fair}  {_seats(t)}")
    return "\n".join(lines)


def _seats(table: dict[str, Any]) -> str:
    """"ann, bob (disconnected), free": who sits where, and who dropped."""
    names = table.get("names") or [None] * table.get("seats", 0)
    connected = table.get("connected")
    out = []
    for i, name in enumerate(names):
        if name is None:
            out.append("free")
        elif connected is not None and i < len(connected) and not connected[i]:
            out.append(f"{name} (disconnected)")
        else:
            out.append(name)
    return ", ".join(out)
