"""Rematch (host/rematch.py; docs/protocol.md, "Chat and rematch"): the same game and
options for the same people, seats rotated, each confirming; kept seats, declines,
refusals and a restart."""

from __future__ import annotations

from lantable.host.rematch import rematches_of

from .memory import memory_peer
from .test_chat import reply, table_of, until, watcher


async def finish(ann, table: str) -> None:
    """ann (seat 0) ends a target-3 tally game at once."""
    await ann.send_map({"t": "act", "id": 50, "table": table, "action": {"type": "add", "n": 3}})
    await until(ann, lambda f: f["t"] == "update" and f["status"] == "finished")


def offer(f) -> bool:
    return f["t"] == "rematch_offered"


async def test_play_again_rotates_the_seats_and_starts_when_everyone_confirms(registry) -> None:
    async with memory_peer(registry) as running:
        table, (ann, bo, cy) = await table_of(running, seats=3, target=3)
        await finish(ann, table)
        await bo.send_map({"t": "rematch", "id": 2, "table": table})
        joined = await until(bo, reply(2))
        assert joined["t"] == "joined" and joined["seat"] == 2 and joined["token"]
        new = joined["table"]
        told = await until(ann, offer)
        assert (told["table"], told["next"], told["by"]) == (table, new, "bo")
        assert [(s["name"], s["from"], s["state"]) for s in told["seats"]] == [
            ("cy", 2, "asked"), ("ann", 0, "asked"), ("bo", 1, "in")]
        summary = running.peer.table(new).summary()
        assert summary["options"] == running.peer.table(table).summary()["options"]
        assert summary["taken"] == 3  # two kept, one taken: nobody else may sit
        eve = await running.connect("eve")
        await eve.send_map({"t": "join", "id": 3, "table": new})
        assert (await until(eve, reply(3)))["code"] == "table_full"
        await eve.send_map({"t": "join", "id": 4, "table": new, "seat": 1})
        refused = await until(eve, reply(4))
        assert refused["code"] == "seat_taken" and "kept for ann" in refused["message"]
        await ann.send_map({"t": "rematch", "id": 5, "table": table})
        assert (await until(ann, reply(5)))["seat"] == 1
        await cy.send_map({"t": "rematch", "id": 6, "table": table})
        assert (await until(cy, reply(6)))["seat"] == 0
        started = await until(cy, lambda f: f["t"] == "update" and f["table"] == new
                              and f["status"] == "playing")
        assert [s["name"] for s in started["seats"]] == ["cy", "ann", "bo"]
        assert started["to_act"] == [0]  # cy, who played last, plays first now


async def test_a_decline_opens_the_seat_to_anyone(registry) -> None:
    async with memory_peer(registry) as running:
        table, (ann, bo) = await table_of(running, target=3)
        await finish(ann, table)
        await ann.send_map({"t": "rematch", "id": 2, "table": table})
        new = (await until(ann, reply(2)))["table"]
        await bo.send_map({"t": "rematch", "id": 3, "table": table, "decline": True})
        assert (await until(bo, reply(3))) == {"t": "left", "id": 3, "table": new}
        told = await until(ann, lambda f: offer(f) and f["seats"][0]["state"] == "declined")
        assert told["seats"][0]["name"] == "bo"
        eve = await running.connect("eve")
        await eve.send_map({"t": "join", "id": 4, "table": new})
        assert (await until(eve, reply(4)))["seat"] == 0
        await bo.send_map({"t": "rematch", "id": 5, "table": table})
        late = await until(bo, reply(5))
        assert late["code"] == "seat_taken" and "started without you" in late["message"]


async def test_a_rematch_is_refused_before_the_end_and_to_spectators(registry) -> None:
    async with memory_peer(registry) as running:
        table, (ann, _bo) = await table_of(running, target=3)
        await ann.send_map({"t": "rematch", "id": 2, "table": table})
        early = await until(ann, reply(2))
        assert early["code"] == "bad_rematch" and "not over yet" in early["message"]
        await finish(ann, table)
        cy = await watcher(running, table, "cy")
        await cy.send_map({"t": "rematch", "id": 3, "table": table})
        assert (await until(cy, reply(3)))["code"] == "not_seated"
        await ann.send_map({"t": "rematch", "id": 4, "table": table, "decline": True})
        assert (await until(ann, reply(4)))["code"] == "bad_rematch"
        await ann.send_map({"t": "rematch", "id": 5, "table": "nope"})
        assert (await until(ann, reply(5)))["code"] == "no_such_table"


async def test_someone_back_at_the_finished_table_hears_of_the_rematch(registry) -> None:
    async with memory_peer(registry) as running:
        table, (ann, _bo) = await table_of(running, target=3)
        await finish(ann, table)
        await ann.send_map({"t": "rematch", "id": 2, "table": table})
        new = (await until(ann, reply(2)))["table"]
        cy = await watcher(running, table, "cy")
        assert (await until(cy, offer))["next"] == new


async def test_a_restart_keeps_the_kept_seats(registry, tmp_path) -> None:
    db = str(tmp_path / "journal.sqlite")
    async with memory_peer(registry, journal=db) as running:
        table, (ann, _bo) = await table_of(running, target=3)
        await finish(ann, table)
        await ann.send_map({"t": "rematch", "id": 2, "table": table})
        new = (await until(ann, reply(2)))["table"]
    async with memory_peer(registry, journal=db) as running:
        assert rematches_of(running.peer).get(table).new == new
        eve = await running.connect("eve")
        await eve.send_map({"t": "join", "id": 3, "table": new, "seat": 0})
        refused = await until(eve, reply(3))
        assert refused["code"] == "seat_taken" and "kept for bo" in refused["message"]
