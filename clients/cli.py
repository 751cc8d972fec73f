"""The ``lantable`` command: the front door to the host, the bots and the games.

This module is the composition root: it is the one place in ``clients/`` that
imports ``lantable.host`` (to run a peer, a demo, or read a journal); the client
library itself speaks only the protocol (docs/decisions.md).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any, Final

import trio

from lantable.plugins import load_registry

from .bots import STRATEGIES, make_bot
from .client import ClientError, Disconnected, RequestError, open_client
from .runner import play_seat
from .terminal import TerminalDecider, format_event, show_update

LOGGER = logging.getLogger("lantable")

DEFAULT_PORT: Final = 47800
DEFAULT_WEB_PORT: Final = 47880  # lantable.web.DEFAULT_WEB_PORT; tests/web checks they agree
RECONNECT_FOR: Final = 120.0  # seconds a bot keeps trying to get back to its host


def _default_db() -> str:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return str(base / "lantable" / "journal.sqlite")


def _address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    """The exceptions inside a (possibly nested) exception group."""
    out: list[BaseException] = []
    for exc in group.exceptions:
        out.extend(_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return out


def _print_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


# ---------------------------------------------------------------------------
# games, simulate, replay: no network
# ---------------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    registry = load_registry()
    infos = [g.info for g in registry.games.values()]
    if args.json:
        _print_json({"games": infos, "errors": [str(e) for e in registry.errors]})
        return 0
    for info in infos:
        seats = f"{info['min_seats']}-{info['max_seats']} seats"
        print(f"{info['id']:18} {info['title']}  ({seats}, v{info['version']})")
        for key, spec in info["options"].items():
            choices = f" choices {spec['choices']}" if "choices" in spec else ""
            default = json.dumps(spec["default"])
            print(f"    --option {key}={default}{choices}  {spec.get('help', '')}")
    for err in registry.errors:
        print(f"not loaded: {err}", file=sys.stderr)
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from .selfplay import simulate

    registry = load_registry()
    game = registry[args.game]
    strategies = args.strategy.split(",")
    bot_options = {"time_budget": args.budget} if args.budget else {}
    result = simulate(game, games=args.games, players=args.players, strategies=strategies,
                      seed=args.seed, options=dict(args.option), bot_options=bot_options)
    report = result.report(game, args.players, strategies, args.seed)
    if args.json:
        _print_json(report)
    else:
        print(f"{report['games']} games of {game.id} with {args.players} players "
              f"({','.join(strategies)})")
        print(f"  {report['games_per_s']} games/s, {report['actions_per_s']} actions/s, "
              f"mean length {report['mean_length']} actions")
        print(f"  win rate by seat: {report['win_rate_by_seat']}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from lantable.host.journal import Journal

    if not Path(args.db).exists():
        print(f"no journal at {args.db}", file=sys.stderr)
        return 2
    journal = Journal(args.db)
    record = journal.table(args.table)
    if record is None:
        print(f"no table {args.table!r} in {args.db}; tables: {[t.id for t in journal.tables()]}",
              file=sys.stderr)
        return 2
    actions = journal.actions(args.table)
    if args.json:
        _print_json({
            "table": record.id, "game": record.game, "seats": record.seats, "seed": record.seed,
            "options": record.options, "status": record.status, "names": record.names,
            "actions": [{"seq": a.seq, "seat": a.seat, "action": a.action, "events": a.events}
                        for a in actions],
        })
        return 0
    names = {s: record.names.get(s, "?") for s in range(record.seats)}
    print(f"table {record.id}: {record.game} v{record.game_version}, {record.seats} seats, "
          f"seed {record.seed}, {record.status}")
    print(f"options: {json.dumps(record.options)}")
    print("seats: " + ", ".join(f"{s}={n}" for s, n in names.items()))
    for a in actions:
        act = json.dumps(a.action, ensure_ascii=False)
        print(f"#{a.seq:<5} seat {a.seat} ({names[a.seat]}): {act}")
        for event in a.events:
            private = f" [to {event['to']}]" if "to" in event else ""
            print(f"         {format_event(event)}{private}")
    return 0


# ---------------------------------------------------------------------------
# host, new, bot, play, demo: over TCP
# ---------------------------------------------------------------------------


def _discovery_for(args: argparse.Namespace, web_port: int | None = None) -> Any:
    if args.no_discovery:
        return None
    try:
        from lantable.host.discovery import make_peer_advertiser
    except ImportError:
        LOGGER.warning("discovery is not available; running without it")
        return None
    return make_peer_advertiser(interfaces=args.interface or None, web_port=web_port)


async def _start_web(nursery: trio.Nursery, peer: Any, args: argparse.Namespace,
                     listeners: list[Any]) -> None:
    """Serve the browser app next to the peer and print where to open it."""
    from lantable.web import serve_web
    from lantable.web.join import join_url, lan_address, qr_text

    browse = None
    if not args.no_discovery:
        from lantable.host.discovery import open_browser as browse
    web = await nursery.start(lambda task_status: serve_web(
        peer=peer, listeners=listeners, browse_lan=browse, interfaces=args.interface or None,
        task_status=task_status))
    url = join_url(lan_address(args.bind), web.port)
    print(f"play in a browser: open {url}  (or scan:)", flush=True)
    if not args.no_qr:
        print(qr_text(url), end="", flush=True)


def cmd_host(args: argparse.Namespace) -> int:
    from lantable.host.journal import JournalFailed
    from lantable.host.peer import serve_peer

    registry = load_registry()
    Path(args.db).parent.mkdir(parents=True, exist_ok=True)

    async def main() -> None:
        web_listeners = None
        if not args.no_web:  # opened first, so that discovery advertises the web port
            from lantable.web import open_web_listeners
            web_listeners = await open_web_listeners(args.bind, args.web_port)
        web_port = web_listeners[0].socket.getsockname()[1] if web_listeners else None
        async with trio.open_nursery() as nursery:
            running = await nursery.start(lambda task_status: serve_peer(
                registry=registry, db=args.db, name=args.name, bind=args.bind, port=args.port,
                discovery=_discovery_for(args, web_port), task_status=task_status))
            addrs = ", ".join(f"{h}:{p}" for h, p in running.addresses)
            print(f"lantable peer {running.peer.name} ({running.peer.peer_id}) "
                  f"listening on {addrs}; journal {args.db}", flush=True)
            if web_listeners:
                await _start_web(nursery, running.peer, args, web_listeners)

    failures: list[BaseException] = []
    try:
        trio.run(main)
    except* KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    # A bad --interface, a port in use, a full disk.
    except* (ValueError, OSError, JournalFailed) as group:
        failures.extend(_leaves(group))
    for exc in failures:
        print(f"error: {exc}", file=sys.stderr)
    return 1 if failures else 0


def _resolve_peer(args: argparse.Namespace) -> tuple[str, int] | None:
    """--connect, else --discover (a peer on the LAN), else the local peer."""
    if args.connect:
        return args.connect
    if not args.discover:
        return "127.0.0.1", DEFAULT_PORT
    from .lan import find_peer

    found = trio.run(lambda: find_peer(name=args.peer, timeout=args.timeout,
                                       interfaces=args.interface))
    if found is None:
        print(f"no peer{' named ' + repr(args.peer) if args.peer else ''} found on the LAN "
              f"within {args.timeout} s", file=sys.stderr)
    return found


def _resolve_table(args: argparse.Namespace) -> tuple[str, int, str] | None:
    """--connect and --table, or --discover: a waiting table with a free seat on the LAN."""
    if args.discover:
        from .lan import find_free_table

        found = trio.run(lambda: find_free_table(game=args.game, timeout=args.timeout,
                                                 interfaces=args.interface))
        if found is None:
            what = f"{args.game} table" if args.game else "table"
            print(f"no {what} with a free seat found on the LAN within {args.timeout} s",
                  file=sys.stderr)
        return found
    if not args.connect or not args.table:
        print("give --connect HOST:PORT and --table ID, or --discover", file=sys.stderr)
        return None
    return (*args.connect, args.table)


def cmd_peers(args: argparse.Namespace) -> int:
    from .lan import fetch_tables, format_peers, lan_peers

    if not args.watch:
        peers = trio.run(lambda: lan_peers(args.timeout, args.interface))
        if args.json:
            _print_json({"peers": peers})
        else:
            print(format_peers(peers))
        return 0

    async def watch() -> None:
        from lantable.host.discovery import open_browser

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


def cmd_new(args: argparse.Namespace) -> int:
    found = _resolve_peer(args)
    if found is None:
        return 1
    host, port = found

    async def main() -> str:
        async with open_client(host, port, name="lantable-new") as client:
            return await client.create(args.game, args.seats, dict(args.option), args.seed)

    try:
        table = trio.run(main)
    except OSError as exc:
        print(f"error: cannot reach a peer at {host}:{port}: {exc}", file=sys.stderr)
        return 1
    except RequestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        _print_json({"table": table, "game": args.game, "seats": args.seats,
                     "host": host, "port": port})
    else:
        print(table)
    return 0


async def _game_of(client: Any, table: str) -> str:
    """The game id of ``table``: from the welcome's list, else asked again."""
    for tables in (client.welcome.tables, await client.list_tables()):
        for t in tables:
            if t["id"] == table:
                return t["game"]
    raise RequestError("no_such_table", f"no table {table!r} on this peer")


