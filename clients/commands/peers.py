"""``lantable peers``: the peers on the LAN (zeroconf) and their tables (over TCP)."""

from __future__ import annotations

import argparse
import json
from typing import Any

import trio

from .common import add_command, print_json


def add_peers(sub: Any) -> None:
    p = add_command(sub, "peers", "peers on the LAN and their tables",
                    "List the peers found on the LAN and their tables (disconnected seats "
                    "marked).", "lantable peers --timeout 5")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to listen")
    p.add_argument("--watch", action="store_true",
                   help="keep listening; print peers as they come and go")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--interface", action="append", metavar="IF",
                   help="browse only on IF (repeatable; default: every interface)")
    p.set_defaults(func=cmd_peers)


def cmd_peers(args: argparse.Namespace) -> int:
    from ..lan import fetch_tables, format_peers, lan_peers

    if not args.watch:
        peers = trio.run(lambda: lan_peers(args.timeout, args.interface))
        if args.json:
            print_json({"peers": peers})
        else:
            print(format_peers(peers))
        return 0

    async def watch() -> None:
        from ..discovery import open_browser

        async with open_browser(interfaces=args.interface) as events:
            async for event in events:
                data = await fetch_tables(event.peer) if event.kind != "removed" else \
                    {"name": event.peer.name, "peer_id": event.peer.peer_id}
                if args.json:
                    print(json.dumps({"event": event.kind, "peer": data}), flush=True)
                else:
                    shown = (format_peers([data]) if event.kind != "removed"
                             else f"{data['name']} ({data['peer_id']})")
                    print(f"[{event.kind}] {shown}", flush=True)

    try:
        trio.run(watch)
    except KeyboardInterrupt:
        pass
    return 0
