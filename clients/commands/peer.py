"""``lantable host`` and ``demo``: run a peer on this machine (``lantable.host``),
with its browser app (``lantable.web``) and its advertiser on the LAN."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import trio

from lantable.protocol.discovery import DEFAULT_PORT, DEFAULT_WEB_PORT

from ..bots import STRATEGIES
from ..client import open_client
from ..errors import CliError
from ..runner import PageBotCommand, bot_name, run_bot
from .common import (
    add_command,
    bot_options,
    check_strategy,
    default_db,
    fair,
    fair_options,
    installed,
    option,
    print_json,
    registry_game,
)

LOGGER = logging.getLogger("lantable")


def add_host(sub: Any) -> None:
    p = add_command(sub, "host", "run a peer until Ctrl-C or SIGTERM",
                    "Run this machine's peer: it keeps tables in a journal and advertises "
                    "itself on the LAN. Ctrl-C or SIGTERM stop it gently: clients are told, "
                    "the LAN gets a goodbye, the journal is closed.", "lantable host --name den")
    p.add_argument("--name", help="peer name shown to others (default: the host name)")
    p.add_argument("--bind", default=None,
                   help="address to listen on (default: all, IPv4 and IPv6)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port (0 = any free one)")
    p.add_argument("--db", default=default_db(), help="journal file")
    p.add_argument("--no-discovery", action="store_true", help="do not advertise on the LAN")
    p.add_argument("--interface", action="append", metavar="IF",
                   help="advertise only on this interface (repeatable; default: every one)")
    p.add_argument("--web-port", type=int, default=None,
                   help=f"port of the browser app and its WebSocket (default {DEFAULT_WEB_PORT},"
                        " or any free one if that is taken; 0 = any free one)")
    p.add_argument("--no-web", action="store_true", help="do not serve the browser app")
    p.add_argument("--no-qr", action="store_true", help="print the join URL without a QR code")
    p.add_argument("--no-page-bots", action="store_true",
                   help="do not run bots for people who add them from the web page")
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="a name this machine has on the LAN (e.g. from the router's DNS) that "
                        "browsers may open the app by (repeatable); its addresses, localhost "
                        "and its own .local names always work")
    p.add_argument("--workers", type=int, default=0, metavar="N",
                   help="spread the tables over N worker processes, one per core to use "
                        "(default 0: one process; 0 and 1 are the same). A prototype: see "
                        "docs/decisions.md, 'Worker processes', for what stays in the front")
    p.add_argument("--compact", action="store_true",
                   help="before serving, drop the finished tables nobody marked to keep, but "
                        "for the newest --compact-keep, and give their space back")
    p.add_argument("--compact-keep", type=int, default=1000, metavar="N",
                   help="with --compact: how many of the newest finished tables stay whole "
                        "(default 1000; tables marked to keep always stay)")
    _limit_flags(p)
    p.set_defaults(func=cmd_host)


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

    browse: Callable[..., Any] | None = None
    if not args.no_discovery:  # zeroconf is imported only when it is used
        from ..discovery import open_browser
        browse = open_browser
    web = await nursery.start(lambda task_status: serve_web(
        peer=peer, listeners=listeners, browse_lan=browse, interfaces=args.interface or None,
        allow_hosts=args.allow_host or (), task_status=task_status))
    url = join_url(lan_address(args.bind), web.port)
    print(f"play in a browser: open {url}  (or scan:)", flush=True)
    if not args.no_qr:
        print(qr_text(url), end="", flush=True)


def _as_ctrl_c(signum: int, frame: Any) -> None:
    """SIGTERM as Ctrl-C, delivered as Ctrl-C is: by the SIGINT handler of the moment.
    While trio runs that is trio's, which never raises inside trio's own scheduler (a
    KeyboardInterrupt there is a TrioInternalError, exit 1: a second SIGTERM just after
    the peer stopped did that); before and after, Python's, which raises."""
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)


def cmd_host(args: argparse.Namespace) -> int:
    from lantable.host.limits import Limits
    from lantable.host.peer import serve_until_signalled

    registry = installed()
    Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    limits = Limits(**{name: getattr(args, name) for name in Limits.__dataclass_fields__})
    if args.compact:  # host/archive.py: bounded, keeping what people asked to keep
        from lantable.host.archive import compact_journal
        print_json(compact_journal(args.db, registry, args.compact_keep))

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
                    bots=None if args.no_page_bots else PageBotCommand(),
                    workers=args.workers, task_status=task_status)
                nursery.cancel_scope.cancel()  # the peer stopped: so does its web server

            running = await nursery.start(peer)
            addrs = ", ".join(f"{h}:{p}" for h, p in running.addresses)
            print(f"lantable peer {running.peer.name} ({running.peer.peer_id}) "
                  f"listening on {addrs}; journal {args.db}", flush=True)
            if web_listeners:
                await _start_web(nursery, running.peer, args, web_listeners)

    # Outside the peer's own signal receiver (before it starts, and after it closed the
    # journal) SIGTERM is Ctrl-C: an exception that unwinds through the journal's close,
    # never the kernel's kill; once trio.run returns, signals are ignored until exit.
    signal.signal(signal.SIGTERM, _as_ctrl_c)
    try:
        trio.run(main)
    except* KeyboardInterrupt:  # a signal before the peer listened or after it stopped
        pass
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_IGN)
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




def add_demo(sub: Any) -> None:
    p = add_command(sub, "demo", "a host and bots on this machine, over loopback TCP",
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
    p.add_argument("--option", type=option, action="append", default=[], metavar="K=V",
                   help="a game option (repeatable)")
    p.add_argument("--db", default=None,
                   help="keep the journal in this file (default: a temporary one, removed)")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    fair_options(p)
    p.add_argument("--json", action="store_true", help="print only the result, as JSON")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    from rich.console import Console

    from lantable.host.peer import serve_peer

    from ..screen import result_line, seat_names

    game = registry_game(args.game)
    registry = installed()
    lo, hi = game.info["min_seats"], game.info["max_seats"]
    players = args.players or lo
    if not lo <= players <= hi:
        raise CliError(f"{game.id} takes {lo}-{hi} players, not {players}")
    if args.strategy is None:  # greedy where the game allows it
        args.strategy = "greedy" if game.has_sampler else "random"
        if not game.has_sampler and not (args.quiet or args.json):
            print(f"{game.id} has no game_sample_state: the bots play random", file=sys.stderr)
    check_strategy(game, args.strategy)
    fair_config = fair(args)  # a mistake in the fair-play options, before anything starts
    temp = None if args.db else tempfile.mkdtemp(prefix="lantable-demo-")
    db = args.db or os.path.join(temp or "", "journal.sqlite")
    options = bot_options(args.strategy, args.budget)
    if args.strategy == "mcts" and not args.budget:
        options = {"iterations": 200}
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
                                            fair=fair_config)
                await client.join(table, spectate=True)
                results: list[dict[str, Any]] = []
                async with trio.open_nursery() as bots:
                    for i in range(players):
                        async def one(i: int = i) -> None:
                            _, scores = await run_bot(
                                "127.0.0.1", port, table, args.strategy, args.seed,
                                name=bot_name(args.strategy, i + 1), seat=i,
                                bot_options=options, quiet=True, registry=registry)
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
        print_json({"table": table, "seed": args.seed, "names": names, **scores,
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
