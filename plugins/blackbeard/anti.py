"""The anti-pirate side: AP windows, AP actions, KC Reactions, battles (BB-S D.2.5-D.2.9).

A pirate action opens an AP window (an ``ap_window`` frame): the AP players are polled once
each, clockwise from the phasing player's left (D.5: the poll order is the declaration
order of KC #5). A polled player may take his one AP action of the Player-Turn, offer
KC Reactions, or pass; a player with nothing to do is skipped. Attacks push a ``fight``
frame: the pirate chooses Escape or Fight (errata A13, A27), then the search or
interception roll, then the battle.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction

from . import board as B
from .data import (
    AREAS,
    COST,
    KCS,
    LOY,
    NOTO,
    PIRATES,
    PORTS,
    STORM,
    WARSHIPS,
    in_reaction_range,
    reachable,
)
from .state import Events, FrameDict, PirateDict, State

if TYPE_CHECKING:
    import random

AP_EVENTS = ("mutiny_conspiracy", "scurvy_outbreak", "storm", "dr", "merchant_slips_away")


def triggers(S: State, option: str) -> list[str]:
    return S["options"][option].split(",")


def ap_seats(S: State) -> list[int]:
    """The AP players, clockwise from the phasing player's left (D.5 ordering)."""
    n, t = S["n_players"], S["turn_index"]
    return [S["turn_order"][(t + i) % n] for i in range(1, n)]


def open_window(S: State, pid: int, trig: str, standalone: bool = False) -> None:
    """``standalone``: the window belongs to no action (an ousted pirate leaving his port), so a
    cancelled action does not close it."""
    S["stack"].append(
        {
            "kind": "ap_window",
            "pirate": pid,
            "trigger": trig,
            "seats": ap_seats(S),
            "polled": 0,
            "ap_actions": [],
            "intercepted": False,
            "new_commissioners": [],
            "standalone": standalone,
        }
    )


def scope(S: State, w: FrameDict) -> dict[str, Any]:
    """Where "one interception per pirate action" (KC #5) and "no identical AP actions
    in the same pirate action" (published summary) are counted: the action's frame, so
    the two windows of a Loot (cargo, Convert) share them; a window of its own (an
    ousted pirate leaving port) counts for itself."""
    a = act_frame(S)
    if a is None or w["standalone"] or a["pirate"] != w["pirate"]:
        return w
    return a


def act_frame(S: State) -> dict[str, Any] | None:
    """The pirate action in progress (the nearest ``action`` frame), if any."""
    for f in reversed(S["stack"]):
        if f["kind"] == "action":
            return f
    return None


def kc_ap_free(S: State, seat: int) -> bool:
    """Errata A24 (KC #7): one KC AP action per Player-Turn at the whole table
    (``kc_ap_action_scope="global"``) or, as an alternative, one per AP player."""
    if S["options"]["kc_ap_action_scope"] == "global":
        return not S["this_turn"]["kc_ap_action_used"]
    return seat not in S["this_turn"]["kc_ap_action_seats"]


def event_fits(S: State, w: FrameDict, ctype: str) -> bool:
    """Errata A3: an AP Event must be able to affect the active pirate."""
    p = S["pirates"][w["pirate"]]
    if ctype == "mutiny_conspiracy":
        return True
    if ctype == "scurvy_outbreak":
        return B.at_sea(p) and not p["scurvy"]
    if ctype == "storm":
        return B.at_sea(p)
    if ctype == "dr":
        # D.2.7: in port, or having just looted (a Loot past its cargo step: the
        # Convert window). Not before the cargo step nor before an Attack Port roll:
        # nothing has been looted or taken yet (issue 24, docs/rules/blackbeard.md).
        f = act_frame(S)
        just = (f is not None and f["pirate"] == p["id"] and f["action"] == "loot"
                and bool(f.get("cargo_taken")))
        return not B.in_dr(p) and (p["port"] is not None or p["may_declare_dr"] or just
                                   or p["sack_opportunity"] is not None)
    if ctype == "merchant_slips_away":
        return w["trigger"] == "find"
    return False