def decision_rng(seed: int, seat: int, seq: int) -> random.Random:
    """A bot's randomness for one decision: a function of (seed, seat, update number),
    so a bot that reconnects after a host restart decides exactly as it would have."""
    return random.Random(f"{seed}:{seat}:{seq}")


async def run_bot(host: str, port: int, table: str, strategy: str, seed: int, *, name: str,
                  bot_options: dict[str, Any] | None = None,
                  log: Any = None) -> tuple[int, dict[str, Any]]:
    """One bot: take a free seat and play to the end, reconnecting with its token.

    Returns:
        (seat, final scores).
    """
    registry = load_registry()
    token: str | None = None
    seat = -1
    deadline = None
    while True:
        try:
            async with open_client(host, port, name=name, token=token) as client:
                deadline = None
                if token is None:
                    joined = await client.join(table)
                    token, seat = joined.token, joined.seat
                game = registry[await _game_of(client, table)]
                bot = make_bot(strategy, game, **(bot_options or {}))

                async def decide(update: Any, legal: list[Any], bot: Any = bot,
                                 seat: int = seat) -> Any:
                    rng = decision_rng(seed, seat, update.seq)
                    return bot.choose(update.view or {}, seat, legal, rng)

                scores = await play_seat(client, table, seat, decide, on_update=log)
                if scores is not None:
                    return seat, scores
        except RequestError:
            raise
        except (OSError, ClientError, trio.BrokenResourceError, trio.TooSlowError) as exc:
            LOGGER.info("bot %s: connection lost (%s); reconnecting", name, exc)
        if token is None:
            raise Disconnected(f"could not join table {table} at {host}:{port}")
        now = trio.current_time()
        deadline = deadline or now + RECONNECT_FOR
        if now > deadline:
            raise Disconnected(
                f"bot {name}: host {host}:{port} did not come back in {RECONNECT_FOR} s")
        await trio.sleep(0.2)


