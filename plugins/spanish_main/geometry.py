"""The continuous-geometry model of Pirates of the Spanish Main (rules digest section 8).

Pure functions on convex polygons; no game state, no randomness.

**Exact replay.** Every pose is integers: a position in *units* of 1/100 mm and a
heading in tenths of a degree (``0 .. 3599``, counter-clockwise from +x). Cosines and
sines come from :data:`COS` / :data:`SIN`, an integer table (value x 2**30) built from
the first quadrant by symmetry and pinned by a checksum test, so no result depends on a
platform's ``math.sin``. Everything else is IEEE-754 double arithmetic (``+ - * /
sqrt`` and comparisons), which is correctly rounded on every machine Python runs on.
A computed pose is rounded to whole units at one defined point (the end of each
motion step, :func:`round_pose`) and checked again after rounding, so the same actions
give the same poses, bit for bit.

Shapes are convex polygons, lists of ``(x, y)`` floats in units, counter-clockwise.
Ships, islands (12-gons inscribed in ellipses), forts and the table are all convex,
which keeps every test here a short loop (separating axes, ray casts, clipping).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
Poly = list[Point]
Pose = tuple[int, int, int]  # bow-tip x, y in units; heading in tenths of a degree

UNITS_PER_MM = 100
TURN = 3600  # tenths of a degree in a full turn
EPS_TOUCH = 50  # 0.5 mm: closer than this is touching (digest 8.11)
EPS_PEN = 1  # 0.01 mm: deeper than this is overlapping

_SCALE = 1 << 30


def _quadrant() -> list[int]:
    # The only call of a platform trig function; rounded to integers and pinned by a
    # checksum in the tests (a libm that differed would fail that test, not a replay).
    return [round(math.cos(i * math.pi / 1800) * _SCALE) for i in range(901)]


def _tables() -> tuple[list[int], list[int]]:
    q = _quadrant()
    q[900] = 0
    cos = [0] * TURN
    for i in range(TURN):
        k, r = divmod(i, 900)
        if k == 0:
            cos[i] = q[r]
        elif k == 1:
            cos[i] = -q[900 - r]
        elif k == 2:
            cos[i] = -q[r]
        else:
            cos[i] = q[900 - r]
    sin = [cos[(i - 900) % TURN] for i in range(TURN)]
    return cos, sin


COS, SIN = _tables()


def cos_sin(heading: int) -> tuple[float, float]:
    """The unit vector of ``heading`` (tenths of a degree), from the integer table."""
    h = heading % TURN
    return COS[h] / _SCALE, SIN[h] / _SCALE


def mm(value: float) -> int:
    """Millimetres to whole units."""
    return round(value * UNITS_PER_MM)


def round_pose(x: float, y: float, heading: int) -> Pose:
    """The one rounding point: a computed position to whole units."""
    return (round(x), round(y), heading % TURN)


def transform(local: Sequence[Point], pose: Pose) -> Poly:
    """Local points (origin at the bow tip, +x forward) placed at ``pose``."""
    px, py, h = pose
    c, s = cos_sin(h)
    return [(px + c * lx - s * ly, py + s * lx + c * ly) for lx, ly in local]


def heading_of(dx: float, dy: float) -> int:
    """The table heading closest to the direction ``(dx, dy)`` (for clients and bots;
    the engine never needs it for a rule)."""
    return round(math.degrees(math.atan2(dy, dx)) * 10) % TURN


# -- shapes -----------------------------------------------------------------------------


def ellipse_polygon(cx: int, cy: int, width: int, height: int, sides: int = 12) -> Poly:
    """A ``sides``-gon inscribed in an axis-aligned ellipse (islands, terrain)."""
    step = TURN // sides
    return [(cx + COS[k * step] / _SCALE * width / 2, cy + SIN[k * step] / _SCALE * height / 2)
            for k in range(sides)]


def rect(x0: float, y0: float, x1: float, y1: float) -> Poly:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _cross(ax: float, ay: float, bx: float, by: float) -> float:
    return ax * by - ay * bx


# Identity caches: a shape is never mutated once built (footprints come from an lru
# cache, islands are converted once), so its axes and bounding box are computed once
# per object. Each entry keeps its shape alive, so an id is never reused while cached.
_AXES: dict[int, tuple[Poly, list[tuple[float, float, float, float]]]] = {}
_BOXES: dict[int, tuple[Poly, tuple[float, float, float, float]]] = {}
_CACHE_LIMIT = 50000


class Moved(list):  # type: ignore[type-arg]
    """A shape translated by whole units: ``base`` moved by ``(dx, dy)``. Its axes
    and bounding box are ``base``'s, shifted, computed only when a test first needs
    them (a hull's depend only on its heading; most hulls placed while searching are
    rejected by a box or never tested at all). Behaves as the list of its points."""

    __slots__ = ("base", "dx", "dy", "axes", "bbox")


def moved(base: Poly, dx: int, dy: int) -> Poly:
    """``base`` translated by ``(dx, dy)`` (see :class:`Moved`; do not mutate)."""
    out = Moved([(dx + px, dy + py) for px, py in base])
    out.base, out.dx, out.dy, out.axes, out.bbox = base, dx, dy, None, None
    return out


def _axes(poly: Poly) -> list[tuple[float, float, float, float]]:
    """The polygon's edge normals ``(nx, ny)``, each with the polygon's own extent
    ``(lo, hi)`` along it (so a separating-axis test projects only the other shape)."""
    if poly.__class__ is Moved:
        found = poly.axes  # type: ignore[attr-defined]
        if found is None:
            dx, dy = poly.dx, poly.dy  # type: ignore[attr-defined]
            found = poly.axes = [  # type: ignore[attr-defined]
                (nx, ny, lo + dx * nx + dy * ny, hi + dx * nx + dy * ny)
                for nx, ny, lo, hi in _axes(poly.base)]  # type: ignore[attr-defined]
        return found  # type: ignore[no-any-return]
    hit = _AXES.get(id(poly))
    if hit is not None and hit[0] is poly:
        return hit[1]
    n = len(poly)
    out: list[tuple[float, float, float, float]] = []
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        ex, ey = x1 - x0, y1 - y0
        norm = math.sqrt(ex * ex + ey * ey)
        if norm > 0:
            ax, ay = ey / norm, -ex / norm
            # a parallel edge (a hull's two sides, an island's opposite edges) gives
            # the same axis: test it once
            if not any(abs(ax * b[1] - ay * b[0]) < 1e-12 for b in out):
                ds = [x * ax + y * ay for x, y in poly]
                out.append((ax, ay, min(ds), max(ds)))
    if len(_AXES) >= _CACHE_LIMIT:
        _AXES.clear()
    _AXES[id(poly)] = (poly, out)
    return out


def penetration(a: Poly, b: Poly, stop: float = 0.0) -> float:
    """Separating-axis overlap depth: > 0 when the interiors intersect (by that
    much along the best axis), <= 0 when separated (minus a lower bound of the gap).
    Stops early, returning that axis's depth, once an axis shows a depth <= ``stop``."""
    best = math.inf
    for own, other in ((a, b), (b, a)):
        for nx, ny, lo, hi in _axes(own):
            olo = ohi = other[0][0] * nx + other[0][1] * ny
            for x, y in other:
                d = x * nx + y * ny
                if d < olo:
                    olo = d
                elif d > ohi:
                    ohi = d
            depth = hi - olo if hi - olo < ohi - lo else ohi - lo
            if depth < best:
                best = depth
                if best <= stop:
                    return best
    return best


