"""The pirate player's side: his card plays and the pirate actions (BB-S D.2.4).

Each pirate action is an ``action`` frame on the stack (``state.Frame``: its ``step``
names the next step), run step by step by :func:`step_act`: the steps that roll stop
for a possible Cunning re-roll (errata A5), and the steps that the AP players may
interrupt open an AP window first (``anti.open_window``), so an escape or a lost
battle can cancel the action between two steps (errata A14, A28). ``p`` is always the
acting pirate's record (``state.Pirate``), ``f`` the action's frame, ``S`` the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction

from . import anti
from . import board as B
from .data import (
    AREAS,
    CARD_TYPES,
    CARGO,
    COST,
    HOSTAGES,
    LOY,
    MERCHANTS,
    NOTO,
    PIRATES,
    PORTS,
    PORTS_IN,
    SEA,
    SHIPS,
    neighbours,
    reachable,
)
from .state import Events, FrameDict, PirateDict, State

if TYPE_CHECKING:
    import random

PIRATE_EVENTS = ("fair_winds", "sail_ho", "bold_captain", "heavy_guns", "letter_of_marque",
                 "piratical_ambition")
PORT_ACTIONS = ("convert_booty", "ransom", "refit", "recover", "buy_haven", "retire_haven",
                "bribe")


def move_cost(p: PirateDict) -> int:
    """One Action a step; two when the ship's Speed is below 0 (C.4 A)."""
    return 2 if p["speed"] < 0 else 1


def destinations(S: State, p: PirateDict) -> list[dict[str, Any]]:
    """One Move step: port -> its Sea Area; at sea -> neighbours, then the area's ports
    (not a non-Pirate port with an Anti-Pirate Governor, module G)."""
    if p["port"] is not None:
        return [{"to": p["area"]}]
    out = [{"to": w} for w in neighbours(p["area"])]
    if p["area"] in AREAS:
        out += [{"to": p["area"], "port": i} for i in PORTS_IN[p["area"]]
                if S["governors"][i] != "anti"]
    return out


def can_act(S: State, p: PirateDict) -> bool:
    """On the map, not in D&R, and not barred by a diamond card played for another pirate."""
    only = S["this_turn"]["initiative_pirate"]
    return p["status"] == "map" and not B.in_dr(p) and (only is None or only == p["id"])


def pirate_actions(S: State, p: PirateDict) -> list[dict[str, Any]]:
    """One pirate's actions: move, find, loot, attack_port, sack, port actions.
    There is no action to attack a warship or a KC (errata A16, A20)."""
    turn, pid = S["this_turn"], p["id"]
    out: list[dict[str, Any]] = []
    if turn["actions_left"] >= move_cost(p):
        out += [{"type": "move", "pirate": pid, **d} for d in destinations(S, p)]
    if turn["actions_left"] < 1:
        return out
    if B.at_sea(p):
        out += [{"type": "find", "pirate": pid, "slot": m["slot"]} for m in S["merchants"]
                if m["area"] == p["area"] and m["found_by"] is None]
        out += [{"type": "loot", "pirate": pid, "slot": m["slot"]} for m in S["merchants"]
                if m["area"] == p["area"] and m["found_by"] == pid]
        if p["area"] in AREAS:
            out += [{"type": "attack_port", "pirate": pid, "port": i}
                    for i in PORTS_IN[p["area"]]
                    if not B.pirate_port(i) and S["governors"][i] != "anti"]
        return out
    port = p["port"]
    if p["sack_opportunity"] == port:
        out.append({"type": "sack", "pirate": pid})
    in_pirate_port = B.pirate_port(port)
    allowed = {
        "convert_booty": bool(p["holds"]),
        "ransom": not in_pirate_port and bool(p["hostages"]),
        "refit": p["speed"] < SHIPS[p["ship"]]["speed"] or p["combat"] < SHIPS[p["ship"]]["combat"],
        "recover": p["scurvy"],
        "buy_haven": (in_pirate_port and p["safe_haven"] is None
                      and p["net_worth"] >= COST["safe_haven"]),
        "retire_haven": p["safe_haven"] == port and p["safe_haven_turn"] < S["player_turns"],
        "bribe": (not in_pirate_port and p["net_worth"] >= COST["bribe"]
                  and S["governors"][port] != "anti"),
    }
    out += [{"type": a, "pirate": pid} for a in PORT_ACTIONS if allowed[a]]
    return out


