"""What each seat may know (digest 8.13), scores, and words for people.

Views are built from allow-lists. Public: the whole geometry, every ship, the count
and place of every treasure and crew, unloaded gold. Private to a seat: the values of
treasure it has looked at or carried (A-47), the kinds of its own face-down crew.
Face-up items (unique treasure aboard, revealed crew, unloaded treasure) are public.
Under the multiplayer sheet (6.2) treasure goes home face down: each home's gold
shows only its face-up part to the other seats, with the count of hidden pieces.
"""

from __future__ import annotations

from typing import Any

from . import forts, monsters, multiplayer, world

State = dict[str, Any]
View = dict[str, Any]

# the ship's fields a view shows as they are (plain values), and those it copies (lists)
_SHIP_VALUES = ("id", "card", "owner", "origin", "masts", "armor", "placed", "docked",
                "towing", "towed_by", "sunk", "acted", "moved", "ghost", "scuttle",
                "scuttle_rolled", "fear", "explore_ok", "pivoted", "fire_closed", "cannoneer",
                "pinned_before", "lost_in", "trapped_in", "wreck")
_SHIP_LISTS = ("masts_up", "fired", "rammed", "pose")


def _ship(state: State, s: dict[str, Any], m: dict[Any, Any]) -> dict[str, Any]:
    out = {k: s[k] for k in _SHIP_VALUES}
    for k in _SHIP_LISTS:
        out[k] = s[k][:]
    out["hold"] = [state["treasure"][t]["id"] for t in s["hold"]]
    out["crew"] = [state["crew"][c]["id"] for c in s["crew"]]
    out["name"] = world.card(s)["name"]
    out["pinned"] = False if s["sunk"] else world.pinned(state, s, m)
    out["derelict"] = world.derelict(s)
    if world.monster(s):
        out.update(monsters.view_fields(s))
    return out


def _terrain(t: dict[str, Any]) -> dict[str, Any]:
    """Public: every piece, its outline (shared, like islands), its danger this turn."""
    out = {"id": t["id"], "kind": t["kind"], "poly": t["poly"], "danger": t["danger"]}
    if "points" in t:
        out["points"] = [list(p) for p in t["points"]]
    return out


def _treasure(t: dict[str, Any], seat: int | None) -> dict[str, Any]:
    known = t["face_up"] or (seat is not None and t["seen"][seat])
    out = {"id": t["id"], "where": t["where"], "face_up": t["face_up"],
           "seen": list(t["seen"]), "gold": t["gold"] if known else None,
           "unique": t["unique"] if t["face_up"] or known else None}
    if "home_of" in t:
        out["home_of"] = t["home_of"]  # whose home island it lies on (public)
    return out


def _crew(c: dict[str, Any], seat: int | None) -> dict[str, Any]:
    known = c["face_up"] or c["owner"] == seat
    out = {"id": c["id"], "owner": c["owner"], "ship": c["ship"], "island": c["island"],
           "gone": c["gone"], "face_up": c["face_up"], "moved": c["moved"],
           "kind": c["kind"] if known else None, "nation": c["nation"] if known else None,
           "card": c["card"] if known else None, "cursed": c["cursed"] if known else None}
    if known and "marine_hits" in c:  # a Marine's shot and hits this turn (5.15)
        out["marine_hits"], out["marine_fired"] = c["marine_hits"], c["marine_fired"]
    return out


def view(state: State, seat: int | None) -> View:
    """Island outlines never change after set-up, so views share them with the state
    (read-only, like every view) rather than copy 72 points per island each time."""
    m = world.memo(state)
    official = multiplayer.official(state)
    out: View = {
        "game": "pirates-spanish-main", "n_players": state["n_players"], "seat": seat,
        "options": dict(state["options"]),
        "phase": state["phase"], "round": state["round"], "turn": state["turn"],
        "first": state["first"], "S_length": state["S_length"], "L_length": state["L_length"],
        "table": list(state["table"]), "gold_dealt": state["gold_dealt"],
        "gold_to_win": None if official else state["gold_dealt"] // 2 + 1,
        "home_gold": (multiplayer.home_gold_seen(state, seat) if official
                      else list(state["home_gold"])),
        "home_hidden": multiplayer.home_pieces_hidden(state),
        "end_token": state["end_token"], "revealed": state["revealed"],
        "max_rounds": state["options"]["max_rounds"], "acted_any": state["acted_any"],
        "gold_lost": state["gold_lost"], "gold_made": state["gold_made"],
        "winner": None if state["winner"] is None else list(state["winner"]),
        "end": state["end"], "log": [dict(e) for e in state["log"]],
        "home_queue": [dict(q) for q in state.get("home_queue", [])],
        "islands": [{"id": i["id"], "poly": i["poly"], "home": i["home"],
                     "placed_by": i["placed_by"],
                     "visited": list(i["visited"]),
                     "treasure": [state["treasure"][t]["id"] for t in i["treasure"]]}
                    for i in state["islands"]],
        "terrain": [_terrain(t) for t in state["terrain"]],
        "ships": [_ship(state, s, m) for s in state["ships"]],
        "treasure": [_treasure(t, seat) for t in state["treasure"]],
        "crew": [_crew(c, seat) for c in state["crew"]],
        "pending": [dict(p, asked=list(p["asked"])) if "asked" in p else dict(p)
                    for p in state["pending"]],
    }
    if "forts" in state:
        out["forts"] = [v for v in (forts.view(f, seat) for f in state["forts"]) if v]
    if "hidden" in state:  # a hidden deck (hidden.py): the values the state knows
        out["hidden_deck"] = True
        if seat is not None:  # where the host deals: the values shown to this seat
            out["treasure_cards"] = dict(state["hidden"]["known"][seat])
        if "held" in state["hidden"]:  # unique treasure: who was dealt which token (public)
            out["treasure_held"] = dict(state["hidden"]["held"])
            out["treasure_claimed"] = sorted(state["hidden"]["claimed"])
    return out


def scores(state: State) -> dict[str, Any]:
    gold = world.total_gold(state)  # home and forts (7.2)
    if state["winner"] is not None:
        rank = [1 if p in state["winner"] else 1 + sum(1 for q in gold if q > gold[p])
                + (1 if gold[p] == max(gold) else 0) for p in range(state["n_players"])]
        rank = [min(r, state["n_players"]) for r in rank]
    else:
        rank = [1 + sum(1 for q in gold if q > gold[p]) for p in range(state["n_players"])]
    return {"scores": gold, "rank": rank,
            "detail": {"need": (None if multiplayer.official(state)
                                       else state["gold_dealt"] // 2 + 1),
                       "end": state["end"],
                       "round": state["round"]}}
