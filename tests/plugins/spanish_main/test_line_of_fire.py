"""Pirates of the Spanish Main, line of fire (§5.10.2-3, §8.9, A-23; issue 24, item 11).

A shot is legal when some point of the target is in range and the open segment from
the mast to that same point crosses no blocker's interior and none of the shooter's
other sails. The engine finds, on every edge of the target, the stretches in range
that no blocker hides (exact half-plane cuts). Here it is measured against an
independent exact reference: every edge is cut at each *critical* point (where the
line from the mast passes a blocker's corner or a sail's end, where the edge crosses
a blocker's or a sail's outline, where it meets the range circle), between which
visibility cannot change, and the line test is run at each cut and each middle.
"""

from __future__ import annotations

import math
import random

from lantable.plugins.spanish_main import combat, hull
from lantable.plugins.spanish_main import geometry as g

L = 8380
S = 5750


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def _clear(origin, limit, q, blockers, sails):
    if math.hypot(q[0] - origin[0], q[1] - origin[1]) > limit:
        return False
    if any(g.crosses(origin, q, a, b) for a, b in sails):
        return False
    return not any(g.blocks(origin, q, p) for p in blockers)


def reference(origin, limit, target, blockers, sails=()):
    """The exact answer, by critical points (see the module docstring)."""
    mx, my = origin
    corners = [v for p in blockers for v in p] + [v for s in sails for v in s]
    outlines = [list(zip(p, p[1:] + p[:1], strict=True)) for p in blockers] + [list(sails)]
    n = len(target)
    for i in range(n):
        p, q = target[i], target[(i + 1) % n]
        dx, dy = q[0] - p[0], q[1] - p[1]
        ts = {0.0, 1.0}
        wx, wy = p[0] - mx, p[1] - my
        qa, qb = dx * dx + dy * dy, 2 * (dx * wx + dy * wy)
        disc = qb * qb - 4 * qa * (wx * wx + wy * wy - limit * limit)
        if disc >= 0:
            ts |= {(-qb - math.sqrt(disc)) / (2 * qa), (-qb + math.sqrt(disc)) / (2 * qa)}
        for vx, vy in corners:  # the line from the mast through a corner
            den = _cross(vx - mx, vy - my, dx, dy)
            if den:
                ts.add(-_cross(vx - mx, vy - my, wx, wy) / den)
        for edges in outlines:  # the edge crosses an outline
            for a, b in edges:
                ex, ey = b[0] - a[0], b[1] - a[1]
                den = _cross(dx, dy, ex, ey)
                if den:
                    t = _cross(a[0] - p[0], a[1] - p[1], ex, ey) / den
                    s = _cross(a[0] - p[0], a[1] - p[1], dx, dy) / den
                    if 0 <= s <= 1:
                        ts.add(t)
        cuts = sorted(t for t in ts if 0 <= t <= 1)
        points = cuts + [(a + b) / 2 for a, b in zip(cuts, cuts[1:], strict=False)]
        for t in points:
            if _clear(origin, limit, (p[0] + t * dx, p[1] + t * dy), blockers, sails):
                return True
    return False


def sampled(origin, limit, target, blockers, sails=()):
    """The engine's former test (8.9's suggestion cut down): the closest point, the
    vertices and 3 points per edge."""
    near = g.closest_point(origin, target)
    if math.hypot(near[0] - origin[0], near[1] - origin[1]) > limit:
        return False
    return any(_clear(origin, limit, q, blockers, sails)
               for q in [near, *g.boundary_samples(target, 3)])


