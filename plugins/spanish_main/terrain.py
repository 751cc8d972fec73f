"""Terrain (digest 2.7, 3.4, 5.18): fog banks, reefs and the Sargasso Sea.

An option (``terrain``: pieces per player, default 0). Pieces are 12-gons of the
island shapes (terrain is printed on island backs, 2.7). The game lays them out, like
the islands, at least 1 S from every island and every other piece (3.4); their kinds
cycle fog, reef, Sargasso from a seeded start [DESIGN: players do not place or choose
terrain]. Terrain is never an obstacle; a fog bank blocks lines of fire.

During a move (8.6.3), after the obstacles have fixed where each segment ends, the
segment is walked for terrain events in order of distance (fog, then Sargasso, then
reef at the same distance):

- **fog** (5.18.1): a ship (with its tow) that touches a fog bank is *lost* in it and
  its move ends. A lost ship is off the plane: no obstacle, no target, cannot shoot,
  ram, board, be rammed, pinned, towed or explored. Its move action is the way out:
  a d6 picks the numbered point (1-6, 8.4.3: equally spaced by perimeter from the
  highest point, counter-clockwise) where its stern goes, facing away from the bank
  [DESIGN: the heading nearest to straight away that fits]; then it sails its course
  from there with its full move (A-38). No room there: it stays lost.
- **Sargasso** (5.18.3): the first time a ship starts to overlap it in a move, the
  sea's danger rating (a d6, kept until the end of the turn) is compared with the
  ship's printed masts: higher traps it where it met the weed (A-40). A trapped ship
  cannot move; its action may try to get free (``free``: d6 + standing masts > 6),
  which puts its stern on the edge, facing away.
- **reef** (5.18.2): the first overlap in a move rolls (or reuses) the reef's danger;
  a rating below the printed masts costs the difference in masts, the aftmost first
  [DESIGN: no choice mid-move]. Losing more than it has sinks the ship: its *wreck*
  stays there with its cargo, an obstacle that blocks fire. Losing all stops it,
  derelict, where it met the reef (A-39). A piece a ship overlapped when its move
  began never rolls for it in that move.
"""

from __future__ import annotations

import math
import random
from typing import Any

from . import data, hull, motion, world
from . import geometry as g

State = dict[str, Any]
Ship = dict[str, Any]
Event = dict[str, Any]

KINDS = ("fog", "reef", "sargasso")
ORDER = {"fog": 0, "sargasso": 1, "reef": 2}  # at equal distance (8.6.3)


def roll(rng: random.Random) -> int:
    return rng.randint(1, 6)


# -- set-up (3.4) ---------------------------------------------------------------------


def fog_points(poly: g.Poly) -> list[list[int]]:
    """8.4.3: six boundary points equally spaced by perimeter, starting at the vertex
    with the greatest y and numbered counter-clockwise (the polygon is CCW)."""
    n = len(poly)
    start = max(range(n), key=lambda i: (poly[i][1], -poly[i][0]))
    ring = poly[start:] + poly[:start]
    edges = [math.hypot(ring[(i + 1) % n][0] - ring[i][0], ring[(i + 1) % n][1] - ring[i][1])
             for i in range(n)]
    total = sum(edges)
    out = []
    for k in range(6):
        want, i = total * k / 6, 0
        while want > edges[i]:
            want -= edges[i]
            i += 1
        a, b = ring[i], ring[(i + 1) % n]
        t = want / edges[i] if edges[i] else 0.0
        out.append([round(a[0] + t * (b[0] - a[0])), round(a[1] + t * (b[1] - a[1]))])
    return out


def lay_out(state: State, pieces: int, rng: random.Random) -> None:
    """3.4: ``pieces`` terrain pieces at least 1 S from every island and piece, inside
    the table (seeded tries; fewer if the table has no room)."""
    shapes = data.load()["islands_mm"]
    w, h = state["table"]
    placed = [world.island_poly(i) for i in state["islands"]]
    first = rng.randrange(len(KINDS))
    for k in range(pieces):
        for _ in range(200):
            sw, sh = shapes[rng.randrange(len(shapes))]
            rx, ry = g.mm(sw) // 2, g.mm(sh) // 2
            cx, cy = rng.randint(rx, w - rx), rng.randint(ry, h - ry)
            poly = [(round(x), round(y)) for x, y in g.ellipse_polygon(cx, cy, 2 * rx, 2 * ry)]
            if all(g.distance(poly, p) >= state["S_length"] for p in placed):
                break
        else:
            return
        placed.append(poly)
        kind = KINDS[(first + k) % len(KINDS)]
        piece: dict[str, Any] = {"id": f"T{k + 1}", "kind": kind,
                                 "poly": [[x, y] for x, y in poly], "danger": None}
        if kind == "fog":
            piece["points"] = fog_points(poly)
        state["terrain"].append(piece)


