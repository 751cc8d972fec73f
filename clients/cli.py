"""The lantable command: the front door to the host, the bots and the games.

This module is the composition root: it builds the parser from the commands in
:mod:`.commands` (each module adds its own and runs them), picks the logging level,
and turns ordinary mistakes into one line on stderr (:mod:`.errors`). It and
``commands/`` are the only part of ``clients/`` that may import ``lantable.host`` (to
run a peer, a demo, or read a journal); the client library itself speaks only the
protocol (docs/architecture.md).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, Final

from .commands import games, journal, peer, peers, research, seats
from .commands.common import Help, Parser
from .errors import explain, leaves

# The commands in the order ``lantable --help`` lists them.
COMMANDS: Final[tuple[Callable[[Any], None], ...]] = (
    games.add_games, peer.add_host, seats.add_new, seats.add_bot, seats.add_play,
    peers.add_peers, peer.add_demo, games.add_simulate, journal.add_replay, games.add_check,
    journal.add_verify, research.add_tournament,
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="lantable", formatter_class=Help,
                    description="Board games over a local network with no server: every "
                                "player runs a peer; peers find each other on the LAN.",
                    epilog="start here:\n  lantable demo          watch bots play Manila\n"
                           "  lantable host          run your peer\n"
                           "  lantable peers         see peers and tables on the LAN")
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="more logging (-vv: debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for add in COMMANDS:
        add(sub)
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
        code: int = args.func(args)
        return code
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
            line = explain(leaf, args)
            if line is not None:
                print(f"lantable {args.command}: error: {line}", file=sys.stderr)
                return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
