"""Fair tables over loopback TCP for the fair-play tests: a tiny dice game, seats that
cheat in known ways, and :func:`play_fair` (a peer, bots at every seat, the journal
after). Plain functions and classes: import them (``from .fairgames import play_fair``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from lantable.clients.bots import RandomBot
from lantable.clients.client import open_client
from lantable.clients.fairplay import FairSeats
from lantable.clients.runner import bot_decider
from lantable.clients.seat import play_seat
from lantable.host.journal import Journal
from lantable.host.peer import serve_peer
from lantable.plugins import IllegalAction, hookimpl
from lantable.protocol import fairplay as fp


class Dice:
    """A tiny dice game: each turn the seat to act rolls a die (a random event) or
    stands (no randomness); after ``turns`` turns the highest total wins."""

    @hookimpl
    def game_info(self):
        return {"id": "dice", "title": "Dice", "version": "1", "min_seats": 2, "max_seats": 4,
                "options": {"turns": {"default": 8}}}

    @hookimpl
    def game_setup(self, seats, options, rng):
        return {"n": seats, "left": options["turns"], "turn": rng.randrange(seats),
                "total": [0] * seats}

    @hookimpl
    def game_to_act(self, state):
        return [state["turn"]] if state["left"] else []

    @hookimpl
    def game_legal_actions(self, state, seat):
        return [{"type": "roll"}, {"type": "stand"}] if seat in self.game_to_act(state) else []

    @hookimpl
    def game_apply(self, state, seat, action, rng):
        if action not in self.game_legal_actions(state, seat):
            raise IllegalAction(f"{action!r} is not legal for seat {seat}")
        events = []
        if action["type"] == "roll":
            die = rng.randint(1, 6)
            state["total"][seat] += die
            events.append({"type": "rolled", "seat": seat, "die": die})
        state["left"] -= 1
        state["turn"] = (state["turn"] + 1) % state["n"]
        return events

    @hookimpl
    def game_view(self, state, seat):
        return {"total": list(state["total"]), "turn": state["turn"], "left": state["left"]}

    @hookimpl
    def game_scores(self, state):
        t = state["total"]
        return {"scores": list(t), "rank": [1 + sum(o > s for o in t) for s in t]}


class Equivocating(FairSeats):
    """Reveals a link that is not on its chain for event ``at`` (then the right one
    when asked again, never: the bad seat stays silent after being caught)."""

    def __init__(self, base: FairSeats, at: int) -> None:
        super().__init__(base.identity, None)
        self.at = at

    def answer(self, req):
        answer = super().answer(req)
        if answer is not None and req.kind == "reveal" and req.event == self.at:
            make, fields = answer
            fields["link"] = fp.sha256(b"not my chain").hex()
            fields["sig"] = self.identity.sign("reveal", *fp.reveal_fields(
                req.table, req.seat, req.event, fields["link"], req.digest))
        return answer


class Withholding(FairSeats):
    """Reveals nothing from event ``at`` on."""

    def __init__(self, base: FairSeats, at: int) -> None:
        super().__init__(base.identity, None)
        self.at = at

    def answer(self, req):
        if req.kind == "reveal" and req.event >= self.at:
            return None
        return super().answer(req)


class Timeline(FairSeats):
    """Records, in order, every fair event checked and every update seen."""

    def __init__(self, base: FairSeats) -> None:
        super().__init__(base.identity, None)
        self.timeline: list[tuple[str, int, str]] = []

    def check(self, ev):
        self.timeline.append(("event", ev.event, ""))
        return super().check(ev)

    def seen(self, update) -> None:
        self.timeline.append(("update", update.seq, update.status))


@dataclass
class FairGame:
    db: str
    table: str
    results: list[Any]
    seats: dict[int, FairSeats] = field(default_factory=dict)
    spectator: FairSeats | None = None

    def journal(self) -> Journal:
        return Journal(self.db)


async def play_fair(registry: Any, game: str, seats: int, db: str, *,
                    fair: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
                    cheat: Callable[[int, FairSeats], FairSeats] | None = None) -> FairGame:
    """Create a fair table, sit ``seats`` random bots (decisions seeded by seat), watch
    it as a spectator, and play it to the end."""
    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=db, bind="127.0.0.1", port=0, task_status=task_status))
        async with open_client("127.0.0.1", running.port, name="watcher") as watcher:
            table = await watcher.create(game, seats, options, seed=1,
                                         fair={} if fair is None else fair)
            await watcher.join(table, spectate=True)
            out = FairGame(db, table, [], spectator=watcher.fair)

            async def bot(i: int) -> None:
                async with open_client("127.0.0.1", running.port, name=f"bot{i}") as client:
                    if cheat is not None:
                        client.fair = cheat(i, client.fair)
                    out.seats[i] = client.fair
                    joined = await client.join(table, seat=i)
                    decide = bot_decider(RandomBot(registry[game]), i, random.Random(i))
                    seen = getattr(client.fair, "seen", None)
                    out.results.append(await play_seat(client, table, joined.seat, decide,
                                                       on_update=seen))

            with trio.fail_after(60):
                async with trio.open_nursery() as bots:
                    for i in range(seats):
                        bots.start_soon(bot, i)
        nursery.cancel_scope.cancel()
    return out
