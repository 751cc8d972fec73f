"""The boards drawn match the views: a seeded game of each game is played by bots in
Python, and after every move the seat's update is drawn by the game's own board.js in
headless Chromium (outside the app, tests/web/boardpage.py). Every piece, count and card
the view holds must appear once on the board, read back through its data- attributes."""

from __future__ import annotations

import random
import re
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


KP_READ = """() => {
  const all = (q) => [...document.querySelectorAll('#board ' + q)];
  return {
    ships: all('g.ship').map((g) => [+g.dataset.ship, +g.dataset.owner, +g.dataset.damage]),
    players: all('g.player').map((g) => [+g.dataset.player, +g.dataset.handN, +g.dataset.vp,
                                       +g.dataset.rp, +g.dataset.vpPile]),
    piles: all('g.vp-pile').map((g) => [+g.dataset.seat,
      [...g.querySelectorAll('[data-vp-entry]')].map((e) => e.dataset.vpEntry)]),
    committed: all('[data-committed]').map((g) => [+g.dataset.committed, g.dataset.use,
      g.dataset.played === '1', g.dataset.cardId === '' ? null : +g.dataset.cardId]),
    hand: all('[data-hand] [data-card]').map((g) => +g.dataset.card),
    decks: all('[data-deck]').map((g) => ({...g.dataset})),
    banner: all('g.pending, g.reaction').map((g) => g.textContent),
    scoring: all('g.scoring').map((g) => g.textContent),
    svg: all('svg').length,
  };
}"""


def kp_expected(view: dict[str, Any]) -> dict[str, Any]:
    from lantable.plugins.kaisers_pirates.text import _vp

    players = view["players"]
    T = view["this_turn"]
    discards = len(view["discards"]) if view["discards"] is not None else view["discards_n"]
    return {
        "ships": sorted([sid, seat, view["ships"][sid]["damage"]] for seat, p in enumerate(players)
                        for sid in p["german"] + p["merchants"]),
        "players": [[seat, p["hand_n"], _vp(view, seat), p["round_points"], len(p["vp_pile"])]
                    for seat, p in enumerate(players)],
        "piles": [[seat, [f"ship:{e['ship']}" if "ship" in e else f"card:{e['card']}"
                          for e in p["vp_pile"]]] for seat, p in enumerate(players)],
        "committed": [[i, e["use"], e["played"], e["card"]]
                      for i, e in enumerate(T["committed"] if T else [])],
        "hand": list(view["me"]["hand"]),
        "decks": [{"deck": "action", "n": str(view["action_deck_n"]), "discards": str(discards)},
                  {"deck": "ships", "german": str(view["german_deck_n"]),
                   "merchants": str(view["merchant_deck_n"])}],
    }


@pytest.mark.parametrize(("seats", "seed", "options"), [
    (2, 1, {}), (4, 3, {"team_game": True}), (1, 2, {})])
def test_kaisers_pirates_board_draws_every_ship_card_and_pile_of_the_view_once(
        page, seats, seed, options) -> None:
    open_board(page, "kaisers-pirates")
    kinds: dict[str, set[str]] = {}
    for n, update in enumerate(seeded_updates("kaisers-pirates", seats, seed, watch=0,
                                              options=options, limit=700)):
        if n % 4 and update["to_act"]:  # every fourth move (and the end) keeps the test short
            continue
        view = update["view"]
        draw(page, "kaisers-pirates", update, 0, NAMES[:seats])
        got = page.evaluate(KP_READ)
        want = kp_expected(view)
        assert got["svg"] == 1
        assert sorted(got["ships"]) == want["ships"]
        for key in ("players", "piles", "committed", "hand", "decks"):
            assert got[key] == want[key], key
        rp = view["n_players"]
        assert got["scoring"] and f"the most VP scores {rp}," in got["scoring"][0]
        pend = view["pending"]
        if pend:
            (banner,) = got["banner"]
            kinds.setdefault(pend["kind"], set()).add(banner)
    banners = {b for seen in kinds.values() for b in seen}
    assert {"commit", "resolve"} <= set(kinds)
    for banner in banners:  # sentences in grammar: "You commit", never "You commits"
        assert re.fullmatch(r"\S.*\S[.!]", banner), banner
        assert not re.match(r"You (\w+s|passage|late|post|keep) ", banner), banner
        assert "_" not in banner and "  " not in banner, banner
    assert "You commit cards face down." in kinds["commit"] or \
        any(b.endswith(" commits cards face down.") for b in kinds["commit"])


