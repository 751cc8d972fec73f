"""Seeded random self-play across seat counts and options: every game ends, counters,
money and ships are conserved as the rules say, and no view leaks hidden information.

``BLACKBEARD_SELFPLAY=1000`` runs the full check of the issue (about a minute);
the suite runs a smaller number.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from lantable.plugins.blackbeard import flow, views
from lantable.plugins.blackbeard.data import CARDS, MERCHANTS

from .conftest import GAME

GAMES = int(os.environ.get("BLACKBEARD_SELFPLAY", "48"))
OPTIONS = GAME.info["options"]


def options_for(seed: int) -> dict[str, Any]:
    """Every third game at the defaults; the others draw each option at random."""
    if seed % 3 == 0:
        return {}
    pick = random.Random(f"options:{seed}")
    return {k: pick.choice(spec["choices"]) for k, spec in sorted(OPTIONS.items())
            if "choices" in spec and k != "hidden_deck"}  # hidden decks: test_hidden.py


class Ledger:
    """Running totals rebuilt from the events alone."""

    def __init__(self, S: dict[str, Any]) -> None:
        self.nw = [0] * len(S["pirates"])
        self.booty = 0
        self.ships = 0

    def add(self, ev: list[dict[str, Any]]) -> None:
        for e in ev:
            t = e["type"]
            if t == "net_worth":
                self.nw[e["pirate"]] += e["delta"]
                self.booty -= e["booty"]
            elif t == "booty":
                self.booty += e["amount"]
            elif t == "converted":
                self.booty -= e["booty_lost"]
            elif t in ("dead", "retired"):
                self.booty -= e["booty_lost"]
                self.ships -= 0 if e.get("from_reserve") else 1
            elif t == "deployed":
                self.ships += 1


def perturb(S: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same game with every secret of the other seats dealt again."""
    T = GAME.clone(S)
    pool = T["deck"] + [c for s, h in enumerate(T["hands"]) if s != seat for c in h]
    rng.shuffle(pool)
    for s, h in enumerate(T["hands"]):
        if s != seat:
            T["hands"][s] = sorted(pool[:len(h)])
            pool = pool[len(h):]
    T["deck"] = pool
    hidden = [m for m in T["merchants"] if not m["face_up"]]
    ids = [m["id"] for m in hidden] + T["merchant_pool"]
    rng.shuffle(ids)
    for m in hidden:
        m["id"] = ids.pop()
    T["merchant_pool"] = ids
    return T


def check(S: dict[str, Any], base: dict[str, int], led: Ledger, n: int, rng: random.Random,
          deep: bool) -> None:
    now = flow.conservation(S)
    for key in ("cards", "merchants", "warships", "kcs", "hostages", "pirates",
                "anti_governors"):
        assert now[key] == base[key], (n, key)
    assert now["ships_at_sea"] == led.ships, n
    assert sum(sum(p["holds"]) for p in S["pirates"]) == led.booty, n
    for p in S["pirates"]:
        assert p["net_worth"] == led.nw[p["id"]] and p["net_worth"] >= 0, (n, p["id"])
        assert len(p["holds"]) <= [2, 3, 4, 6][p["ship"]]
        assert 0 <= p["loyalty"] <= 10 and p["cunning"] >= 0
    assert sorted(S["deck"] + [c for h in S["hands"] for c in h] + S["discards"] + S["removed"]
                  + S["held_pardons"] + [c for p in S["pirates"] for c in p["heavy_guns"]]) == list(
                      range(len(CARDS)))
    if deep:
        public = GAME.view(S, None)
        assert "hand" not in public
        for seat in range(S["n_players"]):
            mine = GAME.view(S, seat)
            other = perturb(S, seat, rng)
            assert GAME.view(other, seat) == mine, (n, seat)
            assert GAME.view(other, None) == public, n
            assert mine["hand"] == S["hands"][seat]
            assert all(m["id"] is None for m in mine["merchants"] if not m["face_up"])


@pytest.mark.parametrize("seed", range(GAMES))
def test_seeded_selfplay_ends_and_conserves(seed: int) -> None:
    seats = 2 + seed % 4
    rng, chooser, spy = random.Random(seed), random.Random(-seed - 1), random.Random(seed)
    S = GAME.setup(seats, options_for(seed), rng)
    base = flow.conservation(S)
    led = Ledger(S)
    for n in range(20_000):
        to_act = GAME.to_act(S)
        if not to_act:
            break
        check(S, base, led, n, spy, deep=n % 23 == 0)
        seat = to_act[0]
        led.add(GAME.apply(S, seat, chooser.choice(GAME.legal_actions(S, seat)), rng))
    else:
        pytest.fail(f"seed {seed}: no end")
    check(S, base, led, -1, spy, deep=True)
    assert S["over"] and S["end_reason"] in ("third_general_pardon", "max_turns")
    scores = GAME.scores(S)
    assert len(scores["scores"]) == seats and 1 in scores["rank"]


def test_sample_keeps_the_seats_own_secrets_and_deals_the_rest() -> None:
    S = GAME.setup(4, None, random.Random(5))
    view = GAME.view(S, 2)
    for k in range(5):
        T = views.sample(view, 2, random.Random(k))
        assert T["hands"][2] == S["hands"][2]
        assert [len(h) for h in T["hands"]] == [len(h) for h in S["hands"]]
        assert len(T["deck"]) == len(S["deck"])
        assert sorted(m["id"] for m in T["merchants"]) != [] and len(T["merchant_pool"]) == len(
            S["merchant_pool"]
        )
        assert sorted([m["id"] for m in T["merchants"]] + T["merchant_pool"]) == list(
            range(len(MERCHANTS))
        )


def test_private_events_go_only_to_their_seat() -> None:
    S = GAME.setup(3, None, random.Random(0))
    rng, chooser = random.Random(1), random.Random(2)
    seen = 0
    while GAME.to_act(S) and seen < 5:
        seat = GAME.to_act(S)[0]
        for e in GAME.apply(S, seat, chooser.choice(GAME.legal_actions(S, seat)), rng):
            if e["type"] == "drew":
                seen += 1
                assert e["to"] == [e["seat"]]
    assert seen
