"""Queries (digest 8.14): questions a client asks about its own view.

Each answer is computed from the asking seat's view alone (the host passes nothing
else), so it cannot reveal another seat's secrets. Queries about moving or shooting
are for the asker's own ships. Distances are in units of 1/100 mm, headings in tenths
of a degree counter-clockwise from east. Query types:

- ``{"type": "sail", "ship", "heading", "distance"?}``: one segment on paper (the
  ``max_free_distance`` / ``first_contact`` helpers; ``distance`` defaults to the L
  measure): ``{"end": pose, "distance", "contact": [kind, id] | None}``, where
  ``distance`` is how far the bow tip sails (5.2.2: the turn about the bow tip moves
  it nowhere) and ``contact`` what the hull meets first (a ship, an island, a wreck or
  ``["edge", "table"]``), or ``{"blocked": reason}`` when the turn itself is not
  possible. A ``move`` with that heading and the asked distance ends at ``end``;
- ``{"type": "course", "ship", "segments"}``: a whole course on paper (the pose after
  each segment and the contact that ends it), or ``{"blocked": reason}``;
- ``{"type": "dock_approaches", "ship", "island"}``: one-segment moves that dock at
  that island (5.4.1: the bow touches it at the end): ``[{"heading", "distance"}]``,
  headings every 5 degrees within 90 degrees of the island's centre, distances no
  longer than the ship's longest measure this turn; empty for an island the ship may
  not dock at (an enemy's home, a ghost ship or a sea monster);
- ``{"type": "shootable_targets", "ship"}``: per standing mast (``"0"``, ``"1"``...),
  the enemy ships in range and line of fire of its cannon (5.10, 8.9);
- ``{"type": "ram_candidates", "ship"}``: enemy ships the bow touches behind their
  bow (5.6.1);
- ``{"type": "fort_targets", "fort"}`` (option ``forts``): per flag of one of the
  asker's forts that may still fire this turn, the targets in range and line of
  fire (only fog blocks it).
"""

from __future__ import annotations

import math
from typing import Any

from lantable.plugins import IllegalAction

from . import combat, forts, hull, turn, world
from . import geometry as g

View = dict[str, Any]


def _own_ship(view: View, seat: int | None, query: dict[str, Any]) -> dict[str, Any]:
    s = world.ship(view, query.get("ship"))
    if seat is None or s["owner"] != seat or s["sunk"]:
        raise IllegalAction(f"{s['id']} is not one of your ships afloat")
    return s


