"""A fair Kaiser's Pirates table over TCP between bots (docs/fair-play.md).

Its face-down decks hold no order (piles.py), so every card turned over is drawn in a
random event fixed by every seat's link, the host included nobody knows it in advance,
and ``lantable verify`` checks each draw by replaying the journal. The tables are
short (more Action cards set aside, R 2.1.4) to keep the test quick; the game is
played whole, every round.
"""

from __future__ import annotations

import shutil
import sqlite3
from typing import Any

import msgpack
import pytest
import trio

from lantable.clients.cli import main as cli_main
from lantable.host.journal import Journal
from lantable.host.table import FINISHED
from lantable.plugins import load_registry

from . import helpers as kp

# events that show a face-down card turned over (the set-up's are served by event 1)
TURNED_OVER = {"drew", "merchant_drawn", "solitaire_card", "seen_deck_top"}


@pytest.fixture(scope="module", params=[(2, 20), (1, 10)], ids=["two-seats", "solitaire"])
def fair_table(request, tmp_path_factory) -> dict[str, Any]:
    """One whole fair game between random bots over loopback TCP, and its journal."""
    seats, extra_removed = request.param
    registry = load_registry()
    db = str(tmp_path_factory.mktemp("kp-fair") / "journal.sqlite")
    game = trio.run(lambda: kp.fairplay_module("fairgames").play_fair(
        registry, "kaisers-pirates", seats, db, options={"extra_removed": extra_removed}))
    journal = Journal(db)
    try:
        return {"game": game, "db": db, "status": journal.table(game.table).status,
                "actions": list(journal.actions(game.table)),
                "fair": journal.fair_records(game.table)}
    finally:
        journal.close()


def test_a_whole_fair_table_between_bots_over_tcp_passes_lantable_verify(fair_table,
                                                                         capsys) -> None:
    game = fair_table["game"]
    assert fair_table["status"] == FINISHED
    assert game.results and all(r == game.results[0] for r in game.results)
    assert game.results[0]["detail"]["rounds"] >= 3
    for seats in [*game.seats.values(), game.spectator]:  # each checked every event live
        assert seats.problems == []
    assert cli_main(["verify", "--db", fair_table["db"], "--table", game.table]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK: table") and "every signature, link, seed, roll and shuffle" in out


def _drawing_unseen_cards(actions: list[Any]) -> list[int]:
    """The actions that turn over a card nobody could know. Every such card is drawn
    among the unseen ones; the exception is the deck top a player looked at and
    arranged with Intelligence (``seen_deck_top``, then ``order``): those cards were
    drawn when the player looked, and later draws take them in the arranged order."""
    arranged: list[int] = []  # mirrors the state's action_deck_top, top first
    out = []
    for a in actions:
        fresh = False
        if a.action.get("type") == "order":
            arranged = list(a.action["cards"]) + arranged[len(a.action["cards"]):]
        popped = None
        for e in a.events:
            kind = e["type"]
            if kind in ("round_started", "round_ended"):
                arranged = []
            elif kind == "seen_deck_top":
                fresh |= len(e["cards"]) > len(arranged)  # it drew some unseen cards
                arranged = list(e["cards"]) + arranged[len(e["cards"]):]
            elif kind == "drew":
                popped = arranged.pop(0) if arranged else None
                fresh |= popped is None
            elif kind == "drew_card" and popped is not None:
                assert e["card"] == popped, (a.seq, e, popped)  # the arranged top, in order
            elif kind in TURNED_OVER:
                fresh = True
        if fresh:
            out.append(a.seq)
    return out


def test_every_card_turned_over_at_a_fair_table_is_drawn_in_a_fair_event(fair_table) -> None:
    """No card comes from an order fixed in advance: each action that turns an unseen
    card over is served by a random event of the seats' links (the set-up by event 1)."""
    served = {rec["seq"] for rec in fair_table["fair"] if rec["kind"] == "event"}
    assert 0 in served
    turning = _drawing_unseen_cards(fair_table["actions"])
    assert len(turning) >= 10
    assert [seq for seq in turning if seq not in served] == []


def _alter_first_draw(con: sqlite3.Connection) -> int:
    """Journal another card for the first merchant or Solitaire card drawn; its seq."""
    for rowid, seq, blob in con.execute("SELECT rowid, seq, events FROM actions ORDER BY seq"):
        events = msgpack.unpackb(blob)
        for e in events:
            if e["type"] == "merchant_drawn":
                e["ship"] = 20 + (e["ship"] - 20 + 1) % 60
            elif e["type"] == "solitaire_card":
                e["card"] = (e["card"] + 1) % 20
            else:
                continue
            con.execute("UPDATE actions SET events=? WHERE rowid=?",
                        (msgpack.packb(events), rowid))
            con.commit()
            return seq
    raise AssertionError("no merchant or Solitaire card drawn during the game")


def test_verify_names_the_action_whose_drawn_card_was_altered(fair_table, tmp_path,
                                                              capsys) -> None:
    """Change the card one journalled draw turned over: verify replays the draw from
    the event's seed, finds another card and names the action."""
    path = str(tmp_path / "altered.sqlite")
    shutil.copy(fair_table["db"], path)
    con = sqlite3.connect(path)
    seq = _alter_first_draw(con)
    con.close()
    assert cli_main(["verify", "--db", path, "--table", fair_table["game"].table]) == 1
    out = capsys.readouterr().out
    assert f"MISMATCH: action {seq} (seat " in out and "FAIL:" in out