def options(S: State, seat: int, w: FrameDict) -> list[dict[str, Any]]:
    """Legal choices of ``seat`` in window ``w``, in this order: warship placement
    (attacking, then not), warship attacks by slot, KC commission by area, Anti-Pirate
    Governor appointments by port (module G), KC moves
    by KC then destination, KC port attack, KC oust, AP Events by card id, KC
    Reactions by KC; then ``pass``. A seat is polled (``pass`` alone, if need be) while
    its AP action is unused and it holds cards, so being asked reveals nothing."""
    p = S["pirates"][w["pirate"]]
    if p["status"] != "map":
        return []
    out: list[dict[str, Any]] = []
    turn = S["this_turn"]
    used = scope(S, w)["ap_actions"]
    own_kcs = [k for k in S["commissioners"] if k["owner"] == seat]
    if not turn["ap_action_used"][seat]:
        # Q4: a Sack is the one trigger met in port; the warship comes into the
        # port's Sea Area and attacks the pirate there (option warship_triggers)
        sea = B.at_sea(p) or w["trigger"] == "sack"
        if sea and w["trigger"] in (*triggers(S, "warship_triggers"), "convert"):
            if S["warship_pool"] and "place_warship" not in used:
                out += [{"type": "place_warship", "attack": True},
                        {"type": "place_warship", "attack": False}]
            if "warship_attack" not in used:
                out += [{"type": "warship_attack", "ws": s["slot"]} for s in S["warships"]
                        if s["area"] == p["area"]]
        if (
            S["commissioner_pool"]
            and len(own_kcs) < COST["kc_limit_per_player"]
            and p["notoriety"] >= 2
            and "commission_kc" not in used
        ):
            home = p["area"]
            places = [home] + (AREAS[home]["adj"] if home in AREAS else [])
            out += [{"type": "commission_kc", "area": a} for a in places]
        if (
            S["options"]["governors_module"]
            and S["anti_governor_pool"]
            and "appoint_governor" not in used
        ):
            out += [{"type": "appoint_governor", "port": i} for i in governor_ports(S, p)]
        if own_kcs and kc_ap_free(S, seat):
            for k in own_kcs:
                out += [{"type": "kc_move", "kc": k["id"], "to": a}
                        for a in reachable(k["area"], KCS[k["id"]]["speed"] + 1)]
            if p["port"] is not None and PORTS[p["port"]]["area"] == p["area"]:
                here = [k for k in own_kcs if k["area"] == p["area"]]
                verb = "kc_attack_port" if B.pirate_port(p["port"]) else "kc_oust"
                out += [{"type": verb, "kc": k["id"]} for k in here]
        seen: list[str] = []
        for c in S["hands"][seat]:
            if B.masked(c):  # a hidden card the host does not know (.hidden)
                continue
            t = B.ctype(c)
            if (
                t in AP_EVENTS
                and t not in seen
                and t not in turn["ap_event_types"]
                and event_fits(S, w, t)
            ):
                seen.append(t)
                out.append({"type": "play_event", "card": c})
    reacting = w["trigger"] in triggers(S, "kc_reaction_triggers")
    if not scope(S, w)["intercepted"] and B.at_sea(p) and reacting:
        late = not S["options"]["kc_react_same_action_as_deploy"]
        out += [{"type": "react", "kc": k["id"]} for k in own_kcs
                if in_reaction_range(k["area"], p["area"])
                and not (late and k["id"] in w["new_commissioners"])]
    # A player who may still hold an AP Event is asked even if he holds none that fits:
    # skipping him would tell the table what is in his hand.
    if out or (not turn["ap_action_used"][seat] and S["hands"][seat]):
        out.append({"type": "pass"})
    return out