def _int(query: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = query.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise IllegalAction(f"{key} must be an integer in {lo}..{hi}, got {v!r}")
    return v


def answer(view: View, seat: int | None, query: dict[str, Any]) -> Any:
    kind = query["type"]
    if kind == "sail":
        s = _own_ship(view, seat, query)
        h = _int(query, "heading", 0, g.TURN - 1)
        d = (_int(query, "distance", 0, 10 * view["L_length"]) if "distance" in query
             else view["L_length"])
        try:
            poses, contact = turn.sail_course(view, s, [(h, d)])
        except IllegalAction as exc:
            return {"blocked": str(exc)}
        end = poses[-1]
        return {"end": list(end), "distance": sailed(world.pose(s), end, d),
                "contact": None if contact is None else list(contact)}
    if kind == "course":
        s = _own_ship(view, seat, query)
        segs = query.get("segments")
        if not isinstance(segs, list) or not 1 <= len(segs) <= 4:
            raise IllegalAction("segments must be a list of 1..4 {heading, distance}")
        legs = [(_int(x, "heading", 0, g.TURN - 1),
                 _int(x, "distance", 0, 10 * view["L_length"]))
                if isinstance(x, dict) else (0, -1) for x in segs]
        try:
            poses, contact = turn.sail_course(view, s, legs)
        except IllegalAction as exc:
            return {"blocked": str(exc)}
        return {"poses": [list(p) for p in poses],
                "contact": None if contact is None else list(contact)}
    if kind == "dock_approaches":
        s = _own_ship(view, seat, query)
        return dock_approaches(view, s, world.island(view, query.get("island")))
    if kind == "shootable_targets":
        s = _own_ship(view, seat, query)
        out = {}
        for i in world.standing(s):
            rank, reach = _cannon(s, i)
            origin = hull.mast_points(s["masts"], world.pose(s))[i]
            length = view["S_length"] if reach == "S" else view["L_length"]
            out[str(i)] = [e["id"] for e in view["ships"]
                           if world.on_plane(e) and e["owner"] != seat
                           and not (e["docked"] is not None
                                    and world.island(view, e["docked"])["home"] == e["owner"])
                           and combat.can_hit(view, s, origin, length, e, firing_mast=i)]
        return out
    if kind == "ram_candidates":
        s = _own_ship(view, seat, query)
        b = world.bow(s)
        return [e["id"] for e in view["ships"] if world.on_plane(e) and e["owner"] != seat
                and not e["ghost"] and g.touching(b, world.aft(e))]
    if kind == "fort_targets":
        f = forts.fort(view, query.get("fort"))
        if seat is None or f["owner"] != seat:
            raise IllegalAction(f"{f['id']} is not one of your forts")
        out_f: dict[str, list[str]] = {str(i): [] for i, up in enumerate(f["flags"]) if up}
        for a in forts.fire_actions(view, seat):
            if a["fort"] == f["id"]:
                out_f[str(a["flag"])].append(a["target"])
        return out_f
    raise IllegalAction(f"unknown query {kind!r}; known: sail, course, dock_approaches, "
                        "shootable_targets, ram_candidates, fort_targets")


def sailed(start: g.Pose, end: g.Pose, asked: int | None = None) -> int:
    """How far the bow tip sailed in one segment from ``start`` to ``end`` (units): the
    whole ``d`` with ``end`` = :func:`geometry.round_pose` of ``start`` moved ``d``
    along the end heading (:func:`motion.sail`); ``asked`` when it fits (two distances
    a unit apart may round to the same end). Two points, not a polygon distance."""
    (x0, y0, _), (x1, y1, h) = start, end
    c, sn = g.cos_sin(h)
    near = round(math.hypot(x1 - x0, y1 - y0))
    for d in (asked, near, near - 1, near + 1):
        if d is not None and d >= 0 and g.round_pose(x0 + c * d, y0 + sn * d, h) == tuple(end):
            return d
    return near


def reach(view: View, s: dict[str, Any]) -> int:
    """The longest segment of the ship's base move this turn (5.2.5). A view names
    crew and treasure by id (``c3``, ``t5``), the state by index."""
    as_state = {**s, "crew": [_index(c) for c in s["crew"]],
                "hold": [_index(t) for t in s["hold"]]}
    return max(world.term_length(view, t) for t in world.move_terms(view, as_state))


def _index(item: int | str) -> int:
    return item if isinstance(item, int) else int(item[1:])


def dock_approaches(view: View, s: dict[str, Any], isl: dict[str, Any]
                    ) -> list[dict[str, int]]:
    """One-segment moves of ``s`` whose bow ends touching ``isl`` (5.4.1), headings
    every 5 degrees within 90 of the island's centre, nearest to it first."""
    if s["ghost"] or world.monster(s) or isl["home"] not in (None, s["owner"]):
        return []
    poly = world.island_poly(isl)
    cx, cy = g.centroid(poly)
    x, y, _ = s["pose"]
    aim = g.heading_of(cx - x, cy - y)
    longest = reach(view, s)
    out = []
    for off in sorted(range(-900, 901, 50), key=abs):
        h = (aim + off) % g.TURN
        try:
            poses, contact = turn.sail_course(view, s, [(h, longest)])
        except IllegalAction:
            continue
        if contact == ("island", isl["id"]) and g.touching(
                hull.bow_region(s["masts"], poses[-1]), poly):
            out.append({"heading": h, "distance": sailed(world.pose(s), poses[-1])})
    return out


def _cannon(s: dict[str, Any], mast: int) -> tuple[int, str]:
    from . import data
    return data.cannon(data.ship(s["card"])["cannons"][mast])
