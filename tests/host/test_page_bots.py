"""Names and page bots (issue 22, items 3 and 4): ``rename``, ``add_bot``,
``remove_bot`` and ``hand_to_bot`` against a real peer on loopback, their errors and
limits, and real bots (``lantable bot`` processes the peer starts) that play.
"""

from __future__ import annotations

import sys

import pytest
import trio

from lantable.clients.client import RequestError, open_client
from lantable.clients.runner import PageBotCommand
from lantable.host.limits import DEFAULT_LIMITS
from lantable.host.names import unique_name
from lantable.host.peer import serve_peer
from lantable.plugins import load_registry

RACE = {"target": 6, "max_step": 1}


class IdleBots(PageBotCommand):
    """Page bots whose process reads its token and waits: the seat stays reserved,
    nobody plays it (for the checks and the limits)."""

    def command(self, **kwargs):
        return [sys.executable, "-c", "import sys, time; sys.stdin.readline(); time.sleep(30)"]


@pytest.fixture(scope="module")
def games():
    return load_registry()


async def _peer(nursery, games, tmp_path, runner, **limits):
    return await nursery.start(lambda task_status: serve_peer(
        registry=games, db=str(tmp_path / "j.sqlite"), bind="127.0.0.1", port=0,
        limits=DEFAULT_LIMITS.replace(**limits), bots=runner, task_status=task_status))


async def _refused(code: str, call) -> str:
    with pytest.raises(RequestError) as info:
        await call
    assert info.value.code == code, info.value
    return info.value.message


async def _play_to_end(client, table: str, seat: int) -> dict:
    """Play the first legal action whenever it is our turn; the final scores."""
    with trio.fail_after(60):
        async for update in client.updates(table):
            if update.status == "finished":
                return update.scores
            if update.seat == seat and update.legal:
                try:
                    await client.act(table, update.legal[0], seat=seat)
                except RequestError:
                    pass  # a stale update; the next one says what to do
    raise AssertionError("the feed ended")


def test_unique_names():
    assert unique_name("ann", ["bo", None]) == "ann"
    assert unique_name("ann", ["ann", None]) == "ann (2)"
    assert unique_name("Ann ", ["ann", "ann (2)"]) == "Ann (3)"
    long = "é" * 32  # 64 bytes: the suffix takes room from the name, not from the limit
    made = unique_name(long, [long])
    assert made.endswith(" (2)") and len(made.encode()) <= 64


async def test_names_are_unique_at_a_table_and_a_rename_takes_effect_while_waiting(
        nursery, games, tmp_path):
    running = await _peer(nursery, games, tmp_path, None)
    port = running.port
    async with open_client("127.0.0.1", port, name="ann") as ann, \
            open_client("127.0.0.1", port, name="ann") as ann2, \
            open_client("127.0.0.1", port, name="cy") as cy:
        table = await ann.create("race", 3, RACE, seed=1)
        await ann.join(table)
        await ann2.join(table)
        update = await ann2.updates(table).receive()
        assert [s["name"] for s in update.seats] == ["ann", "ann (2)", None]
        # A rename at a waiting table: everyone sees it at once, and the journal keeps it.
        assert await ann2.rename("bea") == "bea"
        with trio.fail_after(5):
            while [s["name"] for s in update.seats] != ["ann", "bea", None]:
                update = await ann.updates(table).receive()
        assert running.peer.journal.table(table).names == {0: "ann", 1: "bea"}
        # A name another seat has gets a suffix; the connection keeps the name it chose.
        assert await ann2.rename("ANN") == "ANN"
        with trio.fail_after(5):
            while update.seats[1]["name"] != "ANN (2)":
                update = await ann.updates(table).receive()
        # Bad names are refused, and the session goes on.
        for bad in ("", "   ", "x" * 65, "a\nb"):
            await _refused("name_refused", ann.rename(bad))
        # The new name is the one a later join uses.
        await cy.rename("dan")
        await cy.join(table)
        update = await cy.updates(table).receive()
        assert update.seats[2]["name"] == "dan" and update.status == "playing"
        tables = await cy.list_tables()
        assert next(t for t in tables if t["id"] == table)["names"] == ["ann", "ANN (2)", "dan"]