@pytest.mark.parametrize(("kind", "mine", "banner"), [
    ("commit", True, "You commit cards face down."),
    ("commit", False, "bob commits cards face down."),
    ("passage", True, "You may try a passage."),
    ("passage", False, "bob may try a passage."),
    ("resolve", True, "You play your committed cards."),
    ("discard", True, "You discard."),
    ("order", False, "bob orders the top cards of the deck."),
    ("react", True, "Your reaction: attacked! Play a card below, or decline."),
    ("late", True, "Your reaction: a merchant sank earlier. Answer below, or decline."),
])
def test_kaisers_pirates_banners_are_sentences(page, kind, mine, banner) -> None:
    """The banner for each decision, for the seat that makes it and for the others."""
    open_board(page, "kaisers-pirates")
    update = next(seeded_updates("kaisers-pirates", 2, 1, watch=0))
    update["view"]["pending"] = {"kind": kind, "seat": 0 if mine else 1}
    draw(page, "kaisers-pirates", update, 0, ["ann", "bob"])
    assert page.evaluate(KP_READ)["banner"] == [banner]


OVERFLOW = """(q) => [...document.querySelectorAll(q)].filter((g) => {
  const box = g.querySelector('rect').getBBox();
  return [...g.querySelectorAll('text')].some((t) => {
    const b = t.getBBox();
    return b.x < box.x || b.x + b.width > box.x + box.width - 2;
  });
}).map((g) => g.querySelector('title') ? g.querySelector('title').textContent : g.textContent)"""


def test_kaisers_pirates_no_name_runs_out_of_its_card_and_a_tap_reads_it_whole(page) -> None:
    """Every card and ship name of the game, drawn at once: no text runs over its card
    (names too long for two lines end in "…"); a tap opens the whole face, with the
    card's rule, and closes it again."""
    from lantable.plugins.kaisers_pirates.data import ACTIONS

    one_each = sorted({c["name"]: c["id"] for c in ACTIONS}.values())
    open_board(page, "kaisers-pirates")
    update = next(seeded_updates("kaisers-pirates", 2, 1, watch=0))
    view = update["view"]
    view["me"]["hand"] = one_each
    view["players"][0]["german"] = list(range(20))
    view["players"][0]["merchants"] = list(range(20, 80))
    view["players"][1]["german"] = view["players"][1]["merchants"] = []
    for sid in range(80):
        view["ships"][sid] = {"owner": 0, "revealed": True, "damage": 1, "limited_supply": True,
                              "refuge": None, "refuge_turn": -1, "prize": sid % 2 == 0}
    draw(page, "kaisers-pirates", update, 0, ["ann", "bob"])
    assert page.evaluate(OVERFLOW, "[data-hand] [data-card]") == []
    assert page.evaluate(OVERFLOW, "g.ship") == []
    for card in sorted((ACTIONS[i] for i in one_each), key=lambda c: -len(c["name"]))[:3]:
        node = f"[data-hand] [data-card='{card['id']}']"
        page.click(node)
        face = page.wait_for_selector(f".kp-face[data-open='card:{card['id']}']")
        assert card["name"] in face.inner_text() and len(face.inner_text()) > len(card["name"]) + 20
    page.click("g.ship[data-ship='8']")  # Kaiser Wilhelm der Grosse
    assert "Kaiser Wilhelm der Grosse" in page.inner_text(".kp-face[data-open='ship:8']")
    page.click(".kp-face button[aria-label='close']")
    assert page.query_selector(".kp-face") is None