def governor_ports(S: State, p: PirateDict) -> list[int]:
    """Module G: a non-Pirate port with no governor and no pirate, in or next to the
    active pirate's Sea Area."""
    home = p["area"]
    areas = [home] + (AREAS[home]["adj"] if home in AREAS else [])
    taken = {q["port"] for q in S["pirates"] if q["status"] == "map" and q["port"] is not None}
    return [i for i, port in enumerate(PORTS) if port["area"] in areas
            and port["nationality"] != "PIR" and S["governors"][i] is None and i not in taken]


def has_options(S: State, seat: int, w: FrameDict) -> bool:
    """``bool(options(S, seat, w))``, cheaply in the common case (a seat with its AP
    action and cards always has at least ``pass``)."""
    if (
        S["pirates"][w["pirate"]]["status"] == "map"
        and not S["this_turn"]["ap_action_used"][seat]
        and S["hands"][seat]
    ):
        return True
    return bool(options(S, seat, w))


def _kc(S: State, kc: Any) -> dict[str, Any] | None:
    return next((k for k in S["commissioners"] if k["id"] == kc), None)


def apply_window(S: State, seat: int, w: FrameDict, a: dict[str, Any],
                 rng: random.Random, ev: Events) -> None:
    """Validate ``a`` against :func:`options` first, then act (nothing changes on refusal)."""
    legal = options(S, seat, w)
    t = a.get("type")
    if t == "play_event":
        copies = a.get("copies", 1)
        base = {"type": "play_event", "card": a.get("card")}
        ok = base in legal or _same_type_ok(S, seat, legal, a.get("card"))
        most = S["options"]["ap_event_copies_per_type"]
        if not ok or type(copies) is not int or not 1 <= copies <= most:
            raise IllegalAction(f"you cannot play {a!r} now")
        ct = B.ctype(a["card"])
        cards = [c for c in S["hands"][seat] if not B.masked(c) and B.ctype(c) == ct]
        if copies > len(cards):
            raise IllegalAction(f"you hold only {len(cards)} {ct}")
    elif a not in legal:
        raise IllegalAction(f"{a!r} is not possible for you in this AP window")
    p = S["pirates"][w["pirate"]]
    turn = S["this_turn"]
    if t == "pass":
        w["polled"] += 1
        return
    if t == "react":  # errata A22: not an AP action; one interception per pirate action
        k = _kc(S, a["kc"])
        assert k is not None
        adj = k["area"] != p["area"]
        k["area"] = p["area"]
        scope(S, w)["intercepted"] = True
        ev.append({"type": "kc_reaction", "seat": seat, "kc": k["id"], "pirate": p["id"],
                   "adjacent": adj})
        S["stack"].append(
            {
                "kind": "fight",
                "attacker": "kc",
                "attacker_id": k["id"],
                "ap_seat": seat,
                "adjacent": adj,
                "pirate": p["id"],
                "step": "ask",
            }
        )
        return
    turn["ap_action_used"][seat] = True
    scope(S, w)["ap_actions"].append(t)
    if t == "place_warship":  # errata A12: attacking is optional
        wid = S["warship_pool"].pop(rng.randrange(len(S["warship_pool"])))
        slot = S["next_slot"]
        S["next_slot"] += 1
        S["warships"].append({"slot": slot, "id": wid, "area": p["area"]})
        ev.append({"type": "warship_placed", "seat": seat, "slot": slot, "warship": wid,
                   "area": p["area"], "attack": a["attack"]})
        if a["attack"]:
            _warship_fight(S, seat, slot, p)
    elif t == "warship_attack":
        ev.append({"type": "warship_attacks", "seat": seat, "slot": a["ws"], "pirate": p["id"]})
        _warship_fight(S, seat, a["ws"], p)
    elif t == "commission_kc":
        d = B.dice(rng, 2)
        ok = sum(d) <= p["notoriety"]
        ev.append({"type": "roll", "why": "commission_kc", "seat": seat, "dice": d})
        if ok:
            kid = S["commissioner_pool"].pop(rng.randrange(len(S["commissioner_pool"])))
            S["commissioners"].append({"id": kid, "owner": seat, "area": a["area"]})
            w["new_commissioners"].append(kid)
        ev.append({"type": "kc_commissioned" if ok else "kc_refused", "seat": seat,
                   "kc": kid if ok else None, "area": a["area"]})
    elif t in ("kc_move", "kc_attack_port", "kc_oust"):
        turn["kc_ap_action_used"] = True
        turn["kc_ap_action_seats"].append(seat)
        k = _kc(S, a["kc"])
        assert k is not None
        if t == "kc_move":
            ev.append({"type": "kc_moved", "seat": seat, "kc": k["id"], "from": k["area"],
                       "dest": a["to"]})
            k["area"] = a["to"]
        elif t == "kc_attack_port":
            d = B.dice(rng, 2)
            total = sum(d) + KCS[k["id"]]["combat"]
            ok = total >= COST["kc_oust_target"]
            ev.append({"type": "kc_attacks_port", "seat": seat, "kc": k["id"], "dice": d,
                       "total": total, "port": p["port"], "success": ok})
            if ok:
                oust(S, ev, p)
        else:
            S["stack"].append({"kind": "event", "event": "oust", "kc": k["id"], "seat": seat,
                               "pirate": p["id"], "step": "roll"})
    elif t == "appoint_governor":
        S["governors"][a["port"]] = "anti"
        S["anti_governor_pool"] -= 1
        ev.append({"type": "governor", "port": a["port"], "kind": "anti", "seat": seat})
    elif t == "play_event":
        play_ap_event(S, seat, w, a, rng, ev)


