"""Turn clocks and pause by consent (issue 30, items 2 and 7; docs/protocol.md,
"Turn clocks and pause").

A table may have a clock, a host-level table option (``create.clock``), not a game
option: ``{"kind": "decision", "seconds": 30}`` gives every decision of a seat that
long; ``{"kind": "chess", "seconds": 600, "increment": 5}`` gives each seat one
budget for the game, plus ``increment`` after each of its actions. When a seat's time
runs out, ``on_timeout`` applies: ``"bot"`` hands the seat to one of the peer's page
bots until its player takes it back, ``"default"`` plays the game's default action for
the seat (``game_default_action``; a bot where the game names none at that point),
``"forfeit"`` ends the table with that seat last.

Any table (clock or not) can be paused when every seat agrees: a seat asks (``pause``),
every other seat consents (bots consent; a seat whose player is away consents to a
pause, never to a resume), and the clock stops; resuming takes the same consent.

Every time-out, pause and resume is journalled (``Journal.clock_append``), with the
remaining time of every seat, so a restarted peer restores the table paused or with
its clocks, and ``lantable replay`` and ``lantable verify`` see them. The clock is the
host's word: nobody else can measure when an action reached the host.

Updates carry ``clock`` (remaining milliseconds per seat, as of the update's sending:
no wall time, so the machines' clocks need not agree) and ``pause``.
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import trio

from lantable.plugins import BadOptions
from lantable.protocol import Error, ErrorCode, PauseNoted

from .pagebots import PageBot

if TYPE_CHECKING:
    from .link import ClientLink

# The table (host/table.py) imports this module; this one names it ``Any`` and imports
# nothing from it, so that the two form no import cycle (tests/test_architecture.py).
Table = Any
PLAYING: Final = "playing"  # host/table.py's status of a table in play

LOGGER = logging.getLogger(__name__)

DECISION: Final = "decision"
CHESS: Final = "chess"
KINDS: Final = (DECISION, CHESS)
BOT: Final = "bot"
DEFAULT: Final = "default"
FORFEIT: Final = "forfeit"
OUTCOMES: Final = (BOT, DEFAULT, FORFEIT)
#: Bounds of a clock's options (docs/limits.md, "Turn clocks").
SECONDS: Final = range(2, 86_401)  # a decision's or a game's seconds
INCREMENT: Final = range(0, 3_601)  # seconds added after each action (chess)
#: A seat taken back from the bot its time-out handed it to has at least this long.
COMEBACK_MS: Final = 30_000
#: The strategy a timed-out seat is handed to (the first the game offers if absent).
TIMEOUT_BOT: Final = "random"


@dataclass(frozen=True, slots=True)
class ClockConfig:
    kind: str
    seconds: int
    increment: int = 0
    on_timeout: str = BOT

    @classmethod
    def from_map(cls, given: Any) -> ClockConfig:
        """Raises BadOptions with a sentence naming what is wrong."""
        if not isinstance(given, dict):
            raise BadOptions("clock must be a map like {\"kind\": \"decision\", \"seconds\": 30}")
        unknown = sorted(map(str, set(given) - {"kind", "seconds", "increment", "on_timeout"}))
        if unknown:
            raise BadOptions(f"clock: unknown field(s) {unknown}; known: kind, seconds, "
                             "increment, on_timeout")
        kind = given.get("kind", DECISION)
        if kind not in KINDS:
            raise BadOptions(f"clock: kind {kind!r}, expected one of {list(KINDS)}")
        seconds = given.get("seconds")
        if type(seconds) is not int or seconds not in SECONDS:
            raise BadOptions(f"clock: seconds {seconds!r}, expected a whole number "
                             f"{SECONDS[0]}..{SECONDS[-1]}")
        increment = given.get("increment", 0)
        if type(increment) is not int or increment not in INCREMENT:
            raise BadOptions(f"clock: increment {increment!r}, expected a whole number "
                             f"{INCREMENT[0]}..{INCREMENT[-1]}")
        if increment and kind != CHESS:
            raise BadOptions("clock: an increment is for a chess clock (kind \"chess\")")
        outcome = given.get("on_timeout", BOT)
        if outcome not in OUTCOMES:
            raise BadOptions(f"clock: on_timeout {outcome!r}, expected one of {list(OUTCOMES)}")
        return cls(kind, seconds, increment, outcome)

    def to_map(self) -> dict[str, Any]:
        return {"kind": self.kind, "seconds": self.seconds, "increment": self.increment,
                "on_timeout": self.on_timeout}


@dataclass(slots=True)
class Timing:
    """A table's clock (if it has one) and its pause state."""

    table: Table
    config: ClockConfig | None = None
    left_ms: list[int] = field(default_factory=list)  # per seat, as of ``since``
    running: list[int] = field(default_factory=list)  # the seats whose time runs
    since: float = 0.0  # trio time the running seats' time was last charged
    paused: bool = False
    ask: dict[str, Any] | None = None  # {"paused": target, "by": seat, "agreed": set()}
    _timer: trio.CancelScope | None = None

    # -- creation and restoration -------------------------------------------------

    @classmethod
    def create(cls, table: Table, clock: dict[str, Any] | None) -> Timing:
        """Raises BadOptions for a bad ``clock``, or one a fair table cannot keep."""
        config = None if clock is None else ClockConfig.from_map(clock)
        if config is not None and table.fair is not None and config.on_timeout != FORFEIT:
            raise BadOptions("clock: at a fair table a seat signs its own actions, so no bot "
                             "can act for it; use on_timeout \"forfeit\"")
        if config is not None and config.on_timeout == DEFAULT and \
                not table.game.has_default_action:
            raise BadOptions(f"clock: {table.game.id} names no default action; use "
                             "on_timeout \"bot\" or \"forfeit\"")
        timing = cls(table, config)
        timing.left_ms = [timing._budget()] * table.seats_n
        return timing

    def journal_config(self) -> None:
        if self.config is not None:
            self.table.journal.clock_append(self.table.id, {"kind": "config",
                                                            "clock": self.config.to_map()})

    @classmethod
    def restore(cls, table: Table, records: list[dict[str, Any]]) -> Timing:
        """The table's timing as its journal left it: the clock with each seat's time
        at the last record (time the peer was down is nobody's), and paused or not."""
        config = None
        timing = cls(table)
        timing.left_ms = [0] * table.seats_n
        for rec in records:
            if rec.get("kind") == "config":
                config = ClockConfig.from_map(rec.get("clock"))
                timing.config = config
                timing.left_ms = [timing._budget()] * table.seats_n
            if isinstance(rec.get("left_ms"), list) and len(rec["left_ms"]) == table.seats_n:
                timing.left_ms = list(rec["left_ms"])
            if rec.get("kind") == "pause":
                timing.paused = True
            elif rec.get("kind") == "resume":
                timing.paused = False
        return timing

    def _budget(self) -> int:
        return 0 if self.config is None else self.config.seconds * 1000

    # -- the clock ----------------------------------------------------------------

    def _now(self) -> float:
        """trio's clock inside the peer, else the monotonic one (as host/table.py)."""
        try:
            return trio.current_time()
        except RuntimeError:
            return time.monotonic()

    def _charge(self) -> None:
        """Take the time since ``since`` off every running seat."""
        now = self._now()
        used = int((now - self.since) * 1000)
        for seat in self.running:
            self.left_ms[seat] -= used
        self.since = now

    def _timed(self, to_act: list[int]) -> list[int]:
        """The seats whose time runs: those to act, played by a person (bots are not
        timed)."""
        return [s for s in to_act if self.table.seats[s].bot is None]

    def start(self, to_act: list[int]) -> None:
        """The game started, or the peer restored a playing table."""
        if self.config is None or self.paused:
            return
        self.since = self._now()
        self.running = self._timed(to_act)
        self._arm()

    def acted(self, seat: int | None, to_act: list[int]) -> None:
        """An action of ``seat`` was accepted (or the seats changed: ``seat`` None);
        ``to_act`` are the seats to act now. Called before the update is sent."""
        if self.config is None or self.paused:
            return
        self._charge()
        was = set(self.running)
        self.running = self._timed(to_act)
        if seat is not None and self.config.kind == CHESS:
            self.left_ms[seat] += self.config.increment * 1000
        for s in self.running:
            if self.config.kind == DECISION and (s == seat or s not in was):
                self.left_ms[s] = self._budget()  # a new decision
        if seat is not None and self.config.kind == CHESS:
            self.table.journal.clock_append(self.table.id, {
                "kind": "tick", "seq": self.table.seq, "left_ms": list(self.left_ms)})
        self._arm()

    def stop(self) -> None:
        """The table ended: the clock stops."""
        if self.config is not None and self.running:
            self._charge()
        self.running = []
        self._disarm()

    def comeback(self, seat: int) -> None:
        """A person took back a seat that a bot played: their time runs again."""
        if self.config is None:
            return
        self.left_ms[seat] = max(self.left_ms[seat], min(COMEBACK_MS, self._budget()))
        self.acted(None, self.table.g.to_act(self.table.state))

    def summary(self) -> dict[str, Any]:
        """What the table's summary (lobby) adds: its clock, and whether it is paused."""
        out: dict[str, Any] = {}
        if self.config is not None:
            out["clock"] = self.config.to_map()
        if self.paused:
            out["paused"] = True
        return out

    def entry(self) -> dict[str, Any] | None:
        """The update's ``clock`` (docs/protocol.md): remaining ms as of now."""
        if self.config is None:
            return None
        used = 0 if self.paused or not self.running else int((self._now() - self.since) * 1000)
        left = [max(0, ms - used) if s in self.running else max(0, ms)
                for s, ms in enumerate(self.left_ms)]
        return {**self.config.to_map(), "left_ms": left,
                "running": [] if self.paused else list(self.running)}

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self) -> None:
        """A trio system task that calls :meth:`expire` when the first running seat's
        time is up (outside trio, tests call :meth:`expire`)."""
        self._disarm()
        if not self.running or self.paused:
            return
        first = min(self.left_ms[s] for s in self.running)
        try:
            scope = trio.CancelScope(deadline=self.since + max(first, 0) / 1000)
        except RuntimeError:
            return
        self._timer = scope

        async def wait() -> None:
            with scope:
                await trio.sleep_forever()
            if self._timer is scope and trio.current_time() >= scope.deadline:
                self._timer = None
                self.table.clock_expired()

        try:
            trio.lowlevel.spawn_system_task(wait, name=f"clock {self.table.id}")
        except RuntimeError:
            self._timer = None

    def expire(self) -> None:
        """Apply ``on_timeout`` to every running seat whose time is up."""
        if self.config is None or self.paused or not self.running:
            return
        self._charge()
        out = [s for s in self.running if self.left_ms[s] <= 0]
        if not out:
            self._arm()
            return
        t = self.table
        limit = self.config.seconds
        for seat in out:
            if t.status != PLAYING:
                return
            self.left_ms[seat] = 0
            outcome = self.config.on_timeout
            bots = t.page_bots
            strategy = None
            default = None
            if outcome == DEFAULT:
                default = t.g.default_action(t.state, seat)
                if default is None or default not in t.g.legal_actions(t.state, seat):
                    outcome = BOT  # the game names none now: a bot plays the seat
            why = ""
            if outcome == BOT:
                strategy = self._strategy()
                if strategy is None or bots is None or bots.full() is not None:
                    outcome = FORFEIT  # no bot can play it here: the rule falls back
                    why = " (no bot of this peer can play for them now)"
            record = {"kind": "timeout", "seq": t.seq, "seat": seat, "outcome": outcome,
                      "seconds": limit, "left_ms": list(self.left_ms)}
            name = t.seats[seat].name
            what = (f"{name} ran out of time ({_limit(self.config)})")
            if outcome == FORFEIT:
                scores = t.forfeit_scores([seat])
                record["scores"] = scores
                t.journal.clock_append(t.id, record)
                if t.fair is not None:  # its final result names the forfeit (verify)
                    t.journal.fair_append(t.id, {"kind": "forfeit", "event": None,
                                                 "seats": [seat], "clock": True})
                LOGGER.info("table %s: seat %d ran out of time; it forfeits", t.id, seat)
                t.send_all(Error(code=ErrorCode.OUT_OF_TIME, table=t.id,
                                 message=f"{what}: the table ends and {name} forfeits{why}."))
                self.stop()
                t.forfeit([seat])
                return
            if outcome == DEFAULT:
                assert default is not None
                record["action"] = default
                t.journal.clock_append(t.id, record)
                LOGGER.info("table %s: seat %d ran out of time; the game's default action "
                            "is played", t.id, seat)
                t.send_all(Error(code=ErrorCode.OUT_OF_TIME, table=t.id,
                                 message=f"{what}: the game plays its default move for "
                                         f"{name}."))
                t.act_for(seat, default)  # its update follows, with the clock
                return
            assert strategy is not None and bots is not None
            record["strategy"] = strategy
            t.journal.clock_append(t.id, record)
            self._to_bot(seat, strategy, f"{what}: a {strategy} bot plays for {name} until "
                                         f"{name} takes the seat back.")
        self.acted(None, t.g.to_act(t.state))
        t.broadcast_full()

    def _strategy(self) -> str | None:
        bots = self.table.page_bots
        if bots is None:
            return None
        known = bots.strategies(self.table.game)
        return TIMEOUT_BOT if TIMEOUT_BOT in known else (known[0] if known else None)

    def _to_bot(self, seat: int, strategy: str, message: str) -> None:
        """Hand ``seat`` to a page bot, as ``hand_to_bot`` does: its player keeps the
        token and watches; they take the seat back with a ``resume``."""
        t = self.table
        bots = t.page_bots
        assert bots is not None
        slot = t.seats[seat]
        client = slot.client
        if client is not None:
            client.seats.get(t.id, set()).discard(seat)
            if not client.seats.get(t.id):
                t.spectators.add(client)
                client.watching.add(t.id)
        slot.client, slot.away_since = None, self._now()
        bot = PageBot(strategy, bots.strength(strategy, None), secrets.token_urlsafe(18),
                      handed=True)
        slot.bot = bot
        t.journal.add_page_bot(t.id, seat, strategy, bot.strength, bot.token, True)
        assert slot.name is not None
        bots.start(t.id, seat, bot, f"{strategy} bot for {slot.name}")  # table.bot_name
        LOGGER.info("table %s: seat %d ran out of time; a %s bot plays it", t.id, seat,
                    strategy)
        t.send_all(Error(code=ErrorCode.OUT_OF_TIME, table=t.id, message=message))
        if client is not None and client not in t.spectators:  # it holds other seats here
            client.send(Error(code=ErrorCode.OUT_OF_TIME, table=t.id, message=message))

    # -- pause by consent -------------------------------------------------------------

    def pause_entry(self) -> dict[str, Any] | None:
        """The update's ``pause`` (docs/protocol.md): None when not paused and nobody
        asks."""
        if not self.paused and self.ask is None:
            return None
        ask = None
        if self.ask is not None:
            ask = {"paused": self.ask["paused"], "by": self.ask["by"],
                   "agreed": sorted(self.ask["agreed"]), "waiting": self._waiting()}
        return {"paused": self.paused, "ask": ask}

    def _consents(self, seat: int, target: bool) -> bool:
        """Whether ``seat`` consents without being asked: a bot does; a seat whose
        player is away consents to a pause (never to a resume: they must be back)."""
        slot = self.table.seats[seat]
        if slot.bot is not None:
            return True
        return target and slot.client is None

    def _waiting(self) -> list[int]:
        assert self.ask is not None
        return [s for s in range(self.table.seats_n)
                if s not in self.ask["agreed"] and not self._consents(s, self.ask["paused"])]

    def request(self, client: ClientLink, req_id: int, seat: int | None, paused: bool) -> None:
        """A seat's ``pause`` request (see :class:`Timing`); never raises."""
        t = self.table

        def refuse(code: ErrorCode, message: str) -> None:
            client.send(Error(code=code, id=req_id, table=t.id, message=message))

        mine = client.seats.get(t.id, set())
        if seat is None and len(mine) == 1:
            (seat,) = mine
        if seat is None or seat not in mine:
            refuse(ErrorCode.NOT_SEATED, "only a seat at this table can ask to pause or "
                   "resume it" if not mine else "this connection holds several seats; say which")
            return
        if t.status != PLAYING:
            refuse(ErrorCode.BAD_PAUSE, f"the table is {t.status}: only a game in play pauses")
            return
        if self.ask is not None and self.ask["paused"] != paused:
            # the seat wants the state the table is in: that refuses the open request
            by = self.ask["by"]
            self.ask = None
            t.send_all(Error(code=ErrorCode.BAD_PAUSE, table=t.id,
                             message=f"{t.seats[seat].name} said no: the table stays "
                                     f"{'paused' if self.paused else 'in play'} "
                                     f"(asked by {t.seats[by].name})"))
            client.send(PauseNoted(id=req_id, table=t.id, paused=self.paused, waiting=[]))
            t.broadcast_full()
            return
        if self.ask is None:
            if paused == self.paused:
                refuse(ErrorCode.BAD_PAUSE, "the table is paused already" if paused
                       else "the table is not paused")
                return
            self.ask = {"paused": paused, "by": seat, "agreed": {seat}}
        else:
            self.ask["agreed"].add(seat)
        waiting = self._waiting()
        if not waiting:
            self._flip(seat)
        client.send(PauseNoted(id=req_id, table=t.id, paused=self.paused, waiting=waiting))
        t.broadcast_full()

    def _flip(self, seat: int) -> None:
        """Every seat agreed: pause or resume, journalled."""
        t = self.table
        assert self.ask is not None
        target, by = self.ask["paused"], self.ask["by"]
        self.ask = None
        if target:
            if self.config is not None and self.running:
                self._charge()
            self._disarm()
            self.paused = True
        else:
            self.paused = False
            self.start(t.g.to_act(t.state))
        t.journal.clock_append(t.id, {"kind": "pause" if target else "resume", "seq": t.seq,
                                      "by": by, "left_ms": list(self.left_ms)})
        LOGGER.info("table %s %s (asked by seat %d)", t.id, "paused" if target else "resumed",
                    by)

    def drop_ask(self) -> None:
        """A seat changed hands: an open request is asked again from scratch."""
        self.ask = None


