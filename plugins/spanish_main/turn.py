"""The turn (digest 4) and the procedures that give or use a ship's action (5.2-5.13).

Legal actions, in this order (documented for bots and the terminal):

1. a pending decision, if any, and nothing else (``lose_mast``, ``take``, ``board`` /
   ``decline``, ``plunder``, the after-move free actions ``ram``, ``tow``, ``rotate``,
   ``explore_free`` and ``done``; ``transfer`` / ``done`` while exploring a ship);
2. during set-up, ``choose_home`` for each free island;
3. in play, for each own ship in id order: ``move`` (a template: 1..n segments of
   heading and distance), ``pivot`` (a template: the final heading), ``fire`` (one per
   cannon and target in range and line of fire) or ``broadside``, ``explore``,
   ``repair`` (one per lost mast), ``explore_ship`` (one per ship it may explore),
   then the free actions ``ghost``, ``galley_pivot`` (template), ``release``,
   ``scuttle``, ``unload_crew``/``load_crew``, ``submerge`` (a sea monster,
   :mod:`.monsters`); then ``marine_fire`` for each Marine and target (5.15);
4. with forts (:mod:`.forts`): ``load_fort``, ``fort_fire``, ``build_fort``;
5. ``end_turn``.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from lantable.plugins import IllegalAction

from . import (
    combat,
    deal,
    explore,
    forts,
    hull,
    marine,
    monsters,
    motion,
    multiplayer,
    terrain,
    world,
)
from . import geometry as g

State = dict[str, Any]
Ship = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

END = {"type": "end_turn"}
DONE = {"type": "done"}


def to_act(state: State) -> list[int]:
    if state["phase"] == "over":
        return []
    if state["pending"]:
        return [state["pending"][-1]["seat"]]
    if state["phase"] == "home":
        return [state["home_queue"][0]["chooser"]]
    return [state["turn"]]


# -- what a ship may do now ------------------------------------------------------------


def may_move(state: State, s: Ship, m: dict[str, Any] | None = None) -> bool:
    if s["acted"] not in (None, "shoot") or s["moved"]:
        return False
    if s["acted"] == "shoot" and not captain(state, s):
        return False
    return world.can_move(state, s, m)


def may_fire(state: State, s: Ship) -> bool:
    if not world.on_plane(s) or world.derelict(s) or s["fire_closed"]:
        return False
    if s["acted"] in (None, "shoot"):
        return True
    return s["acted"] == "move" and captain(state, s)


def captain(state: State, s: Ship) -> bool:
    """5.14 Captain: move and shoot in one action. Not on a Broadside Attack ship
    (5.15: "no other ability may be applied to this action"), unless the table plays
    the looser reading (option ``broadside_captain``)."""
    if not world.has(state, s, "Captain"):
        return False
    return ("Broadside Attack" not in world.keywords(s)
            or bool(state["options"].get("broadside_captain", False)))


def fire_actions(state: State, s: Ship, m: dict[Any, Any] | None = None) -> list[Action]:
    out: list[Action] = []
    targets = [e for e in state["ships"] if not combat.target_forbidden(state, e, s["owner"])]
    if not targets and not state.get("forts") and not marine.enemy_marines(state, s["owner"]):
        return out
    if "Broadside Attack" in world.keywords(s) and "5" not in s["fear"]:
        if s["acted"] is None or (s["acted"] == "move" and not s["fired"]):
            for e in targets:
                if combat.broadside_cannons(state, s, e):
                    out.append({"type": "broadside", "ship": s["id"], "target": e["id"]})
        return out
    guns = [gun for gun in combat.cannons(state, s) if gun[0] not in s["fired"]]
    if not guns:
        return out
    # the cheap test once per target, at the longest reach of the guns
    reach = max(state["S_length"] if gun[2] == "S" else state["L_length"] for gun in guns)
    targets = [e for e in targets if combat.may_reach(s, e, reach)]
    landed = marine.enemy_marines(state, s["owner"])  # 5.15: only landed Marines
    for gun in guns:
        for e in targets:
            if combat.gun_ok(state, s, gun, e, m):
                out.append({"type": "fire", "ship": s["id"], "cannon": gun[0],
                            "target": e["id"]})
        for c in landed:
            if marine.cannon_reaches(state, s, gun, c):
                out.append({"type": "fire", "ship": s["id"], "cannon": gun[0],
                            "target": c["id"]})
    if "forts" in state:
        out += forts.ship_fire_actions(state, s, combat.cannons(state, s))
    return out


def move_template(state: State, s: Ship) -> Action:
    terms = world.move_terms(state, s)
    longest = max(world.term_length(state, t) for t in terms)
    return {"type": "move", "ship": s["id"], "params": {"segments": {
        "kind": "list", "min_items": 1, "max_items": len(terms),
        "help": "one segment per measure of the base move (" + "+".join(terms) + "), any order",
        "lengths": sorted((world.term_length(state, t) for t in terms), reverse=True),
        "item": {"heading": {"kind": "heading"},
                 "distance": {"kind": "int", "min": 0, "max": longest, "unit": "1/100 mm"}}}}}


def heading_template(kind: str, s: Ship) -> Action:
    return {"type": kind, "ship": s["id"], "params": {"heading": {"kind": "heading"}}}


def legal(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state["pending"]:
        return pending_actions(state, state["pending"][-1])
    if state["phase"] == "home":
        for_seat = state["home_queue"][0]["for_seat"]
        return [{"type": "choose_home", "island": i["id"]} for i in state["islands"]
                if i["home"] is None and deal.placement(state, for_seat, i) is not None]
    out: list[Action] = []
    m = world.memo(state)  # once for every ship's questions about the table
    for s in state["ships"]:
        if s["owner"] != seat or s["sunk"]:
            continue
        if may_move(state, s, m):
            out.append(move_template(state, s))
            if s["towing"] is None and not s["moved"] and s["lost_in"] is None:
                out.append(heading_template("pivot", s))
        if may_fire(state, s):
            out += fire_actions(state, s, m)
        if s["acted"] is None and s["trapped_in"] is not None:
            out.append({"type": "free", "ship": s["id"]})  # 5.18.3
        if s["acted"] is None:
            isl = world.island(state, s["docked"]) if s["docked"] else None
            if s["explore_ok"] and isl is not None and isl["home"] is None and isl["treasure"]:
                out.append({"type": "explore", "ship": s["id"]})
            if can_repair(state, s):
                out += [{"type": "repair", "ship": s["id"], "mast": i}
                        for i, up in enumerate(s["masts_up"]) if not up]
            out += explore.actions(state, s, m)  # 5.8.5
        out += free_actions(state, s)
    out += marine.actions(state, seat)  # 5.15: each Marine's own shot
    if "forts" in state:
        out += forts.legal(state, seat)
    out.append(dict(END))
    return out


def can_repair(state: State, s: Ship) -> bool:
    """5.13: at the controller's own home island, or anywhere with a Shipwright."""
    return not all(s["masts_up"]) and not world.monster(s) and (
        world.docked_home(state, s) or world.has(state, s, "Shipwright"))


