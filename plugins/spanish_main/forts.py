"""Forts (digest 2.8, 5.17, A-37): an option (``forts``, off by default).

With the option on every fleet pays for one designed fort card at fleet building
(``data.json``'s ``forts``, [DESIGN]: cost in points = gold cost, A-37); the fleet
drops ships from the end of its list until it fits (:mod:`.deal`). In play:

- **building** (5.17.2): at the end of one of its owner's turns (``build_fort``, which
  ends the turn) with a ship of theirs docked at a wild island that has no fort and
  at least the fort's cost in gold at home. That gold moves into the fort as one
  face-up piece (the payment) and still counts for victory, as does everything in the
  fort. The face-down treasure on the island moves into the fort and becomes the
  builder's, who now sees its values (A-47). The fort is a square of the card's side
  centred on the island's centre, with two opposite corners (all four, in fact) on
  the island; its flags stand on the corners nearest the table's centre [DESIGN: the
  game places it].
- **loading** (5.17.3, A-37): a ship docked at its owner's fort may take any of the
  fort's treasure but the payment (the fort always keeps its cost), like exploring:
  the ship's action (``load_fort``) if it began the turn docked there, or free after
  a move that docked there when the island was visited or the ship has an Explorer.
- **shooting** (5.17.4): a fort's only action is to shoot (``fort_fire``, each flag
  once a turn) at enemy ships and forts, range from the flag, a line of fire blocked
  only by fog banks; never at a ship docked at its own home, lost or submerged.
  Ships shoot forts with ``fire`` (target a fort id): islands other than the fort's
  own, other ships, wrecks, fog and the shooter's sails block as usual [DESIGN].
- **damage** (5.17.5): a hit costs a flag of the owner's choice (``lose_flag``); with
  no flags the fort is abandoned (no actions); a hit on an abandoned fort destroys
  it: its gold goes back on the island face down and every visited marker there is
  cleared (A-37). A destroyed fort is not rebuilt.

Fort ids are ``f0..`` (one per seat, in seat order). Treasure inside a fort has the
fort's id as its ``where``.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from lantable.plugins import IllegalAction

from . import combat, data, hull, world
from . import geometry as g

State = dict[str, Any]
Fort = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

CARD = "D-F01"  # the one designed fort card every fleet buys


def on(state: State) -> bool:
    return "forts" in state


def new(seat: int, card: str = CARD) -> Fort:
    """An unbuilt fort bought at fleet building (5.17.2)."""
    return {"id": f"f{seat}", "card": card, "owner": seat, "island": None, "poly": None,
            "flags": [True] * len(data.fort(card)["cannons"]), "points": [], "hold": [],
            "paid": None, "fired": [], "destroyed": False}


def fort(state: State, fid: Any) -> Fort:
    for f in state.get("forts", ()):
        if f["id"] == fid:
            return f
    raise IllegalAction(f"no fort {fid!r}")


def is_fort_id(fid: Any) -> bool:
    return isinstance(fid, str) and fid[:1] == "f" and fid[1:].isdigit()


def standing(f: Fort) -> bool:
    """Built and not destroyed (abandoned forts still stand and hold gold)."""
    return f["island"] is not None and not f["destroyed"]


def abandoned(f: Fort) -> bool:
    return standing(f) and not any(f["flags"])


def at(state: State, iid: str) -> Fort | None:
    """The fort standing on island ``iid`` (5.17.1: one at a time)."""
    return next((f for f in state.get("forts", ()) if standing(f) and f["island"] == iid),
                None)


def poly(f: Fort) -> g.Poly:
    return [(x, y) for x, y in f["poly"]]


def cannons(f: Fort) -> list[tuple[int, int, str]]:
    """``(flag, rank, range)`` for each flag still flying."""
    codes = data.fort(f["card"])["cannons"]
    return [(i, *data.cannon(codes[i])) for i, up in enumerate(f["flags"]) if up]


# -- building (5.17.2) -------------------------------------------------------------------


def site(state: State, f: Fort, isl: dict[str, Any]) -> tuple[g.Poly, list[g.Point]] | None:
    """The fort's square on ``isl`` and its flag points, or None if two opposite
    corners would not both lie on the island (8.10)."""
    ipoly = world.island_poly(isl)
    cx, cy = g.centroid(ipoly)
    half = g.mm(data.fort(f["card"])["side_mm"]) / 2
    corners = [(round(cx + dx * half), round(cy + dy * half))
               for dx, dy in ((1, -1), (1, 1), (-1, 1), (-1, -1))]  # counter-clockwise
    if not ((g.inside(corners[0], ipoly) and g.inside(corners[2], ipoly))
            or (g.inside(corners[1], ipoly) and g.inside(corners[3], ipoly))):
        return None
    w, h = state["table"]
    near = sorted(corners, key=lambda p: (math.hypot(p[0] - w / 2, p[1] - h / 2), p))
    return corners, near[:len(f["flags"])]


def build_sites(state: State, seat: int) -> list[Action]:
    """``build_fort`` for each unbuilt fort of ``seat`` and each wild island without a
    fort where a ship of theirs is docked, if they have the gold at home."""
    out: list[Action] = []
    mine = [f for f in state.get("forts", ()) if f["owner"] == seat and f["island"] is None
            and not f["destroyed"]]
    for f in mine:
        if state["home_gold"][seat] < data.fort(f["card"])["cost"]:
            continue
        docked = sorted({s["docked"] for s in state["ships"] if s["owner"] == seat
                         and not s["sunk"] and s["docked"] is not None})
        for iid in docked:
            isl = world.island(state, iid)
            if isl["home"] is None and at(state, iid) is None and site(state, f, isl):
                out.append({"type": "build_fort", "fort": f["id"], "island": iid})
    return out


def build(state: State, seat: int, action: Action) -> list[Event]:
    if action not in build_sites(state, seat):
        raise IllegalAction("no fort can be built there now (5.17.2: a ship of yours "
                            "docked at a wild island without a fort, and its cost in "
                            "gold at home)")
    f, isl = fort(state, action["fort"]), world.island(state, action["island"])
    corners, flags = site(state, f, isl)  # type: ignore[misc]
    cost = data.fort(f["card"])["cost"]
    state["home_gold"][seat] -= cost
    tid = len(state["treasure"])
    state["treasure"].append({"id": f"t{tid}", "gold": cost, "unique": None, "where": f["id"],
                              "seen": [True] * state["n_players"], "face_up": True})
    f.update(island=isl["id"], poly=[list(p) for p in corners],
             points=[[round(x), round(y)] for x, y in flags], paid=tid, hold=[tid])
    moved = list(isl["treasure"])
    for t in moved:
        tr = state["treasure"][t]
        tr["where"] = f["id"]
        tr["seen"][seat] = True  # 5.17.3: it now belongs to the builder
        f["hold"].append(t)
    isl["treasure"] = []
    events: list[Event] = [{"type": "fort_built", "fort": f["id"], "island": isl["id"],
                            "seat": seat, "paid": cost, "pieces": len(moved)}]
    if moved:
        events.append({"type": "saw", "to": [seat], "island": isl["id"],
                       "treasure": {state["treasure"][t]["id"]: state["treasure"][t]["gold"]
                                    for t in moved}})
    combat.check_victory(state, events)  # the island's treasure now counts (7.3)
    return events


# -- loading from one's own fort (5.17.3) ------------------------------------------------


def loadable(state: State, s: dict[str, Any]) -> Fort | None:
    """The ship's controller's fort at the island it is docked at, if it holds
    anything beyond the payment (A-37: the fort keeps its cost)."""
    f = at(state, s["docked"]) if s["docked"] is not None else None
    if f is None or f["owner"] != s["owner"] or len(f["hold"]) <= 1:
        return None
    return f


def take_actions(state: State, p: dict[str, Any]) -> list[Action]:
    """Any set of the fort's surplus that fits the ship (unique treasure needs no
    room), as ``take`` (the same shape as exploring)."""
    s, f = world.ship(state, p["ship"]), fort(state, p["fort"])
    pieces = [t for t in f["hold"] if t != f["paid"]]
    uniques = [t for t in pieces if state["treasure"][t]["unique"]]
    plain = [t for t in pieces if not state["treasure"][t]["unique"]]
    room = max(0, world.free_cargo(state, s))
    out = []
    for k in range(min(room, len(plain)) + 1):
        for combo in itertools.combinations(plain, k):
            for u in range(len(uniques) + 1):
                for extra in itertools.combinations(uniques, u):
                    ids = sorted(list(extra) + list(combo))
                    out.append({"type": "take",
                                "treasure": [state["treasure"][t]["id"] for t in ids]})
    return out


def start_load(state: State, s: dict[str, Any], f: Fort) -> list[Event]:
    state["pending"].append({"kind": "fort_take", "seat": s["owner"], "ship": s["id"],
                             "fort": f["id"]})
    return [{"type": "fort_opened", "ship": s["id"], "fort": f["id"]}]


def apply_take(state: State, p: dict[str, Any], action: Action) -> list[Event]:
    state["pending"].pop()
    s, f = world.ship(state, p["ship"]), fort(state, p["fort"])
    world.take_aboard(state, s, f["hold"], action["treasure"])
    return [{"type": "loaded_from_fort", "ship": s["id"], "fort": f["id"],
             "treasure": list(action["treasure"])}]


# -- shooting (5.17.4) -------------------------------------------------------------------


def _ship_targets(state: State, seat: int) -> list[dict[str, Any]]:
    return [e for e in state["ships"] if not combat.target_forbidden(state, e, seat)]


def _fort_targets(state: State, seat: int) -> list[Fort]:
    return [f for f in state.get("forts", ()) if standing(f) and f["owner"] != seat]


def fort_sees(state: State, origin: g.Point, reach: int, target: g.Poly) -> bool:
    """A fort's line of fire: fog banks alone block it (5.17.4)."""
    return combat.sees(origin, reach + g.EPS_TOUCH, target, world.fogs(state))