def random_setup(rng):
    """A shooter, a target within L of it, and 1-4 islands or ships near the line
    between them, none overlapping another."""
    for _ in range(1000):
        k = rng.randint(1, 5)
        shooter = (k, (rng.randint(20000, 60000), rng.randint(20000, 60000), rng.randrange(3600)))
        cx, cy = hull.centre(k, shooter[1])
        ang = rng.uniform(0, 2 * math.pi)
        r = rng.uniform(2000, L + 3000)
        tk = rng.randint(1, 5)
        tpose = (round(cx + r * math.cos(ang)), round(cy + r * math.sin(ang)), rng.randrange(3600))
        target = hull.footprint(tk, tpose)
        pieces = [hull.footprint(k, shooter[1]), target]
        if g.overlapping(pieces[0], target):
            continue
        blockers = []
        for _ in range(rng.randint(1, 4)):
            f = rng.uniform(0.2, 0.8)
            bx = cx + f * r * math.cos(ang) + rng.gauss(0, 1500)
            by = cy + f * r * math.sin(ang) + rng.gauss(0, 1500)
            if rng.random() < 0.4:
                w, h = rng.randint(1500, 9000), rng.randint(1500, 6500)
                poly = g.ellipse_polygon(round(bx), round(by), w, h)
            else:
                pose = (round(bx), round(by), rng.randrange(3600))
                poly = hull.footprint(rng.randint(1, 5), pose)
            if any(g.overlapping(poly, p) for p in pieces):
                continue
            pieces.append(poly)
            blockers.append(poly)
        if blockers:
            return shooter, target, blockers
    raise AssertionError("no set-up")


def pairs(seed, setups):
    """(origin, limit, target, blockers, sails) for every cannon of every set-up."""
    rng = random.Random(seed)
    out = []
    for _ in range(setups):
        (k, pose), target, blockers = random_setup(rng)
        masts = hull.mast_points(k, pose)
        for i, origin in enumerate(masts):
            sails = hull.sails(k, pose, [j for j in range(k) if j != i])
            out.append((origin, L + g.EPS_TOUCH, target, blockers, sails))
    return out


def test_8_9_line_of_fire_is_exact_over_random_set_ups():
    """300 random set-ups, every cannon: the engine agrees with the exact reference on
    every pair, where the former sampling refused legal shots."""
    legal = refused_before = 0
    for origin, limit, target, blockers, sails in pairs(24, 300):
        want = reference(origin, limit, target, blockers, sails)
        got = combat.sees(origin, limit, target, blockers, sails)
        assert got == want, (origin, target, blockers)
        if want:
            legal += 1
            refused_before += not sampled(origin, limit, target, blockers, sails)
    assert legal > 300
    assert refused_before > 0  # the set-ups do reach what sampling missed


def test_5_10_2_a_target_seen_only_between_the_old_samples_can_be_shot():
    """Two blockers leave a gap through which only a stretch of the target's near edge
    between its old sample points (and of its far edge) can be seen."""
    origin = (0.0, 0.0)
    target = g.rect(-3750, 10000, 3750, 11800)
    blockers = [g.rect(-6000, 5000, -750, 5100), g.rect(-500, 5000, 6000, 5100)]
    assert not sampled(origin, 10 * L, target, blockers)
    assert reference(origin, 10 * L, target, blockers)
    assert combat.sees(origin, 10 * L, target, blockers)
    # the gap closed: no shot
    shut = [g.rect(-6000, 5000, -750, 5100), g.rect(-800, 5000, 6000, 5100)]
    assert not reference(origin, 10 * L, target, shut)
    assert not combat.sees(origin, 10 * L, target, shut)


def test_8_9_range_and_line_of_fire_to_the_same_point():
    """A-23: the stretch of the target in range must itself be visible; a visible
    stretch out of range does not make a shot."""
    origin = (0.0, 0.0)
    target = g.rect(-3750, 10000, 3750, 11800)
    blockers = [g.rect(-6000, 5000, -750, 5100), g.rect(-500, 5000, 6000, 5100)]
    # in range: only the middle of the near edge (|x| <= ~1430); visible: x in (-1470, -1000)
    assert combat.sees(origin, math.hypot(1200, 10000), target, blockers)
    assert not combat.sees(origin, math.hypot(900, 10000), target, blockers)
    assert reference(origin, math.hypot(1200, 10000), target, blockers)
    assert not reference(origin, math.hypot(900, 10000), target, blockers)


def test_8_9_a_landed_marine_on_its_island_outline_is_blocked_only_inland():
    """A-33: a shot from a point of the island's outline is blocked by that island only
    when the line goes inland."""
    isl = g.ellipse_polygon(0, 0, 9000, 6500)
    origin = isl[0]  # the easternmost vertex
    out = g.rect(6000, -1000, 7000, 1000)
    across = g.rect(-7000, -1000, -6000, 1000)
    assert combat.sees(origin, 10 * L, out, [isl])
    assert not combat.sees(origin, 10 * L, across, [isl])
    assert reference(origin, 10 * L, out, [isl]) and not reference(origin, 10 * L, across, [isl])
