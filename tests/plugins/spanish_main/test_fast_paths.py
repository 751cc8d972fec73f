"""The fast paths of the geometry and the bots give exactly what the plain definitions
give (the speed work of issue 15 must not change a single pose or candidate).

Each test computes the answer both ways on seeded random cases near contact, where a
shortcut would go wrong first, and on positions from seeded games.
"""

from __future__ import annotations

import math
import random
from typing import Any

from lantable.plugins.spanish_main import bots, combat, hull, motion, turn, world
from lantable.plugins.spanish_main import geometry as g

from .conftest import GAME

ISLAND = [(round(x), round(y)) for x, y in g.ellipse_polygon(50000, 50000, 20000, 15000)]


def near_island(rng: random.Random, n: int) -> list[g.Pose]:
    """Hull poses around the island, many of them touching or overlapping it."""
    return [(rng.randint(36000, 64000), rng.randint(38000, 62000), rng.randrange(g.TURN))
            for _ in range(n)]


def plain_first_contact(moving: g.Poly, u: g.Point, fixed: g.Poly) -> float:
    """The definition: the least ray hit of a vertex of either shape on the other."""
    neg = (-u[0], -u[1])
    best = math.inf
    for v in moving:
        for j in range(len(fixed)):
            best = min(best, g._ray_hit(v, u, fixed[j], fixed[(j + 1) % len(fixed)]))
    for v in fixed:
        for j in range(len(moving)):
            best = min(best, g._ray_hit(v, neg, moving[j], moving[(j + 1) % len(moving)]))
    return best


def test_8_6_first_contact_is_the_least_ray_hit() -> None:
    rng = random.Random(1)
    for pose in near_island(rng, 400):
        foot = hull.footprint(rng.choice([1, 2, 3]), pose)
        u = g.cos_sin(rng.randrange(g.TURN))
        assert g.first_contact(foot, u, ISLAND) == plain_first_contact(foot, u, ISLAND)
        assert g.first_exit(foot, u, g.rect(0, 0, 91400, 91400)) == min(
            g._ray_hit(v, u, a, b) for v in foot
            for a, b in zip(g.rect(0, 0, 91400, 91400), g.rect(0, 0, 91400, 91400)[1:]
                            + g.rect(0, 0, 91400, 91400)[:1], strict=True))


def test_8_4_a_placed_hull_has_the_box_of_its_points() -> None:
    rng = random.Random(2)
    for pose in near_island(rng, 200):
        foot = hull.footprint(3, pose)
        xs, ys = [x for x, _ in foot], [y for _, y in foot]
        assert g.box(foot) == (min(xs), min(ys), max(xs), max(ys))
        # its axes are its heading's shape's, shifted by the position
        for (nx, ny, lo, hi), (mx, my, _, _) in zip(g._axes(foot), g._axes(list(foot)),
                                                    strict=True):
            assert (nx, ny) == (mx, my) or (nx, ny) == (-mx, -my) or math.isclose(
                nx * my - ny * mx, 0, abs_tol=1e-9)
            ds = [x * nx + y * ny for x, y in foot]
            assert math.isclose(lo, min(ds), abs_tol=1e-6)
            assert math.isclose(hi, max(ds), abs_tol=1e-6)


def test_8_11_touching_is_a_distance_within_the_tolerance() -> None:
    rng = random.Random(3)
    cases = 0
    for pose in near_island(rng, 600):
        foot = hull.footprint(2, pose)
        assert g.touching(foot, ISLAND) == (g.distance(foot, ISLAND) <= g.EPS_TOUCH)
        cases += g.touching(foot, ISLAND)
    assert cases > 50  # the seeded poses touch the island often enough to tell


def test_8_6_overlaps_remembers_nothing_wrong() -> None:
    rng = random.Random(4)
    obstacles = [("island", "I1", ISLAND)]
    for pose in near_island(rng, 300) * 2:  # the second pass answers from memory
        foot = hull.footprint(3, pose)
        want = g.overlapping(foot, ISLAND)
        assert (motion.overlaps([foot], obstacles, None) is not None) == want


