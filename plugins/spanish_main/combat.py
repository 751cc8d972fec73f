"""Shooting, damage, sinking, ramming and boarding (digest 5.6, 5.7, 5.10, 5.11, 5.15).

Damage that needs the owner's choice (which mast to lose) pushes a ``lose_mast``
decision for that owner on the state's pending stack; everything else resolves at
once. Every die roll shows up in an event.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from . import data, hull, world
from . import geometry as g

State = dict[str, Any]
Ship = dict[str, Any]
Event = dict[str, Any]

# A landed Marine fires from any point of its island's outline: its vertices and
# this many points inside each edge (the line of fire itself is exact, :func:`sees`)
CANDIDATES_PER_EDGE = 3


def roll(rng: random.Random) -> int:
    return rng.randint(1, 6)


# -- range and line of fire (8.9) ----------------------------------------------------


def _blockers(state: State, shooter: Ship, target: Ship, origin: g.Point, reach: float
              ) -> list[g.Poly]:
    out = []
    for isl in state["islands"]:
        out.append(world.island_poly(isl))
    for e in state["ships"]:
        if not (world.on_plane(e) or e["wreck"]) or e is shooter or e is target:
            continue
        out.append(world.foot(e))
    out += world.fogs(state)  # 5.18.1: fog banks block lines of fire
    # only what lies within reach of the origin can block
    return [p for p in out if _near(p, origin, reach)]


def _near(poly: g.Poly, origin: g.Point, reach: float) -> bool:
    cx, cy, r = g.circle(poly)
    return math.hypot(cx - origin[0], cy - origin[1]) <= reach + r


def can_hit(state: State, shooter: Ship, origin: g.Point, reach: int, target: Ship,
            own_sails: bool = True, firing_mast: int | None = None,
            m: dict[Any, Any] | None = None) -> bool:
    """8.9 with A-23: some point of the target is within ``reach`` of ``origin`` and
    the open segment to that same point crosses no island, no other ship and none of
    the shooter's other standing sails (a Junk ignores its own sails). Memoised
    per table geometry (:func:`world.memo`)."""
    if m is None:
        m = world.memo(state)
    key = ("hit", shooter["id"], origin, reach, target["id"], own_sails, firing_mast)
    found = m.get(key)
    if found is None:
        found = m[key] = _can_hit(state, shooter, origin, reach, target, own_sails,
                                  firing_mast)
    return found


def _can_hit(state: State, shooter: Ship, origin: g.Point, reach: int, target: Ship,
             own_sails: bool, firing_mast: int | None) -> bool:
    tf = world.foot(target)
    limit = reach + g.EPS_TOUCH
    near = g.closest_point(origin, tf)
    if math.hypot(near[0] - origin[0], near[1] - origin[1]) > limit:
        return False
    blockers = _blockers(state, shooter, target, origin, limit)
    sails = []
    if own_sails and "Junk" not in world.keywords(shooter):
        sails = [sg for i, sg in zip(world.standing(shooter),
                                     hull.sails(shooter["masts"], world.pose(shooter),
                                                world.standing(shooter)), strict=True)
                 if i != firing_mast]
    return sees(origin, limit, tf, blockers, sails, near)


def sees(origin: g.Point, limit: float, tf: g.Poly, blockers: list[g.Poly],
         sails: Sequence[tuple[g.Point, g.Point]] = (), near: g.Point | None = None) -> bool:
    """8.9: some point of ``tf`` within ``limit`` of ``origin`` with the open segment
    to it crossing no blocker and no sail (ships and forts alike). The closest point
    first (the common answer), then one point of every stretch of the outline that
    is in range and not hidden (:func:`geometry.visible_points`, exact), each checked
    by the line test itself."""
    if near is None:
        near = g.closest_point(origin, tf)
        if math.hypot(near[0] - origin[0], near[1] - origin[1]) > limit:
            return False  # the nearest point is out of range: every point is
    if _clear(origin, limit, near, blockers, sails):
        return True
    return any(_clear(origin, limit, q, blockers, sails)
               for q in g.visible_points(origin, limit, tf, blockers, sails))


def _clear(origin: g.Point, limit: float, q: g.Point, blockers: list[g.Poly],
           sails: Sequence[tuple[g.Point, g.Point]]) -> bool:
    """The line of fire to the one point ``q``: in range, no sail crossed, no
    blocker's interior entered (grazing does not block, 8.9)."""
    if math.hypot(q[0] - origin[0], q[1] - origin[1]) > limit:
        return False
    if any(g.crosses(origin, q, a, b) for a, b in sails):
        return False
    return not any(g.blocks(origin, q, p) for p in blockers)


