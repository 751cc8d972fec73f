"""The lantable command: the front door to the host, the bots and the games.

This module is the composition root: it is the one place in ``clients/`` that
imports ``lantable.host`` (to run a peer, a demo, or read a journal); the client
library itself speaks only the protocol (docs/decisions.md).
"""

from __future__ import annotations

import argparse
import errno
import json
import logging
import os
import shutil
import socket
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any, Final, NoReturn

import trio

from lantable.plugins import load_registry

from .bots import STRATEGIES, make_bot
from .client import open_client
from .errors import CliError, explain, leaves
from .session import SeatPlan, hold_seat
from .session import decision_rng as decision_rng  # re-exported: bots decide by it
from .terminal import format_event
from .tokens import TokenStore, data_dir

LOGGER = logging.getLogger("lantable")

DEFAULT_PORT: Final = 47800
DEFAULT_WEB_PORT: Final = 47880  # lantable.web.DEFAULT_WEB_PORT; tests/web checks they agree


def _default_db() -> str:
    return str(data_dir() / "journal.sqlite")


def _registry_game(game_id: str) -> Any:
    registry = load_registry()
    if game_id not in registry:
        raise CliError(f"no game {game_id!r} is installed; installed: "
                       f"{', '.join(sorted(registry.games)) or 'none'} (see lantable games)")
    return registry[game_id]


def _check_strategy(game: Any, strategy: str) -> None:
    try:
        make_bot(strategy, game)
    except ValueError as exc:
        raise CliError(f"{exc}; use --strategy random") from None


def _bot_options(strategy: str, budget: float | None) -> dict[str, Any]:
    return {"time_budget": budget} if strategy == "mcts" and budget else {}


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
            print(f"    --option {key}={_option_text(spec['default'])}"
                  + (f"  (one of: {', '.join(_option_text(c) for c in spec['choices'])})"
                     if "choices" in spec else ""))
            if spec.get("help"):
                print(f"        {spec['help']}")
    for err in registry.errors:
        print(f"not loaded: {err}", file=sys.stderr)
    return 0


