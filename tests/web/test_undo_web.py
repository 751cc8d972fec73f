"""Undo by consent in the browser (issue 30, item 3), in real headless Chromium
against a real ``lantable host``: at a Manila table three people sit; the one who
moved takes the move back with the others' consent, and everyone reads what
happened. Screenshots go to tests/artifacts/web/undo-*.png."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from .test_browser import open_table
from .test_seats_web import person
from .webhost import HostProcess, screenshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ENABLED = "#actions button.choice:not([disabled])"


def manila_table(host: HostProcess) -> str:
    out = host.lantable("new", "manila", "--connect", host.address, "--seats", "3")
    return out.stdout.strip().split()[-1]


def mover(pages: list[Any]) -> int:
    for _ in range(100):
        for i, page in enumerate(pages):
            if page.query_selector(ENABLED):
                return i
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody is asked to move")


def test_one_page_takes_back_a_manila_bid_with_the_others_consent(host, browser) -> None:
    table = manila_table(host)
    pages = [person(browser, name) for name in ("ann", "bob", "cy")]
    for page in pages:
        open_table(page, host, table)
    for page in pages:
        page.wait_for_selector("section.table-screen[data-status=playing]")
    i = mover(pages)
    me, others = pages[i], pages[:i] + pages[i + 1:]
    before = me.inner_text("#turn")
    label = me.query_selector_all(ENABLED)[-1].inner_text()
    me.query_selector_all(ENABLED)[-1].click()  # a bid for harbour master (rules 4.1)
    ask = me.wait_for_selector("#undo-ask")
    assert ask.inner_text() == "Undo my last move"
    screenshot(me, "undo-offer")
    ask.click()
    for page in others:
        question = page.wait_for_selector("#undo-question")
        assert "asks to take back their last move; waiting for" in question.inner_text()
    screenshot(others[0], "undo-question")
    others[0].click("#undo-accept")
    # the first answer is counted: the question now waits for the last seat only
    others[1].wait_for_selector("#undo-accept")
    me.wait_for_function("() => !(document.querySelector('#undo-question') || {})"
                         ".textContent?.includes(',')")
    others[1].click("#undo-accept")
    for page in pages:  # the latest line says it, and the history keeps it
        page.wait_for_selector("#latest:has-text('took back their last move.')")
        assert not page.query_selector("#undo-question")
    me.wait_for_selector(ENABLED)  # the same person decides again, on the same choices
    assert me.inner_text("#turn") == before
    assert label in [b.inner_text() for b in me.query_selector_all(ENABLED)]
    screenshot(me, "undo-done")
    screenshot(others[1], "undo-done-other")
    # the journal keeps the bid and its undo
    out = host.lantable("replay", "--db", str(host.db), "--table", table)
    assert "(taken back)" in out.stdout and "took back #1" in out.stdout
    for page in pages:
        assert not page.errors, page.errors


def test_a_refused_undo_says_who_said_no(host, browser) -> None:
    table = manila_table(host)
    pages = [person(browser, name) for name in ("ann", "bob", "cy")]
    for page in pages:
        open_table(page, host, table)
    for page in pages:
        page.wait_for_selector("section.table-screen[data-status=playing]")
    i = mover(pages)
    me, others = pages[i], pages[:i] + pages[i + 1:]
    me.locator(ENABLED).first.click()  # a locator: found again if the list is redrawn
    me.click("#undo-ask")
    others[1].wait_for_selector("#undo-refuse").click()
    for page in pages:
        result = page.wait_for_selector("#latest:has-text('said no:')")
        assert result.inner_text().endswith("'s last move stands.")
    screenshot(me, "undo-refused")
    assert not me.query_selector("#undo-ask")  # not asked again about that move


def test_the_lobby_form_opens_a_table_where_undo_is_never_allowed(host, browser) -> None:
    ann = person(browser, "ann")
    ann.goto(host.url)
    ann.wait_for_selector("form#create button[type=submit]")
    ann.select_option("#create-game", "race")
    ann.select_option("#create-undo", "never")
    assert ann.inner_text("label.undo-option").startswith("Taking back a move:")
    screenshot(ann, "undo-create-form")
    ann.fill("form#create input[name=seats]", "1")
    ann.click("form#create button[type=submit]")
    ann.wait_for_selector("section.table-screen[data-status=playing]")
    table = ann.evaluate("location.hash").split("/")[-1]
    with sqlite3.connect(host.db) as db:  # the table's setting, as the host journalled it
        (setting,) = db.execute("SELECT value FROM meta WHERE key=?", (f"undo:{table}",)).fetchone()
    assert setting == "never"


def test_at_a_fair_table_every_page_signs_the_undo_and_verify_passes(host, browser) -> None:
    from .test_fair_browser import fair_table, verify

    table = fair_table(host, "manila", 3)
    pages = [person(browser, name) for name in ("ann", "bob", "cy")]
    for page in pages:
        open_table(page, host, table)
    for page in pages:
        page.wait_for_selector("section.table-screen[data-status=playing]")
    i = mover(pages)
    me, others = pages[i], pages[:i] + pages[i + 1:]
    me.locator(ENABLED).first.click()  # a locator: found again if the list is redrawn
    me.wait_for_selector("#undo-ask").click()
    for page in others:
        page.wait_for_selector("#undo-accept").click()
    for page in pages:
        page.wait_for_selector("#latest:has-text('took back their last move.')")
    me.wait_for_selector(ENABLED).click()  # and plays on, signed as usual
    me.wait_for_timeout(500)
    result = verify(host, table)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 undo by consent among them, each signed by every seat" in result.stdout
    for page in pages:
        assert not page.errors, page.errors