def poly(piece: dict[str, Any]) -> g.Poly:
    return world.island_poly(piece)  # the same canonical-shape cache as islands


def piece(state: State, tid: Any) -> dict[str, Any]:
    for t in state.get("terrain", []):
        if t["id"] == tid:
            return t
    raise KeyError(tid)


fogs = world.fogs  # kept in world, which combat may import without a cycle


# -- a move across terrain (8.6.3) -----------------------------------------------------


def overlapped(state: State, s: Ship) -> list[str]:
    """The reefs and Sargasso seas the ship (and its tow) overlaps now: these never
    roll for it in the move that starts here (5.18.2)."""
    polys = world.body(state, s)(world.pose(s))
    return [t["id"] for t in state.get("terrain", []) if t["kind"] != "fog"
            and any(g.overlapping(p, poly(t)) for p in polys)]


def events_on_leg(state: State, s: Ship, start: g.Pose, heading: int, dist: int,
                  skip: set[str]) -> list[tuple[float, int, str, int]]:
    """Terrain met on one segment from ``start`` (already turned to ``heading``):
    ``(distance, order, terrain id, which body part)`` sorted; ``skip`` holds the
    pieces already met or overlapped when the move began."""
    if not state.get("terrain"):
        return []
    turned = (start[0], start[1], heading)
    polys = world.body(state, s)(turned)
    u = g.cos_sin(heading)
    out = []
    for t in state["terrain"]:
        if t["id"] in skip:
            continue
        tp = poly(t)
        for part, p in enumerate(polys):
            if t["kind"] == "fog" and g.touching(p, tp):
                continue  # an exit leaves the stern touching the bank (5.18.1)
            if t["kind"] != "fog" and g.overlapping(p, tp):
                continue
            d = g.first_contact(p, u, tp)
            if d <= dist:
                out.append((d, ORDER[t["kind"]], t["id"], part))
    return sorted(out)


def walk(state: State, s: Ship, legs: list[tuple[int, int]], poses: list[g.Pose],
         rng: random.Random, events: list[Event]) -> g.Pose | None:
    """Apply the terrain events of a planned course (``legs`` and the pose after
    each, from :func:`turn.plan_course`). Returns the pose where the ship stops
    early, or None if it sails the whole course. Rolls dice, mutates the state."""
    if s["ghost"] or not state.get("terrain"):
        return None  # ghost ships ignore terrain while moving
    skip = set(overlapped(state, s))
    p = world.pose(s)
    train = [s] + ([world.ship(state, s["towing"])] if s["towing"] else [])
    for (h, _), end in zip(legs, poses, strict=False):
        dist = round(math.hypot(end[0] - p[0], end[1] - p[1]))
        for d, _, tid, part in events_on_leg(state, s, p, h, dist, skip):
            skip.add(tid)
            t = piece(state, tid)
            who = train[min(part, len(train) - 1)]
            u = g.cos_sin(h)
            at = g.round_pose(p[0] + u[0] * max(0, math.floor(d) - 1),
                              p[1] + u[1] * max(0, math.floor(d) - 1), h)
            if t["kind"] == "fog":
                for x in train:
                    x["lost_in"] = tid
                events.append({"type": "lost", "ship": s["id"], "fog": tid})
                return at
            if t["danger"] is None:
                t["danger"] = roll(rng)
                events.append({"type": "danger", "terrain": tid, "kind": t["kind"],
                               "roll": t["danger"]})
            if t["kind"] == "sargasso":
                if t["danger"] > who["masts"]:
                    who["trapped_in"] = tid
                    events.append({"type": "trapped", "ship": who["id"], "sea": tid,
                                   "danger": t["danger"], "masts": who["masts"]})
                    return at
                continue
            loss = who["masts"] - t["danger"]
            if loss <= 0:
                continue
            events.append({"type": "reef", "ship": who["id"], "reef": tid,
                           "danger": t["danger"], "loss": loss})
            if reef_damage(state, who, loss, at if who is s else None, events):
                return at
        p = end
    return None


