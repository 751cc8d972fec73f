"""One class per message type ``t``, built only from checked data.

Each class is a frozen, slotted, keyword-only dataclass whose fields are the map's
keys (``t`` excluded). The decorator is marked ``typing.dataclass_transform``, so a
type checker knows each class's constructor (``Update(table=..., seq=...)``) and
that its fields are read-only. :func:`from_map` is the only way in from the wire and checks
every field; :meth:`Message.to_map` is the only way out. The raw map never leaves
this module and :mod:`._connection`.
"""

from __future__ import annotations

import dataclasses
import reprlib
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, Union, dataclass_transform

from ._errors import ErrorCode, RemoteProtocolError

CLIENT_TYPES: dict[str, type[Message]] = {}
HOST_TYPES: dict[str, type[Message]] = {}


class Message:
    """Base of every message; don't subclass outside this module."""

    t: ClassVar[str]
    sender: ClassVar[str]  # "client" or "host"
    _checks: ClassVar[tuple[tuple[str, Any, Callable[[Any], bool], bool], ...]]
    _names: ClassVar[tuple[tuple[str, bool], ...]]  # (field, required)

    def to_map(self) -> dict[str, Any]:
        """The wire map: ``t`` plus every field, optional ones only when not None."""
        out: dict[str, Any] = {"t": self.t}
        for name, required in self._names:
            value = getattr(self, name)
            if value is not None or required:
                out[name] = value
        return out


_M = TypeVar("_M", bound=Message)


@dataclass_transform(frozen_default=True, kw_only_default=True)
def _message(t: str, sender: str) -> Callable[[type[_M]], type[_M]]:
    """Make ``cls`` the message of type ``t`` that ``sender`` sends: a frozen, slotted,
    keyword-only dataclass, registered in ``CLIENT_TYPES`` or ``HOST_TYPES``."""

    def wrap(cls: type[_M]) -> type[_M]:
        cls = dataclass(frozen=True, slots=True, kw_only=True)(cls)
        cls.t = t
        cls.sender = sender
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # a dataclass by now
        cls._checks = tuple(
            (f.name, hints[f.name], _checker(hints[f.name]), f.default is dataclasses.MISSING)
            for f in fields
        )
        cls._names = tuple((f.name, f.default is dataclasses.MISSING) for f in fields)
        setattr(cls, "to_map", _compile_to_map(t, cls._names))  # noqa: B010 - a method
        (CLIENT_TYPES if sender == "client" else HOST_TYPES)[t] = cls
        return cls

    return wrap


def _compile_to_map(t: str, names: tuple[tuple[str, bool], ...]
                    ) -> Callable[[Message], dict[str, Any]]:
    """``Message.to_map`` unrolled for one class (it runs for every message sent):
    required fields in one dict display, then one test per optional field."""
    required = "".join(f", {name!r}: self.{name}" for name, req in names if req)
    lines = ["def to_map(self):", f"    out = {{'t': {t!r}{required}}}"]
    for name, req in names:
        if not req:
            lines += [f"    if self.{name} is not None:", f"        out[{name!r}] = self.{name}"]
    lines.append("    return out")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - source built from field names only
    to_map: Callable[[Message], dict[str, Any]] = namespace["to_map"]
    to_map.__doc__ = Message.to_map.__doc__
    return to_map


def _checker(hint: Any) -> Callable[[Any], bool]:
    """Compile a field's type hint into a fast predicate (once per class).

    This runs for every field of every message received, so the common shapes
    (``X | None``, lists of maps) get straight-line predicates.
    """
    if hint is Any:
        return lambda v: True
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        args = [h for h in typing.get_args(hint) if h is not type(None)]
        parts = [_checker(h) for h in args]
        if len(parts) == 1 and len(args) < len(typing.get_args(hint)):
            (inner,) = parts
            return lambda v: v is None or inner(v)
        return lambda v: any(p(v) for p in parts)
    if hint is int:
        return lambda v: type(v) is int
    if hint is float:
        return lambda v: type(v) is float or type(v) is int
    if hint is bool:
        return lambda v: type(v) is bool
    if hint is str:
        return lambda v: type(v) is str
    if origin is list:
        (item,) = typing.get_args(hint)
        if typing.get_origin(item) is dict or item is dict:
            return lambda v: type(v) is list and all([type(x) is dict for x in v])
        if item is int:
            return lambda v: type(v) is list and all([type(x) is int for x in v])
        check = _checker(item)
        return lambda v: type(v) is list and all(map(check, v))
    if origin is dict or hint is dict:
        return lambda v: type(v) is dict
    return lambda v: isinstance(v, hint)


