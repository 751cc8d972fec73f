"""The table as geometry and the state-based predicates of the rules.

Reads the game state (plain data, see :mod:`.deal` for its layout) and answers what
the rules ask: where a ship's hull is, what it may not sail through, whether it is
derelict, pinned or docked, which abilities work aboard, how far it may move.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import Any

from lantable.plugins import IllegalAction

from . import data, hull
from . import geometry as g
from .motion import Obstacle

State = dict[str, Any]
Ship = dict[str, Any]

CREW_ABILITIES = ("Cannoneer", "Captain", "Shipwright", "Explorer", "Musketeer", "Oarsman",
                  "Helmsman")


# -- lookups -------------------------------------------------------------------------


def ship(state: State, sid: Any) -> Ship:
    """The ship with id ``sid`` (``"s3"``); IllegalAction for anything else."""
    if isinstance(sid, str) and sid[:1] == "s" and sid[1:].isdigit():
        i = int(sid[1:])
        if i < len(state["ships"]):
            return state["ships"][i]
    raise IllegalAction(f"no ship {sid!r}")


def island(state: State, iid: Any) -> dict[str, Any]:
    if isinstance(iid, str) and iid[:1] == "I" and iid[1:].isdigit():
        i = int(iid[1:]) - 1
        if 0 <= i < len(state["islands"]):
            return state["islands"][i]
    raise IllegalAction(f"no island {iid!r}")


def card(s: Ship) -> dict[str, Any]:
    return data.ship(s["card"])


def pose(s: Ship) -> g.Pose:
    x, y, h = s["pose"]
    return (x, y, h)


def afloat(s: Ship) -> bool:
    return not s["sunk"]


def on_plane(s: Ship) -> bool:
    """Afloat, not lost in a fog bank (5.18.1) and not a submerged sea monster
    (5.16): a piece other ships can meet."""
    return not s["sunk"] and s["lost_in"] is None and not s.get("submerged")


def monster(s: Ship) -> bool:
    """A sea monster (5.16, option ``monsters``): a fleet piece whose segments act
    like masts. Only monsters carry the key, so ships without it are unchanged."""
    return bool(s.get("monster"))


def foot(s: Ship) -> g.Poly:
    return hull.footprint(s["masts"], pose(s))


def bow(s: Ship) -> g.Poly:
    return hull.bow_region(s["masts"], pose(s))


def aft(s: Ship) -> g.Poly:
    return hull.aft_region(s["masts"], pose(s))


_ISLANDS: dict[int, tuple[list[Any], g.Poly, tuple[Any, ...]]] = {}
_CANON: dict[tuple[Any, ...], g.Poly] = {}


def _island(i: dict[str, Any]) -> tuple[list[Any], g.Poly, tuple[Any, ...]]:
    raw = i["poly"]
    hit = _ISLANDS.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit
    key = tuple(map(tuple, raw))
    poly = _CANON.get(key)
    if poly is None:
        if len(_CANON) >= 4096:
            _CANON.clear()
        poly = _CANON[key] = [(x, y) for x, y in raw]
    if len(_ISLANDS) >= 4096:
        _ISLANDS.clear()
    hit = _ISLANDS[id(raw)] = (raw, poly, key)
    return hit


def island_poly(i: dict[str, Any]) -> g.Poly:
    """The island's polygon as a shape. Islands never change after set-up, so every
    copy of a state (clones, sampled states, views) gets the same shape object for
    the same outline, and the shape caches of :mod:`.geometry` keep working."""
    return _island(i)[1]


def island_key(i: dict[str, Any]) -> tuple[Any, ...]:
    """The island's outline as a hashable value (for cache keys)."""
    return _island(i)[2]


def area(state: State) -> g.Poly:
    """The table as a shape (one object per table size, so its box is cached)."""
    w, h = state["table"]
    return _area(w, h)