def reef_damage(state: State, s: Ship, loss: int, at: g.Pose | None,
                events: list[Event]) -> bool:
    """``loss`` masts, aftmost first; True if the move stops (derelict or wrecked)."""
    from . import combat  # combat imports world; terrain is imported by turn

    up = world.standing(s)
    if loss > len(up):
        if at is not None:
            s["pose"] = list(at)
        wreck(state, s, events)
        return True
    for i in sorted(up, reverse=True)[:loss]:
        combat.lose_mast(state, s, i, events)
    return world.derelict(s)


def wreck(state: State, s: Ship, events: list[Event]) -> None:
    """5.18.2: sunk on a reef, the ship stays as a wreck with its crew and cargo."""
    from . import combat

    if s["towing"] is not None:
        combat.release(state, s, events)
    if s["towed_by"] is not None:
        combat.release(state, world.ship(state, s["towed_by"]), events)
    s["sunk"], s["wreck"], s["docked"] = True, True, None
    s["masts_up"] = [False] * s["masts"]
    events.append({"type": "wrecked", "ship": s["id"]})


# -- leaving fog and weed ---------------------------------------------------------------


def _fits(state: State, s: Ship, pose: g.Pose, avoid: g.Poly) -> bool:
    foot = hull.footprint(s["masts"], pose)
    if g.overlapping(foot, avoid):
        return False
    obs = world.obstacles(state, skip=world.moving_ids(s))
    return motion.overlaps([foot], obs, world.area(state)) is None


def place_outside(state: State, s: Ship, stern: g.Point, avoid: g.Poly) -> g.Pose | None:
    """A pose with the stern point at ``stern`` (on the boundary of ``avoid``), the
    hull clear of ``avoid`` and of everything else, facing as straight out of the
    nearest edge as fits (every 15°): square to the edge, the stern edge lies along
    it and touches without overlapping."""
    n = len(avoid)
    best, away = math.inf, 0
    for i in range(n):
        a, b = avoid[i], avoid[(i + 1) % n]
        d = g.point_segment_distance(stern, a, b)
        if d < best:
            best, away = d, g.heading_of(b[1] - a[1], a[0] - b[0])  # outward (CCW)
    for off in [0] + [sign * k * 150 for k in range(1, 7) for sign in (1, -1)]:
        p = hull.pose_at_stern(s["masts"], stern, (away + off) % g.TURN)
        if _fits(state, s, p, avoid):
            return p
    return None


def fog_exit(state: State, s: Ship, rng: random.Random, events: list[Event]) -> bool:
    """5.18.1: a d6 picks the numbered point; True if the ship is out."""
    fog = piece(state, s["lost_in"])
    r = roll(rng)
    stern = tuple(fog["points"][r - 1])
    p = place_outside(state, s, (float(stern[0]), float(stern[1])), poly(fog))
    if p is None:
        events.append({"type": "still_lost", "ship": s["id"], "fog": fog["id"], "roll": r})
        return False
    s["pose"], s["lost_in"] = list(p), None
    if s["towing"] is not None:
        tow = world.ship(state, s["towing"])
        tow["lost_in"] = None
        tow["pose"] = list(world.towed_pose(state, s))
    events.append({"type": "fog_exit", "ship": s["id"], "fog": fog["id"], "roll": r,
                   "at": list(p)})
    return True


def free(state: State, s: Ship, rng: random.Random, events: list[Event]) -> None:
    """5.18.3: d6 + standing masts above 6 frees the ship, stern on the edge."""
    sea = piece(state, s["trapped_in"])
    r = roll(rng)
    ok = r + len(world.standing(s)) > 6
    where = None
    if ok:
        sp = poly(sea)
        x, y = hull.stern_point(s["masts"], world.pose(s))
        # the edge point nearest the ship's stern first, then round the edge
        near = g.closest_point((x, y), sp)
        for stern in [near, *g.boundary_samples(sp, 3)]:
            where = place_outside(state, s, stern, sp)
            if where is not None:
                break
    if where is not None:
        s["pose"], s["trapped_in"] = list(where), None
    events.append({"type": "freed" if where is not None else "still_trapped",
                   "ship": s["id"], "sea": sea["id"], "roll": r})


def end_of_turn(state: State) -> None:
    """Danger ratings last until the end of the turn they were rolled in."""
    for t in state.get("terrain", []):
        t["danger"] = None