def bbox_gap(a: Poly, b: Poly) -> float:
    """The larger gap between the two bounding boxes along x or y (a lower bound of
    the distance; <= 0 when the boxes meet): the cheap broad phase of every test."""
    ax0, ay0, ax1, ay1 = box(a)
    bx0, by0, bx1, by1 = box(b)
    return max(bx0 - ax1, ax0 - bx1, by0 - ay1, ay0 - by1)


def box(poly: Poly) -> tuple[float, float, float, float]:
    """The bounding box ``(x0, y0, x1, y1)`` (cached per shape object)."""
    if poly.__class__ is Moved:
        found = poly.bbox  # type: ignore[attr-defined]
        if found is None:
            # rounding is monotonic: min(dx + x) == dx + min(x), exactly
            x0, y0, x1, y1 = box(poly.base)  # type: ignore[attr-defined]
            dx, dy = poly.dx, poly.dy  # type: ignore[attr-defined]
            found = poly.bbox = (dx + x0, dy + y0, dx + x1, dy + y1)  # type: ignore[attr-defined]
        return found  # type: ignore[no-any-return]
    hit = _BOXES.get(id(poly))
    if hit is not None and hit[0] is poly:
        return hit[1]
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    out = (min(xs), min(ys), max(xs), max(ys))
    if len(_BOXES) >= _CACHE_LIMIT:
        _BOXES.clear()
    _BOXES[id(poly)] = (poly, out)
    return out


