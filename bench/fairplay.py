"""Fair-play cost benchmark: Manila at 4 seats over loopback TCP, with and without
fair play; prints JSON.

One process runs a host and four random bots (ordinary clients over loopback TCP,
decisions seeded by seat and game, so both modes play comparable games). Games
alternate between a fair table and a plain one. Measured per game, medians over the
games of each mode:

- wall time of the game (create to the last update), and actions;
- bytes on the wire, both directions, counted at the bots' sockets (every byte a
  seat sends or receives);
- for fair games: random events, and from the differences to the plain games the
  extra time and bytes per random event;
- a hidden deck's crypto alone (protocol/hidden_deck.py): both passes of a 52-card
  deck through every seat, and opening one dealt card;
- with ``--hidden``: hidden decks over TCP instead (host/fairdecks.py), with the test
  game "high card" (tests/fairplay/highcard.py: a 20-card deck, 3 cards to each seat,
  one passed on, every trick turned over) at 2 and 4 seats: the deal at set-up (both
  passes of every seat and every hand dealt) and whole games, against the same fair
  tables where the host deals (time and bytes);
- the crypto alone per event, per party: the host checks 4 reveals and derives the
  seed; a seat signs its reveal and checks the settled event (4 signatures). Here
  all five parties share one process and CPU; on a LAN each seat has its own.

Usage: python bench/fairplay.py [--games N] [--seats 4] [--hidden]
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio
from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients.bots import RandomBot
from lantable.clients.client import open_client
from lantable.clients.fairplay import FairSeats
from lantable.clients.runner import bot_decider
from lantable.clients.seat import play_seat
from lantable.host.journal import Journal
from lantable.host.peer import serve_peer
from lantable.plugins import load_registry
from lantable.protocol import FairEvent, FairRequest
from lantable.protocol import fairplay as fp
from lantable.protocol import hidden_deck as hd


class CountingStream(trio.abc.HalfCloseableStream):
    """A socket stream that counts the bytes through it (the bots' wire traffic)."""

    total = 0

    def __init__(self, inner: trio.SocketStream) -> None:
        self.inner = inner
        self.socket = inner.socket

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        CountingStream.total += len(data)
        await self.inner.send_all(data)

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        data = await self.inner.receive_some(max_bytes)
        CountingStream.total += len(data)
        return data

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        await self.inner.send_eof()

    async def aclose(self) -> None:
        await self.inner.aclose()


_open_tcp_stream = trio.open_tcp_stream


async def _counting_open_tcp_stream(host: str, port: int) -> CountingStream:
    return CountingStream(await _open_tcp_stream(host, port))


async def one_game(registry: Any, port: int, seats: int, fair: bool, seed: int) -> dict:
    CountingStream.total = 0
    start = time.perf_counter()
    async with open_client("127.0.0.1", port, name="maker") as maker:
        table = await maker.create("manila", seats, fair={} if fair else None, seed=seed)
    results = []

    async def bot(i: int) -> None:
        async with open_client("127.0.0.1", port, name=f"bot{i}") as client:
            joined = await client.join(table, seat=i)
            decide = bot_decider(RandomBot(registry["manila"]), i, random.Random(seed * 10 + i))
            results.append(await play_seat(client, table, joined.seat, decide))

    async with trio.open_nursery() as nursery:
        for i in range(seats):
            nursery.start_soon(bot, i)
    return {"table": table, "seconds": time.perf_counter() - start,
            "bytes": CountingStream.total}


def crypto_per_event(seats: int, rounds: int = 200) -> dict[str, float]:
    """Milliseconds of crypto for one event at ``seats`` seats, per party: the host
    (checks every reveal, derives the seed) and one seat (signs its reveal, checks
    the settled event). On a LAN each seat runs on its own machine."""
    ids = [fp.Identity() for _ in range(seats)]
    chains = [fp.HashChain(length=rounds + 1) for _ in range(seats)]
    commits = [{"seat": s, "key": ids[s].public, "tip": chains[s].tip, "length": rounds + 1,
                "sig": ids[s].sign("commit", *fp.commit_fields("t", s, ids[s].public,
                                                              chains[s].tip, rounds + 1))}
               for s in range(seats)]
    watchers = [FairSeats(ids[s]) for s in range(seats)]
    for s in range(seats):
        watchers[s]._chains[("t", s)] = chains[s]
    host = seat = 0.0
    for k in range(1, rounds + 1):
        digest = fp.tagged_hash("bench", k)
        t0 = time.perf_counter()
        reveals = []
        for s in range(seats):  # each seat answers its request
            req = FairRequest(table="t", seat=s, kind="reveal", event=k, digest=digest)
            _, fields = watchers[s].answer(req)
            reveals.append({"seat": s, "link": fields["link"], "sig": fields["sig"]})
        t1 = time.perf_counter()
        for r in reveals:  # the host checks each
            fp.verify_signature(ids[r["seat"]].public, r["sig"], "reveal",
                                *fp.reveal_fields("t", r["seat"], k, r["link"], digest))
            fp.check_link(r["link"], k, chains[r["seat"]].links[k - 1].hex(), k - 1)
        seed = fp.event_seed("t", k, digest, [(r["seat"], r["link"]) for r in reveals])
        t2 = time.perf_counter()
        event = FairEvent(table="t", event=k, seq=k, digest=digest, seed=seed, reveals=reveals,
                          commits=commits if k == 1 else None)
        for w in watchers:  # every seat checks the settled event
            w.check(event)
        t3 = time.perf_counter()
        host += t2 - t1
        seat += (t1 - t0 + t3 - t2) / seats
    return {"host_ms": round(host / rounds * 1000, 3), "seat_ms": round(seat / rounds * 1000, 3),
            "all_parties_one_cpu_ms": round((host + seat * seats) / rounds * 1000, 3)}


def hidden_deck_cost(seats: int, cards: int = 52, rounds: int = 3) -> dict[str, float]:
    """Seconds for ``seats`` seats to shuffle and lock a deck (both passes, every seat,
    one after another as on the wire), and milliseconds to open one dealt card."""
    points = hd.card_points("bench", cards)
    passes, opens = [], []
    for _ in range(rounds):
        parties = [hd.DeckSeat(cards) for _ in range(seats)]
        start = time.perf_counter()
        deck = points
        for party in parties:
            deck = party.shuffle_pass(deck)
        for party in parties:
            deck = party.lock_pass(deck)
        passes.append(time.perf_counter() - start)
        start = time.perf_counter()
        for j in range(cards):
            hd.open_card(deck[j], [p.unlock_key(j) for p in parties], points)
        opens.append((time.perf_counter() - start) / cards)
    return {"cards": cards, "shuffle_and_lock_s": round(statistics.median(passes), 3),
            "open_one_card_ms": round(statistics.median(opens) * 1000, 3)}


async def run(games: int, seats: int) -> dict:
    registry = load_registry()
    db = tempfile.mkdtemp(prefix="lantable-bench-fair-") + "/journal.sqlite"
    # The client library opens its socket with trio.open_tcp_stream: count its bytes.
    trio.open_tcp_stream = _counting_open_tcp_stream  # type: ignore[assignment]
    rows: dict[bool, list[dict]] = {True: [], False: []}
    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=db, bind="127.0.0.1", port=0, task_status=task_status))
        await one_game(registry, running.port, seats, True, 999)  # warm-up
        for g in range(games):
            for fair in (True, False):
                rows[fair].append(await one_game(registry, running.port, seats, fair, g + 1))
        nursery.cancel_scope.cancel()
    journal = Journal(db)
    for row in rows[True] + rows[False]:
        row["actions"] = len(journal.actions(row["table"]))
        row["events"] = sum(1 for r in journal.fair_records(row["table"])
                            if r["kind"] == "event")
    journal.close()

    def med(fair: bool, key: str) -> float:
        return statistics.median(r[key] for r in rows[fair])

    def per_action(fair: bool, key: str) -> float:
        return statistics.median(r[key] / r["actions"] for r in rows[fair])

    events = med(True, "events")
    actions = med(True, "actions")
    extra_s = (per_action(True, "seconds") - per_action(False, "seconds")) * actions
    extra_b = (per_action(True, "bytes") - per_action(False, "bytes")) * actions
    return {
        "game": "manila", "seats": seats, "games_per_mode": games,
        "fair": {"seconds_per_game": round(med(True, "seconds"), 3),
                 "bytes_per_game": int(med(True, "bytes")), "actions": actions,
                 "random_events": events},
        "plain": {"seconds_per_game": round(med(False, "seconds"), 3),
                  "bytes_per_game": int(med(False, "bytes")), "actions": med(False, "actions")},
        "per_game_at_fair_length": {"extra_seconds": round(extra_s, 3),
                                    "extra_bytes": int(extra_b)},
        "per_random_event": {"extra_ms": round(extra_s / events * 1000, 2),
                             "extra_bytes": int(extra_b / events),
                             "crypto": crypto_per_event(seats)},
        "hidden_deck": hidden_deck_cost(seats),
        "note": "plain and fair games differ in length (their dice differ); per-game "
                "differences are taken per action and scaled to the fair games' length; "
                "host and bots share one process, so every party's crypto is serial here",
    }