def cannons(state: State, s: Ship) -> list[tuple[Any, int, str]]:
    """``(cannon, rank, range)`` for each standing mast, plus the Musketeer's."""
    out: list[tuple[Any, int, str]] = []
    for i in world.standing(s):
        rank, rng_ = data.cannon(world.card(s)["cannons"][i])
        out.append((i, rank, rng_))
    if world.has(state, s, "Musketeer"):
        rank, rng_ = data.cannon(data.load()["crew_types"]["Musketeer"]["cannon"])
        out.append(("musket", rank, rng_))
    return out


def target_forbidden(state: State, target: Ship, seat: int) -> bool:
    """5.10.4: own ships, sunk ships, and a ship docked at its own home island (A-24)."""
    return (not world.on_plane(target) or target["owner"] == seat
            or world.docked_home(state, target))


def shot_ok(state: State, s: Ship, cannon: Any, target: Ship) -> bool:
    for gun in cannons(state, s):
        if gun[0] == cannon:
            return gun_ok(state, s, gun, target)
    return False


def gun_ok(state: State, s: Ship, gun: tuple[Any, int, str], target: Ship,
           m: dict[Any, Any] | None = None) -> bool:
    """One cannon ``(cannon, rank, range)`` of ``s`` can fire at ``target`` (8.9).
    Memoised per table geometry like :func:`can_hit`."""
    if m is None:
        m = world.memo(state)
    reach = state["S_length"] if gun[2] == "S" else state["L_length"]
    key = ("gun", s["id"], gun[0], reach, target["id"])
    found = m.get(key)
    if found is None:
        found = m[key] = _gun_ok(state, s, gun[0], reach, target, m)
    return found


def _gun_ok(state: State, s: Ship, c: Any, reach: int, target: Ship, m: dict[Any, Any]
            ) -> bool:
    if not may_reach(s, target, reach):
        return False
    masts = hull.mast_points(s["masts"], world.pose(s))
    if c == "musket":
        # fires from any mast position, even an eliminated one (5.14)
        return any(can_hit(state, s, p, reach, target, firing_mast=i, m=m)
                   for i, p in enumerate(masts))
    return can_hit(state, s, masts[c], reach, target, firing_mast=c, m=m)


def may_reach(s: Ship, target: Ship, reach: int) -> bool:
    """The cheap test first: hull centres further apart than both hulls' radii and
    the reach cannot be in range (every mast lies within its hull's radius)."""
    cs, ce = hull.centre(s["masts"], world.pose(s)), hull.centre(target["masts"],
                                                                  world.pose(target))
    gap = reach + hull.radius(s["masts"]) + hull.radius(target["masts"]) + g.EPS_TOUCH
    dx, dy = cs[0] - ce[0], cs[1] - ce[1]
    return dx * dx + dy * dy <= gap * gap


def broadside_cannons(state: State, s: Ship, target: Ship) -> list[tuple[int, int]]:
    """A-29: the cannons (mast, rank) with the target in S range and line of fire."""
    out: list[tuple[int, int]] = []
    if not may_reach(s, target, state["S_length"]):
        return out
    masts = hull.mast_points(s["masts"], world.pose(s))
    for i in world.standing(s):
        rank, _ = data.cannon(world.card(s)["cannons"][i])
        if can_hit(state, s, masts[i], state["S_length"], target, firing_mast=i):
            out.append((i, rank))
    return out