def from_map(obj: dict[str, Any], sender: str) -> Message:
    """Build the message of type ``obj["t"]`` sent by ``sender``.

    Raises:
        RemoteProtocolError: ``unknown_type`` for a type that ``sender`` may not
            send, ``bad_message`` for a missing, unknown or ill-typed field.
    """
    t = obj.get("t")
    registry = CLIENT_TYPES if sender == "client" else HOST_TYPES
    cls = registry.get(t) if isinstance(t, str) else None
    if cls is None:
        raise RemoteProtocolError(
            f"unknown message type {t!r} from a {sender}; expected one of {sorted(registry)}",
            ErrorCode.UNKNOWN_TYPE,
        )
    kwargs = {}
    for name, hint, check, required in cls._checks:
        if name not in obj:
            if required:
                raise RemoteProtocolError(f"{t}: missing field {name!r}", ErrorCode.BAD_MESSAGE)
            continue
        value = obj[name]
        if not check(value):
            raise RemoteProtocolError(
                f"{t}: field {name!r} should be {_describe(hint)}, got {_short_repr(value)}",
                ErrorCode.BAD_MESSAGE,
            )
        kwargs[name] = value
    # Unknown extra keys are ignored so that newer peers can add optional fields.
    return cls(**kwargs)


_REPR = reprlib.Repr()  # keyword arguments only from Python 3.12
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlist, _REPR.maxdict = 3, 60, 60, 6, 6


def _short_repr(value: Any) -> str:
    """A short repr of a hostile value: bounded in depth and length, so that a
    1,000-deep map costs no more to describe than a small one."""
    return _REPR.repr(value)[:80]


