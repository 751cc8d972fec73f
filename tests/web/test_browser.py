"""People play in real headless Chromium: whole games, hidden hands, reloads, a host
that dies and comes back, and the phone-sized boards (screenshots in
tests/artifacts/web/, for a person to look at)."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from .webhost import HostProcess, screenshot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TURN_TIMEOUT = 15000  # ms for the bots (separate processes) to hand the turn back
ENABLED = "#actions button.choice:not([disabled])"


def open_table(page: Any, host: HostProcess, table: str) -> None:
    """Open the app and sit down at ``table`` from the lobby."""
    page.goto(host.url)
    page.click(f"li[data-table='{table}'] button:has-text('Sit down')")
    page.wait_for_selector("#turn")


def play_until_over(page: Any, pick: Any = None, max_moves: int = 400) -> int:
    """Take our turns (by the first choice, or ``pick(labels) -> index``) until the
    final scores show; returns the number of moves made."""
    moves = 0
    while moves < max_moves:
        found = page.wait_for_selector("#actions button.choice:not([disabled]), #scores",
                                       timeout=TURN_TIMEOUT)
        if found.get_attribute("id") == "scores":
            return moves
        buttons = page.query_selector_all("#actions button.choice:not([disabled])")
        if not buttons:
            continue  # redrawn between the wait and the query
        index = pick([b.inner_text() for b in buttons]) if pick else 0
        try:
            buttons[index].click(timeout=2000)
        except Exception:  # the screen was redrawn under the click; look again
            continue
        moves += 1
    raise AssertionError(f"no end after {max_moves} moves")


def frames_of(page: Any) -> list[dict[str, Any]]:
    """Every message the page receives over its WebSocket, decoded."""
    got: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: got.append(
            msgpack.unpackb(payload, raw=False) if isinstance(payload, bytes)
            else {"text": payload}))

    page.on("websocket", on_ws)
    return got


def manila_pick(labels: list[str]) -> int:
    """A quick, sensible person: never outbids, loads and places where it can."""
    for i, label in enumerate(labels):
        if label.startswith(("pass", "buy no share")):
            return i
    return 0


SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=sorted(SIZES))
def sized(request: Any, browser: Any) -> Iterator[tuple[str, Any]]:
    """A page at 1280×800 (desktop) or 390×844 (a touch phone), failing the test on any
    JavaScript error."""
    size = request.param
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], has_touch=phone, is_mobile=phone,
                                  device_scale_factor=2 if phone else 1)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield f"{SIZES[size]['width']}x{SIZES[size]['height']}", page
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def manila_board_matches_view(page: Any, view: dict[str, Any]) -> None:
    """The boats, crews and players drawn are the view's, each once."""
    goods = ["nutmeg", "silk", "ginseng", "jade"]
    boats = page.eval_on_selector_all(
        "[data-board=manila] g.boat",
        "gs => gs.map(g => [+g.dataset.boat, g.dataset.good, +g.dataset.pos])")
    assert sorted(boats) == [[b, goods[g], view["pos"][b]] for b, g in enumerate(view["goods"])]
    crew = page.eval_on_selector_all("[data-board=manila] [data-crew]", "gs => gs.length")
    assert crew == sum(len(c) for c in view["crew"])
    players = page.eval_on_selector_all(
        "[data-board=manila] g.player", "gs => gs.map(g => +g.dataset.left)")
    assert players == view["left"]


def last_view(frames: list[dict[str, Any]]) -> dict[str, Any]:
    return next(f["view"] for f in reversed(frames) if f.get("t") == "update" and f.get("view"))


