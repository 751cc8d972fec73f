"""Helpers for the Pirates of the Spanish Main tests: scripted dice and a cleared sea."""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import load_registry
from lantable.plugins.spanish_main import world

GAME = load_registry()["pirates-spanish-main"]
MID = 45700  # the open water band between the two rows of islands (units)


class Dice(random.Random):
    """A seeded rng whose d6 rolls (``randint(1, 6)``) come from a script first."""

    def __init__(self, *faces: int, seed: int = 1) -> None:
        super().__init__(seed)
        self.queue: list[int] = list(faces)

    def push(self, *faces: int) -> None:
        self.queue += list(faces)

    def randint(self, a: int, b: int) -> int:
        if self.queue and (a, b) == (1, 6):
            return self.queue.pop(0)
        return super().randint(a, b)


def new(seats: int = 2, seed: int = 0, **options: Any) -> dict[str, Any]:
    """A game past set-up: homes chosen (the first free island each time)."""
    rng = random.Random(seed)
    st = GAME.setup(seats, options, rng)
    while st["phase"] == "home":
        (seat,) = GAME.to_act(st)
        GAME.apply(st, seat, GAME.legal_actions(st, seat)[0], rng)
    return st


def act(st: dict[str, Any], rng: random.Random, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for a in actions:
        (seat,) = GAME.to_act(st)
        events += GAME.apply(st, seat, a, rng)
    return events


def ships_of(st: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [s for s in st["ships"] if s["owner"] == seat and not s["sunk"]]


def clear(st: dict[str, Any], keep: list[str]) -> None:
    """Take every other ship off the table (as if sunk) so a scenario stands alone."""
    for s in st["ships"]:
        if s["id"] not in keep:
            s["sunk"], s["docked"] = True, None


def place(st: dict[str, Any], sid: str, x: int, y: int, h: int) -> dict[str, Any]:
    s = world.ship(st, sid)
    s["pose"], s["docked"] = [x, y, h], None
    return s


def first_ship(st: dict[str, Any], seat: int, card: str | None = None) -> dict[str, Any]:
    return next(s for s in ships_of(st, seat) if card is None or s["card"] == card)
