"""For bots: a discretisation of the continuous actions (digest 8.14), a heuristic
that likes gold at home, gold aboard near home and empty holds near treasure, and
states sampled from a seat's view (hidden treasure values and crew kinds dealt from
what that seat cannot rule out).

:func:`discretise` reads only geometry that views and states share, so a client
holding just its view gets the same candidates as the host.
"""

from __future__ import annotations

import math
import random
from typing import Any

from lantable.plugins import IllegalAction

from . import data, deal, forts, hull, motion, turn, world
from . import geometry as g

State = dict[str, Any]
Action = dict[str, Any]

COMPASS = [g.TURN * k // 8 for k in range(8)]


def _centre(poly: list[Any]) -> g.Point:
    return g.centroid([(x, y) for x, y in poly])


def aims(state: State, s: dict[str, Any], open_water: bool = True,
         targets: list[int] | None = None) -> list[int]:
    """A heading at each island and each enemy ship (the engine stops at first
    contact, so sailing at an island docks there), then the compass: all eight points
    in open water, the four diagonals near land (enough to get clear). ``targets``:
    :func:`targets`, when the caller has it."""
    out = targets_of(state, s) if targets is None else list(targets)
    out += COMPASS if open_water else COMPASS[1::2]
    seen: set[int] = set()
    return [h for h in out if not (h in seen or seen.add(h))]


def targets_of(state: State, s: dict[str, Any]) -> list[int]:
    """The headings from the ship's bow tip at each island and each enemy ship."""
    x, y, _ = s["pose"]
    out = []
    for isl in state["islands"]:
        cx, cy, _r = g.circle(world.island_poly(isl))
        out.append(g.heading_of(cx - x, cy - y))
    for e in state["ships"]:
        if world.on_plane(e) and e["owner"] != s["owner"]:
            cx, cy = hull.centre(e["masts"], world.pose(e))
            out.append(g.heading_of(cx - x, cy - y))
    return out


def _reach(state: State, s: dict[str, Any]) -> float:
    """How far from the bow tip the ship (and its tow) can reach, with a margin."""
    reach = hull.length(s["masts"]) + hull.radius(s["masts"]) + 2 * g.EPS_TOUCH
    if s["towing"] is not None:
        reach += 2 * hull.length(world.ship(state, s["towing"])["masts"])
    return reach


def _open_water(state: State, s: dict[str, Any]) -> bool:
    """Nothing within a hull's reach of the bow tip: every turn about it is free."""
    x, y, _ = s["pose"]
    reach = hull.length(s["masts"]) + 2 * g.EPS_TOUCH
    if s["towing"] is not None:
        reach += hull.length(world.ship(state, s["towing"])["masts"])
    w, h = state["table"]
    if min(x, y, w - x, h - y) <= reach:
        return False
    for _, _, poly in world.obstacles(state, skip=world.moving_ids(s)):
        cx, cy, r = g.circle(poly)
        if math.hypot(cx - x, cy - y) <= reach + r:
            return False
    return True


_CACHE: dict[Any, list[Action]] = {}
_CACHE_SIZE = 4096


def _signature(state: State, template: Action, heads: tuple[int, ...]) -> Any:
    """Everything a discretisation depends on, and nothing more, so that a ship's
    candidates are computed again only when something near it moved: the template,
    the table and islands, the ship's place, form and tow, the headings it aims at,
    and every ship within reach of its whole course (obstacles it could turn into,
    touch, or stop at). Equal signatures give equal candidates."""
    s = world.ship(state, template.get("ship"))
    lengths = tuple(template["params"].get("segments", {}).get("lengths", ()))
    tow = None if s["towing"] is None else world.ship(state, s["towing"])["masts"]
    if template["type"] == "move":
        reach = sum(lengths) + _reach(state, s)
        point: g.Point = (s["pose"][0], s["pose"][1])
    else:
        reach = 2 * hull.length(s["masts"]) + 2 * g.EPS_TOUCH
        point = hull.centre(s["masts"], world.pose(s))
    px, py = point
    near = []
    for e in state["ships"]:
        if not (world.on_plane(e) or e["wreck"]) or e["id"] in (s["id"], s["towing"]):
            continue
        x0, y0, x1, y1 = g.box(world.foot(e))
        if x0 - reach <= px <= x1 + reach and y0 - reach <= py <= y1 + reach:
            near.append((e["id"], e["masts"], *e["pose"]))
    islands = tuple(world.island_key(i) for i in state["islands"])
    return (template["type"], s["id"], lengths, tuple(state["table"]), tuple(s["pose"]),
            s["masts"], s["ghost"], s["lost_in"], tow, heads, tuple(near), islands)


def discretise(state: State, seat: int, template: Action) -> list[Action] | None:
    """Cached: a random game asks for the same ship's candidates many times while
    nothing near it moved (the candidates are pure geometry, see _signature)."""
    targets: tuple[int, ...] = ()
    if template["type"] == "move":
        targets = tuple(targets_of(state, world.ship(state, template.get("ship"))))
    key = _signature(state, template, targets)
    found = _CACHE.get(key)
    if found is None:
        found = _discretise(state, seat, template, targets) or []
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = found
    return [_copy(a) for a in found] or None


def _copy(action: Action) -> Action:
    out = dict(action)
    if "segments" in out:
        out["segments"] = [dict(x) for x in out["segments"]]
    return out


def _away(state: State, s: dict[str, Any], obs: list[Any], touched: frozenset[str]
          ) -> int | None:
    """The heading from the centre of what the ship touches to its bow tip."""
    pts = [v for _, oid, poly in obs if oid in touched for v in poly]
    if not pts:
        return None
    cx, cy = g.centroid(pts)
    x, y, _ = s["pose"]
    return g.heading_of(x - cx, y - cy)


def _discretise(state: State, seat: int, template: Action, targets: tuple[int, ...]
                ) -> list[Action] | None:
    s = world.ship(state, template.get("ship"))
    kind = template["type"]
    out: list[Action] = []
    if kind == "move" and s["lost_in"] is not None:
        # 5.18.1: a lost ship leaves from a point the die picks; any course is
        # accepted (it sails from there as far as it fits)
        lengths = template["params"]["segments"]["lengths"]
        return [{"type": "move", "ship": s["id"],
                 "segments": [{"heading": h, "distance": d} for d in lengths]}
                for h in COMPASS]
    if kind == "move":
        lengths = template["params"]["segments"]["lengths"]
        free = _open_water(state, s) and not s["ghost"]
        if not free and not s["ghost"]:
            bodyf = world.body(state, s)
            # a turn about the bow tip stays within the body's reach of it (so does
            # whatever the ship touches): with nothing there and the table's edge
            # further, every turn is clear
            tip, reach = (s["pose"][0], s["pose"][1]), _reach(state, s)
            obs = motion.nearby(world.obstacles(state, skip=world.moving_ids(s)), tip, reach)
            touched = world.touching_now(state, s, obs)
            area = world.area(state)
            away = _away(state, s, obs, touched)
            clear = not obs and motion.inside_area(tip, reach, area)
        backing = [away] if not free and not s["ghost"] and away is not None else []
        for h in aims(state, s, free, list(targets)) + backing:
            legs = [(h, d) for d in lengths]
            if not free:
                # cheap first: a turn that overlaps nothing is legal (the engine stops
                # at contact), one that overlaps an untouched obstacle is not; a turn
                # over a touched obstacle (backing off a dock) is sailed out on paper,
                # for the one heading straight away from what the ship touches
                turned = None if s["ghost"] or clear else motion.overlaps(
                    bodyf((s["pose"][0], s["pose"][1], h)), obs, area)
                if turned is not None and (turned[1] not in touched or h != away):
                    continue
                if turned is not None or s["ghost"]:
                    try:
                        turn.sail_course(state, s, legs)
                    except IllegalAction:
                        continue
            action = {"type": "move", "ship": s["id"],
                      "segments": [{"heading": a, "distance": d} for a, d in legs]}
            if action not in out:
                out.append(action)
        # boxed in: staying put (current heading, distance 0) is always a legal move
        return out or [{"type": "move", "ship": s["id"],
                        "segments": [{"heading": s["pose"][2], "distance": 0}]}]
    pivot_of = {"pivot": hull.centre, "galley_pivot": hull.stern_point,
                "rotate": hull.stern_point}
    if kind in pivot_of:
        masts, p0 = s["masts"], world.pose(s)
        pivot = pivot_of[kind](masts, p0)
        # the hull turns within this of the pivot (a unit of slack for the rounding of
        # the pose): with nothing there and the table's edge further, every turn is clear
        reach = (hull.radius(masts) if kind == "pivot" else hull.tip_radius(masts)) + 2
        obs = [] if s.get("submerged") else motion.nearby(  # 5.16: nothing stops it
            world.obstacles(state, skip=world.moving_ids(s)), pivot, reach)
        area = world.area(state)
        clear = not obs and motion.inside_area(pivot, reach, area)
        for h in COMPASS:
            p = hull.pose_about(masts, p0, pivot, h)
            if clear or motion.overlaps([hull.footprint(masts, p)], obs, area) is None:
                out.append({"type": kind, "ship": s["id"], "heading": h})
        return out or [{"type": kind, "ship": s["id"], "heading": s["pose"][2]}]
    return None


# -- heuristic --------------------------------------------------------------------------


def _worth(state: State, t: int, seat: int) -> float:
    tr = state["treasure"][t]
    if not (tr["face_up"] or tr["seen"][seat]):
        return 1.9
    if tr["gold"] is None:  # a hidden deck: the value the sample's dealer drew (hidden.py)
        dealer = state.get("_dealer")
        if dealer is None:
            return 1.9
        n = state["n_players"]
        return deal.contributions(n, False)[dealer["decks"]["treasure"]["order"][t]][0]
    return float(tr["gold"])


def value(state: State, seat: int) -> float:
    v = 10.0 * state["home_gold"][seat]
    for f in state.get("forts", ()):  # 5.17: fort gold counts, flags are guns
        if f["owner"] == seat and forts.standing(f):
            v += 10.0 * sum(_worth(state, t, seat) for t in f["hold"]) + 1.5 * sum(f["flags"])
    home = world.home_of(state, seat)
    hc = _centre(home["poly"]) if home else None
    wild = [_centre(i["poly"]) for i in state["islands"] if i["home"] is None and i["treasure"]]
    for s in state["ships"]:
        if s["owner"] != seat or s["sunk"]:
            continue
        x, y, _ = s["pose"]
        v += 1.5 * len(world.standing(s))
        if world.monster(s):  # 5.16: it carries nothing; it hunts enemy ships
            prey = [hull.centre(e["masts"], world.pose(e)) for e in state["ships"]
                    if e["owner"] != seat and world.on_plane(e) and not world.monster(e)]
            if prey:
                v -= 0.01 * min(math.hypot(px - x, py - y) for px, py in prey) / 100
            continue
        carried = sum(_worth(state, t, seat) for t in s["hold"])
        if carried and hc:
            v += 8.0 * carried - 0.008 * carried * math.hypot(hc[0] - x, hc[1] - y) / 100
        elif wild and not world.derelict(s):
            v -= 0.01 * min(math.hypot(cx - x, cy - y) for cx, cy in wild) / 100
    for p in state["pending"]:  # hits whose mast the owner has still to choose
        if p["kind"] == "lose_mast":
            s = world.ship(state, p["ship"])
            if s["owner"] == seat:
                v -= 1.5 * min(p["hits"], len(world.standing(s)))
    return v


def heuristic(state: State, seat: int) -> float:
    if state["phase"] == "over":
        return 100.0 if state["winner"] == [seat] else -100.0 if state["winner"] else 0.0
    mine = value(state, seat)
    rivals = [value(state, p) for p in range(state["n_players"]) if p != seat]
    return (mine - max(rivals)) / 10.0


# -- sampling ---------------------------------------------------------------------------


def sample_state(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full state consistent with ``view``: unseen treasure values are dealt from
    the known contribution sets minus what the seat has seen; hidden crew get random
    generic kinds (they only change their owner's options)."""
    d = data.load()
    n = view["n_players"]
    opt = dict(view["options"])
    pool = deal.contributions(n, opt["unique_treasure"])
    known = [t for t in view["treasure"] if t["gold"] is not None]
    for t in known:
        key = (t["gold"], t["unique"])
        if t["unique"] == "D-U02" and key not in pool:
            key = (0, "D-U02")  # an idol unloaded at home is worth 4, it was dealt as 0
        if key in pool:
            pool.remove(key)
    rng.shuffle(pool)
    treasure = []
    home_gold = list(view["home_gold"])
    for t in view["treasure"]:
        if t["gold"] is not None:
            gold, unique = t["gold"], t["unique"]
        else:
            gold, unique = pool.pop() if pool else (1, None)
        treasure.append({"id": t["id"], "gold": gold, "unique": unique, "where": t["where"],
                         "seen": list(t["seen"]), "face_up": t["face_up"]})
        if "home_of" in t:
            treasure[-1]["home_of"] = t["home_of"]
            if t["gold"] is None:  # face down at an opponent's home (6.2)
                home_gold[t["home_of"]] += gold
    kinds = sorted(k for k in d["crew_types"] if not k.startswith("_"))
    crew = []
    for c in view["crew"]:
        kind = c["kind"] if c["kind"] is not None else rng.choice(kinds)
        nation = c["nation"] if c["nation"] is not None else "?"
        card = c["card"]
        points = (data.named_crew()[card]["points"] if card else d["crew_types"][kind]["points"])
        crew.append({"id": c["id"], "kind": kind, "nation": nation, "card": card,
                     "cursed": bool(c["cursed"]), "points": points + (1 if c["cursed"] else 0),
                     "owner": c["owner"],
                     "ship": c["ship"], "island": c["island"], "face_up": c["face_up"],
                     "gone": c["gone"], "moved": c["moved"]})
        if "marine_hits" in c:
            crew[-1]["marine_hits"], crew[-1]["marine_fired"] = c["marine_hits"], c["marine_fired"]
    ships = []
    for s in view["ships"]:
        out = {k: (list(v) if isinstance(v, list) else v) for k, v in s.items()
               if k not in ("name", "pinned", "derelict")}
        out["hold"] = [int(t[1:]) for t in s["hold"]]
        out["crew"] = [int(c[1:]) for c in s["crew"]]
        out["rammed"] = list(s["rammed"])
        out["cannoneer"] = s["cannoneer"]
        out["scuttle_rolled"] = s["scuttle_rolled"]
        out["pinned_before"] = s["pinned_before"]
        ships.append(out)
    islands = [{"id": i["id"], "poly": i["poly"], "home": i["home"],
                "placed_by": i["placed_by"],
                "visited": list(i["visited"]),
                "treasure": [int(t[1:]) for t in i["treasure"]]} for i in view["islands"]]
    terrain = [{k: ([list(p) for p in v] if k == "points" else v) for k, v in t.items()}
               for t in view["terrain"]]
    extra: State = {}
    if "forts" in view:  # only the forts this seat may know of (8.13)
        extra["forts"] = [forts.copy(f) for f in view["forts"]]
    return {
        **extra,
        "n_players": n, "options": opt, "S_length": view["S_length"], "L_length": view["L_length"],
        "table": list(view["table"]),
        "terrain": terrain,
        "phase": view["phase"], "round": view["round"], "turn": view["turn"],
        "first": view["first"], "islands": islands, "ships": ships, "crew": crew,
        "treasure": treasure, "home_gold": home_gold, "gold_dealt": view["gold_dealt"],
        "end_token": view["end_token"], "revealed": view["revealed"],
        "pending": [dict(p, asked=list(p["asked"])) if "asked" in p else dict(p)
                    for p in view["pending"]],
        "log": [dict(e) for e in view["log"]], "acted_any": view["acted_any"],
        "winner": None if view["winner"] is None else list(view["winner"]),
        "end": view["end"], "gold_lost": view["gold_lost"],
        "gold_made": view["gold_made"],
        "home_queue": [dict(q) for q in view["home_queue"]],
    }