def _same_type_ok(S: State, seat: int, legal: list[dict[str, Any]], card: Any) -> bool:
    """Any copy of a legal AP Event type may be named, not only the one listed."""
    if type(card) is not int or card not in S["hands"][seat]:
        return False
    ct = B.ctype(card)
    return any(x["type"] == "play_event" and B.ctype(x["card"]) == ct for x in legal)


def _warship_fight(S: State, seat: int, slot: int, p: PirateDict) -> None:
    S["stack"].append({"kind": "fight", "attacker": "ws", "attacker_id": slot, "ap_seat": seat,
                       "adjacent": False,
                       "pirate": p["id"], "step": "ask"})


def oust(S: State, ev: Events, p: PirateDict) -> None:
    """The pirate is put out of his port into its Sea Area; leaving a port is a KC
    Reaction trigger (errata A25 Play Note), so a fresh window opens."""
    ev.append({"type": "ousted", "pirate": p["id"], "port": p["port"], "area": p["area"]})
    p["port"] = None
    open_window(S, p["id"], "leave_port", standalone=True)


def play_ap_event(S: State, seat: int, w: FrameDict, a: dict[str, Any],
                  rng: random.Random, ev: Events) -> None:
    """Errata A3: one type per AP player, no type twice in one Player-Turn."""
    ct = B.ctype(a["card"])
    copies = a.get("copies", 1)
    cards = [a["card"]] + [c for c in S["hands"][seat]
                           if not B.masked(c) and B.ctype(c) == ct and c != a["card"]]
    for c in cards[:copies]:
        S["hands"][seat].remove(c)
        B.discard(S, c)
    S["this_turn"]["ap_event_types"].append(ct)
    p = S["pirates"][w["pirate"]]
    ev.append({"type": "ap_event", "seat": seat, "card": ct, "copies": copies, "pirate": p["id"]})
    for _ in range(copies):
        if p["status"] != "map":
            break
        if ct == "mutiny_conspiracy":
            S["stack"].append(
                {"kind": "event", "event": "mutiny", "pirate": p["id"], "step": "roll"}
            )
        elif ct == "scurvy_outbreak":
            if not p["scurvy"]:
                p["scurvy"] = True
                ev.append({"type": "scurvy", "pirate": p["id"]})
                B.loyalty(S, ev, p, LOY["scurvy"], "scurvy")
        elif ct == "storm":
            S["stack"].append(
                {"kind": "event", "event": "storm", "pirate": p["id"], "step": "roll"}
            )
        elif ct == "dr":
            force_dr(S, ev, p)
        elif ct == "merchant_slips_away":
            f = act_frame(S)
            if f is not None:
                f["slipped_away"] = True