@lru_cache(maxsize=16)
def _area(w: int, h: int) -> g.Poly:
    return g.rect(0, 0, w, h)


# -- a memo per table geometry -----------------------------------------------------

_MEMOS: dict[Any, tuple[list[Any], dict[Any, Any]]] = {}
_MEMO_FIELDS = itemgetter("card", "sunk", "owner", "ghost", "towed_by", "towing", "lost_in",
                          "wreck")
_MEMO_LIMIT = 512


def memo(state: State) -> dict[Any, Any]:
    """A scratch dict shared by every state (or view) with the same table: the same
    islands and, for every ship, the same pose, card, masts standing, owner, form
    (ghost, monster), tow, rams and pins. Pure answers about the table (pinned, line
    of fire) are kept here, so the many questions of one decision, and of the next
    ones while nothing moved, are answered once. Entries keep the island outlines
    alive (their ids are keys)."""
    islands = [island_poly(i) for i in state["islands"]]
    key = (tuple(map(id, islands)),
           tuple((_MEMO_FIELDS(e), e.get("monster"), *e["pose"], *e["masts_up"], *e["rammed"],
                  *e.get("pins", ()))
                 for e in state["ships"]))
    hit = _MEMOS.get(key)
    if hit is None:
        if len(_MEMOS) >= _MEMO_LIMIT:
            _MEMOS.clear()
        hit = _MEMOS[key] = (islands, {})
    return hit[1]


# -- status --------------------------------------------------------------------------


def standing(s: Ship) -> list[int]:
    return [i for i, up in enumerate(s["masts_up"]) if up]


def derelict(s: Ship) -> bool:
    return not any(s["masts_up"])


def keywords(s: Ship) -> list[str]:
    return card(s)["keywords"]


def crew_aboard(state: State, s: Ship) -> list[dict[str, Any]]:
    return [state["crew"][i] for i in s["crew"]]


def has(state: State, s: Ship, ability: str) -> bool:
    """The ship or a crew aboard gives ``ability`` now (5.1.3: never twice; 5.14: a
    crew of another nation than its ship has no ability; Fear 5 silences both)."""
    if "5" in s["fear"]:
        return False
    if ability in keywords(s):
        return True
    if ability == "Oarsman" and "Oars" in keywords(s):
        return True
    crew = [c for c in crew_aboard(state, s) if c["kind"] == ability]
    if not crew:
        return False  # the common answer, without working out the flag
    ship_nation = nation(state, s)
    return any(crew_nation(c) == ship_nation for c in crew)


def nation(state: State, s: Ship) -> str:
    """The ship's flag: Cursed while a Black Mark crew sails aboard as Cursed (5.15,
    A-35: then only Cursed crew aboard use their abilities), else the card's."""
    if any(c.get("cursed") for c in crew_aboard(state, s)):
        return "Cursed"
    return str(card(s)["nation"])


def crew_nation(c: dict[str, Any]) -> str | None:
    return "Cursed" if c.get("cursed") else c["nation"]


def towed(s: Ship) -> bool:
    return s["towed_by"] is not None


def pinned(state: State, s: Ship, m: dict[Any, Any] | None = None) -> bool:
    """5.6.2: the bow touches a non-derelict enemy ship (not for ghosts or Galleys).
    ``m``: the table's :func:`memo`, when the caller already has it."""
    if m is None:
        m = memo(state)
    key = ("pinned", s["id"])
    found = m.get(key)
    if found is None:
        found = m[key] = _pinned(state, s)
    return found


