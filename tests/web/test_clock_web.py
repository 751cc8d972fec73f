"""Turn clocks from the page (issue 30, item 2), in real headless Chromium against a
real ``lantable host``: a Manila table opened with a 4 s per-decision clock counts down
on the phone, the person lets it run out, a bot plays the seat, and the person takes it
back. Screenshots go to tests/artifacts/web-clock/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .test_seats_web import person
from .webhost import late

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "web-clock"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


# What clock.js's tick writes into seat 0's clock, in place (the node stays on the page).
TICKS_SEEN = """() => {
  window.__ticks = [];
  new MutationObserver((records) => {
    for (const { target } of records) {
      if (target.dataset && target.dataset.clockSeat === "0") {
        window.__ticks.push(target.textContent);
      }
    }
  }).observe(document.getElementById("app"), { childList: true, subtree: true });
}"""


def test_a_manila_clock_runs_out_and_a_bot_plays_until_the_person_takes_the_seat_back(
        host, browser) -> None:
    ann = person(browser, "ann")
    # app.js arrives a second late, as from a loaded host: the scripts before it run
    # first (deferred scripts run one by one as they arrive), and none may fail for want
    # of `window.lantable` (clock.js's tick once did, every quarter second until app.js).
    ann.route("**/static/app.js", late)
    ann.goto(host.url)
    ann.wait_for_selector("form#create button[type=submit]")
    ann.unroute("**/static/app.js", late)
    assert not ann.errors, ann.errors
    ann.select_option("#create-game", "manila")
    ann.fill("form#create input[name=seats]", "3")
    ann.click("#create-clock summary")
    ann.select_option("#clock-kind", "decision")
    ann.fill("#clock-time", "4")
    ann.select_option("#clock-out", "bot")
    shot(ann, "01-create-with-clock")
    assert "null" not in ann.inner_text("form#create")  # a missing field is no word "null"
    ann.click("form#create button[type=submit]")
    ann.wait_for_selector("#add-bot")
    for _ in range(2):
        ann.click("#add-bot button[type=submit]")
        ann.wait_for_timeout(300)
    # The game starts; the clock says its rule and counts down whoever is to decide.
    rule = ann.wait_for_selector("#clock .clock-rule")
    assert rule.inner_text() == "Clock: 4 s a decision; then a bot plays the seat."
    ann.wait_for_selector("#turn:has-text('Your move.')", timeout=30000)
    # A pause first (issue 30, item 7): the bots consent at once, the clock stops.
    ann.click("#pause-ask")
    ann.wait_for_selector("#pause:has-text('The table is paused; the clock is stopped.')")
    frozen = ann.inner_text("#clocks")
    ann.wait_for_timeout(4500)  # longer than the clock: nothing runs out while paused
    assert ann.inner_text("#clocks") == frozen and not ann.query_selector(".take-back")
    assert not ann.query_selector("#clocks li.running")
    assert ann.inner_text("#turn") == "Paused: the game goes on when every player agrees."
    assert not ann.query_selector("text=bid 1 to be harbour master")  # no moves while paused
    shot(ann, "02-paused")
    # Between updates the page counts down by itself: clock.js rewrites the numbers in
    # place. Record what it writes into ann's clock (seat 0) until her time is out; a
    # redraw builds new nodes and writes nothing there, so only the countdown is seen.
    ann.evaluate(TICKS_SEEN)
    ann.click("#resume-ask")
    mine = ann.wait_for_selector("#clocks li.running:has-text('(you)') .clock-left")
    first = mine.inner_text()
    assert re.fullmatch(r"0:0[1-4]", first), first
    shot(ann, "03-my-clock-runs")
    # ann does nothing: at the end of her time a bot plays her seat, and she is told so.
    ann.wait_for_selector(".take-back", timeout=15000)
    ticks = ann.evaluate("window.__ticks.splice(0)")
    assert ticks == sorted(ticks, reverse=True) and len(set(ticks)) >= 2, ticks
    notice = ann.wait_for_selector("#notice:not([hidden])")
    assert "ann ran out of time (4 s per decision): a random bot plays for ann" \
        in notice.inner_text()
    shot(ann, "04-out-of-time-a-bot-plays")
    # She takes her seat back.
    ann.click(".take-back")
    ann.wait_for_selector("#notice:has-text('Your seat is yours again')")
    shot(ann, "05-seat-taken-back")
    assert not ann.errors, ann.errors
    log = host.lantable("replay", "--db", str(host.db), "--table",
                        ann.evaluate("location.hash").split("/")[-1]).stdout
    assert "clock: 4 s per decision; out of time, a bot plays the seat" in log
    assert "clock: seat 0 (ann) ran out of time" in log
