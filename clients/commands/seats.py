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
    p.add_argument("--clock", type=clock_option, default=None,
                   metavar="KIND:SECONDS[:INCREMENT][:ON_TIMEOUT]",
                   help="a turn clock: decision:30 (30 s a decision), chess:600:5 (10 min a "
                        "player plus 5 s a move); then bot (default), default or forfeit, "
                        "e.g. decision:30:forfeit (docs/protocol.md, Turn clocks and pause)")
    p.add_argument("--undo", choices=["ask", "always", "never", "people"], default=None,
                   help="taking back a move: ask the other players (default), always allow, "
                        "never, or ask only the people (not the page bots)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_new)


def clock_option(text: str) -> dict[str, Any]:
    """``--clock decision:30``, ``chess:600:5``, ``chess:600:5:forfeit``: the map
    ``create.clock`` takes (the host checks the numbers)."""
    parts = text.split(":")
    outcomes = ("bot", "default", "forfeit")
    clock: dict[str, Any] = {"kind": parts[0]}
    if parts and parts[-1] in outcomes:
        clock["on_timeout"] = parts.pop()
    try:
        numbers = [int(p) for p in parts[1:]]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: seconds and increment are whole "
                                         "numbers, as in decision:30 or chess:600:5") from None
    if parts[0] not in ("decision", "chess") or not 1 <= len(numbers) <= 2:
        raise argparse.ArgumentTypeError(f"{text!r}: give decision:SECONDS or "
                                         "chess:SECONDS[:INCREMENT], then optionally "
                                         ":bot, :default or :forfeit")
    clock["seconds"] = numbers[0]
    if len(numbers) == 2:
        clock["increment"] = numbers[1]
    return clock


def cmd_new(args: argparse.Namespace) -> int:
    config = fair(args)  # a mistake in the fair-play options, before connecting
    host, port = resolve_peer(args)

    async def main() -> str:
        async with open_client(host, port, name="lantable-new") as client:
            return await client.create(args.game, args.seats, dict(args.option), args.seed,
                                       fair=config, clock=args.clock, undo=args.undo)

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
    p.add_argument("--no-bell", action="store_true",
                   help="do not ring the terminal bell when it is your turn")
    p.set_defaults(func=cmd_play)


async def _with_clock(console: Any, screens: list[Any], play: Any) -> Any:
    """Run ``play`` (a coroutine); on a live terminal, the turn clock's line counts down
    beside it (clients/clockline.py)."""
    from ..clockline import tick

    async with trio.open_nursery() as nursery:
        if console.is_terminal:
            nursery.start_soon(tick, screens)
        held = await play
        nursery.cancel_scope.cancel()
    return held


def cmd_play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..screen import Screen, result_line
    from ..tablechat import Keyboard, TableChat
    from ..terminal import TerminalDecider, _lines_of
    from ..undo_terminal import UndoLines

    host, port, args.table = resolve_table(args)
    registry = installed()
    console = Console()
    screens: list[Screen] = []
    store = TokenStore()
    chat = TableChat()  # chat and rematch (clients/tablechat.py)
    keyboard = Keyboard(sys.stdin, chat)
    bell = not args.no_bell and console.is_terminal

    def say(text: str) -> None:
        if screens:
            screens[0].say(text)

    def log(text: str) -> None:
        if screens:
            screens[0].events.append(text)

    # the undo command and question (clients/undo_terminal.py)
    undo_lines = UndoLines(say, log=log, source=keyboard.decisions)

    def on_connect(client: Any) -> None:  # before the seat: no undo question missed
        if not args.spectate:
            undo_lines.table = plan.table
            undo_lines.attach(client)

    def make_decider(game_id: str, seat: int | None) -> Any:
        if game_id not in registry:
            raise CliError(f"table {args.table} plays {game_id!r}, which is not installed here "
                           f"(installed: {', '.join(sorted(registry.games))})")
        lines = undo_lines if not args.spectate else keyboard.decisions
        if screens and screens[0].seat == seat and screens[0].game.id == game_id \
                and screens[0].update is not None and screens[0].update.table == chat.table:
            # back after a drop: keep the events seen
            return TerminalDecider(screens[0], lines=lines, bell=bell)
        screen = Screen(registry[game_id], seat, console)
        screen.notice = sat[0] if sat else ""
        screens[:] = [screen]
        chat.screen = screen
        return TerminalDecider(screen, lines=lines, bell=bell)

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

    async def main() -> Any:
        async with trio.open_nursery() as nursery:
            pumping: list[bool] = []

            def on_client(client: Any, held: Any) -> None:
                if not pumping:  # the keyboard, once any take-over question was asked
                    pumping.append(True)
                    nursery.start_soon(keyboard.pump, _lines_of)
                chat.attach(client, held, nursery)
                undo_lines.table = held.table

            while True:
                held = await hold_seat(host, port, plan, name=args.name,
                                       make_decider=make_decider, store=store,
                                       on_update=on_update, notify=notify, on_idle=on_idle,
                                       on_connect=on_connect, on_client=on_client)
                again = None
                if held.seat is not None and sys.stdin.isatty():
                    again = await _after_the_game(host, port, args.name, held, chat, keyboard,
                                                  screens, store, nursery)
                if again is None:
                    nursery.cancel_scope.cancel()
                    return held
                plan.table, plan.token, plan.seat = again.table, again.token, again.seat

    try:
        held = trio.run(lambda: _with_clock(console, screens, main()))
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


async def _after_the_game(host: str, port: int, name: str, held: Any, chat: Any, keyboard: Any,
                          screens: list[Any], store: TokenStore, nursery: Any) -> Any:
    """The game is over: stay for a rematch (``/again``, docs/protocol.md "Chat and
    rematch") until the person answers or leaves (Enter, Ctrl-D). The rematch's
    ``joined``, or None to leave."""
    if screens:
        screens[0].notice = ("Type /again to play again with the same people (seats rotated), "
                             "/say TEXT to chat, or press Enter to leave.")
        screens[0].draw()
    chat.wanted = trio.Event()
    chat.next = None
    while True:  # lines typed ahead for moves that never came are not an answer here
        try:
            keyboard.decisions.receive_nowait()
        except (trio.WouldBlock, trio.EndOfChannel):
            break
    async with open_client(host, port, name=name, token=held.token) as client:
        chat.attach(client, held, nursery)
        try:
            await client.sync(held.table)  # the host tells of a rematch opened meanwhile
        except Exception:  # noqa: BLE001 - the offer is a courtesy; /again still works
            pass
        async with trio.open_nursery() as inner:
            async def answered() -> None:
                await chat.wanted.wait()
                inner.cancel_scope.cancel()

            async def left() -> None:
                await keyboard.decisions.receive()  # Enter, or the end of input
                inner.cancel_scope.cancel()

            inner.start_soon(answered)
            inner.start_soon(left)
    joined = chat.next
    if joined is None:
        return None
    store.remember(held.peer, joined.table, joined.seat, joined.token, name=name,
                   **_owner_play())
    return joined


def _owner_play() -> dict[str, Any]:
    from ..tokens import owner

    return owner("play")
