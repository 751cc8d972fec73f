"""A phone sits at a hidden-deck table (docs/fair-play.md, "A browser seat at a
hidden-deck table"): the peer serves Pyodide and the seat's Python, the page loads the
card engine when the person taps "Sit down", deals its part of every deck, lists its
own legal actions with the game's client half, and plays high card to the end against
a CLI bot, by tapping, with no error on the console; ``lantable verify`` passes the
journal (every pass, unlock step, key and claim, the page's included).

It needs Pyodide's core files (``$LANTABLE_PYODIDE``, or ``.cache/pyodide`` in the
checkout, which ``.ci/run`` fills from the npm package); without them it skips, saying
so. The high-card example is not an installed game: the test installs it for the host
and the bot through an entry point on ``PYTHONPATH``, as a third-party game would be.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lantable.web.card_engine import PYODIDE_VERSION

from .test_browser import play_until_over
from .test_fair_browser import fair_table, sent_by, verify
from .webhost import HostProcess, screenshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[2]


def pyodide_dir() -> Path | None:
    for where in (os.environ.get("LANTABLE_PYODIDE"), ROOT / ".cache" / "pyodide"):
        if where and (Path(where) / "pyodide.asm.wasm").is_file():
            return Path(where)
    return None


def install_highcard(where: Path) -> None:
    """The high-card example as an installed game: a module and its entry point."""
    (where / "lantable_highcard_entry.py").write_text(
        "from lantable.plugins.examples.highcard import HighCard\n\nplugin = HighCard()\n")
    info = where / "lantable_highcard_entry-1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lantable-highcard-entry\n"
                                   "Version: 1\n")
    (info / "entry_points.txt").write_text(
        "[lantable.games]\nhighcard = lantable_highcard_entry:plugin\n")


@pytest.fixture
def engine_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HostProcess]:
    found = pyodide_dir()
    if found is None:
        pytest.skip(f"no Pyodide {PYODIDE_VERSION} core files: set LANTABLE_PYODIDE or run "
                    ".ci/run, which fetches them into .cache/pyodide")
    games = tmp_path / "games"
    games.mkdir()
    install_highcard(games)
    monkeypatch.setenv("LANTABLE_PYODIDE", str(found))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(games), *filter(None, [os.environ.get("PYTHONPATH")])]))
    proc = HostProcess(tmp_path / "journal.db").start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.mark.slow
def test_a_phone_plays_a_hidden_deck_table_to_the_end(engine_host: HostProcess,
                                                      phone: Any) -> None:
    host = engine_host
    console: list[str] = []
    phone.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    refused: list[str] = []
    phone.on("websocket", lambda ws: ws.on("framereceived", lambda payload: refused.append(
        str(payload)) if isinstance(payload, bytes) and b"\xa5error" in payload else None))
    sent = sent_by(phone)
    table = fair_table(host, "highcard", 2, "--hidden-decks", "--option", "rounds=2")
    phone.goto(host.url)
    phone.click(f"li[data-table='{table}'] button:has-text('Sit down')")
    phone.wait_for_selector("#engine:has-text('Loading the card engine')")
    screenshot(phone, "engine-loading-phone")
    phone.wait_for_selector("#turn", timeout=90000)  # the engine loads, then the page sits
    bots = host.bots(table, 1)
    try:
        phone.wait_for_selector("#engine:has-text('this page deals your cards itself')")
        phone.wait_for_selector("#actions button.choice", timeout=60000)
        screenshot(phone, "engine-hand-phone")
        labels = [b.inner_text() for b in phone.query_selector_all("#actions button.choice")]
        board = phone.inner_text("#board")  # redrawn by the engine with the seat's hand
        assert "_hand" in board and "cards" in board, board
        moves = play_until_over(phone)
        screenshot(phone, "engine-over-phone")
    finally:
        bots.kill()
        bots.wait(10)
    assert moves >= 8  # two rounds: a pass and three tricks each
    kinds = [m.get("t") for m in sent]
    assert kinds.count("deck_pass") == 4  # its shuffle and lock passes, two rounds
    assert "deck_unlock" in kinds and "deck_secrets" in kinds
    plays = [m for m in sent if m.get("t") == "act" and m["action"]["type"] == "play"]
    assert plays and all(p["action"]["claims"] for p in plays)  # it claimed its cards
    assert labels and all(label.startswith("pass the ") for label in labels), labels
    checked = verify(host, table)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert not console, console
    assert not refused, refused  # no action sent on a stale screen, no answer refused
