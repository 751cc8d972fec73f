"""What every ``lantable`` command shares: the help format, one-line usage errors,
argument types, the options several commands take, and JSON output."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import TYPE_CHECKING, Any, NoReturn

from lantable.plugins import load_registry
from lantable.protocol.discovery import DEFAULT_PORT

from ..bots import make_bot
from ..errors import CliError
from ..tokens import data_dir

if TYPE_CHECKING:
    from lantable.plugins import Registry


class Help(argparse.HelpFormatter):
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


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr (and exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def add_command(sub: Any, name: str, summary: str, description: str,
                example: str) -> argparse.ArgumentParser:
    """A subcommand with its one-line summary, its description and one example."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=description, epilog="example:\n  " + example,
        formatter_class=Help)
    return parser


# ---------------------------------------------------------------------------
# argument types and shared options
# ---------------------------------------------------------------------------


def address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:47800`` for IPv6; a bare ``:PORT`` is loopback)."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE``, the value read as JSON when it is JSON, else as a string."""
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def default_db() -> str:
    return str(data_dir() / "journal.sqlite")


def lan_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--discover", action="store_true", help="find it on the LAN (zeroconf)")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to look with --discover")
    p.add_argument("--interface", action="append", metavar="IF",
                   help="look only on IF (repeatable; default: every interface)")


def table_options(p: argparse.ArgumentParser) -> None:
    """Which table: --table ID [--connect HOST:PORT], or --discover [--game G]."""
    p.add_argument("--connect", type=address, metavar="HOST:PORT",
                   help=f"the peer that holds the table (default: 127.0.0.1:{DEFAULT_PORT})")
    p.add_argument("--table", help="the table id (see lantable peers)")
    lan_options(p)
    p.add_argument("--game", help="with --discover: only a table of this game")


def fair_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--fair", action="store_true",
                   help="fair play: dice and shuffles from every seat's commit-reveal, "
                        "checkable with `lantable verify` (docs/fair-play.md)")
    p.add_argument("--fair-timeout", type=float, default=60.0, metavar="S",
                   help="with --fair: seconds to wait for a seat's reveal")
    p.add_argument("--on-withhold", choices=("forfeit", "host_rng"), default="forfeit",
                   help="with --fair: what a withheld reveal causes")
    p.add_argument("--hidden-decks", action="store_true",
                   help="with --fair: the seats deal the game's hidden cards, so that no peer "
                        "sees one it should not, the host included (games that declare "
                        "decks; seats need `lantable play` or a bot, not the browser)")


def fair(args: argparse.Namespace) -> dict[str, Any] | None:
    """The ``create.fair`` map from --fair, --fair-timeout, --on-withhold and
    --hidden-decks.

    Raises:
        CliError: --hidden-decks without --fair (the seats deal only at a fair table).
    """
    if getattr(args, "hidden_decks", False) and not args.fair:
        raise CliError("--hidden-decks needs --fair: the seats deal the hidden cards only "
                       "at a fair-play table; add --fair")
    if not args.fair:
        return None
    out: dict[str, Any] = {"timeout": args.fair_timeout, "on_withhold": args.on_withhold}
    if getattr(args, "hidden_decks", False):
        out["hidden_decks"] = True
    return out


# ---------------------------------------------------------------------------
# games and bots, checked before anything starts
# ---------------------------------------------------------------------------


def installed() -> Registry:
    """The installed games: every command asks here (the one place a test swaps them)."""
    return load_registry()


def registry_game(game_id: str) -> Any:
    """The installed game ``game_id``, or a one-line error naming those installed."""
    registry = installed()
    cause = registry.load_error(game_id) if game_id not in registry else None
    if cause is not None:
        raise CliError(f"game {game_id!r} is installed but did not load: {cause}")
    if game_id not in registry:
        raise CliError(f"no game {game_id!r} is installed; installed: "
                       f"{', '.join(sorted(registry.games)) or 'none'} (see lantable games)")
    return registry[game_id]


def check_strategy(game: Any, strategy: str) -> None:
    try:
        make_bot(strategy, game)
    except ValueError as exc:
        raise CliError(f"{exc}; use --strategy random") from None


def bot_options(strategy: str, budget: float | None) -> dict[str, Any]:
    return {"time_budget": budget} if strategy == "mcts" and budget else {}


def print_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))