def _limit(config: ClockConfig) -> str:
    if config.kind == DECISION:
        return f"{config.seconds} s per decision"
    extra = f" plus {config.increment} s a move" if config.increment else ""
    return f"a clock of {_duration(config.seconds)}{extra}"


def _duration(seconds: int) -> str:
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s" if seconds < 60 else f"{seconds // 60} min {seconds % 60} s"


def describe(config: Any) -> str:
    """A clock config as a person reads it ("30 s per decision, then a bot plays")."""
    try:
        c = ClockConfig.from_map(config)
    except BadOptions:
        return "a clock"
    then = {BOT: "a bot plays the seat", DEFAULT: "the game's default move is played",
            FORFEIT: "the seat forfeits"}[c.on_timeout]
    return f"{_limit(c)}; out of time, {then}"


def clock_lines(records: list[dict[str, Any]], names: dict[int, str]
                ) -> dict[int, list[str]]:
    """The clock's records as sentences, by the move they follow (-1: the clock's
    config, before any move; chess ticks are left out)."""
    out: dict[int, list[str]] = {}
    for rec in records:
        if rec.get("kind") == "config":
            out.setdefault(-1, []).append(f"clock: {describe(rec.get('clock'))}")
        elif rec.get("kind") in ("timeout", "pause", "resume"):
            seq = rec.get("seq")
            out.setdefault(seq if isinstance(seq, int) else 0, []).append(
                timeout_line(rec, names))
    return out


def timeout_line(rec: dict[str, Any], names: dict[int, str]) -> str:
    """A journal's time-out record as a sentence (``lantable replay``)."""
    seat = rec.get("seat")
    who = f"seat {seat} ({names.get(seat, '?') if isinstance(seat, int) else '?'})"
    if rec.get("kind") == "timeout":
        then = (f"a {rec.get('strategy', '?')} bot plays it" if rec.get("outcome") == BOT
                else f"the game's default action {rec.get('action')} is played for it"
                if rec.get("outcome") == DEFAULT else "it forfeits; the table ends")
        return f"clock: {who} ran out of time after move {rec.get('seq')}: {then}"
    if rec.get("kind") in ("pause", "resume"):
        by = rec.get("by")
        return (f"clock: the table was {'paused' if rec['kind'] == 'pause' else 'resumed'} "
                f"after move {rec.get('seq')} by everyone's consent (asked by seat {by})")
    return f"clock: {rec}"


__all__ = ["ClockConfig", "Timing", "clock_lines", "describe", "timeout_line"]