def cmd_bot(args: argparse.Namespace) -> int:
    found = _resolve_table(args)
    if found is None:
        return 1
    host, port, args.table = found
    results: list[tuple[int, dict[str, Any]]] = []

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            for i in range(args.count):
                async def one(i: int = i) -> None:
                    results.append(await run_bot(host, port, args.table, args.strategy, args.seed,
                                                 name=f"{args.strategy}-bot-{i}"))
                nursery.start_soon(one)

    failures: list[BaseException] = []
    try:
        trio.run(main)
    except* (RequestError, Disconnected) as group:
        failures.extend(_leaves(group))
    for exc in failures:
        print(f"error: {exc}", file=sys.stderr)
    if failures:
        return 1
    results.sort()
    out = {"table": args.table, "seats": [s for s, _ in results],
           "scores": results[0][1] if results else None}
    if args.json:
        _print_json(out)
    else:
        print(f"seats {out['seats']} done; final: {json.dumps(out['scores'])}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    found = _resolve_table(args)
    if found is None:
        return 1
    host, port, args.table = found
    registry = load_registry()

    async def main() -> dict[str, Any] | None:
        async with open_client(host, port, name=args.name) as client:
            joined = await client.join(args.table, args.seat)
            game_id = await _game_of(client, args.table)
            print(f"you are seat {joined.seat} at table {args.table} ({game_id}); "
                  f"resume token {joined.token}")
            decide = TerminalDecider(registry[game_id], joined.seat)
            return await play_seat(client, args.table, joined.seat, decide, on_update=show_update)

    try:
        scores = trio.run(main)
    except (RequestError, EOFError, KeyboardInterrupt) as exc:
        print(f"\n{exc}", file=sys.stderr)
        return 1
    print(f"game over: {json.dumps(scores)}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from lantable.host.peer import serve_peer

    registry = load_registry()
    if args.game not in registry:
        print(f"no game {args.game!r}; installed: {sorted(registry.games)}", file=sys.stderr)
        return 2
    game = registry[args.game]
    players = args.players or game.info["min_seats"]
    db = args.db or os.path.join(tempfile.mkdtemp(prefix="lantable-demo-"), "journal.sqlite")
    bot_options = {"iterations": 200} if args.strategy == "mcts" else {}

    async def main() -> tuple[str, dict[str, Any]]:
        async with trio.open_nursery() as nursery:
            running = await nursery.start(lambda task_status: serve_peer(
                registry=registry, db=db, name="demo", bind="127.0.0.1", port=0,
                task_status=task_status))
            port = running.port
            print(f"demo: {game.info['title']} with {players} {args.strategy} bots, "
                  f"seed {args.seed}, host 127.0.0.1:{port}, journal {db}", flush=True)
            async with open_client("127.0.0.1", port, name="demo") as client:
                table = await client.create(args.game, players, dict(args.option), args.seed)
                await client.join(table, spectate=True)
                results: list[dict[str, Any]] = []
                async with trio.open_nursery() as bots:
                    for i in range(players):
                        async def one(i: int = i) -> None:
                            _, scores = await run_bot("127.0.0.1", port, table, args.strategy,
                                                      args.seed, name=f"bot-{i}",
                                                      bot_options=bot_options)
                            results.append(scores)
                        bots.start_soon(one)
                    async for update in client.updates(table):
                        if not args.quiet:
                            for event in update.events or ():
                                print(f"  [{update.seq}] {format_event(event)}"[:160])
                        if update.status == "finished":
                            break
            nursery.cancel_scope.cancel()
            return table, update.scores or results[0]

    table, scores = trio.run(main)
    if args.json:
        _print_json({"table": table, "db": db, "seed": args.seed, **scores})
        return 0
    print(f"final scores: {json.dumps(scores['scores'])}")
    print(f"ranking (place by seat): {json.dumps(scores['rank'])}")
    print(f"replay with: lantable replay --db {db} --table {table}")
    return 0


# ---------------------------------------------------------------------------


def _lan_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--discover", action="store_true", help="find it on the LAN (zeroconf)")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to look with --discover")
    p.add_argument("--interface", action="append", metavar="IF",
                   help="look only on IF (repeatable)")


def _table_options(p: argparse.ArgumentParser) -> None:
    """Which table: --connect HOST:PORT --table ID, or --discover [--game G]."""
    p.add_argument("--connect", type=_address, metavar="HOST:PORT")
    p.add_argument("--table")
    _lan_options(p)
    p.add_argument("--game", help="with --discover: only a table of this game")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lantable", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="more logging (-vv: debug)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("games", help="list installed games, seats and options")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("host", help="run a peer until Ctrl-C")
    p.add_argument("--name", help="peer name shown to others (default: host name)")
    p.add_argument("--bind", default=None,
                   help="address to listen on (default: all, IPv4 and IPv6)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"TCP port (default {DEFAULT_PORT}; 0 = any)")
    p.add_argument("--db", default=_default_db(), help="journal file (default: %(default)s)")
    p.add_argument("--no-discovery", action="store_true", help="do not advertise on the LAN")
    p.add_argument("--interface", action="append", metavar="IF",
                   help="advertise only on this interface (repeatable)")
    p.add_argument("--web-port", type=int, default=DEFAULT_WEB_PORT,
                   help=f"port of the browser app and its WebSocket (default {DEFAULT_WEB_PORT};"
                        " 0 = any)")
    p.add_argument("--no-web", action="store_true", help="do not serve the browser app")
    p.add_argument("--no-qr", action="store_true", help="print the join URL without a QR code")
    p.set_defaults(func=cmd_host)

    p = sub.add_parser("new", help="open a table on a peer and print its id")
    p.add_argument("game")
    p.add_argument("--connect", type=_address, metavar="HOST:PORT",
                   help=f"the peer (default: --discover, or the local peer on port {DEFAULT_PORT})")
    _lan_options(p)
    p.add_argument("--peer", help="with --discover: the peer of this name")
    p.add_argument("--seats", type=int, required=True)
    p.add_argument("--option", type=_option, action="append", default=[], metavar="K=V")
    p.add_argument("--seed", type=int, default=None, help="fixed seed (default: random)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("bot", help="bots take free seats at a table and play to the end")
    _table_options(p)
    p.add_argument("--strategy", choices=STRATEGIES, default="random")
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bot)

    p = sub.add_parser("play", help="play a seat from this terminal")
    _table_options(p)
    p.add_argument("--seat", type=int, default=None)
    p.add_argument("--name", default=os.environ.get("USER", "player"))
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("peers", help="peers on the LAN and their tables")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to listen (default 3)")
    p.add_argument("--watch", action="store_true",
                   help="keep listening; print peers as they come and go")
    p.add_argument("--json", action="store_true")
    p.add_argument("--interface", action="append", metavar="IF",
                   help="browse only on IF (repeatable)")
    p.set_defaults(func=cmd_peers)

    p = sub.add_parser("demo", help="a host and bots on this machine, over loopback TCP")
    p.add_argument("--game", default="manila")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--strategy", choices=STRATEGIES, default="greedy")
    p.add_argument("--option", type=_option, action="append", default=[], metavar="K=V")
    p.add_argument("--db", default=None, help="journal file (default: a new temporary one)")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("simulate", help="in-process self-play, no network")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--strategy", default="random",
                   help="a strategy, or a comma list by seat (e.g. mcts,random,random,random)")
    p.add_argument("--budget", type=float, default=None, help="mcts seconds per decision")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", type=_option, action="append", default=[], metavar="K=V")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help="print a table's full event log from a journal")
    p.add_argument("--db", default=_default_db())
    p.add_argument("--table", required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    level = logging.WARNING - 10 * args.verbose
    if args.command == "host":
        level = min(level, logging.INFO)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except BrokenPipeError:
        # The reader went away (`lantable replay ... | head`): stop quietly. Point stdout
        # at devnull so that the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
