"""Ordinary mistakes, told in one line: what ``lantable`` prints instead of a traceback.

:func:`explain` turns an exception into the sentence a person at a LAN party needs
(what went wrong and what to do: start ``lantable host``, choose another ``--port``,
restart the peer to see a new game...), or ``None`` for a real bug, which the CLI lets
through as a traceback.
"""

from __future__ import annotations

import argparse
import errno

import trio

from lantable.plugins import load_registry
from lantable.protocol.discovery import DEFAULT_PORT

from .client import ClientError, RequestError
from .session import HostGone


class CliError(Exception):
    """A mistake to tell the user in one line (no traceback), then exit 1."""


def leaves(group: BaseException) -> list[BaseException]:
    """The exceptions inside a (possibly nested) exception group."""
    if not isinstance(group, BaseExceptionGroup):
        return [group]
    out: list[BaseException] = []
    for exc in group.exceptions:
        out.extend(leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return out


def explain(exc: BaseException, args: argparse.Namespace | None = None) -> str | None:
    """The one line that tells a person what went wrong, or None for a real bug."""
    where = ""
    if args is not None and getattr(args, "connect", None):
        where = f" at {args.connect[0]}:{args.connect[1]}"
    elif args is not None and args.command in ("new", "bot", "play"):
        where = f" at 127.0.0.1:{DEFAULT_PORT}"
    if isinstance(exc, CliError):
        return str(exc)
    if isinstance(exc, OSError) and exc.__cause__ is not None:
        # trio.open_tcp_stream: "all attempts to connect ... failed", the reasons inside
        causes = leaves(exc.__cause__)
        if causes and all(isinstance(c, ConnectionRefusedError) for c in causes):
            exc = causes[0]
    if isinstance(exc, ConnectionRefusedError):
        return (f"cannot reach a peer{where} (connection refused): start one with "
                f"`lantable host`, or give --connect HOST:PORT or --discover")
    if isinstance(exc, OSError) and exc.errno == errno.EADDRINUSE:
        port = getattr(args, "port", "")
        return (f"port {port} is already in use (another lantable host?); choose another "
                f"with --port, e.g. --port {int(port or DEFAULT_PORT) + 1}")
    if isinstance(exc, OSError) and exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot listen on {getattr(args, 'bind', None)!r}: not an address of this machine"
    if isinstance(exc, trio.TooSlowError):
        return f"the peer{where} did not answer in time (timeout); is it running and reachable?"
    if isinstance(exc, HostGone):
        return str(exc)
    if isinstance(exc, RequestError):
        hint = {
            "no_such_game": _no_game_hint(getattr(args, "game", None)),
            "no_such_table": " (list the tables with `lantable peers`)",
            "bad_token": " (that token is not valid at this peer)",
            "seat_taken": " (choose another --seat, or leave it out)",
            "table_full": " (watch it with --spectate, or take your seat back with --token)",
        }.get(exc.code, "")
        return f"the peer{where} refused: {exc.message}{hint}"
    if isinstance(exc, ClientError):
        return f"{exc}"
    if isinstance(exc, EOFError):
        return ("input closed; your seat waits for you: run the same command again to take "
                "it back")
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}{where}"
    if type(exc).__name__ in ("JournalFailed", "JournalDamaged", "BadOptions"):
        return str(exc)
    if isinstance(exc, ValueError) and args is not None and args.command == "host":
        return str(exc)  # a bad --interface or --bind
    return None


def _no_game_hint(game: str | None) -> str:
    if game and game in load_registry():
        return (f" ({game} is installed here but the peer started before it: stop "
                f"`lantable host` and start it again)")
    return " (install the game on the peer's machine, then restart `lantable host`)"