def declare_dr(S: State, ev: Events, p: PirateDict, forced: bool) -> None:
    """D&R: Crew Loyalty rises at once on declaration (errata A6): +3 in a Pirate Port,
    +1 in another port, ``dr_other_bonus`` after a loot or a sack at sea."""
    if p["port"] is not None:
        gain = LOY["dr_pirate_port"] if B.pirate_port(p["port"]) else LOY["dr_port"]
    else:
        gain = S["options"]["dr_other_bonus"]
    p["dr_turn"] = S["player_turns"]
    ev.append({"type": "dr", "pirate": p["id"], "forced": forced, "port": p["port"]})
    if gain and (not forced or S["options"]["forced_dr_gains_loyalty"]):
        B.loyalty(S, ev, p, gain, "dr")
    p["may_declare_dr"] = False


def force_dr(S: State, ev: Events, p: PirateDict) -> None:
    """The D&R card: forces D&R and ends the current action; a pending sack is lost
    (errata A4, 9.55)."""
    if p["sack_opportunity"] is not None:
        ev.append({"type": "sack_lost", "pirate": p["id"], "port": p["sack_opportunity"]})
        p["sack_opportunity"] = None
    declare_dr(S, ev, p, forced=True)
    f = act_frame(S)
    if f is not None and f["pirate"] == p["id"]:
        cancel(S, ev, f, "dr")


def cancel(S: State, ev: Events, f: FrameDict, why: str) -> None:
    """Escape consequences (errata A14, A28): the action ends and its Actions stay
    spent; a loot past the cargo step keeps booty and hostage; any interrupted
    merchant action loses the merchant. Escaping a KC never cancels a Move."""
    if why == "escape_kc" and f["action"] == "move":
        ev.append({"type": "move_stands", "pirate": f["pirate"]})
        return
    if f.get("cancelled"):
        return
    f["cancelled"] = True
    ev.append(
        {"type": "action_cancelled", "pirate": f["pirate"], "action": f["action"], "why": why}
    )
    if f["action"] in ("find", "loot") and B.merchant(S, f["slot"]) is not None:
        B.remove_merchant(S, ev, f["slot"])
    if f["action"] == "sack":  # the sack counts as performed (A14): the chance is used
        S["pirates"][f["pirate"]]["sack_opportunity"] = None


# -- fights ------------------------------------------------------------------------


