"""The trio client library: connect, hello, create, join, act, follow updates, resume.

    async with open_client("127.0.0.1", 47800, name="ann") as client:
        table = await client.create("race", seats=2)
        joined = await client.join(table)
        async for update in client.updates(table):
            ...

One reader task per client routes replies to the request that awaits them (by
``id``) and updates to the table's feed. A gap in update numbers makes the
client ask for a full view (``sync``) on its own: a reconnect is a resync.

A feed holds at most :data:`UPDATE_BACKLOG` updates: a reader that falls behind
(a slow bot, a person thinking) gets the latest update with the events of the ones
it missed folded in, since a table needs only its newest view plus what happened.
Memory per table stays bounded however slow the reader is.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import secrets
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Final

import trio

from lantable.protocol import (
    NEED_DATA,
    PROTOCOL_VERSION,
    Accepted,
    Act,
    AddBot,
    Answer,
    BotAdded,
    Bye,
    Connection,
    ConnectionClosed,
    Create,
    Created,
    DeckKeys,
    DeckPass,
    DeckRequest,
    DeckUnlock,
    Error,
    FairEvent,
    FairFault,
    FairRequest,
    Games,
    HandToBot,
    Hello,
    Join,
    Joined,
    Leave,
    ListGames,
    ListTables,
    Message,
    Pause,
    PauseNoted,
    Ping,
    ProtocolError,
    Query,
    RemoveBot,
    Rename,
    Renamed,
    Resume,
    Sync,
    Tables,
    UndoNotice,
    Update,
    Welcome,
)
from lantable.protocol import fairplay as fp

from .fairdecks import SeatDecks
from .fairplay import FairSeats, data_dir, load_identity
from .undo import ClientUndo

CONNECT_TIMEOUT: Final = 10.0  # seconds for TCP connect plus hello/welcome
REQUEST_TIMEOUT: Final = 30.0  # seconds a request may wait for its reply
UNANSWERED_KEPT: Final = 256  # deck answers remembered, to name the one a late error refuses
SECRETS_WAIT: Final = 5.0  # seconds a seat stays after a hidden-deck table to hand over secrets
READ_SIZE: Final = 65536
UPDATE_BACKLOG: Final = 32  # updates a table's feed keeps before folding new ones together
EVENT_BACKLOG: Final = 2000  # events a folded update keeps (the oldest go first)
MAX_TABLE_PAGES: Final = 100  # pages of the table list fetched by list_tables
# Seconds without sending anything after which the client pings: the host closes a
# connection that holds no seat and watches no table after 300 s of silence
# (docs/limits.md, idle_timeout), and a person reading the lobby says nothing.
PING_EVERY: Final = 60.0
JOIN_ID_BYTES: Final = 16  # random bytes of a join's nonce (docs/protocol.md, join)

LOGGER = logging.getLogger(__name__)


def fold(older: Update, newer: Update) -> Update:
    """One update that stands for ``older`` then ``newer``: the newer one's table,
    view and legal actions, with both updates' events in order (at most
    :data:`EVENT_BACKLOG`, the newest kept)."""
    if older.events is None and newer.events is None:
        return newer
    events = [*(older.events or ()), *(newer.events or ())]
    if len(events) > EVENT_BACKLOG:
        LOGGER.info("table %s: a slow reader missed %d old events", newer.table,
                    len(events) - EVENT_BACKLOG)
        events = events[-EVENT_BACKLOG:]
    return dataclasses.replace(newer, events=events)


class UpdateFeed:
    """A table's updates as the reader hands them on: a bounded queue.

    Receive with ``await feed.receive()`` or ``async for update in feed``; both end
    (``trio.EndOfChannel``, end of iteration) once the connection has closed and
    every queued update was taken. When :data:`UPDATE_BACKLOG` updates wait, a new
    one is folded into the last (:func:`fold`) instead of queued.
    """

    def __init__(self, backlog: int = UPDATE_BACKLOG) -> None:
        self._queue: deque[Update] = deque()
        self._backlog = backlog
        self._closed = False
        self._lot = trio.lowlevel.ParkingLot()

    def __len__(self) -> int:
        return len(self._queue)

    def send_nowait(self, update: Update) -> None:
        if len(self._queue) >= self._backlog:
            self._queue[-1] = fold(self._queue[-1], update)
        else:
            self._queue.append(update)
        self._lot.unpark_all()

    def close(self) -> None:
        self._closed = True
        self._lot.unpark_all()

    async def receive(self) -> Update:
        while not self._queue:
            if self._closed:
                raise trio.EndOfChannel
            await self._lot.park()
        await trio.lowlevel.checkpoint()
        return self._queue.popleft()

    def __aiter__(self) -> UpdateFeed:
        return self

    async def __anext__(self) -> Update:
        try:
            return await self.receive()
        except trio.EndOfChannel:
            raise StopAsyncIteration from None


class ClientError(Exception):
    """Base of the client library's errors."""


