"""Restart benchmark: how long a table of bots stands still when its host restarts.

Real processes over loopback, as at a LAN party: ``lantable host`` with a journal,
one ``lantable new`` table, and ``lantable bot --count SEATS`` (one process, the bots
in it). Once the bots have played a few actions the host is stopped (SIGTERM: the
clients are told ``shutting_down``, as on a restart) or killed (``--kill``: SIGKILL),
and started again on the same port and journal. Measured, per restart:

- ``restart_s``: from the stop signal to the new host listening again;
- ``stall_s``: from the new host listening to the first action journalled after it
  (the time the bots need to reconnect, resume and act again).

Before issue 26 a bot that acted on an update still queued from the closed connection
waited the library's whole REQUEST_TIMEOUT (30 s) for a reply; a stall of a second or
two is the reconnect retry interval (0.5 s) plus a decision. Prints JSON.

Usage: python bench/restart.py [--game manila] [--seats 4] [--strategy greedy]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

LANTABLE = [sys.executable, "-m", "lantable.clients.cli"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_host(db: str, port: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [*LANTABLE, "host", "--bind", "127.0.0.1", "--port", str(port), "--db", db,
         "--no-discovery"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "listening on" not in line:
        raise SystemExit(f"the host did not start: {line!r}")
    return proc


def _actions(db: str) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return int(con.execute("SELECT count(*) FROM actions").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _wait_for_actions(db: str, at_least: int, bots: subprocess.Popen[str],
                      limit: float) -> float:
    """Seconds until the journal holds ``at_least`` actions (polling every 10 ms)."""
    start = time.monotonic()
    while _actions(db) < at_least:
        if bots.poll() is not None:
            raise SystemExit("the bots finished (or failed) before the restart: "
                             "choose a longer game or restart sooner")
        if time.monotonic() - start > limit:
            raise SystemExit(f"no action within {limit:g} s")
        time.sleep(0.01)
    return time.monotonic() - start


def run(args: argparse.Namespace) -> dict[str, object]:
    folder = tempfile.mkdtemp(prefix="lantable-restart-")
    db = os.path.join(folder, "journal.sqlite")
    env = {**os.environ, "XDG_DATA_HOME": os.path.join(folder, "data"),
           "LANTABLE_HOME": os.path.join(folder, "home")}
    port = _free_port()
    host = _start_host(db, port)
    restarts: list[dict[str, float]] = []
    bots = None
    try:
        table = subprocess.run(
            [*LANTABLE, "new", args.game, "--connect", f"127.0.0.1:{port}", "--seats",
             str(args.seats), "--seed", str(args.seed)],
            check=True, capture_output=True, text=True, env=env).stdout.strip()
        bots = subprocess.Popen(
            [*LANTABLE, "bot", "--connect", f"127.0.0.1:{port}", "--table", table, "--count",
             str(args.seats), "--strategy", args.strategy, "--seed", str(args.seed), "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for _ in range(args.restarts):
            _wait_for_actions(db, _actions(db) + args.every, bots, 120)
            stopped = time.monotonic()
            host.send_signal(signal.SIGKILL if args.kill else signal.SIGTERM)
            host.wait()
            before = _actions(db)
            host = _start_host(db, port)
            listening = time.monotonic()
            stall = _wait_for_actions(db, before + 1, bots, 120)
            restarts.append({"restart_s": round(listening - stopped, 3),
                             "stall_s": round(stall, 3)})
        out, err = bots.communicate(timeout=600)
        finished = bots.returncode == 0
    finally:
        if bots is not None and bots.poll() is None:
            bots.kill()
        host.kill()
        host.wait()
    stalls = [r["stall_s"] for r in restarts]
    return {"game": args.game, "seats": args.seats, "strategy": args.strategy,
            "signal": "SIGKILL" if args.kill else "SIGTERM", "finished": finished,
            "restarts": restarts, "stall_max_s": max(stalls),
            "stall_median_s": statistics.median(stalls)}


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--game", default="manila", help="the game the bots play")
    parser.add_argument("--seats", type=int, default=4, help="seats, all of them bots")
    parser.add_argument("--strategy", default="greedy", choices=["random", "greedy", "mcts"],
                        help="how the bots play")
    parser.add_argument("--restarts", type=int, default=3, help="host restarts in one game")
    parser.add_argument("--every", type=int, default=15,
                        help="actions played between two restarts")
    parser.add_argument("--kill", action="store_true",
                        help="SIGKILL the host instead of SIGTERM (no shutting_down)")
    parser.add_argument("--seed", type=int, default=1, help="table and bot seed")
    print(json.dumps(run(parser.parse_args()), indent=2))


if __name__ == "__main__":
    main()
