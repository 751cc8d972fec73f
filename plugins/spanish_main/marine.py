"""The Marine keyword on crew (digest 5.15, A-33): Sergeant Crane of the designed set.

- A Marine may be given its **own shoot action** each turn (``marine_fire``), which
  does not use its ship's action: range S, rank 2 (a d6 of 3+ hits, a 1 misses).
- Aboard, it fires from any mast position of its ship, standing or not (like the
  Musketeer); it needs its ship's nation (5.14) and no Fear 5 on the ship, and the
  ship on the table (not lost in fog). [DESIGN] A derelict's Marine may still fire:
  the shot is the Marine's action, not the ship's (5.11 limits the ship's).
- Landed on an island (unloaded at a dock, 5.4.2; a Marine may land on any island),
  it fires from any point of the island's outline.
- Its targets are those of a ship's cannon: enemy ships (5.10.4), enemy forts (with
  the ``forts`` option: the fort's own island does not block, as for ships) and
  landed enemy Marines.
- **Stacks**: each Marine aboard fires its own shot.
- Opponents may shoot a Marine only while it is landed: shots at it aim at the
  island's outline (range and line of fire to a point of it, 8.9). A single hit does
  nothing; the **second hit in the same turn** eliminates it (``marine_hits``, cleared
  at the end of every turn, 4.4).
- [DESIGN] A Marine turns face up when it fires (the shot shows what it is); only a
  face-up landed Marine can be targeted, so a face-down crew's kind never leaks
  through the legal actions.
"""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import IllegalAction

from . import combat, forts, hull, world
from . import geometry as g

State = dict[str, Any]
Ship = dict[str, Any]
Crew = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

RANK = 2


def marines(state: State, seat: int) -> list[Crew]:
    return [c for c in state["crew"] if c["kind"] == "Marine" and c["owner"] == seat
            and not c["gone"]]


def usable(state: State, c: Crew) -> bool:
    """The Marine may fire now: not yet this turn; aboard a ship of its nation on the
    table (no Fear 5), or landed."""
    if c.get("marine_fired"):
        return False
    if c["island"] is not None:
        return True
    s = world.ship(state, c["ship"])
    return (world.on_plane(s) and "5" not in s["fear"]
            and world.crew_nation(c) == world.nation(state, s))


def landed_target(state: State, tid: Any) -> Crew | None:
    """The crew ``tid`` if it is a face-up Marine landed on an island, else None."""
    if not (isinstance(tid, str) and tid[:1] == "c" and tid[1:].isdigit()):
        return None
    i = int(tid[1:])
    if i >= len(state["crew"]):
        return None
    c = state["crew"][i]
    ok = c["kind"] == "Marine" and c["face_up"] and not c["gone"] and c["island"] is not None
    return c if ok else None


def enemy_marines(state: State, seat: int) -> list[Crew]:
    return [c for c in state["crew"] if c["owner"] != seat and landed_target(state, c["id"])]


# -- range and line of fire --------------------------------------------------------------


def clear_shot(state: State, origin: g.Point, reach: int, target: g.Poly,
               shooter: Ship | None, target_ship: Ship | None,
               firing_mast: int | None = None, skip_island: str | None = None) -> bool:
    """8.9 / A-23 for any target outline: a point of ``target`` within ``reach`` of
    ``origin`` whose segment crosses no island interior (but ``skip_island``, a
    fort's own), no ship but the shooter and the target, no fog bank and none of the
    shooter's other standing sails."""
    limit = reach + g.EPS_TOUCH
    blockers = [world.island_poly(i) for i in state["islands"] if i["id"] != skip_island]
    blockers += [world.foot(e) for e in state["ships"]
                 if e is not shooter and e is not target_ship and (world.on_plane(e) or e["wreck"])]
    blockers += world.fogs(state)
    sails = []
    if shooter is not None and "Junk" not in world.keywords(shooter):
        up = [i for i in world.standing(shooter) if i != firing_mast]
        sails = hull.sails(shooter["masts"], world.pose(shooter), up)
    return combat.sees(origin, limit, target, blockers, sails)


