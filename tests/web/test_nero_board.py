"""Nero's browser board (plugins/nero/web/board.js): a person plays a whole short game
on a phone by clicking (the board's map for the province choices, the list of choices
for the rest) against two bots, while a desktop browser watches; at every move the
board shows exactly what the view holds (every Legion count, Retreat marker, Leader,
Germanic Tribes marker, card and VP once). Screenshots at 390x844 and 1280x800 go to
tests/artifacts/ for a person to look at."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from lantable.plugins.nero.web_board import map_data, map_text

from .test_browser import TURN_TIMEOUT, frames_of, open_table

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
DESKTOP = {"width": 1280, "height": 800}

DRAWN = """() => {
  const board = document.querySelector('[data-board=nero]');
  if (!board) return null;
  const prov = (e) => +e.closest('[data-province]').dataset.province;
  const all = (sel) => [...board.querySelectorAll(sel)];
  return {
    legions: all('[data-piece=legions]').map(e => [prov(e), +e.dataset.seat, +e.dataset.count]),
    retreat: all('[data-piece=retreat]').map(e => [prov(e), +e.dataset.seat, +e.dataset.count]),
    leaders: all('[data-piece=leader]').map(e => [prov(e), +e.dataset.seat, e.dataset.rank]),
    germanic: all('[data-piece=germanic]').map(e => +e.dataset.province),
    cards: all('[data-card]').map(e => +e.dataset.card),
    vp: all('[data-vp-seat]').map(e => [+e.dataset.vpSeat, +e.dataset.vp]),
    svg: !!board.querySelector('svg.nero-map'),
  };
}"""


def expected(view: dict[str, Any]) -> dict[str, Any]:
    """What the board must draw for ``view``: each piece and count once."""
    legions: Counter[tuple[int, int]] = Counter()
    marked: Counter[tuple[int, int]] = Counter()
    for lg in view["legions"]:
        legions[(lg["province"], lg["owner"])] += 1
        if lg["retreat_marker"]:
            marked[(lg["province"], lg["owner"])] += 1
    return {
        "legions": sorted([p, s, k] for (p, s), k in legions.items()),
        "retreat": sorted([p, s, k] for (p, s), k in marked.items()),
        "leaders": sorted([ld["location"], s, ld["rank"]] for s, ld in enumerate(view["leaders"])
                          if ld["location"] is not None),
        "germanic": sorted(view["germanic_tribes"]),
        "cards": sorted(view.get("hand", [])),
        "vp": sorted([s, vp] for s, vp in enumerate(view["vp"])),
        "svg": True,
    }


def drawn(page: Any) -> dict[str, Any] | None:
    got = page.evaluate(DRAWN)
    if got is None:
        return None
    return {k: sorted(v) if isinstance(v, list) else v for k, v in got.items()}


def last_view(frames: list[dict[str, Any]]) -> dict[str, Any] | None:
    views = [f["view"] for f in frames if f.get("t") == "update" and f.get("view")]
    return views[-1] if views else None


def assert_board_matches(page: Any, frames: list[dict[str, Any]]) -> None:
    """The board drawn equals the latest view (polled: an update may be on its way)."""
    want = got = None
    for _ in range(40):
        view = last_view(frames)
        want = expected(view) if view else None
        got = drawn(page)
        if want is not None and got == want:
            return
        page.wait_for_timeout(50)
    assert got == want


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=True)
    return path


QUICK = ("discard ", "end your round", "let it happen", "stay in", "fight with no battle cards",
         "grant passage", "stop this army here", "end this movement")


def test_nero_map_json_is_the_games_own_data() -> None:
    """plugins/nero/web/map.json is written from data.py (python -m
    lantable.plugins.nero.web_board) and must not drift from it."""
    path = Path(__file__).resolve().parents[2] / "plugins" / "nero" / "web" / "map.json"
    assert path.read_text(encoding="utf-8") == map_text()
    data = json.loads(map_text())
    assert len(data["provinces"]) == 22 and len(data["cards"]) == 55
    assert data == map_data()


def test_a_person_plays_a_whole_short_nero_game_by_clicking(host, phone, browser) -> None:
    table = host.new_table("nero", 3, 11, "short_game=true")
    frames = frames_of(phone)
    open_table(phone, host, table)
    bots = host.bots(table, 2)
    # A desktop browser watches the same table (the spectator's board).
    desk = browser.new_context(viewport=DESKTOP).new_page()
    desk_errors: list[str] = []
    desk.on("pageerror", lambda exc: desk_errors.append(str(exc)))
    desk_frames = frames_of(desk)
    desk.goto(f"{host.url}#/table/{table}/watch")
    phone.wait_for_selector("[data-board=nero] svg.nero-map", timeout=TURN_TIMEOUT)

    moves = taps = 0
    marched = stepped = False
    window_shot = False
    while moves < 500:
        found = phone.wait_for_selector("#actions button.choice:not([disabled]), #scores",
                                        timeout=TURN_TIMEOUT)
        if found.get_attribute("id") == "scores":
            break
        assert_board_matches(phone, frames)
        buttons = phone.query_selector_all("#actions button.choice:not([disabled])")
        labels = [b.inner_text() for b in buttons]
        if not buttons:
            continue
        tap = phone.query_selector("[data-board=nero] g.tap[data-action]")
        prompt = phone.query_selector("[data-prompt]")
        if prompt and not window_shot and prompt.get_attribute("data-prompt") == "window":
            window_shot = True
            shot(phone, "nero-answer-window-390x844")
        try:
            if tap is not None and not stepped:
                # A province choice (setup, a step, a retreat): tap it on the map.
                index = tap.get_attribute("data-action")
                label = phone.inner_text(f"#actions button.choice[data-index='{index}']")
                if label.startswith("step to"):
                    shot(phone, "nero-step-390x844")
                    shot(desk, "nero-step-1280x800")
                    stepped = True
                tap.click(timeout=2000)
                taps += 1
            elif not stepped and any(lb.startswith("move ") and "Legion" in lb for lb in labels):
                i = next(i for i, lb in enumerate(labels)
                         if lb.startswith("move ") and "Legion" in lb)
                buttons[i].click(timeout=2000)
                marched = True
            else:
                quick = [i for i, lb in enumerate(labels) if lb.startswith(QUICK)]
                buttons[quick[0] if quick else 0].click(timeout=2000)
        except Exception:  # the screen was redrawn under the click; look again
            continue
        moves += 1
        if moves == 12:
            shot(phone, "nero-midgame-390x844")
    else:
        raise AssertionError("no end after 500 moves")
    assert marched and stepped and taps >= 4, (marched, stepped, taps)
    assert "Final scores" in phone.inner_text("#scores")
    shot(phone, "nero-final-390x844")
    desk.wait_for_selector("#scores", timeout=TURN_TIMEOUT)
    assert_board_matches(desk, desk_frames)
    shot(desk, "nero-final-1280x800")
    assert bots.wait(60) == 0, bots.stdout.read() if bots.stdout else ""
    desk.context.close()
    assert not desk_errors, f"JavaScript errors on the desktop page: {desk_errors}"