def _option_text(value: Any) -> str:
    """A value as ``--option KEY=VALUE`` takes it: strings bare, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def cmd_simulate(args: argparse.Namespace) -> int:
    from .selfplay import simulate

    game = _registry_game(args.game)
    strategies = args.strategy.split(",")
    for strategy in strategies:
        if strategy not in STRATEGIES:
            raise CliError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
        _check_strategy(game, strategy)
    lo, hi = game.info["min_seats"], game.info["max_seats"]
    if not lo <= args.players <= hi:
        raise CliError(f"{game.id} takes {lo}-{hi} players, not {args.players}")
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
        raise CliError(f"no journal at {args.db} (give the peer's journal with --db)")
    journal = Journal(args.db)
    record = journal.table(args.table)
    if record is None:
        known = ", ".join(t.id for t in journal.tables()) or "none"
        raise CliError(f"no table {args.table!r} in {args.db}; tables: {known}")
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
    from lantable.host.limits import Limits
    from lantable.host.peer import serve_until_signalled

    registry = load_registry()
    Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    limits = Limits(**{name: getattr(args, name) for name in Limits.__dataclass_fields__})

    async def main() -> None:
        web_listeners = None
        if not args.no_web:  # opened first, so that discovery advertises the web port
            from lantable.web import open_web_listeners
            try:
                web_listeners = await open_web_listeners(args.bind, args.web_port or
                                                         DEFAULT_WEB_PORT)
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE:
                    raise
                if args.web_port is not None:  # asked for: say so
                    raise CliError(f"web port {args.web_port} is already in use (another "
                                   f"lantable host?); choose another with --web-port, e.g. "
                                   f"--web-port {args.web_port + 1}, or turn the browser app "
                                   f"off with --no-web") from None
                # The default is taken (a second host on this machine): any free port
                # will do, since people open the URL printed below.
                web_listeners = await open_web_listeners(args.bind, 0)
        web_port = web_listeners[0].socket.getsockname()[1] if web_listeners else None
        async with trio.open_nursery() as nursery:

            async def peer(task_status: trio.TaskStatus[Any]) -> None:
                await serve_until_signalled(
                    registry=registry, db=args.db, name=args.name, bind=args.bind,
                    port=args.port, discovery=_discovery_for(args, web_port), limits=limits,
                    task_status=task_status)
                nursery.cancel_scope.cancel()  # the peer stopped: so does its web server

            running = await nursery.start(peer)
            addrs = ", ".join(f"{h}:{p}" for h, p in running.addresses)
            print(f"lantable peer {running.peer.name} ({running.peer.peer_id}) "
                  f"listening on {addrs}; journal {args.db}", flush=True)
            if web_listeners:
                await _start_web(nursery, running.peer, args, web_listeners)
        print("stopped", file=sys.stderr)

    try:
        trio.run(main)
    except* KeyboardInterrupt:  # a second Ctrl-C during the stop
        print("stopped", file=sys.stderr)
    # A bad --interface, a port in use, a full disk, a damaged journal: main() explains
    # them in one line (clients/errors.py).
    return 0


def _limit_flags(p: argparse.ArgumentParser) -> None:
    """One flag per host limit (docs/limits.md), named after it."""
    import dataclasses

    from lantable.host.limits import CODES, DEFAULT_LIMITS, HELP, flag

    group = p.add_argument_group("limits", "what clients may make this host hold "
                                 "(docs/limits.md)")
    for f in dataclasses.fields(DEFAULT_LIMITS):
        default = getattr(DEFAULT_LIMITS, f.name)
        code = CODES[f.name]
        group.add_argument(flag(f.name), dest=f.name, type=type(default), default=default,
                           metavar=type(default).__name__.upper(),
                           help=HELP[f.name] + (f"; error {code.value}" if code else ""))


def _resolve_peer(args: argparse.Namespace) -> tuple[str, int]:
    """--connect, else --discover (a peer on the LAN), else the local peer."""
    if args.connect:
        return args.connect
    if not args.discover:
        return "127.0.0.1", DEFAULT_PORT
    from .lan import find_peer

    found = trio.run(lambda: find_peer(name=args.peer, timeout=args.timeout,
                                       interfaces=args.interface))
    if found is None:
        raise CliError(f"no peer{' named ' + repr(args.peer) if args.peer else ''} found on "
                       f"the LAN within {args.timeout:g} s")
    return found


def _resolve_table(args: argparse.Namespace) -> tuple[str, int, str]:
    """--table [--connect HOST:PORT], or --discover: a waiting table with a free seat."""
    if args.discover:
        from .lan import find_free_table

        found = trio.run(lambda: find_free_table(game=args.game, timeout=args.timeout,
                                                 interfaces=args.interface))
        if found is None:
            what = f"{args.game} table" if args.game else "table"
            raise CliError(f"no {what} with a free seat found on the LAN within "
                           f"{args.timeout:g} s")
        return found
    if not args.table:
        raise CliError("which table? give --table ID (see lantable peers), or --discover")
    host, port = args.connect or ("127.0.0.1", DEFAULT_PORT)
    return host, port, args.table


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
    host, port = _resolve_peer(args)

    async def main() -> str:
        async with open_client(host, port, name="lantable-new") as client:
            return await client.create(args.game, args.seats, dict(args.option), args.seed,
                                       fair=_fair(args))

    table = trio.run(main)
    if args.json:
        _print_json({"table": table, "game": args.game, "seats": args.seats,
                     "host": host, "port": port})
    else:
        print(table)
    return 0


def _host_name() -> str:
    return socket.gethostname().split(".")[0] or "localhost"


def bot_name(strategy: str, index: int, where: str | None = None) -> str:
    """A bot's display name, unique across laptops: ``greedy-1@den``."""
    return f"{strategy}-{index}@{where or _host_name()}"


