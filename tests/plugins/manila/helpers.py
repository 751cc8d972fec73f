"""Helpers for Manila tests: scripted dice, scripted voyages.

Imported as a module (``from . import helpers as mn``), not handed out by a fixture."""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import load_registry
from lantable.plugins.manila import engine

GAME = load_registry()["manila"]


class Dice(random.Random):
    """A seeded rng whose ``randint`` first returns scripted values (the engine rolls
    ``rng.randint(1, 6)``, three dice per roll in boat order). Shuffles use
    ``getrandbits`` and never consume scripted values."""

    def __init__(self, *faces: int, seed: int = 1) -> None:
        super().__init__(seed)
        self.queue: list[int] = list(faces)

    def push(self, *faces: int) -> None:
        self.queue += list(faces)

    def randint(self, a: int, b: int) -> int:
        if self.queue:
            face = self.queue.pop(0)
            assert (a, b) == (1, 6) and 1 <= face <= 6
            return face
        return super().randint(a, b)


def new(n: int = 4, seed: int = 0, **options: Any) -> dict[str, Any]:
    return GAME.setup(n, options, random.Random(seed))


def act(S: dict[str, Any], rng: random.Random, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply each action for the seat to act; return all events."""
    events: list[dict[str, Any]] = []
    for a in actions:
        (seat,) = GAME.to_act(S)
        events += GAME.apply(S, seat, a, rng)
    return events


PASS = {"type": "pass"}
NO_BUY = {"type": "no_buy"}
DECLINE = {"type": "decline"}


def launch(goods: list[str], starts: list[int]) -> dict[str, Any]:
    return {"type": "launch", "goods": goods, "starts": starts}


def boat(good: str, stowaway: bool = False) -> dict[str, Any]:
    a = {"type": "place", "space": "boat", "good": good}
    if stowaway:
        a["stowaway"] = True
    return a


def dock(slot: str) -> dict[str, Any]:
    return {"type": "place", "space": "dock", "slot": slot}


def yard(slot: str) -> dict[str, Any]:
    return {"type": "place", "space": "shipyard", "slot": slot}


def space(name: str) -> dict[str, Any]:
    return {"type": "place", "space": name}


def voyage(n: int = 4, goods: tuple[str, ...] = ("nutmeg", "silk", "jade"),
           starts: tuple[int, ...] = (3, 3, 3), seed: int = 0, dice: Dice | None = None,
           **options: Any) -> tuple[dict[str, Any], Dice]:
    """Voyage 1, nobody bids (seat 0 becomes HM for 0, decision 3), no share bought,
    boats launched: seat 0 is to place first."""
    S = new(n, seed, **options)
    rng = dice or Dice()
    act(S, rng, *[PASS] * n, NO_BUY, launch(list(goods), list(starts)))
    assert S["phase"] == "place" and S["turn"] == 0
    return S, rng


def cash_deltas(events: list[dict[str, Any]], n: int) -> list[int]:
    out = [0] * n
    for e in events:
        if e["type"] == "cash":
            out[e["seat"]] += e["delta"]
    return out


def owned(S: dict[str, Any], seat: int) -> list[int]:
    return engine.owned(S, seat)