async def hidden_game(registry: Any, port: int, seats: int, hidden: bool, seed: int) -> dict:
    """One game of high card at a fair table, with or without hidden decks: seconds and
    bytes until the game starts (the deal) and to the end."""
    CountingStream.total = 0
    start = time.perf_counter()
    fair: dict[str, Any] = {"hidden_decks": True} if hidden else {}
    async with open_client("127.0.0.1", port, name="maker") as maker:
        table = await maker.create("highcard", seats, fair=fair, seed=seed)
    dealt: dict[str, float] = {}

    async def bot(i: int) -> None:
        async with open_client("127.0.0.1", port, name=f"bot{i}") as client:
            client.decks._games = registry.__getitem__  # the test game is not installed

            def seen(update: Any) -> None:
                if update.status == "playing" and "seconds" not in dealt:
                    dealt.update(seconds=time.perf_counter() - start,
                                 bytes=CountingStream.total)

            joined = await client.join(table, seat=i)
            decide = bot_decider(RandomBot(registry["highcard"]), i,
                                 random.Random(seed * 10 + i))
            await play_seat(client, table, joined.seat, decide, on_update=seen)

    async with trio.open_nursery() as nursery:
        for i in range(seats):
            nursery.start_soon(bot, i)
    return {"deal_seconds": dealt["seconds"], "deal_bytes": dealt["bytes"],
            "game_seconds": time.perf_counter() - start, "game_bytes": CountingStream.total}


