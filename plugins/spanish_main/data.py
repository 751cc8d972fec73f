"""The designed starter set (rules digest 9.3), loaded once from ``data.json``.

Everything in that file is **designed placeholder data, not official cards**: the
source rulebook has no card list. Lengths there are millimetres; the engine converts
them to units of 1/100 mm (:mod:`.geometry`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data.json").read_text(encoding="utf-8")
    return json.loads(text)


def hull_mm(masts: int) -> dict[str, Any]:
    return load()["hulls"][str(masts)]


@lru_cache(maxsize=1)
def ships() -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in load()["ships"]}


def ship(card: str) -> dict[str, Any]:
    """A ship card, or a sea monster's card (5.16: segments act like masts)."""
    found = ships().get(card)
    return found if found is not None else load()["monsters"][card]


def fort(card: str) -> dict[str, Any]:
    """A designed fort card (5.17, A-37): name, gold cost, cannons, side."""
    return load()["forts"][card]


def crew_points(kind: str) -> int:
    return load()["crew_types"][kind]["points"]


@lru_cache(maxsize=1)
def named_crew() -> dict[str, dict[str, Any]]:
    """The designed named crew (9.3) by card id: ability, nation, points, links."""
    return {c["id"]: c for c in load()["named_crew"]}


def cannon(code: str) -> tuple[int, str]:
    """``"3S"`` -> ``(3, "S")``: rank and range."""
    return int(code[:-1]), code[-1]