def step_fight(S: State, f: FrameDict, rng: random.Random, ev: Events) -> None:
    p = S["pirates"][f["pirate"]]
    opp = _opponent(S, f)
    if p["status"] != "map" or opp is None:
        S["stack"].pop()
        return
    step = f["step"]
    if step == "ask":
        f["step"] = "go"
        if B.in_dr(p) and not S["options"]["dr_can_escape"]:
            f["escape"] = False  # D.2.7: a drunk crew must fight
            ev.append({"type": "must_fight", "pirate": p["id"]})
        else:
            S["stack"].append({"kind": "fight_or_escape", "seat": p["owner"], "pirate": p["id"],
                               "attacker": f["attacker"]})
    elif step == "go":
        if f["escape"]:
            d = B.dice(rng, 1)
            f["opponent_total"] = d[0] + opp["speed"] - (1 if f["adjacent"] else 0)
            ev.append({"type": "roll", "why": "search" if f["attacker"] == "ws" else "intercept",
                       "seat": f["ap_seat"], "dice": d, "total": f["opponent_total"]})
            f["step"] = "escape_result"
            B.roll_own(S, rng, ev, f, p["id"], 1, "escape")
        else:
            f["step"] = "battle"
    elif step == "escape_result":
        mine = f["dice"][0] + p["speed"]
        if f["attacker"] == "ws":  # errata A13; Q5 search tie
            found = f["opponent_total"] > mine or (
                f["opponent_total"] == mine and S["options"]["search_tie"] == "warship"
            )
        else:  # errata A27; Q7 interception tie
            found = f["opponent_total"] > mine or (
                f["opponent_total"] == mine and S["options"]["intercept_tie"] == "kc"
            )
        ev.append({"type": "found" if found else "escaped", "pirate": p["id"], "by": f["attacker"],
                   "pirate_total": mine, "total": f["opponent_total"]})
        if found:
            f["step"] = "battle"
        else:
            S["stack"].pop()
            a = act_frame(S)
            if a is not None and a["pirate"] == p["id"]:
                cancel(S, ev, a, "escape_kc" if f["attacker"] == "kc" else "escape_warship")
    elif step == "battle":
        d = B.dice(rng, 2)
        f["opponent_total"] = sum(d) + opp["combat"]
        ev.append({"type": "roll", "why": "battle", "seat": f["ap_seat"], "dice": d,
                   "total": f["opponent_total"]})
        f["step"] = "battle_result"
        B.roll_own(S, rng, ev, f, p["id"], 2, "battle")
    elif step == "battle_result":
        mine = sum(f["dice"]) + p["combat"] + PIRATES[p["id"]]["ability"] + heavy_guns(p)
        if mine == f["opponent_total"] and S["options"]["battle_tie"] == "reroll":
            ev.append({"type": "battle_tie", "pirate": p["id"], "total": mine})
            f["step"] = "battle"
            return
        won = mine > f["opponent_total"] or (
            mine == f["opponent_total"] and S["options"]["battle_tie"] == "pirate"
        )
        S["stack"].pop()
        ev.append({"type": "battle", "pirate": p["id"], "by": f["attacker"], "pirate_total": mine,
                   "total": f["opponent_total"], "winner": "pirate" if won else f["attacker"]})
        _battle_outcome(S, f, opp, won, mine, ev)


def heavy_guns(p: PirateDict) -> int:
    """Heavy Guns: +1 in battles and port attacks (BB-S; the published effect is unknown)."""
    return COST["heavy_guns_bonus"] if p["heavy_guns"] else 0


def _opponent(S: State, f: FrameDict) -> dict[str, Any] | None:
    if f["attacker"] == "ws":
        s = next((s for s in S["warships"] if s["slot"] == f["attacker_id"]), None)
        return None if s is None else {**WARSHIPS[s["id"]], "slot": s["slot"]}
    k = _kc(S, f["attacker_id"])
    return None if k is None else dict(KCS[k["id"]])


