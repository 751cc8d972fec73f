"""Sailing until first contact, rotations in place, and placements (digest 8.6-8.8).

A *body* is a function from a pose to the polygons that move together (one ship, or a
tug and its tow). Obstacles are ``(kind, id, polygon)`` triples. Every function here
is pure and returns poses in whole units (:func:`geometry.round_pose`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from . import geometry as g

Body = Callable[[g.Pose], list[g.Poly]]
Obstacle = tuple[str, str, g.Poly]


class Blocked(ValueError):
    """A rotation or placement would overlap an obstacle or leave the table."""


def overlaps(polys: list[g.Poly], obstacles: Sequence[Obstacle],
             area: g.Poly | None) -> tuple[str, str] | None:
    """The first obstacle a pose overlaps (or ``("edge", "table")``), else None.
    ``area`` is the table, an axis-aligned rectangle."""
    boxes = [g.box(p) for p in polys]
    for kind, oid, poly in obstacles:
        ox0, oy0, ox1, oy1 = g.box(poly)
        for p, (px0, py0, px1, py1) in zip(polys, boxes, strict=True):
            # g.overlapping(p, poly), its box test inlined (the common answer)
            if ox0 >= px1 or px0 >= ox1 or oy0 >= py1 or py0 >= oy1:
                continue
            if _deep(p, poly):
                return kind, oid
    if area is not None:
        x0, y0, x1, y1 = g.box(area)
        for px0, py0, px1, py1 in boxes:
            if px0 < x0 or py0 < y0 or px1 > x1 or py1 > y1:
                return "edge", "table"
    return None


# (id(a), id(b)) -> (a, b, overlapping): the same hull is tested against the same
# obstacle again and again (shapes are never mutated; an entry keeps both alive)
_PAIRS: dict[tuple[int, int], tuple[g.Poly, g.Poly, bool]] = {}
_PAIRS_LIMIT = 50000


def _deep(a: g.Poly, b: g.Poly) -> bool:
    """``a`` overlaps ``b`` past the tolerance (their boxes meet), remembered."""
    key = (id(a), id(b))
    hit = _PAIRS.get(key)
    if hit is not None and hit[0] is a and hit[1] is b:
        return hit[2]
    found = g.penetration(a, b, g.EPS_PEN) > g.EPS_PEN
    if len(_PAIRS) >= _PAIRS_LIMIT:
        _PAIRS.clear()
    _PAIRS[key] = (a, b, found)
    return found


def nearby(obstacles: Sequence[Obstacle], point: g.Point, reach: float) -> list[Obstacle]:
    """The obstacles that may come within ``reach`` of ``point``, in their order: all
    that a body within ``reach`` of that point can overlap (the broad phase for
    turns: an obstacle is left out when its bounding box or its bounding circle is
    further than ``reach``)."""
    px, py = point
    out = []
    for o in obstacles:
        x0, y0, x1, y1 = g.box(o[2])
        if x0 - reach <= px <= x1 + reach and y0 - reach <= py <= y1 + reach:
            cx, cy, r = g.circle(o[2])
            if math.hypot(cx - px, cy - py) <= reach + r:
                out.append(o)
    return out


def inside_area(point: g.Point, reach: float, area: g.Poly | None) -> bool:
    """Everything within ``reach`` of ``point`` lies on the table (``area``, an
    axis-aligned rectangle; None is no edge)."""
    if area is None:
        return True
    x0, y0, x1, y1 = g.box(area)
    px, py = point
    return x0 <= px - reach and px + reach <= x1 and y0 <= py - reach and py + reach <= y1


def _circle(polys: list[g.Poly]) -> tuple[g.Point, float]:
    pts = [v for p in polys for v in p]
    c = (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))
    return c, max(math.hypot(x - c[0], y - c[1]) for x, y in pts)


def sweep(polys: list[g.Poly], u: g.Point, limit: float, obstacles: Sequence[Obstacle],
          area: g.Poly | None) -> tuple[float, tuple[str, str] | None]:
    """How far the polygons can travel along ``u`` (up to ``limit``) before first
    contact, and what they meet (None if nothing within ``limit``)."""
    best, hit = math.inf, None
    # broad phase: the box swept by the body's boxes against each obstacle's box
    boxes = [g.box(p) for p in polys]
    dx, dy = u[0] * limit, u[1] * limit
    sx0 = min(b[0] for b in boxes) + min(0.0, dx) - g.EPS_TOUCH
    sy0 = min(b[1] for b in boxes) + min(0.0, dy) - g.EPS_TOUCH
    sx1 = max(b[2] for b in boxes) + max(0.0, dx) + g.EPS_TOUCH
    sy1 = max(b[3] for b in boxes) + max(0.0, dy) + g.EPS_TOUCH
    for kind, oid, poly in obstacles:
        ox0, oy0, ox1, oy1 = g.box(poly)
        if ox0 > sx1 or ox1 < sx0 or oy0 > sy1 or oy1 < sy0:
            continue
        for p in polys:
            t = g.first_contact(p, u, poly)
            if t < best:
                best, hit = t, (kind, oid)
    if area is not None:
        for p in polys:
            t = g.first_exit(p, u, area)
            if t < best:
                best, hit = t, ("edge", "table")
    if best > limit:
        return limit, None
    return best, hit


def sail(body: Body, pose: g.Pose, heading: int, distance: int,
         obstacles: Sequence[Obstacle], area: g.Poly | None,
         exempt: frozenset[str] = frozenset()) -> tuple[g.Pose, int, tuple[str, str] | None]:
    """One movement segment (8.6.2-8.6.3): turn to ``heading`` about the bow tip, then
    slide up to ``distance`` units, stopping just short of the first contact.

    ``exempt`` names the obstacles the ship touched when the segment began (the island
    it is docked at): turning may swing the hull over them, as a ruler laid at the bow
    lets a ship back off a coast [DESIGN, A-11], but the segment must end clear of them.

    A turn that makes a new contact (one not in ``exempt``) ends the segment there,
    distance 0, and names what it touched (8.6.2).

    Returns the end pose, the distance sailed and the object met (or None).

    Raises:
        Blocked: the turned pose overlaps an obstacle or leaves the table, or the
            segment would end over an exempt obstacle.
    """
    x, y, _ = pose
    turned = (x, y, heading % g.TURN)
    polys = body(turned)
    swung = [o for o in obstacles if o[1] in exempt
             and any(g.overlapping(p, o[2]) for p in polys)]
    others = [o for o in obstacles if o not in swung] if swung else obstacles
    bad = overlaps(polys, others, area)
    if bad is not None:
        raise Blocked(f"turning to {heading / 10:g} degrees would overlap {bad[0]} {bad[1]}")
    met = touched_by_turn(polys, obstacles, exempt) if heading % g.TURN != pose[2] else None
    if met is not None:  # 8.6.2 / 5.2.3: the turn made a contact, distance 0
        if swung:
            raise Blocked(f"turning to {heading / 10:g} degrees touches {met[0]} {met[1]}, "
                          f"which ends the move over {swung[0][0]} {swung[0][1]}")
        return turned, 0, met
    u = g.cos_sin(heading)
    t, hit = sweep(polys, u, distance, others, area)
    d = distance if hit is None else max(0, math.ceil(t) - 1)
    end = g.round_pose(x + u[0] * d, y + u[1] * d, heading)
    if d > 0 and overlaps(body(end), others, area) is not None:
        # Rounding, or a ship that already touched what it sails into (the sweep sees
        # no new contact): back off to the last clear whole unit. The turned pose
        # (d = 0) is clear and the overlap ahead is one interval, so bisect.
        lo, hi = 0, d
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if overlaps(body(g.round_pose(x + u[0] * mid, y + u[1] * mid, heading)),
                        others, area) is None:
                lo = mid
            else:
                hi = mid
        d = lo
        end = g.round_pose(x + u[0] * d, y + u[1] * d, heading)
    if swung:
        bad = overlaps(body(end), swung, None)
        if bad is not None:
            raise Blocked(f"the segment would end over {bad[0]} {bad[1]}")
    return end, d, hit


def touched_by_turn(polys: list[g.Poly], obstacles: Sequence[Obstacle],
                    exempt: frozenset[str]) -> tuple[str, str] | None:
    """The first obstacle the turned body touches that it did not touch when the
    segment began (8.6.2: that contact ends the move). The table edge is not one: it
    stops a sliding ship, but a turn near it does not end the move [DESIGN, A-44]."""
    boxes = [g.box(p) for p in polys]
    eps = g.EPS_TOUCH
    for kind, oid, poly in obstacles:
        if oid in exempt:
            continue
        ox0, oy0, ox1, oy1 = g.box(poly)
        for p, (px0, py0, px1, py1) in zip(polys, boxes, strict=True):
            if ox0 - px1 > eps or px0 - ox1 > eps or oy0 - py1 > eps or py0 - oy1 > eps:
                continue
            if g.touching(p, poly):
                return kind, oid
    return None


def free_distance(body: Body, pose: g.Pose, heading: int, limit: int,
                  obstacles: Sequence[Obstacle], area: g.Poly | None,
                  exempt: frozenset[str] = frozenset()) -> tuple[int, tuple[str, str] | None]:
    """How far a segment on ``heading`` would get (the ``max_free_distance`` and
    ``first_contact`` queries of 8.14); raises :class:`Blocked` like :func:`sail`."""
    _, d, hit = sail(body, pose, heading, limit, obstacles, area, exempt)
    return d, hit


def snap_to(body: Body, target: g.Poly, heading: int, start_distance: float,
            obstacles: Sequence[Obstacle], area: g.Poly | None) -> g.Pose | None:
    """A pose on ``heading`` whose body touches ``target``, approached from
    ``start_distance`` units away on the far side (``snap_bow_to`` of 8.8)."""
    (cx, cy), _ = _circle([target])
    c, s = g.cos_sin(heading)
    start = g.round_pose(cx - c * start_distance, cy - s * start_distance, heading)
    polys = body(start)
    if overlaps(polys, obstacles, area) is not None or any(
            g.overlapping(p, target) for p in polys):
        return None
    t = min(g.first_contact(p, (c, s), target) for p in polys)
    if not math.isfinite(t):
        return None
    d = max(0, math.ceil(t) - 1)
    end = g.round_pose(start[0] + c * d, start[1] + s * d, heading)
    t2, hit = sweep(body(start), (c, s), d, obstacles, None)
    if hit is not None or overlaps(body(end), obstacles, area) is not None:
        return None
    if any(g.overlapping(p, target) for p in body(end)):
        return None
    return end
