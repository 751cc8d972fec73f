"""How peers find each other on a LAN, as data: ports, DNS-SD records, interfaces.

No sockets, no threads: the default ports, instance naming (RFC 6763 single labels),
TXT encoding and decoding, and turning ``--interface`` values into zeroconf's interface
arguments. Both sides use it: the host's advertiser (``lantable.host.discovery``) and
the clients' browser (``lantable.clients.discovery``); docs/discovery.md specifies it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    import ifaddr

# The one definition of each port: the host listens on them, the CLI offers them as
# defaults, and docs/protocol.md names the first.
DEFAULT_PORT: Final = 47800  # unassigned by IANA; any free port works (--port 0)
DEFAULT_WEB_PORT: Final = 47880  # the browser app, next to the protocol's; --web-port

SERVICE_TYPE: Final = "_lantable._tcp.local."
PROTO: Final = 1  # the TXT ``proto`` of this version; a browser reports others as they come

# RFC 6763 section 4.1.1: an instance name is one DNS label of at most 63 bytes (UTF-8).
MAX_LABEL: Final = 63
# RFC 6763 section 6.2: a TXT record should stay under 200 bytes, 400 at most;
# each key=value string holds at most 255 bytes. The games list gets what is left.
MAX_NAME_BYTES: Final = 60
MAX_GAMES_BYTES: Final = 200


@dataclass(frozen=True)
class PeerInfo:
    """A peer as its advertisement describes it."""

    instance: str  # the DNS-SD instance label, unique on the link
    name: str
    peer_id: str
    addresses: tuple[str, ...]
    port: int
    proto: int
    games: tuple[str, ...]
    open_tables: int
    web_port: int | None = None  # the peer's web app (TXT ``web``), if it serves one


@dataclass(frozen=True)
class PeerEvent:
    """A peer appeared (``added``), changed its TXT or addresses, or went away."""

    kind: Literal["added", "updated", "removed"]
    peer: PeerInfo


def _truncate_utf8(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 form fits in ``limit`` bytes."""
    return text.encode()[:limit].decode(errors="ignore")


def instance_label(name: str, peer_id: str) -> str:
    """The instance label of a peer: ``"<name> (<peer_id>)"`` as one DNS label.

    Dots are replaced (python-zeroconf cannot escape them, and an unescaped dot
    splits the label, hiding the peer from other DNS-SD stacks), control
    characters dropped, and the name shortened so the label fits in 63 bytes.
    The peer id makes the label unique, so two peers called "alice" never
    collide; zeroconf's renaming (``allow_name_change``) is a second line.
    """
    clean = "".join(ch for ch in name.replace(".", "_") if ch.isprintable()).strip() or "lantable"
    suffix = f" ({_truncate_utf8(peer_id, 24)})"
    return _truncate_utf8(clean, MAX_LABEL - len(suffix.encode())).rstrip() + suffix


def encode_txt(*, name: str, peer_id: str, games: Iterable[str], open_tables: int,
               rev: int = 0, web_port: int | None = None) -> dict[str, str]:
    """The TXT properties; the games list is cut (whole ids) to fit its budget.

    ``rev`` must differ in every TXT a peer sends (the advertiser uses a rising
    millisecond clock): python-zeroconf ignores a record whose data equals one
    still in its cache, so without it a count going 0, 1, 0 would stop at 1.
    """
    kept: list[str] = []
    size = 0
    for game in games:
        size += len(game.encode()) + (1 if kept else 0)
        if size > MAX_GAMES_BYTES:
            break
        kept.append(game)
    txt = {"proto": str(PROTO), "id": peer_id, "name": _truncate_utf8(name, MAX_NAME_BYTES),
           "games": ",".join(kept), "open": str(int(open_tables)), "rev": str(rev)}
    if web_port is not None:
        txt["web"] = str(web_port)  # browsers on the LAN link to http://<address>:<web>/
    return txt


