"""The cards' Events (digest 6.2), their timing, and the windows for any-time answers.

An Event played in one's own round does not resolve at once: its effect waits on the
stack (a ``do`` item) under a *window*. A window offers the cards that could answer now
(Bad Omens against an Event, Bad Weather against a moving army or a retreat, Wounded
General against a moving General, Corruption against Senate Influence) and asks, one at
a time and clockwise from the active player (R 12.0), every seat with cards (the
default ``reactions = all``, which hides who holds what), or with ``reactions =
holders`` only the seats holding such a card (faster; it shows who holds one). Each
answers or passes; an answer is itself an effect with its own window (Bad Omens on Bad
Omens), so nested answers form a stack, last in first out (digest 5.2, engine note).

On ``S["pending"]`` (records declared in :mod:`.state`) a window is an item of kind
``window`` (``about`` what, ``answers`` the Events that fit, ``seats`` asked in turn,
``index`` the one asked now); the effect under it is an item of kind ``effect``.
"""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import IllegalAction

from . import board as B
from . import hands as H
from . import moves as M
from .data import (
    AREAS,
    CARDS,
    DP_NEEDED,
    GERMANIA,
    IN_AREA,
    MAX_UNCONTROLLED,
    NPROV,
    PORT,
    REVOLT,
    ROME,
)
from .state import Events, Item, State, new_effect, new_retreat, new_window

# Events that Bad Omens cannot cancel (6.2 #2): the assassination's, and Legion Declares.
NO_OMENS = ("assassin", "legion_declares")


def _cheapest(S: State, seat: int, key: str) -> int | None:
    """The card of Event ``key`` worth least for its MP and BP (lowest id on ties)."""
    cards = [c for c in H.known(S["hands"][seat]) if CARDS[c]["ev"] == key]
    return min(cards, key=lambda c: (CARDS[c]["mp"] + CARDS[c]["bp"], c)) if cards else None


def _all_of(S: State, seat: int, key: str) -> list[int]:
    return sorted(c for c in S["hands"][seat] if CARDS[c]["ev"] == key)


def uncontrolled(S: State) -> int:
    return sum(1 for legion in S["legions"] if legion["owner"] == B.UNC)


def rome_emperors(S: State) -> list[int]:
    return [s for s in B.emperors(S) if S["leaders"][s]["location"] == ROME]


def can_declare_legions(S: State, seat: int) -> bool:
    """6.2 #9 / R 7.2: at most one Emperor (A3), the General with a Legion in a Base
    province, and the Base Area controlled."""
    leader = S["leaders"][seat]
    if leader["rank"] != B.GENERAL:
        return False
    if len(B.emperors(S)) > 1 and S["options"]["a3_two_emperors"] == "card":
        return False
    base = S["bases"][seat]
    if leader["location"] not in IN_AREA[base]:
        return False
    if not B.legions_at(S, leader["location"], seat):
        return False
    return B.area_owner(S, base) == seat


def revolt_plan(S: State, area: str) -> tuple[int, int, int] | None:
    """(province, Base owner, Legions he must bring) or None when the card is
    unplayable there: the empty Area (5.13) or the cap of 4 Uncontrolled (R 2.2)."""
    if area == S["empty_area"] or area not in S["bases"]:
        return None
    prov = REVOLT[area]
    owner = S["bases"].index(area)
    have = elsewhere = turning = 0
    only_owner = S["options"]["a24_revolt"] == "player"
    for legion in S["legions"]:
        if legion["owner"] == owner:
            if legion["province"] == prov:
                have += 1
            else:
                elsewhere += 1
        if legion["province"] == prov and legion["owner"] >= 0 \
                and (legion["owner"] == owner or not only_owner):
            turning += 1  # these turn Uncontrolled
    bring = min(max(0, 2 - have), elsewhere)
    turning += bring
    if uncontrolled(S) + turning > MAX_UNCONTROLLED:
        return None
    return prov, owner, bring


# --- the active player's Events -----------------------------------------------------