class RequestError(ClientError):
    """The host answered a request with ``error``.

    Attributes:
        code: the stable error code (see ``lantable.protocol.ErrorCode``).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Disconnected(ClientError):
    """The connection to the host ended."""


class _Pending:
    __slots__ = ("event", "reply")

    def __init__(self) -> None:
        self.event = trio.Event()
        self.reply: Message | None = None


class Client:
    """A connected, welcomed client. Build it with :func:`open_client`."""

    def __init__(self, stream: trio.abc.Stream, conn: Connection, welcome: Welcome,
                 fair: FairSeats | None = None, decks: SeatDecks | None = None) -> None:
        self._stream = stream
        self._last_sent = trio.current_time()  # for the keep-alive ping
        self._conn = conn
        self.welcome = welcome
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._feeds: dict[str, UpdateFeed] = {}
        self._last_seq: dict[str, int] = {}
        self._send_lock = trio.Lock()
        self.errors: list[Error] = []  # unsolicited errors (e.g. a seat resumed elsewhere)
        self.taken_over: set[str] = set()  # tables whose seat another connection resumed
        self._lost: dict[str, trio.Event] = {}
        # Why the connection ended, if the host erred.
        self.protocol_error: ProtocolError | None = None
        self.closed = trio.Event()
        # Fair play: this connection's chains, and what it checked (clients/fairplay.py).
        self.fair = fair
        # Hidden decks: its passes, keys and cards, and the game's client half
        # (clients/fairdecks.py). Given (``decks``) by whoever reconnects: a deal under
        # way when the host restarted goes on with the same secrets.
        self.decks = decks if decks is not None else (
            SeatDecks(fair.identity) if fair is not None else None)
        # Told of every unsolicited message the library does not handle itself (chat
        # lines, a rematch offered: clients/tablechat.py).
        self.listeners: list[Callable[[Message], None]] = []
        self.undo = ClientUndo(self)  # undo by consent (clients/undo.py)
        self._deck_answered = trio.Event()  # set whenever a deck request was answered
        self._deck_busy = 0  # deck requests being answered now
        # Deck answers the host acknowledges only by refusing them: id -> where to say so.
        self._unanswered: dict[int, tuple[list[str], str]] = {}

    # -- plumbing -------------------------------------------------------------------

    async def _send(self, msg: Message) -> None:
        data = self._conn.send(msg)
        async with self._send_lock:
            try:
                await self._stream.send_all(data)
            except BaseException:
                self._conn.send_failed()
                raise
        self._last_sent = trio.current_time()

    async def _keep_alive(self, every: float = PING_EVERY) -> None:
        """Ping after ``every`` seconds in which nothing was sent, so the host never
        takes a person who only reads the lobby for an idle connection. The ``pong``
        needs no one waiting for it."""
        try:
            while True:
                await trio.sleep_until(self._last_sent + every)
                if trio.current_time() - self._last_sent >= every:
                    await self._send(Ping(id=next(self._ids)))
        except (trio.BrokenResourceError, trio.ClosedResourceError, ProtocolError):
            pass

    async def _request(self, make: Any, **fields: Any) -> Message:
        # A request on a connection whose reader has ended can never get its reply:
        # fail at once, so that a seat acting on an update still queued from the
        # closed feed reconnects instead of waiting REQUEST_TIMEOUT (issue 26).
        if self.closed.is_set():
            raise Disconnected("the connection to the host has closed")
        rid = next(self._ids)
        pending = self._pending[rid] = _Pending()
        try:
            await self._send(make(id=rid, **fields))
            with trio.fail_after(REQUEST_TIMEOUT):
                await pending.event.wait()
        finally:
            self._pending.pop(rid, None)
        reply = pending.reply
        if reply is None:
            raise Disconnected("the connection closed before the reply")
        if isinstance(reply, Error):
            raise RequestError(reply.code, reply.message)
        return reply

    def _feed(self, table: str) -> UpdateFeed:
        if table not in self._feeds:
            self._feeds[table] = UpdateFeed()
        return self._feeds[table]

    async def _read_loop(self, nursery: trio.Nursery) -> None:
        try:
            while True:
                event = self._conn.next_event()
                if event is NEED_DATA:
                    self._conn.receive_data(bytes(await self._stream.receive_some(READ_SIZE)))
                    continue
                if isinstance(event, ConnectionClosed):
                    break
                self._dispatch(event, nursery)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        except ProtocolError as exc:  # the host broke the protocol: this connection is over
            self.protocol_error = exc
        finally:
            self.closed.set()
            for pending in self._pending.values():
                pending.event.set()
            for feed in self._feeds.values():
                feed.close()
            for lost in self._lost.values():
                lost.set()

    def _dispatch(self, msg: Message, nursery: trio.Nursery) -> None:
        if isinstance(msg, Update) and self.decks is not None and msg.seat is not None \
                and msg.view is not None and msg.table in self.decks.game_of:
            msg = self._with_hand(msg)
        if isinstance(msg, Update):
            last = self._last_seq.get(msg.table)
            if not msg.full and last is not None and msg.seq > last + 1:
                nursery.start_soon(self._resync, msg.table)  # missed one: ask for the full view
                return
            self._last_seq[msg.table] = msg.seq
            if msg.id is None or msg.id not in self._pending:
                self._feed(msg.table).send_nowait(msg)
                return
        rid = getattr(msg, "id", None)
        pending = self._pending.get(rid) if rid is not None else None
        if pending is not None:
            pending.reply = msg
            pending.event.set()
            if isinstance(msg, Update):
                self._feed(msg.table).send_nowait(msg)
        elif isinstance(msg, Error) and msg.id in self._unanswered:
            problems, what = self._unanswered.pop(msg.id)
            problems.append(f"{what}: [{msg.code}] {msg.message}")
        elif isinstance(msg, Error):
            self.errors.append(msg)
            if msg.code == "bad_token" and msg.table is not None:
                # Our seat was resumed by another connection: this one gets no more
                # updates for that table, so its feed ends (see taken_over).
                self.taken_over.add(msg.table)
                self._feed(msg.table).close()
                self.lost(msg.table).set()
        elif self.fair is not None and isinstance(msg, FairRequest):
            nursery.start_soon(self._answer_fair, msg)
        elif self.fair is not None and isinstance(msg, FairEvent):
            self.fair.check(msg)
        elif self.fair is not None and isinstance(msg, FairFault):
            self.fair.fault(msg)
        elif self.decks is not None and isinstance(msg, DeckRequest):
            nursery.start_soon(self._answer_deck, msg)
        elif self.decks is not None and isinstance(msg, DeckKeys):
            self.decks.keys(msg)
        elif isinstance(msg, UndoNotice):
            self.undo.notice(msg, nursery)
        else:
            for listener in self.listeners:
                listener(msg)

    def _with_hand(self, msg: Update) -> Update:
        """At a hidden-deck table: the seat's own cards go into its view (``"_hand"``,
        for the game's words and board) and, since the host cannot list them, its
        legal actions come from the game's client half."""
        assert self.decks is not None and msg.seat is not None and msg.view is not None
        view = {**msg.view, "_hand": self.decks.hand(msg.table, msg.seat)}
        legal = msg.legal
        if legal is None and msg.seat in msg.to_act:
            legal = self.decks.legal(msg.table, msg.seat, msg.view)
        return dataclasses.replace(msg, view=view, legal=legal,
                                   labels=None if legal is not msg.legal else msg.labels)

    async def _answer_deck(self, req: DeckRequest) -> None:
        """A pass, keys or secrets for a hidden deal, as the host asked."""
        assert self.decks is not None
        self._deck_busy += 1
        try:
            await self._answer(req, self.decks.answer, self.decks.problems,
                               f"deck request {req.kind}")
        finally:
            self._deck_busy -= 1
            self._deck_answered.set()  # hand_over() looks again
            self._deck_answered = trio.Event()

    async def hand_over(self, table: str, seat: int | None, wait: float = SECRETS_WAIT) -> None:
        """Once a hidden-deck table has ended: wait (at most ``wait`` seconds) until this
        seat has handed over the secrets of every round it dealt, which the host asks
        for right after the last update, so that ``lantable verify`` can audit them."""
        if self.decks is None or seat is None:
            return
        with trio.move_on_after(wait):
            while (self.decks.owed(table, seat) or self._deck_busy) and not self.closed.is_set():
                await self._deck_answered.wait()

    async def _answer_fair(self, req: FairRequest) -> None:
        """Commit or reveal for a seat, as the host asked (every client takes part)."""
        if self.fair is not None:
            await self._answer(req, self.fair.answer, self.fair.problems,
                               f"{req.kind} request")

    async def _answer(self, req: FairRequest | DeckRequest,
                      answer: Callable[[Any], tuple[type, dict[str, Any]] | None],
                      problems: list[str], what: str) -> None:
        """Send what ``answer`` makes of the host's request ``req``. A request it cannot
        answer (e.g. the chain cannot be saved, a malformed request), or a reply the host
        refuses, leaves this seat silent and goes into ``problems``, saying why."""
        try:
            made = answer(req)
        except Exception as exc:
            LOGGER.exception("table %s: cannot answer the host's %s", req.table, what)
            problems.append(f"table {req.table}: cannot {req.kind}: {exc!r}")
            return
        if made is None:
            return
        make, fields = made
        what = f"table {req.table}: {req.kind} of seat {req.seat} refused"
        if make in (DeckPass, DeckUnlock):  # answered only when refused (docs/protocol.md)
            rid = next(self._ids)
            self._unanswered[rid] = (problems, what)
            while len(self._unanswered) > UNANSWERED_KEPT:
                del self._unanswered[next(iter(self._unanswered))]
            try:
                await self._send(make(id=rid, **fields))
            except (trio.BrokenResourceError, trio.ClosedResourceError, ProtocolError):
                pass  # the connection is gone: the host asks again when the seat is back
            return
        try:
            await self._request(make, **fields)
        except (ClientError, trio.TooSlowError) as exc:
            problems.append(f"{what}: {exc}")

    async def _resync(self, table: str) -> None:
        try:
            await self.sync(table)
        except ClientError:
            pass

    # -- requests ---------------------------------------------------------------------

    async def list_tables(self, max_pages: int = MAX_TABLE_PAGES) -> list[dict[str, Any]]:
        """The tables in the host's lobby, every page of them (at most ``max_pages``)."""
        tables: list[dict[str, Any]] = []
        for _ in range(max_pages):
            reply = await self._request(ListTables, offset=len(tables) or None)
            assert isinstance(reply, Tables)
            tables.extend(reply.tables)
            if not reply.more or not reply.tables:
                break
        return tables

    async def list_games(self) -> list[dict[str, Any]]:
        reply = await self._request(ListGames)
        assert isinstance(reply, Games)
        return reply.games

    async def create(self, game: str, seats: int, options: dict[str, Any] | None = None,
                     seed: int | None = None, fair: dict[str, Any] | None = None,
                     clock: dict[str, Any] | None = None,
                     undo: str | None = None) -> str:
        """Open a table; returns its id. Raises RequestError (no_such_game, bad_options).
        ``fair`` (a map of fair-play options, ``{}`` for the defaults) makes the seats'
        commit-reveal events the table's only randomness (docs/fair-play.md); ``clock``
        gives it a turn clock (docs/protocol.md, "Turn clocks and pause")."""
        reply = await self._request(Create, game=game, seats=seats, options=options, seed=seed,
                                    fair=fair, clock=clock, undo=undo)
        assert isinstance(reply, Created)
        return reply.table

    async def join(self, table: str, seat: int | None = None, *, spectate: bool = False,
                   join_id: bytes | None = None) -> Joined:
        """Take a seat (the lowest free one by default) or watch; keep ``.token`` to resume.

        ``join_id`` (from :func:`new_join_id`, kept by the caller) makes the join safe to
        retry on a new connection when the reply was lost: the same ``join_id`` gets
        the same seat and token back (docs/protocol.md, "Retrying a join")."""
        self._feed(table)
        reply = await self._request(Join, table=table, seat=seat, spectate=spectate,
                                    join_id=join_id)
        assert isinstance(reply, Joined)
        return reply

    async def resume(self, token: str) -> Joined:
        reply = await self._request(Resume, token=token)
        assert isinstance(reply, Joined)
        self._feed(reply.table)
        if self.fair is not None and reply.seat is not None:
            self.fair.resumed(reply.table, reply.seat)
        return reply

    async def leave(self, table: str) -> None:
        await self._request(Leave, table=table)

    async def rename(self, name: str) -> str:
        """Be called ``name`` from now on, at every table where this connection sits
        (made unique there: "ann (2)"). Raises RequestError (``name_refused``)."""
        reply = await self._request(Rename, name=name)
        assert isinstance(reply, Renamed)
        return reply.name

    async def add_bot(self, table: str, strategy: str, strength: int | None = None,
                      seat: int | None = None) -> BotAdded:
        """Have the host seat one of its own bots at a waiting table where we sit."""
        reply = await self._request(AddBot, table=table, strategy=strategy, strength=strength,
                                    seat=seat)
        assert isinstance(reply, BotAdded)
        return reply

    async def remove_bot(self, table: str, seat: int) -> None:
        await self._request(RemoveBot, table=table, seat=seat)

    async def hand_to_bot(self, table: str, seat: int, strategy: str,
                          strength: int | None = None) -> BotAdded:
        """Have a host bot play a seat whose player is away (or our own)."""
        reply = await self._request(HandToBot, table=table, seat=seat, strategy=strategy,
                                    strength=strength)
        assert isinstance(reply, BotAdded)
        return reply

    async def pause(self, table: str, paused: bool, seat: int | None = None) -> PauseNoted:
        """Ask (or consent) to pause (``paused``) or resume the table. Raises
        RequestError (``bad_pause``, ``not_seated``)."""
        reply = await self._request(Pause, table=table, paused=paused, seat=seat)
        assert isinstance(reply, PauseNoted)
        return reply

    async def act(self, table: str, action: dict[str, Any], seat: int | None = None) -> int:
        """Submit an action; returns its update number. Raises RequestError
        (``not_to_act``, ``illegal_action``, ``not_seated`` ...). At a hidden-deck
        table a claim made face down is sealed first (:meth:`SeatDecks.seal`)."""
        if self.decks is not None:
            action = self.decks.seal(table, seat, action)
        signed = None if self.fair is None else self.fair.sign_action(
            table, seat, self._last_seq.get(table, 0), action)
        base, sig = signed if signed is not None else (None, None)
        reply = await self._request(Act, table=table, action=action, seat=seat, base=base,
                                    sig=sig)
        assert isinstance(reply, Accepted)
        return reply.seq

    async def sync(self, table: str) -> Update:
        """Ask for a full update of ``table`` (it also arrives on :meth:`updates`)."""
        reply = await self._request(Sync, table=table)
        assert isinstance(reply, Update)
        return reply

    async def query(self, table: str, query: dict[str, Any], seat: int | None = None) -> Any:
        """Ask the game a question from this seat's view (pure, not journalled);
        raises RequestError (``bad_query``, ``not_seated`` ...)."""
        reply = await self._request(Query, table=table, query=query, seat=seat)
        assert isinstance(reply, Answer)
        return reply.answer

    async def ping(self) -> None:
        await self._request(Ping)

    def lost(self, table: str) -> trio.Event:
        """Set once this connection can no longer play ``table``: it closed, or another
        connection resumed the seat (``taken_over``)."""
        if table not in self._lost:
            self._lost[table] = trio.Event()
            if self.closed.is_set() or table in self.taken_over:
                self._lost[table].set()
        return self._lost[table]

    def updates(self, table: str) -> UpdateFeed:
        """The feed of updates for ``table`` (bounded, see :class:`UpdateFeed`); it
        ends when the connection does."""
        return self._feed(table)

    async def close(self) -> None:
        try:
            await self._send(Bye())
        except (trio.BrokenResourceError, trio.ClosedResourceError, Exception):
            pass