def _pinned(state: State, s: Ship) -> bool:
    if not on_plane(s) or s["ghost"] or towed(s) or "Galley" in keywords(s) or monster(s):
        return False  # 5.16: a sea monster is never pinned
    if any(s["id"] in e.get("pins", ()) and on_plane(e) and g.touching(foot(e), foot(s))
           for e in state["ships"]):
        return True  # 5.16: rammed by a sea monster, pinned while it touches
    b = bow(s)
    bx0, by0, bx1, by1 = g.box(b)
    eps = g.EPS_TOUCH
    for e in state["ships"]:
        if e is s or not on_plane(e) or e["owner"] == s["owner"]:
            continue
        f = foot(e)
        fx0, fy0, fx1, fy1 = g.box(f)
        if fx0 - bx1 > eps or bx0 - fx1 > eps or fy0 - by1 > eps or by0 - fy1 > eps:
            continue  # the broad phase first: most ships are far apart
        if derelict(e) or e["ghost"] or towed(e):
            continue
        if "Galley" in keywords(e) and e["id"] in s["rammed"]:
            continue
        if g.touching(b, f):
            return True
    return False


def can_move(state: State, s: Ship, m: dict[Any, Any] | None = None) -> bool:
    """5.2.4: not derelict (unless an ability gives it S), not pinned, not towed."""
    if s["sunk"] or towed(s) or s["trapped_in"] is not None:
        return False
    if s["lost_in"] is not None:
        return True  # its move action is the way out of the fog (5.18.1)
    if derelict(s) and not derelict_moves(state, s):
        return False
    return not pinned(state, s, m)


def derelict_moves(state: State, s: Ship) -> bool:
    kw = keywords(s)
    return "Galley" in kw or "Turtle ship" in kw or has(state, s, "Oarsman")


def move_terms(state: State, s: Ship) -> list[str]:
    """5.2.5 with A-14: overrides (derelict, towing, Fear 6) set S, then +S bonuses."""
    terms = list(card(s)["move"])
    if derelict(s) or s["towing"] is not None or "6" in s["fear"]:
        terms = ["S"]
    bonus = has(state, s, "Helmsman") or any(
        state["treasure"][t]["unique"] == "D-U01" for t in s["hold"])
    if bonus:
        terms.append("S")
    return terms


def term_length(state: State, term: str) -> int:
    return state["S_length"] if term == "S" else state["L_length"]


def capacity(state: State, s: Ship) -> int:
    """5.9.3 with A-8: printed cargo, +1 for each crew aboard the ship it is linked
    to, +1 for each pair of mutually linked crew aboard together."""
    aboard = [c for c in crew_aboard(state, s) if c.get("card")]
    if not aboard:
        return int(card(s)["cargo"])
    named = data.named_crew()
    links = {c["card"]: set(named[c["card"]]["links"]) for c in aboard}
    bonus = sum(1 for c in aboard if s["card"] in links[c["card"]])
    cards = sorted(links)
    bonus += sum(1 for i, a in enumerate(cards) for b in cards[i + 1:]
                 if b in links[a] and a in links[b])
    return int(card(s)["cargo"]) + bonus


def load(state: State, s: Ship) -> int:
    """Cargo used: crew (Oarsman 0) and treasure (unique 0), 5.9.1."""
    crew = sum(0 if c["kind"] == "Oarsman" else 1 for c in crew_aboard(state, s))
    goods = sum(0 if state["treasure"][t]["unique"] else 1 for t in s["hold"])
    return crew + goods


def take_aboard(state: State, s: Ship, source: list[int], tids: list[str]) -> None:
    """Load the treasure pieces ``tids`` ("t3", ...) from ``source`` (an island's or a
    fort's pile) into ``s``'s hold; a unique treasure is face up once loaded (5.8.4)."""
    for tid in tids:
        t = int(tid[1:])
        source.remove(t)
        s["hold"].append(t)
        tr = state["treasure"][t]
        tr["where"] = s["id"]
        if tr["unique"]:
            tr["face_up"] = True


def free_cargo(state: State, s: Ship) -> int:
    return capacity(state, s) - load(state, s)


def home_of(state: State, seat: int) -> dict[str, Any] | None:
    for i in state["islands"]:
        if i["home"] == seat:
            return i
    return None