def event_actions(S: State) -> list[dict[str, Any]]:
    """Per Event (data order) with the cheapest card of it: every target. Order within
    an Event: targets ascending."""
    seat = S["active"]
    if S["cards_used"] >= 4:
        return []
    out: list[dict[str, Any]] = []
    room = 4 - S["cards_used"]
    cheapest: dict[str, int] = {}
    for c in S["hands"][seat]:  # one pass: the cheapest card of each Event in hand
        key = CARDS[c]["ev"]
        best = cheapest.get(key)
        if best is None or CARDS[c]["mp"] + CARDS[c]["bp"] < CARDS[best]["mp"] + CARDS[best]["bp"]:
            cheapest[key] = c
    for key in ("assassin", "crisis", "galley", "germanic", "legion_declares", "rebel",
                "revolt", "traitor"):
        c = cheapest.get(key)
        if c is None:
            continue
        base = {"type": "event", "card": c}
        if key == "assassin":
            guards = _all_of(S, seat, "praetorian")[:room - 1]
            for t in rome_emperors(S):
                if t == seat:
                    continue
                out.append({**base, "target": t, "guards": [], "corr": []})
                if guards:
                    out.append({**base, "target": t, "guards": guards, "corr": []})
        elif key == "crisis":
            out += [{**base, "target": t} for t in B.emperors(S)
                    if S["leaders"][t]["location"] != ROME]
        elif key == "galley":
            free = [0] * NPROV  # per province: own Legions free to move
            for legion in S["legions"]:
                if legion["owner"] == seat and not legion["moved"] \
                        and not legion["retreat_marker"]:
                    free[legion["province"]] += 1
            # A useful discretisation: sail from the port with the most free Legions
            # and from the Leader's port (``apply`` takes any port and any number).
            ports = [p for p in range(NPROV) if PORT[p] and (free[p] or
                                                             M.leader_free(S, seat, p))]
            best = sorted(ports, key=lambda p: (-free[p], p))[:1]
            lp = S["leaders"][seat]["location"]
            for p in sorted(set(best) | ({lp} if lp in ports else set())):
                k = min(3, free[p])
                ldr = M.leader_free(S, seat, p)
                out += [{**base, "from": p, "to": q, "legions": k, "leader": ldr}
                        for q in range(NPROV) if PORT[q] and q != p]
        elif key == "germanic":
            out += [{**base, "prov": p} for p in sorted(GERMANIA)
                    if p not in S["germanic_tribes"]]
        elif key == "legion_declares":
            if can_declare_legions(S, seat):
                out.append(base)
        elif key == "rebel":
            if uncontrolled(S) < MAX_UNCONTROLLED:
                spots = sorted({(legion["owner"], legion["province"])
                                for legion in S["legions"] if legion["owner"] >= 0})
                out += [{**base, "seat": s, "prov": p} for s, p in spots]
        elif key == "revolt":
            out += [{**base, "area": a} for a in AREAS if revolt_plan(S, a)]
        elif key == "traitor" and "traitor" not in S["once_used"]:
            out += [{**base, "seat": s} for s in range(S["n_players"])
                    if s != seat and S["hands"][s]]
    return out


def _seat_arg(S: State, action: dict[str, Any], key: str = "seat") -> int:
    v = action.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < S["n_players"]:
        raise IllegalAction(f"{key} must be a seat 0..{S['n_players'] - 1}, got {v!r}")
    return v


