"""The boards drawn match the views: a seeded game of each game is played by bots in
Python, and after every move the seat's update is drawn by the game's own board.js in
headless Chromium (outside the app, tests/web/boardpage.py). Every piece, count and card
the view holds must appear once on the board, read back through its data- attributes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from lantable.clients.bots import make_bot
from lantable.plugins import load_registry

from .boardpage import draw, open_board

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

REGISTRY = load_registry()
GOODS = ["nutmeg", "silk", "ginseng", "jade"]
NAMES = ["ann", "bob", "cy", "dee", "eve"]


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def seeded_updates(game_id: str, seats: int, seed: int, watch: int,
                   options: dict[str, Any] | None = None,
                   limit: int = 2000) -> Iterator[dict[str, Any]]:
    """The updates seat ``watch`` receives in a seeded game of random bots: its view,
    its legal actions and labels, and the events it may see."""
    game = REGISTRY[game_id]
    rng = random.Random(seed)
    state = game.setup(seats, dict(options or {}), rng)
    bot = make_bot("random", game)
    names = NAMES[:seats]
    events: list[dict[str, Any]] = []
    for _ in range(limit):
        to_act = game.to_act(state)
        view = game.view(state, watch)
        legal = game.legal_actions(state, watch) if watch in to_act else []
        yield {"table": "t1", "seq": 1, "view": view, "to_act": to_act, "legal": legal,
               "labels": [game.describe(view, watch, a, names) for a in legal],
               "events": [e for e in events if "to" not in e or watch in e["to"]]}
        if not to_act:
            return
        seat = to_act[0]
        action = bot.choose(game.view(state, seat), seat, game.legal_actions(state, seat), rng)
        events = game.apply(state, seat, action, rng)


MANILA_READ = """() => {
  const all = (q) => [...document.querySelectorAll('#board ' + q)];
  return {
    boats: all('g.boat').map((g) => [+g.dataset.boat, g.dataset.good, g.dataset.where,
                                     +g.dataset.pos]),
    crew: all('[data-crew]').map((g) => [g.dataset.crew, +g.querySelector('circle').dataset.seat]),
    spaces: all('g.spot').map((g) => [g.dataset.space,
                                      g.dataset.seat === '' ? null : +g.dataset.seat]),
    prices: all('g.price').map((g) => [g.dataset.good, +g.dataset.price, +g.dataset.supply]),
    players: all('g.player').map((g) => [+g.dataset.player, g.dataset.cash, +g.dataset.shares,
                                       +g.dataset.mortgaged, +g.dataset.left]),
    mine: all('[data-my-share]').map((g) => [g.dataset.myShare, +g.dataset.count,
                                             +g.dataset.mortgaged]),
    payouts: all('[data-payout]').map((g) => [+g.dataset.payout, +g.dataset.total]),
    summary: all('g.voyage-summary').map((g) => +g.dataset.voyage),
    header: all('[data-header]').map((t) => t.textContent),
    svg: all('svg').length,
  };
}"""


def manila_expected(view: dict[str, Any], seat: int) -> dict[str, Any]:
    where = ["sea", "manila", "shipyard"]
    spaces = [*((f"dock {s}", view["docks"][i]) for i, s in enumerate("ABC")),
              *((f"shipyard {s}", view["yards"][i]) for i, s in enumerate("ABC")),
              ("pirate captain", view["pirates"][0]), ("second pirate", view["pirates"][1]),
              ("small pilot", view["pilots"][0]), ("large pilot", view["pilots"][1]),
              ("insurance", view["insurance"])]
    spaces = [list(x) for x in spaces]
    cash = view.get("cash")
    return {
        "boats": [[b, GOODS[g], where[view["where"][b]], view["pos"][b]]
                  for b, g in enumerate(view["goods"])],
        "crew": sorted([f"{b}:{k}", s] for b, crew in enumerate(view["crew"])
                       for k, s in enumerate(crew)),
        "spaces": sorted(spaces, key=lambda x: x[0]),
        "prices": [[g, view["prices"][g], view["supply"][i]] for i, g in enumerate(GOODS)],
        "players": [[p, str(cash[p] if cash else view["my_cash"] if p == seat else "?"),
                     view["shares"][p], view["mortgaged"][p], view["left"][p]]
                    for p in range(view["n"])],
        "mine": [[g, c, view["my_mort"][GOODS.index(g)]] for g, c in view["my_shares"].items()
                 if c],
    }


def payouts_of(events: list[dict[str, Any]]) -> dict[int, int]:
    """Each seat's payouts in the events that end a voyage (4.9): from the last roll on."""
    end = next(i for i, e in enumerate(events) if e["type"] == "prices")
    start = max((i for i, e in enumerate(events[:end]) if e["type"] == "roll"), default=0)
    out: dict[int, int] = {}
    for e in events[start:end]:
        if e["type"] == "cash" and e["why"] != "mortgage":
            out[e["seat"]] = out.get(e["seat"], 0) + e["delta"]
    return out


@pytest.mark.parametrize(("seats", "seed"), [(3, 2), (5, 8)])
def test_manila_board_draws_every_piece_of_the_view_once(page, seats, seed) -> None:
    open_board(page, "manila")
    seen_where: set[str] = set()
    summaries = 0
    launch_steps = 0
    for update in seeded_updates("manila", seats, seed, watch=0):
        view = update["view"]
        handled = draw(page, "manila", update, 0, NAMES[:seats])
        got = page.evaluate(MANILA_READ)
        want = manila_expected(view, 0)
        assert got["svg"] == 1
        assert sorted(got["boats"]) == want["boats"]
        assert sorted(got["crew"]) == want["crew"]
        assert sorted(got["spaces"], key=lambda x: x[0]) == want["spaces"]
        assert got["prices"] == want["prices"]
        assert got["players"] == want["players"]
        assert got["mine"] == want["mine"]
        # The title and the harbour master are on lines of their own (never drawn over).
        assert len(got["header"]) == 2
        if view["hm"] is not None:
            assert got["header"][1] == f"♛ Harbour master: {NAMES[view['hm']]}"
        seen_where |= {b[2] for b in got["boats"]}
        if any(e["type"] == "prices" for e in update["events"]):
            assert got["summary"] == [view["voyage"] - (0 if view["over"] else 1)]
            assert dict(got["payouts"]) == payouts_of(update["events"])
            summaries += 1
        launches = [i for i, a in enumerate(update["legal"]) if a["type"] == "launch"]
        if launches:  # the load picker takes every launch action out of the list
            assert handled == launches and len(launches) == 100
            launch_steps += 1
        else:
            assert handled is None
    assert {"sea", "manila", "shipyard"} <= seen_where and summaries >= 2
    assert launch_steps >= 1
