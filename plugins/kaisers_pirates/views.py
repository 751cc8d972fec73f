"""Views built from an allow-list, and sampling a full state back from a view (4.7).

Secret: hands, the identity of committed cards not yet played, which cards are
set aside, what a seat saw with Intelligence (a hand, the Action deck's top), cards
offered with Exchange Information, and the keep choices until all are in.
Everything else on the table is public (ship cards lie face up; hidden raiders
are "disguised", not face down).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .cardtypes import CARD_TYPES
from .data import ACTIONS
from .piles import action_left
from .state import State
from .turn import to_act

if TYPE_CHECKING:
    import random


_PUBLIC = ("n_players", "seats", "mode", "options", "round", "phase", "turn_seat", "turns_begun",
           "first_seat", "action_cards", "removed_ships", "german_used", "german_out",
           "merchant_used", "discards", "history", "ships")
_PLAYER_PUBLIC = ("german", "merchants", "vp_pile", "wait", "skip", "wireless_turn", "turns",
                  "round_points", "round_vp", "n_kept")
# phantom_began/phantom_ends: where the phantom is in its turn; sinkings/late_asked:
# sinkings still answerable
_TURN_PUBLIC = ("seat", "stage", "attacked_seat", "intercepted", "acted", "second_chance",
                "extra", "wireless_used", "revealed_at_start", "reactions", "deception", "fog",
                "left_refuge", "resupplied_from", "phantom_began", "phantom_ends",
                "reactions_ordered", "sinkings", "late_asked")
# this_turn["recon_cards"] is secret (which cards were taken): only the phasing seat sees it


_PLACEMENT_ORDER = {"mines": 0, "act": 1, "icpt": 2, "brit": 3}


def fits(v: dict[str, Any], c: int, use: str) -> bool:
    """Could card ``c`` have been committed for ``use`` (turn._commit_offers)?"""
    cd = ACTIONS[c]
    team = v["mode"] == "team"
    if use == "mines":
        return cd["type"] == "lay_mines"
    if use == "act":
        return CARD_TYPES[cd["type"]].acts_when_committed(team)
    if use == "icpt":
        return not (cd["kind"] == "T" and not team and not v["options"]["a13_any_interception"])
    return True


def view(S: State, seat: int | None) -> dict[str, Any]:
    v: dict[str, Any] = {k: copy.deepcopy(S[k]) for k in _PUBLIC}
    v["seat"] = seat
    v["to_act"] = to_act(S)
    v["german_deck_n"] = len(S["german_deck"])
    v["merchant_deck_n"] = len(S["merchant_deck"])
    v["action_deck_n"] = action_left(S)
    v["set_aside_n"] = S["set_aside_n"]
    v["players"] = []
    for p in S["players"]:
        pv = {k: copy.deepcopy(p[k]) for k in _PLAYER_PUBLIC}
        pv["hand_n"] = len(p["hand"])
        v["players"].append(pv)
    T = S["this_turn"]
    if T is None:
        v["this_turn"] = None
    else:
        tv = {k: copy.deepcopy(T[k]) for k in _TURN_PUBLIC if k in T}
        tv["committed"] = [{"card": e["card"] if e["played"] or seat == T["seat"] else None,
                            "use": e["use"], "ship": e["ship"], "played": e["played"]}
                           for e in T["committed"]]
        tv["recon_cards"] = list(T["recon_cards"]) if seat == T["seat"] else []
        v["this_turn"] = tv
    v["stack"] = copy.deepcopy(S["stack"])  # contexts hold only announced, public facts
    pend = S["pending"]
    if pend is None:
        v["pending"] = None
    elif pend["kind"] == "keep":
        v["pending"] = {
            "kind": "keep",
            "seats": list(pend["seats"]),
            "done": sorted(pend["chosen"]),
        }
    else:
        v["pending"] = {k: copy.deepcopy(x) for k, x in pend.items()
                        if k in ("kind", "seat", "ships")}
    v["solo"] = copy.deepcopy(S["solo"])
    if "hidden" in S:  # a hidden Action deck: its public positions (.hidden)
        v["hidden"] = hidden_part(S, seat)
    if S["mode"] == "solo":  # R 5.3.1: the discard pile is face down all game
        v["discards"] = None
        v["discards_n"] = len(S["discards"])
        # the order of the Solitaire deck is secret, which cards are left is not: every
        # card drawn since the last reshuffle was shown (R 5.4.1)
        v["solo"]["deck"] = sorted(S["solo"]["deck"])
    if seat is not None:
        p = S["players"][seat]
        top = S["action_deck_top"]
        v["me"] = {"hand": sorted(p["hand"]),
                   "known_deck_top": [c for c in p["known_deck_top"] if c in top],
                   "seen": copy.deepcopy(p["seen"]), "giving": list(p["giving"]),
                   "keep": None, "mate_keep": None}
        if pend is not None and pend["kind"] == "keep":
            v["me"]["keep"] = copy.deepcopy(pend["chosen"].get(str(seat)))
            if S["mode"] == "team":  # 8.1 4.9: teammates pool their ships
                v["me"]["mate_keep"] = copy.deepcopy(pend["chosen"].get(str((seat + 2) % 4)))
    return v


def hidden_part(S: State, seat: int | None) -> dict[str, Any]:
    """The public positions (``view["hidden"]``): which tokens each hand, the committed
    cards, the deck and its arranged top hold; the cards opened this round; and, where
    the host deals, the seat's own cards (``view["cards"]``)."""
    T = S["this_turn"]
    H = S["hidden"]
    return {"round": H["round"], "hands": [list(p["hand"]) for p in S["players"]],
            "committed": [e["card"] for e in T["committed"]] if T else [],
            "recon": list(T["recon_cards"]) if T else [],
            "unseen": list(S["action_unseen"]), "top": list(S["action_deck_top"]),
            "opened": dict(H["opened"]),
            "cards": dict(H["known"][seat]) if seat is not None else {}}