def _own_targets(S: State, seat: int) -> list[int]:
    return [pid for pid in B.active(S, seat) if S["pirates"][pid]["status"] == "map"]


def card_plays(S: State, seat: int, only: Any = None) -> list[dict[str, Any]]:
    """Card plays allowed now (errata A2: none while Actions remain; one Action card a
    turn; an Action and Event card is the Action card, A7). By card id; ``only``: just
    the plays of that card."""
    turn = S["this_turn"]
    if turn["actions_left"] > 0:
        return []
    out: list[dict[str, Any]] = []
    seen: list[str] = []
    mine = _own_targets(S, seat)
    for c in S["hands"][seat]:
        if B.masked(c):  # a hidden card the host does not know (plugins/blackbeard/hidden.py)
            continue
        t = B.ctype(c)
        if t in seen or (only is not None and c != only):
            continue
        seen.append(t)
        info = CARD_TYPES[t]
        if not turn["card_played"] and info["kind"] == "action_event":
            out += _ae_plays(S, seat, c, t, mine)
        elif not turn["card_played"] and info["action"] > 0:
            out.append({"type": "play_actions", "card": c})
        elif not turn["card_played"] and info["action"] < 0:  # diamond: the pirate's Initiative
            out += [{"type": "play_actions", "card": c, "pirate": pid} for pid in mine
                    if not B.in_dr(S["pirates"][pid])]
        if t in PIRATE_EVENTS:
            out += _event_plays(S, seat, c, t, mine)
    return out


def _ae_plays(S: State, seat: int, c: int, t: str, mine: list[int]) -> list[dict[str, Any]]:
    base = {"type": "play_ae", "card": c}
    if t == "commission_orders":
        kcs = [k for k in S["commissioners"] if k["owner"] == seat]
        plays = [{**base, "kc": k["id"], "to": a} for k in kcs
                 for a in reachable(k["area"], COST["commission_orders_moves"])]
        return plays or [base]
    if t == "rumour_of_treasure":
        return [{**base, "area": a} for a in SEA] if S["merchant_pool"] else [base]
    return [{**base, "pirate": pid} for pid in mine] or [base]


def _event_plays(S: State, seat: int, c: int, t: str, mine: list[int]) -> list[dict[str, Any]]:
    base = {"type": "play_event", "card": c}
    ps = [S["pirates"][pid] for pid in mine]
    if t == "fair_winds":
        return [{**base, "pirate": p["id"], **d} for p in ps if not B.in_dr(p)
                for d in destinations(S, p)]
    if t in ("sail_ho", "bold_captain"):
        return [{**base, "pirate": p["id"]} for p in ps]
    if t == "heavy_guns":
        return [{**base, "pirate": p["id"]} for p in ps if not p["heavy_guns"]]
    if t == "letter_of_marque":
        return [{**base, "pirate": p["id"]} for p in ps
                if p["port"] is not None and not B.pirate_port(p["port"])]
    if t == "piratical_ambition":
        foes = [q["id"] for q in S["pirates"] if q["status"] == "map" and q["owner"] != seat
                and q["port"] is None]
        return [{**base, "pirate": r, "target": f} for r in B.reserve(S, seat) for f in foes]
    return []


