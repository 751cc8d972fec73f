"""One game table: its seats, its state, and the requests that change them.

:class:`Table` is synchronous and does no I/O but journal writes, so it can be
tested without a network. The connection task that reads a request calls the
table's request method (:meth:`Table.act`, :meth:`Table.join`, ...) directly; since
none of them awaits and trio runs one task at a time, a table's requests are
applied one at a time with no locks around game state (docs/decisions.md, "Tables
are handled where the request is read"). Replies and updates are only buffered on
each client's link and written at the end of the scheduler batch; the table never
waits on a peer (docs/architecture.md).
"""

from __future__ import annotations

import functools
import logging
import math
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Concatenate, Final, ParamSpec, TypeVar

import trio

from lantable.plugins import BadOptions, IllegalAction
from lantable.plugins.params import is_template
from lantable.plugins.types import Action, Event, Scores, State, View
from lantable.protocol import (
    Accepted,
    Answer,
    BotAdded,
    BotRemoved,
    Error,
    ErrorCode,
    Joined,
    Left,
    LocalProtocolError,
    Packed,
    PackedMap,
    SharedUpdate,
)
from lantable.protocol.undo import is_undo, undone_seqs

from .clock import Timing
from .fairplay import FairConfig, FairTable
from .names import unique_name
from .pagebots import PageBot
from .undo import TableUndo, check_policy
from .words import seat_names, update_words

if TYPE_CHECKING:
    import pluggy

    from lantable.plugins import Game
    from lantable.plugins.decks import Requests
    from lantable.protocol import DeckPass, DeckSecretsMessage, DeckUnlock, Message

    from .journal import ActionRecord, Journal, TableRecord
    from .link import ClientLink
    from .pagebots import PageBots

LOGGER = logging.getLogger(__name__)

WAITING: Final = "waiting"
PLAYING: Final = "playing"
FINISHED: Final = "finished"
FAULTED: Final = "faulted"
ABANDONED: Final = "abandoned"  # journal only: a waiting table closed with no seat taken

# How long a join's nonce (join.join_id) may be: long enough not to be guessed, short
# enough to cost nothing to keep per seat.
JOIN_ID_SIZES: Final = range(8, 33)


_R = TypeVar("_R")
_T = TypeVar("_T", bound="Table")
_Id = TypeVar("_Id", bound=int | None)
_P = ParamSpec("_P")


class GameFailed(Exception):
    """The game plugin raised something other than :class:`IllegalAction` (its bug).

    Only this faults a table. Anything else that goes wrong while a table handles a
    request (an update too large to encode, a bug in the host) is a host error: it is
    logged and answered with ``internal``, and the table goes on.
    """