def test_8_7_the_turn_broad_phase_keeps_every_obstacle_a_turn_can_meet() -> None:
    rng = random.Random(5)
    obstacles = [("island", "I1", ISLAND)] + [
        ("ship", f"s{k}", hull.footprint(2, p)) for k, p in enumerate(near_island(rng, 12))]
    reach = hull.tip_radius(3) + 2
    for x, y, _ in near_island(rng, 150):
        kept = motion.nearby(obstacles, (x, y), reach)
        for h in range(0, g.TURN, 150):
            foot = hull.footprint(3, (x, y, h))
            hit = [o[1] for o in obstacles if g.overlapping(foot, o[2])]
            assert set(hit) <= {o[1] for o in kept}


def seeded_decisions(seats: int, seed: int, stride: int) -> list[tuple[dict[str, Any], int]]:
    """Copies of the state at every ``stride``-th decision of a seeded random game."""
    rng, chooser = random.Random(seed), random.Random(f"c{seed}")
    st = GAME.setup(seats, {"max_rounds": 8, "terrain": 1}, rng)
    out = []
    n = 0
    while GAME.to_act(st):
        (seat,) = GAME.to_act(st)
        if n % stride == 0:
            out.append((GAME.clone(st), seat))
        GAME.apply(st, seat, chooser.choice(GAME.concrete_actions(st, seat)), rng)
        n += 1
    return out


def plain_pivots(st: dict[str, Any], s: dict[str, Any], kind: str) -> list[int]:
    """8.7 by the definition: each compass heading whose turned hull overlaps nothing."""
    about = hull.centre if kind == "pivot" else hull.stern_point
    p0 = world.pose(s)
    obs = world.obstacles(st, skip=world.moving_ids(s))
    out = []
    for h in bots.COMPASS:
        p = hull.pose_about(s["masts"], p0, about(s["masts"], p0), h)
        if motion.overlaps([hull.footprint(s["masts"], p)], obs, world.area(st)) is None:
            out.append(h)
    return out or [s["pose"][2]]


def plain_fire(st: dict[str, Any], s: dict[str, Any]) -> list[dict[str, Any]]:
    """5.10 by the definition: every ready cannon at every allowed target in reach."""
    return [{"type": "fire", "ship": s["id"], "cannon": gun[0], "target": e["id"]}
            for gun in combat.cannons(st, s) if gun[0] not in s["fired"]
            for e in st["ships"] if not combat.target_forbidden(st, e, s["owner"])
            and combat._gun_ok(st, s, gun[0],
                               st["S_length"] if gun[2] == "S" else st["L_length"], e,
                               world.memo(st))]


def test_8_14_candidates_from_the_state_and_from_the_view_agree_uncached() -> None:
    checked = 0
    for st, seat in seeded_decisions(2, 7, 5) + seeded_decisions(3, 8, 7):
        view = GAME.view(st, seat)
        for template in GAME.legal_actions(st, seat):
            if "params" not in template:
                continue
            found = bots._discretise(st, seat, template, tuple(
                bots.targets_of(st, world.ship(st, template["ship"]))))
            assert found == bots._discretise(view, seat, template, tuple(
                bots.targets_of(view, world.ship(view, template["ship"]))))
            if template["type"] in ("pivot", "galley_pivot", "rotate"):
                s = world.ship(st, template["ship"])
                assert [a["heading"] for a in found] == plain_pivots(st, s, template["type"])
            checked += 1
    assert checked > 50


def test_5_10_fire_actions_are_every_cannon_at_every_target_in_reach() -> None:
    fired = 0
    for st, seat in seeded_decisions(2, 5, 3) + seeded_decisions(2, 6, 3):
        if st["phase"] != "play" or st["pending"]:
            continue
        for s in st["ships"]:
            if s["owner"] == seat and not s["sunk"] and turn.may_fire(st, s) \
                    and "Broadside Attack" not in world.keywords(s):
                got = turn.fire_actions(st, s)
                assert got == plain_fire(st, s)
                fired += len(got)
    assert fired > 20  # these seeded games do come within range


def test_8_5_distance_is_the_least_vertex_to_edge_distance() -> None:
    rng = random.Random(6)
    for pose in near_island(rng, 300) + [(rng.randint(0, 91400), rng.randint(0, 91400),
                                          rng.randrange(g.TURN)) for _ in range(300)]:
        foot = hull.footprint(rng.choice([1, 2, 3]), pose)
        want = 0.0 if g._intersect(foot, ISLAND) else min(
            g.point_segment_distance(v, q[j], q[(j + 1) % len(q)])
            for p, q in ((foot, ISLAND), (ISLAND, foot)) for v in p for j in range(len(q)))
        assert g.distance(foot, ISLAND) == want