def fire_actions(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    for f in state.get("forts", ()):
        if f["owner"] != seat or not standing(f) or abandoned(f):
            continue
        ships, forts_ = _ship_targets(state, seat), _fort_targets(state, seat)
        for flag, _rank, rng_ in cannons(f):
            if flag in f["fired"]:
                continue
            origin = tuple(f["points"][flag])  # flag i flies at points[i]
            reach = state["S_length"] if rng_ == "S" else state["L_length"]
            for e in ships:
                if fort_sees(state, origin, reach, world.foot(e)):  # type: ignore[arg-type]
                    out.append({"type": "fort_fire", "fort": f["id"], "flag": flag,
                                "target": e["id"]})
            for e in forts_:
                if fort_sees(state, origin, reach, poly(e)):  # type: ignore[arg-type]
                    out.append({"type": "fort_fire", "fort": f["id"], "flag": flag,
                                "target": e["id"]})
    return out


def _flag(action: Action) -> int:
    """The action's flag index: an int (``True`` would pass for 1 in a comparison)."""
    flag = action.get("flag")
    if not isinstance(flag, int) or isinstance(flag, bool):
        raise IllegalAction(f"flag must be a flag's index, got {flag!r}")
    return flag


def fire(state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
    _flag(action)
    if action not in fire_actions(state, seat):
        raise IllegalAction(f"that fort cannot fire that flag at {action.get('target')!r} "
                            "now (range from the flag, only fog blocks, each flag once a turn)")
    f = fort(state, action["fort"])
    flag = action["flag"]
    rank = next(r for i, r, _ in cannons(f) if i == flag)
    f["fired"].append(flag)
    r = combat.roll(rng)
    hit = r != 1 and r > rank
    events: list[Event] = [{"type": "fort_shot", "fort": f["id"], "flag": flag,
                            "target": action["target"], "roll": r, "rank": rank, "hit": hit}]
    if hit:
        hit_target(state, action["target"], seat, events)
    return events


def hit_target(state: State, tid: str, by: int, events: list[Event]) -> None:
    if is_fort_id(tid):
        damage(state, fort(state, tid), by, events)
    else:
        combat.damage(state, world.ship(state, tid), 1, by, "shot", events)


def ship_may_hit(state: State, s: dict[str, Any], gun: tuple[Any, int, str], f: Fort) -> bool:
    """A ship's cannon at a fort: range from the mast, and islands (but the fort's
    own), other ships, wrecks, fog and the shooter's other sails block [DESIGN]."""
    if not standing(f) or f["owner"] == s["owner"]:
        return False
    c, _rank, rng_ = gun
    reach = state["S_length"] if rng_ == "S" else state["L_length"]
    masts = hull.mast_points(s["masts"], world.pose(s))
    blockers = [world.island_poly(i) for i in state["islands"] if i["id"] != f["island"]]
    blockers += [world.foot(e) for e in state["ships"]
                 if e is not s and (world.on_plane(e) or e["wreck"])]
    blockers += world.fogs(state)
    target = poly(f)
    origins = list(enumerate(masts)) if c == "musket" else [(c, masts[c])]
    for i, origin in origins:
        sails = [] if "Junk" in world.keywords(s) else [
            sg for k, sg in zip(world.standing(s), hull.sails(s["masts"], world.pose(s),
                                                              world.standing(s)), strict=True)
            if k != i]
        if combat.sees(origin, reach + g.EPS_TOUCH, target, blockers, sails):
            return True
    return False


def ship_fire_actions(state: State, s: dict[str, Any], guns: list[Any]) -> list[Action]:
    out: list[Action] = []
    for f in _fort_targets(state, s["owner"]):
        for gun in guns:
            if gun[0] not in s["fired"] and ship_may_hit(state, s, gun, f):
                out.append({"type": "fire", "ship": s["id"], "cannon": gun[0],
                            "target": f["id"]})
    return out


# -- damage (5.17.5) ---------------------------------------------------------------------


def damage(state: State, f: Fort, by: int, events: list[Event]) -> None:
    if abandoned(f):
        destroy(state, f, events)
        return
    up = [i for i, ok in enumerate(f["flags"]) if ok]
    if len(up) == 1:
        lose_flag(state, f, up[0], events)
        return
    state["pending"].append({"kind": "lose_flag", "seat": f["owner"], "fort": f["id"]})


def lose_flag(state: State, f: Fort, flag: int, events: list[Event]) -> None:
    f["flags"][flag] = False
    events.append({"type": "flag_lost", "fort": f["id"], "flag": flag,
                   "left": sum(f["flags"])})
    if abandoned(f):
        events.append({"type": "fort_abandoned", "fort": f["id"]})


def destroy(state: State, f: Fort, events: list[Event]) -> None:
    """5.17.5 / A-37: the gold goes back on the island face down, an unexplored
    wild island again (every visited marker cleared)."""
    isl = world.island(state, f["island"])
    for t in f["hold"]:
        tr = state["treasure"][t]
        tr["where"], tr["face_up"] = isl["id"], False
        isl["treasure"].append(t)
    isl["visited"] = [False] * state["n_players"]
    events.append({"type": "fort_destroyed", "fort": f["id"], "island": isl["id"],
                   "pieces": len(f["hold"])})
    f["hold"], f["destroyed"] = [], True


def flag_actions(state: State, p: dict[str, Any]) -> list[Action]:
    f = fort(state, p["fort"])
    return [{"type": "lose_flag", "fort": f["id"], "flag": i}
            for i, up in enumerate(f["flags"]) if up]


def apply_lose_flag(state: State, p: dict[str, Any], action: Action) -> list[Event]:
    _flag(action)
    state["pending"].pop()
    events: list[Event] = []
    lose_flag(state, fort(state, p["fort"]), action["flag"], events)
    return events


# -- turn hooks, views -------------------------------------------------------------------


def legal(state: State, seat: int) -> list[Action]:
    """The forts' actions, after the ships': ``load_fort`` (a ship's action),
    ``fort_fire``, then ``build_fort`` (which ends the turn)."""
    out: list[Action] = []
    for s in state["ships"]:
        if (s["owner"] == seat and not s["sunk"] and s["acted"] is None and s["explore_ok"]
                and loadable(state, s) is not None):
            out.append({"type": "load_fort", "ship": s["id"]})
    return out + fire_actions(state, seat) + build_sites(state, seat)


def do_load(state: State, seat: int, s: dict[str, Any], action: Action) -> list[Event]:
    """The ship's action: it began its turn docked at its owner's fort."""
    f = loadable(state, s)
    if f is None or s["acted"] is not None or not s["explore_ok"]:
        raise IllegalAction(f"{s['id']} cannot load from a fort now (5.17.3: it must "
                            "begin the turn docked at your fort, with gold beyond its cost)")
    s["acted"] = "explore"
    return start_load(state, s, f)


def start_turn(state: State, seat: int) -> None:
    for f in state.get("forts", ()):
        if f["owner"] == seat:
            f["fired"] = []


def view(f: Fort, seat: int | None) -> dict[str, Any] | None:
    """Public once built; an unbuilt fort only to its owner (secret purchases, 8.13)."""
    if f["island"] is None and not f["destroyed"] and f["owner"] != seat:
        return None
    return copy(f)


def copy(f: Fort) -> Fort:
    """A fort's record with its own lists (views, sampled states)."""
    return {k: ([list(x) if isinstance(x, list) else x for x in v] if isinstance(v, list)
                else v) for k, v in f.items()}
