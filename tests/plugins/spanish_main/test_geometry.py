"""The geometry model of digest section 8, with hand-computed cases (units: 1/100 mm)."""

from __future__ import annotations

import hashlib

import pytest

from lantable.plugins.spanish_main import geometry as g
from lantable.plugins.spanish_main import hull, motion

TABLE = g.rect(-20000, -20000, 91400, 91400)


def square(cx: float, cy: float, half: float) -> g.Poly:
    return g.rect(cx - half, cy - half, cx + half, cy + half)


def ship_body(masts: int):
    return lambda pose: [hull.footprint(masts, pose)]


def test_8_12_trig_table_is_pinned():
    # The replay guarantee: this table, not the platform's libm, gives every heading.
    digest = hashlib.sha256(repr((g.COS, g.SIN)).encode()).hexdigest()
    assert digest == "62c5a3ab448ce32ea994cbb260b9bf415da82b0163e20013579e6e8e1268174b"
    assert g.cos_sin(0) == (1.0, 0.0)
    assert g.cos_sin(900) == (0.0, 1.0)
    assert g.cos_sin(1800) == (-1.0, 0.0)
    assert g.cos_sin(2700) == (0.0, -1.0)
    assert g.cos_sin(-900) == g.cos_sin(2700)


def test_8_4_1_two_mast_hull_from_the_table():
    # l=60 w=16 b=14 mm: tip, port taper, port stern, starboard stern, starboard taper
    assert hull.footprint(2, (0, 0, 0)) == [
        (0.0, 0.0), (-1400.0, 800.0), (-6000.0, 800.0), (-6000.0, -800.0), (-1400.0, -800.0)]
    assert hull.mast_points(2, (0, 0, 0)) == [(-2000.0, 0.0), (-4000.0, 0.0)]
    assert hull.stern_point(2, (0, 0, 0)) == (-6000.0, 0.0)
    assert hull.centre(2, (0, 0, 0)) == (-3000.0, 0.0)


def test_8_4_2_bow_region_runs_to_the_first_mast():
    bow = hull.bow_region(3, (0, 0, 900))  # heading north: the hull trails south
    assert max(y for _, y in bow) == 0.0
    assert min(y for _, y in bow) == pytest.approx(-2000.0)


def test_8_5_distance_touching_overlapping():
    a, b = square(0, 0, 100), square(300, 0, 100)
    assert g.distance(a, b) == 100.0
    assert not g.touching(a, b)
    c = square(230, 0, 100)  # 30 units = 0.3 mm apart: touching (eps 0.5 mm)
    assert g.distance(a, c) == pytest.approx(30.0)
    assert g.touching(a, c) and not g.overlapping(a, c)
    d = square(150, 0, 100)
    assert g.distance(a, d) == 0.0 and g.overlapping(a, d)
    assert g.penetration(a, d) == pytest.approx(50.0)


def test_8_6_3_sailing_stops_at_first_contact():
    island = g.rect(10000, 0, 20000, 10000)
    end, sailed, hit = motion.sail(ship_body(2), (7000, 5000, 0), 0, 20000,
                                   [("island", "I1", island)], TABLE)
    # the bow tip would meet the island after 3000 units; it stops one unit short
    assert (end, sailed, hit) == ((9999, 5000, 0), 2999, ("island", "I1"))
    assert g.touching(hull.bow_region(2, end), island)


def test_8_6_3_free_water_sails_the_full_distance():
    end, sailed, hit = motion.sail(ship_body(2), (7000, 10000, 900), 900, 8380, [], TABLE)
    assert (end, sailed, hit) == ((7000, 18380, 900), 8380, None)


def test_8_6_2_turning_into_an_island_is_refused():
    island = g.rect(10000, 0, 20000, 20000)
    free = (9000, 30000, 0)
    with pytest.raises(motion.Blocked):  # the tip is just north of the island; heading
        # north-west swings the hull back over it
        motion.sail(ship_body(2), (12000, 20100, 0), 1350, 100,
                    [("island", "I1", island)], TABLE)
    end, sailed, hit = motion.sail(ship_body(2), free, 0, 100, [("island", "I1", island)], TABLE)
    assert (end, sailed, hit) == ((9100, 30000, 0), 100, None)


def test_8_6_2_a_docked_ship_backs_off_its_island():
    # [DESIGN, A-11] the hull may swing over the island it touches, but must end clear
    island = g.rect(10000, 0, 20000, 20000)
    docked = (9999, 10000, 0)
    obstacles = [("island", "I1", island)]
    end, sailed, hit = motion.sail(ship_body(2), docked, 1800, 8380, obstacles, TABLE,
                                   exempt=frozenset({"I1"}))
    assert (end, sailed, hit) == ((1619, 10000, 1800), 8380, None)
    with pytest.raises(motion.Blocked):  # too short to clear the island
        motion.sail(ship_body(2), docked, 1800, 3000, obstacles, TABLE,
                    exempt=frozenset({"I1"}))
    with pytest.raises(motion.Blocked):  # not exempt: the turn itself is refused
        motion.sail(ship_body(2), docked, 1800, 8380, obstacles, TABLE)


def test_8_2_table_edge_stops_a_ship():
    end, sailed, hit = motion.sail(ship_body(1), (90000, 50000, 0), 0, 8380, [], TABLE)
    assert hit == ("edge", "table") and end == (91399, 50000, 0) and sailed == 1399


def test_8_6_3_contact_with_a_ship_at_an_angle():
    # a ship heading east meets a square 45 degrees round: the tip meets the west edge
    other = square(5000, 0, 1000)
    end, sailed, hit = motion.sail(ship_body(1), (-1000, 0, 0), 0, 8380,
                                   [("ship", "x", other)], TABLE)
    assert hit == ("ship", "x") and sailed == 4999


def test_8_7_pivot_about_the_midpoint_puts_the_bow_where_the_stern_was():
    pose = (10000, 10000, 0)
    turned = hull.pose_about(2, pose, hull.centre(2, pose), 1800)
    assert turned == (4000, 10000, 1800)
    assert hull.stern_point(2, turned) == (10000.0, 10000.0)


def test_8_7_schooner_rotation_about_the_stern():
    pose = (10000, 10000, 0)
    turned = hull.pose_about(2, pose, hull.stern_point(2, pose), 900)
    assert turned == (4000, 16000, 900)


def test_8_9_line_of_fire_past_an_island():
    island = square(500, 0, 100)
    assert g.blocks((0, 0), (1000, 0), island)
    assert not g.blocks((0, 0), (1000, 300), island)
    # grazing a corner or running along an edge does not block
    assert not g.blocks((0, 100), (1000, 100), island)
    assert not g.blocks((400, -500), (400, 500), square(500, 0, 100))


def test_8_9_sails_cross_transversally():
    assert g.crosses((0, 0), (10, 0), (5, -1), (5, 1))
    assert not g.crosses((0, 0), (10, 0), (10, -1), (10, 1))  # touching an end


def test_8_8_snap_bow_to_an_island():
    island = g.rect(40000, 40000, 49000, 46500)
    pose = motion.snap_to(ship_body(3), island, 0, 30000, [], TABLE)
    assert pose is not None and pose[2] == 0
    assert g.touching(hull.bow_region(3, pose), island)
    assert not g.overlapping(hull.footprint(3, pose), island)


def test_3_3_island_shapes_are_twelve_gons_in_ellipses():
    poly = g.ellipse_polygon(0, 0, 9000, 6500)
    assert len(poly) == 12
    assert poly[0] == (4500.0, 0.0) and poly[3] == (0.0, 3250.0)
