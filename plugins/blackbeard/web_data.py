"""What the browser board (``web/board.js``) knows of the game's data: the names and
ratings it draws. ``board.js`` carries this as one JSON line between the markers
below; tests/web/test_blackbeard_board.py checks that it matches (regenerate with
``LANTABLE_REGEN_BOARD=1``)."""

from __future__ import annotations

from typing import Any

from .data import AREAS, CARD_TYPES, CARDS, KCS, MERCHANTS, PIRATES, PORTS, SHIPS, TRANSIT, WARSHIPS

START, END = "/* data: start */", "/* data: end */"


def board_data() -> dict[str, Any]:
    return {
        "areas": {a: {"name": x["name"], "adj": x["adj"]} for a, x in AREAS.items()},
        "transit": {t: {"name": x["name"], "links": x["links"]} for t, x in TRANSIT.items()},
        "ports": [{"name": p["name"], "area": p["area"], "nat": p["nationality"],
                   "value": p["value"], "defense": p["defense"]} for p in PORTS],
        "pirates": [{k: p[k] for k in ("name", "ability", "initiative", "cruelty", "duel")}
                    for p in PIRATES],
        "ships": [s["name"] for s in SHIPS],
        "merchants": [[m["nationality"], m["size"], m["cargo"]] for m in MERCHANTS],
        "warships": [[w["speed"], w["combat"]] for w in WARSHIPS],
        "kcs": [[k["speed"], k["combat"]] for k in KCS],
        "cards": [CARD_TYPES[t]["name"] for t in CARDS],
    }
