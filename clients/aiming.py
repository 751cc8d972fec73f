"""Aiming by target in the terminal, for games that answer ``sail`` and
``dock_approaches`` queries (Pirates of the Spanish Main, its queries module).

Instead of typing a heading in tenths of a degree and a distance in 1/100 mm, a person
types ``sail s0 toward I3`` (an island or a ship, by id or name) or ``dock s0 at I1``.
The answer comes from the game's own queries, asked of the seat's view in process:
the same code the host runs for a ``query`` message, on the same view. The result is
the ship's ``move`` template filled with one segment.
"""

from __future__ import annotations

import math
import re
from typing import Any

from lantable.plugins import IllegalAction, params
from lantable.plugins.registry import Game

_SAIL = re.compile(r"^\s*sail\s+(\S+)\s+(?:toward|towards|to|at)\s+(.+?)\s*$", re.IGNORECASE)
_DOCK = re.compile(r"^\s*dock\s+(\S+)\s+(?:at|on)\s+(.+?)\s*$", re.IGNORECASE)


def _find(items: list[dict[str, Any]], word: str) -> dict[str, Any] | None:
    word = word.strip().lower()
    for item in items:
        if str(item.get("id", "")).lower() == word or str(item.get("name", "")).lower() == word:
            return item
    return None


def _template(legal: list[dict[str, Any]], sid: str) -> dict[str, Any] | None:
    for a in legal:
        if a.get("type") == "move" and a.get("ship") == sid and params.is_template(a):
            return a
    return None


def _one_segment(template: dict[str, Any], heading: int, distance: int) -> dict[str, Any]:
    return params.fill(template, {"segments": [{"heading": heading, "distance": distance}]})


def aim(game: Game, view: Any, seat: int | None, legal: list[dict[str, Any]],
        text: str) -> tuple[dict[str, Any] | None, str] | None:
    """``None`` when ``text`` is not an aiming command; else ``(action, sentence)``:
    the filled move and what it will do, or ``(None, why not)``."""
    sail, dock = _SAIL.match(text), _DOCK.match(text)
    if (not sail and not dock) or not isinstance(view, dict) or "ships" not in view:
        return None
    word, target_word = (sail or dock).groups()  # type: ignore[union-attr]
    ship = _find(view["ships"], word)
    if ship is None:
        return None, f"There is no ship {word!r} (type its id, like s0, or its name)."
    template = _template(legal, ship["id"])
    if template is None:
        return None, f"{ship['name']} ({ship['id']}) cannot sail now."
    lengths = template["params"]["segments"].get("lengths") or [
        template["params"]["segments"]["item"]["distance"]["max"]]
    longest = int(max(lengths))
    island = _find(view.get("islands", []), target_word)
    if dock:
        if island is None:
            return None, f"There is no island {target_word!r} (islands are I1, I2...)."
        try:
            approaches = game.query(view, seat, {"type": "dock_approaches", "ship": ship["id"],
                                                 "island": island["id"]})
        except IllegalAction as exc:
            return None, str(exc)
        if not approaches:
            return None, (f"{ship['name']} cannot dock at {island['id']} with this move: it is "
                          f"out of reach of one measure, blocked, or not an island it may "
                          f"dock at.")
        best = approaches[0]
        return (_one_segment(template, best["heading"], best["distance"]),
                f"{ship['name']} sails {best['distance'] / 100:.1f} mm at "
                f"{best['heading'] / 10:g} degrees and docks at {island['id']}.")
    other = _find([s for s in view["ships"] if s["placed"] and not s["sunk"]], target_word)
    if island is not None:
        pts = island["poly"]
        tx, ty = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
        what = island["id"]
    elif other is not None and other["id"] != ship["id"]:
        tx, ty, what = other["pose"][0], other["pose"][1], f"{other['name']} ({other['id']})"
    else:
        return None, f"There is no island or ship {target_word!r} to sail toward."
    x, y = ship["pose"][0], ship["pose"][1]
    heading = round(math.degrees(math.atan2(ty - y, tx - x)) * 10) % 3600
    try:
        answer = game.query(view, seat, {"type": "sail", "ship": ship["id"], "heading": heading,
                                         "distance": longest})
    except IllegalAction as exc:
        return None, str(exc)
    if "blocked" in answer:
        return None, f"{ship['name']} cannot turn toward {what}: {answer['blocked']}."
    contact = answer["contact"]
    stop = (f", and stops touching {contact[1]}" if contact and contact[0] != "edge"
            else ", and stops at the table's edge" if contact else "")
    return (_one_segment(template, heading, longest),
            f"{ship['name']} sails {answer['distance'] / 100:.1f} mm toward {what} at "
            f"{heading / 10:g} degrees{stop}.")
