"""Holding a seat through anything: take it, remember its token, play, and come back.

:func:`hold_seat` is what ``lantable play`` and ``lantable bot`` run. It takes the
seat (a token given by hand, else a token remembered for this peer and table, else
a fresh ``join``), writes the token to the :class:`~.tokens.TokenStore` at once, and
plays with :func:`~.seat.play_seat`. When the connection drops after the first
welcome (a host restart, a flaky link, even before ``joined`` arrived: the join is
retried with the same ``join_id``, which gets the same seat) it reconnects and
resumes on its own for up to ``reconnect_for`` seconds; a first connection that
fails is the caller's error to report.

A remembered seat belongs to the program that took it (``SeatPlan.program``): one
program resumes only its own seats whose process is gone, never another program's
or a running one's, unless the plan says ``take_over`` (and a person confirms).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import trio

from .client import Client, ClientError, RequestError, new_join_id, open_client
from .fairdecks import SeatDecks
from .seat import Decide, play_seat
from .tokens import owner

if TYPE_CHECKING:
    from .tokens import Remembered, TokenStore

RECONNECT_FOR: Final = 120.0  # seconds to keep trying to get back to a host
RETRY_EVERY: Final = 0.5  # seconds between reconnection attempts
REQUEST_WAIT: Final = 10.0  # seconds to wait for the update that follows a join or resume

# What to tell the user: ("sat" | "lost" | "back" | "refused", a sentence).
Notify = Callable[[str, str], None]


class HostGone(ClientError):
    """The host did not come back within the reconnection time."""


class SeatTakenOver(ClientError):
    """Another connection resumed our seat with its token; we stop rather than fight."""


class StrategyUnfit(ClientError):
    """The program cannot play the table's game (a search bot for a game without
    ``game_sample_state``, a game not installed here): found before taking a seat."""


class SeatOwned(ClientError):
    """The seat asked for is remembered here for another program (or a running one):
    taking it needs ``take_over``."""


@dataclass
class SeatPlan:
    """Which seat to hold: a table, and a seat number, a token, or spectating."""

    table: str
    seat: int | None = None
    token: str | None = None
    spectate: bool = False
    # Who we are on this machine: "play" (a person) or "bot". A remembered seat is
    # resumed only by the program that took it, once its process is gone.
    program: str = "play"
    # Take a seat remembered for another program (or a running process) all the same.
    take_over: bool = False
    # Asked before a take-over (a person confirms); None: no question.
    confirm: Callable[[Remembered], Awaitable[bool]] | None = None


@dataclass
class Held:
    """Where we sat and how it ended."""

    peer: str
    peer_name: str
    table: str
    game: str
    seat: int | None
    token: str | None
    scores: dict[str, Any] | None = None


async def game_of(client: Client, table: str) -> str | None:
    """The game id of ``table``: from the welcome's list, else from the whole lobby;
    None for a table the lobby no longer lists (a finished one)."""
    for t in client.welcome.tables:
        if t["id"] == table:
            return str(t["game"])
    for t in await client.list_tables():
        if t["id"] == table:
            return str(t["game"])
    return None


async def _take(client: Client, plan: SeatPlan, name: str, store: TokenStore | None,
                held: Held, join_id: bytes) -> None:
    """Get the seat on a welcomed connection; fills ``held``. Every attempt of one
    :func:`hold_seat` joins with the same ``join_id``, so a join whose ``joined`` was
    lost gets its seat back on the next connection instead of taking another."""
    peer, table = client.welcome.peer, plan.table
    resumed = client.welcome.resumed
    if resumed is not None:
        held.table, held.seat, held.token = resumed["table"], resumed["seat"], resumed["token"]
        return
    if plan.spectate:
        await client.join(table, spectate=True)
        held.seat = None
        return
    if store is not None and held.token is None:
        found = await _remembered(store.remembered(peer, table), plan, name, table)
        if found is not None:
            try:
                joined = await client.resume(found.token)
            except RequestError as exc:
                if exc.code != "bad_token":
                    raise
                store.forget(peer, table, found.seat)  # the table is gone: forget the seat
            else:
                held.seat, held.token = joined.seat, joined.token
                ours = _ours(found, plan, name)
                if plan.program == "play" or ours:
                    # Ours now. A bot that took over a person's seat only stands in:
                    # the seat stays the person's, who takes it back by coming back.
                    store.remember(peer, table, found.seat, found.token, name=name,
                                   **owner(plan.program))
                if not ours and plan.program == "play":
                    await client.rename(name)  # a person who took a seat over is named
                return
    try:
        joined = await client.join(table, plan.seat, join_id=join_id)
    except RequestError as exc:
        others = store.remembered(peer, table) if store is not None else []
        if exc.code != "table_full" or not others:
            raise
        raise SeatOwned(f"{exc.message}. Remembered on this machine: "
                        + "; ".join(f"seat {r.seat}, held by {r.owner_text()}" for r in others)
                        + ". To take one over, add --seat N --take-over") from None
    held.seat, held.token = joined.seat, joined.token
    if store is not None and joined.token is not None and joined.seat is not None:
        store.remember(peer, table, joined.seat, joined.token, name=name,
                       **owner(plan.program))


def _ours(entry: Remembered, plan: SeatPlan, name: str) -> bool:
    """Whether we may resume ``entry`` without a take-over: our program's, its process
    gone (a seat remembered before owners were kept: under our name)."""
    if entry.program is None:
        return entry.name == name
    return entry.program == plan.program and not entry.running


async def _remembered(entries: list[Remembered], plan: SeatPlan, name: str,
                      table: str) -> Remembered | None:
    """The remembered seat to resume, or None to join a fresh one.

    Raises:
        SeatOwned: ``plan.seat`` is another program's (or a running one's) and
            ``plan.take_over`` is not set; or a take-over was declined or unclear.
    """
    if plan.seat is not None:
        found = [e for e in entries if e.seat == plan.seat]
    else:
        mine = [e for e in entries if _ours(e, plan, name)]
        found = [e for e in mine if e.name == name] or (mine if plan.program == "play" else [])
        if len(found) != 1 and plan.take_over:
            found = entries
    if not found:
        return None
    if len(found) > 1:
        if not plan.take_over:
            return None
        raise SeatOwned(f"several seats of table {table} are remembered here ("
                        + ", ".join(str(e.seat) for e in found) + "): say which with --seat N")
    (entry,) = found
    if _ours(entry, plan, name):
        return entry
    if not plan.take_over:
        raise SeatOwned(f"seat {entry.seat} of table {table} is held by {entry.owner_text()} "
                        f"on this machine; to take it over, add --take-over")
    if plan.confirm is not None and not await plan.confirm(entry):
        raise SeatOwned(f"seat {entry.seat} not taken: it stays with {entry.owner_text()}")
    return entry


async def hold_seat(host: str, port: int, plan: SeatPlan, *, name: str,
                    make_decider: Callable[[str, int | None], Decide],
                    store: TokenStore | None = None,
                    on_update: Callable[[Any], None] | None = None,
                    on_idle: Callable[[], None] | None = None,
                    notify: Notify | None = None,
                    reconnect_for: float = RECONNECT_FOR,
                    check_game: Callable[[str], None] | None = None,
                    on_connect: Callable[[Client], None] | None = None,
                    on_client: Callable[[Client, Held], None] | None = None) -> Held:
    """Hold the seat ``plan`` names until the game ends; returns where we sat and the
    final scores.

    Raises:
        OSError, trio.TooSlowError: the first connection failed.
        RequestError: the host refused (no such table, seat taken, unknown token...).
        HostGone: the host went away and did not come back in ``reconnect_for`` s.
        StrategyUnfit: ``check_game`` (called with the table's game id before the
            seat is taken) refused the game.
    """
    say = notify or (lambda kind, text: None)
    held = Held(peer="", peer_name="", table=plan.table, game="", seat=plan.seat,
                token=plan.token)
    welcomed = False
    deadline: float | None = None
    join_id = new_join_id()
    decks: SeatDecks | None = None
    while True:
        try:
            async with open_client(host, port, name=name, token=held.token,
                                   decks=decks) as client:
                decks = client.decks  # a hidden deal goes on after a reconnect
                if welcomed:
                    say("back", f"reconnected to {client.welcome.name}")
                welcomed, deadline = True, None
                if on_connect is not None:  # e.g. how it answers undo requests
                    on_connect(client)
                held.peer, held.peer_name = client.welcome.peer, client.welcome.name
                if client.fair is not None:  # fair play: faults and failed checks, in words
                    client.fair.on_notice = lambda text: say("fair", f"Fair play: {text}")
                if check_game is not None:  # before taking the seat: nothing to undo
                    listed = await game_of(client, plan.table)
                    if listed is not None:
                        check_game(listed)
                await _take(client, plan, name, store, held, join_id)
                plan.table = held.table
                game = await game_of(client, held.table)
                if game is None:  # finished while we were away: the lobby lists it no more
                    with trio.fail_after(REQUEST_WAIT):
                        update = await client.updates(held.table).receive()
                    if update.status == "finished":
                        held.scores = update.scores
                        return held
                    raise RequestError("no_such_table", f"table {held.table} is not listed "
                                                        f"on this peer")
                held.game = game
                if on_client is not None:  # seated on this connection (chat: clients/tablechat.py)
                    on_client(client, held)
                where = "watching" if held.seat is None else f"seat {held.seat}"
                say("sat", f"{name}: {where} at table {held.table} ({held.game}) on peer "
                           f"{held.peer_name} ({host}:{port})")

                def refused(action: Any, exc: RequestError) -> None:
                    say("refused", exc.message)

                held.scores = await play_seat(client, held.table, held.seat,
                                              make_decider(held.game, held.seat),
                                              on_update=on_update, on_refused=refused,
                                              on_idle=on_idle)
                if held.scores is not None:
                    await client.hand_over(held.table, held.seat)  # hidden decks: the audit
                    summary = client.fair.summary(held.table) if client.fair else None
                    if summary is not None:
                        say("fair", summary[0].upper() + summary[1:])
                    return held
                if held.table in client.taken_over:
                    raise SeatTakenOver(
                        f"your seat at table {held.table} was taken over by another "
                        f"connection with the same token (another `lantable play` or bot)")
                say("lost", f"the connection to {host}:{port} ended; reconnecting")
        except (SeatTakenOver, SeatOwned, StrategyUnfit):
            raise
        except RequestError as exc:
            if exc.code == "bad_token" and held.token is not None and held.token != plan.token:
                held.token = None  # our own token stopped working: take the seat afresh
                continue
            raise
        except (OSError, ClientError, trio.BrokenResourceError, trio.TooSlowError) as exc:
            if not welcomed:
                raise
            say("lost", f"lost the connection to {host}:{port} ({exc or type(exc).__name__}); "
                        f"reconnecting")
        if not welcomed:
            raise ClientError(f"the host at {host}:{port} closed the connection")
        now = trio.current_time()
        deadline = deadline if deadline is not None else now + reconnect_for
        if now > deadline:
            raise HostGone(f"the host at {host}:{port} did not come back within "
                           f"{reconnect_for:g} s")
        await trio.sleep(RETRY_EVERY)
