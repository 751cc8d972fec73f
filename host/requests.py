"""What a welcomed connection's requests do, whatever the transport.

:func:`route` takes one decoded request, the size of its frame and the client's
:class:`ClientLink`; it checks the request's fields against the peer's limits
before any work, then answers it from the lobby (:class:`Peer`) or hands it to the
table's method of the same name (``act`` to :meth:`Table.act`, ...). Every request
is answered, with its reply or an ``error`` naming what was wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lantable.plugins import BadOptions
from lantable.protocol import (
    Act,
    AddBot,
    Chat,
    ChatHistory,
    Commit,
    Create,
    Created,
    DeckPass,
    DeckSecretsMessage,
    DeckUnlock,
    Error,
    ErrorCode,
    Games,
    HandToBot,
    HideTable,
    Join,
    KeepTable,
    Leave,
    ListGames,
    ListTables,
    Message,
    Mute,
    Pause,
    Ping,
    Pong,
    Query,
    Rematch,
    RemoveBot,
    Rename,
    Replay,
    Resume,
    Reveal,
    Sync,
    Tables,
    UndoAnswer,
    UndoAsk,
)

from .archive import route_archive
from .chat import route_chat
from .limits import LimitExceeded, Limits, depth_at_most
from .rematch import route_rematch, tell_rematch
from .table import JOIN_ID_SIZES

if TYPE_CHECKING:
    from .link import ClientLink
    from .lobby import Peer
    from .table import Table


def _too_large(what: str, value: Any, size: int, limit: int, limits: Limits) -> str | None:
    """Why ``value`` (a request field in a frame of ``size`` bytes) is refused, or None."""
    if size > limit:
        return f"{what} of about {size} bytes is over the limit of {limit}"
    if not depth_at_most(value, limits.max_depth):
        return f"{what} nests deeper than {limits.max_depth} levels"
    return None


def route(msg: Message, size: int, link: ClientLink, peer: Peer, joined: set[str]) -> None:
    """Handle one request of ``size`` bytes (its frame body), whatever the transport.

    A table request is applied by the table's method of the same name, which never
    awaits, so requests to a table run one at a time (docs/decisions.md). Every
    request is answered; fields are checked against the peer's limits before any work.
    """
    refusal = _refusal(msg, size, peer.limits)
    if refusal is not None:
        link.send(refusal)
    elif isinstance(msg, _TABLE_REQUESTS):
        table = peer.table(msg.table)
        if table is None:
            link.send(Error(code=ErrorCode.NO_SUCH_TABLE, id=msg.id, table=msg.table,
                            message=f"no table {msg.table!r} on this peer"))
            return
        if isinstance(msg, Join):
            joined.add(msg.table)
        _to_table(msg, link, table)
        if isinstance(msg, (Join, Sync)):
            tell_rematch(peer, link, table)  # a finished table's open rematch (host/rematch.py)
    elif isinstance(msg, Ping):
        link.send(Pong(id=msg.id))
    elif isinstance(msg, Resume):
        found = peer.find_token(msg.token)
        if found is None:
            link.send(Error(code=ErrorCode.BAD_TOKEN, id=msg.id,
                            message="no seat has that resume token"))
        else:
            table = found[0]
            joined.add(table.id)
            table.resume(link, msg.id, msg.token)
            tell_rematch(peer, link, table)
    elif isinstance(msg, (Replay, HideTable, KeepTable)) or \
            (isinstance(msg, ListTables) and msg.finished):
        route_archive(msg, link, peer)  # finished tables and replays (host/archive.py)
    elif isinstance(msg, ListTables):
        tables, more = peer.summaries(msg.offset or 0)
        link.send(Tables(id=msg.id, tables=tables, more=more or None))
    elif isinstance(msg, ListGames):
        link.send(Games(id=msg.id, games=peer.games()))
    elif isinstance(msg, Create):
        _create(msg, link, peer)
    elif isinstance(msg, Rename):
        peer.rename(link, msg.id, msg.name)
    elif isinstance(msg, (Chat, ChatHistory, Mute)):
        route_chat(msg, link, peer)  # host/chat.py
    elif isinstance(msg, Rematch):
        route_rematch(msg, link, peer)  # host/rematch.py
    else:  # pragma: no cover - the state table admits no other type here
        link.send(Error(code=ErrorCode.UNEXPECTED_MESSAGE, message=f"unexpected {msg.t!r}"))


# The requests that name a table, in the order of how often they come.
_TABLE_REQUESTS = (Act, Query, Sync, Join, Leave, Commit, Reveal, DeckPass, DeckUnlock,
                   DeckSecretsMessage, AddBot, RemoveBot, HandToBot, Pause,
                   UndoAsk, UndoAnswer)  # host/clock.py, host/undo.py


def _to_table(msg: Act | Query | Sync | Join | Leave | Commit | Reveal | DeckPass | DeckUnlock
              | DeckSecretsMessage | AddBot | RemoveBot | HandToBot | Pause | UndoAsk
              | UndoAnswer, link: ClientLink,
              table: Table) -> None:
    """Hand a request to its table's method (never raises: see ``Table``)."""
    if isinstance(msg, Act):
        table.act(link, msg.id, msg.seat, msg.action, msg.base, msg.sig)
    elif isinstance(msg, Query):
        table.query(link, msg.id, msg.seat, msg.query)
    elif isinstance(msg, Sync):
        table.sync(link, msg.id)
    elif isinstance(msg, Join):
        table.join(link, msg.id, msg.seat, msg.spectate, msg.join_id)
    elif isinstance(msg, Leave):
        table.leave(link, msg.id)
    elif isinstance(msg, Commit):
        table.commit(link, msg.id, msg.seat, msg.tip, msg.length, msg.sig)
    elif isinstance(msg, Reveal):
        table.reveal(link, msg.id, msg.seat, msg.event, msg.link, msg.sig)
    elif isinstance(msg, AddBot):
        table.add_bot(link, msg.id, msg.strategy, msg.strength, msg.seat)
    elif isinstance(msg, RemoveBot):
        table.remove_bot(link, msg.id, msg.seat)
    elif isinstance(msg, HandToBot):
        table.hand_to_bot(link, msg.id, msg.seat, msg.strategy, msg.strength)
    elif isinstance(msg, Pause):  # host/clock.py
        table.pause(link, msg.id, msg.seat, msg.paused)
    elif isinstance(msg, UndoAsk):
        table.undo_ask(link, msg.id, msg.seat, msg.sig)
    elif isinstance(msg, UndoAnswer):
        table.undo_answer(link, msg.id, msg.seat, msg.undoes, msg.accept, msg.sig)
    else:  # a hidden deal's message (host/fairdecks.py)
        table.deck_message(link, msg.id, msg)


