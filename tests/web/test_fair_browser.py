"""A browser seat takes part in fair play (web/static/fairplay.js), in real headless
Chromium: it commits, reveals and signs on its own, checks every random event, and
the host's journal passes ``lantable verify`` afterwards.

Chromium opens the app on 127.0.0.1, a secure context, so the page uses WebCrypto's
Ed25519; ``lantable.crypto = noble`` makes it use the vendored library instead, as a
phone on ``http://<LAN address>`` (no ``crypto.subtle``) does.
"""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest

from lantable.protocol import fairplay as fp

from .conftest import HostProcess, screenshot
from .test_browser import manila_pick, open_table, play_until_over

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def fair_table(host: HostProcess, game: str, seats: int, *extra: str) -> str:
    out = host.lantable("new", game, "--connect", host.address, "--seats", str(seats),
                        "--fair", *extra)
    match = re.search(r"\b([0-9a-f]{8})\b", out.stdout)
    assert match, out.stdout
    return match.group(1)


def verify(host: HostProcess, table: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lantable.clients.cli", "verify", "--db",
                           str(host.db), "--table", table],
                          capture_output=True, text=True, timeout=120)


def sent_by(page: Any) -> list[dict[str, Any]]:
    """Every message the page sends over its WebSocket, decoded."""
    import msgpack

    got: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: got.append(
        msgpack.unpackb(payload, raw=False) if isinstance(payload, bytes) else {})))
    return got


def open_fair_table_from_the_form(page: Any, host: HostProcess, game: str, seats: int) -> str:
    """A person opens a fair table in the lobby's form (and so sits down at it)."""
    page.goto(host.url)
    page.select_option("#create-game", game)
    page.fill("[name=seats]", str(seats))
    page.check("#create-fair")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#turn")
    page.wait_for_url(re.compile(r"#/table/[0-9a-f]{8}$"))
    return page.url.rsplit("/", 1)[-1]


def play_fair_game(host: HostProcess, page: Any, game: str, seats: int, pick: Any,
                   shot: str, *, reload_after: int = 0,
                   from_form: bool = False) -> list[dict[str, Any]]:
    """The page sits at a new fair table (opened by ``lantable new --fair``, or in the
    page's own form), bots take the other seats, the page plays to the end (reloading
    once after ``reload_after`` moves: its key and chain must survive), and
    ``lantable verify`` passes the host's journal."""
    sent = sent_by(page)
    if from_form:
        table = open_fair_table_from_the_form(page, host, game, seats)
    else:
        table = fair_table(host, game, seats)
        open_table(page, host, table)
    bots = host.bots(table, seats - 1)
    try:
        page.wait_for_selector("#fair")
        if reload_after:
            with pytest.raises(AssertionError, match="no end"):  # not over yet: reload
                play_until_over(page, pick, max_moves=reload_after)
            page.reload()
            page.wait_for_selector("#turn")
            assert "(you)" in page.inner_text(".players")
        play_until_over(page, pick)
        page.wait_for_selector("#fair:has-text('(every seat')")
        screenshot(page, shot)
        assert bots.wait(60) == 0, bots.stdout.read() if bots.stdout else ""
    finally:
        if bots.poll() is None:
            bots.kill()
    result = verify(host, table)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"OK: table {table} (fair play)" in result.stdout, result.stdout
    hello = next(m for m in sent if m.get("t") == "hello")
    assert re.fullmatch(r"[0-9a-f]{64}", hello["key"])
    kinds = [m.get("t") for m in sent]
    assert kinds.count("commit") == 1 and kinds.count("reveal") >= 1
    assert all(isinstance(m.get("sig"), str) and isinstance(m.get("base"), int)
               for m in sent if m.get("t") == "act")
    return sent


def test_a_browser_seat_plays_a_fair_manila_game_with_bots_and_verify_passes(
        host, phone) -> None:
    sent = play_fair_game(host, phone, "manila", 4, manila_pick, "fair-manila-finished",
                          reload_after=4)
    assert phone.query_selector("svg.manila")  # the board stays drawn after the end
    keys = {m["key"] for m in sent if m.get("t") == "hello"}
    assert len(keys) == 1  # the same key after the reload (a CryptoKey in IndexedDB)
    assert phone.evaluate("window.localStorage.getItem('lantable.fairkey')") is None


