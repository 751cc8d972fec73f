"""The browser platform (issue 22) in real headless Chromium against a real host:
template actions filled in a form and refused in place, long choice lists grouped
with a filter, the text board of a game without a browser board (and the raw view
only behind debug), the log that follows the news, forced choices taken with the
same delay as chosen ones, the fair-play badge, phone and desktop layouts, Italian.
Screenshots go to tests/artifacts/ for a person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lantable.plugins import load_registry

from .test_browser import open_table, play_until_over
from .test_fair_browser import fair_table
from .webhost import HostProcess

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
REGISTRY = load_registry()
TURN_TIMEOUT = 20000
DESKTOP = {"width": 1280, "height": 800}

# Records, in the page, when each message arrives and each one leaves (performance.now()),
# decoded: timing measured where it happens, not where Python hears of it.
RECORD_WS = """
(() => {
  const Real = window.WebSocket;
  window.__ws = [];
  class Recorded extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => window.__ws.push(
        {dir: "in", at: performance.now(),
         msg: window.MessagePack.decode(new Uint8Array(ev.data))}));
    }
    send(data) {
      window.__ws.push({dir: "out", at: performance.now(), msg: window.MessagePack.decode(data)});
      return super.send(data);
    }
  }
  window.WebSocket = Recorded;
})();
"""


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=True)
    return path


def page_of(browser: Any, size: dict[str, int] | None = None, errors: list[str] | None = None,
            **context: Any) -> Any:
    phone = size is None
    ctx = browser.new_context(viewport=size or {"width": 390, "height": 844}, has_touch=phone,
                              is_mobile=phone, **context)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    if errors is not None:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page


def latest_update(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => window.__ws.filter((f) => f.dir === 'in'
        && f.msg.t === 'update' && f.msg.view).slice(-1)[0].msg""")


# -- templates -------------------------------------------------------------------------


def click_until_template(page: Any, kind: str, limit: int = 80) -> None:
    """Take plain choices (the first) until a template of type ``kind`` is offered."""
    for _ in range(limit):
        page.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT,
                               state="attached")  # a template may sit folded (a board's picker)
        wanted = f"#actions button.choice.template[data-type='{kind}']:not([disabled])"
        if page.query_selector(wanted):
            return
        page.click("#actions button.choice:not(.template):not([disabled]):visible >> nth=0")
        page.wait_for_timeout(100)
    raise AssertionError(f"no {kind} template offered in {limit} moves")


def fill_segments(page: Any, segments: list[dict[str, int]]) -> None:
    """Fill the open move form: one item per segment, heading in degrees, distance in mm."""
    form = page.locator("#template-form")
    while form.locator("li.item").count() < len(segments):
        form.locator("button.add-item").click()
    while form.locator("li.item").count() > len(segments):
        form.locator("button.remove-item").last.click()
    for i, seg in enumerate(segments):
        item = form.locator("li.item").nth(i)
        item.locator("input.degrees").fill(f"{seg['heading'] / 10:g}")
        item.locator("input.amount").fill(f"{seg['distance'] / 100:g}")


