"""``lantable replay --web FILE``: step through a journal's finished games in the
browser, on each game's own board (host/archive.py answers the page's ``replay``
requests from FILE). Serves on loopback unless told otherwise."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import trio

from ..errors import CliError
from .common import installed


def add_web_flags(p: argparse.ArgumentParser) -> None:
    """``lantable replay``'s flags for the browser (``--web FILE``)."""
    p.add_argument("--web", metavar="FILE", default=None,
                   help="serve the journal FILE's finished games to a browser, to step "
                        "through on the board (with --table: open that one)")
    p.add_argument("--bind", default="127.0.0.1",
                   help="with --web: the address to serve on (default loopback only)")
    p.add_argument("--web-port", type=int, default=0,
                   help="with --web: the port (default any free one)")


def cmd_replay_web(args: argparse.Namespace) -> int:
    from lantable.host.archive import Archive
    from lantable.host.journal import Journal
    from lantable.host.peer import serve_peer
    from lantable.web import serve_web

    path = Path(args.web)
    if not path.exists():
        raise CliError(f"no journal at {path} (give a peer's journal file to --web)")
    registry = installed()
    source = Journal(path)
    if args.table is not None:
        record = source.table(args.table)
        if record is None:
            raise CliError(f"no table {args.table!r} in {path}")
        if record.status != "finished":
            raise CliError(f"table {args.table} is {record.status}: only a finished game "
                           "can be replayed")

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            # A peer of its own with nothing in its journal; its finished tables, and
            # the replays, are the file's.
            running: Any = await nursery.start(lambda task_status: serve_peer(
                registry=registry, db=":memory:", name=f"replay of {path.name}",
                bind=args.bind, port=0, task_status=task_status))
            running.peer.archive = Archive(source, registry, registry.pm)
            web = await nursery.start(lambda task_status: serve_web(
                peer=running.peer, bind=args.bind, port=args.web_port,
                task_status=task_status))
            host = args.bind if args.bind not in ("0.0.0.0", "::", "") else "127.0.0.1"
            if ":" in host:
                host = f"[{host}]"
            where = f"#/replay/{args.table}" if args.table else "#/"
            print(f"replays of {path}: open http://{host}:{web.port}/{where}  "
                  "(Ctrl-C stops)", flush=True)

    try:
        trio.run(main)
    except KeyboardInterrupt:
        pass
    finally:
        source.close()
    return 0
