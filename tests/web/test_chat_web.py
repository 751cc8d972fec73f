"""Chat, your-turn alerts and a rematch in the page (issue 30, items 1, 4 and 5), in
real headless Chromium against a real ``lantable host``. Screenshots go to
tests/artifacts/web-chat/.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .test_browser import frames_of
from .test_seats_web import open_race, person
from .webhost import HostProcess, late

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "web-chat"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


# A page whose alerts are counted: sounds made, vibrations, notifications shown (as if
# allowed, on a page that is not in front).
ALERTS_SEEN = """
window.__seen = { beeps: 0, vibrations: 0, notes: [] };
const made = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__seen.beeps += 1;
  return made.call(this);
};
navigator.vibrate = () => { window.__seen.vibrations += 1; return true; };
window.Notification = class { constructor(title) { window.__seen.notes.push(title); } };
window.Notification.permission = "granted";
window.Notification.requestPermission = () => Promise.resolve("granted");
Object.defineProperty(document, "hidden", { get: () => true });
"""


def until(check: Any, timeout: float = 10, page: Any = None) -> None:
    """Wait for ``check()`` (the page's policy forbids wait_for_function's eval). With
    ``page``, wait through it: Playwright's sync API hands over events (WebSocket frames
    for frames_of) only inside its own calls, never during time.sleep."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        if page is not None:
            page.wait_for_timeout(50)
        else:
            time.sleep(0.05)


def say(page: Any, text: str) -> None:
    """Type a line and send it (the box empties as it goes)."""
    box = page.locator("section.chat input.chat-input")
    box.fill(text)
    box.press("Enter")


def chat_texts(page: Any) -> list[str]:
    return [li.inner_text() for li in page.query_selector_all("ol.chat-lines li.chat-line")]


def test_two_pages_chat_at_a_table_a_spectator_apart_and_a_mute(host: HostProcess,
                                                                browser: Any) -> None:
    ann, bo, cy = person(browser, "ann"), person(browser, "bo"), person(browser, "cy")
    bo.add_init_script(ALERTS_SEEN)
    wire = frames_of(ann)
    table = open_race(ann, host, seats=2, target=30)
    bo.goto(host.url)
    bo.click(f"li[data-table='{table}'] button.primary")
    bo.wait_for_selector("#turn:not(:has-text('Waiting for 1 more'))")
    cy.goto(f"{host.url}#/table/{table}/watch")
    cy.wait_for_selector("section.chat")
    # Plain text both ways: markup in a line is shown as typed, never made into markup.
    say(ann, "<b>good</b> luck bo")
    bo.wait_for_selector("li.chat-line:has-text('luck bo')")
    line = bo.query_selector("li.chat-line:has-text('luck bo')")
    assert line.inner_text().startswith("ann") and \
        line.query_selector(".chat-text").inner_text() == "<b>good</b> luck bo"
    assert not bo.query_selector("ol.chat-lines b")
    say(bo, "thanks, you too")
    ann.wait_for_selector("li.chat-line:has-text('thanks, you too')")
    cy.wait_for_selector("li.chat-line:has-text('thanks, you too')")
    # The spectator's line reaches the spectators only, never a player in the game.
    say(cy, "ann should move 2")
    cy.wait_for_selector("li.chat-line.spectators:has-text('ann should move 2')")
    assert "players read them when the game is over" in cy.inner_text("p.chat-means")
    say(bo, "are you there?")
    ann.wait_for_selector("li.chat-line:has-text('are you there?')")
    assert not any("ann should move 2" in x for x in chat_texts(ann))
    # bo mutes ann: her next line does not show on bo's page; cy still reads it.
    bo.click("li.chat-line:has-text('luck bo') button.chat-mute")
    bo.wait_for_selector("p.chat-muted:has-text('ann (unmute)')")
    say(ann, "you will never read this")
    cy.wait_for_selector("li.chat-line:has-text('you will never read this')")
    time.sleep(0.5)
    assert not any("never read" in x for x in chat_texts(bo))
    shot(ann, "1-ann-player")
    shot(cy, "2-cy-spectator")
    shot(bo, "3-bo-muted-ann")
    # The flood: the host refuses past its burst, in words; a refused line shows nowhere.
    for i in range(7):
        say(ann, f"spam {i}")

    def answers() -> list[dict[str, Any]]:
        return [f for f in wire if f.get("code") == "too_fast" or (
            f.get("t") == "chat_message" and f.get("id") and f["text"].startswith("spam"))]

    until(lambda: any(f["t"] == "error" for f in answers()), page=ann)
    refused = [f for f in answers() if f["t"] == "error"]
    assert "you are chatting too fast" in refused[0]["message"]
    ann.wait_for_timeout(500)  # the rest of the answers (frames come in during a call)
    accepted = {f["text"] for f in answers() if f["t"] == "chat_message"}
    shown = {x.removeprefix("ann ") for x in chat_texts(ann) if "spam" in x}
    assert shown == accepted and 3 <= len(accepted) <= 6  # the burst left: 5, less 2 said
    # Your turn: the title and icon say it on the page that must move, not the other.
    mover, other = (ann, bo) if "Your move" in ann.inner_text("#turn") else (bo, ann)
    until(lambda: mover.evaluate("document.title").startswith("▶ Your move"))
    assert mover.evaluate("document.querySelector('link[rel=icon]').href").startswith("data:")
    assert not other.evaluate("document.title").startswith("▶")
    assert other.evaluate("document.querySelector('link[rel=icon]').href").endswith("icon.svg")
    # bo turns the sound on (it beeps once to say how it sounds); when ann has moved,
    # bo's turn comes: a beep, a vibration, and (bo's page being hidden) a notification.
    assert mover is ann
    bo.check("#turn-sound")
    assert bo.evaluate("window.__seen.beeps") == 1
    ann.click("#actions button.choice")
    until(lambda: bo.evaluate("document.title").startswith("▶ Your move"))
    until(lambda: bo.evaluate("window.__seen.beeps") == 2)
    seen = bo.evaluate("window.__seen")
    assert seen["vibrations"] == 1 and seen["notes"] == ["Your move"]
    # Nothing the spectators said ever reached ann's connection.
    assert not [f for f in wire if f.get("t") == "chat_message" and f["room"] != "players"]
    assert any(f.get("t") == "chat_message" and f["text"] == "are you there?" for f in wire)
    for page in (ann, bo, cy):
        assert not page.errors, page.errors


