"""Undo by consent over loopback TCP (host/undo.py, docs/protocol.md "Undo by
consent"): accepted, refused by a seat, refused across a random event or a reveal,
the table's settings, a restart, and a fair table's signed undo that
``lantable verify`` checks (and fails, naming the seat, once altered)."""

from __future__ import annotations

import dataclasses

import pytest
import trio

from lantable.clients.client import RequestError, open_client
from lantable.clients.verify import JournalCopy, verify
from lantable.host.journal import Journal
from lantable.host.peer import serve_peer
from lantable.plugins import load_registry
from lantable.protocol import fairplay as fp
from lantable.protocol.undo import live_actions

from .undogame import Silent, Sneaky, Steps

STEP = {"type": "step", "n": 1}


@pytest.fixture
def registry():
    return load_registry(autoload=False, plugins={"steps": Steps(), "silent": Silent(),
                                                  "sneaky": Sneaky()})


@pytest.fixture
async def upeer(nursery, registry, tmp_path):
    return await nursery.start(lambda task_status: serve_peer(
        registry=registry, db=str(tmp_path / "journal.sqlite"), name="undo-peer",
        bind="127.0.0.1", port=0, task_status=task_status))


async def _settle(client, table: str, seq: int) -> None:
    """Wait for the update ``seq`` of ``table`` on ``client``."""
    async for update in client.updates(table):
        if update.seq >= seq:
            return


async def test_an_undo_every_other_seat_accepts_takes_the_action_back(upeer):
    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a, \
                open_client("127.0.0.1", upeer.port, name="Bob") as b, \
                open_client("127.0.0.1", upeer.port, name="Cy") as c:
            table = await a.create("steps", 3, {}, seed=5)
            for who in (a, b, c):
                await who.join(table)
            host = upeer.peer.tables[table]
            before = host.game.clone(host.state)
            await a.act(table, STEP)
            offer = await a.undo.wait(table, "offer")
            assert offer.undoes == 1 and offer.seat == 0
            seq = await a.undo.ask(table)
            asked = await b.undo.wait(table, "asked")
            assert asked.ask == 1 and asked.waiting == [1, 2]
            assert asked.message == "Ann asks to take back their last move; waiting for Bob, Cy."
            await b.undo.answer(table, asked.undoes, True)
            await c.undo.answer(table, asked.undoes, True)
            done = await a.undo.wait(table, "done")
            assert done.message == "Ann took back their last move."
            assert host.state == before and host.seq == seq == 2
            assert host.game.to_act(host.state) == [0]  # Ann decides again
            await a.act(table, {"type": "step", "n": 2})
            assert host.state["pos"] == 2 and host.seq == 3
            # the journal keeps both the action and its undo; the live actions skip both
            records = host.journal.actions(table)
            assert [r.action["type"] for r in records] == ["step", "lantable.undo", "step"]
            assert [r.seq for r in live_actions(records)] == [3]
            assert records[1].events[0]["consent"] == [1, 2]


async def test_a_seat_that_refuses_keeps_the_move_and_it_is_not_asked_again(upeer):
    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a, \
                open_client("127.0.0.1", upeer.port, name="Bob") as b:
            table = await a.create("steps", 2, {}, seed=5)
            await a.join(table)
            await b.join(table)
            host = upeer.peer.tables[table]
            await a.act(table, STEP)
            await a.undo.wait(table, "offer")
            await a.undo.ask(table)
            asked = await b.undo.wait(table, "asked")
            await b.undo.answer(table, asked.undoes, False)
            refused = await a.undo.wait(table, "refused")
            assert refused.refused_by == 1
            assert refused.message == "Bob said no: Ann's last move stands."
            assert host.state["pos"] == 1 and host.seq == 1
            with pytest.raises(RequestError) as err:
                await a.undo.ask(table)
            assert err.value.code == "bad_undo" and "already refused" in err.value.message