def free_actions(state: State, s: Ship) -> list[Action]:
    out: list[Action] = []
    kw = world.keywords(s)
    if "Ghost Ship" in kw and not state["acted_any"]:
        out.append({"type": "ghost", "ship": s["id"], "on": not s["ghost"]})
    if ("Galley" in kw and not s["pivoted"] and not world.derelict(s) and not s["towed_by"]
            and world.on_plane(s)
            and "5" not in s["fear"]):
        out.append(heading_template("galley_pivot", s))
    if s["towing"] is not None:
        out.append({"type": "release", "ship": s["id"]})
    if world.derelict(s) and not s["scuttle_rolled"] and not s["scuttle"] \
            and s["towed_by"] is None:
        out.append({"type": "scuttle", "ship": s["id"]})
    if s["docked"] is not None:
        isl = world.island(state, s["docked"])
        # [DESIGN] a crew moves once a turn: unloading and loading again could
        # otherwise go on for ever (the rules set no limit on free actions)
        for c in s["crew"]:
            if not state["crew"][c]["moved"]:
                out.append({"type": "unload_crew", "crew": state["crew"][c]["id"]})
        for c in state["crew"]:
            if (c["island"] == isl["id"] and c["owner"] == s["owner"] and not c["gone"]
                    and not c["moved"] and crew_fits(state, s, c)):
                out.append({"type": "load_crew", "crew": c["id"], "ship": s["id"]})
    if world.monster(s):
        out += monsters.free_actions(state, s)
    return out


def crew_fits(state: State, s: Ship, c: dict[str, Any]) -> bool:
    """5.9: cargo and the crew-point cap."""
    takes = 0 if c["kind"] == "Oarsman" else 1
    points = sum(x["points"] for x in world.crew_aboard(state, s)) + c["points"]
    return world.free_cargo(state, s) >= takes and points <= world.card(s)["points"]


# -- pending decisions -------------------------------------------------------------


def pending_actions(state: State, p: dict[str, Any]) -> list[Action]:
    kind = p["kind"]
    if kind == "lose_mast":
        s = world.ship(state, p["ship"])
        return [{"type": "lose_mast", "ship": s["id"], "mast": i} for i in world.standing(s)]
    if kind == "take":
        return take_actions(state, p)
    if kind == "board":
        return [{"type": "board"}, {"type": "decline"}]
    if kind == "refire":
        return [{"type": "refire"}, {"type": "decline"}]
    if kind == "plunder":
        w, lo = world.ship(state, p["ship"]), world.ship(state, p["target"])
        return [{"type": "plunder", "what": what}
                for what in combat.plunder_options(state, w, lo)] + [{"type": "decline"}]
    if kind == "after_move":
        return after_move_actions(state, p)
    if kind == "transfer":
        return explore.transfer_actions(state, p)
    if kind == "fort_take":
        return forts.take_actions(state, p)
    if kind == "lose_flag":
        return forts.flag_actions(state, p)
    raise AssertionError(kind)


def take_actions(state: State, p: dict[str, Any]) -> list[Action]:
    """5.8.1 / 5.8.4: any set of the island's treasure that fits; unique treasure
    (no cargo space) must be taken by the first explorer."""
    s = world.ship(state, p["ship"])
    isl = world.island(state, p["island"])
    room = world.free_cargo(state, s)
    uniques = [t for t in isl["treasure"] if state["treasure"][t]["unique"]]
    plain = [t for t in isl["treasure"] if not state["treasure"][t]["unique"]]
    out = []
    for k in range(0, min(room, len(plain)) + 1) if room > 0 else [0]:
        for combo in itertools.combinations(plain, k):
            ids = sorted(uniques + list(combo))
            out.append({"type": "take", "treasure": [state["treasure"][t]["id"] for t in ids]})
    return out