def _battle_outcome(S: State, f: FrameDict, opp: dict[str, Any], won: bool, mine: int,
                    ev: Events) -> None:
    """D.2.9. Warships: A15 (AP VP = damage, +1 even when the pirate wins). KCs: A29."""
    p = S["pirates"][f["pirate"]]
    a = act_frame(S)
    owner = f["ap_seat"]
    if f["attacker"] == "ws":
        if won:
            B.ap_vp(S, ev, owner, 1, "warship_damage")  # A15: the winner takes 1 damage
            B.notoriety(ev, p, NOTO["defeat_warship"] * opp["combat"], "defeat_warship")
            s = next(s for s in S["warships"] if s["slot"] == f["attacker_id"])
            S["warships"].remove(s)
            S["warship_pool"].append(s["id"])
            ev.append({"type": "warship_returns", "slot": s["slot"]})
            alive = B.combat_damage(S, ev, p, 1, "warship_battle")
            keep_going = S["options"]["battle_won_resumes"]
        else:
            hits = 1 + math.ceil((f["opponent_total"] - mine) / COST["warship_damage_margin"])
            B.ap_vp(S, ev, owner, hits, "warship_damage")  # A15: VP = damage, at once
            B.loyalty(S, ev, p, LOY["lose_warship_battle"], "lose_warship_battle")
            alive = B.combat_damage(S, ev, p, hits, "warship_battle")
            keep_going = False
    else:
        kc = _kc(S, f["attacker_id"])
        assert kc is not None
        if won:
            B.ap_vp(S, ev, owner, 1, "kc_damage")  # A29: exactly 1 damage, KC owner +1 VP
            B.notoriety(ev, p, NOTO["defeat_kc"] * opp["combat"], "defeat_kc")
            B.loyalty(S, ev, p, LOY["defeat_kc"], "defeat_kc")
            S["commissioners"].remove(kc)
            S["commissioners_out"].append(kc["id"])
            ev.append({"type": "kc_removed", "kc": kc["id"]})
            alive = B.combat_damage(S, ev, p, 1, "kc_battle")
            keep_going = S["options"]["battle_won_resumes"]
        else:
            share = math.ceil(p["notoriety"] / COST["kc_capture_vp_divisor"])
            B.ap_vp(S, ev, owner, share, "kc_capture")
            p["bonus_vp"] += COST["hanged_famous_vp"]
            B.leave_map(S, ev, p, "dead", "captured")
            alive, keep_going = False, False
    if a is not None and a["pirate"] == p["id"] and (not alive or not keep_going):
        cancel(S, ev, a, "battle" if alive else "eliminated")


# -- event procedures with rolls -----------------------------------------------------


def step_evt(S: State, f: FrameDict, rng: random.Random, ev: Events) -> None:
    e = f["event"]
    p = S["pirates"][f["pirate"]]
    if p["status"] != "map" and e != "duel":
        S["stack"].pop()
        return
    if e == "storm":  # Storm Effects Table; +1 in a Transit Box
        if f["step"] == "roll":
            f["step"] = "result"
            B.roll_own(S, rng, ev, f, p["id"], 1, "storm")
            return
        S["stack"].pop()
        r = f["dice"][0] + (COST["storm_transit_bonus"] if p["area"] not in AREAS else 0)
        hits = STORM[str(min(r, 7))]
        ev.append({"type": "storm", "pirate": p["id"], "roll": r, "hits": hits})
        if hits == "sunk":
            B.leave_map(S, ev, p, "dead", "storm")
            a = act_frame(S)
            if a is not None and a["pirate"] == p["id"]:
                cancel(S, ev, a, "eliminated")
        else:
            B.speed_hits(S, ev, p, hits)
    elif e == "mutiny":  # D.2.10: the crew's roll, so Cunning does not apply
        S["stack"].pop()
        d = B.dice(rng, 2)
        need = p["loyalty"] + COST["mutiny_margin"]
        ev.append({"type": "roll", "why": "mutiny", "pirate": p["id"], "dice": d,
                   "total": sum(d), "against": need})
        if sum(d) > need:
            mutiny(S, ev, p)
        elif sum(d) == need:
            ev.append({"type": "mutiny_failed", "pirate": p["id"]})
            B.loyalty(S, ev, p, LOY["mutiny_same_as"], "mutiny_same_as")
    elif e == "oust":
        k = _kc(S, f["kc"])
        if k is None or p["port"] is None:
            S["stack"].pop()
            return
        if f["step"] == "roll":
            d = B.dice(rng, 2)
            f["opponent_total"] = sum(d) + KCS[k["id"]]["combat"]
            ev.append({"type": "roll", "why": "oust", "seat": f["seat"], "dice": d,
                       "total": f["opponent_total"]})
            f["step"] = "result"
            B.roll_own(S, rng, ev, f, p["id"], 2, "oust")
            return
        S["stack"].pop()
        mine = sum(f["dice"]) + PIRATES[p["id"]]["ability"]
        mine += COST["pro_governor_oust"] if B.has_pro(S, p["port"]) else 0
        ok = f["opponent_total"] > mine
        ev.append({"type": "oust_attempt", "pirate": p["id"], "kc": k["id"],
                   "total": f["opponent_total"], "pirate_total": mine, "success": ok})
        if ok:
            a = act_frame(S)
            if a is not None and a["pirate"] == p["id"] and a["action"] not in ("move",):
                cancel(S, ev, a, "ousted")
            oust(S, ev, p)
        else:
            B.notoriety(ev, p, NOTO["failed_oust"], "failed_oust")
    elif e == "duel":
        step_duel(S, f, rng, ev)