@pytest.mark.parametrize("sized", ["phone"], indirect=True)  # once: the harder layout
def test_a_person_plays_a_whole_manila_game_against_three_bots(host, sized) -> None:
    """At 390×844 (whole games run once; 1280×800: the tests below): the whole game by clicking,
    the load step through the picker whenever this seat is harbour master, the board
    checked against the view at each decision, and no JavaScript error."""
    size, page = sized
    frames = frames_of(page)
    table = host.new_table("manila", 4, 3)
    open_table(page, host, table)
    bots = host.bots(table, 3)
    page.wait_for_selector("svg.manila")
    moves = loads = 0
    shots: set[str] = set()
    while True:
        found = page.wait_for_selector(
            "#actions button.choice:not([disabled]), button.load-send:not([disabled]), #scores",
            timeout=TURN_TIMEOUT)
        if found.get_attribute("id") == "scores":
            break
        moves += 1
        assert moves < 300
        manila_board_matches_view(page, last_view(frames))
        if page.query_selector("svg.manila g.boat") and page.query_selector("svg.manila .tap") \
                and "board" not in shots:
            screenshot(page, f"manila-board-{size}")
            shots.add("board")
        send = page.query_selector("button.load-send:not([disabled])")
        if send is not None:  # this seat is harbour master: load through the picker
            assert not [b for b in page.query_selector_all("#actions button.choice")
                        if b.inner_text().startswith("load ")]
            if "load" not in shots:
                screenshot(page, f"manila-load-picker-{size}")
                shots.add("load")
            send.click()
            loads += 1
            page.wait_for_selector("button.load-send", state="detached")
            continue
        buttons = page.query_selector_all("#actions button.choice:not([disabled])")
        if not buttons:
            continue
        try:
            buttons[manila_pick([b.inner_text() for b in buttons])].click(timeout=2000)
        except Exception:  # redrawn under the click; look again
            continue
        if page.query_selector("svg.manila g.voyage-summary") and "summary" not in shots:
            screenshot(page, f"manila-voyage-summary-{size}")
            shots.add("summary")
    scores = page.inner_text("#scores")
    assert "Final scores" in scores and page.inner_text("#turn") == "Game over."
    assert len(page.query_selector_all("#scores tr")) == 5  # a header and four players
    screenshot(page, f"manila-final-{size}")
    assert bots.wait(30) == 0, bots.stdout.read()
    assert moves > 5 and "board" in shots


def test_manila_the_harbour_master_loads_the_boats_with_one_picker_per_boat(host, sized) -> None:
    """4.2b, c: the person wins the auction (the highest bid), buys no share, and loads
    the boats through the picker: jade on boat 1 starting on 5, nutmeg on boat 2 on 4,
    silk on boat 3 on 0 (ginseng stays home). The picker refuses starts that do not add
    up to 9, and the boats then sail from the chosen spaces."""
    size, page = sized
    frames = frames_of(page)
    table = host.new_table("manila", 3, 4)
    open_table(page, host, table)
    host.bots(table, 2)
    page.wait_for_selector("svg.manila")
    for _ in range(20):
        page.wait_for_selector("#actions button.choice:not([disabled]), button.load-send",
                               timeout=TURN_TIMEOUT)
        if page.query_selector("[data-picker=load]"):
            break
        labels = [b.inner_text() for b in page.query_selector_all("#actions button.choice")]
        bids = [i for i, x in enumerate(labels) if x.startswith("bid ")]
        pick = bids[-1] if bids else next(i for i, x in enumerate(labels)
                                          if x.startswith(("buy no share", "pass")))
        page.click(f"#actions button.choice >> nth={pick}")
        page.wait_for_timeout(100)
    picker = page.wait_for_selector("[data-picker=load]")
    assert "Load the boats" in picker.inner_text()
    # None of the 100 launch actions is listed as a button of its own.
    assert not [b for b in page.query_selector_all("#actions button.choice")
                if b.inner_text().startswith("load ")]
    for boat, good in enumerate(["jade", "nutmeg", "silk"]):
        page.click(f"button.load-good[data-boat='{boat}'][data-good='{good}']")
    # Starts from 3, 3, 3: boat 1 up to 5 makes 11, which the picker refuses to send.
    page.click("button.load-more[data-boat='0']")
    page.click("button.load-more[data-boat='0']")
    assert page.is_disabled("button.load-send")
    assert "must add up to 9 (2 less)" in page.inner_text(".load-status")
    page.click("button.load-more[data-boat='1']")
    for _ in range(3):
        page.click("button.load-less[data-boat='2']")
    assert page.inner_text("span.load-start[data-boat='2']") == "starts on 0"
    assert "Ginseng stays home" in page.inner_text(".load-status")
    send = page.wait_for_selector("button.load-send:not([disabled])")
    assert send.inner_text() == "Load nutmeg at 4, silk at 0, jade at 5 (ginseng stays home)"
    screenshot(page, f"manila-load-picker-chosen-{size}")
    send.click()
    page.wait_for_selector("[data-picker=load]", state="detached")
    page.wait_for_selector("svg.manila g.boat[data-good='jade']")
    view = last_view(frames)
    assert [["nutmeg", "silk", "ginseng", "jade"][g] for g in view["goods"]] == \
        ["nutmeg", "silk", "jade"]
    launched = next(e for f in frames if f.get("t") == "update"
                    for e in f.get("events") or [] if e.get("type") == "launched")
    assert launched == {"type": "launched", "goods": ["nutmeg", "silk", "jade"],
                        "starts": [4, 0, 5]}
    drawn = page.eval_on_selector_all("svg.manila g.boat",
                                      "gs => gs.map(g => [g.dataset.good, +g.dataset.pos])")
    assert sorted(drawn) == [["jade", view["pos"][2]], ["nutmeg", view["pos"][0]],
                             ["silk", view["pos"][1]]]