def after_move_actions(state: State, p: dict[str, Any]) -> list[Action]:
    s = world.ship(state, p["ship"])
    out: list[Action] = []
    if not world.on_plane(s):
        return [dict(DONE)]
    if p["ram"]:
        out += [{"type": "ram", "target": e["id"]} for e in combat.ram_targets(state, s)]
    if p["tow"] and s["towing"] is None and not world.derelict(s) and not world.monster(s):
        out += [{"type": "tow", "target": e["id"]} for e in tow_targets(state, s)]
    if p["rotate"] and "Schooner" in world.keywords(s) and not s["rammed"] \
            and "5" not in s["fear"] and s["towing"] is None:
        out.append(heading_template("rotate", s))
    if p["explore"] and s["docked"] is not None:
        isl = world.island(state, s["docked"])
        if isl["treasure"]:
            out.append({"type": "explore_free"})
        if "forts" in state and forts.loadable(state, s) is not None:
            out.append({"type": "load_fort_free"})
    out.append(dict(DONE))
    return out


def tow_targets(state: State, s: Ship) -> list[Ship]:
    """5.5: a derelict whose bow touches any part of the tug, with room astern."""
    out = []
    f = world.foot(s)
    for e in state["ships"]:
        if (e is s or not world.on_plane(e) or not world.derelict(e) or e["towed_by"] is not None
                or e["towing"] is not None or not g.touching(f, world.bow(e))):
            continue
        p = world.towed_pose(state, s)
        obs = world.obstacles(state, skip=(s["id"], e["id"]))
        if motion.overlaps([hull.footprint(e["masts"], p)], obs, world.area(state)) is None:
            out.append(e)
    return out


# -- applying ----------------------------------------------------------------------