def test_lobby_chat_and_the_plain_http_notice(host: HostProcess, browser: Any) -> None:
    ann, bo = person(browser, "ann"), person(browser, "bo")
    # A LAN page on plain http is no secure context (loopback is one, so say it is not).
    bo.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    ann.goto(host.url)
    bo.goto(host.url)
    say(ann, "who plays Race?")
    bo.wait_for_selector("#lobby-chat li.chat-line:has-text('who plays Race?')")
    shot(bo, "0-lobby-chat")
    table = open_race(bo, host, seats=2, target=30)
    notice = bo.wait_for_selector("#no-notify")
    assert "plain http" in notice.inner_text()
    bo.check("#turn-sound")
    shot(bo, "4-bo-waiting-plain-http")
    assert table
    for page in (ann, bo):
        assert not page.errors, page.errors


def test_a_late_chat_script_still_tells_the_host_the_stored_mutes(host: HostProcess,
                                                                  browser: Any) -> None:
    """chat.js (after app.js in index.html) arrives a second late: the page connects
    only once every deferred script ran, so chat.js hears the first welcome and sends
    the names muted on this browser (the host forgets them with each connection)."""
    ann = person(browser, "ann")
    ann.add_init_script("if (location.protocol === 'http:') "
                        "localStorage.setItem('lantable.muted', JSON.stringify(['bo']))")
    wire = frames_of(ann)
    ann.route("**/static/chat.js", late)
    ann.goto(host.url)
    until(lambda: any(f.get("t") == "muted" for f in wire), page=ann)
    assert [f["names"] for f in wire if f.get("t") == "muted"] == [["bo"]]
    assert ann.query_selector("#lobby-chat p.chat-muted:has-text('bo (unmute)')")
    assert not ann.errors, ann.errors


def test_a_rematch_on_manila_with_the_same_people_seats_rotated(host: HostProcess,
                                                                browser: Any) -> None:
    """Two people and a page bot finish a Manila game (their seats handed to bots, to
    keep it short), then play again: the bot comes along, seats rotated."""
    ann, bo = person(browser, "ann"), person(browser, "bo")
    ann.goto(host.url)
    ann.wait_for_selector("form#create button[type=submit]")
    ann.select_option("#create-game", "manila")
    ann.fill("form#create input[name=seats]", "3")
    ann.click("form#create button[type=submit]")
    ann.wait_for_selector("#turn:has-text('Waiting for')")
    table = ann.evaluate("location.hash").split("/")[-1]
    bo.goto(host.url)
    bo.click(f"li[data-table='{table}'] button.primary")
    bo.wait_for_selector("#turn:has-text('Waiting for 1 more')")
    ann.select_option("#add-bot-strategy", "random")
    ann.click("form.add-bot button[type=submit], #bots button.primary")
    for page in (ann, bo):
        page.locator("#have-to-go summary").click()  # a locator: found again if redrawn
        page.locator("#own-bot-strategy").select_option("random")
        page.locator("button.hand-own").click()
        page.wait_for_selector("#notice:has-text('A bot plays your seat now')")
    started = time.monotonic()
    for page in (ann, bo):
        page.wait_for_selector("#scores", timeout=240_000)
    print(f"three random page bots played Manila in {time.monotonic() - started:.1f} s")
    ann.click("#play-again")
    ann.wait_for_url(lambda url: table not in url)
    new = ann.evaluate("location.hash").split("/")[-1]
    offer = bo.wait_for_selector("#rematch h2:has-text('ann asks for a rematch')")
    assert offer
    shot(bo, "5-bo-rematch-offered")
    seats_text = bo.inner_text("ul.rematch-seats")
    assert "ann: in" in seats_text and "bo: asked" in seats_text and "(bot): in" in seats_text
    bo.click("#play-again")
    bo.wait_for_url(lambda url: new in url)
    for page in (ann, bo):
        page.wait_for_selector("section.table-screen[data-status='playing']")
    names = [li.inner_text() for li in bo.query_selector_all("ol.players li")]
    # ann sat at seat 0, bo at 1, the bot at 2: now the bot is first, then ann, then bo.
    assert names[1].startswith("ann") and names[2].startswith("bo") and "bot" in names[0].lower()
    shot(bo, "6-bo-rematch-playing")
    for page in (ann, bo):
        assert not page.errors, page.errors