async def run_bot(host: str, port: int, table: str, strategy: str, seed: int, *, name: str,
                  seat: int | None = None, bot_options: dict[str, Any] | None = None,
                  store: TokenStore | None = None, quiet: bool = False,
                  ) -> tuple[int, dict[str, Any]]:
    """One bot: take a seat (``seat``, else the lowest free one; a seat whose token is
    remembered here is resumed, so a bot can take over a person's abandoned seat), say
    where it sat, and play to the end, reconnecting and resuming after any drop.

    Returns:
        (seat, final scores).
    """
    registry = load_registry()

    def make_decider(game_id: str, at: int | None) -> Any:
        bot = make_bot(strategy, registry[game_id], **(bot_options or {}))

        async def decide(update: Any, legal: list[Any]) -> Any:
            rng = decision_rng(seed, at if at is not None else -1, update.seq)
            return bot.choose(update.view or {}, at, legal, rng)

        return decide

    def notify(kind: str, text: str) -> None:
        if kind == "sat" and not quiet:
            print(text, flush=True)
        elif kind in ("lost", "back"):
            LOGGER.info("%s: %s", name, text)

    plan = SeatPlan(table=table, seat=seat, any_remembered=seat is not None)
    held = await hold_seat(host, port, plan, name=name, make_decider=make_decider,
                           store=store, notify=notify)
    assert held.seat is not None and held.scores is not None
    return held.seat, held.scores


