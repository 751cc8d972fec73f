"""Seed games played to their end in the browser by clicking only (Kaiser's Pirates and
Nero: their board tests, see GAMES): the page's seat
takes a choice button each turn, and fills a template action (Pirates of the Spanish
Main's sailing and pivots) through its form with values a person could pick, taking a
plain choice instead when the game refuses the filled one (the reason shows in the
form). Command-line bots hold the other seats. Zero JavaScript errors on the page,
never a visible raw view; screenshots at 390x844 and 1280x800 in tests/artifacts/.
Each game runs with its smallest options (short game, few rounds or turns)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from .test_browser import open_table
from .webhost import HostProcess

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
TURN_TIMEOUT = 60000  # ms: the bots are other processes on a shared machine

# game, seats, options: the shortest whole game each offers. Kaiser's Pirates and Nero
# are played whole by clicking at this size by their own board tests (test_browser.py's
# game against a bot, test_nero_board.py's short game), so not here again: whole
# browser games run once in the suite.
GAMES = [
    ("manila", 3, ()),
    ("pirates-spanish-main", 2, ("max_rounds=3",)),
    ("blackbeard", 2, ("max_turns=6",)),
]

FILL_AT_RANDOM = """(form) => {
  const pick = (lo, hi) => lo + Math.random() * (hi - lo);
  for (const box of form.querySelectorAll('input.degrees')) {
    box.value = Math.floor(pick(0, 360)); box.dispatchEvent(new Event('input'));
  }
  for (const box of form.querySelectorAll('input.amount')) {
    const lo = Number(box.min), hi = Number(box.max);
    box.value = Number(pick(lo + (hi - lo) / 3, hi).toFixed(2));
    box.dispatchEvent(new Event('input'));
  }
}"""


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def try_template(page: Any, button: Any, rng: random.Random) -> bool:
    """Open a template's form, fill it, send it; True if the game took it."""
    if page.query_selector("#typed-choices:not([open])"):  # a board's picker took it
        page.click("#typed-choices > summary")
    button.click()
    form = page.wait_for_selector("#template-form")
    form.evaluate(FILL_AT_RANDOM)
    page.click("#template-form button.send")
    found = page.wait_for_selector("#template-form p.form-error:not([hidden]), "
                                   "#actions:not(:has(#template-form)), #scores",
                                   timeout=TURN_TIMEOUT)
    if found.evaluate("(e) => e.classList.contains('form-error')"):
        assert found.inner_text().strip(), "a refusal without a reason"
        page.click("#template-form button.cancel")
        return False
    return True


def play_by_clicking(page: Any, game: str, max_moves: int = 600) -> dict[str, int]:
    rng = random.Random(7)
    counts = {"moves": 0, "templates": 0, "refused": 0}
    last_miss = ""
    shot_mid = False
    for _ in range(max_moves * 3):  # a redraw under a click is looked at again, within bounds
        if counts["moves"] >= max_moves:
            break
        try:
            found = page.wait_for_selector("#actions button.choice:not([disabled]), #scores",
                                           timeout=TURN_TIMEOUT, state="attached")
        except Exception as exc:  # say what the page showed
            shot(page, f"whole-{game}-stuck-390x844")
            raise AssertionError(f"{game}: no choice and no end after {counts}; the page says "
                                 f"{page.inner_text('#app')[:600]!r}") from exc
        if found.get_attribute("id") == "scores":
            return counts
        assert not page.is_visible(".raw-view")
        if page.query_selector("#summary") and not counts.get("summaries"):
            counts["summaries"] = 1
            shot(page, f"whole-{game}-stage-summary-390x844")
        if not shot_mid and counts["moves"] >= 6:
            shot(page, f"whole-{game}-playing-390x844")
            shot_mid = True
        if page.query_selector("#typed-choices:not([open])"):  # a board's picker took some
            page.click("#typed-choices > summary")
        buttons = page.query_selector_all("#actions button.choice:not([disabled])")
        templates = [b for b in buttons if "template" in (b.get_attribute("class") or "")]
        plain = [b for b in buttons if b not in templates]
        try:
            if templates and (not plain or rng.random() < 0.6):
                if try_template(page, rng.choice(templates), rng):
                    counts["templates"] += 1
                    counts["moves"] += 1
                    continue
                counts["refused"] += 1
                if not plain:
                    continue
                plain = page.query_selector_all(
                    "#actions button.choice:not(.template):not([disabled])")
                if not plain:
                    continue
            rng.choice(plain).click(timeout=3000)
            counts["moves"] += 1
        except Exception as exc:  # the screen was redrawn under the click: look again
            counts["missed"] = counts.get("missed", 0) + 1
            last_miss = str(exc)[:300]
            page.wait_for_timeout(50)
    shot(page, f"whole-{game}-stuck-390x844")
    raise AssertionError(f"{game}: no end after {counts}: {last_miss}")


@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_by_clicking_only(host: HostProcess, browser: Any, game: str, seats: int,
                                       options: tuple[str, ...]) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(TURN_TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    table = host.new_table(game, seats, 11, *options)
    open_table(page, host, table)
    bots = host.bots(table, seats - 1)
    counts = play_by_clicking(page, game)
    assert page.inner_text("#turn") == "Game over."
    assert page.inner_text("#verdict")  # who won, in a sentence
    assert page.query_selector("[data-board]")
    assert not page.is_visible(".raw-view")
    shot(page, f"whole-{game}-final-390x844")
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, f"whole-{game}-final-1280x800")
    if game == "pirates-spanish-main":
        # Courses went through the form (a random course may be refused, with its reason
        # shown in the form; test_platform sends an accepted one, test_spanish_main_board
        # sails by dragging).
        assert counts["templates"] + counts["refused"] > 0, counts
    if game in ("manila", "kaisers-pirates"):  # a voyage, a round: its summary showed
        assert counts.get("summaries"), counts
    assert counts["moves"] > 0
    assert not errors, errors
    bots.wait(60)
    context.close()