def test_a_rejected_action_shows_its_reason(host, phone) -> None:
    table = host.new_table("race", 2, 1, "target=30")
    open_table(phone, host, table)
    host.bots(table, 1)
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    phone.evaluate("lantable.act({type: 'step', n: 99})")  # what a stale or forged move does
    notice = phone.wait_for_selector("#notice:not([hidden])")
    assert "Refused (illegal_action)" in notice.inner_text() and "99" in notice.inner_text()
    # Nothing was lost: the same choices are there and still work.
    phone.wait_for_selector("#actions button.choice:not([disabled])")
    assert play_until_over(phone) > 0


def test_two_seats_at_kaisers_pirates_each_see_only_their_own_hand(host, browser) -> None:
    table = host.new_table("kaisers-pirates", 2, 5)
    pages, frames = [], []
    for i in range(2):
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                      is_mobile=True, device_scale_factor=2)
        page = context.new_page()
        page.set_default_timeout(15000)
        frames.append(frames_of(page))
        page.add_init_script(f"localStorage.setItem('lantable.name', 'captain-{i}')")
        open_table(page, host, table)
        pages.append(page)
    hands = []
    for i, page in enumerate(pages):
        page.wait_for_selector("svg.kp [data-hand]")
        shown = sorted(int(c) for c in page.eval_on_selector_all(
            "svg.kp [data-hand] [data-card]", "els => els.map(e => e.dataset.card)"))
        updates = [f for f in frames[i] if f.get("t") == "update" and f.get("view")]
        assert updates and all(u["seat"] == i for u in updates)
        own = updates[-1]["view"]["me"]["hand"]
        assert shown == sorted(own) and own, f"seat {i} shows {shown}, holds {own}"
        for u in updates:  # only hand sizes of the others ever reach this browser
            assert all("hand" not in p for p in u["view"]["players"])
        hands.append(set(own))
        screenshot(page, f"kaisers-pirates-seat{i}-390x844")
    assert not hands[0] & hands[1]
    for page in pages:
        page.context.close()


def test_a_reload_mid_game_resumes_the_seat(host, phone) -> None:
    table = host.new_table("race", 2, 2, "target=30")
    open_table(phone, host, table)
    host.bots(table, 1)
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    phone.click("#actions button.choice")
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    seq_before = phone.eval_on_selector("#log li:last-child", "e => +e.dataset.seq")
    phone.reload()
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    assert "(you)" in phone.inner_text("ol.players li.me")
    assert phone.inner_text("#turn") == "Your move."
    assert f"Joined at move {seq_before}" in phone.inner_text("#log")
    assert play_until_over(phone) > 0


