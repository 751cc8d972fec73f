"""Helpers for Nero tests: scripted boards, hands and a short way to play actions.

Imported as a module (``from . import helpers as nx``), not handed out by a fixture."""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import Game
from lantable.plugins import nero as N
from lantable.plugins.nero import engine
from lantable.plugins.nero.data import AREAS, CARDS, ID, IN_AREA
from lantable.plugins.nero.state import new_legion

GAME = Game(N, "nero")
P = ID  # province name -> id


def opts(**over: Any) -> dict[str, Any]:
    return {**GAME.options(), **over}


def fresh(seats: int = 4, seed: int = 0, **options: Any) -> dict[str, Any]:
    """A game whose setup is played with the first legal choice every time."""
    rng = random.Random(seed)
    S = GAME.setup(seats, opts(**options), rng)
    while S["setup"]:
        seat = GAME.to_act(S)[0]
        GAME.apply(S, seat, GAME.legal_actions(S, seat)[0], rng)
    return S


def cards(ev: str) -> list[int]:
    """Card ids of one Event, in id order."""
    return [i for i, c in enumerate(CARDS) if c["ev"] == ev]


def card(ev: str, mp: int | None = None, bp: int | None = None, k: int = 0) -> int:
    """The ``k``-th card of ``ev`` (with that MP/BP if given)."""
    found = [i for i, c in enumerate(CARDS) if c["ev"] == ev and (mp is None or c["mp"] == mp)
             and (bp is None or c["bp"] == bp)]
    return found[k]


def board(seats: int = 4, legions: dict[str, dict[int, int]] | None = None,
          leaders: dict[int, str] | None = None, hands: dict[int, list[int]] | None = None,
          act: int = 0, unc: dict[str, int] | None = None, park: str | None = None,
          **options: Any) -> dict[str, Any]:
    """A game after setup, rearranged: ``legions[province][seat] = count``; every other
    Legion of a seat waits in its Base's last province (or ``park``), so the count
    stays 7 per seat; ``unc`` turns parked Legions into Uncontrolled ones there.
    Bases: seat i has Area i (West, Central, East, Asia/Africa). Hands are exactly
    ``hands`` (others empty unless given)."""
    S = fresh(seats, **options)
    S["bases"] = [AREAS[i] for i in range(seats)]
    S["empty_area"] = AREAS[3] if seats == 3 else None
    L: list[Any] = []
    for name, per in (legions or {}).items():
        for seat, k in per.items():
            L += [new_legion(seat, P[name]) for _ in range(k)]
    for seat in range(seats):
        have = sum(1 for lg in L if lg["owner"] == seat)
        assert have <= 7, f"seat {seat} has {have} Legions"
        spot = P[park] if park else IN_AREA[AREAS[seat]][-1]
        L += [new_legion(seat, spot) for _ in range(7 - have)]
    explicit = sum(sum(per.values()) for per in (legions or {}).values())
    for name, k in (unc or {}).items():
        for lg in reversed(L[explicit:]):  # parked Legions of the last seats first
            if k and lg["owner"] >= 0:
                lg["owner"], lg["province"] = -1, P[name]
                k -= 1
    S["legions"] = L
    for seat in range(seats):
        where = (leaders or {}).get(seat)
        S["leaders"][seat] = {"location": P[where] if where else IN_AREA[AREAS[seat]][0],
                              "rank": "general", "moved": False}
    S["hands"] = [sorted((hands or {}).get(s, [])) for s in range(seats)]
    S["active"] = act
    S["cards_used"] = 0
    S["pending"] = []
    S["movement"] = None
    return S


def play(S: dict[str, Any], seat: int, action: dict[str, Any],
         rng: random.Random | None = None) -> list[dict[str, Any]]:
    return engine.apply(S, seat, action, rng or random.Random(0))


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def count(S: dict[str, Any], prov: str, seat: int) -> int:
    return sum(1 for lg in S["legions"] if lg["owner"] == seat and lg["province"] == P[prov])