def origins(state: State, c: Crew) -> list[tuple[g.Point, Ship | None, int | None]]:
    """Where the Marine may fire from: (point, ship aboard, mast) (A-33)."""
    if c["island"] is not None:
        poly = world.island_poly(world.island(state, c["island"]))
        return [(p, None, None) for p in g.boundary_samples(poly, combat.CANDIDATES_PER_EDGE)]
    s = world.ship(state, c["ship"])
    return [(p, s, i) for i, p in enumerate(hull.mast_points(s["masts"], world.pose(s)))]


def target_poly(state: State, tid: str) -> tuple[g.Poly, Ship | None, str | None]:
    """The outline a shot at ``tid`` aims at, the ship it is, and the island that does
    not block it (a fort's own, 5.17)."""
    c = landed_target(state, tid)
    if c is not None:
        return world.island_poly(world.island(state, c["island"])), None, None
    if forts.on(state) and forts.is_fort_id(tid):
        f = forts.fort(state, tid)
        return forts.poly(f), None, f["island"]
    e = world.ship(state, tid)
    return world.foot(e), e, None


def marine_reaches(state: State, c: Crew, tid: str) -> bool:
    poly, ship, island = target_poly(state, tid)
    for origin, shooter, mast in origins(state, c):
        if clear_shot(state, origin, state["S_length"], poly, shooter, ship, mast, island):
            return True
    return False


def cannon_reaches(state: State, s: Ship, gun: tuple[Any, int, str], c: Crew) -> bool:
    """A ship's cannon ``(cannon, rank, range)`` at a landed Marine's island."""
    cannon, _, rng_ = gun
    reach = state["S_length"] if rng_ == "S" else state["L_length"]
    poly = world.island_poly(world.island(state, c["island"]))
    masts = hull.mast_points(s["masts"], world.pose(s))
    tries = list(enumerate(masts)) if cannon == "musket" else [(cannon, masts[cannon])]
    return any(clear_shot(state, p, reach, poly, s, None, i) for i, p in tries)


# -- actions -----------------------------------------------------------------------------


def targets(state: State, seat: int) -> list[str]:
    """Enemy ships that may be shot (5.10.4), landed enemy Marines, enemy forts."""
    ships = [e["id"] for e in state["ships"] if not combat.target_forbidden(state, e, seat)]
    built = [f["id"] for f in state.get("forts", ()) if forts.standing(f) and f["owner"] != seat]
    return ships + [c["id"] for c in enemy_marines(state, seat)] + built


def actions(state: State, seat: int) -> list[Action]:
    """``marine_fire`` for each of ``seat``'s Marines and each target it reaches."""
    out = []
    for c in marines(state, seat):
        if not usable(state, c):
            continue
        for tid in targets(state, seat):
            if marine_reaches(state, c, tid):
                out.append({"type": "marine_fire", "crew": c["id"], "target": tid})
    return out


def do_marine_fire(state: State, seat: int, s: Ship | None, action: Action,
                   rng: random.Random) -> list[Event]:
    cid, tid = action.get("crew"), action.get("target")
    c = next((x for x in marines(state, seat) if x["id"] == cid), None)
    if c is None or not usable(state, c) or tid not in targets(state, seat) \
            or not marine_reaches(state, c, tid):
        raise IllegalAction(f"{cid!r} cannot fire at {tid!r} now (5.15: one shot a turn, "
                            "range S, in line of fire)")
    c["marine_fired"] = True
    c["face_up"] = True
    r = combat.roll(rng)
    hit = r != 1 and r > RANK
    events: list[Event] = [{"type": "marine_shot", "crew": cid, "target": tid, "roll": r,
                            "hit": hit}]
    if hit:
        landed = landed_target(state, tid)
        if landed is not None:
            hit_marine(state, landed, events)
        else:
            forts.hit_target(state, tid, seat, events)  # a ship or a fort
    return events


def hit_marine(state: State, c: Crew, events: list[Event]) -> None:
    """5.15: eliminated only by the second hit in the same turn."""
    c["marine_hits"] = c.get("marine_hits", 0) + 1
    if c["marine_hits"] < 2:
        events.append({"type": "marine_hit", "crew": c["id"], "hits": 1})
        return
    c["gone"], c["island"] = True, None
    events.append({"type": "marine_eliminated", "crew": c["id"]})


def end_of_turn(state: State) -> None:
    """4.4 step 3: hit counters and the once-a-turn shots start again."""
    for c in state["crew"]:
        if c["kind"] == "Marine":
            c["marine_hits"], c["marine_fired"] = 0, False
