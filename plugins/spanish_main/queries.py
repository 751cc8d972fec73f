"""Queries (digest 8.14): questions a client asks about its own view.

Each answer is computed from the asking seat's view alone (the host passes nothing
else), so it cannot reveal another seat's secrets. Queries about moving or shooting
are for the asker's own ships. Query types:

- ``{"type": "sail", "ship", "heading", "distance"?}``: one segment on paper:
  ``{"end": pose, "distance", "contact": [kind, id] | None}`` (the
  ``max_free_distance`` / ``first_contact`` helpers), or ``{"blocked": reason}``;
- ``{"type": "course", "ship", "segments"}``: a whole course on paper (the pose after
  each segment and the contact that ends it), or ``{"blocked": reason}``;
- ``{"type": "dock_approaches", "ship", "island"}``: one-segment courses (heading and
  distance) that end with the bow touching that island;
- ``{"type": "shootable_targets", "ship"}``: per cannon, the targets in range and
  line of fire;
- ``{"type": "ram_candidates", "ship"}``: enemy ships the bow touches behind their bow;
- ``{"type": "fort_targets", "fort"}`` (option ``forts``): per flag of one of the
  asker's forts that may still fire this turn, the targets in range and line of
  fire (only fog blocks it).
"""

from __future__ import annotations

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
        start = world.pose(s)
        end = poses[-1]
        return {"end": list(end), "distance": round(g.distance([start[:2]], [end[:2]])),
                "contact": None if contact is None else list(contact)}
    if kind == "course":
        s = _own_ship(view, seat, query)
        segs = query.get("segments")
        if not isinstance(segs, list) or not 1 <= len(segs) <= 4:
            raise IllegalAction("segments must be a list of 1..4 {heading, distance}")
        legs = [(_int(x, "heading", 0, g.TURN - 1), _int(x, "distance", 0, 10 * view["L_length"]))
                if isinstance(x, dict) else (0, -1) for x in segs]
        try:
            poses, contact = turn.sail_course(view, s, legs)
        except IllegalAction as exc:
            return {"blocked": str(exc)}
        return {"poses": [list(p) for p in poses],
                "contact": None if contact is None else list(contact)}
    if kind == "dock_approaches":
        s = _own_ship(view, seat, query)
        isl = world.island(view, query.get("island"))
        poly = world.island_poly(isl)
        cx, cy = g.centroid(poly)
        x, y, _ = s["pose"]
        aim = g.heading_of(cx - x, cy - y)
        out = []
        for off in range(-300, 301, 50):
            h = (aim + off) % g.TURN
            try:
                poses, contact = turn.sail_course(view, s, [(h, 10 * view["L_length"])])
            except IllegalAction:
                continue
            if contact == ("island", isl["id"]) and g.touching(
                    hull.bow_region(s["masts"], poses[-1]), poly):
                d = round(g.distance([(x, y)], [poses[-1][:2]]))
                out.append({"heading": h, "distance": d})
        return out
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


def _cannon(s: dict[str, Any], mast: int) -> tuple[int, str]:
    from . import data
    return data.cannon(data.ship(s["card"])["cannons"][mast])