# -- damage, derelicts, sinking (5.10.6, 5.11) -------------------------------------------


def damage(state: State, target: Ship, hits: int, by: int, cause: str,
           events: list[Event]) -> None:
    """Apply ``hits`` to ``target``: armor first (Turtle ship), then masts of the
    owner's choice; a hit on a derelict sinks it (5.11.1)."""
    while hits > 0 and not target["sunk"]:
        if world.derelict(target):
            if cause == "ram":
                return  # a ram is not a hit; derelicts lose nothing
            sink(state, target, by, events)
            return
        if target["armor"] > 0 and cause != "ram":
            target["armor"] -= 1
            hits -= 1
            events.append({"type": "armor_lost", "ship": target["id"], "armor": target["armor"]})
            continue
        up = world.standing(target)
        if len(up) == 1:
            lose_mast(state, target, up[0], events)
            hits -= 1
            continue
        state["pending"].append({"kind": "lose_mast", "seat": target["owner"],
                                 "ship": target["id"], "hits": hits, "by": by, "cause": cause})
        return


def lose_mast(state: State, s: Ship, mast: int, events: list[Event]) -> None:
    s["masts_up"][mast] = False
    events.append({"type": "mast_lost", "ship": s["id"], "mast": mast,
                   "left": len(world.standing(s))})
    if world.derelict(s) and world.monster(s):
        eliminate_monster(state, s, events)
    elif world.derelict(s):
        events.append({"type": "derelict", "ship": s["id"]})
        if s["towing"] is not None:  # 5.5 (7): a tug that becomes derelict lets go
            release(state, s, events)


def eliminate_monster(state: State, s: Ship, events: list[Event]) -> None:
    """5.16: a sea monster that loses all its segments is eliminated at once (it
    never becomes derelict; it carries nothing)."""
    s["sunk"], s["pins"] = True, []
    events.append({"type": "monster_eliminated", "ship": s["id"]})


def release(state: State, tug: Ship, events: list[Event]) -> None:
    tow = world.ship(state, tug["towing"])
    tug["towing"], tow["towed_by"] = None, None
    events.append({"type": "tow_ended", "ship": tug["id"], "towed": tow["id"]})


def sink(state: State, s: Ship, by: int | None, events: list[Event]) -> None:
    """5.11.2: the gold aboard is split, the sinker taking the odd one (A-26); unique
    treasure and crew are lost. ``by=None`` (scuttling) loses everything."""
    gold = [state["treasure"][t] for t in s["hold"] if not state["treasure"][t]["unique"]]
    unknown = [t for t in s["hold"] if state["treasure"][t]["gold"] is None]
    if unknown:  # a hidden deck (hidden.py): shared out once the values are opened
        state["hidden"]["sinks"].append({"ship": s["id"], "owner": s["owner"], "by": by,
                                         "treasure": [*s["hold"]]})
        gold = []
    total = sum(t["gold"] for t in gold)
    for t in state["treasure"]:
        if t["where"] == s["id"]:
            t["where"] = "gone"
            t["face_up"] = True
    s["hold"] = []
    lost_crew = world.crew_aboard(state, s)
    for c in lost_crew:
        c["gone"], c["ship"] = True, None
    s["crew"] = []
    if s["towing"] is not None:
        release(state, s, events)
    if s["towed_by"] is not None:
        release(state, world.ship(state, s["towed_by"]), events)
    s["sunk"], s["docked"] = True, None
    event: Event = {"type": "sunk", "ship": s["id"], "gold": total,
                    "values": sorted(t["gold"] for t in gold)}
    share_out(state, s["owner"], by, total, event)
    events.append(event)
    if by is not None and total:
        check_victory(state, events)
    if by is not None and state["phase"] != "over":
        ransom(state, lost_crew, by, events)