def cmd_bot(args: argparse.Namespace) -> int:
    host, port, args.table = _resolve_table(args)
    if args.seat is not None and args.count != 1:
        raise CliError("--seat takes one seat: use it with --count 1")
    results: list[tuple[int, dict[str, Any]]] = []
    store = TokenStore()
    options = _bot_options(args.strategy, args.budget)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            for i in range(args.count):
                async def one(i: int = i) -> None:
                    results.append(await run_bot(
                        host, port, args.table, args.strategy, args.seed,
                        name=args.name or bot_name(args.strategy, i + 1), seat=args.seat,
                        bot_options=options, store=store, quiet=args.json))
                nursery.start_soon(one)

    trio.run(main)
    results.sort()
    out = {"table": args.table, "seats": [s for s, _ in results],
           "scores": results[0][1] if results else None}
    if args.json:
        _print_json(out)
    else:
        print(f"table {args.table} finished; seats {out['seats']}; "
              f"final scores {out['scores']['scores'] if out['scores'] else None}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from .screen import Screen, result_line
    from .terminal import TerminalDecider

    host, port, args.table = _resolve_table(args)
    registry = load_registry()
    console = Console()
    screens: list[Screen] = []
    store = TokenStore()

    def make_decider(game_id: str, seat: int | None) -> Any:
        if game_id not in registry:
            raise CliError(f"table {args.table} plays {game_id!r}, which is not installed here "
                           f"(installed: {', '.join(sorted(registry.games))})")
        if screens and screens[0].seat == seat and screens[0].game.id == game_id:
            return TerminalDecider(screens[0])  # back after a drop: keep the events seen
        screen = Screen(registry[game_id], seat, console)
        screen.notice = sat[0] if sat else ""
        screens[:] = [screen]
        return TerminalDecider(screen)

    def on_update(update: Any) -> None:
        if screens:
            screens[0].on_update(update)

    sat: list[str] = []

    def notify(kind: str, text: str) -> None:
        if kind == "sat":
            sat[:] = [text]
        elif screens:
            screens[0].say({"refused": "Refused: "}.get(kind, "") + text)

    plan = SeatPlan(table=args.table, seat=args.seat, token=args.token, spectate=args.spectate,
                    any_remembered=True)
    try:
        held = trio.run(lambda: hold_seat(host, port, plan, name=args.name,
                                          make_decider=make_decider, store=store,
                                          on_update=on_update, notify=notify))
    except BaseException as exc:
        if not any(isinstance(leaf, KeyboardInterrupt) for leaf in leaves(exc)):
            raise
        how = (f"lantable play --connect {host}:{port} --table {plan.table}"
               + (" --spectate" if args.spectate else ""))
        print(f"\nYou left table {plan.table}; your seat waits for you. Come back with: {how}"
              if not args.spectate else f"\nStopped watching table {plan.table}.",
              file=sys.stderr)
        return 130
    if not screens and held.scores is not None:  # the game had ended before we sat down
        console.print(result_line(held.scores, held.seat, []))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from rich.console import Console

    from lantable.host.peer import serve_peer

    from .screen import result_line, seat_names

    game = _registry_game(args.game)
    registry = load_registry()
    lo, hi = game.info["min_seats"], game.info["max_seats"]
    players = args.players or lo
    if not lo <= players <= hi:
        raise CliError(f"{game.id} takes {lo}-{hi} players, not {players}")
    if args.strategy is None:  # greedy where the game allows it
        args.strategy = "greedy" if game.has_sampler else "random"
        if not game.has_sampler and not (args.quiet or args.json):
            print(f"{game.id} has no game_sample_state: the bots play random", file=sys.stderr)
    _check_strategy(game, args.strategy)
    temp = None if args.db else tempfile.mkdtemp(prefix="lantable-demo-")
    db = args.db or os.path.join(temp, "journal.sqlite")
    bot_options = _bot_options(args.strategy, args.budget)
    if args.strategy == "mcts" and not args.budget:
        bot_options = {"iterations": 200}
    console = Console(highlight=False)
    quiet = args.quiet or args.json
    names: list[str] = []

    def show_board(view: Any, title: str) -> None:
        console.rule(title)
        console.print(game.render_text(view, None, names))
        console.rule()

    async def main() -> tuple[str, dict[str, Any]]:
        async with trio.open_nursery() as nursery:
            running = await nursery.start(lambda task_status: serve_peer(
                registry=registry, db=db, name="demo", bind="127.0.0.1", port=0,
                task_status=task_status))
            port = running.port
            if not quiet:
                console.print(f"demo: {game.info['title']} with {players} {args.strategy} "
                              f"bots, seed {args.seed}, host 127.0.0.1:{port}")
            async with open_client("127.0.0.1", port, name="demo") as client:
                table = await client.create(args.game, players, dict(args.option), args.seed,
                                            fair=_fair(args))
                await client.join(table, spectate=True)
                results: list[dict[str, Any]] = []
                async with trio.open_nursery() as bots:
                    for i in range(players):
                        async def one(i: int = i) -> None:
                            _, scores = await run_bot(
                                "127.0.0.1", port, table, args.strategy, args.seed,
                                name=bot_name(args.strategy, i + 1), seat=i,
                                bot_options=bot_options, quiet=True)
                            results.append(scores)
                        bots.start_soon(one)
                    before: Any = None  # the board as it was before this update
                    async for update in client.updates(table):
                        names[:] = seat_names(update)
                        events = update.events or ()
                        if not quiet and before is not None and any(
                                e.get("type") in BOARD_BEFORE for e in events):
                            show_board(before, f"the table before move {update.seq}")
                        if not quiet and update.view is not None:
                            for event in events:
                                sentence = game.describe_event(update.view, None, event, names)
                                console.print(f"  {sentence}")
                        before = update.view
                        if update.status == "finished":
                            break
            nursery.cancel_scope.cancel()
            return table, update.scores or results[0]

    try:
        table, scores = trio.run(main)
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
    if args.json:
        _print_json({"table": table, "seed": args.seed, "names": names, **scores,
                     **({"db": db} if temp is None else {})})
        return 0
    if not quiet:
        console.rule("result")
    ranked = sorted(range(len(scores["scores"])), key=lambda s: scores["rank"][s])
    for s in ranked:
        console.print(f"  {_ordinal_place(scores['rank'][s])}  {names[s]:24} "
                      f"{scores['scores'][s]}")
    console.print(result_line(scores, None, names))
    if temp is None:
        console.print(f"replay with: lantable replay --db {db} --table {table}")
        if args.fair:
            console.print(f"check it with: lantable verify --db {db} --table {table}")
    return 0


# Events that close a stage of a game (a voyage, a round, the game): the demo shows the
# board as it stood just before them.
BOARD_BEFORE: Final = frozenset({"voyage", "round_ended", "game_over"})


def _ordinal_place(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def cmd_check(args: argparse.Namespace) -> int:
    from lantable.plugins.conformance import check_game

    game = _registry_game(args.game)
    failures = check_game(game, games=args.games, seed=args.seed,
                          progress=None if args.json else print)
    if args.json:
        _print_json({"game": game.id, "games": args.games, "failures": failures})
    elif failures:
        for failure in failures:
            print(f"FAIL {failure}", file=sys.stderr)
    else:
        print(f"{game.id}: every check passed ({args.games} random games)")
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# errors: one line each
# ---------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr (and exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _fair(args: argparse.Namespace) -> dict[str, Any] | None:
    """The ``create.fair`` map from --fair, --fair-timeout and --on-withhold."""
    if not args.fair:
        return None
    return {"timeout": args.fair_timeout, "on_withhold": args.on_withhold}


def _fair_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--fair", action="store_true",
                   help="fair play: dice and shuffles from every seat's commit-reveal, "
                        "checkable with `lantable verify` (docs/fair-play.md)")
    p.add_argument("--fair-timeout", type=float, default=60.0, metavar="S",
                   help="with --fair: seconds to wait for a seat's reveal")
    p.add_argument("--on-withhold", choices=("forfeit", "host_rng"), default="forfeit",
                   help="with --fair: what a withheld reveal causes")


def cmd_verify(args: argparse.Namespace) -> int:
    from lantable.host.journal import Journal

    from .verify import JournalCopy, verify

    if not Path(args.db).exists():
        print(f"no journal at {args.db}", file=sys.stderr)
        return 2
    journal = Journal(args.db)
    record = journal.table(args.table)
    if record is None:
        print(f"no table {args.table!r} in {args.db}; tables: {[t.id for t in journal.tables()]}",
              file=sys.stderr)
        return 2
    registry = load_registry()
    if record.game not in registry:
        print(f"game {record.game!r} is not installed here: cannot replay", file=sys.stderr)
        return 2
    copy = JournalCopy(record.id, record.game, record.game_version, record.seats,
                       record.options, record.seed, record.status,
                       [(a.seq, a.seat, a.action, a.events) for a in journal.actions(record.id)],
                       journal.fair_records(record.id))
    report = verify(copy, registry[record.game])
    if args.json:
        _print_json(report.to_map())
    else:
        for note in report.notes:
            print(f"note: {note}")
        for problem in report.problems:
            print(f"MISMATCH: {problem}")
        print(report.verdict())
    return 0 if report.ok else 1


class _Help(argparse.HelpFormatter):
    """Every option's default shown (unless its help already says it, or there is none);
    text filled to the terminal, but example lines (indented) kept as written."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if ("default" in text or not action.option_strings
                or action.default in (None, False, argparse.SUPPRESS)):
            return text
        return f"{text} (default: %(default)s)"

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line if line.startswith("  ") else
                         textwrap.fill(line, width, initial_indent=indent,
                                       subsequent_indent=indent)
                         for line in text.splitlines())


# ---------------------------------------------------------------------------
# the parser
# ---------------------------------------------------------------------------


def _lan_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--discover", action="store_true", help="find it on the LAN (zeroconf)")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to look with --discover")
    p.add_argument("--interface", action="append", metavar="IF",
                   help="look only on IF (repeatable; default: every interface)")


def _table_options(p: argparse.ArgumentParser) -> None:
    """Which table: --table ID [--connect HOST:PORT], or --discover [--game G]."""
    p.add_argument("--connect", type=_address, metavar="HOST:PORT",
                   help=f"the peer that holds the table (default: 127.0.0.1:{DEFAULT_PORT})")
    p.add_argument("--table", help="the table id (see lantable peers)")
    _lan_options(p)
    p.add_argument("--game", help="with --discover: only a table of this game")


def _sub(sub: Any, name: str, summary: str, description: str, example: str) -> Any:
    return sub.add_parser(name, help=summary, description=description,
                          epilog="example:\n  " + example, formatter_class=_Help)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="lantable", formatter_class=_Help,
                     description="Board games over a local network with no server: every "
                                 "player runs a peer; peers find each other on the LAN.",
                     epilog="start here:\n  lantable demo          watch bots play Manila\n"
                            "  lantable host          run your peer\n"
                            "  lantable peers         see peers and tables on the LAN")
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="more logging (-vv: debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = _sub(sub, "games", "list installed games, seats and options",
             "List the installed games with their seats and options, written as --option "
             "takes them.", "lantable games")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_games)

    p = _sub(sub, "host", "run a peer until Ctrl-C or SIGTERM",
             "Run this machine's peer: it keeps tables in a journal and advertises itself on "
             "the LAN. Ctrl-C or SIGTERM stop it gently: clients are told, the LAN gets a "
             "goodbye, the journal is closed.", "lantable host --name den")
    p.add_argument("--name", help="peer name shown to others (default: the host name)")
    p.add_argument("--bind", default=None,
                   help="address to listen on (default: all, IPv4 and IPv6)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port (0 = any free one)")
    p.add_argument("--db", default=_default_db(), help="journal file")
    p.add_argument("--no-discovery", action="store_true", help="do not advertise on the LAN")
    p.add_argument("--interface", action="append", metavar="IF",
                   help="advertise only on this interface (repeatable; default: every one)")
    p.add_argument("--web-port", type=int, default=None,
                   help=f"port of the browser app and its WebSocket (default {DEFAULT_WEB_PORT},"
                        " or any free one if that is taken; 0 = any free one)")
    p.add_argument("--no-web", action="store_true", help="do not serve the browser app")
    p.add_argument("--no-qr", action="store_true", help="print the join URL without a QR code")
    _limit_flags(p)
    p.set_defaults(func=cmd_host)

    p = _sub(sub, "new", "open a table on a peer and print its id",
             "Open a table for a game on a peer and print the table id.",
             "lantable new manila --seats 4 --option hide_cash=true")
    p.add_argument("game", help="the game id (see lantable games)")
    p.add_argument("--connect", type=_address, metavar="HOST:PORT",
                   help=f"the peer (default: --discover, or 127.0.0.1:{DEFAULT_PORT})")
    _lan_options(p)
    p.add_argument("--peer", help="with --discover: the peer of this name")
    p.add_argument("--seats", type=int, required=True, help="number of seats")
    p.add_argument("--option", type=_option, action="append", default=[], metavar="K=V",
                   help="a game option (repeatable; see lantable games)")
    p.add_argument("--seed", type=int, default=None, help="fixed seed (default: random)")
    _fair_options(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_new)

    p = _sub(sub, "bot", "bots take seats at a table and play to the end",
             "Bots take free seats (or --seat N, resuming a seat whose token this machine "
             "remembers) and play to the end, reconnecting after any drop.",
             "lantable bot --table 1431269b --count 2 --strategy greedy")
    _table_options(p)
    p.add_argument("--strategy", choices=STRATEGIES, default="random", help="how the bots play")
    p.add_argument("--count", type=int, default=1, help="how many bots")
    p.add_argument("--seat", type=int, default=None,
                   help="take this seat (default: the lowest free one)")
    p.add_argument("--name", default=None,
                   help="the bot's name (default: STRATEGY-N@HOSTNAME)")
    p.add_argument("--budget", type=float, default=None,
                   help="mcts: seconds per decision (default: the bot's own, 0.1)")
    p.add_argument("--seed", type=int, default=0, help="the bots' random seed")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_bot)

    p = _sub(sub, "play", "play a seat from this terminal",
             "Play a seat from this terminal. Your seat's token is remembered: run the same "
             "command again (after Ctrl-C, a crash, a host restart) to take it back.",
             "lantable play --table 1431269b --name ann")
    _table_options(p)
    p.add_argument("--seat", type=int, default=None,
                   help="take this seat (default: your remembered seat, else the lowest free)")
    p.add_argument("--name", default=os.environ.get("USER") or "player",
                   help="your name at the table")
    p.add_argument("--token", help="take back a seat with its resume token")
    p.add_argument("--spectate", action="store_true", help="watch instead of playing")
    p.set_defaults(func=cmd_play)

    p = _sub(sub, "peers", "peers on the LAN and their tables",
             "List the peers found on the LAN and their tables (disconnected seats marked).",
             "lantable peers --timeout 5")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to listen")
    p.add_argument("--watch", action="store_true",
                   help="keep listening; print peers as they come and go")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--interface", action="append", metavar="IF",
                   help="browse only on IF (repeatable; default: every interface)")
    p.set_defaults(func=cmd_peers)

    p = _sub(sub, "demo", "a host and bots on this machine, over loopback TCP",
             "Run a private peer and bots on this machine and show the game: the board "
             "between rounds, every event in words, and the result.",
             "lantable demo --game manila --players 4")
    p.add_argument("--game", default="manila", help="the game id")
    p.add_argument("--players", type=int, default=None,
                   help="number of bots (default: the game's minimum)")
    p.add_argument("--seed", type=int, default=7, help="the table's seed")
    p.add_argument("--strategy", choices=STRATEGIES, default=None,
                   help="how the bots play (default: greedy, or random for a game without "
                        "game_sample_state)")
    p.add_argument("--budget", type=float, default=None,
                   help="mcts: seconds per decision (default: 200 iterations)")
    p.add_argument("--option", type=_option, action="append", default=[], metavar="K=V",
                   help="a game option (repeatable)")
    p.add_argument("--db", default=None,
                   help="keep the journal in this file (default: a temporary one, removed)")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    _fair_options(p)
    p.add_argument("--json", action="store_true", help="print only the result, as JSON")
    p.set_defaults(func=cmd_demo)

    p = _sub(sub, "simulate", "in-process self-play, no network",
             "Play many games in this process, with no network, and report speed and win "
             "rates.", "lantable simulate manila --players 4 --games 20 --strategy greedy")
    p.add_argument("game", help="the game id")
    p.add_argument("--games", type=int, default=100, help="how many games")
    p.add_argument("--players", type=int, required=True, help="seats per game")
    p.add_argument("--strategy", default="random",
                   help="a strategy, or a comma list by seat (e.g. mcts,random,random,random)")
    p.add_argument("--budget", type=float, default=None,
                   help="mcts seconds per decision (default: the bot's own, 0.1)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed")
    p.add_argument("--option", type=_option, action="append", default=[], metavar="K=V",
                   help="a game option (repeatable)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_simulate)

    p = _sub(sub, "replay", "print a table's full event log from a journal",
             "Print a table's every action and event from a peer's journal.",
             "lantable replay --table 1431269b")
    p.add_argument("--db", default=_default_db(), help="the journal file")
    p.add_argument("--table", required=True, help="the table id")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_replay)

    p = _sub(sub, "check", "run the conformance checks against an installed game",
             "Check an installed game against the game API's rules: random self-play, "
             "deterministic replays, refusals that change nothing, views and events that "
             "leak no hidden value. Exit 1, naming what failed.", "lantable check manila")
    p.add_argument("game", help="the game id")
    p.add_argument("--games", type=int, default=10, help="random games to play")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_check)

    p = _sub(sub, "verify", "check a fair table's journal: signatures, reveals, rolls, result",
             "Replay a table's journal and check every fair-play signature, every revealed "
             "link against its commitment, every seed, roll and shuffle, and the final "
             "result. Exit 1, naming the first event that does not check. A table created "
             "without fair play is reported as such.",
             "lantable verify --db journal.sqlite --table 1431269b")
    p.add_argument("--db", default=_default_db(), help="the journal file")
    p.add_argument("--table", required=True, help="the table id")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_verify)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
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
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - ordinary mistakes become one line
        found = leaves(exc)
        for leaf in found:
            if isinstance(leaf, KeyboardInterrupt):
                print("interrupted", file=sys.stderr)
                return 130
        for leaf in found:
            line = explain(leaf, args, default_port=DEFAULT_PORT)
            if line is not None:
                print(f"lantable {args.command}: error: {line}", file=sys.stderr)
                return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
