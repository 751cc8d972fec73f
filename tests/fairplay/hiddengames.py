"""Hidden-deck tables over loopback TCP for the tests: :func:`play_hidden` (a peer,
bots at every seat, a spectator, the host's table kept for inspection) and seats
that cheat at the deal in known ways. Plain functions: import them."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from lantable.clients.bots import make_bot
from lantable.clients.client import open_client
from lantable.clients.fairdecks import SeatDecks
from lantable.clients.runner import bot_decider
from lantable.clients.seat import play_seat
from lantable.clients.verify import verify
from lantable.host.journal import Journal
from lantable.host.peer import serve_peer
from lantable.plugins import load_registry

from .highcard import HighCard
from .test_table import copy_of


def highcard_registry() -> Any:
    return load_registry(autoload=False, plugins={"highcard": HighCard()})


@dataclass
class HiddenGame:
    db: str
    table: str
    host_table: Any  # the host's Table object, as it was when the game ended
    results: list[Any]
    seats: dict[int, SeatDecks] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)  # what the spectator was told
    views: dict[int, list[Any]] = field(default_factory=dict)  # every view each seat saw

    def journal(self) -> Journal:
        return Journal(self.db)


async def play_hidden(db: str, seats: int = 2, *, options: dict[str, Any] | None = None,
                      fair: dict[str, Any] | None = None,
                      cheat: Callable[[int, SeatDecks], SeatDecks] | None = None,
                      registry: Any = None, game: str = "highcard",
                      limit: float = 60, strategies: list[str] | None = None,
                      bot_options: dict[str, Any] | None = None, seed: int = 1) -> HiddenGame:
    """A fair table with hidden decks, bots at every seat (seeded by seat): random, or
    ``strategies[seat]`` with ``bot_options[strategy]``; ``seed``: the table's, and
    the bots' decisions (seed * 100 + seat)."""
    registry = registry or highcard_registry()
    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=db, bind="127.0.0.1", port=0, task_status=task_status))
        async with open_client("127.0.0.1", running.port, name="watcher") as watcher:
            table = await watcher.create(game, seats, options, seed=seed,
                                         fair={"hidden_decks": True, **(fair or {})})
            await watcher.join(table, spectate=True)
            out = HiddenGame(db, table, running.peer.table(table), [])
            watcher.fair.on_notice = out.notices.append

            async def bot(i: int) -> None:
                async with open_client("127.0.0.1", running.port, name=f"bot{i}") as client:
                    client.decks._games = registry.__getitem__
                    if cheat is not None:
                        client.decks = cheat(i, client.decks)
                    out.seats[i] = client.decks
                    joined = await client.join(table, seat=i)
                    strategy = strategies[i] if strategies else "random"
                    bot_ = make_bot(strategy, registry[game],
                                    **(bot_options or {}).get(strategy, {}))
                    decide = bot_decider(bot_, i, random.Random(i if seed == 1 else seed * 100 + i))
                    seen = out.views.setdefault(i, [])
                    out.results.append(await play_seat(client, table, joined.seat, decide,
                                                       on_update=lambda u: seen.append(u.view)))
                    with trio.move_on_after(2):  # the secrets, asked when the table ends
                        while not _secrets_in(out.host_table) or client._pending:
                            await trio.sleep(0.02)

            with trio.fail_after(limit):
                async with trio.open_nursery() as bots:
                    for i in range(seats):
                        bots.start_soon(bot, i)
        nursery.cancel_scope.cancel()
    return out


def _secrets_in(table: Any) -> bool:
    decks = table.fair.decks
    if decks is None:  # a fair table where the host deals: no secrets to wait for
        return True
    return all(len(decks.secrets.get((r.deck, r.round), {})) == table.seats_n
               for r in decks.done)


def unlock_steps(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every unlock step a journal holds, one map each (``seat``, ``deck``, ``to``,
    ``pos``, ``point_in``, ``point``): the host journals a seat's steps asked at once
    as one ``deck_steps`` record under one signature."""
    out = []
    for r in records:
        if r["kind"] == "deck_step":
            out.append(r)
        elif r["kind"] == "deck_steps":
            out += [{"seat": r["seat"], "deck": r["deck"], "to": to, "pos": pos,
                     "point_in": point_in, "point": point}
                    for to, pos, point_in, point in r["steps"]]
    return out


def cards_of(records: list[dict[str, Any]], name: str, n: int,
          seats: int | None = None) -> list[int]:
    """The card at every position of deck round ``name`` (``deck/round``) of ``n`` cards,
    from the seats' published secrets (``seats`` of them, where given)."""
    secrets = sorted((r for r in records if r["kind"] == "deck_secrets" and r["deck"] == name),
                     key=lambda r: r["seat"])
    assert seats is None or len(secrets) == seats
    order = list(range(n))
    for m in secrets:
        order = [order[src] for src in m["permutation"]]
    return order


def first(records: list[dict[str, Any]], kind: str, **match: Any) -> dict[str, Any]:
    """The first journal record of ``kind`` whose fields include ``match``."""
    return next(r for r in records if r["kind"] == kind
                and all(r.get(k) == v for k, v in match.items()))


def altered(game: HiddenGame, plugin: Any, change: Callable[[list[dict[str, Any]]], None]) -> Any:
    """``lantable verify``'s report on a copy of ``game``'s journal whose fair-play
    records ``change`` altered in place, checked with the game ``plugin``."""
    copy = copy_of(game.db, game.table)
    records = [dict(r) for r in copy.fair]
    change(records)
    return verify(dataclasses.replace(copy, fair=records), plugin)
