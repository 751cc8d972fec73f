"""Long fuzz and exhaustion run against a real ``lantable host``; prints JSON.

The same tools as the bounded suite (``tests/host/fuzzing.py``), at scale: structured
frames from the message schemas and raw mutations (tens of thousands of frames),
connection churn and floods past ``max_connections`` (thousands of connections),
tables opened and played to the end (tens of thousands of tables), spectators,
half-sent frames and clients that never read, while bot games play alongside. The
host runs with its default limits (timeouts shortened so that the floods end in
minutes; the flags used are in the output).

Measured: frames, connections and tables; the host's RSS before, after each phase and
at its peak (VmHWM); errors by code; protocol promises broken (``failures``); tracebacks
in the host's log; whether the host still answers and the bot games finished.

With ``--web`` it runs the web port instead (issue 25), with the tools of
``tests/host/webfuzzing.py``: fuzzed HTTP requests (paths, methods, headers, garbage,
kept alive), fuzzed WebSocket sessions (the protocol's messages whole and in fragments,
pings, pongs, text), a ping flood, floods of idle and slow HTTP connections from several
addresses past the connection limits, and the DNS-rebinding upgrade, while bot games
play over TCP.

Usage: python bench/fuzz.py [--examples N] [--tables N] [--churn N] [--seed S]
       python bench/fuzz.py --web [--http N] [--examples N] [--flood N] [--seed S]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("lantable_fuzzing",
                                               ROOT / "tests" / "host" / "fuzzing.py")
fuzzing = importlib.util.module_from_spec(_spec)
sys.modules["lantable_fuzzing"] = fuzzing
_spec.loader.exec_module(fuzzing)
sys.path.insert(0, str(ROOT))
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.host import webfuzzing  # noqa: E402

SPECTATORS = 1000
# Default limits but for: shorter timeouts (the floods end in minutes) and room for the
# issue's 1,000 spectators at one table.
FLAGS = ["--idle-timeout", "60", "--frame-timeout", "5", "--max-spectators", str(SPECTATORS),
         "--max-connections", "1500"]
MIB = 1 << 20


def _peak(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def structured(host, counts, known, examples: int, seed: int, raw: bool) -> None:
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), phases=[
                  __import__("hypothesis").Phase.generate])
    @given(messages=st.lists(fuzzing.client_message(), min_size=1, max_size=12),
           seed=st.integers(0, 2**32))
    def run(messages, seed):
        session = fuzzing.Session(host.port, counts, random.Random(seed), known)
        if seed % 3 == 0:
            session.opening()
        for msg in messages[:-1] if raw else messages:
            session.send(msg)
        if raw:
            session.send(messages[-1], raw=True)
        session.close()

    run()


def churn(port: int, count: int, counts) -> None:
    """``count`` short connections: hello, ping, bye."""
    for i in range(count):
        w = fuzzing.Wire(port)
        counts.connections += 1
        w.send(fuzzing.frame({"t": "hello", "proto": 1, "name": f"churn{i % 50}"}))
        w.next()
        w.send(fuzzing.frame({"t": "ping", "id": 1}) + fuzzing.frame({"t": "bye"}))
        counts.frames += 3
        try:
            while True:
                w.next()
        except fuzzing.Closed:
            pass
        w.close()


def play_tables(port: int, count: int, counts) -> Counter:
    """Open ``count`` one-seat race tables and finish each with one action (pipelined,
    25 at a time, under the per-client limit of waiting tables): every table ends up
    finished and out of the lobby."""
    seen: Counter = Counter()
    # From an address of its own: the fuzzer's abandoned waiting tables count against
    # 127.0.0.1's limit of waiting tables.
    w = fuzzing.welcomed(port, "tabler", timeout=60, source="127.0.0.20")
    counts.connections += 1
    frame = fuzzing.frame
    for start in range(0, count, 25):
        n = min(25, count - start)
        w.send(b"".join(frame({"t": "create", "id": start + i, "game": "race", "seats": 1,
                               "options": {"target": 1, "max_step": 1}}) for i in range(n)))
        ids = []
        while len(ids) < n:
            m = w.next()
            if m["t"] == "created":
                ids.append(m["table"])
            elif m["t"] == "error":
                seen[m["code"]] += 1
                n -= 1
        w.send(b"".join(frame({"t": "join", "id": 1, "table": t}) +
                        frame({"t": "act", "id": 2, "table": t,
                               "action": {"type": "step", "n": 1}}) for t in ids))
        done = 0
        while done < len(ids):
            m = w.next()
            if m["t"] == "accepted":
                done += 1
            elif m["t"] == "error":
                seen[m["code"]] += 1
                done += 1
        counts.frames += n + 2 * len(ids)
        counts.tables_created += len(ids)
        seen["finished"] += len(ids)
    w.close()
    return seen


def lean_games(port: int, games: int, target: int) -> tuple[list, list[threading.Thread]]:
    """Bot games of two lean seat bots each, in threads, alongside everything else."""
    w = fuzzing.Wire(port)
    w.send(fuzzing.frame({"t": "hello", "proto": 1, "name": "bench-maker"}))
    w.next()
    bots = []
    for i in range(games):
        w.send(fuzzing.frame({"t": "create", "id": i, "game": "race", "seats": 2, "seed": i,
                              "options": {"target": target, "max_step": 3}}))
        table = w.next()["table"]
        bots += [fuzzing.SeatBot(port, table, seat, i) for seat in (0, 1)]
    w.close()
    deadline = time.monotonic() + 3600
    threads = [threading.Thread(target=b.run, args=(deadline,), daemon=True) for b in bots]
    for t in threads:
        t.start()
    return bots, threads


def web_main(args: argparse.Namespace) -> None:
    """The web port's run (``--web``)."""
    web = fuzzing.free_port()
    flags = [*FLAGS, "--web-port", str(web)]
    tmp = tempfile.mkdtemp(prefix="lantable-webfuzz-")
    host = fuzzing.Host(str(Path(tmp) / "journal.sqlite"), *flags)
    counts = fuzzing.Counts()
    out: dict = {"flags": flags, "args": vars(args), "phases": {}, "rss_before": host.rss()}
    bot_games, threads = lean_games(host.port, 4, 400)
    started = time.monotonic()
    rng = random.Random(args.seed)

    def phase(name: str, fn, *a) -> None:
        t0 = time.monotonic()
        result = fn(*a)
        out["phases"][name] = {"seconds": round(time.monotonic() - t0, 1),
                               "rss_after": host.rss(),
                               "result": {str(k): v for k, v in result.items()}
                               if isinstance(result, Counter) else None}
        print(f"{name}: {out['phases'][name]}", file=sys.stderr, flush=True)

    phase("http_requests", webfuzzing.http_requests, web, args.http, counts, rng)

    def sessions() -> Counter:
        seen: Counter = Counter()

        @settings(max_examples=args.examples, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck),
                  phases=[__import__("hypothesis").Phase.generate])
        @given(messages=webfuzzing.websocket_messages(), seed=st.integers(0, 2**32))
        def run(messages, seed):
            seen.update(webfuzzing.websocket_session(web, messages, counts,
                                                     random.Random(seed)))

        run()
        return seen

    phase("websocket_sessions", sessions)
    phase("ping_flood", webfuzzing.ping_flood, web, 50_000, counts)

    def idle() -> Counter:
        def hold() -> None:
            out["rss_idle_http_held"] = host.rss()

        counts.connections += args.flood
        return webfuzzing.flood_http(web, args.flood, spread=8, hold=hold)

    phase("idle_http_flood", idle)

    def slow() -> Counter:
        counts.connections += args.flood // 4
        return webfuzzing.flood_http(web, args.flood // 4, spread=8, slow=True,
                                     hold=lambda: time.sleep(11))

    phase("slow_http_heads", slow)
    phase("rebinding", webfuzzing.rebinding, web)
    for t in threads:
        t.join(timeout=600)
    time.sleep(12)  # freed memory goes back (TRIM_EVERY)
    out["rss_settled"] = host.rss()
    alive = host.alive()
    out.update({
        "seconds": round(time.monotonic() - started, 1),
        "requests_and_messages": counts.frames, "connections": counts.connections,
        "rss_after": host.rss(), "rss_peak": _peak(host.proc.pid),
        "errors_by_code": dict(counts.errors.most_common()),
        "replies_by_type": dict(counts.replies.most_common()),
        "failures": counts.failures, "host_alive": alive,
        "bot_games_finished": sum(1 for b in bot_games if b.scores is not None) // 2,
        "bot_games": len(bot_games) // 2,
    })
    out["exit_code"] = host.stop()
    out["tracebacks"] = host.tracebacks()[:5]
    out["traceback_count"] = len(host.tracebacks())
    host.cleanup()
    for key in [k for k in out if k.startswith("rss")]:
        out[key + "_mib"] = round(out[key] / MIB, 1)
    print(json.dumps(out, indent=1, default=str))


