"""A replay on the board (web/static/replay.js): a finished Manila game, from the
lobby's finished tables and from ``lantable replay --web FILE``, stepped forward and
back with the buttons, the arrow keys and the slider, on Manila's own board, as the
spectator and as a seat saw it (docs/protocol.md, "Finished tables and replays")."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from lantable.host.archive import Archive
from lantable.host.journal import Journal
from lantable.host.table import Table
from lantable.plugins import load_registry

from .webhost import HostProcess, screenshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NAMES = ["Ada", "Brook", "Cyd"]


def finished_manila(db: Path, seed: int = 11, table_id: str = "5eed0011") -> tuple[str, int]:
    """A journal holding one finished 3-seat Manila game played by seeded random
    choices, written as a peer writes it; (table id, number of actions)."""
    registry = load_registry()
    journal = Journal(db)
    archive = Archive(journal, registry)
    table = Table.create(table_id=table_id, game=registry["manila"], seats=3, options=None,
                         seed=seed, journal=journal)
    for s, name in enumerate(NAMES):
        journal.take_seat(table.id, s, name, f"token-{table_id}-{s}")
        table.seats[s].name, table.seats[s].token = name, f"token-{table_id}-{s}"
    journal.set_status(table.id, "playing")
    pick = random.Random(seed)
    while True:
        to_act = table.g.to_act(table.state)
        if not to_act:
            break
        seat = to_act[0]
        action = pick.choice(table.g.legal_actions(table.state, seat))
        events = table.g.apply(table.state, seat, action, table.rng)
        table.seq += 1
        journal.append(table.id, table.seq, seat, action, events)
    journal.set_status(table.id, "finished")
    table.status = "finished"
    archive.add(table)
    journal.close()
    return table.id, table.seq


def step_of(page: Any) -> int:
    return int(page.get_attribute("#replay", "data-step"))


def wait_step(page: Any, step: int, seat: int | None = None) -> None:
    """Until move ``step`` is drawn (and, given ``seat``, from that seat's view: a new
    view is drawn only once the host sent it, so the old one stays until then)."""
    whose = "" if seat is None else f'[data-seat="{seat}"]'
    page.wait_for_selector(f'#replay[data-step="{step}"]{whose} [data-board="manila"] svg')


def test_stepping_through_a_finished_manila_game_on_its_board(tmp_path, phone) -> None:
    db = tmp_path / "journal.db"
    table, steps = finished_manila(db)
    host = HostProcess(db).start()
    try:
        page = phone
        page.goto(host.url)
        # the game's title comes with list_games, which may answer after the lobby
        row = page.wait_for_selector(f'li.table.finished[data-table="{table}"]:has-text("Manila")')
        assert "Ada, Brook, Cyd" in row.inner_text() and " won" in row.inner_text()
        screenshot(page, "replay-lobby")
        page.click(f"li[data-table='{table}'] a:has-text('Replay')")  # a redraw may replace the row
        wait_step(page, 0)
        assert page.inner_text("#replay-where").startswith("The start")
        assert page.is_disabled("#replay-back")
        screenshot(page, "replay-start")

        page.click("#replay-forward")
        wait_step(page, 1)
        first = page.inner_text("#replay-events")
        assert re.search(r"Move 1: (Ada|Brook|Cyd)", first), first
        page.click("#replay-forward")
        wait_step(page, 2)
        page.click("#replay-back")
        wait_step(page, 1)
        assert page.inner_text("#replay-events") == first  # back is the same move again

        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.keyboard.press("ArrowRight")  # the keys step too
        wait_step(page, 2)
        page.keyboard.press("ArrowRight")
        wait_step(page, 3)
        page.keyboard.press("ArrowLeft")
        wait_step(page, 2)

        # the slider: to the middle of the game
        middle = steps // 2
        page.eval_on_selector("#replay-slider", """(s, v) => { s.value = v;
            s.dispatchEvent(new Event('input')); }""", middle)
        wait_step(page, middle)
        assert page.inner_text("#replay-where") == f"Move {middle} of {steps}."
        spectator = page.inner_html("[data-board] svg")
        screenshot(page, "replay-middle-spectator")

        # whose view: a seat's (Manila keeps each partner's share cards to itself, 1.3)
        page.select_option("#replay-seat", "1")
        wait_step(page, middle, seat=1)
        assert step_of(page) == middle
        seat_view = page.inner_html("[data-board] svg")
        assert seat_view != spectator, "a seat's view draws what the spectator cannot see"
        screenshot(page, "replay-middle-brook")
        page.click("#replay-forward")
        wait_step(page, middle + 1)
        assert page.eval_on_selector("#replay-seat", "s => s.value") == "1"  # kept on stepping

        page.click("#replay-end")
        wait_step(page, steps)
        assert page.inner_text("#replay-scores").startswith("Final scores:")
        assert page.is_disabled("#replay-forward")
        screenshot(page, "replay-end")
        # actions are disabled: nothing on the board or the page offers a choice
        assert page.query_selector("#actions button.choice") is None

        page.click("#replay-keep")
        page.wait_for_selector("#replay-keep:has-text('Kept')")
        page.click("text=Back to the lobby")
        page.click(f"li.table.finished[data-table='{table}'] button.hide-table")
        page.wait_for_selector(f'li.table.finished[data-table="{table}"]', state="detached")
    finally:
        host.stop()
    kept = Journal(db)
    try:
        assert kept._db.execute("SELECT hidden, kept FROM archive WHERE table_id=?",
                                (table,)).fetchone() == (1, 1)
    finally:
        kept.close()


def test_replay_web_serves_a_journal_file_on_loopback(tmp_path, phone) -> None:
    db = tmp_path / "copy.db"
    table, steps = finished_manila(db, seed=5)
    log = (tmp_path / "replay.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "lantable.clients.cli", "replay", "--web",
                             str(db), "--table", table], stdout=log, stderr=subprocess.STDOUT,
                            text=True)
    try:
        url = None
        deadline = time.monotonic() + 20
        while url is None and time.monotonic() < deadline:
            found = re.search(r"open (http://127\.0\.0\.1:\d+/\S*)",
                              (tmp_path / "replay.log").read_text())
            url = found.group(1) if found else None
            assert proc.poll() is None, (tmp_path / "replay.log").read_text()
            time.sleep(0.05)
        assert url and url.endswith(f"#/replay/{table}")
        phone.goto(url)
        wait_step(phone, 0)
        phone.click("#replay-end")
        wait_step(phone, steps)
        assert phone.inner_text("#replay-scores").startswith("Final scores:")
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def test_older_finished_games_page_in_below_the_newest(tmp_path, phone) -> None:
    db = tmp_path / "journal.db"
    ids = [finished_manila(db, seed=i, table_id=f"0ld{i:05}")[0] for i in range(23)]
    host = HostProcess(db).start()
    try:
        phone.goto(host.url)
        phone.wait_for_selector("#older-more")
        assert phone.locator("li.table.finished").count() == 20  # the lobby's newest 20
        assert phone.inner_text("#older-more") == "Show older finished games (3 more)"
        phone.click("#older-more")
        phone.wait_for_selector("#older-more", state="detached")
        shown = phone.eval_on_selector_all("li.table.finished",
                                           "rows => rows.map(r => r.dataset.table)")
        assert sorted(shown) == sorted(ids)
        screenshot(phone, "replay-older")
        phone.click(f"li[data-table='{ids[0]}'] a:has-text('Replay')")  # the oldest replays too
        wait_step(phone, 0)
    finally:
        host.stop()