def test_the_page_resumes_after_the_host_is_killed_and_restarted(host, phone) -> None:
    table = host.new_table("race", 2, 4, "target=30")
    open_table(phone, host, table)
    host.bots(table, 1)
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    phone.click("#actions button.choice")
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    host.kill()
    phone.wait_for_selector("#link[data-state='reconnecting']")
    screenshot(phone, "reconnecting-390x844")
    time.sleep(0.5)
    host.start()  # same ports, same journal
    phone.wait_for_selector("#link[data-state='online']", timeout=20000)
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    assert "(you)" in phone.inner_text("ol.players li.me")
    # The bot reconnects on its own (clients.runner.run_bot), so the game plays on to its end.
    assert play_until_over(phone) > 0


def test_the_lobby_is_pushed_and_a_person_can_watch_and_leave(host, browser) -> None:
    pages = []
    for i in range(2):
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.add_init_script(f"localStorage.setItem('lantable.name', 'guest-{i}')")
        page.goto(host.url)
        page.wait_for_selector("form#create button[type=submit]")
        pages.append(page)
    ann, bo = pages
    # ann opens a Race table from the form, with a non-default option.
    ann.select_option("#create-game", "race")
    ann.fill("form#create input[name=seats]", "2")
    ann.click("form#create details.options summary")
    ann.fill("form#create input[name=opt-target]", "7")
    ann.click("form#create button[type=submit]")
    ann.wait_for_selector("#turn:has-text('Waiting for 1 more player')")
    screenshot(ann, "waiting-390x844")
    # bo's lobby shows it without a reload (pushed), with ann's name and a free seat.
    row = bo.wait_for_selector("li.table:has-text('guest-0')")
    assert "1 seat free" in row.inner_text()
    table = row.get_attribute("data-table")
    # bo watches: a spectator sees the table but has no seat and no choices.
    bo.click(f"li[data-table='{table}'] a:has-text('Watch')")
    bo.wait_for_selector("#turn")
    assert not bo.query_selector("ol.players li.me") and not bo.query_selector("#actions")
    # ann leaves the waiting table: her seat is freed, and bo's lobby says so.
    ann.click("button:has-text('Leave')")
    ann.wait_for_selector("form#create")
    bo.click("a:has-text('Tables')")
    bo.wait_for_selector(f"li[data-table='{table}']:has-text('2 seats free')")
    for page in pages:
        page.context.close()


def test_kaisers_pirates_offers_a_reaction_at_the_right_moment(host, phone) -> None:
    """Seat 0 plays in the browser against a bot; when the bot attacks one of its
    merchants, the board says it is seat 0's reaction and the choices start with declining."""
    table = host.new_table("kaisers-pirates", 2, 5)
    open_table(phone, host, table)
    host.bots(table, 1)
    for _ in range(300):
        phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
        banner = phone.query_selector("svg.kp g.reaction")
        if banner is not None:
            assert banner.text_content().startswith("Your reaction")
            labels = [b.inner_text() for b in phone.query_selector_all("#actions button.choice")]
            assert labels[0].lower() in ("no reaction", "pass"), labels  # declining comes first
            assert phone.query_selector("svg.kp .ship rect[stroke='#b3261e']")  # under attack
            screenshot(phone, "kaisers-pirates-reaction-390x844")
            return
        phone.click("#actions button.choice >> nth=0")
    raise AssertionError("no reaction was offered in 300 moves")


def kp_board_matches_view(page: Any, view: dict[str, Any]) -> None:
    """The ships, hand and VP piles drawn are the view's, each once."""
    ships = sorted(page.eval_on_selector_all("svg.kp g.ship", "gs => gs.map(g => +g.dataset.ship)"))
    assert ships == sorted(s for p in view["players"] for s in p["german"] + p["merchants"])
    hand = page.eval_on_selector_all("svg.kp [data-hand] [data-card]",
                                     "gs => gs.map(g => +g.dataset.card)")
    assert hand == view["me"]["hand"]
    piles = page.eval_on_selector_all("svg.kp g.player", "gs => gs.map(g => +g.dataset.vpPile)")
    assert piles == [len(p["vp_pile"]) for p in view["players"]]