def test_a_sail_template_is_filled_in_its_form_accepted_and_a_refused_one_says_why(
        host: HostProcess, browser: Any) -> None:
    """Pirates of the Spanish Main, digest 8.14 (the course query) and the move template:
    the form shows the distance in millimetres and the heading in degrees, previews the
    course with the game's own query, and a course the game refuses says why in the form."""
    errors: list[str] = []
    page = page_of(browser, errors=errors)
    page.add_init_script(RECORD_WS)
    table = host.new_table("pirates-spanish-main", 2, 3, "max_rounds=2")
    open_table(page, host, table)
    host.bots(table, 1)
    click_until_template(page, "move")
    game = REGISTRY["pirates-spanish-main"]
    update = latest_update(page)
    template = next(a for a in update["legal"] if a["type"] == "move" and "params" in a)
    spec = template["params"]["segments"]
    # A refused course first: one the game's own query says is blocked (a ship that
    # would sail into its island), else a second segment longer than any measure left.
    blocked = None
    for heading in range(0, 3600, 150):
        q = {"type": "course", "ship": template["ship"],
             "segments": [{"heading": heading, "distance": spec["item"]["distance"]["max"]}]}
        if "blocked" in game.query(update["view"], update["seat"], q):
            blocked = q["segments"]
            break
    good = game.discretise(update["view"], update["seat"], template)[0]["segments"]
    if page.query_selector("#typed-choices:not([open])"):  # the board's picker took it
        page.click("#typed-choices > summary")
    page.click(f"#actions button.choice.template[data-index='{update['legal'].index(template)}']")
    form = page.wait_for_selector("#template-form")
    assert form.query_selector("svg.dial") and form.query_selector("input[type=range]")
    assert "mm" in form.inner_text()  # 1/100 mm shown as millimetres
    page.screenshot(path=str(ARTIFACTS / "template-form-390x844.png"), full_page=False)
    if blocked is not None:
        fill_segments(page, blocked)
        page.wait_for_selector("#template-form .preview .blocked")  # the query's answer
        page.click("#template-form button.send")
        error = page.wait_for_selector("#template-form p.form-error:not([hidden])")
        assert error.inner_text().startswith("Refused:") and len(error.inner_text()) > 12
        shot(page, "template-refused-390x844")
    fill_segments(page, good)
    page.wait_for_selector("#template-form .preview[data-state='answered']")
    assert not page.query_selector("#template-form .preview .blocked")
    page.locator("#template-form").screenshot(path=str(ARTIFACTS / "template-preview-390x844.png"))
    page.click("#template-form button.send")
    page.wait_for_selector("#template-form", state="detached", timeout=TURN_TIMEOUT)
    sent = page.evaluate("""() => window.__ws.filter((f) => f.dir === 'out' && f.msg.t === 'act')
        .map((f) => f.msg.action)""")
    assert sent[-1] == {"type": "move", "ship": template["ship"], "segments": good}
    page.wait_for_function(f"""() => window.__ws.some((f) => f.dir === 'in'
        && f.msg.t === 'update'
        && (f.msg.events || []).some((e) => e.ship === '{template["ship"]}'))""")
    assert not errors, errors
    page.context.close()


# -- grouping and filter ---------------------------------------------------------------


def test_over_twelve_choices_are_grouped_by_kind_with_a_filter(host: HostProcess,
                                                               browser: Any) -> None:
    """Manila's first bid (rules 3, the harbour master auction): 19 choices in three kinds."""
    page = page_of(browser)
    table = host.new_table("manila", 3, 3)
    open_table(page, host, table)
    host.bots(table, 2)
    page.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    total = page.locator("#actions button.choice").count()
    assert total > 12
    groups = page.eval_on_selector_all("#actions button.choice[data-group-first]",
                                       "bs => bs.map((b) => b.dataset.group)")
    assert {"bid", "pass"} <= set(groups) and len(groups) == len(set(groups)), groups
    # One list of sibling buttons, each group's together, in the game's order within it.
    order = page.eval_on_selector_all("#actions button.choice",
                                      "bs => bs.map((b) => b.dataset.group)")
    assert [g for i, g in enumerate(order) if i == 0 or order[i - 1] != g] == groups
    page.fill("#choice-filter", "pass")
    page.wait_for_timeout(100)
    visible = [b.inner_text() for b in page.query_selector_all("#actions button.choice:visible")]
    assert visible and all("pass" in v.lower() for v in visible) and len(visible) < total
    shot(page, "grouped-filtered-390x844")
    page.fill("#choice-filter", "no such words")
    page.wait_for_selector("#actions p.muted:has-text('No choice matches')")
    page.fill("#choice-filter", "")
    assert page.locator("#actions button.choice").count() == total
    page.context.close()


# -- the text board --------------------------------------------------------------------


def test_a_game_without_a_browser_board_shows_its_text_board_and_no_raw_view(
        host: HostProcess, browser: Any) -> None:
    errors: list[str] = []
    page = page_of(browser, errors=errors)
    table = host.new_table("race", 2, 1, "target=9")
    open_table(page, host, table)
    host.bots(table, 1)
    board = page.wait_for_selector("[data-board='race'] .textboard table")
    assert "target" in board.inner_text() and "9" in board.inner_text()
    assert not page.is_visible(".raw-view")
    shot(page, "race-text-board-390x844")
    page.click("#debug-toggle")
    assert page.is_visible(".raw-view")
    page.click("#debug-toggle")
    assert not page.is_visible(".raw-view")
    # Tap to read: a text a board cut to fit (data-full, or an SVG <title>) shows whole.
    page.evaluate("""() => document.querySelector('[data-board]').append(
        Object.assign(document.createElement('span'),
                      {id: 'cut', textContent: 'Boarding Pa…'}))""")
    page.eval_on_selector("#cut", "(e) => e.setAttribute('data-full', 'Boarding Party')")
    page.click("#cut")
    assert page.wait_for_selector("#notice:not([hidden])").inner_text() == "Boarding Party"
    # A game with its own board draws it in the same place, and no raw view either.
    nero = host.new_table("nero", 3, 1)
    page.goto(host.url + f"#/table/{nero}/watch")
    page.wait_for_selector("#turn")
    host.bots(nero, 3)
    page.wait_for_selector("[data-board='nero'] svg", timeout=TURN_TIMEOUT)
    assert "Roma" in page.inner_text("[data-board]")
    assert not page.is_visible(".raw-view")
    assert not errors, errors
    page.context.close()


