"""Queries over TCP: answered from the asker's view, nothing journalled, errors clear."""

from __future__ import annotations

import pytest
import trio

from lantable.clients.client import RequestError, open_client
from lantable.host.peer import serve_peer
from lantable.plugins import load_registry
from lantable.plugins import spanish_main as spanish

from .tally import Tally


@pytest.fixture
async def qpeer(nursery, tmp_path):
    registry = load_registry(autoload=False, plugins={"spanish": spanish, "tally": Tally()})
    return await nursery.start(lambda task_status: serve_peer(
        registry=registry, db=str(tmp_path / "journal.sqlite"), name="query-peer",
        bind="127.0.0.1", port=0, task_status=task_status))


async def test_query_is_answered_from_the_askers_view_and_changes_nothing(qpeer):
    port = qpeer.port
    with trio.fail_after(30):
        async with open_client("127.0.0.1", port, name="a") as a, \
                open_client("127.0.0.1", port, name="b") as b:
            table = await a.create("pirates-spanish-main", 2, {}, seed=3)
            ja = await a.join(table)
            jb = await b.join(table)
            host_table = qpeer.peer.tables[table]
            game = host_table.game
            while host_table.state["phase"] == "home":  # choose homes
                (seat,) = game.to_act(host_table.state)
                who = a if seat == ja.seat else b
                await who.act(table, game.legal_actions(host_table.state, seat)[0])
            seq = host_table.seq
            mine = next(s["id"] for s in host_table.state["ships"] if s["owner"] == ja.seat)
            theirs = next(s["id"] for s in host_table.state["ships"] if s["owner"] == jb.seat)
            query = {"type": "sail", "ship": mine, "heading": 0}
            answer = await a.query(table, query)
            view = game.view(host_table.state, ja.seat)
            assert answer == game.query(view, ja.seat, query)
            assert host_table.seq == seq  # not journalled, no update
            with pytest.raises(RequestError) as err:  # another seat's ship
                await a.query(table, {"type": "sail", "ship": theirs, "heading": 0})
            assert err.value.code == "bad_query"
            with pytest.raises(RequestError) as err:
                await a.query(table, {"type": "nonsense"})
            assert err.value.code == "bad_query" and "unknown query" in str(err.value)


async def test_a_game_without_queries_says_so(qpeer):
    with trio.fail_after(20):
        async with open_client("127.0.0.1", qpeer.port, name="a") as a:
            table = await a.create("tally", 1, {}, seed=1)
            await a.join(table)
            with pytest.raises(RequestError) as err:
                await a.query(table, {"type": "anything"})
            assert err.value.code == "bad_query"
            assert qpeer.peer.tables[table].status == "playing"
