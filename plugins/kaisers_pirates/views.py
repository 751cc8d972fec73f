"""Views built from an allow-list, and sampling a full state back from a view (4.7).

Secret: hands, the identity of committed cards not yet played, the order of the
Action deck and the set-aside cards, what a seat saw with Intelligence, cards
offered with Exchange Information, and the keep choices until all are in.
Everything else on the table is public (ship cards lie face up; hidden raiders
are "disguised", not face down).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .cardtypes import CARD_TYPES
from .data import ACTIONS
from .turn import to_act

if TYPE_CHECKING:
    import random

State = dict[str, Any]

_PUBLIC = ("np", "seats", "mode", "o", "round", "phase", "turn", "tno", "first", "actions",
           "removed", "wused", "mused", "adisc", "hist", "sh")
_PLAYER_PUBLIC = ("ger", "mer", "vp", "wait", "skip", "wi", "turns", "rp", "rvp", "kept")
# pl/pend_end: where the phantom is in its turn; sank/late: sinkings still answerable
_TURN_PUBLIC = ("p", "ph", "att", "icpt", "acted", "sc", "extra", "wi", "rev0", "rx", "dec",
                "fog", "left", "resup", "pl", "pend_end", "rxo", "sank", "late")
# T["stolen"] is secret (which cards were taken): only the phasing seat sees it


_PLACEMENT_ORDER = {"mines": 0, "act": 1, "icpt": 2, "brit": 3}


def _fits(v: dict[str, Any], c: int, use: str) -> bool:
    """Could card ``c`` have been committed for ``use`` (turn._commit_offers)?"""
    cd = ACTIONS[c]
    team = v["mode"] == "team"
    if use == "mines":
        return cd["type"] == "lay_mines"
    if use == "act":
        return CARD_TYPES[cd["type"]].acts_when_committed(team)
    if use == "icpt":
        return not (cd["kind"] == "T" and not team and not v["o"]["a13_any_interception"])
    return True


def view(S: State, seat: int | None) -> dict[str, Any]:
    v: dict[str, Any] = {k: copy.deepcopy(S[k]) for k in _PUBLIC}
    v["seat"] = seat
    v["to_act"] = to_act(S)
    v["wdeck_n"] = len(S["wdeck"])
    v["mdeck_n"] = len(S["mdeck"])
    v["adeck_n"] = len(S["adeck"])
    v["aside_n"] = len(S["aside"])
    v["players"] = []
    for p in S["p"]:
        pv = {k: copy.deepcopy(p[k]) for k in _PLAYER_PUBLIC}
        pv["hand_n"] = len(p["hand"])
        v["players"].append(pv)
    T = S["T"]
    if T is None:
        v["T"] = None
    else:
        tv = {k: copy.deepcopy(T[k]) for k in _TURN_PUBLIC if k in T}
        tv["com"] = [{"c": e["c"] if e["done"] or seat == T["p"] else None, "use": e["use"],
                      "ship": e["ship"], "done": e["done"]} for e in T["com"]]
        tv["stolen"] = list(T["stolen"]) if seat == T["p"] else []
        v["T"] = tv
    v["stack"] = copy.deepcopy(S["stack"])  # contexts hold only announced, public facts
    pend = S["pend"]
    if pend is None:
        v["pend"] = None
    elif pend["k"] == "keep":
        v["pend"] = {"k": "keep", "seats": list(pend["seats"]), "done": sorted(pend["ch"])}
    else:
        v["pend"] = {k: copy.deepcopy(x) for k, x in pend.items() if k in ("k", "s", "ships")}
    v["solo"] = copy.deepcopy(S["solo"])
    if S["mode"] == "solo":  # R 5.3.1: the discard pile is face down all game
        v["adisc"] = None
        v["adisc_n"] = len(S["adisc"])
        # the order of the Solitaire deck is secret, which cards are left is not: every
        # card drawn since the last reshuffle was shown (R 5.4.1)
        v["solo"]["deck"] = sorted(S["solo"]["deck"])
    if seat is not None:
        p = S["p"][seat]
        deck = set(S["adeck"])
        v["me"] = {"hand": sorted(p["hand"]), "peek": [c for c in p["peek"] if c in deck],
                   "seen": copy.deepcopy(p["seen"]), "give": list(p["give"]),
                   "keep": None, "mate_keep": None}
        if pend is not None and pend["k"] == "keep":
            v["me"]["keep"] = copy.deepcopy(pend["ch"].get(str(seat)))
            if S["mode"] == "team":  # 8.1 4.9: teammates pool their ships
                v["me"]["mate_keep"] = copy.deepcopy(pend["ch"].get(str((seat + 2) % 4)))
    return v


def sample(v: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full state the seat cannot tell apart from the true one."""
    S: State = {k: copy.deepcopy(v[k]) for k in _PUBLIC}
    S["solo"] = copy.deepcopy(v["solo"])
    me = v["me"]
    known = set(me["hand"]) | set(v["adisc"] or ()) | set(me["peek"])
    for p in v["players"]:
        if p["wait"] and p["wait"]["c"] is not None:
            known.add(p["wait"]["c"])
        known |= {e["a"] for e in p["vp"] if "a" in e}
    for st in v["sh"]:
        if st is not None and st["ref"] is not None and st["ref"] >= 0:
            known.add(st["ref"])
    T = v["T"]
    if T is not None:
        known |= {e["c"] for e in T["com"] if e["c"] is not None}
        known |= {c for _s, c in T["rx"]}
    pool = [c for c in v["actions"] if c not in known]
    rng.shuffle(pool)
    # cards seen in a hand with Intelligence and not seen leaving it since are
    # assumed to be still there (up to the hand's size)
    still: list[int] = []
    seen = me["seen"]
    if seen is not None and seen["seat"] != seat:
        room = v["players"][seen["seat"]]["hand_n"]
        still = [c for c in seen["cards"] if c in pool][:room]
        pool = [c for c in pool if c not in still]
    S["T"] = None
    if T is not None:  # face-down committed cards first: their placement constrains them
        Tn = copy.deepcopy(T)
        for e in sorted(Tn["com"], key=lambda e: _PLACEMENT_ORDER[e["use"]]):
            if e["c"] is None:
                fits = [c for c in pool if _fits(v, c, e["use"])]
                e["c"] = fits[-1] if fits else pool[-1]
                pool.remove(e["c"])
        S["T"] = Tn
    S["p"] = []
    for i, pv in enumerate(v["players"]):
        p = {k: copy.deepcopy(pv[k]) for k in pv if k != "hand_n"}
        if i == seat:
            p.update({"hand": list(me["hand"]), "peek": list(me["peek"]),
                      "seen": copy.deepcopy(me["seen"]), "give": list(me["give"])})
        else:
            mine = still if seen is not None and i == seen["seat"] else []
            hand = mine + [pool.pop() for _ in range(pv["hand_n"] - len(mine))]
            p.update({"hand": hand, "peek": [],
                      "seen": None, "give": []})
        S["p"].append(p)
    if v["adisc"] is None:
        S["adisc"] = [pool.pop() for _ in range(v["adisc_n"])]
    if S["solo"] is not None:  # the cards left are known, their order is not
        rng.shuffle(S["solo"]["deck"])
    n_unknown_deck = v["adeck_n"] - len(me["peek"])
    S["adeck"] = [pool.pop() for _ in range(n_unknown_deck)] + list(reversed(me["peek"]))
    S["aside"] = [pool.pop() for _ in range(v["aside_n"])]
    # ship decks: the draw piles are the ships not seen anywhere, in random order
    seen_ships = set(v["wused"]) | set(v["mused"]) | set(v["removed"])
    for p in S["p"]:
        seen_ships |= set(p["ger"]) | set(p["mer"]) | {e["s"] for e in p["vp"] if "s" in e}
    rest = [s for s in range(len(v["sh"])) if s not in seen_ships]
    rng.shuffle(rest)
    S["wdeck"] = [s for s in rest if s < 20]
    S["mdeck"] = [s for s in rest if s >= 20]
    S["stack"] = copy.deepcopy(v["stack"])
    pend = v["pend"]
    if pend is not None and pend["k"] == "keep":
        ch = {str(s): [] for s in pend["done"]}
        if me.get("keep") is not None:
            ch[str(seat)] = me["keep"]
        if me.get("mate_keep") is not None:
            ch[str((seat + 2) % 4)] = me["mate_keep"]
        S["pend"] = {"k": "keep", "seats": pend["seats"], "ch": ch}
    else:
        S["pend"] = copy.deepcopy(pend)
    return S