def _refusal(msg: Message, size: int, limits: Limits) -> Error | None:
    """The error for a request whose fields are over their limits, or None."""
    if isinstance(msg, Act):
        why = _too_large("action", msg.action, size, limits.max_action_bytes, limits)
        if why is not None:
            return Error(code=ErrorCode.TOO_LARGE, id=msg.id, table=msg.table, message=why)
    elif isinstance(msg, Create):
        why = _too_large("options", msg.options, size, limits.max_options_bytes, limits)
        if why is not None:
            return Error(code=ErrorCode.TOO_LARGE, id=msg.id, message=why)
    elif isinstance(msg, Join) and msg.join_id is not None and \
            len(msg.join_id) not in JOIN_ID_SIZES:
        return Error(code=ErrorCode.BAD_JOIN_ID, id=msg.id, table=msg.table,
                     message=f"join_id has {len(msg.join_id)} bytes; send "
                             f"{JOIN_ID_SIZES[0]} to {JOIN_ID_SIZES[-1]} random bytes")
    return None


def _create(msg: Create, link: ClientLink, peer: Peer) -> None:
    try:
        table = peer.create_table(msg.game, msg.seats, msg.options, msg.seed,
                                  creator=link.address, fair=msg.fair, clock=msg.clock,
                                  undo=msg.undo)
    except KeyError as exc:
        link.send(Error(code=ErrorCode.NO_SUCH_GAME, id=msg.id, message=str(exc.args[0])))
    except BadOptions as exc:
        link.send(Error(code=ErrorCode.BAD_OPTIONS, id=msg.id, message=str(exc)))
    except LimitExceeded as exc:
        link.send(Error(code=exc.code, id=msg.id, message=str(exc)))
    else:
        link.send(Created(id=msg.id, table=table.id))
