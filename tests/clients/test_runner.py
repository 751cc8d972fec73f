"""The seat runner over real loopback TCP: bots never act on stale updates."""

from __future__ import annotations

import logging
import random

import trio

from lantable.clients.bots import RandomBot
from lantable.clients.client import open_client
from lantable.clients.runner import bot_decider
from lantable.clients.seat import play_seat
from lantable.host.peer import serve_peer
from lantable.plugins import IllegalAction, hookimpl, load_registry


class Chorus:
    """Every round, all seats choose a number at once; the round resolves when all are
    in. Then one seat (the round's leader) makes two decisions in a row."""

    @hookimpl
    def game_info(self):
        return {"id": "chorus", "title": "Chorus", "version": "1", "min_seats": 2, "max_seats": 4,
                "options": {"rounds": {"default": 15}}}

    @hookimpl
    def game_setup(self, seats, options, rng):
        return {"n": seats, "rounds": options["rounds"], "round": 0, "picks": [None] * seats,
                "leader_moves": 0, "score": [0] * seats}

    @hookimpl
    def game_to_act(self, state):
        if state["round"] >= state["rounds"]:
            return []
        if state["leader_moves"]:
            return [state["round"] % state["n"]]
        return [s for s in range(state["n"]) if state["picks"][s] is None]

    @hookimpl
    def game_legal_actions(self, state, seat):
        if seat not in self.game_to_act(state):
            return []
        if state["leader_moves"]:
            return [{"type": "lead", "n": n} for n in (1, 2)]
        return [{"type": "pick", "n": n} for n in (1, 2, 3)]

    @hookimpl
    def game_apply(self, state, seat, action, rng):
        if action not in self.game_legal_actions(state, seat):
            raise IllegalAction(f"{action!r} is not legal for seat {seat}")
        if action["type"] == "lead":
            state["score"][seat] += action["n"]
            state["leader_moves"] -= 1
            if not state["leader_moves"]:
                state["round"] += 1
            return [{"type": "led", "seat": seat}]
        state["picks"][seat] = action["n"]
        if all(p is not None for p in state["picks"]):
            for s, p in enumerate(state["picks"]):
                state["score"][s] += p
            state["picks"] = [None] * state["n"]
            state["leader_moves"] = 2
        return [{"type": "picked", "seat": seat}]

    @hookimpl
    def game_view(self, state, seat):
        return {"round": state["round"], "score": list(state["score"]),
                "mine": state["picks"][seat] if seat is not None else None}

    @hookimpl
    def game_scores(self, state):
        score = state["score"]
        return {"scores": list(score), "rank": [1 + sum(o > s for o in score) for s in score]}


async def test_simultaneous_and_consecutive_decisions_never_act_on_stale_updates(tmp_path, caplog):
    registry = load_registry(autoload=False, plugins={"chorus": Chorus()})
    caplog.set_level(logging.WARNING, logger="lantable.clients.seat")
    async with trio.open_nursery() as nursery:
        running = await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
            task_status=task_status))
        async with open_client("127.0.0.1", running.port, name="maker") as maker:
            table = await maker.create("chorus", 4, seed=1)
        results = []

        async def bot(i: int) -> None:
            async with open_client("127.0.0.1", running.port, name=f"b{i}") as client:
                joined = await client.join(table)
                decide = bot_decider(RandomBot(registry["chorus"]), joined.seat, random.Random(i))
                results.append(await play_seat(client, table, joined.seat, decide))

        async with trio.open_nursery() as bots:
            for i in range(4):
                bots.start_soon(bot, i)
        nursery.cancel_scope.cancel()
    assert len(results) == 4 and all(r == results[0] for r in results)
    assert not [r for r in caplog.records if "refused" in r.getMessage()]