async def test_no_undo_across_a_roll_or_a_reveal_or_of_another_seats_move(upeer):
    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a, \
                open_client("127.0.0.1", upeer.port, name="Bob") as b:
            table = await a.create("steps", 2, {}, seed=5)
            await a.join(table)
            await b.join(table)
            await a.act(table, {"type": "roll"})
            with pytest.raises(RequestError) as err:
                await a.undo.ask(table)
            assert err.value.code == "bad_undo" and "rolled dice, drew or revealed" in \
                err.value.message
            await b.act(table, {"type": "peek"})
            with pytest.raises(RequestError) as err:
                await b.undo.ask(table)
            assert err.value.code == "bad_undo"
            await a.act(table, STEP)
            with pytest.raises(RequestError) as err:  # Ann's move is not Bob's to take back
                await b.undo.ask(table)
            assert "only the player who made the last move" in err.value.message


async def test_the_host_refuses_a_move_that_drew_even_if_the_game_forgot_to_say(upeer):
    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a, \
                open_client("127.0.0.1", upeer.port, name="Bob") as b:
            table = await a.create("sneaky-steps", 2, {}, seed=5)
            await a.join(table)
            await b.join(table)
            await a.act(table, {"type": "roll"})
            await a.undo.wait(table, "offer")  # the game said nothing: offered
            with pytest.raises(RequestError) as err:
                await a.undo.ask(table)
            assert "rolled dice or drew a card" in err.value.message


async def test_a_game_that_says_nothing_and_a_table_set_to_never_refuse(upeer):
    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a:
            for game, undo, why in (("silent-steps", None, "does not say which moves"),
                                    ("steps", "never", "undo turned off")):
                table = await a.create(game, 1, {}, seed=5, undo=undo)
                await a.join(table)
                await a.act(table, STEP)
                with pytest.raises(RequestError) as err:
                    await a.undo.ask(table)
                assert why in err.value.message
            with pytest.raises(RequestError) as err:
                await a.create("steps", 1, {}, undo="sometimes")
            assert err.value.code == "bad_options"


async def test_always_asks_nobody_and_an_action_ends_a_waiting_request(upeer):
    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a, \
                open_client("127.0.0.1", upeer.port, name="Bob") as b:
            table = await a.create("steps", 2, {}, seed=5, undo="always")
            await a.join(table)
            await b.join(table)
            host = upeer.peer.tables[table]
            await a.act(table, STEP)
            await a.undo.wait(table, "offer")
            await a.undo.ask(table)
            await a.undo.wait(table, "done")
            assert host.state["pos"] == 0
            host.undo.policy = "ask"
            await a.act(table, STEP)
            await a.undo.wait(table, "offer")
            await a.undo.ask(table)
            await b.undo.wait(table, "asked")
            await b.act(table, STEP)  # Bob plays on instead of answering
            void = await a.undo.wait(table, "void")
            assert "dropped" in void.message and host.undo.pending is None


async def test_a_bot_accepts_and_the_undo_survives_a_restart(upeer, registry, tmp_path,
                                                             nursery):
    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a, \
                open_client("127.0.0.1", upeer.port, name="Bot") as bot:
            bot.undo.auto_accept = True  # as `lantable bot` does
            table = await a.create("steps", 2, {}, seed=5)
            await a.join(table)
            await bot.join(table)
            await a.act(table, STEP)
            await bot.act(table, {"type": "step", "n": 2})
            await bot.undo.wait(table, "offer")
            await bot.undo.ask(table)
            asked = await a.undo.wait(table, "asked")
            await a.undo.answer(table, asked.undoes, True)
            await a.undo.wait(table, "done")
            host = upeer.peer.tables[table]
            # Ann's move (seq 1) is now the last: she is offered to take it back
            offer = await a.undo.wait(table, "offer")
            assert offer.undoes == 1
            await a.undo.ask(table)
            await a.undo.wait(table, "done")  # the bot accepted on its own
            state = host.game.clone(host.state)
            assert state["pos"] == 0 and host.seq == 4
    journal = Journal(str(tmp_path / "journal.sqlite"))
    record = journal.table(table)
    from lantable.host.table import Table

    again = Table.restore(record, registry["steps"], journal)
    assert again.state == state and again.seq == 4 and again.undo.policy == "ask"
    assert again.undo.last is None  # nothing stands: nothing to offer
    journal.append(table, 5, 0, STEP, [{"type": "stepped", "seat": 0, "n": 1}])
    journal.commit()
    again = Table.restore(journal.table(table), registry["steps"], journal)
    assert again.undo.last == (5, 0)  # offered to seat 0 when its player is back
    journal.close()


