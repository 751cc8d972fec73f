"""The join URL and its QR code, printed by ``lantable host`` for phones to scan."""

from __future__ import annotations

import io
import ipaddress
import socket

import segno


def lan_address(bind: str | None = None) -> str:
    """The address other machines on the LAN reach this one at.

    With a specific ``bind`` address, that one. Otherwise the source address the
    system would use for an outside destination: ``connect`` on a UDP socket only
    picks a route and sends nothing. Falls back to loopback on a machine with no
    network.
    """
    if bind and not ipaddress.ip_address(bind).is_unspecified:
        return bind
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 9))  # any non-local address; nothing is sent
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def join_url(address: str, port: int) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with block characters, for a terminal."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()
