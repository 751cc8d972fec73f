"""Invariants of a Pirates of the Spanish Main state, for tests and benchmarks.

:func:`problems` lists what is wrong (empty when all is well): no ship over an
island, another ship or the table edge; no ship docked whose bow is off the island
(5.4.1); gold conserved (at home, on islands and
ships, scuttled away: exactly what was dealt plus what entered play later); no view
shows a treasure value a seat has not seen, another seat's face-down gold at home
(6.2), an opponent's face-down crew or an opponent's fort not yet built (secret
purchases, 8.13).
"""

from __future__ import annotations

from typing import Any

from . import geometry as g
from . import views, world


def problems(st: dict[str, Any]) -> list[str]:
    out: list[str] = []
    afloat = [s for s in st["ships"] if world.on_plane(s) and s["placed"]]
    islands = [world.island_poly(i) for i in st["islands"]]
    islands += [world.foot(s) for s in st["ships"] if s["wreck"]]
    w, h = st["table"]
    for k, s in enumerate(afloat):
        f = world.foot(s)
        if any(g.overlapping(f, p) for p in islands):
            out.append(f"{s['id']} lies over an island or a wreck")
        for e in afloat[k + 1:]:
            if g.overlapping(f, world.foot(e)):
                out.append(f"{s['id']} lies over {e['id']}")
        x0, y0, x1, y1 = g.box(f)
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            out.append(f"{s['id']} is off the table")
        # 5.4.1: docked while the bow touches the island (a tow docks with its tug, 5.5)
        if s["docked"] is not None and s["towed_by"] is None and not g.touching(
                world.bow(s), world.island_poly(world.island(st, s["docked"]))):
            out.append(f"{s['id']} is docked at {s['docked']} but its bow touches no island")
    if st["phase"] != "home":
        about = sum(t["gold"] for t in st["treasure"] if t["where"] not in ("home", "gone"))
        if sum(st["home_gold"]) + about + st["gold_lost"] != st["gold_dealt"] + st["gold_made"]:
            out.append("gold is not conserved")
    for seat in range(st["n_players"]):
        view = views.view(st, seat)
        for t, real in zip(view["treasure"], st["treasure"], strict=True):
            if t["gold"] is not None and not (real["face_up"] or real["seen"][seat]):
                out.append(f"seat {seat} sees the value of {t['id']}")
        for p in range(st["n_players"]):  # 6.2: face-down gold at home stays its player's
            down = sum(t["gold"] for t in st["treasure"] if t["where"] == "home"
                       and t.get("home_of") == p and not t["face_up"])
            if p != seat and view["home_gold"][p] != st["home_gold"][p] - down:
                out.append(f"seat {seat} sees seat {p}'s face-down gold at home")
        for c, real in zip(view["crew"], st["crew"], strict=True):
            if real["owner"] != seat and not real["face_up"] and c["kind"] is not None:
                out.append(f"seat {seat} sees face-down crew {c['id']}")
        for f in view.get("forts", []):
            if f["owner"] != seat and f["island"] is None and not f["destroyed"]:
                out.append(f"seat {seat} sees the unbuilt fort {f['id']} (8.13)")
    return out