async def run_hidden(games: int) -> dict:
    from tests.fairplay.highcard import HighCard  # the test game: not shipped

    registry = load_registry(autoload=False, plugins={"highcard": HighCard()})
    db = tempfile.mkdtemp(prefix="lantable-bench-hidden-") + "/journal.sqlite"
    trio.open_tcp_stream = _counting_open_tcp_stream  # type: ignore[assignment]
    out: dict[str, Any] = {"game": "highcard (20 cards, 3 each, one passed on)",
                           "games_per_mode": games}
    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=db, bind="127.0.0.1", port=0, task_status=task_status))
        for seats in (2, 4):
            await hidden_game(registry, running.port, seats, True, 999)  # warm-up
            rows: dict[bool, list[dict]] = {True: [], False: []}
            for g in range(games):
                for hidden in (True, False):
                    rows[hidden].append(await hidden_game(registry, running.port, seats,
                                                          hidden, g + 1))

            def med(hidden: bool, key: str, rows: dict[bool, list[dict]] = rows) -> float:
                return statistics.median(r[key] for r in rows[hidden])

            out[f"{seats}_seats"] = {
                mode: {"deal_ms": round(med(h, "deal_seconds") * 1000, 1),
                       "deal_bytes": int(med(h, "deal_bytes")),
                       "game_ms": round(med(h, "game_seconds") * 1000, 1),
                       "game_bytes": int(med(h, "game_bytes"))}
                for mode, h in (("hidden_decks", True), ("host_deals", False))}
        nursery.cancel_scope.cancel()
    out["note"] = ("deal: from create to the first update of a started game (joins, "
                   "commitments, the set-up event, and with hidden decks every seat's two "
                   "passes and every hand dealt); host and bots share one process and CPU")
    return out


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--games", type=int, default=7, help="games per mode")
    parser.add_argument("--seats", type=int, default=4, help="seats per table")
    parser.add_argument("--hidden", action="store_true",
                        help="measure hidden decks over TCP (high card, 2 and 4 seats)")
    args = parser.parse_args()
    if args.hidden:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests/
        print(json.dumps(trio.run(run_hidden, args.games), indent=2))
        return
    print(json.dumps(trio.run(run, args.games, args.seats), indent=2))


if __name__ == "__main__":
    main()