def overlapping(a: Poly, b: Poly) -> bool:
    if bbox_gap(a, b) >= 0:
        return False
    return penetration(a, b, EPS_PEN) > EPS_PEN


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    ex, ey = b[0] - a[0], b[1] - a[1]
    length2 = ex * ex + ey * ey
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey)
                                              / length2))
    dx, dy = a[0] + t * ex - p[0], a[1] + t * ey - p[1]
    return math.sqrt(dx * dx + dy * dy)


def closest_point(p: Point, poly: Poly) -> Point:
    """The point of the boundary of ``poly`` closest to ``p``."""
    best, out = math.inf, poly[0]
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        length2 = ex * ex + ey * ey
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey)
                                                  / length2))
        q = (a[0] + t * ex, a[1] + t * ey)
        d = (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2
        if d < best:
            best, out = d, q
    return out


def inside(p: Point, poly: Poly) -> bool:
    """``p`` in the closed convex polygon (counter-clockwise)."""
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if _cross(b[0] - a[0], b[1] - a[1], p[0] - a[0], p[1] - a[1]) < 0:
            return False
    return True


def _sides(a: Point, b: Point, c: Point, d: Point) -> tuple[float, float, float, float]:
    """Which side of ``ab`` ``c`` and ``d`` lie on, and of ``cd`` ``a`` and ``b``."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    fx, fy = d[0] - c[0], d[1] - c[1]
    return (_cross(ex, ey, c[0] - a[0], c[1] - a[1]), _cross(ex, ey, d[0] - a[0], d[1] - a[1]),
            _cross(fx, fy, a[0] - c[0], a[1] - c[1]), _cross(fx, fy, b[0] - c[0], b[1] - c[1]))


def _segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    d1, d2, d3, d4 = _sides(a, b, c, d)
    return d1 * d2 <= 0 and d3 * d4 <= 0


def crosses(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Segments ``ab`` and ``cd`` cross transversally (touching an end does not count)."""
    d1, d2, d3, d4 = _sides(a, b, c, d)
    return d1 * d2 < 0 and d3 * d4 < 0


def _intersect(a: Poly, b: Poly) -> bool:
    """The closed polygons share a point (the exact test behind a distance of 0)."""
    if penetration(a, b) >= 0:
        na, nb = len(a), len(b)
        for i in range(na):
            for j in range(nb):
                if _segments_intersect(a[i], a[(i + 1) % na], b[j], b[(j + 1) % nb]):
                    return True
        if inside(a[0], b) or inside(b[0], a):
            return True
    return False


def distance(a: Poly, b: Poly) -> float:
    """Minimum distance between two convex polygons; 0 when they intersect."""
    if _intersect(a, b):
        return 0.0
    best = math.inf
    sqrt = math.sqrt
    for p, q in ((a, b), (b, a)):
        n = len(q)
        for j in range(n):
            # point_segment_distance(v, q[j], q[j + 1]) for every vertex v, inlined
            # (the same arithmetic): the island layout measures thousands of these
            ax, ay = q[j]
            bx, by = q[(j + 1) % n]
            ex, ey = bx - ax, by - ay
            length2 = ex * ex + ey * ey
            for vx, vy in p:
                t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((vx - ax) * ex + (vy - ay) * ey)
                                                          / length2))
                dx, dy = ax + t * ex - vx, ay + t * ey - vy
                d = sqrt(dx * dx + dy * dy)
                if d < best:
                    best = d
    return best