def mutiny(S: State, ev: Events, p: PirateDict) -> None:
    """A successful mutiny maroons the captain (his Notoriety still scores); the owner
    may put a reserve Pirate card in command of the same ship (``new_captain``)."""
    ev.append({"type": "mutiny", "pirate": p["id"]})
    a = act_frame(S)
    if a is not None and a["pirate"] == p["id"]:
        cancel(S, ev, a, "mutiny")
    if B.reserve(S, p["owner"]):
        p["status"] = "adrift"
        S["stack"].append({"kind": "new_captain", "seat": p["owner"], "pirate": p["id"]})
    else:
        B.leave_map(S, ev, p, "dead", "marooned")


def transfer(S: State, ev: Events, old: PirateDict, new: PirateDict, why: str) -> None:
    """A new captain takes the same ship: place, booty, hostages, damage, Heavy Guns."""
    keys = (
        "area",
        "port",
        "ship",
        "speed",
        "combat",
        "holds",
        "hostages",
        "heavy_guns",
        "scurvy",
        "loyalty",
    )
    for key in keys:
        new[key] = old[key]
    new["status"] = "map"
    for m in S["merchants"]:
        if m["found_by"] == old["id"]:
            m["found_by"] = None
    old.update(
        status="dead",
        area=None,
        port=None,
        holds=[],
        hostages=[],
        heavy_guns=[],
        dr_turn=None,
        sack_opportunity=None,
        scurvy=False,
        may_declare_dr=False,
    )
    ev.append({"type": "new_captain", "pirate": new["id"], "replaces": old["id"], "why": why})


def step_duel(S: State, f: FrameDict, rng: random.Random, ev: Events) -> None:
    """Piratical Ambition (D.2.11): each side rolls Duel-rating dice; ties to the defender.
    Cunning may re-roll a duel roll only when it is of 1 to 3 dice (errata A5)."""
    me, foe = S["pirates"][f["pirate"]], S["pirates"][f["target"]]
    if foe["status"] != "map" or me["status"] != "reserve":
        S["stack"].pop()
        return
    if f["step"] == "roll":
        f["step"] = "roll2"
        B.roll_own(S, rng, ev, f, me["id"], PIRATES[me["id"]]["duel"], "duel", "dice")
    elif f["step"] == "roll2":
        f["step"] = "result"
        B.roll_own(S, rng, ev, f, foe["id"], PIRATES[foe["id"]]["duel"], "duel", "target_dice")
    else:
        S["stack"].pop()
        mine, theirs = sum(f["dice"]), sum(f["target_dice"])
        stake = PIRATES[me["id"]]["duel"] + PIRATES[foe["id"]]["duel"]
        won = mine > theirs
        ev.append({"type": "duel", "pirate": me["id"], "target": foe["id"], "total": mine,
                   "target_total": theirs, "winner": me["id"] if won else foe["id"]})
        if won:
            transfer(S, ev, foe, me, "duel")
            B.notoriety(ev, me, NOTO["win_duel"] * stake, "win_duel")
            B.loyalty(S, ev, me, LOY["duel_won"], "duel_won")
        else:
            me["status"] = "dead"
            ev.append({"type": "dead", "pirate": me["id"], "why": "duel", "booty_lost": 0,
                       "from_reserve": True})
            B.notoriety(ev, foe, NOTO["win_duel"] * stake, "win_duel")