def _copy(db: str, table: str) -> JournalCopy:
    journal = Journal(db)
    try:
        r = journal.table(table)
        return JournalCopy(r.id, r.game, r.game_version, r.seats, r.options, r.seed, r.status,
                           [(a.seq, a.seat, a.action, a.events) for a in journal.actions(table)],
                           journal.fair_records(table))
    finally:
        journal.close()


async def test_a_fair_tables_undo_is_signed_by_every_seat_and_verified(upeer, registry,
                                                                         tmp_path):
    db = str(tmp_path / "journal.sqlite")
    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann",
                               identity=fp.Identity()) as a, \
                open_client("127.0.0.1", upeer.port, name="Bob",
                            identity=fp.Identity()) as b:
            table = await a.create("steps", 2, {}, fair={}, undo="ask")
            await a.join(table)
            await b.join(table)
            host = upeer.peer.tables[table]
            while host.status != "playing":
                await trio.sleep(0.01)
            await a.act(table, {"type": "roll"})  # a random event: revealed by both
            while host.seq < 1 or host.fair.pending is not None:
                await trio.sleep(0.01)
            await _settle(b, table, 1)
            with pytest.raises(RequestError):
                await b.undo.ask(table)
            await b.act(table, STEP)
            await b.undo.wait(table, "offer")
            await b.undo.ask(table)
            asked = await a.undo.wait(table, "asked")
            await a.undo.answer(table, asked.undoes, True)
            await b.undo.wait(table, "done")
            assert host.state["pos"] == host.state["rolls"][0]
            await _settle(b, table, 3)
            await b.act(table, {"type": "step", "n": 2})
    copy = _copy(db, table)
    undo = next(r for r in copy.fair if r["kind"] == "undo")
    assert [s["seat"] for s in undo["sigs"]] == [0, 1]
    report = verify(copy, registry["steps"])
    assert report.ok, report.problems
    assert "1 undo" in report.verdict()
    # an undo with a seat's signature altered fails, naming the seat
    bad = dict(undo, sigs=[undo["sigs"][0], {"seat": 1, "sig": undo["sigs"][0]["sig"]}])
    altered = dataclasses.replace(copy, fair=[bad if r is undo else r for r in copy.fair])
    report = verify(altered, registry["steps"])
    assert not report.ok and "seat 1" in report.problems[0] and "undo" in report.problems[0]
    # an undo row moved onto another action fails too
    rows = [(s, seat, dict(a, undoes=1) if a["type"] == "lantable.undo" else a, e)
            for s, seat, a, e in copy.actions]
    report = verify(dataclasses.replace(copy, actions=rows), registry["steps"])
    assert not report.ok


