"""A bare advertiser and browser for the discovery tests and benchmark.

``python -m lantable.clients.commands.discovery advertise --name NAME --port PORT``
advertises one instance (the host's advertiser, ``lantable.host.discovery``) until
SIGINT or SIGTERM; ``browse`` lists the peers found (the clients' browser,
``lantable.clients.discovery``), or with ``--watch`` prints every event as a JSON line.
Each line carries the time ``t``, so a benchmark can measure how long a peer takes to
appear. It starts no lantable peer: ``--listen`` only accepts and closes TCP
connections, which is what the browser's liveness check needs.
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
from dataclasses import asdict
from functools import partial
from typing import Any

import trio

from lantable.host.discovery import run_advertiser

from ..discovery import find_peers, open_browser


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
    parser = argparse.ArgumentParser(prog="python -m lantable.clients.commands.discovery",
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