def test_a_browser_without_webcrypto_plays_fair_with_the_bundled_library(host, browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(host.url)
        page.evaluate("localStorage.setItem('lantable.crypto', 'noble')")
        sent = play_fair_game(host, page, "race", 2, None, "fair-race-noble", from_form=True)
        assert next(m for m in sent if m.get("t") == "create")["fair"] == {}
        chains = page.evaluate("""() => Object.entries(localStorage)
            .filter(([k]) => k.startsWith('lantable.chains.')).map(([, v]) => v)""")
        assert chains == ["{}"]  # the table ended: its chain secret is gone
        key = page.evaluate("localStorage.getItem('lantable.fairkey')")
        assert re.fullmatch(r"[0-9a-f]{64}", key)
    finally:
        context.close()
    assert not errors, errors


# Values with every kind of field a signed array holds: nested maps whose keys sort
# differently as numbers and as text, negative and large integers, nil, long strings.
TRICKY = [fp.DOMAIN, "act", "0a1b2c3d", 3, 70000,
          {"type": "bid", "n": -7, "10": [1, None, True], "2": {"z": "é" * 40, "a": 2**40}}]


@pytest.mark.parametrize("backend", ["webcrypto", "noble"])
def test_the_page_encodes_and_signs_exactly_as_the_python_reference(host, browser,
                                                                    backend) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(host.url)
        page.evaluate(f"localStorage.setItem('lantable.crypto', {backend!r})")
        got = page.evaluate("""async (value) => {
            const f = await window.lantableFair.start();
            const bytes = window.lantableFair.canonical(value);
            return [f.id.kind, f.key, window.lantableFair.hex(bytes), await f.id.sign(bytes),
                    await f.id.sha256(bytes).then(window.lantableFair.hex)];
        }""", TRICKY)
    finally:
        context.close()
    kind, key, encoded, sig, digest = got
    assert kind == backend
    assert encoded == fp.canonical(TRICKY).hex()
    assert digest == fp.sha256(fp.canonical(TRICKY)).hex()
    fp.verify_signature(key, sig, "act", *TRICKY[2:])  # raises if it does not match


def test_a_fair_seat_taken_back_in_another_browser_says_why_it_cannot_move(host,
                                                                          browser) -> None:
    """The seat's token moves to a second browser (a phone died, the laptop takes
    over): it resumes the seat, but it has no chain secret, so it says so instead of
    sending moves the host would refuse."""
    first, second = browser.new_context(), browser.new_context()
    bots = None
    try:
        page = first.new_page()
        table = fair_table(host, "race", 2)
        open_table(page, host, table)
        bots = host.bots(table, 1)
        page.wait_for_selector("#actions button.choice:not([disabled])")  # set up, our move
        seats = page.evaluate("""() => Object.entries(localStorage)
            .filter(([k]) => k.startsWith('lantable.seats.'))""")
        first.close()
        other = second.new_page()
        other.goto(host.url)
        for key, value in seats:
            other.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])
        other.goto(f"{host.url}#/table/{table}")
        other.click("#actions button.choice:not([disabled])")
        notice = other.wait_for_selector("#notice:not([hidden])")
        assert "does not hold this seat's fair-play secret" in notice.inner_text()
        assert "(you)" in other.inner_text(".players")  # the seat is still this page's
        screenshot(other, "fair-seat-in-another-browser")
    finally:
        if bots is not None:
            bots.kill()
        second.close()


# A seat that commits, then never reveals (a client in another language gone wrong).
WITHHOLDER = """
import sys, trio
from lantable.clients.client import open_client
from lantable.protocol import fairplay as fp

async def main(port, table):
    async with open_client("127.0.0.1", port, name="silent", identity=fp.Identity()) as c:
        answer = c.fair.answer
        c.fair.answer = lambda req: None if req.kind == "reveal" else answer(req)
        await c.join(table)
        await trio.sleep(60)

trio.run(main, int(sys.argv[1]), sys.argv[2])
"""


def test_a_seat_that_withholds_is_named_on_the_page_and_forfeits(host, phone) -> None:
    table = fair_table(host, "race", 2, "--fair-timeout", "2")
    open_table(phone, host, table)
    silent = subprocess.Popen([sys.executable, "-c", WITHHOLDER, host.address.split(":")[1],
                               table], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    try:
        phone.wait_for_selector("#scores")
    finally:
        silent.kill()
        silent.wait(10)
    log = phone.inner_text("#log")
    assert "Waiting for seat 1 (silent) to reveal its link for event 1" in log
    assert "Seat 1 (silent) did not reveal its link for event 1 within" in log
    ranks = phone.inner_text("#scores")
    assert ranks.index("player-") < ranks.index("silent (forfeit)")  # the withholder is last
    assert "no random event was settled" in phone.inner_text("#fair")
    screenshot(phone, "fair-withheld-390x844")
    result = verify(host, table)
    assert result.returncode == 0 and "withheld" in result.stdout, result.stdout