def _describe(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


# ---------------------------------------------------------------------------
# Client -> host
# ---------------------------------------------------------------------------


@_message("hello", "client")
class Hello(Message):
    """First frame of every connection: who we are and which versions we speak."""

    proto: int  # the highest protocol version the client speaks
    name: str
    min_proto: int | None = None  # the lowest it speaks (default: proto)
    token: str | None = None  # resume the seat this token was issued for
    id: int | None = None
    key: str | None = None  # the seat's Ed25519 public key, hex (fair play)
    words: bool | None = None  # updates carry the game's own labels and sentences
    lobby: bool | None = None  # push a `lobby` message whenever the table list changes
    decks: bool | None = None  # can sit at hidden-deck tables (runs games' client halves)


@_message("list_tables", "client")
class ListTables(Message):
    id: int
    offset: int | None = None  # skip this many tables (paging; see ``tables.more``)
    finished: bool | None = None  # True: list the finished tables, newest first


@_message("list_games", "client")
class ListGames(Message):
    id: int


@_message("create", "client")
class Create(Message):
    id: int
    game: str
    seats: int
    options: dict[str, Any] | None = None
    seed: int | None = None  # fixed seed for reproducible games; random if absent
    fair: dict[str, Any] | None = None  # fair play: {"timeout": s, "on_withhold": ...}
    clock: dict[str, Any] | None = None  # a turn clock (host/clock.py): {"kind", "seconds", ...}
    undo: str | None = None  # undo by consent: "ask" (default), "always", "never", "people"


@_message("join", "client")
class Join(Message):
    id: int
    table: str
    seat: int | None = None  # a specific seat, or the lowest free one
    spectate: bool = False
    join_id: bytes | None = None  # the client's nonce: a retry gets the same seat back


@_message("resume", "client")
class Resume(Message):
    id: int
    token: str


@_message("leave", "client")
class Leave(Message):
    id: int
    table: str


@_message("act", "client")
class Act(Message):
    id: int
    table: str
    action: dict[str, Any]
    seat: int | None = None  # which of this connection's seats acts (default: its only one)
    base: int | None = None  # at a fair table: the last update seq the seat had seen
    sig: str | None = None  # at a fair table: the seat's signature of [table, seat, base, action]


@_message("sync", "client")
class Sync(Message):
    id: int
    table: str


@_message("query", "client")
class Query(Message):
    """Ask the game a question from one seat's view (or a spectator's): pure, not
    journalled; answered with ``answer`` (docs/protocol.md)."""

    id: int
    table: str
    query: dict[str, Any]
    seat: int | None = None  # which of this connection's seats asks (default: its only one)


@_message("ping", "client")
class Ping(Message):
    id: int


@_message("bye", "client")
class Bye(Message):
    pass


@_message("rename", "client")
class Rename(Message):
    """Change this connection's name now: at every table where it holds a seat (made
    unique there) and at the next it joins. Answered with ``renamed``."""

    id: int
    name: str


@_message("add_bot", "client")
class AddBot(Message):
    """Ask the host to seat one of its own bots at a waiting table (a "page bot": an
    ordinary client the host runs). Answered with ``bot_added``."""

    id: int
    table: str
    strategy: str  # one of the game's page_bots (game info)
    strength: int | None = None  # mcts only: 1..5 (default 2)
    seat: int | None = None  # a free seat, or the lowest free one


@_message("remove_bot", "client")
class RemoveBot(Message):
    """Stop a page bot: free its seat at a waiting table, or give a handed seat back to
    waiting for its player. Answered with ``bot_removed``."""

    id: int
    table: str
    seat: int


@_message("hand_to_bot", "client")
class HandToBot(Message):
    """Let a page bot play a started table's seat whose player has been away for the
    grace period (or the asker's own seat at once). Answered with ``bot_added``."""

    id: int
    table: str
    seat: int
    strategy: str
    strength: int | None = None


# ---------------------------------------------------------------------------
# Host -> client
# ---------------------------------------------------------------------------


@_message("welcome", "host")
class Welcome(Message):
    proto: int  # the version chosen for this connection
    peer: str  # the host's peer id
    name: str  # the host's name
    tables: list[dict[str, Any]]
    resumed: dict[str, Any] | None = None  # {"table", "seat", "token"} when hello had a token
    id: int | None = None
    more: bool | None = None  # True: the list was cut; ask list_tables with an offset


@_message("error", "host")
class Error(Message):
    code: str
    message: str
    id: int | None = None  # the request this answers, if any
    table: str | None = None


@_message("tables", "host")
class Tables(Message):
    id: int
    tables: list[dict[str, Any]]
    more: bool | None = None  # True: more tables follow; ask again with offset + len(tables)
    total: int | None = None  # list_tables.finished: how many finished tables are listed


@_message("games", "host")
class Games(Message):
    id: int
    games: list[dict[str, Any]]


@_message("created", "host")
class Created(Message):
    id: int
    table: str


@_message("joined", "host")
class Joined(Message):
    id: int
    table: str
    seat: int | None  # None for a spectator
    token: str | None  # resume token for the seat; None for a spectator


@_message("left", "host")
class Left(Message):
    id: int
    table: str


@_message("accepted", "host")
class Accepted(Message):
    id: int
    table: str
    seq: int  # the update number this action produced


@_message("update", "host")
class Update(Message):
    """A table changed; sent to every seat and spectator, each with its own view."""

    table: str
    seq: int  # per table: 0 at the start, +1 per accepted action
    status: str  # "waiting", "playing", "finished" or "faulted"
    seats: list[dict[str, Any]]  # [{"name", "taken", "connected"}] by seat
    seat: int | None  # the recipient's seat, None for a spectator
    view: dict[str, Any] | None  # None while waiting for players
    to_act: list[int]
    legal: list[dict[str, Any]] | None = None  # only to a seat that must decide
    events: list[dict[str, Any]] | None = None  # events since seq-1, filtered for this seat
    scores: dict[str, Any] | None = None  # once finished
    full: bool = False  # True for a resync (sync, join, resume): events are not replayed
    id: int | None = None  # set when this answers a sync
    labels: list[str] | None = None  # hello.words: the game's label of each legal action
    sentences: list[str] | None = None  # hello.words: the game's sentence for each event
    board_text: list[dict[str, Any]] | None = None  # hello.words: the game's text board
    clock: dict[str, Any] | None = None  # the turn clock: remaining ms per seat (host/clock.py)
    pause: dict[str, Any] | None = None  # a paused table, or an open pause/resume request


@_message("lobby", "host")
class Lobby(Message):
    """Unsolicited, to a connection that said ``hello.lobby``: once after ``welcome``,
    then whenever the table list or the peers seen on the LAN change."""

    tables: list[dict[str, Any]]
    peers: list[dict[str, Any]] | None = None  # other peers found on the LAN (discovery)
    finished: int | None = None  # how many finished tables are listed (the newest come in tables)


@_message("pong", "host")
class Pong(Message):
    id: int


@_message("renamed", "host")
class Renamed(Message):
    id: int
    name: str  # the connection's name now (a seat's may carry a suffix, see update.seats)


@_message("bot_added", "host")
class BotAdded(Message):
    id: int
    table: str
    seat: int  # the seat the page bot plays
    name: str  # its name at the table


@_message("bot_removed", "host")
class BotRemoved(Message):
    id: int
    table: str
    seat: int


@_message("answer", "host")
class Answer(Message):
    id: int
    table: str
    answer: Any  # plain data, as the game's game_query returned it