def touching(a: Poly, b: Poly) -> bool:
    ax0, ay0, ax1, ay1 = box(a)
    bx0, by0, bx1, by1 = box(b)
    # bbox_gap(a, b) > EPS_TOUCH, inlined (the common answer)
    if bx0 - ax1 > EPS_TOUCH or ax0 - bx1 > EPS_TOUCH or by0 - ay1 > EPS_TOUCH \
            or ay0 - by1 > EPS_TOUCH:
        return False
    # an axis that separates them by more than the tolerance is the cheap answer
    if penetration(a, b, -EPS_TOUCH) < -EPS_TOUCH:
        return False
    # distance(a, b) <= EPS_TOUCH, stopping at the first close pair
    if _intersect(a, b):
        return True
    for p, q in ((a, b), (b, a)):
        n = len(q)
        for v in p:
            for j in range(n):
                if point_segment_distance(v, q[j], q[(j + 1) % n]) <= EPS_TOUCH:
                    return True
    return False


def segment_distance(p: Point, q: Point, poly: Poly) -> float:
    """Distance from segment ``pq`` to a convex polygon."""
    return distance([p, q], poly) if p != q else distance([p], poly)


def _ray_hit(p: Point, u: Point, a: Point, b: Point) -> float:
    """Least ``t >= 0`` where ``p + t u`` meets segment ``ab`` (inf if never)."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    denom = _cross(u[0], u[1], ex, ey)
    wx, wy = a[0] - p[0], a[1] - p[1]
    if denom == 0:
        return math.inf  # parallel: a vertex of the other shape meets this edge first
    t = _cross(wx, wy, ex, ey) / denom
    s = _cross(wx, wy, u[0], u[1]) / denom
    if t < 0 or s < 0 or s > 1:
        return math.inf
    return t


def _rays(points: Poly, ux: float, uy: float, poly: Poly, best: float) -> float:
    """The least of ``best`` and :func:`_ray_hit` of every point along ``(ux, uy)``
    against every edge of ``poly``: the same arithmetic, edge by edge (a ray that
    cannot beat ``best`` is not finished)."""
    n = len(poly)
    for j in range(n):
        ax, ay = poly[j]
        bx, by = poly[(j + 1) % n]
        ex, ey = bx - ax, by - ay
        denom = ux * ey - uy * ex
        if denom == 0:
            continue  # parallel: a vertex of the other shape meets this edge first
        for px, py in points:
            wx, wy = ax - px, ay - py
            t = (wx * ey - wy * ex) / denom
            if t < 0 or t >= best:
                continue
            s = (wx * uy - wy * ux) / denom
            if 0 <= s <= 1:
                best = t
    return best


def first_contact(moving: Poly, u: Point, fixed: Poly) -> float:
    """How far ``moving`` travels along unit vector ``u`` before it meets ``fixed``
    (exact for convex polygons: a vertex of one meets an edge of the other)."""
    best = _rays(moving, u[0], u[1], fixed, math.inf)
    return _rays(fixed, -u[0], -u[1], moving, best)


def first_exit(moving: Poly, u: Point, area: Poly) -> float:
    """How far ``moving`` (inside the convex ``area``) travels along ``u`` before a
    vertex reaches the area's boundary (the table edge)."""
    return _rays(moving, u[0], u[1], area, math.inf)


