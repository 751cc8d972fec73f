"""The game's board for the browser: ``web/board.js`` in this package (package data),
and the card faces it reads, ``web/cards.json``: an export of :mod:`.data` and of each
card type's one-line rule (:func:`card_faces`; tests/web/test_renderers.py keeps the
file equal to it)."""

from __future__ import annotations

import inspect
import re
from importlib import resources
from typing import Any

from lantable.plugins import hookimpl

from .cardtypes import CARD_TYPES
from .data import ACTIONS, SHIPS

# Card types whose class carries no docstring of its own.
_UNDOCUMENTED = {"submarine_u": "A U-boat's torpedo attack on an enemy merchant.",
                 "submarine_uc": "A UC-boat's torpedo attack on an enemy merchant."}


@hookimpl
def game_web_renderer() -> Any:
    return resources.files(__package__) / "web"


def card_text(card_type: str) -> str:
    """A card type's rule in one sentence for a player: the first paragraph of its
    class's docstring without the rulebook's section and ambiguity numbers."""
    doc = inspect.getdoc(CARD_TYPES[card_type]) or _UNDOCUMENTED.get(card_type, "")
    text = " ".join(doc.split("\n\n")[0].split())
    text = re.sub(r"^(Team card, )?R [\d.]+(, [\d.]+)*( \(A-\d+\))?: ", "", text)
    text = re.sub(r" \((A-\d+|[\d.]+)(: [^)]*)?\)", "", text)  # "(A-11)", "(6.9.2: ...)"
    text = text.replace("(one marker with 6.8)", "(one marker with the additional damage option)")
    text = text.replace("; 6.10 lets the attacker pursue first", "; the attacker may pursue first")
    text = re.sub(r", A-\d+\)", ")", text)
    text = re.sub(r"; [\d.]+( [\d.]+)* ", "; ", text)
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def card_faces() -> dict[str, Any]:
    """What ``web/cards.json`` holds: every ship's and Action card's face."""
    return {
        "ships": [{"name": s["name"], "kind": s["kind"], "att": s["att"], "def": s["def"],
                   "vp": s["vp"]} for s in SHIPS],
        "actions": [{"name": c["name"], "type": c["type"], "kind": c["kind"], "icpt": c["icpt"],
                     "night": c["night"], "ship": c.get("ship"), "vp": c.get("vp", 0),
                     "text": card_text(c["type"])} for c in ACTIONS],
    }