def apply_event(S: State, action: dict[str, Any], rng: random.Random, ev: Events) -> None:
    """Validate every argument, then take the cards and open the window."""
    seat = S["active"]
    c = H.card_arg(action)
    H.own_card(S, seat, c)
    key = CARDS[c]["ev"]
    item = new_effect("event", event=key, seat=seat, omens=0)
    extra: list[int] = []
    if key == "assassin":
        t = _seat_arg(S, action, "target")
        if t not in rome_emperors(S) or t == seat:
            raise IllegalAction("R 9.0: the target must be another Emperor, in Rome")
        guards, corr = H.cards_arg(action, "guards"), H.cards_arg(action, "corr")
        for g in guards:
            H.own_card(S, seat, g, "praetorian")
        for x in corr:
            H.own_card(S, seat, x, "corruption")
        if corr and S["options"]["a2_assassin_corruption"] == "strict":
            raise IllegalAction("A2 strict: the assassin's Corruption cards have no use")
        extra = guards + corr
        item.update(target=t, guards=len(guards), shield=len(corr) // 2)
    elif key == "crisis":
        t = _seat_arg(S, action, "target")
        if t not in B.emperors(S):
            raise IllegalAction("6.2 #6: the target must be an Emperor")
        item["target"] = t
    elif key == "galley":
        p, q = M._int(action, "from", 0, NPROV - 1), M._int(action, "to", 0, NPROV - 1)
        if not (PORT[p] and PORT[q]) or p == q:
            raise IllegalAction("6.2 #7: from one port province to another (never Rome)")
        k = M._int(action, "legions", 0, min(3, len(M.free_legions(S, seat, p))))
        ldr = M._bool(action, "leader")
        if ldr and not M.leader_free(S, seat, p):
            raise IllegalAction("your Leader is not free to sail from there")
        if not k and not ldr:
            raise IllegalAction("the fleet carries nothing")
        item.update(source=p, to=q, legions=M.free_legions(S, seat, p)[:k], leader=ldr)
    elif key == "germanic":
        p = M._int(action, "prov", 0, NPROV - 1)
        if p not in GERMANIA or p in S["germanic_tribes"]:
            raise IllegalAction("5.10: a Germania province without a marker")
        item["province"] = p
    elif key == "legion_declares":
        if not can_declare_legions(S, seat):
            raise IllegalAction("R 7.2: needs your General with a Legion in your Base, the Base "
                                "controlled, and at most one Emperor")
    elif key == "rebel":
        s = _seat_arg(S, action)
        p = M._int(action, "prov", 0, NPROV - 1)
        if uncontrolled(S) >= MAX_UNCONTROLLED:
            raise IllegalAction("R 2.2: already 4 Uncontrolled Legions")
        if not B.legions_at(S, p, s):
            raise IllegalAction("6.2 #10: that player has no Legion there")
        item.update(target=s, province=p)
    elif key == "revolt":
        a = action.get("area")
        if a not in AREAS or revolt_plan(S, a) is None:
            raise IllegalAction("6.2 #12: not the empty Area, and at most 4 Uncontrolled")
        item["area"] = a
    elif key == "traitor":
        s = _seat_arg(S, action)
        if "traitor" in S["once_used"]:
            raise IllegalAction("R 12.0: only one Traitor per round")
        if s == seat or not S["hands"][s]:
            raise IllegalAction("6.2 #14: another player who holds cards")
        item["target"] = s
    else:
        raise IllegalAction(f"{CARDS[c]['ev']} is not played this way (answer, or declare)")
    H.room(S, seat, 1 + len(extra))
    H.use_cards(S, [c] + extra)
    if key == "traitor":
        S["once_used"].append("traitor")
    rename = {"to": "dest", "seat": "target"}  # the event's seat is the card's player
    ev.append({"type": "event", **{rename.get(k, k): v for k, v in action.items()
                                   if k not in ("type", "card")},
               "seat": seat, "ev": key, "card": c})
    S["pending"].append(item)
    if key == "assassin":
        n = S["n_players"]
        order = [(seat + i) % n for i in range(1, n)]
        holders = H.holders(S, ["praetorian", "corruption"], [seat])
        S["pending"].append({"kind": "assassination", "seats": [s for s in order if s in holders],
                             "index": 0, "guards": item["guards"], "shield": item["shield"],
                             "corruption": 0, "blocked": False})
        return
    answers = [] if key in NO_OMENS else ["bad_omens"]
    if key == "galley":
        answers += ["bad_weather"] if item["legions"] else []
        if item["leader"] and S["leaders"][seat]["rank"] != B.EMPEROR:
            answers.append("wounded")
    _window(S, "event", answers, [seat])


def _window(S: State, about: str, answers: list[str], exclude: list[int]) -> None:
    """Open a window on what is on top of the stack, if any seat holds an answer."""
    if answers:
        seats = H.holders(S, answers, exclude)
        if seats:
            S["pending"].append(new_window(about, answers, seats))


# --- Declaration in Rome ------------------------------------------------------------


def may_declare(S: State, seat: int) -> bool:
    """R 7.1: no Emperor; the General (A9: or Contender) in Rome; A17 retries."""
    leader = S["leaders"][seat]
    ranks = (B.GENERAL, B.CONTENDER) if S["options"]["a9_contender_rome"] else (B.GENERAL,)
    if B.emperors(S) or leader["location"] != ROME or leader["rank"] not in ranks:
        return False
    return S["options"]["a17_retry"] or "declare" not in S["once_used"]


def free_declaration(S: State, seat: int) -> bool:
    """``seat`` may declare in Rome with no card, on the board's DP alone (R 7.1): not a
    card use, so even after his 4th or his last card (5.8.1)."""
    return may_declare(S, seat) and "declare" not in S["once_used"] \
        and B.base_dp(S, seat) >= DP_NEEDED


def declare_actions(S: State) -> list[dict[str, Any]]:
    seat = S["active"]
    if not may_declare(S, seat):
        return []
    room = max(0, 4 - S["cards_used"])
    cards = (_all_of(S, seat, "senate") + _all_of(S, seat, "praetorian"))[:room]
    out = [{"type": "declare", "cards": sorted(cards)}] if cards else []
    if free_declaration(S, seat):
        out.append({"type": "declare", "cards": []})
    return out


def apply_declare(S: State, action: dict[str, Any], ev: Events) -> None:
    seat = S["active"]
    if not may_declare(S, seat):
        raise IllegalAction("R 7.1: your General in Rome, and no Emperor in play")
    cards = H.cards_arg(action)
    if not cards and "declare" in S["once_used"]:
        raise IllegalAction("A17: a retry must add cards (a declaration with none was made)")
    for c in cards:
        H.own_card(S, seat, c)
        if CARDS[c]["ev"] not in ("senate", "praetorian"):
            raise IllegalAction("R 7.1: only Senate Influence and Praetorian Guard add DP")
    H.room(S, seat, len(cards))
    H.use_cards(S, cards)
    S["once_used"].append("declare")
    senate = sum(1 for c in cards if CARDS[c]["ev"] == "senate")
    guards = len(cards) - senate
    ev.append({"type": "declare", "seat": seat, "senate": senate, "guards": guards,
               "board_dp": B.base_dp(S, seat)})
    S["pending"].append(new_effect("declare", seat=seat, senate=senate, guards=guards,
                                   corruption=0))
    # Corruption cancels a Senate Influence; Bad Omens (A4) a Praetorian Guard or a
    # Senate Influence of the declaration.
    _window(S, "declare", (["corruption"] if senate else []) +
            (["bad_omens"] if senate or guards else []), [seat])


# --- windows and other pending decisions --------------------------------------------


def pending_actions(S: State, top: Item, seat: int) -> list[dict[str, Any]]:
    kind = top["kind"]
    if kind == "window":
        out: list[dict[str, Any]] = [{"type": "pass"}]
        for key in top["answers"]:
            c = _cheapest(S, seat, key)
            if c is not None and _may_answer(S, top, seat, key):
                out.append({"type": "answer", "card": c})
        return out
    if kind == "assassination":
        out = [{"type": "pass"}]
        guard = _cheapest(S, seat, "praetorian")
        corr = _cheapest(S, seat, "corruption")
        if top["guards"] and guard is not None:
            out.append({"type": "answer", "card": guard, "use": "strip"})
        if top["guards"] and corr is not None:
            out.append({"type": "answer", "card": corr, "use": "corrupt"})
        if not top["guards"] and guard is not None:
            out.append({"type": "answer", "card": guard, "use": "block"})
        return out
    if kind == "germanic":
        return [{"type": "go", "to": p} for p in M.germanic_targets(top["province"])]
    if kind == "revolt":
        return [{"type": "bring", "from": p} for p in
                sorted({legion["province"] for legion in S["legions"]
                        if legion["owner"] == top["owner"]
                        and legion["province"] != top["province"]})]
    raise AssertionError(kind)


def _may_answer(S: State, window: Item, seat: int, key: str) -> bool:
    if seat == S["active"] and S["cards_used"] >= 4:
        return False
    if key == "corruption":
        declaration = S["pending"][-2]
        return declaration["corruption"] < declaration["senate"]
    if key == "bad_omens" and window["about"] == "declare":
        declaration = S["pending"][-2]
        return declaration["guards"] > 0 or declaration["senate"] > declaration["corruption"]
    return True


def apply_pending(S: State, top: Item, seat: int, action: dict[str, Any],
                  rng: random.Random, ev: Events) -> None:
    t = action.get("type")
    kind = top["kind"]
    if kind in ("window", "assassination") and t == "pass":
        top["index"] += 1
        return
    if kind == "window":
        if t != "answer":
            raise IllegalAction("answer with a card, or pass")
        c = H.card_arg(action)
        H.own_card(S, seat, c)
        key = CARDS[c]["ev"]
        if key not in top["answers"] or not _may_answer(S, top, seat, key):
            raise IllegalAction(f"{key} cannot answer here")
        H.room(S, seat, 1)
        H.use_cards(S, [c])
        answer = {"type": "answer", "seat": seat, "ev": key, "card": c, "at": top["about"]}
        # What the window is about: an effect waiting under it (an Event, a declaration);
        # a moving army's window has none (it is about S["movement"]).
        below = S["pending"][-2] if len(S["pending"]) > 1 else {}
        if top["about"] == "event":  # the card answered: an effect waiting under the window
            if below.get("omens_by"):  # a Bad Omens answers the last Bad Omens
                answer.update(against=below["omens_by"][-1], against_ev="bad_omens")
            else:
                answer.update(against=below["seat"], against_ev=below.get("event", below["what"]))
        ev.append(answer)
        if key == "bad_omens" and top["about"] == "declare":
            # A4: one Guard of the declaration, else one Senate card
            below["guards" if below["guards"] else "senate"] -= 1
            if not below["guards"] and below["senate"] <= below["corruption"]:
                top["answers"] = [k for k in top["answers"] if k != "bad_omens"]
        elif key == "bad_omens":
            below["omens"] += 1  # cancels the effect under this window
            below.setdefault("omens_by", []).append(seat)
            top.update(seats=H.holders(S, ["bad_omens"], [seat]), index=0, answers=["bad_omens"])
        elif key == "corruption":  # A4: open to Bad Omens, the declarer's too
            S["pending"].append(new_effect("corruption", event="corruption", seat=seat, omens=0))
            _window(S, "event", ["bad_omens"], [seat])
        else:  # bad_weather, wounded: their own effect, open to Bad Omens
            S["pending"].pop()
            S["pending"].append(new_effect(key, about=top["about"], seat=seat, omens=0))
            _window(S, "event", ["bad_omens"], [seat])
        return
    if kind == "assassination":
        if t != "answer":
            raise IllegalAction("answer with a card, or pass")
        c = H.card_arg(action)
        H.own_card(S, seat, c)
        use = action.get("use")
        if {"type": "answer", "card": _cheapest(S, seat, CARDS[c]["ev"]), "use": use} \
                not in pending_actions(S, top, seat):
            raise IllegalAction("R 9.0: strip a Guard (Guard or 2 Corruption), or block an "
                                "unprotected attempt with a Guard")
        H.use_cards(S, [c], count=False)
        ev.append({"type": "answer", "seat": seat, "ev": CARDS[c]["ev"], "card": c,
                   "at": "assassination", "use": use})
        if use == "strip":
            top["guards"] -= 1
        elif use == "corrupt":
            top["corruption"] += 1
            if top["corruption"] == 2:
                top["corruption"] = 0
                top["guards"] -= 1
        elif top["shield"]:
            top["shield"] -= 1  # A2 mirror: the assassin's 2 Corruption void this Guard
        else:
            top["blocked"] = True
            top["index"] = len(top["seats"])
        return
    if kind == "germanic":
        to = M._int(action, "to", 0, NPROV - 1)
        if to not in M.germanic_targets(top["province"]):
            raise IllegalAction("5.10: an adjacent province")
        _expel(S, top["province"], top["owners"][top["index"]], to, ev)
        top["index"] += 1
        if top["index"] >= len(top["seats"]):
            S["pending"].pop()
            S["germanic_tribes"].append(top["province"])
            S["germanic_tribes"].sort()
            ev.append({"type": "germanic_marker", "prov": top["province"]})
        return
    if kind == "revolt":
        p = M._int(action, "from", 0, NPROV - 1)
        if {"type": "bring", "from": p} not in pending_actions(S, top, seat):
            raise IllegalAction("6.2 #12: bring one of your Legions from another province")
        i = B.legions_at(S, p, top["owner"])[0]
        S["legions"][i]["province"] = top["province"]
        ev.append({"type": "revolt_brings", "seat": top["owner"], "from": p,
                   "dest": top["province"]})
        top["left"] -= 1
        if top["left"] <= 0:
            S["pending"].pop()
            _revolt_turns(S, top["province"], top["owner"], ev)
        return
    raise IllegalAction(f"unexpected {t!r}")


def _expel(S: State, prov: int, who: int, to: int, ev: Events) -> None:
    """5.10: every piece of one owner (or the Uncontrolled, ``who`` -1) leaves."""
    n = 0
    for legion in S["legions"]:
        if legion["province"] == prov and legion["owner"] == who:
            legion["province"] = to
            n += 1
    if who >= 0 and S["leaders"][who]["location"] == prov:
        S["leaders"][who]["location"] = to
    ev.append({"type": "expelled", "seat": who, "from": prov, "dest": to, "legions": n})


def _revolt_turns(S: State, prov: int, owner: int, ev: Events) -> None:
    only_owner = S["options"]["a24_revolt"] == "player"
    n = 0
    for legion in S["legions"]:
        if legion["province"] == prov and legion["owner"] >= 0 \
                and (legion["owner"] == owner or not only_owner):
            legion["owner"] = B.UNC
            n += 1
    ev.append({"type": "revolt", "prov": prov, "uncontrolled": n})


def close_window(S: State, top: Item, ev: Events) -> None:
    """The assassination's window closed: the effect under it learns if it was blocked."""
    if top["kind"] == "assassination":
        S["pending"][-1]["blocked"] = top["blocked"]


# --- effects ------------------------------------------------------------------------


def run_effect(S: State, item: Item, rng: random.Random, ev: Events) -> None:
    what = item["what"]
    if item.get("omens", 0) % 2:
        ev.append({"type": "cancelled", "ev": item.get("event", what), "seat": item.get("seat")})
        return
    if what == "battle":
        M.start_battle(S, item)
    elif what == "entered":
        M.entered(S)
    elif what == "retreat":
        M.retreat_move(S, item["seat"], item["province"], item["to"], ev)
    elif what == "declare":
        _declare(S, item, ev)
    elif what == "corruption":  # one Senate Influence of the declaration below is void
        declaration = _below(S, "declare")
        if declaration is not None:
            declaration["corruption"] += 1
            ev.append({"type": "corrupted", "seat": item["seat"]})
    elif what in ("bad_weather", "wounded"):
        _stop(S, item, ev)
    elif what == "event":
        _resolve_event(S, item, rng, ev)


def _below(S: State, what: str) -> Item | None:
    """The nearest effect ``what`` waiting on the stack."""
    for it in reversed(S["pending"]):
        if it["kind"] == "effect" and it["what"] == what:
            return it
    return None


def _stop(S: State, item: Item, ev: Events) -> None:
    """Bad Weather / Wounded General take effect (6.2 #3, #5; A11, A23)."""
    about = item["about"]
    act = S["active"]
    if about == "retreat":
        target = _below(S, "retreat")
        if target is not None:
            S["pending"].remove(target)
            ev.append({"type": "retreat_stopped", "seat": target["seat"]})
        return
    if about == "event":  # against a Galley Fleet
        fleet = _below(S, "event")
        if fleet is None or fleet["event"] != "galley":
            return
        if item["what"] == "wounded" and S["options"]["a11_fleet"] == "split":
            fleet["leader"] = False
            S["leaders"][act]["moved"] = True
            ev.append({"type": "leader_stopped", "seat": act})
        else:
            fleet["omens"] = 1  # the whole fleet move is cancelled
            for i in fleet["legions"]:
                S["legions"][i]["moved"] = True
        return
    group = S["movement"]["group"] if S["movement"] else None
    if group is None:
        return
    if item["what"] == "wounded":
        if group["leader"]:
            group["leader"] = False
            S["leaders"][act]["moved"] = True
            ev.append({"type": "leader_stopped", "seat": act})
        return
    if about == "attack":
        battle = _below(S, "battle")
        if battle is not None:
            S["pending"].remove(battle)
            ev.append({"type": "attack_cancelled", "seat": act})
    if group["leader"] and group["legions"]:
        # 6.2 #3: "La carta non ha effetto sul movimento dei Leaders": only the
        # Legions halt; the Leader goes on alone with the movement points left.
        for i in group["legions"]:
            S["legions"][i]["moved"] = True
        ev.append({"type": "halted", "seat": act, "prov": group["at"],
                   "legions": len(group["legions"]), "leader": False, "why": "bad weather"})
        group["legions"] = []
        return
    if group["leader"]:
        return  # a Leader alone: Bad Weather has no effect (6.2 #3)
    M._halt(S, ev, "bad weather")


def _declare(S: State, item: Item, ev: Events) -> None:
    seat = item["seat"]
    dp = B.base_dp(S, seat) + max(0, item["senate"] - item["corruption"]) + item["guards"]
    ok = dp >= DP_NEEDED and not B.emperors(S) and S["leaders"][seat]["location"] == ROME
    ev.append({"type": "declared", "seat": seat, "dp": dp, "crowned": ok})
    if ok:
        S["leaders"][seat]["rank"] = B.EMPEROR
        ev.append({"type": "crowned", "seat": seat, "how": "rome"})


def _resolve_event(S: State, item: Item, rng: random.Random, ev: Events) -> None:
    key = item["event"]
    seat = item["seat"]
    if key == "assassin":
        t = item["target"]
        if not item.get("blocked") and t in rome_emperors(S):
            S["leaders"][t]["rank"] = B.GENERAL
            ev.append({"type": "assassinated", "seat": t})
        else:
            ev.append({"type": "assassination_failed", "seat": t})
    elif key == "crisis":
        t = item["target"]
        if t in B.emperors(S):
            S["leaders"][t]["location"] = ROME
            ev.append({"type": "to_rome", "seat": t})
    elif key == "galley":
        for i in item["legions"]:
            S["legions"][i]["province"] = item["to"]
            S["legions"][i]["moved"] = True
        if item["leader"]:
            S["leaders"][seat]["location"] = item["to"]
            S["leaders"][seat]["moved"] = True
        ev.append({"type": "sailed", "seat": seat, "from": item["source"], "dest": item["to"],
                   "legions": len(item["legions"]), "leader": item["leader"]})
        if item["legions"]:  # 5.4.9 (Inferred): the occupants may retreat as from any entry
            for s in reversed(M.enemies_at(S, seat, item["to"])):
                S["pending"].append(new_retreat(s, item["to"], item["source"], False))
    elif key == "germanic":
        p = item["province"]
        n = S["n_players"]
        owners = {legion["owner"] for legion in S["legions"] if legion["province"] == p} | \
            {s for s in range(n) if S["leaders"][s]["location"] == p}
        who = [(seat + i) % n for i in range(n) if (seat + i) % n in owners]
        if B.UNC in owners:
            who.append(B.UNC)
        if who:  # the card player moves the Uncontrolled
            S["pending"].append({"kind": "germanic", "province": p, "owners": who,
                                 "seats": [w if w >= 0 else seat for w in who], "index": 0})
        else:
            S["germanic_tribes"] = sorted(S["germanic_tribes"] + [p])
            ev.append({"type": "germanic_marker", "prov": p})
    elif key == "legion_declares":
        if can_declare_legions(S, seat):
            S["leaders"][seat]["rank"] = B.CONTENDER
            ev.append({"type": "acclaimed", "seat": seat})
    elif key == "rebel":
        ids = B.legions_at(S, item["province"], item["target"])
        if ids and uncontrolled(S) < MAX_UNCONTROLLED:
            S["legions"][ids[0]]["owner"] = B.UNC
            S["legions"][ids[0]]["moved"] = False
            ev.append({"type": "rebels", "seat": item["target"], "prov": item["province"]})
    elif key == "revolt":
        plan = revolt_plan(S, item["area"])
        if plan is None:
            return
        prov, owner, bring = plan
        if bring:
            who = owner if S["options"]["a24_revolt"] == "owner" else seat
            S["pending"].append({"kind": "revolt", "seat": who, "owner": owner,
                                 "province": prov, "left": bring})
        else:
            _revolt_turns(S, prov, owner, ev)
    elif key == "traitor":
        t = item["target"]
        if S["hands"][t]:
            c = rng.choice(sorted(S["hands"][t]))
            S["hands"][t].remove(c)
            S["hands"][seat].append(c)
            S["hands"][seat].sort()
            if H.is_masked(c):  # a hidden deck: the victim hands its position to the thief
                ev.append({"type": "stolen", "from": t, "to": [seat, t], "pos": c - H.MASKED})
                ev.append(H.give_event(c - H.MASKED, seat))
            else:
                ev.append({"type": "stolen", "to": [seat, t], "from": t, "card": c})
            ev.append({"type": "traitor", "seat": seat, "from": t})