def share_out(state: State, owner: int, by: int | None, total: int, event: Event) -> None:
    """5.11.2 / 5.12: the gold of a sunk ship split (the sinker takes the odd one), or
    lost when scuttled; the split is noted in the ``sunk`` ``event``."""
    if by is None:
        state["gold_lost"] += total  # scuttled: everything aboard is gone (5.12)
    if by is not None and total:
        share = [0] * state["n_players"]
        share[by] += math.ceil(total / 2)
        share[owner] += total // 2
        for seat, v in enumerate(share):
            state["home_gold"][seat] += v
        event["split"] = share


def check_victory(state: State, events: list[Event]) -> None:
    """7.1-7.3: more than half of the starting gold at home wins at once; the active
    player wins a tie of crossings. Not under the multiplayer sheet (6.2), which
    has no threshold."""
    if world.official_sheet(state):
        return
    need = state["gold_dealt"] // 2 + 1
    gold = world.total_gold(state)  # 7.2: gold in one's forts counts too
    over = [p for p in range(state["n_players"]) if gold[p] >= need]
    if over and state["phase"] != "over":
        winner = state["turn"] if state["turn"] in over else over[0]
        finish(state, [winner], "threshold", events)


def finish(state: State, winners: list[int], why: str, events: list[Event]) -> None:
    if "hidden" in state and world.official_sheet(state) and any(
            t["gold"] is None for t in state["treasure"]):
        # A hidden deck (hidden.py) under the sheet (6.2): every treasure is turned over
        # first; the winners are named once it is opened, right after this action.
        if state["hidden"].get("final") is None:
            state["hidden"]["final"] = why
            for t in state["treasure"]:
                if t["gold"] is None:
                    t["face_up"] = True
        return
    sealed = [state["treasure"][int(k)] for k in state.get("hidden", {}).get("sealed", {})]
    if any(t["gold"] is None for t in sealed):
        # Unique treasure at a hidden-deck table (hidden.py): every token claimed "not
        # unique" face down is turned over first, its claim checked, then the winners named.
        if state["hidden"].get("final") is None:
            state["hidden"]["final"], state["hidden"]["final_winners"] = why, winners
            for t in sealed:
                if t["gold"] is None:
                    t["face_up"] = True
        return
    state["phase"], state["winner"], state["end"] = "over", winners, why
    state["pending"] = []
    events.append({"type": "game_over", "winners": winners, "why": why,
                   "gold": world.total_gold(state)})


# -- ramming and boarding (5.6, 5.7) ------------------------------------------------


def ram_targets(state: State, s: Ship) -> list[Ship]:
    """8.5 ram_eligible: the bow touches an enemy's hull behind its bow."""
    if s["pinned_before"] or s["rammed"]:
        return []  # 5.15: a ship in ghost form may ram; only ghost *targets* are excluded
    if world.monster(s):  # 5.16: a sea monster rams (and pins) at any point
        f = world.foot(s)
        return [e for e in state["ships"]
                if world.on_plane(e) and e["owner"] != s["owner"] and not e["ghost"]
                and g.touching(f, world.foot(e))]
    b = world.bow(s)
    return [e for e in state["ships"]
            if world.on_plane(e) and e["owner"] != s["owner"] and not e["ghost"]
            and may_reach(s, e, 1) and g.touching(b, world.aft(e))]


def ram(state: State, s: Ship, target: Ship, rng: random.Random, events: list[Event]) -> None:
    r = roll(rng)
    masts = len(world.standing(target))
    hit = r > masts and not world.derelict(target) and "Galley" not in world.keywords(s)
    events.append({"type": "ram", "ship": s["id"], "target": target["id"], "roll": r,
                   "masts": masts, "hit": hit})
    s["rammed"].append(target["id"])
    if world.monster(s):
        s["pins"].append(target["id"])  # 5.16: the rammed ship is pinned
    boardable = not ("Turtle ship" in world.keywords(target) and target["armor"] > 0)
    if boardable:
        state["pending"].append({"kind": "board", "seat": s["owner"], "ship": s["id"],
                                 "target": target["id"], "asked": [s["owner"]]})
    if hit:
        damage(state, target, 1, s["owner"], "ram", events)


