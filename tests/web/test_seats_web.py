"""Seats from the page (issue 22, items 3 and 4), in real headless Chromium against a
real ``lantable host``: a person fills a table with the host's bots and plays, names
that take effect at once and stay unique at a table, and a seat whose player dropped
handed to a bot and taken back. Screenshots go to tests/artifacts/web-seats/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_browser import play_until_over
from .webhost import PHONE, HostProcess

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "web-seats"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture
def quick_host(tmp_path: Path) -> Iterator[HostProcess]:
    """A host whose players may hand an away seat to a bot after 1 s, not 30."""
    proc = HostProcess(tmp_path / "journal.db", "--bot-grace", "1").start()
    try:
        yield proc
    finally:
        proc.stop()


def person(browser: Any, name: str, size: dict[str, int] = PHONE) -> Any:
    context = browser.new_context(viewport=size, has_touch=size is PHONE)
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(exc.stack or str(exc)))  # where it failed
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors
    page.add_init_script(  # not on about:blank, which has no storage
        f"if (location.protocol === 'http:') localStorage.setItem('lantable.name', {name!r})")
    return page


def open_race(page: Any, host: HostProcess, seats: int, target: int) -> str:
    """Open a Race table from the lobby form and sit at it; its id."""
    page.goto(host.url)
    page.wait_for_selector("form#create button[type=submit]")
    page.select_option("#create-game", "race")
    page.fill("form#create input[name=seats]", str(seats))
    page.click("form#create details.options summary")
    page.fill("form#create input[name=opt-target]", str(target))
    page.select_option("form#create select[name=opt-max_step]", label="1")
    page.click("form#create button[type=submit]")
    page.wait_for_selector("#turn:has-text('Waiting for')")
    return page.evaluate("location.hash").split("/")[-1]


def names(page: Any) -> list[str]:
    return [li.inner_text() for li in page.query_selector_all("ol.players li")]


def test_a_person_adds_bots_from_the_page_removes_one_and_plays(host, browser) -> None:
    ann = person(browser, "ann")
    open_race(ann, host, seats=3, target=6)
    panel = ann.wait_for_selector("#bots")
    assert "A bot can take a free seat" in panel.inner_text()
    # The strategies are the ones the host can play this game with, in words.
    options = [o.inner_text() for o in ann.query_selector_all("#add-bot-strategy option")]
    assert options == ["Random", "Greedy", "Thinking"]
    ann.select_option("#add-bot-strategy", "mcts")
    ann.wait_for_selector("#add-bot-strength")  # a strength only for the thinking bot
    ann.select_option("#add-bot-strength", "1")
    ann.click("#add-bot button[type=submit]")
    ann.wait_for_selector("#turn:has-text('Waiting for 1 more player')")
    ann.wait_for_selector("ul.bot-list li:has-text('Thinking bot')")
    assert "strength 1" in ann.inner_text("ul.bot-list")
    # The host's bot process connects on its own, and the page hears it.
    ann.wait_for_selector("ol.players li:has-text('Thinking bot'):not(:has-text('away'))")
    shot(ann, "waiting-with-a-bot-390x844")
    # Removing it frees the seat again.
    ann.click("ul.bot-list li:has-text('Thinking bot') button.remove-bot")
    ann.wait_for_selector("#turn:has-text('Waiting for 2 more players')")
    assert not ann.query_selector("ul.bot-list")
    # Two bots fill the table: the game starts, and ann plays it to the end.
    ann.select_option("#add-bot-strategy", "random")
    ann.click("#add-bot button[type=submit]")
    ann.wait_for_selector("#turn:has-text('Waiting for 1 more player')")
    ann.select_option("#add-bot-strategy", "greedy")
    ann.click("#add-bot button[type=submit]")
    ann.wait_for_selector("#turn:not(:has-text('more player'))")
    assert [n.split(" (")[0] for n in names(ann)] == ["ann", "Random bot", "Greedy bot"]
    moves = play_until_over(ann)
    assert moves >= 1
    assert ann.is_visible("#scores")
    shot(ann, "finished-against-page-bots-390x844")
    assert not ann.errors, ann.errors
    ann.context.close()


def test_a_name_takes_effect_at_once_and_names_are_unique_at_a_table(host, browser) -> None:
    ann = person(browser, "ann", {"width": 1280, "height": 800})
    table = open_race(ann, host, seats=3, target=6)
    twin = person(browser, "ann")
    twin.goto(host.url)
    twin.click(f"li[data-table='{table}'] button:has-text('Sit down')")
    twin.wait_for_selector("#turn:has-text('Waiting for 1 more player')")
    # Two people called ann: the host tells them apart.
    ann.wait_for_selector("ol.players li:has-text('ann (2)')")
    assert names(twin)[:2] == ["ann", "ann (2) (you)"]
    # The second renames herself at the waiting table: everyone sees it, no reload.
    twin.fill("#name", "bea")
    twin.press("#name", "Enter")
    ann.wait_for_selector("ol.players li:has-text('bea')")
    assert names(ann)[:2] == ["ann (you)", "bea"]
    assert "You are bea now" in twin.inner_text("#notice")
    shot(ann, "renamed-at-a-waiting-table-1280x800")
    # A name someone else at the table has gets a suffix; the lobby shows it too.
    twin.fill("#name", "ANN")
    twin.press("#name", "Enter")
    ann.wait_for_selector("ol.players li:has-text('ANN (2)')")
    # The name is kept for the next visit (it goes in hello) and the next table.
    assert twin.evaluate("localStorage.getItem('lantable.name')") == "ANN"
    for page in (ann, twin):
        assert not page.errors, page.errors
        page.context.close()


def test_a_dropped_seat_is_handed_to_a_bot_and_taken_back(quick_host, browser) -> None:
    host = quick_host
    ann = person(browser, "ann", {"width": 1280, "height": 800})
    table = open_race(ann, host, seats=2, target=40)
    bo = person(browser, "bo")
    bo.goto(host.url)
    bo.click(f"li[data-table='{table}'] button:has-text('Sit down')")
    ann.wait_for_selector("#turn:not(:has-text('more player'))")
    # bo's phone goes away (the page is left; its seat token stays in the browser).
    bo.goto("about:blank")
    ann.wait_for_selector("#bots li:has-text('bo is away')")
    time.sleep(1.2)  # the host's grace period (--bot-grace 1)
    ann.select_option("#hand-bot-strategy", "greedy")
    ann.click("#bots li:has-text('bo is away') button.hand-to-bot")
    ann.wait_for_selector("#bots li:has-text('bot plays for bo until bo is back')")
    # The bot plays bo's turns: ann makes a few moves and the game goes on.
    for _ in range(3):
        ann.wait_for_selector("#actions button.choice:not([disabled])")
        ann.click("#actions button.choice >> nth=0")
        time.sleep(0.3)
    shot(ann, "seat-handed-to-a-bot-1280x800")
    # bo comes back to the table: his seat is his again, and the bot stops.
    bo.goto(host.url + f"#/table/{table}")
    bo.wait_for_selector("ol.players li.me:has-text('bo')")
    ann.wait_for_selector("#bots li:has-text('bot plays for bo')", state="detached")
    assert "(away)" not in ann.inner_text("ol.players")
    shot(bo, "seat-taken-back-390x844")
    # ann has to go: she lets a bot play her own seat, watches, and takes it back.
    ann.click("#have-to-go summary")
    ann.select_option("#own-bot-strategy", "random")
    ann.click("button.hand-own")
    ann.wait_for_selector("#bots button.take-back")
    shot(ann, "own-seat-played-by-a-bot-1280x800")
    ann.click("#bots button.take-back")
    ann.wait_for_selector("ol.players li.me:has-text('ann')")
    ann.wait_for_selector("#bots li:has-text('bot plays for ann')", state="detached")
    for page in (ann, bo):
        assert not page.errors, page.errors
        page.context.close()
