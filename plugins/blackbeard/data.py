"""Blackbeard data, loaded from ``data.json`` and checked at import.

Every block of ``data.json`` carries ``src``: ``errata`` (GMT's 2008 clarifications,
which override the printed rules), ``published`` (the play aid and component counts)
or ``proposed`` (designed for BB-S, the simplified rule set, because the published
value was not available). ``docs/rules/blackbeard.md`` lists what differs from the
published game. This module turns the blocks into lookups and validates them, so a
wrong edit of the file fails at start-up, not in the middle of a game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

RAW: Final[dict[str, Any]] = json.loads((Path(__file__).parent / "data.json").read_text("utf-8"))
SOURCES: Final = ("errata", "published", "proposed")


class DataError(ValueError):
    """``data.json`` breaks a rule the game depends on."""


def _rows(block: str) -> list[dict[str, Any]]:
    cols = RAW[block]["columns"]
    return [dict(zip(cols, row, strict=True)) for row in RAW[block]["list"]]


AREAS: Final = {a["id"]: a for a in RAW["areas"]["list"]}
SEA: Final = list(AREAS)
TRANSIT: Final = {t["id"]: t for t in RAW["transit"]["list"]}
PORTS: Final = _rows("ports")  # index = port number - 1
PIRATES: Final = _rows("pirates")
SHIPS: Final = _rows("ships")  # index = size - 1
MERCHANTS: Final = _rows("merchants")
HOSTAGES: Final = _rows("hostages")
WARSHIPS: Final = _rows("warships")
KCS: Final = _rows("kcs")
CARD_TYPES: Final = {row[0]: dict(zip(RAW["deck"]["columns"], row, strict=True))
                     for row in RAW["deck"]["list"]}
# One entry per physical card: card id -> type id, in data order.
CARDS: Final = [t for t, c in CARD_TYPES.items() for _ in range(c["copies"])]
COST: Final = RAW["costs"]
LOY: Final = RAW["loyalty"]
NOTO: Final = {k: v["x"] for k, v in RAW["notoriety"].items() if isinstance(v, dict)}
CARGO: Final = RAW["cargo_table"]
STORM: Final = RAW["storm_table"]["hits"]
HAND: Final = RAW["hand_size"]["value"]
START_LOYALTY: Final = RAW["start_loyalty"]["value"]
LOY_MIN, LOY_MAX = RAW["loyalty_range"]["value"]
SPEED_FLOOR: Final = RAW["speed_floor"]["value"]
PIRATE_PORTS: Final = [i for i, p in enumerate(PORTS) if p["nationality"] == "PIR"]
PORTS_IN: Final = {a: [i for i, p in enumerate(PORTS) if p["area"] == a] for a in AREAS}
D66: Final = {n: i for i, p in enumerate(PORTS) for n in p["d66"]}


def neighbours(where: str) -> list[str]:
    """Where one Move step leads at sea: adjacent Sea Areas and linked Transit Boxes."""
    if where in TRANSIT:
        return list(TRANSIT[where]["links"])
    return AREAS[where]["adj"] + [t for t, b in TRANSIT.items() if where in b["links"]]


def in_reaction_range(kc_area: str, pirate_area: str) -> bool:
    """Errata A21/A22: the same Sea Area or an adjacent one; a Transit Box is adjacent
    to nothing, so a KC reacts to a pirate in a box only from the same box."""
    if kc_area == pirate_area:
        return True
    return kc_area in AREAS and pirate_area in AREAS and pirate_area in AREAS[kc_area]["adj"]


def reachable(start: str, steps: int) -> list[str]:
    """Sea Areas and Transit Boxes within ``steps`` moves (not ``start``), in data order."""
    seen, frontier = {start}, [start]
    for _ in range(steps):
        frontier = [n for w in frontier for n in neighbours(w) if n not in seen]
        seen.update(frontier)
    return [w for w in [*AREAS, *TRANSIT] if w in seen and w != start]


def validate(raw: dict[str, Any]) -> None:
    """Raise DataError if the data breaks a rule; errata A18 among them."""
    for name, block in raw.items():
        if not name.startswith("_") and block.get("src") not in SOURCES:
            raise DataError(f"data.json block {name!r} has no provenance (src)")
    for speed, combat in raw["kcs"]["list"]:
        if not speed < combat:  # A18: Speed is the smaller value, Combat the larger
            raise DataError(f"a KC with Speed {speed} >= Combat {combat} (errata A18)")
    for a in raw["areas"]["list"]:
        for b in a["adj"]:
            if a["id"] not in next(x["adj"] for x in raw["areas"]["list"] if x["id"] == b):
                raise DataError(f"adjacency {a['id']}-{b} is one-way")
    numbers = [n for p in raw["ports"]["list"] for n in p[6]]
    if sorted(numbers) != sorted({10 * t + u for t in range(1, 7) for u in range(1, 7)}):
        raise DataError("the ports' D66 numbers must cover 11..66 exactly once")
    rows = raw["cargo_table"]["rows"]
    if any(len(r) != 4 for r in rows) or len(rows) != 10:
        raise DataError("the Cargo Table has 10 rows of 4 columns")


validate(RAW)
