"""Slow-reader benchmark: what a client that never reads its updates holds; prints JSON.

A peer on loopback plays a table of greedy bots (in this process); a
spectator client joins and never reads its feed (a stuck bot, a person away from the
keyboard). At the end the spectator's feed is measured: updates queued, events kept,
and the bytes they take (msgpack size of what is held). With the bounded feed the
size stays flat however long the game; ``--unbounded`` swaps in an unbounded queue
to show what it used to hold. Each run is repeated ``--runs`` times (median reported).

Usage: python bench/slow_reader.py [--game ID --seats N] [--runs R] [--seed S] [--unbounded]
"""

from __future__ import annotations

import json
import math
import statistics
import tempfile
import time
from pathlib import Path

import msgpack
import trio
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients import client as client_module
from lantable.clients.client import open_client
from lantable.clients.runner import run_bot
from lantable.host.peer import serve_peer
from lantable.plugins import load_registry


async def one_run(game: str, seats: int, seed: int, db: str) -> dict[str, float]:
    registry = load_registry()
    start = time.perf_counter()
    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=db, name="bench", bind="127.0.0.1", port=0,
            task_status=task_status))
        port = running.port
        async with open_client("127.0.0.1", port, name="maker") as maker, \
                open_client("127.0.0.1", port, name="asleep") as asleep:
            table = await maker.create(game, seats, seed=seed)
            await asleep.join(table, spectate=True)
            async with trio.open_nursery() as bots:
                for i in range(seats):
                    bots.start_soon(lambda i=i: run_bot("127.0.0.1", port, table, "greedy", seed,
                                                        name=f"greedy-{i}", seat=i, quiet=True))
            feed = asleep.updates(table)
            held = list(feed._queue)  # noqa: SLF001 - what the client holds
        nursery.cancel_scope.cancel()
    return {
        "actions": running.peer.tables[table].seq if table in running.peer.tables else None,
        "updates_held": len(held),
        "events_held": sum(len(u.events or ()) for u in held),
        "bytes_held": sum(len(msgpack.packb(u.to_map(), use_bin_type=True)) for u in held),
        "seconds": round(time.perf_counter() - start, 3),
    }


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs; medians reported")
    parser.add_argument("--seed", type=int, default=7, help="the table's seed")
    parser.add_argument("--game", default="manila", help="the game the bots play")
    parser.add_argument("--seats", type=int, default=4, help="seats, all of them bots")
    parser.add_argument("--unbounded", action="store_true",
                        help="measure an unbounded queue instead (the old behaviour)")
    args = parser.parse_args()
    if args.unbounded:
        client_module.UPDATE_BACKLOG = math.inf  # type: ignore[misc]
        client_module.UpdateFeed.__init__.__defaults__ = (math.inf,)
    runs = []
    for r in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(trio.run(one_run, args.game, args.seats, args.seed + r,
                                 str(Path(tmp) / "j.sqlite")))
    keys = ("actions", "updates_held", "events_held", "bytes_held", "seconds")
    print(json.dumps({
        "bench": "slow_reader", "game": args.game, "seats": args.seats,
        "feed": "unbounded" if args.unbounded else "bounded",
        "backlog": None if args.unbounded else client_module.UPDATE_BACKLOG,
        "median": {k: statistics.median(r[k] for r in runs) for k in keys},
        "runs": runs,
    }, indent=2))


if __name__ == "__main__":
    main()
