"""Blackbeard's browser board (plugins/blackbeard/web/board.js).

- The game data it carries matches the game (``web_data.board_data``).
- What it draws matches the view: every piece on the map, every Pirate Display, every
  card of the hand and every count appears exactly once (found by its data-
  attributes), for views met in seeded self-play; every tappable place names one of
  the seat's legal actions.
- A person plays a whole (short) game in the browser by clicking, bots in the other
  seats, at 1280x800 and 390x844; screenshots in tests/artifacts/.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from lantable.plugins import load_registry
from lantable.plugins.blackbeard.web_data import END, START, board_data

from .test_browser import TURN_TIMEOUT, open_table
from .webhost import HostProcess

GAME = load_registry(autoload=True).games["blackbeard"]
BOARD = Path(GAME.web_renderer().joinpath("board.js"))
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
NAMES = ["Anne", "Bart", "Calico", "Dido", "Ned"]

# The renderer contract's helpers, as the app gives them (web/static/app.js).
SHIM = """
<!doctype html><html><body><div id="board" data-board="blackbeard"></div><script>
window.lantable = {
  registerRenderer(id, r) { window.R = r; },
  svg(tag, attrs = {}, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = v; else node.setAttribute(k, v);
    }
    for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) node.append(c);
    return node;
  },
};
window.acted = [];
window.draw = (update, seat) => {
  const ctx = { seat, names: __NAMES__, legal: update.legal, labels: update.labels, busy: false,
    act: (a) => window.acted.push(a), svg: window.lantable.svg, game: "blackbeard" };
  window.R.render(document.getElementById("board"), update, ctx);
  const all = (sel, attr) => [...document.querySelectorAll(sel)].map((n) => n.getAttribute(attr));
  const pairs = (sel, a, b) => [...document.querySelectorAll(sel)]
    .map((n) => [n.getAttribute(a), n.getAttribute(b)]);
  return {
    pirates: all("[data-pirate]", "data-pirate"),
    merchants: all("[data-merchant]", "data-merchant"),
    warships: all("[data-ws]", "data-ws"), kcs: all("[data-kc]", "data-kc"),
    displays: all("[data-display]", "data-display"), cards: all("[data-card]", "data-card"),
    ports: pairs("[data-port]", "data-port", "data-governor"),
    counts: Object.fromEntries(pairs("[data-count]", "data-count", "data-value")),
    hands: all("[data-hand-size]", "data-hand-size"),
    taps: all(".tap[data-action]", "data-action"),
    text: document.getElementById("board").textContent,
  };
};
</script></body></html>
""".replace("__NAMES__", json.dumps(NAMES))


def test_the_board_carries_the_games_data() -> None:
    """Regenerate with LANTABLE_REGEN_BOARD=1 after changing data.json."""
    source = BOARD.read_text(encoding="utf-8")
    a, b = source.index(START) + len(START), source.index(END)
    want = "\n  const DATA = " + json.dumps(board_data(), separators=(",", ":"),
                                          ensure_ascii=False) + ";\n  "
    if os.environ.get("LANTABLE_REGEN_BOARD"):
        BOARD.write_text(source[:a] + want + source[b:], encoding="utf-8")
        return
    assert source[a:b] == want, "board.js's data is stale: LANTABLE_REGEN_BOARD=1 pytest " \
        "tests/web/test_blackbeard_board.py"


def _positions() -> list[tuple[dict[str, Any], int, list[Any], list[str]]]:
    """Views of seated players met in seeded self-play (a busy chooser), with their
    legal actions and labels."""
    out = []
    for seed, seats in ((1, 3), (2, 4), (3, 5), (4, 2)):
        rng, chooser = random.Random(seed), random.Random(seed + 99)
        S = GAME.setup(seats, {"governors_module": True} if seed % 2 else {}, rng)
        n = 0
        while GAME.to_act(S):
            seat = GAME.to_act(S)[0]
            legal = GAME.legal_actions(S, seat)
            if n % 9 == 0:
                view = GAME.view(S, seat)
                out.append((view, seat, legal,
                            [GAME.describe(view, seat, a, NAMES[:seats]) for a in legal]))
            busy = [a for a in legal if a["type"] not in ("pass", "end_turn", "keep", "done")]
            pick = chooser.choice(busy) if busy and chooser.random() < 0.8 else legal[-1]
            GAME.apply(S, seat, pick, rng)
            n += 1
    return out


def test_what_is_drawn_matches_the_view(browser) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_content(SHIM)
    page.add_script_tag(content=BOARD.read_text(encoding="utf-8"))
    positions = _positions()
    assert len(positions) > 40
    tapped = 0
    for view, seat, legal, labels in positions:
        got = page.evaluate("([u, seat]) => window.draw(u, seat)",
                            [{"view": view, "legal": legal, "labels": labels}, seat])
        pirates = view["pirates"]
        on_map = [p["id"] for p in pirates if p["status"] in ("map", "adrift")]
        assert sorted(map(int, got["pirates"])) == sorted(on_map)
        shown = [p["id"] for p in pirates if p["owner"] is not None and p["status"] != "deck"
                 and (p["status"] != "reserve" or p["owner"] == seat)]
        assert sorted(map(int, got["displays"])) == sorted(shown)
        assert sorted(map(int, got["merchants"])) == sorted(m["slot"] for m in view["merchants"])
        assert sorted(map(int, got["warships"])) == sorted(w["slot"] for w in view["warships"])
        assert sorted(map(int, got["kcs"])) == sorted(k["id"] for k in view["commissioners"])
        assert sorted(map(int, got["cards"])) == sorted(view["hand"])
        ports = sorted((int(i), g) for i, g in got["ports"])
        assert ports == [(i, g or "none") for i, g in enumerate(view["governors"])]
        assert got["counts"] == {"deck": str(view["deck_size"]),
                                 "general-pardons": str(view["general_pardons"])}
        assert list(map(int, got["hands"])) == view["hand_sizes"]
        for raw in got["taps"]:
            assert json.loads(raw) in legal
        tapped += len(got["taps"])
        assert "undefined" not in got["text"] and "NaN" not in got["text"]
    assert tapped > 20
    page.close()
    assert not errors, errors


def _seat_page(browser: Any, size: dict[str, int]) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=size, has_touch=size["width"] < 500,
                                  is_mobile=size["width"] < 500, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return context, page, errors


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _play(page: Any, tag: str) -> dict[str, int]:
    """Play seat 0 to the end: tap the map when it offers something (a place or a piece
    of the board), else the first choice button that is not a pass; photograph the
    board once pieces are at sea and again at the end."""
    done = {"map": 0, "buttons": 0}
    shot = False
    for _ in range(400):
        found = page.wait_for_selector(
            "#actions button.choice:not([disabled]), #scores", timeout=TURN_TIMEOUT)
        if found.get_attribute("id") == "scores":
            _shot(page, f"blackbeard-final-{tag}")
            return done
        if not shot and page.query_selector("[data-board] svg [data-pirate]"):
            _shot(page, f"blackbeard-board-{tag}")
            shot = True
        taps = page.query_selector_all("[data-board] svg .tap")
        if taps and done["map"] <= done["buttons"]:
            try:  # a place's name, a port, a piece: where a person's finger goes
                box = taps[0].bounding_box()
                page.mouse.click(box["x"] + min(8, box["width"] / 2),
                                 box["y"] + min(8, box["height"] / 2))
                done["map"] += 1
                page.wait_for_timeout(150)
                continue
            except Exception:
                pass
        buttons = page.query_selector_all("#actions button.choice:not([disabled])")
        try:
            labels = [b.inner_text() for b in buttons]
            pick = next((i for i, t in enumerate(labels)
                         if not t.startswith(("end your turn", "let ", "give up"))), 0)
            buttons[pick].click(timeout=2000)
            done["buttons"] += 1
        except Exception:  # redrawn under the click: look again
            continue
        page.wait_for_timeout(30)
    raise AssertionError("no end after 400 moves")


# One whole game, on the phone (whole games run once; the laptop layout is checked by
# this file's other tests and test_whole_games.py's final 1280x800 screenshot).
@pytest.mark.parametrize(("size", "tag"), [({"width": 390, "height": 844}, "390x844")])
def test_a_person_plays_a_whole_blackbeard_game_in_the_browser(host: HostProcess, browser,
                                                               size, tag) -> None:
    """Three seats, the game ends after 6 Player-Turns (max_turns): the shortest game."""
    table = host.new_table("blackbeard", 3, 5, "max_turns=6")
    context, page, errors = _seat_page(browser, size)
    try:
        open_table(page, host, table)
        bots = host.bots(table, 2)
        page.wait_for_selector("[data-board='blackbeard'] svg")
        done = _play(page, tag)
        assert "Final scores" in page.inner_text("#scores")
        assert bots.wait(60) == 0, bots.stdout.read()
        assert done["map"] >= 1, done  # at least one move made by tapping the board
    finally:
        context.close()
    assert not errors, errors