async def test_replay_and_verify_read_a_journal_with_an_undo(upeer, tmp_path, capsys):
    from lantable.clients.cli import main as cli_main

    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a, \
                open_client("127.0.0.1", upeer.port, name="Bob") as b:
            table = await a.create("steps", 2, {}, seed=5)
            await a.join(table)
            await b.join(table)
            await a.act(table, {"type": "roll"})
            await b.act(table, STEP)
            await b.undo.wait(table, "offer")
            await b.undo.ask(table)
            asked = await a.undo.wait(table, "asked")
            await a.undo.answer(table, asked.undoes, True)
            await b.undo.wait(table, "done")
            await _settle(a, table, 3)
            await b.act(table, {"type": "step", "n": 2})
    db = str(tmp_path / "journal.sqlite")
    copy = _copy(db, table)
    report = verify(copy, upeer.peer.registry["steps"])
    assert report.ok and report.undos == 1, report.problems
    capsys.readouterr()
    assert cli_main(["replay", "--db", db, "--table", table]) == 0
    out = capsys.readouterr().out
    assert "#2     seat 1 (Bob): {\"type\": \"step\", \"n\": 1} (taken back)" in out
    assert "#3     seat 1 (Bob) took back #2, with the consent of Ann" in out
    # an undo of a roll, written into the journal by hand, is found out
    rows = [(1, 0, {"type": "roll"}, copy.actions[0][3]),
            (2, 0, {"type": "lantable.undo", "undoes": 1}, [])]
    report = verify(dataclasses.replace(copy, actions=rows), upeer.peer.registry["steps"])
    assert not report.ok and "drew from the rng or revealed" in report.problems[0]


async def test_a_seat_may_ask_only_so_many_times_limits_max_undo_asks(upeer):
    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a:
            table = await a.create("steps", 1, {}, seed=5, undo="always")
            await a.join(table)
            host = upeer.peer.tables[table]
            assert host.undo.max_asks == 20  # the peer's Limits.max_undo_asks
            host.undo.max_asks = 2
            for _ in range(2):
                await a.act(table, STEP)
                await a.undo.wait(table, "offer")
                await a.undo.ask(table)
                await a.undo.wait(table, "done")
            await a.act(table, STEP)
            with pytest.raises(RequestError) as err:
                await a.undo.ask(table)
            assert err.value.code == "bad_undo" and "the limit" in err.value.message


async def test_people_asks_the_people_and_not_the_page_bots(upeer):
    from lantable.host.pagebots import PageBot

    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a, \
                open_client("127.0.0.1", upeer.port, name="Bob") as b, \
                open_client("127.0.0.1", upeer.port, name="Robo") as robo:
            table = await a.create("steps", 3, {}, seed=5, undo="people")
            for who in (a, b, robo):
                await who.join(table)
            host = upeer.peer.tables[table]
            host.seats[2].bot = PageBot("random", None, "not-a-real-bot", False)
            await a.act(table, STEP)
            await a.undo.wait(table, "offer")
            await a.undo.ask(table)
            asked = await b.undo.wait(table, "asked")
            assert asked.waiting == [1]  # the page bot's seat is not asked
            await b.undo.answer(table, asked.undoes, True)
            done = await a.undo.wait(table, "done")
            assert host.journal.actions(table)[-1].events[0]["consent"] == [1]
            assert done.message == "Ann took back their last move."


async def test_a_finished_tables_replay_steps_through_the_moves_that_stand(upeer):
    """The archive's replay (host/archive.py) is the game as it stands: a move taken
    back, and its undo, are no step of it."""
    import pickle

    from lantable.host.archive import replay_log

    with trio.fail_after(30):
        async with open_client("127.0.0.1", upeer.port, name="Ann") as a, \
                open_client("127.0.0.1", upeer.port, name="Bob") as b:
            table = await a.create("steps", 2, {"target": 3}, seed=5)
            await a.join(table)
            await b.join(table)
            await a.act(table, STEP)  # 1: pos 1
            await a.undo.wait(table, "offer")
            await a.undo.ask(table)
            asked = await b.undo.wait(table, "asked")
            await b.undo.answer(table, asked.undoes, True)
            await a.undo.wait(table, "done")  # 2: the undo, pos 0
            await _settle(a, table, 2)
            await a.act(table, {"type": "step", "n": 2})  # 3: pos 2
            await b.act(table, STEP)  # 4: pos 3, the game is over
            await _settle(a, table, 4)
    log = replay_log(upeer.peer.journal, upeer.peer.registry, table)  # refused unless finished
    assert log.steps == 2 and log.actors == [None, 0, 1]
    assert [pickle.loads(s)["pos"] for s in log.states] == [0, 2, 3]
    assert log.events[1] == [{"type": "stepped", "seat": 0, "n": 2}]