def clip(p: Point, q: Point, poly: Poly) -> tuple[float, float] | None:
    """The parameter interval of segment ``pq`` inside the convex ``poly``
    (Cyrus-Beck), or None if it misses."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        # inward normal of a CCW polygon edge
        nx, ny = -(b[1] - a[1]), b[0] - a[0]
        num = nx * (p[0] - a[0]) + ny * (p[1] - a[1])
        den = nx * dx + ny * dy
        if den == 0:
            if num < 0:
                return None
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return t0, t1


def blocks(p: Point, q: Point, poly: Poly) -> bool:
    """The open segment ``pq`` passes through the interior of ``poly`` (grazing a
    boundary point or an edge does not block, digest 8.9)."""
    span = clip(p, q, poly)
    if span is None:
        return False
    t0, t1 = span
    length = math.hypot(q[0] - p[0], q[1] - p[1])
    if (t1 - t0) * length <= EPS_PEN:
        return False
    # the chord's midpoint must be strictly inside, not on an edge (a grazing line)
    mt = (t0 + t1) / 2
    m = (p[0] + mt * (q[0] - p[0]), p[1] + mt * (q[1] - p[1]))
    nverts = len(poly)
    for i in range(nverts):
        a, b = poly[i], poly[(i + 1) % nverts]
        ex, ey = b[0] - a[0], b[1] - a[1]
        if _cross(ex, ey, m[0] - a[0], m[1] - a[1]) <= EPS_PEN * math.hypot(ex, ey):
            return False
    return True


def boundary_samples(poly: Poly, per_edge: int) -> list[Point]:
    """The vertices plus ``per_edge`` evenly spaced points inside each edge."""
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        out.append(a)
        for k in range(1, per_edge + 1):
            t = k / (per_edge + 1)
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


def bounding_radius(poly: Poly, centre: Point) -> float:
    return max(math.hypot(x - centre[0], y - centre[1]) for x, y in poly)


_CIRCLES: dict[int, tuple[Poly, tuple[float, float, float]]] = {}


def circle(poly: Poly) -> tuple[float, float, float]:
    """``(cx, cy, r)``: the :func:`centroid` and the :func:`bounding_radius` about it
    (cached per shape object, like :func:`box`)."""
    hit = _CIRCLES.get(id(poly))
    if hit is not None and hit[0] is poly:
        return hit[1]
    c = centroid(poly)
    out = (c[0], c[1], bounding_radius(poly, c))
    if len(_CIRCLES) >= _CACHE_LIMIT:
        _CIRCLES.clear()
    _CIRCLES[id(poly)] = (poly, out)
    return out


def centroid(poly: Poly) -> Point:
    n = len(poly)
    return (sum(x for x, _ in poly) / n, sum(y for _, y in poly) / n)


# -- line of fire: the visible stretches of a target's outline (8.9) ----------------------

HalfPlane = tuple[float, float, float]  # a*x + b*y + c > 0


def _through(a: Point, b: Point) -> HalfPlane:
    """The open half-plane left of the directed line ``a -> b`` (cross(b - a, q - a) > 0)."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    return -ey, ex, ey * a[0] - ex * a[1]


def shadow(origin: Point, poly: Poly, inset: float = EPS_PEN) -> list[HalfPlane] | None:
    """Where a convex ``poly`` blocks shots from ``origin``: the points ``q`` whose
    open segment ``(origin, q)`` passes through the interior of ``poly`` shrunk by
    ``inset`` (the tolerance of :func:`blocks`: a line that only grazes deeper than
    nothing does not block), as an intersection of open half-planes (an empty list:
    everywhere, the origin is inside; None: nowhere). From outside, that is the open
    cone the shrunk polygon subtends, beyond each of its edges that faces the origin
    (a landed Marine on its island's outline is outside by ``inset``)."""
    mx, my = origin
    n = len(poly)
    lines = []  # inward unit normal and offset: n.x + c is the depth past the inset
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        length = math.sqrt(ex * ex + ey * ey)
        if length:
            nx, ny = -ey / length, ex / length
            lines.append((nx, ny, -(nx * ax + ny * ay) - inset))
    depth = [nx * mx + ny * my + c for nx, ny, c in lines]
    low = min(depth)
    if low > 1e-9:
        return []
    if low >= -1e-9:  # on the shrunk outline: the directions that go inward at once
        on = [line for line, d in zip(lines, depth, strict=True) if d <= 1e-9]
        return [(nx, ny, -(nx * mx + ny * my)) for nx, ny, _ in on]
    corners = []  # the shrunk polygon's corners: where consecutive lines meet
    k = len(lines)
    for i in range(k):
        n1x, n1y, c1 = lines[i - 1]
        n2x, n2y, c2 = lines[i]
        det = n1x * n2y - n1y * n2x
        if abs(det) > 1e-12:
            corners.append(((c2 * n1y - c1 * n2y) / det, (c1 * n2x - c2 * n1x) / det))
    # the two tangent corners (the polygon spans less than half a turn from outside)
    left = right = corners[0]
    for v in corners:
        if _cross(left[0] - mx, left[1] - my, v[0] - mx, v[1] - my) < 0:
            left = v
        if _cross(right[0] - mx, right[1] - my, v[0] - mx, v[1] - my) > 0:
            right = v
    if _cross(left[0] - mx, left[1] - my, right[0] - mx, right[1] - my) <= 0:
        return None  # degenerate (no interior seen)
    out = [_through(origin, left), _through(right, origin)]
    out += [line for line, d in zip(lines, depth, strict=True) if d < 0]  # beyond each facing edge
    return out


