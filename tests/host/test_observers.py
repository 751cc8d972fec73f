"""Observer plugins at a real table: every observer hears every table event, and a
broken observer is logged and skipped without keeping the others from hearing."""

from __future__ import annotations

from lantable.clients.client import open_client
from lantable.host.peer import serve_peer


class _Observer:
    def __init__(self) -> None:
        self.seen: list[tuple] = []

    from lantable.plugins import hookimpl

    @hookimpl
    def table_started(self, table_id, game_id, seats, options):
        self.seen.append(("started", table_id, game_id, seats))

    @hookimpl
    def table_action(self, table_id, seq, seat, action, events):
        self.seen.append(("action", table_id, seq, seat, action["n"]))

    @hookimpl
    def table_finished(self, table_id, scores):
        self.seen.append(("finished", table_id, scores["scores"]))


class _BrokenObserver:
    from lantable.plugins import hookimpl

    @hookimpl
    def table_action(self, table_id, seq, seat, action, events):
        raise RuntimeError("observer bug")


async def test_observers_see_the_table_and_a_broken_one_changes_nothing(tmp_path, nursery):
    from lantable.plugins import load_registry

    from .tally import Tally

    watcher = _Observer()
    registry = load_registry(autoload=False, plugins={"tally": Tally(), "watch": watcher,
                                                      "broken": _BrokenObserver()})
    running = await nursery.start(lambda task_status: serve_peer(
        registry=registry, db=str(tmp_path / "j.sqlite"), name="p", bind="127.0.0.1", port=0,
        task_status=task_status))
    async with open_client("127.0.0.1", running.port, name="a") as a:
        table = await a.create("tally", 1, {"target": 3}, seed=1)
        await a.join(table, seat=0)
        for seq in (1, 2, 3):
            assert await a.act(table, {"type": "add", "n": 1}) == seq
    assert watcher.seen == [("started", table, "tally", 1),
                            ("action", table, 1, 0, 1), ("action", table, 2, 0, 1),
                            ("action", table, 3, 0, 1), ("finished", table, [3])]
