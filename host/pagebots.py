"""Page bots: the bots a person adds from the browser, run by the peer itself.

A page bot is an ordinary network client of this peer (docs/decisions.md, "Page bots
are subprocesses"): the peer starts the program its composition root names (the
``lantable bot`` command, given as a :class:`BotRunner`), which connects over loopback
and plays the seat with the token the peer hands it on its standard input. The host
never imports a bot: it reserves the seat, journals it, starts and stops the process,
and counts the bots against ``Limits.max_page_bots``.

A bot *added* to a waiting table owns its seat (the seat's token is the bot's). A seat
*handed* to a bot keeps its player's token; the bot gets a token of its own, so the
host can tell the player coming back (who takes the seat back: the bot stops) from
the bot reconnecting.
"""

from __future__ import annotations

import logging
import math
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

import trio

if TYPE_CHECKING:
    from lantable.plugins import Game

    from .limits import Limits

LOGGER = logging.getLogger(__name__)

#: The strengths an mcts page bot may be given (``add_bot.strength``).
STRENGTHS: Final = range(1, 6)
DEFAULT_STRENGTH: Final = 2
#: How a page bot is named at a table, by strategy (made unique there: "Random bot (2)").
NAMES: Final = {"random": "Random bot", "greedy": "Greedy bot", "mcts": "Thinking bot"}
#: Tries to start a bot whose process fails (a crash, a host it could not reach).
TRIES: Final = 3
RETRY_AFTER: Final = 1.0  # seconds between them


class BotRunner(Protocol):
    """What the peer needs to run bots: given by the ``lantable`` command."""

    def strategies(self, game: Game) -> list[str]:
        """The strategies that can play ``game``."""
        ...

    def command(self, *, host: str, port: int, table: str, strategy: str,
                strength: int | None, name: str) -> list[str]:
        """The command line of one bot (its seat's token comes on standard input)."""
        ...


@dataclass(slots=True)
class PageBot:
    """A seat's page bot: how it plays, and the token it resumes the seat with."""

    strategy: str
    strength: int | None
    token: str  # the seat's own token (added) or the bot's own (handed)
    handed: bool  # True: the seat is a person's, handed to the bot while they are away

    def entry(self) -> dict[str, Any]:
        """The seat entry's ``bot`` map (docs/protocol.md, "Seat entry")."""
        return {"strategy": self.strategy, "strength": self.strength, "handed": self.handed}


class PageBots:
    """The peer's page bots: checks, the count against the limit, and the processes.

    :meth:`start` and :meth:`stop` are called from table code (synchronous); the
    processes run in :meth:`serve`'s nursery, which the peer runs beside its listeners.
    """

    def __init__(self, runner: BotRunner, limits: Limits) -> None:
        self.runner = runner
        self.limits = limits
        self.address: tuple[str, int] | None = None  # where bots connect (set by serve)
        self._running: dict[tuple[str, int], trio.CancelScope] = {}  # queued or running
        self._jobs, self._queue = trio.open_memory_channel[
            tuple[tuple[str, int], trio.CancelScope, PageBot, str]](math.inf)
        self._strategies: dict[str, list[str]] = {}

    def strategies(self, game: Game) -> list[str]:
        if game.id not in self._strategies:
            self._strategies[game.id] = list(self.runner.strategies(game))
        return self._strategies[game.id]

    def refusal(self, game: Game, strategy: str, strength: int | None) -> str | None:
        """Why this bot cannot play ``game`` (a sentence), or None."""
        known = self.strategies(game)
        if strategy not in known:
            return (f"{game.id} can be played by these bots: {', '.join(known)}; "
                    f"not {strategy!r}")
        if strength is not None:
            if strategy != "mcts":
                return f"only an mcts bot takes a strength; a {strategy} bot has none"
            if strength not in STRENGTHS:
                return (f"strength {strength} is out of range: give "
                        f"{STRENGTHS[0]} to {STRENGTHS[-1]}")
        return None

    @staticmethod
    def name(strategy: str) -> str:
        """A page bot's name at a table, before it is made unique."""
        return NAMES.get(strategy, f"{strategy.capitalize()} bot")

    def strength(self, strategy: str, strength: int | None) -> int | None:
        """The strength a bot plays at (mcts: the default if none was given)."""
        return (strength or DEFAULT_STRENGTH) if strategy == "mcts" else None

    def full(self) -> str | None:
        """Why no bot can be added now (the peer's limit), or None."""
        if len(self._running) >= self.limits.max_page_bots:
            return (f"this peer already runs {len(self._running)} bots, its limit; remove "
                    "one, or run more with `lantable bot` on another machine")
        return None

    def running(self, table: str, seat: int) -> bool:
        return (table, seat) in self._running

    def start(self, table: str, seat: int, bot: PageBot, name: str) -> None:
        """Run a bot for ``seat`` of ``table`` (queued until :meth:`serve` runs)."""
        self.stop(table, seat)
        scope = trio.CancelScope()
        self._running[(table, seat)] = scope
        self._jobs.send_nowait(((table, seat), scope, bot, name))

    def stop(self, table: str, seat: int) -> None:
        """Stop the bot of ``seat`` (its process is ended), if there is one."""
        scope = self._running.pop((table, seat), None)
        if scope is not None:
            scope.cancel()

    async def serve(self, address: tuple[str, int], *,
                    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run the bots, connecting to ``address``, until cancelled (which ends them)."""
        self.address = address
        async with trio.open_nursery() as nursery:
            task_status.started()
            async for job in self._queue:
                nursery.start_soon(self._run, *job)

    async def _run(self, key: tuple[str, int], scope: trio.CancelScope, bot: PageBot,
                   name: str) -> None:
        assert self.address is not None
        table, seat = key
        argv = self.runner.command(host=self.address[0], port=self.address[1], table=table,
                                   strategy=bot.strategy, strength=bot.strength, name=name)
        with scope:
            for attempt in range(1, TRIES + 1):
                LOGGER.info("table %s seat %d: starting page bot %s (%s)", table, seat, name,
                            bot.strategy)
                done = await trio.run_process(argv, stdin=(bot.token + "\n").encode(),
                                              stdout=subprocess.DEVNULL, capture_stderr=True,
                                              check=False)
                if done.returncode == 0:
                    break
                why = done.stderr.decode("utf-8", "replace").strip()[-500:]
                LOGGER.warning("table %s seat %d: page bot %s exited with %d (try %d of %d): "
                               "%s", table, seat, name, done.returncode, attempt, TRIES, why)
                if attempt < TRIES:
                    await trio.sleep(RETRY_AFTER)
        if self._running.get(key) is scope:
            del self._running[key]