def main_actions(S: State, seat: int) -> list[dict[str, Any]]:
    """The phasing player's choices, in this order: card plays (by card id), deploy
    (by pirate, then Sea Area), each pirate's actions (by pirate id), D&R
    declarations, ``end_actions`` (forfeit, Q2), ``end_turn``."""
    turn = S["this_turn"]
    out = card_plays(S, seat)
    if len(B.active(S, seat)) < B.displays(S):
        out += [{"type": "deploy", "pirate": pid, "area": a} for pid in B.reserve(S, seat)
                for a in SEA]
    for pid in B.active(S, seat):
        p = S["pirates"][pid]
        if can_act(S, p):
            out += pirate_actions(S, p)
    for pid in B.active(S, seat):
        p = S["pirates"][pid]
        if not B.in_dr(p) and (p["port"] is not None or p["may_declare_dr"]):
            out.append({"type": "declare_dr", "pirate": pid})
    if turn["actions_left"] > 0 and S["options"]["allow_forfeit_actions"]:
        out.append({"type": "end_actions"})
    out.append({"type": "end_turn"})
    return out


def apply_main(S: State, seat: int, a: dict[str, Any], rng: random.Random, ev: Events) -> None:
    """A loot may carry ``take: false`` (decline the cargo, 8.32); the listed form omits it."""
    listed = a
    if a.get("type") == "loot" and "take" in a:
        if type(a["take"]) is not bool:
            raise IllegalAction("take must be true or false")
        listed = {k: v for k, v in a.items() if k != "take"}
    if not is_main_action(S, seat, listed):
        raise IllegalAction(_why_not(S, seat, a))
    turn = S["this_turn"]
    t = a["type"]
    if t == "end_turn":
        ev.append({"type": "end_turn", "seat": seat, "forfeit": turn["actions_left"]})
        turn["actions_left"] = 0
        S["stack"][-1] = {"kind": "turn_end", "step": "clear"}
        return
    if t == "end_actions":
        ev.append({"type": "actions_forfeited", "seat": seat, "n": turn["actions_left"]})
        turn["actions_left"], turn["initiative_pirate"] = 0, None
        return
    if t == "deploy":
        B.launch(S, a["pirate"], a["area"])
        S["pirates"][a["pirate"]]["owner"] = seat
        ev.append({"type": "deployed", "seat": seat, "pirate": a["pirate"], "area": a["area"]})
        return
    if t == "declare_dr":
        anti.declare_dr(S, ev, S["pirates"][a["pirate"]], forced=False)
        return
    if t in ("play_actions", "play_ae", "play_event"):
        play_card(S, seat, a, rng, ev)
        return
    p = S["pirates"][a["pirate"]]
    cost = move_cost(p) if t == "move" else 1
    turn["actions_left"] -= cost
    if turn["actions_left"] == 0:
        turn["initiative_pirate"] = None
    p["may_declare_dr"] = False
    ev.append({"type": "action", "seat": seat, "action": t, "pirate": p["id"], "cost": cost,
               "left": turn["actions_left"]})
    f = {
        "kind": "action",
        "action": t,
        "pirate": p["id"],
        "step": "start",
        "ap_actions": [],
        "intercepted": False,
    }
    for key in ("to", "port", "slot", "take"):
        if key in a:
            f[key] = a[key]
    S["stack"].append(f)


def is_main_action(S: State, seat: int, a: dict[str, Any]) -> bool:
    """``a in main_actions(S, seat)``, checking only the part of the list ``a`` can be in
    (``game_apply`` is on the search bots' hot path)."""
    t = a.get("type")
    if t in ("play_actions", "play_ae", "play_event"):
        card = a.get("card")
        return type(card) is int and a in card_plays(S, seat, only=card)
    if t in ("end_turn", "end_actions", "deploy", "declare_dr"):
        return a in main_actions(S, seat)
    pid = a.get("pirate")
    if type(pid) is not int or not 0 <= pid < len(S["pirates"]):
        return False
    p = S["pirates"][pid]
    return p["owner"] == seat and can_act(S, p) and a in pirate_actions(S, p)


