"""Bots at a table: which strategy decides, with what randomness, under what name.

The bot policy of ``lantable bot`` and ``lantable demo``: :func:`run_bot` seats one
bot (holding the seat through drops with :mod:`.session`) and plays it to the end;
:func:`decision_rng` makes each decision a function of (seed, seat, update number),
so a bot that comes back after a host restart decides exactly as it would have.
"""

from __future__ import annotations

import logging
import random
import secrets
import socket
import sys
from typing import TYPE_CHECKING, Any, Final

from lantable.plugins import load_registry

from .bots import STRATEGIES, make_bot
from .seat import Decide
from .session import SeatPlan, StrategyUnfit, hold_seat

if TYPE_CHECKING:
    from lantable.plugins import Action, Game, Registry, View
    from lantable.protocol import Update

    from .tokens import TokenStore

LOGGER = logging.getLogger(__name__)


def bot_decider(bot: Any, seat: int, rng: random.Random) -> Decide:
    """Wrap a strategy from :mod:`.bots` as an async decider."""

    async def decide(update: Update, legal: list[Action]) -> Action:
        view: View = update.view or {}
        action: Action = bot.choose(view, seat, legal, rng)
        return action

    return decide


def decision_rng(seed: int, seat: int, seq: int) -> random.Random:
    """A bot's randomness for one decision: a function of (seed, seat, update number),
    so a bot that reconnects after a host restart decides exactly as it would have."""
    return random.Random(f"{seed}:{seat}:{seq}")


def _host_name() -> str:
    return socket.gethostname().split(".")[0] or "localhost"


def bot_name(strategy: str, index: int, where: str | None = None) -> str:
    """A bot's display name, unique across laptops: ``greedy-1@den``."""
    return f"{strategy}-{index}@{where or _host_name()}"


async def run_bot(host: str, port: int, table: str, strategy: str, seed: int, *, name: str,
                  seat: int | None = None, bot_options: dict[str, Any] | None = None,
                  store: TokenStore | None = None, quiet: bool = False,
                  registry: Registry | None = None, take_over: bool = False,
                  token: str | None = None) -> tuple[int, dict[str, Any]]:
    """One bot: take a seat (``token``'s; else ``seat``, else the lowest free one), say
    where it sat, and play to the end, reconnecting and resuming after any drop.

    A seat remembered here is resumed only if a bot of this name took it and its
    process is gone; a person's (``lantable play``) or a running program's seat only
    with ``take_over`` (docs/decisions.md, "Who owns a seat").
    ``registry``: the games the bot knows (default: those installed).

    Returns:
        (seat, final scores).
    """
    games = registry if registry is not None else load_registry()

    def make_decider(game_id: str, at: int | None) -> Decide:
        if at is None:
            raise ValueError("a bot plays a seat; it does not watch")
        bot = make_bot(strategy, games[game_id], **(bot_options or {}))

        async def decide(update: Update, legal: list[Action]) -> Action:
            rng = decision_rng(seed, at, update.seq)
            return bot.choose(update.view or {}, at, legal, rng)

        return decide

    def notify(kind: str, text: str) -> None:
        if kind == "sat" and not quiet:
            print(text, flush=True)
        elif kind in ("lost", "back"):
            LOGGER.info("%s: %s", name, text)

    plan = SeatPlan(table=table, seat=seat, token=token, program="bot", take_over=take_over)
    held = await hold_seat(host, port, plan, name=name, make_decider=make_decider,
                           store=store, notify=notify,
                           check_game=lambda game_id: check_fit(table, strategy, games, game_id),
                           on_connect=_accepts_undos)
    assert held.seat is not None and held.scores is not None
    return held.seat, held.scores


def check_fit(table: str, strategy: str, games: Registry, game_id: str) -> None:
    """Refuse, before any seat is taken (``hold_seat``'s ``check_game``), a bot that
    could not play ``table``: its game ``game_id`` is not installed here (or did not
    load), or ``strategy`` needs what the game lacks (greedy and mcts need
    ``game_sample_state``).

    Raises:
        StrategyUnfit: with the one sentence to show.
    """
    if game_id not in games:
        cause = games.load_error(game_id)
        if cause is not None:
            raise StrategyUnfit(f"table {table} plays {game_id}, which is installed here but "
                                f"did not load: {cause} (no seat was taken)")
        raise StrategyUnfit(f"table {table} plays {game_id}, which is not installed on this "
                            f"machine; install it to run a bot here (no seat was taken)")
    try:
        make_bot(strategy, games[game_id])
    except ValueError as exc:
        raise StrategyUnfit(f"{exc}; use --strategy random (no seat was taken)") from None


def _accepts_undos(client: Any) -> None:
    """A bot lets people take back their moves (docs/protocol.md, "Undo by consent")."""
    client.undo.auto_accept = True


#: Seconds an mcts page bot thinks per decision, by strength (``add_bot.strength``).
STRENGTH_BUDGETS: Final = {1: 0.05, 2: 0.1, 3: 0.25, 4: 0.5, 5: 1.0}


class PageBotCommand:
    """How a peer runs the bots people add from its page: ``lantable bot`` in a process
    of its own (the peer's ``BotRunner``, host/pagebots.py), with the seat's token on
    standard input. ``lantable host`` gives it to the peer."""

    def strategies(self, game: Game) -> list[str]:
        """The strategies that can play ``game`` (mcts and greedy need its sampler)."""
        out = []
        for strategy in STRATEGIES:
            try:
                make_bot(strategy, game)
            except ValueError:
                continue
            out.append(strategy)
        return out

    def command(self, *, host: str, port: int, table: str, strategy: str,
                strength: int | None, name: str) -> list[str]:
        where = f"[{host}]" if ":" in host else host
        argv = [sys.executable, "-m", "lantable.clients.cli", "bot", "--connect",
                f"{where}:{port}", "--table", table, "--strategy", strategy, "--name", name,
                "--token", "-", "--seed", str(secrets.randbelow(2**31)), "--json"]
        if strategy == "mcts" and strength is not None:
            argv += ["--budget", str(STRENGTH_BUDGETS[strength])]
        return argv
