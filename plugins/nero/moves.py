"""Movement (digest 5.4), retreats (5.5) and battles (5.6).

A Movement Action (5.4.1) is ``S["mv"]``: cards played together give a pool of MP for
units that start in one source province. Units leave the source as groups, one at a
time (``mv["g"]``); a group steps, picks up Legions, asks passage, attacks, drops
units, and halts. Entering a province where other players have Legions asks those
players, clockwise after the mover, whether they retreat (A1), then blocks the group
until passage is granted or the refusers are beaten (A7).

A battle's cards are committed secretly and simultaneously: both seats are in
``to_act`` at once, each commitment waits inside the state, unseen, until the other is
in (R 6.3), then both are revealed and the battle resolves.
"""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import IllegalAction

from . import board as B
from . import hands as H
from .data import CARDS, GERMANIA, LAND, LEADER_ADJ, LEGION_MARKERS, NAVAL, NPROV, ROME

State = dict[str, Any]
Events = list[dict[str, Any]]


def _int(action: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = action.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise IllegalAction(f"{key} must be an integer {lo}..{hi}, got {v!r}")
    return v


def _bool(action: dict[str, Any], key: str) -> bool:
    v = action.get(key, False)
    if not isinstance(v, bool):
        raise IllegalAction(f"{key} must be true or false, got {v!r}")
    return v


def free_legions(S: State, seat: int, prov: int) -> list[int]:
    """Legions that may start a move: unmoved, no Retreat marker (5.4.10)."""
    return [i for i, lg in enumerate(S["L"])
            if lg[0] == seat and lg[1] == prov and not lg[2] and not lg[3]]


def leader_free(S: State, seat: int, prov: int) -> bool:
    ld = S["ldr"][seat]
    return ld[0] == prov and not ld[2]


def enemies_at(S: State, seat: int, prov: int) -> list[int]:
    """Other players with Legions in ``prov``, clockwise after ``seat`` (R 5.6)."""
    n = S["n"]
    present = {lg[0] for lg in S["L"] if lg[1] == prov and lg[0] >= 0 and lg[0] != seat}
    return [(seat + i) % n for i in range(1, n) if (seat + i) % n in present]


# --- starting a Movement Action -----------------------------------------------------


def march_actions(S: State) -> list[dict[str, Any]]:
    """Per source province (ascending) and per distinct MP value in hand (ascending, the
    lowest card id of that value): the whole free force, and the Leader alone if he is
    there with Legions. ``apply`` takes any cards, count and flags."""
    seat = S["act"]
    if S["used"] >= 4:
        return []
    by_mp: dict[int, int] = {}
    for c in S["hands"][seat]:
        by_mp.setdefault(CARDS[c]["mp"], c)
    out: list[dict[str, Any]] = []
    free: dict[int, int] = {}
    marked: dict[int, int] = {}
    for owner, p, moved, mark in S["L"]:  # one pass: free and marked Legions by province
        if owner == seat:
            if mark:
                marked[p] = marked.get(p, 0) + 1
            elif not moved:
                free[p] = free.get(p, 0) + 1
            else:
                free.setdefault(p, 0)
    ld = S["ldr"][seat]
    for p in sorted(set(free) | set(marked) | {ld[0]}):
        legs = free.get(p, 0)
        ldr = ld[0] == p and not ld[2]
        for mp, c in sorted(by_mp.items()):
            if legs or ldr:
                out.append({"type": "march", "cards": [c], "from": p, "legions": legs,
                            "leader": ldr})
            if legs and ldr:
                out.append({"type": "march", "cards": [c], "from": p, "legions": 0,
                            "leader": True})
            if p in marked and mp >= 3:
                out.append({"type": "march", "cards": [c], "from": p,
                            "legions": legs + marked[p], "leader": ldr, "unmark": True})
    return out


def apply_march(S: State, action: dict[str, Any], ev: Events) -> None:
    seat = S["act"]
    cards = H.cards_arg(action)
    if not cards:
        raise IllegalAction("5.4.1: play at least one card for its MP")
    for c in cards:
        H.own_card(S, seat, c)
    H.room(S, seat, len(cards))
    p = _int(action, "from", 0, ROME)
    unmark = _bool(action, "unmark")
    pool = sum(CARDS[c]["mp"] for c in cards)
    marked = [i for i, lg in enumerate(S["L"]) if lg[0] == seat and lg[1] == p and lg[3]]
    if unmark:
        if not marked:
            raise IllegalAction("5.5: no Retreat marker to remove there")
        if pool < 2:
            raise IllegalAction("5.5: removing Retreat markers costs 2 MP")
    legs = free_legions(S, seat, p) + (marked if unmark else [])
    k = _int(action, "legions", 0, len(legs))
    leader = _bool(action, "leader")
    if leader and not leader_free(S, seat, p):
        raise IllegalAction("your Leader is not free to move from there")
    if not k and not leader:
        raise IllegalAction("move at least one Legion or your Leader")
    H.use_cards(S, cards)
    ev.append({"type": "march", "seat": seat, "from": p, "cards": cards, "mp": pool})
    if unmark:
        pool -= 2
        for i in marked:
            S["L"][i][3] = False
        ev.append({"type": "unmarked", "seat": seat, "prov": p})
    if p in S["germ"] and k:
        S["germ"].remove(p)  # 5.10: a Legion starting there lifts the marker, free
        ev.append({"type": "germanic_lifted", "seat": seat, "prov": p})
    S["mv"] = {"src": p, "pool": pool, "g": None}
    _form(S, sorted(legs)[:k], leader, ev)


def _form(S: State, legs: list[int], leader: bool, ev: Events) -> None:
    seat = S["act"]
    p = S["mv"]["src"]
    S["mv"]["g"] = {"legs": legs, "ldr": leader, "at": p, "from": None, "fat": 0,
                    "block": [], "new": False, "picked": [], "asked": False}
    ev.append({"type": "group", "seat": seat, "prov": p, "legions": len(legs), "leader": leader})
    _stop_window(S, "move")


def _stop_window(S: State, kind: str) -> None:
    """Offer Bad Weather (a moving army) and Wounded General (a moving General or
    Contender) to the seats that hold one (6.2 #3, #5)."""
    g = S["mv"]["g"]
    keys = []
    if g["legs"]:
        keys.append("bad_weather")
    if g["ldr"] and S["ldr"][S["act"]][1] != B.EMPEROR and kind == "move":
        keys.append("wounded")
    if keys:
        ask = H.holders(S, keys, [S["act"]])
        if ask:
            S["pend"].append({"k": "win", "kind": kind, "keys": keys, "ask": ask, "i": 0})


# --- a moving group -----------------------------------------------------------------


def _fatigue(S: State, g: dict[str, Any]) -> int:
    return g["fat"] if g["legs"] else 0  # 5.4.3: never for Leaders alone


def step_cost(S: State, g: dict[str, Any], to: int) -> int:
    base = 1
    if to in S["germ"]:
        base = 3 if S["opt"]["a15_germanic"] == "total" else 4
    return base + _fatigue(S, g)


def _pick_fee(S: State, g: dict[str, Any], kind: str) -> tuple[int, list[int]]:
    seat = S["act"]
    if kind == "own":
        idx = [i for i in free_legions(S, seat, g["at"]) if i not in g["legs"]]
        unit = 1
    else:
        idx = [i for i, lg in enumerate(S["L"]) if lg[0] == B.UNC and lg[1] == g["at"]]
        idx = idx[:_room(S, seat)]
        unit = 2
    fee = unit * (len(idx) if S["opt"]["a5_pickup"] == "per_legion" else 1)
    return fee, idx


def _room(S: State, seat: int) -> int:
    """Legions ``seat`` may still gain: unbounded, or (A22 option) up to his 20 markers."""
    if not S["opt"]["a22_legion_cap"]:
        return len(S["L"])
    return max(0, LEGION_MARKERS - sum(1 for lg in S["L"] if lg[0] == seat))


def passage_fee(S: State, g: dict[str, Any]) -> int:
    if not g["legs"] and not S["opt"]["a10_leader_fee"]:
        return 0
    return 1 + (_fatigue(S, g) if S["opt"]["a6_fatigue_fee"] else 0)


def attack_cost(S: State, g: dict[str, Any]) -> int:
    return 1 + g["fat"]


def movement_actions(S: State) -> list[dict[str, Any]]:
    """Order: steps by province id, pick-ups, attacks by seat, passage, drops, halt (a
    group), or groups and done (no group)."""
    seat = S["act"]
    mv = S["mv"]
    g = mv["g"]
    out: list[dict[str, Any]] = []
    if g is None:
        legs = free_legions(S, seat, mv["src"])
        ldr = leader_free(S, seat, mv["src"])
        if mv["pool"] > 0:
            if legs:
                out.append({"type": "group", "legions": len(legs), "leader": ldr})
            if ldr:
                out.append({"type": "group", "legions": 0, "leader": True})
        out.append({"type": "done"})
        return out
    pool = mv["pool"]
    if not g["block"]:
        adj = LEADER_ADJ[g["at"]] if not g["legs"] else [x for x in LEADER_ADJ[g["at"]]
                                                          if x != ROME]
        for to in adj:
            if step_cost(S, g, to) <= pool:
                out.append({"type": "step", "to": to})
    if g["new"] and g["at"] != ROME:
        for kind in ("own", "unc"):
            fee, idx = _pick_fee(S, g, kind)
            if idx and kind not in g["picked"] and fee <= pool:
                out.append({"type": "pick", "kind": kind})
    if g["legs"] and not g.get("noatk") and attack_cost(S, g) <= pool:
        foes = enemies_at(S, seat, g["at"])
        if S["opt"]["a20_attack_uncontrolled"] and \
                any(lg[0] == B.UNC and lg[1] == g["at"] for lg in S["L"]):
            foes.append(B.UNC)
        for d in foes:
            if [g["at"], d] not in S["hit"]:
                out.append({"type": "attack", "seat": d})
    if g["block"] and not g["asked"] and passage_fee(S, g) <= pool:
        out.append({"type": "passage"})
    if g["legs"] and g["ldr"]:
        out.append({"type": "drop", "legions": len(g["legs"])})
        out.append({"type": "drop", "legions": 0, "leader": True})
    out.append({"type": "halt"})
    return out


def movement_settled(S: State, ev: Events) -> bool:
    """Close what has nothing left to decide; True if something changed."""
    mv = S["mv"]
    g = mv["g"]
    if g is not None:
        if not g["legs"] and not g["ldr"]:
            mv["g"] = None
            return True
        cheap = not g["block"] and mv["pool"] >= 1 + _fatigue(S, g) + 2  # a step is affordable
        if not cheap and not [a for a in movement_actions(S)
                              if a["type"] not in ("halt", "drop")]:
            _halt(S, ev)
            return True
        return False
    if mv["pool"] <= 0 or (not free_legions(S, S["act"], mv["src"])
                           and not leader_free(S, S["act"], mv["src"])):
        S["mv"] = None
        ev.append({"type": "movement_end", "seat": S["act"]})
        return True
    return False


def _halt(S: State, ev: Events, why: str = "halt") -> None:
    g = S["mv"]["g"]
    for i in g["legs"]:
        S["L"][i][2] = True
    if g["ldr"]:
        S["ldr"][S["act"]][2] = True
    ev.append({"type": "halted", "seat": S["act"], "prov": g["at"], "legions": len(g["legs"]),
               "leader": g["ldr"], "why": why})
    S["mv"]["g"] = None


def apply_movement(S: State, action: dict[str, Any], rng: random.Random, ev: Events) -> None:
    seat = S["act"]
    t = action.get("type")
    mv = S["mv"]
    g = mv["g"]
    legal = movement_actions(S)
    if g is None:
        if t == "done":
            S["mv"] = None
            ev.append({"type": "movement_end", "seat": seat})
            return
        if t != "group":
            raise IllegalAction(f"{t!r}: start a group from the source province or end (done)")
        legs = free_legions(S, seat, mv["src"])
        k = _int(action, "legions", 0, len(legs))
        leader = _bool(action, "leader")
        if leader and not leader_free(S, seat, mv["src"]):
            raise IllegalAction("your Leader is not free to move from there")
        if (not k and not leader) or mv["pool"] <= 0:
            raise IllegalAction("nothing to move")
        _form(S, legs[:k], leader, ev)
        return
    if t == "step":
        to = _int(action, "to", 0, ROME)
        if {"type": "step", "to": to} not in legal:
            raise IllegalAction(f"cannot step to {to} now (not adjacent, blocked or too costly)")
        _enter(S, to, step_cost(S, g, to), ev)
    elif t == "pick":
        kind = action.get("kind")
        if {"type": "pick", "kind": kind} not in legal:
            raise IllegalAction(f"cannot pick up {kind!r} Legions here")
        fee, idx = _pick_fee(S, g, kind)
        mv["pool"] -= fee
        g["picked"].append(kind)
        for i in idx:
            S["L"][i][0] = seat
        g["legs"] = sorted(g["legs"] + idx)
        ev.append({"type": "picked", "seat": seat, "prov": g["at"], "kind": kind,
                   "legions": len(idx), "mp": fee})
    elif t == "attack":
        d = action.get("seat")
        if {"type": "attack", "seat": d} not in legal:
            raise IllegalAction(f"cannot attack seat {d!r} here")
        mv["pool"] -= attack_cost(S, g)
        S["hit"].append([g["at"], d])
        ev.append({"type": "attack", "seat": seat, "target": d, "prov": g["at"]})
        S["pend"].append({"k": "do", "what": "battle", "att": seat, "def": d, "prov": g["at"]})
        if S["opt"]["a23_weather_after_attack"]:
            _stop_window(S, "attack")
    elif t == "passage":
        if {"type": "passage"} not in legal:
            raise IllegalAction("no passage to ask here")
        g["asked"] = True
        ev.append({"type": "passage_asked", "seat": seat, "prov": g["at"],
                   "of": list(g["block"])})
        S["pend"].append({"k": "passage", "ask": list(g["block"]), "i": 0, "no": []})
    elif t == "drop":
        leader = _bool(action, "leader")
        if not (g["legs"] and g["ldr"]):
            raise IllegalAction("5.4.4: drop needs both Legions and the Leader in the group")
        if leader:
            S["ldr"][seat][2] = True
            g["ldr"] = False
        else:
            for i in g["legs"]:
                S["L"][i][2] = True
            g["legs"] = []
        ev.append({"type": "dropped", "seat": seat, "prov": g["at"], "leader": leader})
    elif t == "halt":
        _halt(S, ev)
    else:
        raise IllegalAction(f"unknown movement action {t!r}")


def _enter(S: State, to: int, cost: int, ev: Events) -> None:
    seat = S["act"]
    mv = S["mv"]
    g = mv["g"]
    mv["pool"] -= cost
    g["from"], g["at"] = g["at"], to
    g.update(new=True, picked=[], block=[], asked=False)
    for i in g["legs"]:
        S["L"][i][1] = to
    if g["ldr"]:
        S["ldr"][seat][0] = to
    ev.append({"type": "step", "seat": seat, "from": g["from"], "dest": to, "mp": cost,
               "legions": len(g["legs"]), "leader": g["ldr"]})
    if to == ROME:
        return
    foes = enemies_at(S, seat, to)
    if not foes:
        return
    if not g["legs"]:  # a Leader alone is no army: nobody retreats from him (5.5 A)
        g["block"] = foes
        return
    S["pend"].append({"k": "do", "what": "entered"})
    for s in reversed(foes):  # clockwise after the mover decides first (R 5.6, A1)
        S["pend"].append({"k": "retreat", "seat": s, "prov": to, "from": g["from"],
                          "after": False})
    _stop_window(S, "move")


def entered(S: State) -> None:
    """After the retreat decisions: who still blocks the group (5.4.5)."""
    g = S["mv"]["g"] if S["mv"] else None
    if g is not None:
        g["block"] = enemies_at(S, S["act"], g["at"])


# --- retreats -----------------------------------------------------------------------


def retreat_targets(S: State, seat: int, prov: int, came_from: int | None,
                    after: bool) -> list[int]:
    """5.5: adjacent, not where the enemy came from, not Rome; Naval Passages only before
    a battle; a province with no enemy Legions, or (A12 default) with own Legions."""
    adj = set(LAND[prov]) | (set() if after else set(NAVAL[prov]))
    out = []
    for p in sorted(adj):
        if p == came_from or p >= NPROV:
            continue
        foes = any(lg[1] == p and lg[0] >= 0 and lg[0] != seat for lg in S["L"])
        own = any(lg[1] == p and lg[0] == seat for lg in S["L"])
        if not foes or (own and S["opt"]["a12_retreat"] == "own_or_free"):
            out.append(p)
    return out


def retreat_move(S: State, seat: int, prov: int, to: int, ev: Events) -> None:
    n = 0
    for lg in S["L"]:
        if lg[0] == seat and lg[1] == prov:
            lg[1] = to
            lg[3] = True  # A13: every retreat gets a marker
            n += 1
    if S["opt"]["a19_leader_retreats"] and S["ldr"][seat][0] == prov:
        S["ldr"][seat][0] = to
    ev.append({"type": "retreated", "seat": seat, "from": prov, "dest": to, "legions": n})


# --- pending: retreat, passage, battle ----------------------------------------------


def _commit_options(S: State, seat: int, limit: int) -> list[dict[str, Any]]:
    """Commit nothing, or the 1..limit best cards by BP (then lowest id)."""
    hand = sorted(S["hands"][seat], key=lambda c: (-CARDS[c]["bp"], c))
    return [{"type": "commit", "cards": sorted(hand[:k])}
            for k in range(0, min(limit, len(hand)) + 1)]


def _limit(S: State, top: dict[str, Any], seat: int) -> int:
    return 4 - S["used"] if seat == top["att"] else 3


def pending_actions(S: State, top: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    k = top["k"]
    if k == "retreat":
        out = [{"type": "stay"}]
        if any(lg[0] == seat and lg[1] == top["prov"] for lg in S["L"]):
            out += [{"type": "retreat", "to": p} for p in
                    retreat_targets(S, seat, top["prov"], top["from"], top["after"])]
        return out
    if k == "passage":
        return [{"type": "grant"}, {"type": "refuse"}]
    return _commit_options(S, seat, _limit(S, top, seat))


def apply_pending(S: State, top: dict[str, Any], seat: int, action: dict[str, Any],
                  rng: random.Random, ev: Events) -> None:
    t = action.get("type")
    k = top["k"]
    if k == "retreat":
        if t == "stay":
            S["pend"].pop()
            ev.append({"type": "stays", "seat": seat, "prov": top["prov"]})
            return
        if t != "retreat":
            raise IllegalAction("answer stay or retreat")
        to = _int(action, "to", 0, ROME)
        if to not in retreat_targets(S, seat, top["prov"], top["from"], top["after"]):
            raise IllegalAction(f"5.5: cannot retreat to {to}")
        S["pend"].pop()
        if top["after"]:
            retreat_move(S, seat, top["prov"], to, ev)
            return
        S["pend"].append({"k": "do", "what": "retreat", "seat": seat, "prov": top["prov"],
                          "to": to})
        ask = H.holders(S, ["bad_weather"], [seat])
        if ask:
            S["pend"].append({"k": "win", "kind": "retreat", "keys": ["bad_weather"],
                              "ask": ask, "i": 0})
        return
    if k == "passage":
        if t not in ("grant", "refuse"):
            raise IllegalAction("answer grant or refuse")
        ev.append({"type": "passage_" + ("granted" if t == "grant" else "refused"),
                   "seat": seat})
        if t == "refuse":
            top["no"].append(seat)
        top["i"] += 1
        if top["i"] >= len(top["ask"]):
            S["pend"].pop()
            g = S["mv"]["g"]
            if not top["no"]:
                S["mv"]["pool"] -= passage_fee(S, g)
                g["block"] = []
            elif S["opt"]["a7_passage"] == "refusers":
                g["block"] = list(top["no"])
        return
    # battle: a secret commitment
    if t != "commit":
        raise IllegalAction("commit your battle cards (possibly none)")
    cards = H.cards_arg(action)
    for c in cards:
        H.own_card(S, seat, c)
    if len(cards) > _limit(S, top, seat):
        raise IllegalAction(f"R 6.3: at most {_limit(S, top, seat)} battle cards")
    for c in cards:
        S["hands"][seat].remove(c)
    if seat == S["act"]:
        S["used"] += len(cards)
    top["commit"][str(seat)] = cards
    ev.append({"type": "committed", "seat": seat, "count": len(cards)})
    if len(top["commit"]) == 2:
        S["pend"].pop()
        _resolve(S, top, ev)


def start_battle(S: State, item: dict[str, Any]) -> None:
    S["pend"].append({"k": "battle", "att": item["att"], "def": item["def"],
                      "prov": item["prov"],  # A20 option: the Uncontrolled play no cards
                      "commit": {str(B.UNC): []} if item["def"] == B.UNC else {}})


def _bonus(S: State, seat: int, prov: int) -> int:
    if seat == B.UNC:
        return 0
    ld = S["ldr"][seat]
    return ld[1] if ld[0] == prov else 0  # 5.6.2: Emperor +2, Contender +1


def _resolve(S: State, top: dict[str, Any], ev: Events) -> None:
    att, dfn, prov = top["att"], top["def"], top["prov"]
    g = S["mv"]["g"]
    ca, cd = top["commit"][str(att)], top["commit"][str(dfn)]
    S["seen"].extend(ca + cd)
    dlegs = [i for i, lg in enumerate(S["L"]) if lg[0] == dfn and lg[1] == prov]
    a_bp = len(g["legs"]) + _bonus(S, att, prov) + sum(CARDS[c]["bp"] for c in ca)
    d_bp = len(dlegs) + _bonus(S, dfn, prov) + sum(CARDS[c]["bp"] for c in cd)
    g["fat"] += 1
    ev.append({"type": "battle", "att": att, "def": dfn, "prov": prov, "att_cards": ca,
               "def_cards": cd, "att_bp": a_bp, "def_bp": d_bp})
    if a_bp == d_bp:
        ev.append({"type": "battle_tie", "prov": prov})
        if S["opt"]["a21_tie_scope"] == "player":
            S["hit"].extend([[p, s] for p in range(NPROV) for s in range(B.UNC, S["n"])])
        _halt(S, ev, "tie")
        return
    win, lose = (att, dfn) if a_bp > d_bp else (dfn, att)
    lose_legs = dlegs if win == att else list(g["legs"])
    taken = lose_legs[0]
    # The Uncontrolled never capture (they would outgrow their cap of 4), nor a player
    # out of Legion markers (A22 option).
    capture = win != B.UNC and _room(S, win) > 0
    if capture:
        S["L"][taken][0] = win
    if win == att:
        if capture:
            g["legs"] = sorted(g["legs"] + [taken])
        if dfn in g["block"]:
            g["block"].remove(dfn)
    elif capture:
        g["legs"].remove(taken)
        S["L"][taken][2] = False
    ev.append({"type": "battle_won", "seat": win, "loser": lose, "prov": prov,
               "captured": capture})
    wl = S["ldr"][win] if win != B.UNC else [None, B.GENERAL, False]
    ll = S["ldr"][lose] if lose != B.UNC else [None, B.GENERAL, False]
    if wl[0] == prov and wl[1] == B.EMPEROR:
        S["vp"][win] += 1
        ev.append({"type": "vp", "seat": win, "vp": 1, "why": "battle won by an Emperor"})
    if ll[0] == prov and ll[1] > B.GENERAL:
        was = ll[1]
        ll[1] = B.GENERAL
        ev.append({"type": "demoted", "seat": lose, "was": B.RANKS[was]})
        if was == B.EMPEROR and wl[0] == prov and wl[1] != B.EMPEROR:
            wl[1] = B.EMPEROR  # R 7.3
            ev.append({"type": "crowned", "seat": win, "how": "battle"})
    if win == dfn:
        _halt(S, ev, "lost")
    if lose != B.UNC and any(lg[0] == lose and lg[1] == prov for lg in S["L"]):
        came = None if lose == att else (g["from"] if S["mv"]["g"] else None)
        if retreat_targets(S, lose, prov, came, True):
            S["pend"].append({"k": "retreat", "seat": lose, "prov": prov, "from": came,
                              "after": True})


def germanic_targets(prov: int) -> list[int]:
    """5.10: every adjacent province (A15 default: Naval Passages too)."""
    assert prov in GERMANIA
    return sorted(set(LAND[prov]) | set(NAVAL[prov]))