# -- the log ---------------------------------------------------------------------------


def test_the_log_follows_the_news_unless_scrolled_up(host: HostProcess, browser: Any) -> None:
    page = page_of(browser)
    table = host.new_table("race", 2, 3, "target=80", "max_step=1")
    open_table(page, host, table)
    host.bots(table, 1)
    for _ in range(14):  # enough lines to overflow the log box
        page.click("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
        page.wait_for_timeout(50)
    page.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    at_bottom = "(l) => l.scrollHeight - l.scrollTop - l.clientHeight < 4"
    assert page.eval_on_selector("#log", "(l) => l.scrollHeight > l.clientHeight")
    assert page.eval_on_selector("#log", at_bottom)
    newest = page.eval_on_selector("#log li:last-child", "(e) => e.textContent")
    assert page.inner_text("#latest") == newest  # the news, up by the turn line
    page.eval_on_selector("#log", "(l) => { l.scrollTop = 0; }")  # the person reads back
    for _ in range(2):
        page.click("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
        page.wait_for_timeout(300)
    page.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    assert page.eval_on_selector("#log", "(l) => l.scrollTop") == 0  # left where it was
    newest = page.eval_on_selector("#log li:last-child", "(e) => e.textContent")
    assert page.inner_text("#latest") == newest
    page.eval_on_selector("#log", "(l) => { l.scrollTop = l.scrollHeight; }")  # back down
    page.click("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    page.wait_for_timeout(500)
    assert page.eval_on_selector("#log", at_bottom)
    page.context.close()


# -- forced choices --------------------------------------------------------------------


def act_delays(page: Any) -> list[tuple[int, float]]:
    """(number of legal actions, ms from the update that asked to the act sent)."""
    return page.evaluate("""() => {
      const out = []; let asked = null;
      for (const f of window.__ws) {
        if (f.dir === 'in' && f.msg.t === 'update' && f.msg.legal) asked = f;
        if (f.dir === 'out' && f.msg.t === 'act' && asked) {
          out.push([asked.msg.legal.length, f.at - asked.at]); asked = null;
        }
      }
      return out;
    }""")


def play_race(page: Any, host: HostProcess, *options: str, auto: bool = True) -> None:
    table = host.new_table("race", 2, 5, *options)
    open_table(page, host, table)
    host.bots(table, 1)
    while True:  # click as soon as a choice shows; forced ones go by themselves (auto)
        found = page.wait_for_selector("#actions button.choice:not([disabled]), #scores",
                                       timeout=TURN_TIMEOUT)
        if found.get_attribute("id") == "scores":
            return
        if page.locator("#actions button.choice").count() > (1 if auto else 0):
            try:
                page.click("#actions button.choice:not([disabled]) >> nth=-1", timeout=1000)
            except Exception:
                pass
        page.wait_for_timeout(30)


def test_forced_choices_are_taken_after_the_same_delay_as_chosen_ones(
        host: HostProcess, browser: Any) -> None:
    """With the box ticked, a forced answer and a chosen one both leave FORCED_MS after
    the update that asked, so the table cannot tell them apart by timing."""
    page = page_of(browser)
    page.add_init_script(RECORD_WS)
    page.add_init_script("localStorage.setItem('lantable.forced_ms', '1200')")
    page.goto(host.url)
    page.wait_for_selector("form#create")
    page.evaluate("localStorage.setItem('lantable.forced', '1')")
    play_race(page, host, "target=4", "max_step=1")  # every move of ours is forced
    delays = act_delays(page)  # (each page load records afresh)
    play_race(page, host, "target=12", "max_step=2")  # most are real choices
    delays += act_delays(page)
    forced = [ms for n, ms in delays if n == 1]
    chosen = [ms for n, ms in delays if n > 1]
    assert len(forced) >= 2 and len(chosen) >= 2, delays
    for ms in forced + chosen:
        assert 1150 <= ms <= 1700, delays
    # Unticked, a move leaves as soon as it is clicked.
    page.evaluate("localStorage.setItem('lantable.forced', '0')")
    play_race(page, host, "target=12", "max_step=2", auto=False)
    quick = [ms for _, ms in act_delays(page)]
    assert quick and min(quick) < 1000, quick
    page.context.close()


# -- fair play -------------------------------------------------------------------------


def test_the_fair_play_badge_shows_from_the_lobby_to_the_end(host: HostProcess,
                                                             browser: Any) -> None:
    page = page_of(browser)
    table = fair_table(host, "race", 2, "--option", "target=5")
    page.goto(host.url)
    row = page.wait_for_selector(f"li[data-table='{table}']")
    assert row.query_selector("details.badge-fair summary")
    page.click(f"li[data-table='{table}'] button:has-text('Sit down')")
    page.wait_for_selector("#turn:has-text('Waiting for 1 more player')")
    badge = page.wait_for_selector(".table-head details.badge-fair")
    badge.click()
    means = page.wait_for_selector(".table-head .badge-means")
    assert "no one, the host included, can choose or foresee" in means.inner_text()
    shot(page, "fair-badge-waiting-390x844")
    bots = host.bots(table, 1)
    assert play_until_over(page) > 0
    assert page.query_selector(".table-head details.badge-fair")
    shot(page, "fair-badge-finished-390x844")
    bots.wait(30)
    page.context.close()


# -- layout ----------------------------------------------------------------------------

LAYOUT_CHECK = """() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth + 1) out.push(`page ${doc.scrollWidth}px wide`);
  for (const e of document.querySelectorAll('button, .choice, h1, h2, p, li, summary, label')) {
    const s = getComputedStyle(e);
    if (e.offsetParent === null || s.overflow === 'visible') continue;
    if (e.closest('.scroll-x, .log, .grouped, .choices')) continue;  // scroll boxes
    if (e.scrollWidth > e.clientWidth + 1) {
      out.push(`cut: ${e.tagName} ${e.textContent.slice(0, 40)}`);
    }
  }
  window.scrollTo(0, document.body.scrollHeight);
  const top = document.querySelector('header#top').getBoundingClientRect();
  if (Math.abs(top.top) > 1) out.push(`top bar at ${top.top}px after scrolling`);
  window.scrollTo(0, 0);
  return out;
}"""


def test_phone_and_desktop_layouts_have_no_cut_text_and_a_top_bar_that_stays(
        host: HostProcess, browser: Any) -> None:
    table = host.new_table("manila", 3, 2)
    phone = page_of(browser)
    open_table(phone, host, table)
    host.bots(table, 2)
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    desk = page_of(browser, DESKTOP)
    desk.goto(host.url + f"#/table/{table}/watch")
    desk.wait_for_selector("[data-board] svg")
    for page, name in ((phone, "manila-390x844"), (desk, "manila-1280x800")):
        assert page.evaluate(LAYOUT_CHECK) == [], name
        shot(page, f"layout-{name}")
    # One-handed: the choices are reachable without zooming (44 px targets).
    heights = phone.eval_on_selector_all("#actions button.choice",
                                         "bs => bs.map((b) => b.offsetHeight)")
    assert heights and min(heights) >= 44
    lobby = page_of(browser)
    lobby.goto(host.url)
    lobby.wait_for_selector("form#create")
    assert lobby.evaluate(LAYOUT_CHECK) == []
    shot(lobby, "lobby-390x844")
    for page in (phone, desk, lobby):
        page.context.close()


# -- Italian ---------------------------------------------------------------------------


def test_the_page_speaks_italian_to_an_italian_browser_and_switches(
        host: HostProcess, browser: Any) -> None:
    page = page_of(browser, locale="it-IT")
    table = host.new_table("race", 2, 2, "target=6")
    page.goto(host.url)
    page.wait_for_selector("form#create h2:has-text('Apri un tavolo')")
    assert "Siediti" in page.inner_text(f"li[data-table='{table}']")
    page.click(f"li[data-table='{table}'] button:has-text('Siediti')")
    page.wait_for_selector("#turn:has-text('Manca ancora 1 giocatore')")
    host.bots(table, 1)
    page.wait_for_selector("#actions h2:has-text('Le tue scelte')", timeout=TURN_TIMEOUT)
    assert "Fai tu le scelte obbligate" in page.inner_text("#actions")
    # The game's own words, through race's game_info translations.
    assert page.inner_text(".table-head h1") == "Corsa a N"
    assert "aggiungi 1 (contatore da 0 a 1)" in page.inner_text("#actions")
    assert page.evaluate(LAYOUT_CHECK) == []
    shot(page, "italian-390x844")
    page.select_option("#lang", "en")
    page.wait_for_selector("#actions h2:has-text('Your choices')")
    assert page.evaluate("localStorage.getItem('lantable.lang')") == "en"
    page.context.close()