def _why_not(S: State, seat: int, a: dict[str, Any]) -> str:
    t = a.get("type")
    if t in ("play_actions", "play_ae", "play_event") and S["this_turn"]["actions_left"] > 0:
        return ("finish (or forfeit) the Actions of your Action card before playing another "
                "card (4.4)")
    if t in ("play_actions", "play_ae") and S["this_turn"]["card_played"]:
        return "only one card per Player-Turn may be played for Actions (4.4)"
    return f"{a!r} is not a legal action now"


def play_card(S: State, seat: int, a: dict[str, Any], rng: random.Random, ev: Events) -> None:
    turn = S["this_turn"]
    c = a["card"]
    t = B.ctype(c)
    S["hands"][seat].remove(c)
    if a["type"] in ("play_actions", "play_ae"):
        n = CARD_TYPES[t]["action"]
        if n < 0:
            n = PIRATES[a["pirate"]]["initiative"]
            turn["initiative_pirate"] = a["pirate"]
        turn["card_played"], turn["actions_left"] = True, n
        ev.append({"type": "card_for_actions", "seat": seat, "card": t, "actions": n,
                   "pirate": a.get("pirate")})
    if a["type"] == "play_ae":  # errata A7: the Event is carried out too
        B.discard(S, c)
        if t == "commission_orders" and "kc" in a:
            k = next(k for k in S["commissioners"] if k["id"] == a["kc"])
            ev.append({"type": "kc_moved", "seat": seat, "kc": k["id"], "from": k["area"],
                       "dest": a["to"], "why": "commission_orders"})
            k["area"] = a["to"]
        elif t == "rumour_of_treasure" and "area" in a:
            B.place_merchant(S, rng, ev, a["area"])
        elif t == "press_gang" and "pirate" in a:
            B.loyalty(S, ev, S["pirates"][a["pirate"]], COST["press_gang_loyalty"], "press_gang")
        else:
            ev.append({"type": "event_no_target", "card": t})
        return
    if a["type"] == "play_actions":
        B.discard(S, c)
        return
    p = S["pirates"][a["pirate"]]
    ev.append({"type": "pirate_event", "seat": seat, "card": t, "pirate": p["id"]})
    if t == "heavy_guns":  # errata A8: kept on the Pirate Display
        p["heavy_guns"].append(c)
        return
    if t == "letter_of_marque":  # errata A9: never returns to the deck
        S["removed"].append(c)
        B.leave_map(S, ev, p, "retired", "letter_of_marque")
        return
    B.discard(S, c)
    if t == "fair_winds":
        f = {
            "kind": "action",
            "action": "move",
            "pirate": p["id"],
            "step": "start",
            "to": a["to"],
            "free": True,
            "ap_actions": [],
            "intercepted": False,
        }
        if "port" in a:
            f["port"] = a["port"]
        S["stack"].append(f)
    elif t == "sail_ho":
        p["sail_ho"] += COST["sail_ho_bonus"]
    elif t == "bold_captain":
        B.loyalty(S, ev, p, COST["bold_captain_loyalty"], "bold_captain")
    elif t == "piratical_ambition":
        S["stack"].append(
            {
                "kind": "event",
                "event": "duel",
                "pirate": a["pirate"],
                "target": a["target"],
                "step": "roll",
            }
        )


# -- the steps of an action ------------------------------------------------------------


def step_act(S: State, f: FrameDict, rng: random.Random, ev: Events) -> None:
    p = S["pirates"][f["pirate"]]
    if f.get("cancelled") or p["status"] != "map":
        S["stack"].pop()
        return
    STEPS[f["action"]](S, f, p, rng, ev)


def _move(S: State, f: FrameDict, p: PirateDict, rng: random.Random,
          ev: Events) -> None:
    if f["step"] == "start":
        f["step"] = "end"
        left = p["port"] is not None
        ev.append({"type": "moved", "pirate": p["id"], "from": p["area"], "from_port": p["port"],
                   "dest": f["to"], "port": f.get("port"), "free": f.get("free", False)})
        p["area"], p["port"] = f["to"], f.get("port")
        anti.open_window(S, p["id"], "leave_port" if left else "move")
    else:
        S["stack"].pop()