def main() -> None:
    ap = bench_parser(__doc__)
    ap.add_argument("--examples", type=int, default=4000, help="structured fuzz examples")
    ap.add_argument("--raw", type=int, default=2000, help="raw mutation examples")
    ap.add_argument("--tables", type=int, default=20000, help="tables opened and finished")
    ap.add_argument("--churn", type=int, default=3000, help="short connections")
    ap.add_argument("--flood", type=int, default=1700, help="connections held at once")
    ap.add_argument("--seed", type=int, default=1, help="the fuzzer's seed")
    ap.add_argument("--web", action="store_true", help="fuzz the web port instead")
    ap.add_argument("--http", type=int, default=20000, help="HTTP requests (--web)")
    args = ap.parse_args()
    if args.web:
        web_main(args)
        return

    tmp = tempfile.mkdtemp(prefix="lantable-fuzz-")
    host = fuzzing.Host(str(Path(tmp) / "journal.sqlite"), *FLAGS)
    counts = fuzzing.Counts()
    known: dict = {}
    out: dict = {"flags": FLAGS, "args": vars(args), "phases": {}}
    rss0 = host.rss()
    out["rss_before"] = rss0
    bot_games, threads = lean_games(host.port, 4, 400)
    started = time.monotonic()

    def phase(name: str, fn, *a) -> None:
        t0 = time.monotonic()
        result = fn(*a)
        out["phases"][name] = {"seconds": round(time.monotonic() - t0, 1),
                               "rss_after": host.rss(),
                               "result": dict(result) if isinstance(result, Counter) else None}
        print(f"{name}: {out['phases'][name]}", file=sys.stderr, flush=True)

    phase("structured", structured, host, counts, known, args.examples, args.seed, False)
    phase("raw_mutations", structured, host, counts, known, args.raw, args.seed, True)
    phase("churn", churn, host.port, args.churn, counts)

    def flood() -> Counter:
        seen = fuzzing.flood_connections(host.port, args.flood, spread=8)
        counts.connections += args.flood
        return seen

    phase("connection_flood", flood)
    phase("tables", play_tables, host.port, args.tables, counts)

    def spectators() -> Counter:
        """The issue's crowd: 1,000 spectators (and some refused) at a Kaiser's Pirates
        table that two bots play, reading nothing after they joined."""
        w = fuzzing.welcomed(host.port, "stage", source="127.0.0.21")
        w.send(fuzzing.frame({"t": "create", "id": 1, "game": "kaisers-pirates", "seats": 2,
                              "seed": 3}))
        table = w.next()["table"]
        w.close()
        deadline = time.monotonic() + 600
        players = [fuzzing.SeatBot(host.port, table, seat, 3, pause=0.05) for seat in (0, 1)]
        for bot in players:
            threading.Thread(target=bot.run, args=(time.monotonic() + 600,),
                             daemon=True).start()

        def hold() -> None:
            time.sleep(10)  # the game goes on; every update goes to every spectator
            out["rss_spectators_held"] = host.rss()
            out["spectated_actions_while_held"] = sum(b.actions for b in players)

        seen = fuzzing.flood_spectators(host.port, table, SPECTATORS + 100, spread=8,
                                        hold=hold)
        counts.connections += SPECTATORS + 101
        time.sleep(12)  # they left: freed memory goes back (TRIM_EVERY)
        out["rss_spectators_left"] = host.rss()
        for bot in players:  # the game goes on to its end
            while bot.scores is None and bot.error is None and time.monotonic() < deadline:
                time.sleep(0.2)
        seen["game_finished"] = sum(b.scores is not None for b in players) // 2
        seen["game_actions"] = sum(b.actions for b in players)
        return seen

    phase("spectators", spectators)

    def partial() -> Counter:
        wires, seen = fuzzing.flood_partial_frames(host.port, args.flood, spread=8)
        counts.connections += args.flood
        out["rss_partial_held"] = host.rss()
        for w in wires:
            try:
                seen[w.next().get("code")] += 1
            except (fuzzing.Closed, TimeoutError) as exc:
                seen[type(exc).__name__] += 1
            w.close()
        return seen

    phase("partial_frames", partial)

    def unread() -> Counter:
        socks = fuzzing.flood_unread(host.port, 20, 5000)
        counts.connections += 20
        time.sleep(5)
        out["rss_unread_held"] = host.rss()
        for s in socks:
            s.close()
        return Counter(sockets=len(socks))

    phase("unread", unread)

    for t in threads:
        t.join(timeout=600)
    time.sleep(12)  # every flood's connections closed: freed memory goes back (TRIM_EVERY)
    out["rss_settled"] = host.rss()
    alive = host.alive()
    answering = False
    if alive:
        try:
            w = fuzzing.welcomed(host.port, "last")
            answering = True
            w.close()
        except (OSError, RuntimeError, fuzzing.Closed, TimeoutError):
            pass
    out.update({
        "seconds": round(time.monotonic() - started, 1),
        "frames": counts.frames, "connections": counts.connections,
        "tables": counts.tables_created,
        "rss_after": host.rss(), "rss_peak": _peak(host.proc.pid),
        "errors_by_code": dict(counts.errors.most_common()),
        "replies_by_type": dict(counts.replies.most_common()),
        "failures": counts.failures,
        "host_alive": alive, "host_answering": answering,
        "bot_games_finished": sum(1 for b in bot_games if b.scores is not None) // 2,
        "bot_games": len(bot_games) // 2,
    })
    out["exit_code"] = host.stop()
    out["tracebacks"] = host.tracebacks()[:5]
    out["traceback_count"] = len(host.tracebacks())
    host.cleanup()
    for key in [k for k in out if k.startswith("rss")]:
        out[key + "_mib"] = round(out[key] / MIB, 1)
    print(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    socket.setdefaulttimeout(60)
    main()
