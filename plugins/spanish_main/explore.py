"""Exploring ships and wrecks (digest 5.8.5, 5.11, 5.18.2; A-21, A-34, A-47).

A ship may spend its action to "explore" a ship its hull touches: one of its
controller's own ships afloat ("allied" means own, A-49), or any player's derelict,
wrecks on a reef included (5.18.2: "it can be explored", by anyone). A derelict may
itself explore (5.11: explore and repair are the actions it may still take).

The explorer's player looks at every treasure on the other ship (values shown to
that player only, like an island, 5.8.1), then moves items one at a time with
``transfer`` until ``done`` (a ``transfer`` decision on the pending stack):

- treasure both ways, within the receiving ship's free cargo (a unique treasure
  takes none, 5.9.1); the new controller learns a value it had not seen (A-47);
- crew only onto a ship the player controls afloat, within its cargo (an Oarsman
  takes none) and its crew-point cap (5.9.2). A crew taken off another player's
  derelict comes under the explorer's control (A-21), except a **Ransom** crew: moved
  onto an enemy ship it becomes a 5-gold treasure, face up, in the cargo space it
  took (5.15, A-34). [DESIGN] No crew is moved onto a ship the player does not
  control: there is no rule for giving crew away.
- [DESIGN] each item moves at most once per exploration (and a crew at most once a
  turn, as at a dock), so a decision cannot go round for ever.
"""

from __future__ import annotations

from typing import Any

from lantable.plugins import IllegalAction

from . import geometry as g
from . import hull, world

State = dict[str, Any]
Ship = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

DONE = {"type": "done"}


def explorable(state: State, s: Ship, e: Ship) -> bool:
    """``e`` may be explored by ``s`` (both on the table, hulls touching)."""
    if e is s or e["lost_in"] is not None or not (world.on_plane(e) or e["wreck"]) \
            or world.monster(e):  # 5.16: a sea monster carries no crew or treasure
        return False
    own = e["owner"] == s["owner"] and not e["sunk"]
    if not (own or world.derelict(e)):
        return False
    # the cheap test first: hull centres further apart than both radii cannot touch
    (ax, ay), (bx, by) = hull.centre(s["masts"], world.pose(s)), hull.centre(e["masts"],
                                                                             world.pose(e))
    reach = hull.radius(s["masts"]) + hull.radius(e["masts"]) + g.EPS_TOUCH
    if (ax - bx) ** 2 + (ay - by) ** 2 > reach * reach:
        return False
    return g.touching(world.foot(s), world.foot(e))


def may_explore(state: State, s: Ship) -> bool:
    """5.8.5: the explore action of a ship on the table that has not acted."""
    return s["acted"] is None and world.on_plane(s) and not world.monster(s)


def actions(state: State, s: Ship, m: dict[Any, Any] | None = None) -> list[Action]:
    """``explore_ship`` for each ship ``s`` may explore with something to move.
    ``m``: the table's :func:`world.memo` (which ships touch is kept there)."""
    if not may_explore(state, s):
        return []
    out = []
    mine = bool(s["hold"] or s["crew"])
    for e in state["ships"]:
        if not (mine or e["hold"] or e["crew"]):
            continue
        if m is None:
            ok = explorable(state, s, e)
        else:
            key = ("explorable", s["id"], e["id"])
            ok = m.get(key)
            if ok is None:
                ok = m[key] = explorable(state, s, e)
        if ok and worth_it(state, s, e):
            out.append({"type": "explore_ship", "ship": s["id"], "target": e["id"]})
    return out


def worth_it(state: State, s: Ship, e: Ship) -> bool:
    """[DESIGN] Offered only when something could move, or the other ship holds a
    treasure the player has not seen: otherwise the action would be spent for
    nothing."""
    seat = s["owner"]
    if any(not state["treasure"][t]["seen"][seat] for t in e["hold"]):
        return True
    p = {"seat": seat, "ship": s["id"], "target": e["id"], "moved": []}
    return len(transfer_actions(state, p)) > 1