@pytest.mark.parametrize("sized", ["phone"], indirect=True)  # once: the harder layout
def test_a_person_plays_a_whole_game_of_kaisers_pirates_against_a_bot(host, sized) -> None:
    """At 390×844 (whole games run once; 1280×800: the tests above): a whole
    two-seat game by clicking (commit and play a card
    now and then, else done / end the turn / no reaction), the board checked
    against the view every fourth move, a card opened by tapping it, and no JavaScript error."""
    import random

    size, page = sized
    frames = frames_of(page)
    table = host.new_table("kaisers-pirates", 2, 7)
    open_table(page, host, table)
    bots = host.bots(table, 1)
    page.wait_for_selector("svg.kp")
    rng = random.Random(7)
    passive = ("done", "end the turn", "no reaction", "keep ")
    moves = 0
    shots: set[str] = set()
    while True:
        found = page.wait_for_selector("#actions button.choice:not([disabled]), #scores",
                                       timeout=TURN_TIMEOUT)
        if found.get_attribute("id") == "scores":
            break
        moves += 1
        assert moves < 600
        if moves % 4 == 1:
            kp_board_matches_view(page, last_view(frames))
        if "board" not in shots and page.query_selector("svg.kp [data-committed]"):
            screenshot(page, f"kaisers-pirates-board-{size}")
            shots.add("board")
        if "face" not in shots and page.query_selector("svg.kp [data-hand] [data-card]"):
            page.click("svg.kp [data-hand] [data-card] >> nth=0")
            face = page.wait_for_selector(".kp-face")
            assert len(face.inner_text()) > 30
            screenshot(page, f"kaisers-pirates-card-open-{size}")
            page.click(".kp-face button[aria-label='close']")
            shots.add("face")
        labels = page.eval_on_selector_all(ENABLED, "bs => bs.map(b => b.innerText)")
        if not labels:
            continue
        calm = [i for i, x in enumerate(labels) if x.startswith(passive)]
        pick = calm[0] if calm and rng.random() < 0.8 else 0
        # One round trip: read the labels, click the chosen button (a long game of
        # Kaiser's Pirates has ~150 decisions; Playwright's checks per click double it).
        page.evaluate("([q, i, text]) => { const b = document.querySelectorAll(q)[i];"
                      " if (b && b.innerText === text) b.click(); }", [ENABLED, pick, labels[pick]])
    assert "Final scores" in page.inner_text("#scores") and page.inner_text("#turn") == "Game over."
    screenshot(page, f"kaisers-pirates-final-{size}")
    assert bots.wait(30) == 0, bots.stdout.read()
    assert moves > 20 and {"board", "face"} <= shots


def test_a_silent_link_is_found_dead_and_the_seat_comes_back(host, phone) -> None:
    """A peer that stops answering (a dropped Wi-Fi link: the socket stays open, nothing
    comes back) is noticed by the page's heartbeat, which shows that it reconnects, and
    the seat resumes once the peer answers again."""
    phone.add_init_script("localStorage.setItem('lantable.heartbeat_ms', '400')")
    table = host.new_table("race", 2, 6, "target=30")
    open_table(phone, host, table)
    host.bots(table, 1)
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    host.proc.send_signal(signal.SIGSTOP)  # the peer goes silent
    try:
        phone.wait_for_selector("#link[data-state='reconnecting']", timeout=10000)
        assert phone.query_selector("#offline")
    finally:
        host.proc.send_signal(signal.SIGCONT)
    phone.wait_for_selector("#link[data-state='online']", timeout=20000)
    phone.wait_for_selector("#actions button.choice:not([disabled])", timeout=TURN_TIMEOUT)
    assert "(you)" in phone.inner_text("ol.players li.me")
    assert play_until_over(phone) > 0
