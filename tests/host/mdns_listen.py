"""A bare mDNS listener, independent of python-zeroconf: prints every resource record
it hears on 224.0.0.251:5353 as a JSON line ``{"event": "rr", "name", "type", "ttl"}``.

Run inside a test's network namespace (tests/host/netns.py) with the interface's
address: ``python mdns_listen.py 10.77.0.2``. It is what any DNS-SD browser (avahi,
Bonjour) sees on the wire, so a goodbye (a PTR record with TTL 0) shows up here or
nowhere.
"""

from __future__ import annotations

import json
import socket
import struct
import sys
import time

TYPES = {1: "A", 12: "PTR", 16: "TXT", 28: "AAAA", 33: "SRV", 47: "NSEC"}


def _name(data: bytes, pos: int) -> tuple[str, int]:
    labels, end = [], None
    for _ in range(128):
        n = data[pos]
        if n & 0xC0 == 0xC0:  # a compression pointer
            if end is None:
                end = pos + 2
            pos = ((n & 0x3F) << 8) | data[pos + 1]
            continue
        if n == 0:
            return ".".join(labels) + ".", end if end is not None else pos + 1
        labels.append(data[pos + 1:pos + 1 + n].decode("utf-8", "replace"))
        pos += 1 + n
    raise ValueError("name loop")


def records(data: bytes) -> list[dict]:
    _id, _flags, qd, an, ns, ar = struct.unpack_from(">6H", data)
    pos, out = 12, []
    for _ in range(qd):
        _, pos = _name(data, pos)
        pos += 4
    for _ in range(an + ns + ar):
        name, pos = _name(data, pos)
        rtype, _cls, ttl, length = struct.unpack_from(">HHIH", data, pos)
        pos += 10
        rec = {"name": name, "type": TYPES.get(rtype, rtype), "ttl": ttl}
        if rtype == 12:
            rec["target"] = _name(data, pos)[0]
        out.append(rec)
        pos += length
    return out


def main() -> None:
    address = sys.argv[1]
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("", 5353))
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                    socket.inet_aton("224.0.0.251") + socket.inet_aton(address))
    print(json.dumps({"event": "ready", "t": time.time()}), flush=True)
    while True:
        data, sender = sock.recvfrom(9000)
        try:
            for rec in records(data):
                print(json.dumps({"event": "rr", "from": sender[0], "t": time.time(), **rec}),
                      flush=True)
        except (ValueError, IndexError, struct.error):
            continue


if __name__ == "__main__":
    main()