def sail_shadow(origin: Point, a: Point, b: Point) -> list[HalfPlane] | None:
    """The points ``q`` whose segment from ``origin`` crosses the sail ``ab``
    transversally (:func:`crosses`): inside the open wedge the sail subtends, beyond
    its line. None if the origin is in line with the sail."""
    mx, my = origin
    turn = _cross(a[0] - mx, a[1] - my, b[0] - mx, b[1] - my)
    if turn == 0:
        return None
    if turn < 0:
        a, b = b, a
    # now the origin lies left of a -> b, so "beyond" is left of b -> a
    return [_through(origin, a), _through(b, origin), _through(b, a)]


def _interval(regions: list[list[HalfPlane]], p: Point, d: Point, lo: float, hi: float
              ) -> list[tuple[float, float]]:
    """The parameter stretches of ``[lo, hi]`` on ``p + t d`` outside every open
    region (an intersection of open half-planes), each as ``(first, last)``; a
    stretch may be a single point between two regions that meet there."""
    cut: list[tuple[float, float]] = []
    for hps in regions:
        a, b = -math.inf, math.inf
        for ha, hb, hc in hps:
            f0 = ha * p[0] + hb * p[1] + hc
            f1 = ha * d[0] + hb * d[1]
            if f1 > 0:
                a = max(a, -f0 / f1)
            elif f1 < 0:
                b = min(b, -f0 / f1)
            elif f0 <= 0:
                a, b = math.inf, -math.inf
            if a >= b:
                break
        if a < b and b > lo and a < hi:
            cut.append((a, b))
    cut.sort()
    out = []
    at = lo
    for a, b in cut:
        if a >= at:
            out.append((at, min(a, hi)))
        at = max(at, b)
        if at > hi:
            return out
    if at <= hi:
        out.append((at, hi))
    return out


def visible_points(origin: Point, limit: float, poly: Poly, blockers: Sequence[Poly],
                   sails: Sequence[tuple[Point, Point]] = ()) -> list[Point]:
    """One point (the middle) of every stretch of ``poly``'s outline within ``limit``
    of ``origin`` that no blocker interior and no sail hides (8.9, exact: each edge
    is cut by the range circle and by every blocker's :func:`shadow`). A shot is legal
    when one of them passes the test of the line itself (``blocks``, ``crosses``),
    which grants the tolerance of a grazing line."""
    regions = [r for r in (shadow(origin, b) for b in blockers) if r is not None]
    regions += [r for r in (sail_shadow(origin, a, b) for a, b in sails) if r is not None]
    mx, my = origin
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        dx, dy = q[0] - p[0], q[1] - p[1]
        # the range: |p + t d - origin| <= limit, a quadratic in t
        wx, wy = p[0] - mx, p[1] - my
        qa = dx * dx + dy * dy
        qb = 2 * (dx * wx + dy * wy)
        qc = wx * wx + wy * wy - limit * limit
        if qa == 0:
            continue
        disc = qb * qb - 4 * qa * qc
        if disc < 0:
            continue
        root = math.sqrt(disc)
        lo, hi = max(0.0, (-qb - root) / (2 * qa)), min(1.0, (-qb + root) / (2 * qa))
        if lo > hi:
            continue
        for a, b in _interval(regions, p, (dx, dy), lo, hi):
            t = (a + b) / 2
            out.append((p[0] + t * dx, p[1] + t * dy))
    return out