def sample(v: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full state the seat cannot tell apart from the true one."""
    S: State = {k: copy.deepcopy(v[k]) for k in _PUBLIC}
    S["solo"] = copy.deepcopy(v["solo"])
    me = v["me"]
    known = set(me["hand"]) | set(v["discards"] or ()) | set(me["known_deck_top"])
    for p in v["players"]:
        if p["wait"] and p["wait"]["card"] is not None:
            known.add(p["wait"]["card"])
        known |= {e["card"] for e in p["vp_pile"] if "card" in e}
    for st in v["ships"]:
        if st is not None and st["refuge"] is not None and st["refuge"] >= 0:
            known.add(st["refuge"])
    T = v["this_turn"]
    if T is not None:
        known |= {e["card"] for e in T["committed"] if e["card"] is not None}
        known |= {c for _s, c in T["reactions"]}
    pool = [c for c in v["action_cards"] if c not in known]
    rng.shuffle(pool)
    # cards seen in a hand with Intelligence and not seen leaving it since are
    # assumed to be still there (up to the hand's size)
    still: list[int] = []
    seen = me["seen"]
    if seen is not None and seen["seat"] != seat:
        room = v["players"][seen["seat"]]["hand_n"]
        still = [c for c in seen["cards"] if c in pool][:room]
        pool = [c for c in pool if c not in still]
    S["this_turn"] = None
    if T is not None:  # face-down committed cards first: their placement constrains them
        Tn = copy.deepcopy(T)
        for e in sorted(Tn["committed"], key=lambda e: _PLACEMENT_ORDER[e["use"]]):
            if e["card"] is None:
                fitting = [c for c in pool if fits(v, c, e["use"])]
                e["card"] = fitting[-1] if fitting else pool[-1]
                pool.remove(e["card"])
        S["this_turn"] = Tn
    S["players"] = []
    for i, pv in enumerate(v["players"]):
        p = {k: copy.deepcopy(pv[k]) for k in pv if k != "hand_n"}
        if i == seat:
            p.update({"hand": list(me["hand"]), "known_deck_top": list(me["known_deck_top"]),
                      "seen": copy.deepcopy(me["seen"]), "giving": list(me["giving"])})
        else:
            mine = still if seen is not None and i == seen["seat"] else []
            hand = mine + [pool.pop() for _ in range(pv["hand_n"] - len(mine))]
            p.update({"hand": hand, "known_deck_top": [], "seen": None, "giving": []})
        S["players"].append(p)
    if v["discards"] is None:
        S["discards"] = [pool.pop() for _ in range(v["discards_n"])]
    # the Action deck: the top this seat arranged, and as many unseen cards as the deck
    # and the set-aside cards hold (the solitaire deck's cards left are in the view)
    S["action_deck_top"] = list(me["known_deck_top"])
    n_unseen = v["action_deck_n"] - len(me["known_deck_top"]) + v["set_aside_n"]
    S["action_unseen"] = sorted(pool.pop() for _ in range(n_unseen))
    S["set_aside_n"] = v["set_aside_n"]
    # ship decks: the draw piles are the ships not seen anywhere
    seen_ships = set(v["german_used"]) | set(v["merchant_used"]) | set(v["removed_ships"])
    for p in S["players"]:
        seen_ships |= (
            set(p["german"])
            | set(p["merchants"])
            | {e["ship"] for e in p["vp_pile"] if "ship" in e}
        )
    rest = [s for s in range(len(v["ships"])) if s not in seen_ships]
    S["german_deck"] = [s for s in rest if s < 20]
    S["merchant_deck"] = [s for s in rest if s >= 20]
    S["stack"] = copy.deepcopy(v["stack"])
    pend = v["pending"]
    if pend is not None and pend["kind"] == "keep":
        ch = {str(s): [] for s in pend["done"]}
        if me.get("keep") is not None:
            ch[str(seat)] = me["keep"]
        if me.get("mate_keep") is not None:
            ch[str((seat + 2) % 4)] = me["mate_keep"]
        S["pending"] = {"kind": "keep", "seats": pend["seats"], "chosen": ch}
    else:
        S["pending"] = copy.deepcopy(pend)
    return S