def decode_txt(instance: str, properties: Mapping[str, str | None], *,
               addresses: Iterable[str], port: int) -> PeerInfo | None:
    """A :class:`PeerInfo` from decoded TXT properties, or None if they are not ours.

    ``id`` and an integer ``proto`` are required; other keys default
    (``name`` to the instance label, no games, no open tables).
    """
    peer_id = properties.get("id")
    try:
        proto = int(properties.get("proto") or "")
        open_tables = int(properties.get("open") or 0)
    except ValueError:
        return None
    if not peer_id:
        return None
    games = tuple(g for g in (properties.get("games") or "").split(",") if g)
    web = properties.get("web") or ""
    return PeerInfo(instance=instance, name=properties.get("name") or instance, peer_id=peer_id,
                    addresses=tuple(addresses), port=port, proto=proto, games=games,
                    open_tables=open_tables,
                    web_port=int(web) if web.isdigit() and 0 < int(web) < 65536 else None)


@dataclass(frozen=True)
class Interfaces:
    """Zeroconf's ``interfaces`` argument, whether IPv6 is in it, and the addresses to advertise."""

    zeroconf: list[str] | None  # None: zeroconf's default
    v6_indexes: list[int]  # the interfaces joined over IPv6
    addresses: list[str]

    @property
    def ipv6(self) -> bool:
        return bool(self.v6_indexes)

    def scoped(self, addresses: Iterable[str]) -> list[str]:
        """``addresses`` usable from here: a link-local IPv6 address without a scope
        gets the one IPv6 interface we browse on, or is dropped if that is ambiguous."""
        out = []
        for address in addresses:
            if "%" not in address and ipaddress.ip_address(address).is_link_local \
                    and ipaddress.ip_address(address).version == 6:
                if len(self.v6_indexes) != 1:
                    continue
                address = f"{address}%{self.v6_indexes[0]}"
            out.append(address)
        return out


def _is_loopback(ip: str) -> bool:
    return ipaddress.ip_address(ip.split("%")[0]).is_loopback


def resolve_interfaces(interfaces: list[str] | None,
                       adapters: Iterable[ifaddr.Adapter] | None = None) -> Interfaces:
    """Map interface names and addresses to what zeroconf binds and what we advertise.

    ``None`` means every interface but loopback, IPv4 and IPv6. A name (``"lan0"``,
    ``"lo"``) takes all of that interface's addresses; an address takes just that
    one. IPv6 joins once per interface; ``::1`` is left out (zeroconf cannot
    multicast on it).

    Raises:
        ValueError: an interface name or address that this machine does not have.
    """
    adapters = list(_system_adapters() if adapters is None else adapters)
    picked: list[tuple[ifaddr.Adapter, ifaddr.IP]] = []
    if interfaces is None:
        picked = [(a, ip) for a in adapters for ip in a.ips if not _is_loopback(_ip_text(ip))]
    else:
        for want in interfaces:
            match = [(a, ip) for a in adapters for ip in a.ips
                     if want in (a.name, a.nice_name) or _same_ip(want, _ip_text(ip))]
            if not match:
                raise ValueError(f"no interface or address {want!r} on this machine")
            picked += match
    v4 = sorted({_ip_text(ip) for _, ip in picked if ip.is_IPv4})
    v6: dict[int, str] = {}  # zeroconf finds the interface index from the address
    v6_addresses: list[str] = []
    for adapter, ip in picked:
        text = _ip_text(ip)
        if ip.is_IPv6 and not _is_loopback(text) and adapter.index is not None:
            v6.setdefault(adapter.index, text)
            v6_addresses.append(text)
    if not v4 and not v6:
        return Interfaces(zeroconf=None, v6_indexes=[], addresses=[])
    return Interfaces(zeroconf=[*v4, *v6.values()], v6_indexes=list(v6),
                      addresses=v4 + v6_addresses)


def _system_adapters() -> list[ifaddr.Adapter]:
    """This machine's interfaces (ifaddr is zeroconf's own dependency; imported here so
    that the records above load without it)."""
    import ifaddr

    return list(ifaddr.get_adapters())


def _ip_text(ip: ifaddr.IP) -> str:
    return ip.ip if isinstance(ip.ip, str) else ip.ip[0]


def _same_ip(want: str, have: str) -> bool:
    try:
        return ipaddress.ip_address(want.split("%")[0]) == ipaddress.ip_address(have.split("%")[0])
    except ValueError:
        return False