def _find(S: State, f: FrameDict, p: PirateDict, rng: random.Random,
          ev: Events) -> None:
    m = B.merchant(S, f["slot"])
    if f["step"] == "start":
        f["step"] = "roll"
        anti.open_window(S, p["id"], "find")
    elif m is None or m["area"] != p["area"] or not B.at_sea(p) or m["found_by"] is not None:
        S["stack"].pop()
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": "find"})
    elif f["step"] == "roll":
        if f.get("slipped_away"):
            S["stack"].pop()
            ev.append({"type": "find_failed", "pirate": p["id"], "why": "merchant_slips_away"})
            return
        f["find_bonus"] = p["sail_ho"] + min(1, p["information"])
        p["information"] -= min(1, p["information"])
        p["sail_ho"] = 0
        f["step"] = "result"
        B.roll_own(S, rng, ev, f, p["id"], 1, "find")
    else:
        S["stack"].pop()
        total = f["dice"][0] + PIRATES[p["id"]]["ability"] + f["find_bonus"]
        ok = total >= COST["find_target"]
        if ok:
            m["face_up"], m["found_by"] = True, p["id"]
        ev.append({"type": "found_merchant" if ok else "find_failed", "pirate": p["id"],
                   "total": total, "slot": m["slot"],
                   "merchant": m["id"] if ok else None})


def _loot(S: State, f: FrameDict, p: PirateDict, rng: random.Random,
          ev: Events) -> None:
    m = B.merchant(S, f["slot"])
    step = f["step"]
    if step == "start":
        f["step"] = "roll_cargo"
        anti.open_window(S, p["id"], "loot")
        return
    if m is None or m["found_by"] != p["id"] or not B.at_sea(p):
        S["stack"].pop()
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": "loot"})
        return
    merchant = MERCHANTS[m["id"]]  # its nationality, size and cargo
    if step == "roll_cargo":
        f["step"] = "cargo_result"
        B.roll_own(S, rng, ev, f, p["id"], 1, "cargo")
    elif step == "cargo_result":  # Cargo Table (published); Notoriety = Cargo rating
        r = max(1, min(10, f["dice"][0] + merchant["cargo"]))
        col = CARGO["columns"].index(AREAS[p["area"]]["cargo"]) if p["area"] in AREAS else 0
        amount = CARGO["rows"][r - 1][col]
        ev.append({"type": "cargo", "pirate": p["id"], "row": r, "doubloons": amount})
        mark = CARGO["loyalty"][r - 1]
        if mark:
            B.loyalty(S, ev, p, mark, "cargo_star" if mark < 0 else "cargo_double_star")
        if not (f.get("take", True) and B.stow(ev, p, amount, "cargo")):
            B.loyalty(S, ev, p, LOY["decline_cargo"], "decline_cargo")
        B.notoriety(ev, p, NOTO["loot"] * merchant["cargo"], "loot")
        f["cargo_taken"] = True
        f["step"] = "hostage_result"
        B.roll_own(S, rng, ev, f, p["id"], 1, "hostage")
    elif step == "hostage_result":
        f["step"] = "hostage_answer"
        if f["dice"][0] >= COST["hostage_on"] and S["hostage_pool"]:
            h = S["hostage_pool"].pop(rng.randrange(len(S["hostage_pool"])))
            f["hostage"] = h
            ev.append({"type": "hostage", "pirate": p["id"], "hostage": h})
            S["stack"].append(
                {"kind": "hostage", "seat": p["owner"], "pirate": p["id"], "hostage": h}
            )
    elif step == "hostage_answer":
        f["step"] = "ask_convert"
        if f.get("hostage_choice") == "torture":
            f["step"] = "torture_result"
            B.roll_own(S, rng, ev, f, p["id"], 1, "torture")
        elif f.get("hostage_choice") == "ransom":
            p["hostages"].append(f["hostage"])
    elif step == "torture_result":  # Q14: success on 1d6 <= Cruelty (or > Cruelty)
        h = HOSTAGES[f["hostage"]]
        cru = PIRATES[p["id"]]["cruelty"]
        le = S["options"]["torture_rule"] == "le_cruelty"
        ok = f["dice"][0] <= cru if le else f["dice"][0] > cru
        ev.append({"type": "torture", "pirate": p["id"], "hostage": f["hostage"], "success": ok})
        if ok:
            p["information"] += h["info"]
        S["dead_hostages"].append(f["hostage"])
        B.notoriety(ev, p, NOTO["torture"] * h["value"], "torture")
        B.loyalty(S, ev, p, LOY["torture"], "torture")
        f["step"] = "ask_convert"
    elif step == "ask_convert":
        f["step"] = "convert_answer"  # step 3: optional for any merchant (clears damage)
        S["stack"].append({"kind": "convert", "seat": p["owner"], "pirate": p["id"],
                           "size": merchant["size"]})
    elif step == "convert_answer":
        if f.get("convert"):
            f["step"] = "convert_result"
            anti.open_window(S, p["id"], "convert")  # errata A11
        else:
            f["step"] = "remove"
    elif step == "convert_result":  # 8.5: the merchant becomes the pirate's ship
        new = merchant["size"] - 1
        if new != p["ship"]:
            bigger = new > p["ship"]
            B.loyalty(S, ev, p, LOY["larger_ship"] if bigger else LOY["smaller_ship"],
                      "larger_ship" if bigger else "smaller_ship")
        p["ship"], p["speed"], p["combat"] = new, SHIPS[new]["speed"], SHIPS[new]["combat"]
        keep = sorted(p["holds"], reverse=True)[:SHIPS[new]["holds"]]
        lost = sum(p["holds"]) - sum(keep)
        p["holds"] = keep
        ev.append({"type": "converted", "pirate": p["id"], "ship": new, "booty_lost": lost})
        f["step"] = "remove"
    elif step == "remove":
        S["stack"].pop()
        B.remove_merchant(S, ev, m["slot"])
        p["may_declare_dr"] = True  # D.2.7: D&R may be declared at once after a loot


