"""``lantable new``, ``bot`` and ``play``: open a table on a peer, take its seats."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import trio

from lantable.protocol.discovery import DEFAULT_PORT

from ..bots import STRATEGIES
from ..client import open_client
from ..errors import CliError, leaves
from ..runner import bot_name, run_bot
from ..session import SeatPlan, hold_seat
from ..tokens import Remembered, TokenStore
from .common import (
    add_command,
    address,
    bot_options,
    fair,
    fair_options,
    installed,
    lan_options,
    option,
    print_json,
    table_options,
)


def resolve_peer(args: argparse.Namespace) -> tuple[str, int]:
    """--connect, else --discover (a peer on the LAN), else the local peer."""
    if args.connect:
        host, port = args.connect
        return str(host), int(port)
    if not args.discover:
        return "127.0.0.1", DEFAULT_PORT
    from ..lan import find_peer

    found = trio.run(lambda: find_peer(name=args.peer, timeout=args.timeout,
                                       interfaces=args.interface))
    if found is None:
        raise CliError(f"no peer{' named ' + repr(args.peer) if args.peer else ''} found on "
                       f"the LAN within {args.timeout:g} s")
    return found


def resolve_table(args: argparse.Namespace) -> tuple[str, int, str]:
    """--table [--connect HOST:PORT], or --discover: a waiting table with a free seat."""
    if args.discover:
        from ..lan import find_free_table

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


def add_new(sub: Any) -> None:
    p = add_command(sub, "new", "open a table on a peer and print its id",
                    "Open a table for a game on a peer and print the table id.",
                    "lantable new manila --seats 4 --option hide_cash=true")
    p.add_argument("game", help="the game id (see lantable games)")
    p.add_argument("--connect", type=address, metavar="HOST:PORT",
                   help=f"the peer (default: --discover, or 127.0.0.1:{DEFAULT_PORT})")
    lan_options(p)
    p.add_argument("--peer", help="with --discover: the peer of this name")
    p.add_argument("--seats", type=int, required=True, help="number of seats")
    p.add_argument("--option", type=option, action="append", default=[], metavar="K=V",
                   help="a game option (repeatable; see lantable games)")
    p.add_argument("--seed", type=int, default=None, help="fixed seed (default: random)")
    fair_options(p)
    p.add_argument("--undo", choices=["ask", "always", "never", "people"], default=None,
                   help="taking back a move: ask the other players (default), always allow, "
                        "never, or ask only the people (not the page bots)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_new)


def cmd_new(args: argparse.Namespace) -> int:
    host, port = resolve_peer(args)

    async def main() -> str:
        async with open_client(host, port, name="lantable-new") as client:
            return await client.create(args.game, args.seats, dict(args.option), args.seed,
                                       fair=fair(args), undo=args.undo)

    table = trio.run(main)
    if args.json:
        print_json({"table": table, "game": args.game, "seats": args.seats,
                    "host": host, "port": port})
    else:
        print(table)
    return 0


def add_bot(sub: Any) -> None:
    p = add_command(sub, "bot", "bots take seats at a table and play to the end",
                    "Bots take free seats (or --seat N, resuming a seat whose token this "
                    "machine remembers) and play to the end, reconnecting after any drop.",
                    "lantable bot --table 1431269b --count 2 --strategy greedy")
    table_options(p)
    p.add_argument("--strategy", choices=STRATEGIES, default="random", help="how the bots play")
    p.add_argument("--count", type=int, default=1, help="how many bots")
    p.add_argument("--seat", type=int, default=None,
                   help="take this seat (default: the lowest free one)")
    p.add_argument("--name", default=None,
                   help="the bot's name (default: STRATEGY-N@HOSTNAME)")
    p.add_argument("--budget", type=float, default=None,
                   help="mcts: seconds per decision (default: the bot's own, 0.1)")
    p.add_argument("--seed", type=int, default=0, help="the bots' random seed")
    p.add_argument("--take-over", action="store_true",
                   help="take the seat even if this machine remembers it for a person "
                        "(lantable play) or a running bot; they stop playing it")
    p.add_argument("--token", default=None,
                   help="play the seat of this resume token; '-' reads it from standard "
                        "input (how a peer starts the bots added from its web page)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_bot)


def cmd_bot(args: argparse.Namespace) -> int:
    host, port, args.table = resolve_table(args)
    if args.seat is not None and args.count != 1:
        raise CliError("--seat takes one seat: use it with --count 1")
    token = args.token
    if token is not None and args.count != 1:
        raise CliError("--token takes one seat: use it with --count 1")
    if token == "-":
        token = sys.stdin.readline().strip()
        if not token:
            raise CliError("--token -: no token on standard input")
    results: list[tuple[int, dict[str, Any]]] = []
    store = None if token is not None else TokenStore()  # a given seat is not ours to keep
    options = bot_options(args.strategy, args.budget)
    registry = installed()

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            for i in range(args.count):
                async def one(i: int = i) -> None:
                    results.append(await run_bot(
                        host, port, args.table, args.strategy, args.seed,
                        name=args.name or bot_name(args.strategy, i + 1), seat=args.seat,
                        bot_options=options, store=store, quiet=args.json,
                        registry=registry, take_over=args.take_over, token=token))
                nursery.start_soon(one)

    trio.run(main)
    results.sort()
    out = {"table": args.table, "seats": [s for s, _ in results],
           "scores": results[0][1] if results else None}
    if args.json:
        print_json(out)
    else:
        print(f"table {args.table} finished; seats {out['seats']}; "
              f"final scores {out['scores']['scores'] if out['scores'] else None}")
    return 0


def add_play(sub: Any) -> None:
    p = add_command(sub, "play", "play a seat from this terminal",
                    "Play a seat from this terminal. Your seat's token is remembered: run the "
                    "same command again (after Ctrl-C, a crash, a host restart) to take it "
                    "back.", "lantable play --table 1431269b --name ann")
    table_options(p)
    p.add_argument("--seat", type=int, default=None,
                   help="take this seat (default: your remembered seat, else the lowest free)")
    p.add_argument("--name", default=os.environ.get("USER") or "player",
                   help="your name at the table")
    p.add_argument("--token", help="take back a seat with its resume token")
    p.add_argument("--take-over", action="store_true",
                   help="take a seat this machine remembers for another program (a bot) or "
                        "another terminal still playing it; you are asked first")
    p.add_argument("--yes", action="store_true", help="with --take-over: do not ask")
    p.add_argument("--spectate", action="store_true", help="watch instead of playing")
    p.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..screen import Screen, result_line
    from ..terminal import TerminalDecider
    from ..undo_terminal import UndoLines

    host, port, args.table = resolve_table(args)
    registry = installed()
    console = Console()
    screens: list[Screen] = []
    store = TokenStore()

    def say(text: str) -> None:
        if screens:
            screens[0].say(text)

    def log(text: str) -> None:
        if screens:
            screens[0].events.append(text)

    # the undo command and question (clients/undo_terminal.py)
    undo_lines = UndoLines(say, log=log)

    def on_client(client: Any) -> None:
        if not args.spectate:
            undo_lines.table = args.table
            undo_lines.attach(client)

    def make_decider(game_id: str, seat: int | None) -> Any:
        if game_id not in registry:
            raise CliError(f"table {args.table} plays {game_id!r}, which is not installed here "
                           f"(installed: {', '.join(sorted(registry.games))})")
        if screens and screens[0].seat == seat and screens[0].game.id == game_id:
            return TerminalDecider(screens[0], lines=undo_lines)  # back after a drop
        screen = Screen(registry[game_id], seat, console)
        screen.notice = sat[0] if sat else ""
        screens[:] = [screen]
        return TerminalDecider(screen, lines=None if args.spectate else undo_lines)

    def on_update(update: Any) -> None:
        if screens:
            screens[0].on_update(update)

    sat: list[str] = []

    def notify(kind: str, text: str) -> None:
        if kind == "sat":
            sat[:] = [text]
        elif screens:
            screens[0].say({"refused": "Refused: "}.get(kind, "") + text)

    def on_idle() -> None:
        if screens:
            screens[0].idle()

    async def confirm(entry: Remembered) -> bool:
        if args.yes:
            return True
        if not sys.stdin.isatty():
            raise CliError(f"seat {entry.seat} is held by {entry.owner_text()}; confirm the "
                           f"take-over with --yes")
        question = (f"Seat {entry.seat} of table {args.table} is held by {entry.owner_text()} "
                    f"on this machine. Take it over? It stops playing there. [y/N] ")
        answer = await trio.to_thread.run_sync(input, question)
        return answer.strip().lower() in ("y", "yes")

    plan = SeatPlan(table=args.table, seat=args.seat, token=args.token, spectate=args.spectate,
                    program="play", take_over=args.take_over, confirm=confirm)
    try:
        held = trio.run(lambda: hold_seat(host, port, plan, name=args.name,
                                          make_decider=make_decider, store=store,
                                          on_update=on_update, notify=notify,
                                          on_idle=on_idle, on_client=on_client))
    except BaseException as exc:
        if not any(isinstance(leaf, KeyboardInterrupt) for leaf in leaves(exc)):
            raise
        how = (f"lantable play --connect {host}:{port} --table {plan.table}"
               + (" --spectate" if args.spectate else ""))
        print(f"\nYou left table {plan.table}; your seat waits for you. Come back with: {how}"
              if not args.spectate else f"\nStopped watching table {plan.table}.",
              file=sys.stderr)
        return 130
    if screens and screens[0].update is not None and screens[0].update.status == "finished":
        screens[0].draw()  # the last screen: the board as it ended and who won
    elif held.scores is not None:  # the game had ended before we sat down
        console.print(result_line(held.scores, held.seat, []))
    return 0