def new_join_id() -> bytes:
    """A fresh nonce for :meth:`Client.join`: keep it for the join's retries only."""
    return secrets.token_bytes(JOIN_ID_BYTES)


@asynccontextmanager
async def open_client(host: str, port: int, *, name: str, token: str | None = None,
                      proto: int = PROTOCOL_VERSION, identity: fp.Identity | None = None,
                      decks: SeatDecks | None = None) -> AsyncIterator[Client]:
    """Connect, say hello and yield a :class:`Client`; says bye and closes on exit.

    ``identity`` is the key that signs at fair tables; by default this user's key
    from the data directory (created on first use), with chains kept there too.
    ``decks``: the hidden-deck secrets of an earlier connection of the same identity
    (:attr:`Client.decks`), so that a deal under way goes on after a reconnect.

    Raises:
        RequestError: the host refused the hello (version, token).
        OSError: the TCP connection failed.
    """
    with trio.fail_after(CONNECT_TIMEOUT):
        stream = await trio.open_tcp_stream(host, port)
    async with open_session(stream, name=name, token=token, proto=proto,
                            identity=identity, decks=decks) as client:
        yield client


@asynccontextmanager
async def open_session(stream: trio.abc.Stream, *, name: str, token: str | None = None,
                       proto: int = PROTOCOL_VERSION, identity: fp.Identity | None = None,
                       decks: SeatDecks | None = None) -> AsyncIterator[Client]:
    """:func:`open_client` on a stream already connected to a host (closed on exit);
    tests use it on memory streams."""
    async with stream:
        conn = Connection("client")
        store = None
        if identity is None:
            identity, store = load_identity(), data_dir()
        fair = FairSeats(identity, store)
        with trio.fail_after(CONNECT_TIMEOUT):
            await stream.send_all(conn.send(Hello(proto=proto, name=name, token=token,
                                                  key=identity.public, decks=True)))
            while True:
                event = conn.next_event()
                if event is NEED_DATA:
                    conn.receive_data(bytes(await stream.receive_some(READ_SIZE)))
                    continue
                break
        if isinstance(event, Error):
            raise RequestError(event.code, event.message)
        if not isinstance(event, Welcome):
            raise Disconnected(f"expected welcome, got {event!r}")
        if decks is not None and decks.identity.public != identity.public:
            decks = None  # another key's secrets sign nothing of ours
        client = Client(stream, conn, event, fair, decks)
        if event.resumed is not None:
            fair.resumed(event.resumed["table"], event.resumed["seat"])
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(client._read_loop, nursery)
                nursery.start_soon(client._keep_alive)
                try:
                    yield client
                finally:
                    with trio.CancelScope(shield=True), trio.move_on_after(1):
                        await client.close()
                    nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            # The reader task never fails on its own, so a group here holds the
            # caller's one exception: give it back as it was raised.
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