def _attack_port(S: State, f: FrameDict, p: PirateDict, rng: random.Random,
                 ev: Events) -> None:
    port = PORTS[f["port"]]
    if f["step"] == "start":
        f["step"] = "roll"
        anti.open_window(S, p["id"], "attack_port")
    elif not B.at_sea(p) or p["area"] != port["area"]:
        S["stack"].pop()
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": "attack_port"})
    elif f["step"] == "roll":
        d = B.dice(rng, 2)
        f["opponent_total"] = sum(d) + port["defense"]
        ev.append({"type": "roll", "why": "port_defense", "port": f["port"], "dice": d,
                   "total": f["opponent_total"]})
        f["step"] = "result"
        B.roll_own(S, rng, ev, f, p["id"], 2, "attack_port")
    else:
        S["stack"].pop()
        mine = sum(f["dice"]) + PIRATES[p["id"]]["ability"] + p["combat"] + anti.heavy_guns(p)
        ok = mine > f["opponent_total"]
        ev.append({"type": "port_attack", "pirate": p["id"], "port": f["port"], "total": mine,
                   "defense": f["opponent_total"], "success": ok})
        if ok:
            B.notoriety(ev, p, NOTO["port_attack"] * port["value"], "port_attack")
            B.loyalty(S, ev, p, LOY["port_attack"], "port_attack")
            B.stow(ev, p, port["value"] * COST["attack_booty_per_value"], "port_attack")
            p["port"], p["sack_opportunity"] = f["port"], f["port"]
        else:
            B.combat_damage(S, ev, p, 1, "port_attack")


