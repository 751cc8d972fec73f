"""Nero's board for the browser: ``web/board.js`` and ``web/map.json`` in this package
(package data), served by every peer under ``/games/nero/``.

``web/map.json`` is the game's own map and cards (:mod:`.data`) as plain JSON, plus
where the board draws each province (``POSITIONS``, a schematic of the Empire: x to
the east, y to the south, on a 5 x 5 grid of a 1000 x 500 box) and the card texts
people read on tap. It is written by :func:`write_map` (``python -c "from
lantable.plugins.nero.web_board import write_map; write_map()"``);
``tests/web/test_nero_board.py`` checks the file equals :func:`map_data`, so it cannot
drift from the rules' data.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from lantable.plugins import hookimpl

from .data import (
    AREA_NAMES,
    AREA_OF,
    CARDS,
    EVENTS,
    GERMANIA,
    ITALY,
    LAND,
    NAMES,
    NAVAL,
    NPROV,
    PORT,
    REVOLT,
    ROME,
)

# Where each province is drawn (its centre), by id; Rome last. DESIGNED for legibility,
# roughly where the provinces lie.
POSITIONS: list[tuple[int, int]] = [
    (100, 50),   # Britannia
    (100, 150),  # Gallia Lugdunensis
    (300, 250),  # Gallia Narbonensis
    (100, 250),  # Hispania
    (100, 350),  # Lusitania
    (300, 50),   # Germania Inferior
    (300, 150),  # Germania Superior
    (500, 50),   # Raetia
    (700, 50),   # Noricum
    (700, 150),  # Pannonia
    (900, 50),   # Dacia
    (900, 150),  # Moesia
    (900, 250),  # Thracia
    (700, 250),  # Dalmatia
    (700, 350),  # Achaea
    (900, 350),  # Asia Minor
    (900, 450),  # Syria
    (700, 450),  # Judaea
    (500, 450),  # Aegyptus
    (300, 350),  # Africa
    (500, 150),  # Italia del Nord
    (500, 350),  # Italia del Sud
    (500, 250),  # Roma
]
# A province's name where the full one does not fit its box on a phone.
SHORT_NAMES: dict[str, str] = {
    "Gallia Lugdunensis": "Lugdunensis", "Gallia Narbonensis": "Narbonensis",
    "Germania Inferior": "Germ. Inf.", "Germania Superior": "Germ. Sup.",
    "Italia del Nord": "Italia Nord", "Italia del Sud": "Italia Sud",
}

# What each Event does, in a sentence a player reads when he taps the card (the card
# texts, digest 6.2).
EVENT_TEXT: dict[str, str] = {
    "assassin": "Try to assassinate an Emperor who is in Rome; Praetorian Guards protect "
                "or block the attempt.",
    "bad_omens": "Any time: cancel the Event just played (not an assassination's cards, "
                 "nor Legion Declares Emperor).",
    "bad_weather": "Any time: stop a moving army (and its attack) or a retreat before "
                   "battle, or a Galley Fleet, for the rest of the round.",
    "corruption": "Any time: cancel a Senate Influence of a declaration in Rome, or with "
                  "two of them a Praetorian Guard protecting an assassination.",
    "wounded": "Any time: an opposing General or Contender (not an Emperor) cannot move "
               "for the rest of the round.",
    "crisis": "The Emperor is placed in Rome at once.",
    "galley": "Sail up to 3 Legions and your Leader from one port province to another; "
              "that is all their movement this round.",
    "germanic": "The Germanic Tribes overrun a Germania province: everyone there "
                "withdraws, it costs 3 MP to enter and nobody controls it.",
    "legion_declares": "Your General, with a Legion in your Base and the Base Area "
                       "controlled, becomes Contender; he must reach Rome to be Emperor.",
    "rebel": "One Legion of any player becomes Uncontrolled where it stands.",
    "praetorian": "Any time: protect or stop an assassination, or add 1 DP to your "
                  "declaration in Rome.",
    "revolt": "A revolt province (Britannia, Germania Superior, Achaea, Judaea): its "
              "Base owner brings his Legions to two there, then all turn Uncontrolled.",
    "senate": "Add 1 DP when you declare yourself Emperor in Rome.",
    "traitor": "Steal a random card from another player's hand (once a round).",
}
TIMING = {"own": "in your round", "any": "at any time", "once": "in your round, once"}

# The seas the Galley Fleet sails (drawn behind the provinces, with their names).
SEAS: list[dict[str, Any]] = [
    {"name": "Oceanus", "x": 100, "y": 440},
    {"name": "Mare Internum", "x": 300, "y": 470},
]


def map_data() -> dict[str, Any]:
    """The map and cards for the browser (what ``web/map.json`` holds)."""
    provinces = []
    for p in range(NPROV):
        x, y = POSITIONS[p]
        provinces.append({"id": p, "name": NAMES[p], "short": SHORT_NAMES.get(NAMES[p], NAMES[p]),
                          "area": AREA_OF[p], "port": PORT[p],
                          "italy": p in ITALY, "germania": p in GERMANIA,
                          "revolt": p in REVOLT.values(), "x": x, "y": y})
    rx, ry = POSITIONS[ROME]
    pairs = {"land": LAND, "naval": NAVAL}
    edges = {kind: sorted({(min(a, b), max(a, b)) for a in range(NPROV + 1) for b in adj[a]})
             for kind, adj in pairs.items()}
    return {
        "provinces": provinces,
        "rome": {"id": ROME, "name": NAMES[ROME], "x": rx, "y": ry, "reached_from": ITALY},
        "land": [list(e) for e in edges["land"]],
        "naval": [list(e) for e in edges["naval"]],
        "areas": dict(AREA_NAMES),
        "seas": SEAS,
        "cards": [{"id": i, "event": c["ev"], "name": EVENTS[c["ev"]][0], "mp": c["mp"],
                   "bp": c["bp"], "timing": TIMING[EVENTS[c["ev"]][2]],
                   "text": EVENT_TEXT[c["ev"]]} for i, c in enumerate(CARDS)],
    }


def map_text() -> str:
    return json.dumps(map_data(), indent=1, sort_keys=True) + "\n"


def write_map() -> Path:
    path = Path(__file__).with_name("web") / "map.json"
    path.write_text(map_text(), encoding="utf-8")
    return path


@hookimpl
def game_web_renderer() -> Any:
    return resources.files(__package__) / "web"

