"""A browser seat at a hidden-deck table (docs/fair-play.md, "Hidden decks"): a web app
whose peer serves no card engine says no ``hello.decks``, and its join gets a clear
``no_decks`` error, not a hang; it may still watch. (Where the peer serves the engine,
the page deals: test_card_engine_web.py.)"""

from __future__ import annotations

from lantable.host.peer import serve_peer
from lantable.plugins import load_registry
from lantable.protocol import fairplay as fp
from lantable.web import serve_web
from lantable.web.wsclient import open_ws

from ..fairplay.highcard import HighCard


async def test_a_browser_seat_is_told_it_cannot_sit_at_a_hidden_deck_table(nursery,
                                                                         tmp_path) -> None:
    running = await nursery.start(lambda task_status: serve_peer(
        registry=load_registry(autoload=False, plugins={"highcard": HighCard()}),
        db=str(tmp_path / "journal.sqlite"), bind="127.0.0.1", port=0,
        task_status=task_status))
    web = await nursery.start(lambda task_status: serve_web(
        peer=running.peer, bind="127.0.0.1", port=0, task_status=task_status))
    ws = await open_ws("127.0.0.1", web.port)
    # What web/static/app.js sends without a card engine: a key, words, the lobby; no decks.
    await ws.send({"t": "hello", "proto": 1, "name": "phone", "key": fp.Identity().public,
                   "words": True, "lobby": True})
    await ws.receive_until("welcome")
    await ws.send({"t": "create", "id": 1, "game": "highcard", "seats": 2,
                   "fair": {"hidden_decks": True}})
    table = (await ws.receive_until("created"))["table"]
    await ws.send({"t": "join", "id": 2, "table": table})
    refused = await ws.receive_until("error")
    assert refused["id"] == 2 and refused["code"] == "no_decks"
    assert "the card engine" in refused["message"]
    await ws.send({"t": "join", "id": 3, "table": table, "spectate": True})
    joined = await ws.receive_until("joined")
    assert joined["seat"] is None
    await ws.aclose()