def board(state: State, attacker: Ship, defender: Ship, rng: random.Random,
          events: list[Event]) -> None:
    """5.7: both roll d6 + own standing masts; the higher total plunders (A-17)."""
    ra, rd = roll(rng), roll(rng)
    ta = ra + len(world.standing(attacker))
    td = rd + len(world.standing(defender))
    winner = attacker if ta > td else defender if td > ta else None
    events.append({"type": "boarding", "ship": attacker["id"], "target": defender["id"],
                   "rolls": [ra, rd], "totals": [ta, td],
                   "winner": None if winner is None else winner["id"]})
    if winner is None:
        return
    loser = defender if winner is attacker else attacker
    if plunder_options(state, winner, loser):
        state["pending"].append({"kind": "plunder", "seat": winner["owner"],
                                 "ship": winner["id"], "target": loser["id"]})


def plunder_options(state: State, winner: Ship, loser: Ship) -> list[str]:
    out = []
    if world.monster(winner):  # 5.16, A-36: no crew; any treasure (it is destroyed)
        return ["treasure"] if loser["hold"] else []
    room = world.free_cargo(state, winner) > 0
    if any(room or state["treasure"][t]["unique"] for t in loser["hold"]):
        out.append("treasure")
    if loser["crew"]:
        out.append("crew")
    return out


def plunder(state: State, winner: Ship, loser: Ship, what: str, rng: random.Random,
            events: list[Event]) -> None:
    """Blind picks among the loser's items (A-17); the taker learns the value (A-47)."""
    if what == "treasure" and world.monster(winner):
        t = loser["hold"][rng.randrange(len(loser["hold"]))]
        loser["hold"].remove(t)
        tr = state["treasure"][t]
        # A-36 (monster_treasure = destroy): a monster has no cargo; what it takes,
        # unique or not, is gone for good (and shown to all)
        tr["where"], tr["face_up"] = "gone", True
        if tr["gold"] is not None:  # a hidden deck (hidden.py): counted once opened
            state["gold_lost"] += tr["gold"]
        events.append({"type": "treasure_destroyed", "ship": winner["id"],
                       "from": loser["id"], "treasure": tr["id"], "gold": tr["gold"]})
    elif what == "treasure":
        room = world.free_cargo(state, winner) > 0
        pool = [t for t in loser["hold"] if room or state["treasure"][t]["unique"]]
        t = pool[rng.randrange(len(pool))]
        loser["hold"].remove(t)
        winner["hold"].append(t)
        tr = state["treasure"][t]
        tr["where"] = winner["id"]
        tr["seen"][winner["owner"]] = True
        events.append({"type": "treasure_taken", "ship": winner["id"], "from": loser["id"],
                       "treasure": tr["id"]})
    else:
        c = loser["crew"][rng.randrange(len(loser["crew"]))]
        loser["crew"].remove(c)
        crew = state["crew"][c]
        crew["gone"], crew["ship"], crew["face_up"] = True, None, True
        events.append({"type": "crew_eliminated", "ship": loser["id"], "crew": crew["id"],
                       "kind": crew["kind"]})
        ransom(state, [crew], winner["owner"], events)


def ransom(state: State, crew: list[dict[str, Any]], by: int, events: list[Event]) -> None:
    """Ransom (5.15, A-34): a Ransom crew eliminated by an opponent becomes 1 gold on
    that player's home island at once (new gold: it counts, G0 stays, 7.2)."""
    paid = [c for c in crew if c["kind"] == "Ransom" and c["owner"] != by]
    for c in paid:
        state["home_gold"][by] += 1
        state["gold_made"] += 1
        events.append({"type": "ransom", "crew": c["id"], "seat": by,
                       "home_gold": state["home_gold"][by]})
    if paid:
        check_victory(state, events)
