"""Sea monsters (digest 2.9, 5.16, A-36): an option (``monsters``, off by default).

With the option on every fleet buys the designed Reef Serpent (``data.json``'s
``monsters``, [DESIGN], 8 points; the fleet drops ships from the end of its list until
it fits, :mod:`.deal`). A monster is kept among the ships (``monster: True``) so that
moving, shooting, being shot and ramming use the ship rules, with these differences:

- its **segments act like masts**, one cannon each; losing the last one
  **eliminates** it at once (it never becomes derelict, :func:`combat.lose_mast`);
- it may only **move** (and pivot) and **shoot**: it cannot dock, explore, carry crew
  or treasure, tow, be towed or be repaired;
- at the start of each of its owner's turns, before any action, the owner may
  declare it **submerged** or **surfaced** (``submerge``). Submerged, it may only
  move: it is off the plane (no obstacle, no target, ignored by lines of fire) and
  sails under everything like a ghost ship, but must end its move clear; it may
  surface only where it overlaps nothing;
- it is **never pinned**, and it **rams at any point**: after its move, any enemy ship
  its body touches may be rammed (the usual d6 against the target's masts), and the
  rammed ship is pinned while the monster touches it and has not moved on
  (``pins``, :func:`world.pinned`);
- winning a boarding it **cannot take crew**; a treasure it takes is destroyed (A-36,
  ``monster_treasure = destroy``: it has no cargo), unique or not.

[DESIGN] The footprint is the designed hull of as many masts as the monster has
segments (a 3-segment serpent is 75 x 18 mm), its head at the bow tip being the
"white dot" movement is measured from (digest 9.3 proposed a 20 mm disc; a hull
shape lets every piece of the geometry engine serve monsters unchanged).
"""

from __future__ import annotations

from typing import Any

from lantable.plugins import IllegalAction

from . import hull, motion, world

State = dict[str, Any]
Ship = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

CARD = "D-M01"  # the one designed monster every fleet buys


def make(s: Ship) -> None:
    """Turn a freshly added fleet piece into a sea monster (surfaced)."""
    s.update(monster=True, submerged=False, pins=[])


def may_surface(state: State, s: Ship) -> bool:
    """A submerged monster comes up only where it overlaps nothing."""
    obs = world.obstacles(state, skip=(s["id"],))
    return motion.overlaps([hull.footprint(s["masts"], world.pose(s))], obs,
                           world.area(state)) is None


def free_actions(state: State, s: Ship) -> list[Action]:
    """``submerge`` on or off, before the turn's first action (5.16)."""
    if not world.monster(s) or s["sunk"] or state["acted_any"]:
        return []
    if s["submerged"] and not may_surface(state, s):
        return []
    return [{"type": "submerge", "ship": s["id"], "on": not s["submerged"]}]


def submerge(state: State, seat: int, s: Ship, action: Action) -> list[Event]:
    if action not in free_actions(state, s):
        raise IllegalAction("a sea monster dives or surfaces at the start of its owner's "
                            "turn, and surfaces only where it overlaps nothing (5.16)")
    on = action["on"]
    # submerged it sails under everything, as a ghost ship sails through it
    s["submerged"], s["ghost"], s["pins"] = on, on, []
    return [{"type": "submerged" if on else "surfaced", "ship": s["id"]}]


def after_moving(s: Ship) -> None:
    """A monster that moves lets go of the ships it pinned."""
    if s.get("pins"):
        s["pins"] = []


def view_fields(s: Ship) -> dict[str, Any]:
    return {"monster": True, "submerged": s["submerged"], "pins": list(s["pins"])}