class GuardedGame:
    """The table's handle on its :class:`~lantable.plugins.Game`: every call that runs
    plugin code turns the plugin's own exceptions into :class:`GameFailed`, so the table
    can tell a game's bug from its own."""

    __slots__ = ("game", "id")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.id = game.id

    def _call(self, fn: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return fn(*args, **kwargs)
        except (IllegalAction, BadOptions):
            raise
        except Exception as exc:
            raise GameFailed(f"game {self.id}: {fn.__name__} raised {exc!r}") from exc

    def _failed(self, name: str, exc: Exception) -> GameFailed:
        """The fault of a game call that raised ``exc`` (as :meth:`_call` words it)."""
        return GameFailed(f"game {self.id}: {name} raised {exc!r}")

    def blame(self, fn: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
        """Run host code that carries out what the game asked (a deck request): if it
        fails, the request was the game's bug, and faults the table like one."""
        return self._call(fn, *args, **kwargs)

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random,
              decks: Requests | None = None) -> State:
        return self._call(self.game.setup, seats, options, rng, decks)

    # The four calls of every action are written out (not through ``_call``): one Python
    # call fewer each, on the host's hottest path.

    def to_act(self, state: State) -> list[int]:
        try:
            return self.game.to_act(state)
        except (IllegalAction, BadOptions):
            raise
        except Exception as exc:
            raise self._failed("to_act", exc) from exc

    def is_over(self, state: State) -> bool:
        return self._call(self.game.is_over, state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        try:
            return self.game.legal_actions(state, seat)
        except (IllegalAction, BadOptions):
            raise
        except Exception as exc:
            raise self._failed("legal_actions", exc) from exc

    def apply(self, state: State, seat: int, action: Action,
              rng: random.Random, decks: Requests | None = None) -> list[Event]:
        try:
            return self.game.apply(state, seat, action, rng, decks)
        except (IllegalAction, BadOptions):
            raise
        except Exception as exc:
            raise self._failed("apply", exc) from exc

    def cards_opened(self, state: State, deck: str, cards: dict[int, int], seat: int | None,
                     decks: Requests) -> list[Event]:
        return self._call(self.game.cards_opened, state, deck, cards, seat, decks)

    def view(self, state: State, seat: int | None) -> View:
        return self._call(self.game.view, state, seat)

    def default_action(self, state: State, seat: int) -> Action | None:
        return self._call(self.game.default_action, state, seat)

    def view_parts(self, state: State) -> tuple[View, list[View]] | None:
        try:
            return self.game.view_parts(state)
        except (IllegalAction, BadOptions):
            raise
        except Exception as exc:
            raise self._failed("view_parts", exc) from exc

    def scores(self, state: State) -> Scores:
        return self._call(self.game.scores, state)

    def undo_barrier(self, events: list[Event], state: State) -> bool:
        return self._call(self.game.undo_barrier, events, state)


def canonical_action(action: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's own legal action equal to ``action``, else ``action`` itself.

    Python says ``54.0 == 54`` and ``True == 1``, so a client's float-for-int action
    passes the game's ``action in legal`` test and then breaks the game later (a float
    list index), also on every replay. Applying and journalling the game's own copy
    keeps the client's encoding out of the game and out of the journal.
    """
    for option in legal:
        if option == action:
            return option
    return action


_NO_FLOATS: Final = frozenset({int, str, bool, bytes, type(None)})


def whole_numbers(value: Any) -> tuple[Any, bool]:
    """``value`` with every float that is a whole number made an int (``9.0`` -> ``9``),
    and whether any was: what a client sends is the game's own value at every table,
    including a hidden-deck table, where the host cannot list the legal actions to
    copy (a float list index broke the seats' client halves there).

    Raises:
        ValueError: a float that is not a number (NaN, infinity).
    """
    if type(value) is dict and all([type(v) in _NO_FLOATS for v in value.values()]):
        return value, False  # a flat map without floats, as most actions are
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not a number")
        return (int(value), True) if value.is_integer() else (value, False)
    if isinstance(value, dict):
        changed = False
        out = {}
        for key, item in value.items():
            out[key], c = whole_numbers(item)
            changed |= c
        return (out, True) if changed else (value, False)
    if isinstance(value, list):
        items = [whole_numbers(item) for item in value]
        if any(c for _, c in items):
            return [item for item, _ in items], True
    return value, False


def unexpected_fields(action: dict[str, Any], legal: list[dict[str, Any]]) -> str | None:
    """Why ``action`` has fields no legal action of its kind has, or None.

    A legal action padded with junk would be applied (the game reads only its own keys)
    and journalled with the junk; the game's actions, and the parameters of its
    templates, name every field an action may have (docs/plugins.md, "Templates").
    """
    if not legal:
        return None
    kind = action.get("type")
    same = [option for option in legal if option.get("type") == kind] or legal
    allowed: set[Any] = set()
    for option in same:
        if is_template(option):
            allowed |= (set(option) - {"params"}) | set(option["params"])
        else:
            allowed |= set(option)
    extra = set(action) - allowed
    if not extra:
        return None
    names = ", ".join(sorted(map(repr, extra))[:5])
    return (f"the action has field(s) {names} that no legal action of its kind has; "
            "send only the game's own fields")


def _request(method: Callable[Concatenate[_T, ClientLink, _Id, _P], None]
             ) -> Callable[Concatenate[_T, ClientLink, _Id, _P], None]:
    """Make a table method a request a connection calls directly: a game plugin
    failure faults the table, then restores it; any other failure is the host's:
    logged, answered ``internal``, the table unchanged. Either way the request with an
    id (``req_id``) is answered, and nothing reaches the caller."""

    @functools.wraps(method)
    def request(table: _T, client: ClientLink, req_id: _Id, /, *args: _P.args,
                **kwargs: _P.kwargs) -> None:
        try:
            method(table, client, req_id, *args, **kwargs)
        except GameFailed:
            LOGGER.exception("table %s: game %s failed; restoring from the journal",
                             table.id, table.game.id)
            if req_id is not None:
                client.send(Error(code=ErrorCode.TABLE_FAULTED, id=req_id, table=table.id,
                                  message="the game failed on that request; "
                                          "the table was restored"))
            table._restore_after_fault()
        except Exception:
            LOGGER.exception("table %s: host error while handling %s; the table goes on",
                             table.id, method.__name__)
            if req_id is not None:
                client.send(Error(code=ErrorCode.INTERNAL, id=req_id, table=table.id,
                                  message="the host failed on that request (a bug, logged "
                                          "there); the table is unchanged"))

    return request


def _now() -> float:
    """The time for "away since": trio's clock inside the peer, else the monotonic one."""
    try:
        return trio.current_time()
    except RuntimeError:
        return time.monotonic()


@dataclass(slots=True)
class Seat:
    name: str | None = None
    token: str | None = None
    client: ClientLink | None = None
    join_id: bytes | None = None  # the nonce of the join that took it, if it had one
    address: str | None = None  # where the join that took it came from (not journalled)
    bot: PageBot | None = None  # the page bot that plays it (host/pagebots.py)
    away_since: float | None = None  # when its player's connection went (taken seats)
    reserved: bool = False  # kept for a rematch's player (``name``) until they confirm


    def entry(self, now: float) -> dict[str, Any]:
        """The seat as updates show it (docs/protocol.md, "Seat entry")."""
        out: dict[str, Any] = {"name": self.name, "taken": bool(self.token),
                               "connected": self.client is not None}
        if self.bot is not None:
            out["bot"] = self.bot.entry()
        if self.token and self.client is None and self.away_since is not None:
            out["away"] = max(0, int(now - self.away_since))
        if self.reserved:
            out["reserved"] = True  # host/rematch.py
        return out


@dataclass(slots=True)
class Table:
    """A table's seats, state and history.

    A connection calls the request methods (:meth:`join`, :meth:`act`, ...) directly;
    each answers its request and never raises (see :func:`_request`)."""

    id: str
    game: Game
    seats_n: int
    options: dict[str, Any]
    seed: int
    journal: Journal
    pm: pluggy.PluginManager | None = None
    status: str = WAITING
    seats: list[Seat] = field(default_factory=list)
    spectators: set[ClientLink] = field(default_factory=set)
    state: State = field(default_factory=dict)  # the game's, set up by _setup
    rng: random.Random = field(default_factory=random.Random)  # replaced by _setup
    seq: int = 0
    on_change: Any = None  # called with no arguments when the summary changes
    fair: FairTable | None = None  # fair play: the seats' commit-reveal feeds the rng
    final_scores: dict[str, Any] | None = None  # set when the table ends other than by the game
    creator: str = ""  # the address that opened the table (per-client table limit)
    max_spectators: int = 64  # the peer sets its limit (Limits.max_spectators)
    # trio time since when nobody is at the table: no seat taken (waiting), or no seat
    # connected at a table one person plays alone (playing; host/lobby.py)
    empty_since: float | None = None
    page_bots: PageBots | None = None  # the peer's page bots; None: it runs none
    bot_grace: float = 30.0  # seconds a seat's player is away before it may go to a bot
    timing: Timing = field(init=False)  # the turn clock and pause (host/clock.py)
    undo: TableUndo | None = None  # undo by consent (host/undo.py)
    g: GuardedGame = field(init=False)
    # (seq, seat, id(state), legal): a seat's legal actions, listed once per update
    # and shared by the update that lists them and the check of the action that answers it
    _legal: tuple[int, int, int, list[Action]] | None = field(default=None, init=False,
                                                              repr=False)
    _text_board: bool | None = field(default=None, init=False)  # send board_text (no board.js)

    def __post_init__(self) -> None:
        self.g = GuardedGame(self.game)
        self.timing = Timing.create(self, None)

    # -- creation and restoration ---------------------------------------------

    @classmethod
    def create(cls, *, table_id: str, game: Game, seats: int, options: dict[str, Any] | None,
               seed: int, journal: Journal, pm: pluggy.PluginManager | None = None,
               fair: dict[str, Any] | None = None, clock: dict[str, Any] | None = None,
               undo: str | None = None) -> Table:
        """A new table; its game is set up now so bad options fail at creation.

        With ``fair`` (its options, docs/fair-play.md) the table plays fair: the seats'
        commit-reveal events replace the seeded rng once every seat has committed.

        Raises:
            BadOptions: the game refused the seat count or the options, or bad ``fair``.
            GameFailed: the game's set-up failed.
        """
        lo, hi = game.info["min_seats"], game.info["max_seats"]
        if type(seats) is not int or not lo <= seats <= hi:  # before any work (issue 9.1)
            raise BadOptions(f"{game.id}: seats={seats!r}, expected {lo}..{hi}")
        table = cls(table_id, game, seats, game.options(options), seed, journal, pm)
        check_policy(undo, fair is not None)
        if fair is not None:
            table.fair = FairTable(table, FairConfig.from_map(fair))
        table.timing = Timing.create(table, clock)
        table._setup()
        table.seats = [Seat() for _ in range(seats)]
        journal.create_table(table_id, game.id, game.info["version"], seats, table.options, seed)
        table.undo = TableUndo.create(table, undo)
        if table.fair is not None:
            journal.fair_append(table_id, {"kind": "config", **table.fair.config.to_map()})
        table.timing.journal_config()
        LOGGER.info("table %s created: %s, %d seats, seed %d", table_id, game.id, seats, seed)
        return table

    @classmethod
    def restore(cls, record: TableRecord, game: Game, journal: Journal,
                pm: pluggy.PluginManager | None = None) -> Table:
        """Rebuild a table from the journal by replaying every recorded action."""
        table = cls(record.id, game, record.seats, record.options, record.seed, journal, pm)
        now = _now()
        table.seats = [Seat(record.names.get(s), record.tokens.get(s),
                            join_id=record.join_ids.get(s),
                            away_since=now if s in record.tokens else None)
                       for s in range(record.seats)]
        for seat, bot in record.bots.items():
            if 0 <= seat < record.seats and table.seats[seat].token:
                table.seats[seat].bot = PageBot(bot["strategy"], bot["strength"], bot["token"],
                                                bot["handed"])
        fair = journal.fair_records(record.id)
        if fair:
            table.fair = FairTable.restore(table, fair)
        table.timing = Timing.restore(table, journal.clock_records(record.id))
        table.undo = TableUndo.restore(table)
        table._replay()
        table.undo.restored()
        table.status = PLAYING if all(s.token for s in table.seats) else WAITING
        if table.fair is not None and not table.fair.started:
            table.status = WAITING  # the set-up event is not settled yet
        if table.fair is not None and table.fair.pending is not None:
            table.fair.arm_timer()
        if table.status == PLAYING and table.g.is_over(table.state):
            table.status = FINISHED
            journal.set_status(table.id, FINISHED)
        hidden = None if table.fair is None else table.fair.decks
        if table.status == PLAYING and hidden is not None and hidden.dealing(fair) == 0:
            table.status = WAITING  # the set-up's deal is under way: play() once it is done
        if table.status == PLAYING:
            table.timing.start(table.g.to_act(table.state))
        if table.status != FINISHED and hidden is not None:
            hidden.resume(fair)  # a deal under way when the host stopped goes on
        LOGGER.info("table %s restored at update %d (%s)", table.id, table.seq, table.status)
        return table

    def _setup(self) -> list[dict[str, Any]]:
        """Set the game up; returns what it asked of a hidden-deck table's dealer."""
        self.rng = random.Random(self.seed) if self.fair is None else self.fair.setup_rng()
        decks = None if self.fair is None else self.fair.requests()
        self.state = self.g.setup(self.seats_n, self.options, self.rng, decks)
        self.seq = 0
        self._legal = None
        return [] if decks is None else decks.take()

    def _replay(self, on_step: Callable[[ActionRecord | None], None] | None = None) -> None:
        """Rebuild the state from the journal; ``on_step`` (host/archive.py's replays) is
        called after the set-up (with None) and after each action that stands (with its
        record): a move taken back by an undo, and the undo, are no step of a replay."""
        self._setup()
        hidden = None if self.fair is None else self.fair.decks
        records = [] if hidden is None else self.journal.fair_records(self.id)
        if hidden is not None:  # the cards opened to everyone, as they were (journalled)
            hidden.replay_opened(self.state, 0, records)
        if on_step is not None:
            on_step(None)
        actions = self.journal.actions(self.id)
        undone = undone_seqs(actions)  # host/undo.py: their state before is kept
        kept: dict[int, tuple[State, Any]] = {}
        for rec in actions:
            if is_undo(rec.action):  # back to the state before the action it undoes
                self.state, rng_state = kept.pop(rec.action["undoes"])
                if self.fair is None:
                    self.rng.setstate(rng_state)
                else:
                    self.fair.replay_rng(rec.seq, rec.seat, rec.action)  # chained, draws none
                self.seq = rec.seq
                continue
            if rec.seq in undone:
                kept[rec.seq] = (self.game.clone(self.state),
                                 self.rng.getstate() if self.fair is None else None)
            rng = (self.rng if self.fair is None
                   else self.fair.replay_rng(rec.seq, rec.seat, rec.action))
            if hidden is None:
                self.g.apply(self.state, rec.seat, rec.action, rng)
            else:
                self.g.apply(self.state, rec.seat, rec.action, rng, hidden.requests())
                hidden.replay_opened(self.state, rec.seq, records)
            self.seq = rec.seq
            if on_step is not None and rec.seq not in undone:  # the moves that stand
                on_step(rec)

    # -- summaries --------------------------------------------------------------

    @property
    def hidden(self) -> bool:
        """Whether the seats deal the game's hidden decks: the host cannot list a seat's
        legal actions (each client does, with the game's client half)."""
        return self.fair is not None and self.fair.decks is not None

    def summary(self) -> dict[str, Any]:
        """The table as listed in ``welcome`` and ``tables`` messages."""
        return {
            "id": self.id,
            "game": self.game.id,
            "seats": self.seats_n,
            "taken": sum(1 for s in self.seats if s.token or s.reserved),
            "names": [s.name for s in self.seats],
            "status": self.status,
            "seq": self.seq,
            "options": self.options,
            "fair": None if self.fair is None else self.fair.summary(),
            **self.timing.summary(),
        }

    def close_abandoned(self, why: str = "nobody sat at this table; it was closed") -> None:
        """Close a table nobody is at: out of the journal's unfinished tables, and its
        spectators told ``table_closed`` (``why``)."""
        self.status = ABANDONED
        self.journal.set_status(self.id, ABANDONED)
        for client in list(self.spectators):
            client.watching.discard(self.id)
            client.send(Error(code=ErrorCode.TABLE_CLOSED, table=self.id, message=why))
        self.spectators.clear()
        LOGGER.info("table %s closed: %s", self.id, why)

    def solo(self) -> bool:
        """Whether one person plays every seat: one seat, or every seat taken from one
        address (after a restart, when addresses are not known: under one name)."""
        if self.seats_n == 1:
            return True
        addresses = {s.address for s in self.seats}
        if None not in addresses:
            return len(addresses) == 1
        return len({s.name for s in self.seats}) == 1

    def attended(self) -> bool:
        """Whether some seat's player is connected."""
        return any(s.client is not None for s in self.seats)

    def free_seats(self) -> int:
        return 0 if self.status != WAITING else \
            sum(1 for s in self.seats if not s.token and not s.reserved)

    # -- the one entry point --------------------------------------------------

    def commit(self, client: ClientLink, req_id: int, seat: int, tip: str, length: int,
               sig: str) -> None:
        """A seat's commitment at a fair table (host/fairplay.py)."""
        if self._plays_fair(client, req_id):
            assert self.fair is not None
            self.fair.commit(client, req_id, seat, tip, length, sig)

    def reveal(self, client: ClientLink, req_id: int, seat: int, event: int, link: str,
               sig: str) -> None:
        """A seat's link for a random event at a fair table (host/fairplay.py)."""
        if self._plays_fair(client, req_id):
            assert self.fair is not None
            self.fair.reveal(client, req_id, seat, event, link, sig)

    @_request
    def deck_message(self, client: ClientLink, req_id: int,
                     msg: DeckPass | DeckUnlock | DeckSecretsMessage) -> None:
        """A seat's part of a hidden deal (host/fairdecks.py)."""
        decks = None if self.fair is None else self.fair.decks
        if decks is None:
            client.send(Error(code=ErrorCode.BAD_DEAL, id=req_id, table=self.id,
                              message="this table deals no hidden decks"))
            return
        decks.receive(client, msg)

    def handle_deck_late(self) -> None:
        """A hidden deal has waited a while (host/fairdecks.py); never raises."""
        try:
            if self.fair is not None and self.fair.decks is not None:
                self.fair.decks.tell_late()
        except Exception:
            LOGGER.exception("table %s: telling who a deal waits for failed; ignored", self.id)

    def handle_deck_timeout(self) -> None:
        """A hidden deal's timeout fired (host/fairdecks.py); never raises."""
        try:
            if self.fair is not None and self.fair.decks is not None:
                self.fair.decks.check_timeout()
        except Exception:
            LOGGER.exception("table %s: handling a deal timeout failed", self.id)

    def _plays_fair(self, client: ClientLink, req_id: int) -> bool:
        if self.fair is None:
            client.send(Error(code=ErrorCode.BAD_REVEAL, id=req_id, table=self.id,
                              message="this table does not play fair: nothing to "
                                      "commit or reveal"))
        return self.fair is not None

    def handle_late(self) -> None:
        """A fair table has waited a while for reveals (host/fairplay.py); never raises."""
        try:
            if self.fair is not None and self.fair.pending is not None:
                self.fair.tell_late()
        except Exception:
            LOGGER.exception("table %s: telling who is late failed; ignored", self.id)

    def handle_timeout(self, now: float) -> None:
        """A fair table's reveal timeout fired (host/fairplay.py); never raises."""
        try:
            if self.fair is not None:
                self.fair.check_timeout(now)
        except Exception:
            LOGGER.exception("table %s: handling a reveal timeout failed; restoring", self.id)
            self._restore_after_fault()

    def _restore_after_fault(self) -> None:
        """Replay the journal and show everyone the restored table. If the game fails
        again (in the replay, or building the views after it), the table stays
        faulted: its updates then carry no views, and its actions are refused."""
        before = self.status
        if self.fair is not None and self.fair.decks is not None:
            self.fair.decks.step = None  # a deal in progress is dropped with its action
        self.status = FAULTED
        self.journal.set_status(self.id, FAULTED)
        try:
            self._replay()
            self.status = before if before != FAULTED else PLAYING
            self._broadcast(events=None, full=True)
        except Exception:
            LOGGER.exception("table %s: the game fails again after a restore; the table stays "
                             "faulted", self.id)
            self.status = FAULTED
            self._broadcast(events=None, full=True)  # no views are built for a faulted table
            return
        self.journal.set_status(self.id, self.status)
        LOGGER.info("table %s restored at update %d", self.id, self.seq)

    # -- requests ---------------------------------------------------------------

    @_request
    def join(self, client: ClientLink, req_id: int, seat: int | None = None,
             spectate: bool = False, join_id: bytes | None = None) -> None:
        """Seat ``client`` (at ``seat``, or the lowest free one), or let it watch.

        A join with the ``join_id`` of a join that already took a seat here is that
        join's retry (its ``joined`` was lost): it gets the same seat and token back,
        at any table status, like a resume (docs/decisions.md, "Idempotent join")."""
        if join_id is not None and not spectate:
            taken = self._seat_of_join(join_id)
            if taken is not None:
                self._attach(client, req_id, taken)
                return
        if spectate:
            if client not in self.spectators and len(self.spectators) >= self.max_spectators:
                client.send(Error(code=ErrorCode.TOO_MANY_SPECTATORS, id=req_id, table=self.id,
                                  message=f"this table already has {len(self.spectators)} "
                                          "spectators, its limit"))
                return
            self.spectators.add(client)
            client.watching.add(self.id)
            client.send(Joined(id=req_id, table=self.id, seat=None, token=None))
            self._send_update(client, None, events=None)
            return
        if self.fair is not None and not self.fair.may_join(client, req_id):
            return
        if self.status != WAITING:
            client.send(Error(code=ErrorCode.TABLE_FULL, id=req_id, table=self.id,
                              message=f"table is {self.status}; "
                                      "join as a spectator or resume with a token"))
            return
        seat = self._find_free(client, req_id, seat)
        if seat is None:
            return
        self.seat_client(client, req_id, seat, join_id)

    def seat_client(self, client: ClientLink, req_id: int, seat: int,
                    join_id: bytes | None = None) -> None:
        """Give the free ``seat`` to ``client`` (a join; a rematch's player confirming,
        host/rematch.py): its token, ``joined``, and the table starts if it was the last."""
        token = secrets.token_urlsafe(18)
        name = self._unique(client.name, seat)
        self.seats[seat] = Seat(name, token, client, join_id, getattr(client, "address", None))
        self.journal.take_seat(self.id, seat, name, token, join_id)
        client.seats.setdefault(self.id, set()).add(seat)
        client.send(Joined(id=req_id, table=self.id, seat=seat, token=token))
        LOGGER.info("table %s: %s took seat %d", self.id, name, seat)
        self._seated(seat, client)

    def _unique(self, name: str, seat: int) -> str:
        """``name`` made unique among the other seats' names ("ann (2)")."""
        return unique_name(name, [s.name for i, s in enumerate(self.seats) if i != seat])

    def _seated(self, seat: int, client: ClientLink | None) -> None:
        """A seat of the waiting table was taken (by ``client``, or for a page bot that
        connects later): start when it was the last, else tell everyone."""
        if all(s.token for s in self.seats) and self.fair is None:
            self.start()
        else:
            self._broadcast(events=None, full=True, status_only=True)
        if self.fair is not None and client is not None:
            self.fair.seated(seat, client)  # asks for its commitment; the last one starts
        self._changed()

    def _find_free(self, client: ClientLink, req_id: int, seat: int | None) -> int | None:
        """The seat a join or add_bot takes (``seat``, or the lowest free one); None when
        refused (answered here)."""
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if not s.token and not s.reserved]
            if not free:
                client.send(Error(code=ErrorCode.TABLE_FULL, id=req_id, table=self.id,
                                  message="no free seat"))
                return None
            return free[0]
        if not 0 <= seat < self.seats_n:
            client.send(Error(code=ErrorCode.SEAT_TAKEN, id=req_id, table=self.id,
                              message=f"seat {seat} does not exist; "
                                      f"seats are 0..{self.seats_n - 1}"))
            return None
        if self.seats[seat].token:
            client.send(Error(code=ErrorCode.SEAT_TAKEN, id=req_id, table=self.id,
                              message=f"seat {seat} is taken by {self.seats[seat].name!r}"))
            return None
        if self.seats[seat].reserved:
            client.send(Error(code=ErrorCode.SEAT_TAKEN, id=req_id, table=self.id,
                              message=f"seat {seat} is kept for {self.seats[seat].name}, who "
                                      "played the last game here, until they say yes or no "
                                      "to this rematch"))
            return None
        return seat

    # -- names and page bots (issue 22) ---------------------------------------------

    def rename(self, client: ClientLink, seats: set[int], name: str) -> bool:
        """Give ``client``'s ``seats`` here the name ``name`` (made unique); tell
        everyone. Whether a name changed."""
        if self.status not in (WAITING, PLAYING):
            return False
        changed = False
        for seat in sorted(seats):
            slot = self.seats[seat]
            if slot.client is not client:
                continue
            new = self._unique(name, seat)
            if new != slot.name:
                slot.name = new
                self.journal.rename_seat(self.id, seat, new)
                changed = True
        if changed:
            self._broadcast(events=None, full=True, status_only=self.status == WAITING)
        return changed

    def _bot_refused(self, client: ClientLink, req_id: int, strategy: str | None,
                     strength: int | None) -> PageBots | None:
        """The peer's page bots if ``client`` may ask them here for this bot, else None
        (answered here)."""
        def refuse(code: ErrorCode, message: str) -> None:
            client.send(Error(code=code, id=req_id, table=self.id, message=message))

        bots = self.page_bots
        if not client.seats.get(self.id):
            refuse(ErrorCode.NOT_SEATED, "sit at this table first: only its players "
                                         "manage its bots")
            return None
        if bots is None:
            refuse(ErrorCode.BAD_BOT, "this peer runs no bots from the page; start them "
                                      "with `lantable bot`")
            return None
        if strategy is not None:
            why = bots.refusal(self.game, strategy, strength)
            if why is not None:
                refuse(ErrorCode.BAD_BOT, why)
                return None
        return bots

    @_request
    def add_bot(self, client: ClientLink, req_id: int, strategy: str, strength: int | None,
                seat: int | None) -> None:
        """Seat one of the peer's page bots at this waiting table."""
        bots = self._bot_refused(client, req_id, strategy, strength)
        if bots is None:
            return
        if self.status != WAITING:
            client.send(Error(code=ErrorCode.TABLE_FULL, id=req_id, table=self.id,
                              message=f"the table is {self.status}: bots are added while it "
                                      "waits; a seat whose player left can be handed to one"))
            return
        found = self._find_free(client, req_id, seat)
        if found is None:
            return
        full = bots.full()
        if full is not None:
            client.send(Error(code=ErrorCode.TOO_MANY_BOTS, id=req_id, table=self.id,
                              message=full))
            return
        token = secrets.token_urlsafe(18)
        bot = PageBot(strategy, bots.strength(strategy, strength), token, handed=False)
        name = self._unique(bots.name(strategy), found)
        self.seats[found] = Seat(name, token, None, bot=bot, away_since=_now())
        self.journal.take_seat(self.id, found, name, token)
        self.journal.add_page_bot(self.id, found, strategy, bot.strength, token, False)
        client.send(BotAdded(id=req_id, table=self.id, seat=found, name=name))
        LOGGER.info("table %s: %s added page bot %s at seat %d", self.id, client.name, name,
                    found)
        bots.start(self.id, found, bot, name)
        self._seated(found, None)

    @_request
    def remove_bot(self, client: ClientLink, req_id: int, seat: int) -> None:
        """Stop a page bot: its seat is freed (waiting table) or waits for its player
        again (a handed seat)."""
        bots = self._bot_refused(client, req_id, None, None)
        if bots is None:
            return
        slot = self.seats[seat] if 0 <= seat < self.seats_n else None
        if slot is None or slot.bot is None:
            client.send(Error(code=ErrorCode.BAD_BOT, id=req_id, table=self.id,
                              message=f"seat {seat} is not played by a bot of this page"))
            return
        if not slot.bot.handed and self.status != WAITING:
            client.send(Error(code=ErrorCode.BAD_BOT, id=req_id, table=self.id,
                              message=f"the game has started: {slot.name} plays its seat to "
                                      "the end"))
            return
        bots.stop(self.id, seat)
        self.journal.remove_page_bot(self.id, seat)
        if slot.client is not None:  # the bot's connection loses the seat
            slot.client.seats.get(self.id, set()).discard(seat)
        if slot.bot.handed:
            slot.bot, slot.client, slot.away_since = None, None, _now()
            self.timing.comeback(seat)
        else:
            self.seats[seat] = Seat()
            self.journal.free_seat(self.id, seat)
            if self.fair is not None:
                self.fair.freed(seat)
        client.send(BotRemoved(id=req_id, table=self.id, seat=seat))
        LOGGER.info("table %s: %s removed the page bot of seat %d", self.id, client.name, seat)
        self._broadcast(events=None, full=True, status_only=self.status == WAITING)
        self._changed()

    @_request
    def hand_to_bot(self, client: ClientLink, req_id: int, seat: int, strategy: str,
                    strength: int | None) -> None:
        """Let a page bot play a started table's seat whose player has been away for the
        grace period, or the asker's own seat at once."""
        bots = self._bot_refused(client, req_id, strategy, strength)
        if bots is None:
            return

        def refuse(code: ErrorCode, message: str) -> None:
            client.send(Error(code=code, id=req_id, table=self.id, message=message))

        if self.status != PLAYING:
            refuse(ErrorCode.BAD_BOT, "the table is waiting: add a bot to a free seat instead"
                   if self.status == WAITING else f"the table is {self.status}")
            return
        if not 0 <= seat < self.seats_n:
            refuse(ErrorCode.BAD_BOT, f"seat {seat} does not exist; seats are "
                                      f"0..{self.seats_n - 1}")
            return
        slot = self.seats[seat]
        if slot.bot is not None:
            refuse(ErrorCode.BAD_BOT, f"a bot already plays seat {seat}")
            return
        own = seat in client.seats.get(self.id, set())
        if not own:
            if slot.client is not None:
                refuse(ErrorCode.NOT_DROPPED, f"{slot.name} is connected and plays seat {seat}")
                return
            away = _now() - (slot.away_since if slot.away_since is not None else _now())
            if away < self.bot_grace:
                refuse(ErrorCode.NOT_DROPPED,
                       f"{slot.name} has been away {int(away)} s; a seat goes to a bot after "
                       f"{self.bot_grace:g} s away, so in {math.ceil(self.bot_grace - away)} s")
                return
        full = bots.full()
        if full is not None:
            refuse(ErrorCode.TOO_MANY_BOTS, full)
            return
        if own:  # the asker hands over its own seat: it keeps the token to come back
            client.seats[self.id].discard(seat)
            slot.client, slot.away_since = None, _now()
        bot = PageBot(strategy, bots.strength(strategy, strength), secrets.token_urlsafe(18),
                      handed=True)
        slot.bot = bot
        self.journal.add_page_bot(self.id, seat, strategy, bot.strength, bot.token, True)
        assert slot.name is not None
        client.send(BotAdded(id=req_id, table=self.id, seat=seat, name=slot.name))
        LOGGER.info("table %s: %s handed seat %d (%s) to a %s bot", self.id, client.name, seat,
                    slot.name, strategy)
        bots.start(self.id, seat, bot, bot_name(bot, slot.name))
        self.timing.acted(None, self.g.to_act(self.state))
        self._broadcast(events=None, full=True)

    def start_bots(self) -> None:
        """Start the page bots of a restored table (the peer restarted)."""
        if self.page_bots is None or self.status == FINISHED:
            return
        for seat, slot in enumerate(self.seats):
            if slot.bot is not None and slot.name is not None:
                self.page_bots.start(self.id, seat, slot.bot, bot_name(slot.bot, slot.name))

    def start(self) -> None:
        """Every seat is taken (and, at a fair table, the set-up event settled): play
        (at a hidden-deck table, once the set-up's deal is done)."""
        if self.fair is not None:
            ops = self._setup()  # with the set-up event's rng
            if self.fair.decks is not None:
                from .fairdecks import Step

                self.fair.decks.begin(Step(0, None, None, None, None, self.state, [],
                                           deque()), ops)
                return
        self.play()

    def play(self) -> None:
        """The game is set up (and dealt): tell everyone, and take actions."""
        self.status = PLAYING
        self.journal.set_status(self.id, PLAYING)
        self.timing.start(self.g.to_act(self.state))
        LOGGER.info("table %s started", self.id)
        if self.pm is not None:
            self._observe("table_started", table_id=self.id, game_id=self.game.id,
                          seats=self.seats_n, options=self.options)
        self._broadcast(events=None, full=True)
        self._changed()

    @_request
    def resume(self, client: ClientLink, req_id: int | None, token: str) -> None:
        """Give ``client`` the seat ``token`` was issued for (``req_id`` None: in the
        hello, answered by the welcome)."""
        found = self.seat_of_token(token)
        if found is not None:
            self._attach(client, req_id, found[0], by_bot=found[1])
            return
        client.send(Error(code=ErrorCode.BAD_TOKEN, id=req_id, table=self.id,
                          message="no seat at this table has that token"))

    def seat_of_token(self, token: str) -> tuple[int, bool] | None:
        """The seat ``token`` resumes, and whether it is a page bot's token; or None."""
        wanted = token.encode("utf-8", "surrogatepass")  # compare_digest refuses non-ASCII str
        for seat, slot in enumerate(self.seats):
            if slot.bot is not None and secrets.compare_digest(slot.bot.token.encode(), wanted):
                return seat, True
            if slot.token is not None and secrets.compare_digest(slot.token.encode(), wanted):
                return seat, False
        return None

    def _seat_of_join(self, join_id: bytes) -> int | None:
        """The seat a join with this ``join_id`` took, if it still holds it."""
        for seat, slot in enumerate(self.seats):
            if slot.join_id is not None and slot.token is not None and \
                    secrets.compare_digest(slot.join_id, join_id):
                return seat
        return None

    def _attach(self, client: ClientLink, req_id: int | None, seat: int,
                by_bot: bool = False) -> None:
        """Hand a taken seat to ``client`` (a resume, or a join's retry): ``joined``
        with its token, a full update; a connection that held it before is told.
        A player resuming a seat handed to a page bot takes it back: the bot stops."""
        slot = self.seats[seat]
        taken_back = not by_bot and slot.bot is not None and slot.bot.handed
        if taken_back and self.page_bots is not None:
            self.page_bots.stop(self.id, seat)
        if taken_back:
            slot.bot = None
            self.journal.remove_page_bot(self.id, seat)
            if self.status == PLAYING:
                self.timing.comeback(seat)
            LOGGER.info("table %s: %s took seat %d back from its bot", self.id, client.name,
                        seat)
        old = slot.client
        if old is not None and old is not client:
            old.seats.get(self.id, set()).discard(seat)
            old.send(Error(code=ErrorCode.BAD_TOKEN, table=self.id,
                           message=f"seat {seat} was resumed by another connection"))
        slot.client, slot.away_since = client, None
        client.seats.setdefault(self.id, set()).add(seat)
        if req_id is not None:
            client.send(Joined(id=req_id, table=self.id, seat=seat, token=slot.token))
        LOGGER.info("table %s: %s resumed seat %d", self.id, client.name, seat)
        if taken_back or (old is None and self.status in (WAITING, PLAYING)):
            # everyone sees who is back (or which page bot has connected)
            self._broadcast(events=None, full=True, status_only=self.status == WAITING)
        else:
            self._send_update(client, seat, events=None)
        if self.fair is not None:
            self.fair.seated(seat, client)
        if self.undo is not None and self.status == PLAYING:
            self.undo.attached(seat)

    @_request
    def leave(self, client: ClientLink, req_id: int) -> None:
        """Give up ``client``'s seats (kept for a resume once the game began) or stop
        watching."""
        mine = client.seats.pop(self.id, set())
        self.spectators.discard(client)
        client.watching.discard(self.id)
        for seat in mine:
            if self.status == WAITING:
                self.seats[seat] = Seat()
                self.journal.free_seat(self.id, seat)
                if self.fair is not None:
                    self.fair.freed(seat)
            elif self.seats[seat].client is client:
                self.seats[seat].client, self.seats[seat].away_since = None, _now()
        client.send(Left(id=req_id, table=self.id))
        if mine and self.status == WAITING:
            self._broadcast(events=None, full=True, status_only=True)
            self._changed()
        elif mine and self.status == PLAYING:
            self._broadcast(events=None, full=True)  # everyone sees who is away

    def detach(self, client: ClientLink) -> None:
        """The client's connection ended: forget it (its seats stay reserved); at a
        started table everyone sees who is away (a seat can be handed to a bot)."""
        self.spectators.discard(client)
        gone = False
        for slot in self.seats:
            if slot.client is client:
                slot.client, slot.away_since = None, _now()
                gone = True
        if gone and self.status == PLAYING:
            self._broadcast(events=None, full=True)

    @_request
    def sync(self, client: ClientLink, req_id: int) -> None:
        """A full update for each of ``client``'s seats (or its spectator's one)."""
        seats = client.seats.get(self.id)
        if not seats and client not in self.spectators:
            client.send(Error(code=ErrorCode.NOT_SEATED, id=req_id, table=self.id,
                                  message="join or resume before asking for a sync"))
            return
        targets: list[int | None] = [*sorted(seats)] if seats else [None]
        for seat in targets:
            self._send_update(client, seat, events=None, reply_to=req_id)

    @_request
    def query(self, client: ClientLink, req_id: int, seat: int | None,
              query: dict[str, Any]) -> None:
        """Answer from the asker's view only (a spectator asks as ``None``); nothing
        changes and nothing is journalled (docs/decisions.md, "Queries")."""
        mine = client.seats.get(self.id, set())
        if seat is not None and seat not in mine:
            client.send(Error(code=ErrorCode.NOT_SEATED, id=req_id, table=self.id,
                              message=f"this connection does not hold seat {seat}"))
            return
        if seat is None and len(mine) > 1:
            client.send(Error(code=ErrorCode.NOT_SEATED, id=req_id, table=self.id,
                              message="this connection holds several seats; say which"))
            return
        if not mine and client not in self.spectators:
            client.send(Error(code=ErrorCode.NOT_SEATED, id=req_id, table=self.id,
                              message="join or watch the table before asking it"))
            return
        if self.status not in (PLAYING, FINISHED):
            client.send(Error(code=ErrorCode.BAD_QUERY, id=req_id, table=self.id,
                              message=f"table is {self.status}"))
            return
        if seat is None:
            seat = next(iter(mine)) if mine else None
        try:
            answer = self.game.query(self.game.view(self.state, seat), seat, query)
            client.send(Answer(id=req_id, table=self.id, answer=answer))
        except IllegalAction as exc:
            client.send(Error(code=ErrorCode.BAD_QUERY, id=req_id, table=self.id,
                              message=str(exc)))
        except Exception:
            # A query changes nothing, so a failing one never faults the table.
            LOGGER.exception("table %s: game %s failed to answer a query", self.id,
                             self.game.id)
            client.send(Error(code=ErrorCode.INTERNAL, id=req_id, table=self.id,
                              message="the game failed to answer that query"))

    @_request
    def undo_ask(self, client: ClientLink, req_id: int, seat: int | None,
                 sig: str | None = None) -> None:
        """Ask to take back ``seat``'s last action (host/undo.py)."""
        assert self.undo is not None
        self.undo.ask(client, req_id, seat, sig)

    @_request
    def undo_answer(self, client: ClientLink, req_id: int, seat: int | None, undoes: int,
                    accept: bool, sig: str | None = None) -> None:
        """A seat's answer to a request to take back action ``undoes`` (host/undo.py)."""
        assert self.undo is not None
        self.undo.answer(client, req_id, seat, undoes, accept, sig)

    @_request
    def act(self, client: ClientLink, req_id: int, seat: int | None,
            action: dict[str, Any], base: int | None = None, sig: str | None = None) -> None:
        """Apply ``client``'s action for ``seat`` (its only seat if None); at a fair
        table ``base`` and ``sig`` sign it (host/fairplay.py)."""
        mine = client.seats.get(self.id, set())
        if seat is not None:
            if seat not in mine:
                client.send(Error(code=ErrorCode.NOT_SEATED, id=req_id, table=self.id,
                                  message=f"this connection does not hold seat {seat}"))
                return
        elif len(mine) == 1:
            (seat,) = mine
        else:
            client.send(Error(code=ErrorCode.NOT_SEATED, id=req_id, table=self.id,
                              message="this connection holds no seat here" if not mine
                              else "this connection holds several seats; say which"))
            return
        if self.status != PLAYING:
            code = ErrorCode.TABLE_FAULTED if self.status == FAULTED else ErrorCode.NOT_TO_ACT
            client.send(Error(code=code, id=req_id, table=self.id,
                              message=f"table is {self.status}"))
            return
        if self.timing.paused:
            client.send(Error(code=ErrorCode.PAUSED, id=req_id, table=self.id,
                              message="the table is paused; it plays on when every seat "
                                      "agrees to resume"))
            return
        if seat not in self.g.to_act(self.state):
            client.send(Error(code=ErrorCode.NOT_TO_ACT, id=req_id, table=self.id,
                              message=f"seat {seat} is not to act now"))
            return
        try:
            plain, changed = whole_numbers(action)
        except ValueError as exc:
            client.send(Error(code=ErrorCode.ILLEGAL_ACTION, id=req_id, table=self.id,
                              message=f"the action holds a value that is no number: {exc}"))
            return
        if changed and self.fair is not None:  # the signature must cover the game's values
            client.send(Error(code=ErrorCode.ILLEGAL_ACTION, id=req_id, table=self.id,
                              message="the action has a whole number sent as a float (9.0 "
                                      "for 9); send it as an integer, and sign that"))
            return
        action = plain
        if self.fair is not None and self.fair.decks is not None:
            self.fair.act(client, req_id, seat, action, base, sig)  # the host lists nothing
            return
        legal = self.legal_now(seat)
        own = canonical_action(action, legal)
        # An action equal to a legal one has exactly its fields: only another one (a
        # template's filling, or an illegal action) is checked field by field.
        why = None if own is not action else unexpected_fields(action, legal)
        if why is not None:
            client.send(Error(code=ErrorCode.ILLEGAL_ACTION, id=req_id, table=self.id,
                              message=why))
            return
        action = own
        if self.fair is not None:  # signed; may hold a random event
            self.fair.act(client, req_id, seat, action, base, sig)
            return
        try:
            events = self.g.apply(self.state, seat, action, self.rng)
        except IllegalAction as exc:
            self._legal = None  # the state is as it was (the contract); list afresh anyway
            client.send(Error(code=ErrorCode.ILLEGAL_ACTION, id=req_id, table=self.id,
                              message=str(exc)))
            return
        self.accept(seat, action, events, reply=(client, req_id))

    def legal_now(self, seat: int) -> list[Action]:
        """``seat``'s legal actions in the table's state now, listed once per update: the
        update that lists them and the check of the action that answers it share the
        list (Manila's legal actions were a tenth of the host's time per action)."""
        key = (self.seq, seat, id(self.state))
        if self._legal is not None and self._legal[:3] == key:
            return self._legal[3]
        legal = self.g.legal_actions(self.state, seat)
        self._legal = (*key, legal)
        return legal

    def accept(self, seat: int, action: dict[str, Any], events: list[dict[str, Any]],
               reply: tuple[ClientLink, int] | None) -> None:
        """Record an applied action and tell everyone; ``reply`` is the requester to
        answer ``accepted`` (None when it was answered already, at a fair table)."""
        self.seq += 1
        # Journal first: an update is never seen for an action a restart would lose.
        try:
            self.journal.append(self.id, self.seq, seat, action, events)
        except (TypeError, ValueError, OverflowError) as exc:  # not plain msgpack data
            self.seq -= 1
            raise GameFailed(f"game {self.game.id}: its events cannot be recorded: {exc}"
                             ) from exc
        if reply is not None:
            reply[0].send(Accepted(id=reply[1], table=self.id, seq=self.seq))
        if self.pm is not None:
            self._observe("table_action", table_id=self.id, seq=self.seq, seat=seat,
                          action=action, events=events)
        to_act = self.g.to_act(self.state)
        finished = not to_act
        if finished:
            self._finish(self.g.scores(self.state))
        else:
            self.timing.acted(seat, to_act)
        self._broadcast(events=events, to_act=to_act)
        if self.undo is not None:
            self.undo.after_action(self.seq, seat, events)
        if finished:
            self._changed()

    def _finish(self, scores: dict[str, Any]) -> None:
        self.timing.stop()
        self.status = FINISHED
        self.journal.set_status(self.id, FINISHED)
        if self.fair is not None:
            self.journal.fair_append(self.id, {"kind": "final", "seq": self.seq,
                                               "transcript": self.fair.transcript,
                                               "scores": scores})
            self.fair.finished()
        LOGGER.info("table %s finished after %d actions: %s", self.id, self.seq, scores)
        if self.pm is not None:
            self._observe("table_finished", table_id=self.id, scores=scores)

    def forfeit(self, seats: list[int]) -> None:
        """End the table now: ``seats`` forfeit (ranked last), the others keep the
        order the game gives them (a fair table's ``on_withhold: forfeit``)."""
        scores = self.forfeit_scores(seats)
        self.final_scores = scores
        self._finish(scores)
        self._broadcast(events=None, to_act=[])
        self._changed()

    def forfeit_scores(self, seats: list[int]) -> dict[str, Any]:
        """The game's scores now, with ``seats`` ranked last and named as forfeiting."""
        scores = dict(self.g.scores(self.state))
        n = self.seats_n
        scores["rank"] = [n if s in seats else r for s, r in enumerate(scores.get("rank", [1] * n))]
        scores["forfeit"] = sorted(seats)
        return scores

    # -- turn clock and pause (host/clock.py) -------------------------------------------

    def clock_expired(self) -> None:
        """The clock's timer fired (host/clock.py); never raises."""
        try:
            self.timing.expire()
        except GameFailed:
            LOGGER.exception("table %s: the game failed after a time-out; restoring", self.id)
            self._restore_after_fault()
        except Exception:
            LOGGER.exception("table %s: handling a time-out failed; the table goes on", self.id)

    def act_for(self, seat: int, action: dict[str, Any]) -> None:
        """Apply ``action`` for ``seat`` on the host's own word (a turn clock's default
        action; never at a fair table, which refuses that rule)."""
        events = self.g.apply(self.state, seat, action, self.rng)
        self.accept(seat, action, events, reply=None)

    @_request
    def pause(self, client: ClientLink, req_id: int, seat: int | None, paused: bool) -> None:
        """A seat asks to pause or resume the table, or consents (host/clock.py)."""
        self.timing.request(client, req_id, seat, paused)

    def broadcast_full(self) -> None:
        """Everyone's full update now (the clock or the pause changed)."""
        self._broadcast(events=None, full=True)

    def send_all(self, msg: Message) -> None:
        """One message to every connection at the table (seated or watching), once."""
        links = {slot.client for slot in self.seats if slot.client is not None}
        for link in links | self.spectators:
            link.send(msg)

    # -- updates ------------------------------------------------------------------

    def _observe(self, hook: str, **kwargs: Any) -> None:
        """Tell every observer, one by one: a failing observer is logged and skipped,
        and never keeps the others from hearing (pluggy would stop at the first error)."""
        if self.pm is None:
            return
        for impl in getattr(self.pm.hook, hook).get_hookimpls():
            try:
                impl.function(*[kwargs[name] for name in impl.argnames])
            except Exception:
                LOGGER.exception("table %s: observer %s failed in %s; ignored",
                                 self.id, impl.plugin_name, hook)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _broadcast(self, *, events: list[dict[str, Any]] | None, full: bool = False,
                   status_only: bool = False, to_act: list[int] | None = None) -> None:
        """Send every seat its own update, and spectators the public one.

        ``to_act`` is the game's answer for the current state when the caller has it.
        """
        shared, started = self._shared(full, status_only, to_act)
        parts = self._view_parts() if started else None
        # Events every seat sees (the usual case) are encoded once for all of them.
        packed = _packed_public(events)
        # The usual update, written out: a game with view parts, public events (or
        # none), a seat that wants no words. Any other goes through _send_update.
        fast = parts is not None and (packed is not None or not events)
        moving = shared.fields["to_act"]
        for seat, slot in enumerate(self.seats):
            client = slot.client
            if client is None:
                continue
            if not fast or _wants_words(client):
                self._send_update(client, seat, shared, started, parts, events=events,
                                  packed_events=packed)
                continue
            assert parts is not None
            try:
                client.send_update(
                    shared, seat=seat, view=parts[0].merged(parts[1][seat]),
                    legal=self.legal_now(seat) if seat in moving and not self.hidden else None,
                    events=packed if packed is not None else events)
            except LocalProtocolError as exc:
                self._undeliverable([client], exc)
        if self.spectators:
            view = self._view(None, parts) if started else None
            public = None if events is None else [e for e in events if _visible(e, None)]
            data = None  # every spectator gets the same bytes: encoded once, held once
            for client in list(self.spectators):
                if not client.receiving:
                    continue
                try:
                    if _wants_words(client) and started:  # its own copy, with the sentences
                        client.send_encoded(client.encode_update(
                            shared, seat=None, view=view, events=public,
                            **self._words(None, None, public)))
                        continue
                    if data is None:
                        data = client.encode_update(shared, seat=None, view=view,
                                                    events=public if packed is None else packed)
                except LocalProtocolError as exc:
                    self._undeliverable(list(self.spectators), exc)
                    return
                client.send_encoded(data)

    def _undeliverable(self, clients: list[ClientLink], exc: LocalProtocolError) -> None:
        """An update that cannot be encoded (too large, not msgpack data) is the host's
        problem, not the game's: tell its recipients and go on (a later update or a
        ``sync`` may fit)."""
        LOGGER.error("table %s: update %d cannot be sent to %d client(s): %s",
                     self.id, self.seq, len(clients), exc)
        for client in clients:
            client.send(Error(code=ErrorCode.INTERNAL, table=self.id,
                              message=f"update {self.seq} of this table could not be sent "
                                      f"to you ({exc}); the table goes on"))

    def _view_parts(self) -> tuple[PackedMap, list[dict[str, Any]]] | None:
        """The public part of every view, encoded once, and each seat's own part; or
        None if the game builds whole views only (``game_view_parts``)."""
        parts = self.g.view_parts(self.state)
        if parts is None:
            return None
        public, own = parts
        try:
            return PackedMap(public), own
        except LocalProtocolError:  # each recipient's update then fails on its own
            return None

    def _view(self, seat: int | None, parts: tuple[PackedMap, list[dict[str, Any]]] | None
              ) -> dict[str, Any] | PackedMap:
        if parts is None:
            return self.g.view(self.state, seat)
        public, own = parts
        return public if seat is None else public.merged(own[seat])

    def _shared(self, full: bool, status_only: bool = False,
                to_act: list[int] | None = None) -> tuple[SharedUpdate, bool]:
        """What every recipient's update has in common (packed once per change), and
        whether the game has started (views are sent)."""
        started = self.status in (PLAYING, FINISHED) and not status_only
        now = _now()
        if started and to_act is None:
            to_act = self.g.to_act(self.state)
        return SharedUpdate(
            table=self.id, seq=self.seq, status=self.status,
            seats=[s.entry(now) for s in self.seats],
            to_act=to_act if started and to_act is not None else [],
            scores=(self.final_scores or self.g.scores(self.state))
            if started and self.status == FINISHED else None,
            full=full,
            clock=self.timing.entry() if started else None,
            pause=self.timing.pause_entry(),
        ), started

    def _send_update(self, client: ClientLink, seat: int | None, shared: SharedUpdate | None = None,
                     started: bool = False,
                     parts: tuple[PackedMap, list[dict[str, Any]]] | None = None, *,
                     events: list[dict[str, Any]] | None, reply_to: int | None = None,
                     packed_events: Packed | None = None) -> None:
        """One recipient's update: its own view, its legal actions if it must decide,
        and the events it may see (``packed_events``: all of ``events``, encoded). Without
        ``shared``, a full update of the table now."""
        if shared is None:
            shared, started = self._shared(full=True)
        to_act = shared.fields["to_act"]
        legal = (self.legal_now(seat)
                 if seat is not None and seat in to_act and not self.hidden else None)
        seen: list[dict[str, Any]] | Packed | None
        if _wants_words(client) and started:
            seen = None if events is None else [e for e in events if _visible(e, seat)]
            words = self._words(seat, legal, seen)
        else:
            words = {}
            seen = packed_events if packed_events is not None else (
                None if events is None else [e for e in events if _visible(e, seat)])
        try:
            client.send_update(shared, seat=seat,
                               view=self._view(seat, parts) if started else None,
                               legal=legal, events=seen, id=reply_to, **words)
        except LocalProtocolError as exc:
            self._undeliverable([client], exc)

    def _words(self, seat: int | None, legal: list[dict[str, Any]] | None,
               events: list[dict[str, Any]] | None) -> dict[str, Any]:
        """The game's labels and sentences for a connection that asked for words."""
        names = seat_names([s.name for s in self.seats])
        if self._text_board is None:  # a game without a browser board gets its text one
            self._text_board = self.game.web_renderer() is None
        return update_words(self.game, self.g.view(self.state, seat), seat, legal, events,
                            names, board=self._text_board)


def bot_name(bot: PageBot, seat_name: str) -> str:
    """The name a page bot's process says hello with."""
    return f"{bot.strategy} bot for {seat_name}" if bot.handed else seat_name  # logs only


def _wants_words(client: ClientLink) -> bool:
    """Whether the connection said ``hello.words`` (a stand-in link without the
    attribute, as tests use, wants none)."""
    return getattr(client, "words", False)


def _packed_public(events: list[dict[str, Any]] | None) -> Packed | None:
    """``events`` encoded once, if every seat sees all of them; else None (each update
    then filters and encodes its own, and one that cannot be encoded fails alone)."""
    if not events or any("to" in e for e in events):
        return None
    try:
        return Packed(events, "'update'")
    except LocalProtocolError:
        return None


def _visible(event: dict[str, Any], seat: int | None) -> bool:
    """Public events reach everyone; ``"to": [seats]`` only those seats. A malformed
    ``to`` (a game bug) shows the event to nobody rather than leak it."""
    to = event.get("to")
    if to is None:
        return True
    return seat is not None and isinstance(to, list) and seat in to