def do_explore_ship(state: State, seat: int, s: Ship, action: Action, rng: Any
                    ) -> list[Event]:
    target = world.ship(state, action.get("target"))
    if not may_explore(state, s) or not explorable(state, s, target):
        raise IllegalAction(f"{s['id']} cannot explore {target['id']} now (5.8.5: its "
                            "action unused, touching one of your ships or a derelict)")
    s["acted"] = "explore"
    for t in target["hold"]:
        state["treasure"][t]["seen"][seat] = True
    state["pending"].append({"kind": "transfer", "seat": seat, "ship": s["id"],
                             "target": target["id"], "moved": []})
    return [{"type": "explored_ship", "ship": s["id"], "target": target["id"], "seat": seat},
            {"type": "saw", "to": [seat], "ship": target["id"],
             "treasure": {state["treasure"][t]["id"]: state["treasure"][t]["gold"]
                          for t in target["hold"]}}]


# -- the transfer decision --------------------------------------------------------------


def _crew_fits(state: State, s: Ship, c: dict[str, Any]) -> bool:
    takes = 0 if c["kind"] == "Oarsman" else 1
    points = sum(x["points"] for x in world.crew_aboard(state, s)) + c["points"]
    return world.free_cargo(state, s) >= takes and points <= world.card(s)["points"]


def _converts(c: dict[str, Any], to: Ship) -> bool:
    """A Ransom crew moved onto a ship of another player becomes 5 gold (5.15)."""
    return c["kind"] == "Ransom" and c["owner"] != to["owner"]


def _fits(state: State, item: str, to: Ship, seat: int) -> bool:
    if item[0] == "t":
        t = state["treasure"][int(item[1:])]
        return bool(t["unique"]) or world.free_cargo(state, to) >= 1
    c = state["crew"][int(item[1:])]
    if to["owner"] != seat or to["sunk"] or c["moved"]:
        return False
    if _converts(c, to):
        return world.free_cargo(state, to) >= 1
    return _crew_fits(state, to, c)


def transfer_actions(state: State, p: dict[str, Any]) -> list[Action]:
    s, e = world.ship(state, p["ship"]), world.ship(state, p["target"])
    out = []
    for a, b in ((s, e), (e, s)):
        items = ([state["treasure"][t]["id"] for t in a["hold"]]
                 + [state["crew"][c]["id"] for c in a["crew"]])
        for item in items:
            if item not in p["moved"] and _fits(state, item, b, p["seat"]):
                out.append({"type": "transfer", "item": item, "onto": b["id"]})
    return out + [dict(DONE)]


def apply_transfer(state: State, p: dict[str, Any], action: Action) -> list[Event]:
    if action not in transfer_actions(state, p):
        raise IllegalAction(f"expected one of {transfer_actions(state, p)}")
    if action["type"] == "done":
        state["pending"].pop()
        return []
    item, to = action["item"], world.ship(state, action["onto"])
    other = world.ship(state, p["target"] if to["id"] == p["ship"] else p["ship"])
    p["moved"] = p["moved"] + [item]  # a new list: views and samples hold the old one
    event: Event = {"type": "transferred", "item": item, "from": other["id"], "onto": to["id"]}
    if item[0] == "t":
        t = int(item[1:])
        other["hold"].remove(t)
        to["hold"].append(t)
        tr = state["treasure"][t]
        tr["where"] = to["id"]
        tr["seen"][to["owner"]] = True  # the new controller learns the value
        return [event]
    c = state["crew"][int(item[1:])]
    other["crew"].remove(int(item[1:]))
    if _converts(c, to):
        return [event, ransom_treasure(state, c, to)]
    to["crew"].append(int(item[1:]))
    c["ship"], c["owner"], c["moved"] = to["id"], to["owner"], True
    return [event]


def ransom_treasure(state: State, c: dict[str, Any], to: Ship) -> Event:
    """5.15 / A-34: the Ransom crew is gone; a 5-gold treasure, face up, takes its
    place aboard the capturing ship (new gold: it counts, G0 stays, 7.2)."""
    c["gone"], c["ship"], c["face_up"] = True, None, True
    tid = len(state["treasure"])
    state["treasure"].append({"id": f"t{tid}", "gold": 5, "unique": None, "where": to["id"],
                              "seen": [True] * state["n_players"], "face_up": True})
    to["hold"].append(tid)
    state["gold_made"] += 5
    return {"type": "ransom_captured", "crew": c["id"], "ship": to["id"],
            "treasure": f"t{tid}", "gold": 5}
