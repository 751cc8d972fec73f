"""A ship's shape in its own frame (digest 8.4.1-8.4.2) and placed at a pose.

Local frame: origin at the bow tip, +x forward, +y to port, lengths in units.
The hull is the pointed pentagon ``(0,0) (-b,+w/2) (-l,+w/2) (-l,-w/2) (-b,-w/2)``;
the bow region is the part between the tip and the foremost mast; the stern edge is
``x = -l``; masts sit on the centreline.
"""

from __future__ import annotations

import math
from functools import lru_cache

from . import geometry as g
from .data import hull_mm


@lru_cache(maxsize=16)
def _local(masts: int) -> dict[str, list[tuple[float, float]] | float | list[float]]:
    h = hull_mm(masts)
    length, w2, taper = g.mm(h["length"]), g.mm(h["beam"]) / 2, g.mm(h["taper"])
    m1 = g.mm(h["masts"][0])
    return {
        "hull": [(0.0, 0.0), (-taper, w2), (-length, w2), (-length, -w2), (-taper, -w2)],
        # CCW order: tip, port taper, port at first mast, starboard at first mast, ...
        "bow": [(0.0, 0.0), (-taper, w2), (-m1, w2), (-m1, -w2), (-taper, -w2)],
        "length": float(length),
        "beam": 2 * w2,
        "masts": [float(-g.mm(m)) for m in h["masts"]],
    }


def length(masts: int) -> float:
    return _local(masts)["length"]  # type: ignore[return-value]


@lru_cache(maxsize=8192)
def footprint(masts: int, pose: g.Pose) -> g.Poly:
    """The hull polygon at ``pose`` (counter-clockwise; cached, do not mutate)."""
    x, y, h = pose
    return g.moved(_turned(masts, h), x, y)


@lru_cache(maxsize=8192)
def _turned(masts: int, heading: int) -> g.Poly:
    return g.transform(_ccw(_local(masts)["hull"]), (0, 0, heading))  # type: ignore[arg-type]


@lru_cache(maxsize=8192)
def bow_region(masts: int, pose: g.Pose) -> g.Poly:
    return g.transform(_ccw(_local(masts)["bow"]), pose)  # type: ignore[arg-type]


@lru_cache(maxsize=8192)
def aft_region(masts: int, pose: g.Pose) -> g.Poly:
    """The hull behind the foremost mast: what a ram may strike (digest 5.6.1)."""
    loc = _local(masts)
    half = loc["beam"] / 2  # type: ignore[operator]
    m1 = loc["masts"][0]  # type: ignore[index]
    tail = -length(masts)
    return g.transform(_ccw([(m1, half), (tail, half), (tail, -half), (m1, -half)]), pose)


@lru_cache(maxsize=16)
def radius(masts: int) -> float:
    """How far any point of the hull lies from its centre, at most."""
    loc = _local(masts)
    half_l, half_w = loc["length"] / 2, loc["beam"] / 2  # type: ignore[operator]
    return math.hypot(half_l, half_w)


@lru_cache(maxsize=16)
def tip_radius(masts: int) -> float:
    """How far any point of the hull lies from its bow tip, or from its stern point,
    at most (the reach of a turn about either)."""
    loc = _local(masts)
    return math.hypot(loc["length"], loc["beam"] / 2)  # type: ignore[operator]


def stern_edge(masts: int, pose: g.Pose) -> g.Poly:
    half = _local(masts)["beam"] / 2  # type: ignore[operator]
    tail = -length(masts)
    return g.transform([(tail, -half), (tail, half)], pose)


def stern_point(masts: int, pose: g.Pose) -> g.Point:
    return g.transform([(-length(masts), 0.0)], pose)[0]


@lru_cache(maxsize=8192)
def centre(masts: int, pose: g.Pose) -> g.Point:
    return g.transform([(-length(masts) / 2, 0.0)], pose)[0]


@lru_cache(maxsize=8192)
def mast_points(masts: int, pose: g.Pose) -> list[g.Point]:
    """The mast centres, foremost first (cached, do not mutate)."""
    return g.transform([(x, 0.0) for x in _local(masts)["masts"]], pose)  # type: ignore[union-attr]


def sails(masts: int, pose: g.Pose, standing: list[int]) -> list[tuple[g.Point, g.Point]]:
    """The sail segment across the beam at each standing mast (indices into masts;
    cached, do not mutate)."""
    return _sails(masts, tuple(pose), tuple(standing))  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def _sails(masts: int, pose: g.Pose, standing: tuple[int, ...]) -> list[tuple[g.Point, g.Point]]:
    half = _local(masts)["beam"] / 2  # type: ignore[operator]
    xs = _local(masts)["masts"]
    out = []
    for i in standing:
        a, b = g.transform([(xs[i], -half), (xs[i], half)], pose)  # type: ignore[index]
        out.append((a, b))
    return out


def _ccw(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    # The listed order runs tip -> port -> stern -> starboard, which is clockwise in a
    # frame with +y to port... it is counter-clockwise only if reversed; decide by area.
    area = 0.0
    n = len(points)
    for i in range(n):
        x0, y0 = points[i]
        x1, y1 = points[(i + 1) % n]
        area += x0 * y1 - x1 * y0
    return points if area > 0 else list(reversed(points))


def pose_at_stern(masts: int, stern: g.Point, heading: int) -> g.Pose:
    """The pose whose stern point is ``stern`` and heading ``heading`` (placements)."""
    c, s = g.cos_sin(heading)
    ln = length(masts)
    return g.round_pose(stern[0] + c * ln, stern[1] + s * ln, heading)


def pose_about(masts: int, pose: g.Pose, pivot: g.Point, new_heading: int) -> g.Pose:
    """``pose`` rotated about ``pivot`` to ``new_heading`` (pivots, Schooner, Galley)."""
    x, y, h = pose
    c0, s0 = g.cos_sin(h)
    # the pivot in local coordinates, then placed back with the new heading
    lx = c0 * (pivot[0] - x) + s0 * (pivot[1] - y)
    ly = -s0 * (pivot[0] - x) + c0 * (pivot[1] - y)
    c1, s1 = g.cos_sin(new_heading)
    return g.round_pose(pivot[0] - (c1 * lx - s1 * ly), pivot[1] - (s1 * lx + c1 * ly),
                        new_heading)