async def test_add_bot_refusals_and_the_limit(nursery, games, tmp_path):
    running = await _peer(nursery, games, tmp_path, IdleBots(), max_page_bots=2)
    port = running.port
    async with open_client("127.0.0.1", port, name="ann") as ann, \
            open_client("127.0.0.1", port, name="eve") as eve:
        race = next(g for g in await ann.list_games() if g["id"] == "race")
        assert race["page_bots"] == ["random", "greedy", "mcts"]
        table = await ann.create("race", 4, RACE, seed=1)
        other = await ann.create("race", 2, RACE, seed=1)
        msg = await _refused("not_seated", ann.add_bot(table, "random"))
        assert "sit at this table" in msg
        await ann.join(table)
        await _refused("no_such_table", ann.add_bot("nope", "random"))
        msg = await _refused("bad_bot", ann.add_bot(table, "clever"))
        assert "random, greedy, mcts" in msg and "'clever'" in msg
        msg = await _refused("bad_bot", ann.add_bot(table, "random", strength=3))
        assert "only an mcts bot takes a strength" in msg
        msg = await _refused("bad_bot", ann.add_bot(table, "mcts", strength=9))
        assert "give 1 to 5" in msg
        await _refused("seat_taken", ann.add_bot(table, "random", seat=0))
        await _refused("seat_taken", ann.add_bot(table, "random", seat=9))
        added = await ann.add_bot(table, "random")
        assert (added.seat, added.name) == (1, "Random bot")
        second = await ann.add_bot(table, "random", seat=3)
        assert (second.seat, second.name) == (3, "Random bot (2)")
        msg = await _refused("too_many_bots", ann.add_bot(table, "random"))
        assert "its limit" in msg
        # eve is not at the table: she cannot remove ann's bots.
        await eve.join(other)
        await _refused("not_seated", eve.remove_bot(table, 1))
        await _refused("bad_bot", ann.remove_bot(table, 0))  # a person, not a bot
        await _refused("bad_bot", ann.remove_bot(table, 7))
        await ann.remove_bot(table, 1)  # the seat is free again, and the limit too
        assert running.peer.journal.table(table).names == {0: "ann", 3: "Random bot (2)"}
        assert not running.peer.bots.running(table, 1)
        update = await ann.sync(table)
        assert update.seats[1] == {"name": None, "taken": False, "connected": False}
        assert update.seats[3]["bot"] == {"strategy": "random", "strength": None,
                                          "handed": False}
        await ann.add_bot(table, "random", seat=1)
        # A hand-over needs a started table.
        await _refused("bad_bot", ann.hand_to_bot(table, 1, "random"))


async def test_a_person_adds_a_bot_and_the_game_starts_and_the_person_plays(
        nursery, games, tmp_path):
    running = await _peer(nursery, games, tmp_path, PageBotCommand())
    async with open_client("127.0.0.1", running.port, name="ann") as ann:
        table = await ann.create("race", 2, RACE, seed=1)
        joined = await ann.join(table)
        added = await ann.add_bot(table, "random")
        assert added.seat == 1 - joined.seat
        scores = await _play_to_end(ann, table, joined.seat)
    assert sorted(scores["rank"]) == [1, 2]
    record = running.peer.journal.table(table)
    assert record.status == "finished" and record.names[added.seat] == "Random bot"
    with trio.fail_after(10):  # the bot's process ends with its game
        while running.peer.bots.running(table, added.seat):
            await trio.sleep(0.05)


async def test_a_dropped_seat_is_handed_to_a_bot_after_the_grace_and_taken_back(
        nursery, games, tmp_path):
    running = await _peer(nursery, games, tmp_path, PageBotCommand(), bot_grace=1.5)
    port = running.port
    async with open_client("127.0.0.1", port, name="ann") as ann:
        table = await ann.create("race", 2, {"target": 40, "max_step": 1}, seed=1)
        await ann.join(table, seat=0)
        async with open_client("127.0.0.1", port, name="bo") as bo:
            bo_token = (await bo.join(table, seat=1)).token
            msg = await _refused("not_dropped", ann.hand_to_bot(table, 1, "random"))
            assert "bo is connected" in msg
        # bo's phone died
        with trio.fail_after(5):
            async for update in ann.updates(table):
                if update.seats[1]["taken"] and not update.seats[1]["connected"]:
                    break
        assert update.seats[1]["away"] == 0
        msg = await _refused("not_dropped", ann.hand_to_bot(table, 1, "random"))
        assert "after 1.5 s away" in msg
        await _refused("bad_bot", ann.hand_to_bot(table, 1, "mcts", strength=0))
        await _refused("bad_bot", ann.hand_to_bot(table, 5, "random"))
        await trio.sleep(1.6)
        added = await ann.hand_to_bot(table, 1, "random")
        assert (added.seat, added.name) == (1, "bo")
        await _refused("bad_bot", ann.hand_to_bot(table, 1, "random"))  # it has one
        # The bot plays bo's turns: the game moves on while ann plays hers.
        with trio.fail_after(30):
            async for update in ann.updates(table):
                if update.seq >= 6:
                    break
                if update.legal and update.seat == 0:
                    await ann.act(table, update.legal[0])
        assert update.seats[1]["bot"]["handed"] and update.seats[1]["connected"]
        # bo comes back with his token: the seat is his again, the bot stops.
        async with open_client("127.0.0.1", port, name="bo", token=bo_token) as back:
            assert back.welcome.resumed["seat"] == 1
            with trio.fail_after(10):
                while running.peer.bots.running(table, 1):
                    await trio.sleep(0.05)
            update = await back.sync(table)
            assert "bot" not in update.seats[1] and update.seats[1]["connected"]
            assert running.peer.journal.table(table).bots == {}
            # ann hands her own seat to a bot at once (she has to go); she no longer
            # sits there, so bo (who does) may stop that bot: the seat waits for ann.
            await ann.hand_to_bot(table, 0, "random")
            await _refused("not_seated", ann.remove_bot(table, 0))
            await back.remove_bot(table, 0)
            update = await back.sync(table)
            assert "bot" not in update.seats[0] and not update.seats[0]["connected"]


async def test_page_bots_start_again_after_a_restart(games, tmp_path):
    for _ in range(2):
        async with trio.open_nursery() as nursery:
            running = await _peer(nursery, games, tmp_path, IdleBots())
            if _ == 0:
                async with open_client("127.0.0.1", running.port, name="ann") as ann:
                    table = await ann.create("race", 3, RACE, seed=1)
                    await ann.join(table)
                    await ann.add_bot(table, "random")
            assert running.peer.bots.running(table, 1)
            assert running.peer.table(table).seats[1].bot.strategy == "random"
            nursery.cancel_scope.cancel()