def fort_gold(state: State, seat: int) -> int:
    """The gold inside ``seat``'s standing forts (5.17.2: it counts for victory)."""
    return sum(state["treasure"][t]["gold"] for f in state.get("forts", ())
               if f["owner"] == seat and f["island"] is not None and not f["destroyed"]
               for t in f["hold"])


def total_gold(state: State) -> list[int]:
    """Each seat's gold for victory (7.2): at home plus inside its forts."""
    if "forts" not in state:
        return list(state["home_gold"])
    return [g_ + fort_gold(state, p) for p, g_ in enumerate(state["home_gold"])]


def docked_home(state: State, s: Ship) -> bool:
    d = s["docked"]
    return d is not None and island(state, d)["home"] == s["owner"]


# -- obstacles -----------------------------------------------------------------------


def obstacles(state: State, skip: tuple[str, ...] = ()) -> list[Obstacle]:
    """Islands, wrecks and every ship on the plane except ``skip`` (8.6.3)."""
    out: list[Obstacle] = [("island", i["id"], island_poly(i)) for i in state["islands"]]
    for e in state["ships"]:
        if (on_plane(e) or e["wreck"]) and e["id"] not in skip:
            out.append(("wreck" if e["wreck"] else "ship", e["id"], foot(e)))
    return out


def towed_pose(state: State, tug: Ship) -> g.Pose:
    """8.6.6: the towed ship's bow tip at the tug's stern point, same heading."""
    sx, sy = hull.stern_point(tug["masts"], pose(tug))
    return g.round_pose(sx, sy, tug["pose"][2])


def body(state: State, s: Ship):  # noqa: ANN201 - a motion.Body
    """What moves with ``s``: its hull, plus the hull of the ship it tows."""
    if s["towing"] is None:
        masts = s["masts"]
        return lambda p: [hull.footprint(masts, p)]
    tow = ship(state, s["towing"])
    masts, tmasts = s["masts"], tow["masts"]

    def both(p: g.Pose) -> list[g.Poly]:
        sx, sy = hull.stern_point(masts, p)
        return [hull.footprint(masts, p),
                hull.footprint(tmasts, g.round_pose(sx, sy, p[2]))]
    return both


def moving_ids(s: Ship) -> tuple[str, ...]:
    return (s["id"],) if s["towing"] is None else (s["id"], s["towing"])


def touching_now(state: State, s: Ship, obs: list[Obstacle]) -> frozenset[str]:
    """The ids of the obstacles that ``s`` (and its tow) touches now."""
    polys = body(state, s)(pose(s))
    boxes = [g.box(p) for p in polys]
    eps = g.EPS_TOUCH
    out = []
    for _, oid, poly in obs:
        ox0, oy0, ox1, oy1 = g.box(poly)
        for p, (px0, py0, px1, py1) in zip(polys, boxes, strict=True):
            # the box test of g.touching, inlined: most obstacles are far
            if ox0 - px1 > eps or px0 - ox1 > eps or oy0 - py1 > eps or py0 - oy1 > eps:
                continue
            if g.touching(p, poly):
                out.append(oid)
                break
    return frozenset(out)


def bow_island(state: State, s: Ship) -> dict[str, Any] | None:
    """The island the bow touches, if any (docking, 5.4.1)."""
    b = bow(s)
    for i in state["islands"]:
        if g.touching(b, island_poly(i)):
            return i
    return None


def fogs(state: State) -> list[g.Poly]:
    """The fog banks' outlines (5.18.1: they block every line of fire)."""
    return [island_poly(t) for t in state.get("terrain", []) if t["kind"] == "fog"]


def official_sheet(state: State) -> bool:
    """3+ players under the WizKids multiplayer sheet (6.2, option ``multiplayer_mode``,
    :mod:`.multiplayer`): hidden gold at home, the end token, no threshold win."""
    return state["n_players"] >= 3 and state["options"].get("multiplayer_mode",
                                                "official_sheet") == "official_sheet"