def apply(state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
    events = apply_one(state, seat, action, rng)
    multiplayer.after_action(state, events)  # 6.2: the end token and the sheet's ends
    return events


def apply_one(state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
    kind = action.get("type")
    if state["pending"]:
        return apply_pending(state, seat, state["pending"][-1], action, rng)
    if state["phase"] == "home":
        if kind != "choose_home":
            raise IllegalAction("choose a home island first (choose_home)")
        return deal.choose_home(state, seat, action.get("island"), rng)
    if kind == "end_turn":
        return end_turn(state, rng)
    if kind == "build_fort":  # 5.17.2: at the end of the turn, which it ends
        events = forts.build(state, seat, action)
        state["acted_any"] = True
        return events if state["phase"] == "over" else events + end_turn(state, rng)
    if kind == "fort_fire":
        events = forts.fire(state, seat, action, rng)
        state["acted_any"] = True
        return events
    handler = HANDLERS.get(kind)  # type: ignore[arg-type]
    if handler is None:
        raise IllegalAction(f"unknown action {kind!r}")
    s = world.ship(state, action.get("ship")) if kind in SHIP_ACTIONS else None
    if s is not None and (s["owner"] != seat or s["sunk"]):
        raise IllegalAction(f"{s['id']} is not one of your ships afloat")
    events = handler(state, seat, s, action, rng)
    state["acted_any"] = True
    return events


def _int(action: Action, key: str) -> int:
    v = action.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise IllegalAction(f"{key} must be an integer, got {v!r}")
    return v


def _heading(action: Action, key: str = "heading") -> int:
    h = _int(action, key)
    if not 0 <= h < g.TURN:
        raise IllegalAction(f"{key} must be 0..3599 tenths of a degree, got {h}")
    return h


def plan_course(state: State, s: Ship, segments: Any) -> tuple[list[g.Pose], Any]:
    """Check a course and sail it on paper: the pose after each segment and the
    contact that ended it, or IllegalAction. Mutates nothing."""
    return sail_course(state, s, check_segments(state, s, segments))


def check_segments(state: State, s: Ship, segments: Any) -> list[tuple[int, int]]:
    """The course's shape: 1..n segments of heading and distance that fit the
    ship's measures (5.2.1), as ``(heading, distance)`` legs, or IllegalAction."""
    terms = world.move_terms(state, s)
    if not isinstance(segments, list) or not 1 <= len(segments) <= len(terms):
        raise IllegalAction(f"segments must be a list of 1..{len(terms)} "
                            f"{{heading, distance}} (base move {'+'.join(terms)})")
    legs = []
    for seg in segments:
        if not isinstance(seg, dict) or set(seg) != {"heading", "distance"}:
            raise IllegalAction("each segment is a map {heading, distance}")
        legs.append((_heading(seg), _int(seg, "distance")))
    lengths = sorted((world.term_length(state, t) for t in terms), reverse=True)
    asked = sorted((d for _, d in legs), reverse=True)
    for d, room in zip(asked, lengths, strict=False):
        if not 0 <= d <= room:
            raise IllegalAction(f"segment distances {asked} do not fit the measures "
                                f"{'+'.join(terms)} ({lengths})")
    return legs


def sail_course(state: State, s: Ship, legs: list[tuple[int, int]]
                ) -> tuple[list[g.Pose], Any]:
    """Sail ``legs`` (heading, distance) on paper from geometry alone, so a view
    serves as well as the state (bots, queries): the pose after each leg and the
    contact that ended the move, or IllegalAction. Mutates nothing."""
    bodyf = world.body(state, s)
    obs = [] if s["ghost"] else world.obstacles(state, skip=world.moving_ids(s))
    area = world.area(state)
    p = world.pose(s)
    poses, contact = [], None
    for h, d in legs:
        exempt = world.touching_now(state, {**s, "pose": list(p)}, obs) if obs else frozenset()
        try:
            p, _, contact = motion.sail(bodyf, p, h, d, obs, area, exempt)
        except motion.Blocked as exc:
            raise IllegalAction(str(exc)) from None
        poses.append(p)
        if contact is not None:
            break  # 5.2.3: touching ends the whole move
    if s["ghost"] and not s.get("submerged"):  # 5.16: a submerged monster rests anywhere
        bad = motion.overlaps(bodyf(p), world.obstacles(state, skip=world.moving_ids(s)), area)
        if bad is not None:
            raise IllegalAction(f"a ghost ship may not end its move over {bad[0]} {bad[1]}")
    return poses, contact


def do_move(state: State, seat: int, s: Ship, action: Action, rng: random.Random
            ) -> list[Event]:
    if not may_move(state, s):
        raise IllegalAction(f"{s['id']} cannot move now")
    if s["lost_in"] is not None:
        return fog_move(state, s, action, rng)
    poses, contact = plan_course(state, s, action.get("segments"))
    return sail_planned(state, s, action["segments"], poses, contact, rng, [])


def sail_planned(state: State, s: Ship, segments: list[Any], poses: list[g.Pose],
                 contact: Any, rng: random.Random, events: list[Event]) -> list[Event]:
    """Sail a checked course: terrain met on the way first (5.18), then the end."""
    s["pinned_before"] = world.pinned(state, s)
    legs = [(seg["heading"], seg["distance"]) for seg in segments]
    start = list(s["pose"])
    met: list[Event] = []
    stop = terrain.walk(state, s, legs, poses, rng, met)
    end = poses[-1] if stop is None else stop
    if stop is not None:
        contact = None
    events.append({"type": "moved", "ship": s["id"], "from": start, "at": list(end),
                   "contact": None if contact is None else contact[1]})
    events += met
    if not s["wreck"]:
        set_pose(state, s, end)
    if s["acted"] == "shoot":
        s["fire_closed"] = True  # the Captain's shots come before or after the move
    s["acted"], s["moved"] = ("move" if s["acted"] is None else s["acted"]), True
    if not world.on_plane(s):
        return events  # lost in fog or wrecked: the move ends there
    return events + after_move(state, s)


def fog_move(state: State, s: Ship, action: Action, rng: random.Random) -> list[Event]:
    """5.18.1 / A-38: a lost ship's move starts outside the numbered point a d6
    picks, then sails its course from there (or stays lost: the action is spent)."""
    segments = action.get("segments")
    check_segments(state, s, segments)  # the shape only: it sails from the exit
    events: list[Event] = []
    s["acted"], s["moved"] = "move", True
    if not terrain.fog_exit(state, s, rng, events):
        return events
    try:
        poses, contact = plan_course(state, s, segments)
    except IllegalAction:
        return events  # the course does not fit from the exit: the ship stays there
    s["acted"], s["moved"] = None, False
    return sail_planned(state, s, segments, poses, contact, rng, events)


def set_pose(state: State, s: Ship, p: g.Pose) -> None:
    """Move a ship (and its tow), leaving any dock: a wild island it leaves is
    marked visited for its controller (5.8.2, A-20)."""
    for ship_ in [s] + ([world.ship(state, s["towing"])] if s["towing"] else []):
        if ship_["docked"] is not None:
            isl = world.island(state, ship_["docked"])
            if isl["home"] is None:
                isl["visited"][ship_["owner"]] = True
            ship_["docked"] = None
    s["pose"] = list(p)
    monsters.after_moving(s)
    if s["towing"] is not None:
        world.ship(state, s["towing"])["pose"] = list(world.towed_pose(state, s))


def after_move(state: State, s: Ship) -> list[Event]:
    """5.2.6: docking and the home unload, then the free choices (tow, ram, Schooner
    rotation, a free exploration) as one ``after_move`` decision."""
    events: list[Event] = []
    explore = False
    isl = None if s["ghost"] or world.monster(s) else world.bow_island(state, s)
    if isl is not None and (isl["home"] is None or isl["home"] == s["owner"]):
        events += dock(state, s, isl)
        if state["phase"] == "over":
            return events
        explore = isl["home"] is None and (isl["visited"][s["owner"]]
                                            or world.has(state, s, "Explorer"))
    state["pending"].append({"kind": "after_move", "seat": s["owner"], "ship": s["id"],
                             "ram": True, "tow": True, "rotate": True, "explore": explore})
    if after_move_actions(state, state["pending"][-1]) == [DONE]:
        state["pending"].pop()
    return events


def dock(state: State, s: Ship, isl: dict[str, Any]) -> list[Event]:
    events: list[Event] = [{"type": "docked", "ship": s["id"], "island": isl["id"]}]
    ships = [s] + ([world.ship(state, s["towing"])] if s["towing"] else [])
    for ship_ in ships:
        ship_["docked"] = isl["id"]
        if isl["home"] == s["owner"]:
            events += unload(state, ship_)
    return events


def unload(state: State, s: Ship) -> list[Event]:
    """5.4.3: every treasure with a gold value is unloaded and revealed (A-22: a unique
    treasure worth 0 stays aboard, except the Golden Idol, worth 4 at home); under
    the multiplayer sheet it goes home face down (6.2)."""
    events: list[Event] = []
    for t in list(s["hold"]):
        tr = state["treasure"][t]
        if tr["gold"] is None:  # a hidden deck (hidden.py): turned over, counted when opened
            s["hold"].remove(t)
            tr["where"], tr["home_of"] = "home", s["owner"]
            if multiplayer.official(state):  # 6.2: face down at home, opened at the end
                tr["seen"][s["owner"]] = True
                events.append({"type": "unloaded_hidden", "ship": s["id"],
                               "treasure": tr["id"], "seat": s["owner"]})
                continue
            tr["face_up"] = True
            state["hidden"]["from"][str(t)] = s["id"]
            continue
        if tr["unique"] == "D-U02" and tr["gold"] == 0:
            tr["gold"] = 4  # new gold: counts for its owner, G0 stays (7.2)
            state["gold_made"] += 4
        if tr["gold"] <= 0:
            continue
        s["hold"].remove(t)
        tr["where"], tr["home_of"] = "home", s["owner"]
        state["home_gold"][s["owner"]] += tr["gold"]
        if multiplayer.official(state):
            events += multiplayer.unloaded_face_down(state, s, tr)  # 6.2
            continue
        tr["face_up"] = True
        events.append({"type": "unloaded", "ship": s["id"], "treasure": tr["id"],
                       "gold": tr["gold"], "seat": s["owner"],
                       "home_gold": state["home_gold"][s["owner"]]})
    if events:
        combat.check_victory(state, events)
    return events


def do_pivot(state: State, seat: int, s: Ship, action: Action, rng: random.Random
             ) -> list[Event]:
    """5.3 / 8.7: turn in place about the midpoint (a move action)."""
    if not may_move(state, s) or s["towing"] is not None or s["lost_in"] is not None:
        raise IllegalAction(f"{s['id']} cannot pivot now")
    h = _heading(action)
    p = hull.pose_about(s["masts"], world.pose(s), hull.centre(s["masts"], world.pose(s)), h)
    check_clear(state, s, p)
    events: list[Event] = [{"type": "pivoted", "ship": s["id"], "heading": h}]
    s["pinned_before"] = world.pinned(state, s)
    set_pose(state, s, p)
    if s["acted"] == "shoot":
        s["fire_closed"] = True
    s["acted"], s["moved"] = ("move" if s["acted"] is None else s["acted"]), True
    return events + after_move(state, s)


def check_clear(state: State, s: Ship, p: g.Pose) -> None:
    obs = [] if s.get("submerged") else world.obstacles(state, skip=world.moving_ids(s))
    bad = motion.overlaps([hull.footprint(s["masts"], p)], obs, world.area(state))
    if bad is not None:
        raise IllegalAction(f"{s['id']} would overlap {bad[0]} {bad[1]}")


def do_stern_turn(state: State, seat: int, s: Ship, action: Action, rng: random.Random
                  ) -> list[Event]:
    """Galley free pivot (5.15, A-32): about the stern, once per turn."""
    if not any(a["type"] == "galley_pivot" for a in free_actions(state, s)):
        raise IllegalAction(f"{s['id']} cannot pivot on its stern now")
    h = _heading(action)
    p = hull.pose_about(s["masts"], world.pose(s), hull.stern_point(s["masts"], world.pose(s)),
                        h)
    check_clear(state, s, p)
    set_pose(state, s, p)
    s["pivoted"] = True
    return [{"type": "stern_pivot", "ship": s["id"], "heading": h}]


def do_fire(state: State, seat: int, s: Ship, action: Action, rng: random.Random
            ) -> list[Event]:
    """5.10: one cannon at one target (a ship; with forts a fort, 5.17.5; a landed
    Marine, 5.15); hit on a d6 above the rank, never on a 1."""
    tid = action.get("target")
    landed = marine.landed_target(state, tid)
    if landed is not None and landed["owner"] == seat:
        raise IllegalAction("that Marine is one of yours")
    at_fort = "forts" in state and forts.is_fort_id(tid)
    target = (None if landed is not None else forts.fort(state, tid) if at_fort
              else world.ship(state, tid))
    cannon = action.get("cannon")
    if not may_fire(state, s) or "Broadside Attack" in world.keywords(s) and "5" not in s["fear"]:
        raise IllegalAction(f"{s['id']} cannot fire now")
    found = [c for c in combat.cannons(state, s) if c[0] == cannon and not isinstance(cannon, bool)]
    if not found or cannon in s["fired"]:
        raise IllegalAction(f"{s['id']} has no cannon {cannon!r} ready to fire")
    if landed is not None:
        if not marine.cannon_reaches(state, s, found[0], landed):
            raise IllegalAction(f"{landed['id']} is not in range and line of fire of {cannon!r}")
    elif not (forts.ship_may_hit(state, s, found[0], target) if at_fort else
              not combat.target_forbidden(state, target, seat)
              and combat.shot_ok(state, s, cannon, target)):
        raise IllegalAction(f"{target['id']} is not in range and line of fire of {cannon!r}")
    rank = found[0][1]
    s["acted"] = "shoot" if s["acted"] is None else s["acted"]
    s["fired"].append(cannon)
    events: list[Event] = []
    r = combat.roll(rng)
    hit = r != 1 and r > rank
    events.append({"type": "shot", "ship": s["id"], "cannon": cannon, "target": tid,
                   "roll": r, "rank": rank, "hit": hit})
    if not hit and not s["cannoneer"] and world.has(state, s, "Cannoneer"):
        # 5.14: the player may fire this cannon again now, or keep the re-fire for a
        # later miss this turn (A-25: at the same target, even after a 1)
        state["pending"].append({"kind": "refire", "seat": seat, "ship": s["id"],
                                 "cannon": cannon, "target": tid, "rank": rank})
    shot_lands(state, seat, tid, hit, events)
    return events


def shot_lands(state: State, seat: int, tid: str, hit: bool, events: list[Event]) -> None:
    landed = marine.landed_target(state, tid)
    if hit and landed is not None:
        marine.hit_marine(state, landed, events)
    elif hit:
        forts.hit_target(state, tid, seat, events)


def apply_refire(state: State, p: dict[str, Any], action: Action, rng: random.Random
                 ) -> list[Event]:
    """The Cannoneer's re-fire (5.14), once a turn: a new roll at the same target."""
    state["pending"].pop()
    if action["type"] == "decline":
        return []
    s = world.ship(state, p["ship"])
    s["cannoneer"] = True
    r = combat.roll(rng)
    hit = r != 1 and r > p["rank"]
    events: list[Event] = [{"type": "refire", "ship": s["id"], "cannon": p["cannon"],
                            "target": p["target"], "roll": r, "hit": hit}]
    shot_lands(state, p["seat"], p["target"], hit, events)
    return events


def do_broadside(state: State, seat: int, s: Ship, action: Action, rng: random.Random
                 ) -> list[Event]:
    """Broadside Attack (5.15, A-29): one roll against the highest rank taking part."""
    target = world.ship(state, action.get("target"))
    if action not in fire_actions(state, s) if may_fire(state, s) else True:
        raise IllegalAction(f"{s['id']} cannot fire a broadside at {target['id']} now")
    guns = combat.broadside_cannons(state, s, target)
    s["acted"] = "shoot" if s["acted"] is None else s["acted"]
    s["fired"] = [i for i, _ in guns]
    s["fire_closed"] = True
    r = combat.roll(rng)
    top = max(rank for _, rank in guns)
    hit = r != 1 and r > top
    hits = len(guns) + 1 if hit else 0
    events: list[Event] = [{"type": "broadside", "ship": s["id"], "target": target["id"],
                            "roll": r, "rank": top, "cannons": len(guns), "hits": hits}]
    if hits:
        combat.damage(state, target, hits, seat, "shot", events)
    return events


def do_explore(state: State, seat: int, s: Ship, action: Action, rng: random.Random
               ) -> list[Event]:
    """5.8.1: a ship that began its turn docked at a wild island looks at its treasure."""
    isl = world.island(state, s["docked"]) if s["docked"] else None
    if s["acted"] is not None or not s["explore_ok"] or isl is None or isl["home"] is not None \
            or not isl["treasure"]:
        raise IllegalAction(f"{s['id']} cannot explore now (5.8.1: it must begin the turn "
                            "docked at a wild island with treasure)")
    s["acted"] = "explore"
    return start_take(state, s, world.island(state, s["docked"]))


def start_take(state: State, s: Ship, isl: dict[str, Any]) -> list[Event]:
    seat = s["owner"]
    for t in isl["treasure"]:
        state["treasure"][t]["seen"][seat] = True
    state["pending"].append({"kind": "take", "seat": seat, "ship": s["id"], "island": isl["id"]})
    return [{"type": "explored", "ship": s["id"], "island": isl["id"], "seat": seat},
            {"type": "saw", "to": [seat], "island": isl["id"],
             "treasure": {state["treasure"][t]["id"]: state["treasure"][t]["gold"]
                          for t in isl["treasure"]}}]


def do_repair(state: State, seat: int, s: Ship, action: Action, rng: random.Random
              ) -> list[Event]:
    mast = action.get("mast")
    if s["acted"] is not None or not can_repair(state, s) or not isinstance(mast, int) \
            or isinstance(mast, bool) or not 0 <= mast < s["masts"] or s["masts_up"][mast]:
        raise IllegalAction(f"{s['id']} cannot repair mast {mast!r} now")
    was_derelict = world.derelict(s)
    s["masts_up"][mast] = True
    s["acted"] = "repair"
    events: list[Event] = [{"type": "repaired", "ship": s["id"], "mast": mast}]
    if was_derelict and s["towed_by"] is not None:  # 5.5 (7): no longer derelict
        combat.release(state, world.ship(state, s["towed_by"]), events)
    if was_derelict:
        s["scuttle"] = False
    return events


def do_free(state: State, seat: int, s: Ship, action: Action, rng: random.Random
            ) -> list[Event]:
    """5.18.3: a trapped ship uses its action to try to get out of the weed."""
    if s["trapped_in"] is None or s["acted"] is not None:
        raise IllegalAction(f"{s['id']} is not trapped, or has acted this turn")
    s["acted"] = "free"
    events: list[Event] = []
    terrain.free(state, s, rng, events)
    return events


def do_ghost(state: State, seat: int, s: Ship, action: Action, rng: random.Random
             ) -> list[Event]:
    if action != {"type": "ghost", "ship": s["id"], "on": not s["ghost"]} \
            or "Ghost Ship" not in world.keywords(s) or state["acted_any"]:
        raise IllegalAction("ghost form is chosen at the start of the turn (A-30)")
    s["ghost"] = action["on"]
    return [{"type": "ghost_form", "ship": s["id"], "on": s["ghost"]}]


def do_release(state: State, seat: int, s: Ship, action: Action, rng: random.Random
               ) -> list[Event]:
    if s["towing"] is None:
        raise IllegalAction(f"{s['id']} is not towing")
    events: list[Event] = []
    combat.release(state, s, events)
    return events


def do_scuttle(state: State, seat: int, s: Ship, action: Action, rng: random.Random
               ) -> list[Event]:
    """5.12: a derelict rolls once a turn; on 5-6 it sinks at the owner's next turn."""
    if action not in free_actions(state, s):
        raise IllegalAction(f"{s['id']} cannot be scuttled now")
    r = combat.roll(rng)
    s["scuttle_rolled"] = True
    s["scuttle"] = r >= 5
    return [{"type": "scuttle", "ship": s["id"], "roll": r, "success": s["scuttle"]}]


def do_crew(state: State, seat: int, s: Ship | None, action: Action, rng: random.Random
            ) -> list[Event]:
    """5.4.2: a docked ship unloads or loads crew as a free action."""
    cid = action.get("crew")
    crew = next((c for c in state["crew"] if c["id"] == cid), None)
    if crew is None or crew["owner"] != seat:
        raise IllegalAction(f"no crew {cid!r} of yours")
    if action["type"] == "unload_crew":
        s = world.ship(state, crew["ship"]) if crew["ship"] else None
        if s is None or action not in free_actions(state, s):
            raise IllegalAction(f"{cid} cannot be unloaded now")
        s["crew"].remove(int(cid[1:]))
        crew["ship"], crew["island"], crew["moved"] = None, s["docked"], True
        return [{"type": "crew_unloaded", "crew": cid, "ship": s["id"], "island": s["docked"]}]
    s = world.ship(state, action.get("ship"))
    if s["owner"] != seat or action not in free_actions(state, s):
        raise IllegalAction(f"{cid} cannot be loaded onto {s['id']} now")
    s["crew"].append(int(cid[1:]))
    crew["ship"], crew["island"], crew["moved"] = s["id"], None, True
    return [{"type": "crew_loaded", "crew": cid, "ship": s["id"]}]


HANDLERS = {
    "move": do_move, "pivot": do_pivot, "galley_pivot": do_stern_turn, "fire": do_fire,
    "broadside": do_broadside, "explore": do_explore, "repair": do_repair, "ghost": do_ghost,
    "release": do_release, "scuttle": do_scuttle, "unload_crew": do_crew, "load_crew": do_crew,
    "free": do_free, "explore_ship": explore.do_explore_ship,
    "marine_fire": marine.do_marine_fire,
    "submerge": lambda state, seat, s, action, rng: monsters.submerge(state, seat, s, action),
    "load_fort": lambda state, seat, s, action, rng: forts.do_load(state, seat, s, action),
}
SHIP_ACTIONS = {"move", "pivot", "galley_pivot", "fire", "broadside", "explore", "repair",
                "ghost", "release", "scuttle", "free", "submerge", "load_fort", "explore_ship"}


def apply_pending(state: State, seat: int, p: dict[str, Any], action: Action,
                  rng: random.Random) -> list[Event]:
    kind = action.get("type")
    events: list[Event] = []
    if p["kind"] == "after_move" and kind == "rotate":
        return schooner_rotate(state, p, action)
    if p["kind"] == "transfer":
        return explore.apply_transfer(state, p, action)
    if action not in pending_actions(state, p):
        raise IllegalAction(f"expected one of {pending_actions(state, p)}")
    if p["kind"] == "refire":
        return apply_refire(state, p, action, rng)
    if p["kind"] == "fort_take":
        return forts.apply_take(state, p, action)
    if p["kind"] == "lose_flag":
        return forts.apply_lose_flag(state, p, action)
    if p["kind"] == "lose_mast":
        s = world.ship(state, p["ship"])
        state["pending"].pop()
        combat.lose_mast(state, s, action["mast"], events)
        if p["hits"] > 1:
            combat.damage(state, s, p["hits"] - 1, p["by"], p["cause"], events)
        return events
    if p["kind"] == "take":
        state["pending"].pop()
        s = world.ship(state, p["ship"])
        isl = world.island(state, p["island"])
        world.take_aboard(state, s, isl["treasure"], action["treasure"])
        return [{"type": "took", "ship": s["id"], "island": isl["id"],
                 "treasure": list(action["treasure"])}]
    if p["kind"] == "board":
        state["pending"].pop()
        a, d = world.ship(state, p["ship"]), world.ship(state, p["target"])
        if kind == "board":
            combat.board(state, a, d, rng, events)
        elif d["owner"] not in p["asked"] and not d["sunk"] and not a["sunk"]:
            # the player whose turn it is decides first, then the other
            state["pending"].append({**p, "seat": d["owner"], "asked": p["asked"] + [d["owner"]]})
        return events
    if p["kind"] == "plunder":
        state["pending"].pop()
        if kind == "plunder":
            combat.plunder(state, world.ship(state, p["ship"]), world.ship(state, p["target"]),
                           action["what"], rng, events)
        return events
    # after_move
    s = world.ship(state, p["ship"])
    if kind == "done":
        state["pending"].pop()
        return events
    if kind == "explore_free":
        p["explore"] = False
        return start_take(state, s, world.island(state, s["docked"]))
    if kind == "load_fort_free":
        p["explore"] = False
        return forts.start_load(state, s, forts.loadable(state, s))  # type: ignore[arg-type]
    target = world.ship(state, action["target"])
    if kind == "ram":
        p["ram"] = False
        combat.ram(state, s, target, rng, events)
        return events
    # tow
    p["tow"] = False
    s["towing"], target["towed_by"] = target["id"], s["id"]
    target["pose"] = list(world.towed_pose(state, s))
    target["docked"] = s["docked"]
    if target["owner"] != s["owner"]:
        target["scuttle"] = False  # 5.5 (6): towing cancels the enemy's scuttle
        target["owner"] = s["owner"]
        for c in world.crew_aboard(state, target):
            c["owner"] = s["owner"]
        for t in target["hold"]:
            state["treasure"][t]["seen"][s["owner"]] = True
    events.append({"type": "towing", "ship": s["id"], "towed": target["id"]})
    return events


def schooner_rotate(state: State, p: dict[str, Any], action: Action) -> list[Event]:
    """Schooner (5.15): turn about the stern after the move. 5.2.6 puts towing and
    ramming (steps 3-4) before the rotation (step 5): they were for where the move left
    the ship, so they are no longer offered once it has turned. The dock follows the
    bow (5.4.1): a bow turned off the island leaves it (a wild island is then marked
    visited, 5.8.2); a bow turned onto one docks there, unloading at home (5.4.3)."""
    s = world.ship(state, p["ship"])
    if not any(a["type"] == "rotate" for a in after_move_actions(state, p)):
        raise IllegalAction("no Schooner rotation now")
    h = _heading(action)
    pose = hull.pose_about(s["masts"], world.pose(s),
                           hull.stern_point(s["masts"], world.pose(s)), h)
    check_clear(state, s, pose)
    s["pose"] = list(pose)
    p["rotate"] = p["ram"] = p["tow"] = False
    events: list[Event] = [{"type": "schooner_turn", "ship": s["id"], "heading": h}]
    isl = None if s["ghost"] else world.bow_island(state, s)
    if isl is not None and isl["home"] not in (None, s["owner"]):
        isl = None  # 5.4.1: never docked at an enemy home
    if s["docked"] is not None and (isl is None or isl["id"] != s["docked"]):
        left = world.island(state, s["docked"])
        if left["home"] is None:
            left["visited"][s["owner"]] = True
        s["docked"] = None
    if isl is not None and s["docked"] is None:
        events += dock(state, s, isl)
        p["explore"] = isl["home"] is None and (isl["visited"][s["owner"]]
                                                 or world.has(state, s, "Explorer"))
    return events


# -- turn boundaries -----------------------------------------------------------------


def end_turn(state: State, rng: random.Random) -> list[Event]:
    seat = state["turn"]
    for s in state["ships"]:
        if s["owner"] == seat:
            s["fear"] = ""  # Fear lasts for the victim's own next turn
    n = state["n_players"]
    nxt = (seat + 1) % n
    if nxt == state["first"]:
        state["round"] += 1
    state["turn"] = nxt
    state["acted_any"] = False
    terrain.end_of_turn(state)
    marine.end_of_turn(state)
    events: list[Event] = [{"type": "turn", "seat": nxt, "round": state["round"]}]
    return events + start_turn(state, rng)


def start_turn(state: State, rng: random.Random) -> list[Event]:
    """4.4 step 1: scuttles, then Fear, then the per-turn flags; then the fallback ends
    of 7.4."""
    seat = state["turn"]
    events: list[Event] = []
    for s in state["ships"]:
        if s["owner"] == seat and s["scuttle"] and not s["sunk"]:
            combat.sink(state, s, None, events)
            events[-1]["scuttled"] = True
    for c in state["crew"]:
        if c["owner"] == seat:
            c["moved"] = False
    forts.start_turn(state, seat)
    for s in state["ships"]:
        if s["owner"] != seat or s["sunk"]:
            continue
        s.update(acted=None, moved=False, fire_closed=False, fired=[], rammed=[],
                 cannoneer=False, pivoted=False, scuttle_rolled=False, pinned_before=False,
                 explore_ok=s["docked"] is not None)
        if "Fear" in world.keywords(s) and "5" not in s["fear"] and not world.derelict(s):
            for e in state["ships"]:
                if (world.on_plane(e) and e["owner"] != seat
                        and g.distance(world.foot(s), world.foot(e))
                        <= state["S_length"] + g.EPS_TOUCH):
                    r = combat.roll(rng)
                    if r >= 5:
                        e["fear"] += str(r)
                    events.append({"type": "fear", "ship": s["id"], "target": e["id"], "roll": r})
    fallback_end(state, events)
    return events


def hidden_gold_left(state: State) -> bool:
    """7.4's "gold left to carry" with unique treasure at a hidden-deck table
    (hidden.py), exact: a token someone explored and did not claim unique is worth at
    least 1; of the tokens nobody explored, as many as the unique treasures not yet
    claimed may be worth 0, so some gold is left if there are more of them."""
    out = [t for t in state["treasure"]
           if t["where"] not in ("home", "gone") and not forts.is_fort_id(t["where"])]
    if any(t["gold"] > 0 if t["gold"] is not None else any(t["seen"]) for t in out):
        return True
    unexplored = sum(1 for t in out if t["gold"] is None and not any(t["seen"]))
    return unexplored > state["n_players"] - sum(1 for t in state["treasure"] if t["unique"])


def fallback_end(state: State, events: list[Event]) -> None:
    """7.4: no gold left to carry home, or no ships at all, or the round cap."""
    if state["phase"] == "over":
        return
    carried = any(t["gold"] is None or t["gold"] > 0 for t in state["treasure"]
                  if t["where"] not in ("home", "gone") and not forts.is_fort_id(t["where"]))
    if carried and "held" in state.get("hidden", ()):
        carried = hidden_gold_left(state)
    afloat = any(not s["sunk"] for s in state["ships"])
    why = ("exhaustion" if not carried else "annihilation" if not afloat
           else "round_cap" if state["round"] > state["options"]["max_rounds"] else None)
    if why:
        gold = world.total_gold(state)  # home and forts (7.2)
        best = max(gold)
        combat.finish(state, [p for p in range(state["n_players"]) if gold[p] == best], why, events)