def _sack(S: State, f: FrameDict, p: PirateDict, rng: random.Random,
          ev: Events) -> None:
    if f["step"] == "start":
        f["step"] = "roll"
        anti.open_window(S, p["id"], "sack")
    elif p["sack_opportunity"] is None or p["sack_opportunity"] != p["port"] or B.in_dr(p):
        S["stack"].pop()  # errata A4: a D&R card before the sack took the chance away
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": "sack"})
    elif f["step"] == "roll":
        f["step"] = "result"
        B.roll_own(S, rng, ev, f, p["id"], 1, "sack")
    else:
        S["stack"].pop()
        port = PORTS[p["port"]]
        ok = f["dice"][0] + PIRATES[p["id"]]["cruelty"] >= COST["sack_target"]
        ev.append({"type": "sack", "pirate": p["id"], "port": p["port"], "success": ok})
        p["sack_opportunity"] = None
        if ok:
            B.notoriety(ev, p, NOTO["port_sack"] * port["value"], "port_sack")
            B.loyalty(S, ev, p, LOY["port_sack"], "port_sack")
            B.stow(ev, p, port["value"] * COST["sack_booty_per_value"], "port_sack")


def net_worth(ev: Events, p: PirateDict, delta: int, why: str, booty: int = 0) -> None:
    """Every change of Net Worth is an event (``booty``: doubloons taken from the holds)."""
    p["net_worth"] += delta
    ev.append({"type": "net_worth", "pirate": p["id"], "delta": delta, "now": p["net_worth"],
               "why": why, "booty": booty})


def _port_action(S: State, f: FrameDict, p: PirateDict, rng: random.Random,
                 ev: Events) -> None:
    if f["step"] == "start":
        f["step"] = "result"
        f["port_at_start"] = p["port"]
        anti.open_window(S, p["id"], "port")
        return
    if p["port"] is None or p["port"] != f["port_at_start"]:
        S["stack"].pop()
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": f["action"]})
        return
    a, port = f["action"], p["port"]
    if a == "bribe":
        if f["step"] == "result":
            net_worth(ev, p, -COST["bribe"], "bribe")
            f["step"] = "bribe_result"
            B.roll_own(S, rng, ev, f, p["id"], 2, "bribe")
            return
        S["stack"].pop()
        ok = sum(f["dice"]) <= COST["bribe_target"]
        ev.append({"type": "bribe", "pirate": p["id"], "success": ok})
        if ok:
            B.leave_map(S, ev, p, "retired", "bribe")
        else:
            B.loyalty(S, ev, p, LOY["bribe_failed"], "bribe_failed")
        return
    S["stack"].pop()
    if a == "convert_booty":
        full = B.pirate_port(port) or B.has_pro(S, port)
        rate = 100 if full else COST["convert_rate_elsewhere"]
        total = B.booty(p)
        p["holds"] = []
        net_worth(ev, p, total * rate // 100, "convert_booty", booty=total)
    elif a == "ransom":
        value = sum(HOSTAGES[h]["value"] for h in p["hostages"]) * COST["ransom_per_value"]
        S["hostage_pool"].extend(p["hostages"])
        p["hostages"] = []
        net_worth(ev, p, value, "ransom")
    elif a == "refit":
        base = SHIPS[p["ship"]]
        if B.pirate_port(port):
            p["speed"], p["combat"] = base["speed"], base["combat"]
        else:
            p["speed"], p["combat"] = (
                min(base["speed"], p["speed"] + 1),
                min(base["combat"], p["combat"] + 1),
            )
        ev.append({"type": "refit", "pirate": p["id"], "speed": p["speed"], "combat": p["combat"]})
    elif a == "recover":
        p["scurvy"] = False
        ev.append({"type": "recovered", "pirate": p["id"]})
    elif a == "buy_haven":
        net_worth(ev, p, -COST["safe_haven"], "buy_haven")
        p["safe_haven"], p["safe_haven_turn"] = port, S["player_turns"]
    elif a == "retire_haven":
        B.leave_map(S, ev, p, "retired", "safe_haven")


STEPS = {"move": _move, "find": _find, "loot": _loot, "attack_port": _attack_port,
         "sack": _sack, **{a: _port_action for a in PORT_ACTIONS}}
