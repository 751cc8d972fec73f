"""The pirate player's side: his card plays and the pirate actions (BB-S D.2.4).

Each pirate action is an ``act`` frame run step by step by :func:`step_act`: the
steps that roll stop for a possible Cunning re-roll (errata A5), and the steps that
the AP players may interrupt open an AP window first (``anti.open_window``), so an
escape or a lost battle can cancel the action between two steps (errata A14, A28).
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

if TYPE_CHECKING:
    import random

State = dict[str, Any]
Events = list[dict[str, Any]]
PIRATE_EVENTS = ("fair_winds", "sail_ho", "bold_captain", "heavy_guns", "letter_of_marque",
                 "piratical_ambition")
PORT_ACTIONS = ("convert_booty", "ransom", "refit", "recover", "buy_haven", "retire_haven",
                "bribe")


def move_cost(p: dict[str, Any]) -> int:
    """One Action a step; two when the ship's Speed is below 0 (C.4 A)."""
    return 2 if p["spd"] < 0 else 1


def destinations(S: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    """One Move step: port -> its Sea Area; at sea -> neighbours, then the area's ports
    (not a non-Pirate port with an Anti-Pirate Governor, module G)."""
    if p["port"] is not None:
        return [{"to": p["area"]}]
    out = [{"to": w} for w in neighbours(p["area"])]
    if p["area"] in AREAS:
        out += [{"to": p["area"], "port": i} for i in PORTS_IN[p["area"]]
                if S["gov"][i] != "anti"]
    return out


def can_act(S: State, p: dict[str, Any]) -> bool:
    lock = S["T"]["lock"]
    return p["st"] == "map" and not B.in_dr(p) and (lock is None or lock == p["id"])


def pirate_actions(S: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    """One pirate's actions: move, find, loot, attack_port, sack, port actions.
    There is no action to attack a warship or a KC (errata A16, A20)."""
    T, pid = S["T"], p["id"]
    out: list[dict[str, Any]] = []
    if T["act"] >= move_cost(p):
        out += [{"type": "move", "pirate": pid, **d} for d in destinations(S, p)]
    if T["act"] < 1:
        return out
    if B.at_sea(p):
        out += [{"type": "find", "pirate": pid, "slot": m["slot"]} for m in S["mer"]
                if m["area"] == p["area"] and m["found"] is None]
        out += [{"type": "loot", "pirate": pid, "slot": m["slot"]} for m in S["mer"]
                if m["area"] == p["area"] and m["found"] == pid]
        if p["area"] in AREAS:
            out += [{"type": "attack_port", "pirate": pid, "port": i}
                    for i in PORTS_IN[p["area"]] if not B.pirate_port(i)]
        return out
    port = p["port"]
    if p["sack"] == port:
        out.append({"type": "sack", "pirate": pid})
    pp = B.pirate_port(port)
    ok = {"convert_booty": bool(p["hold"]),
          "ransom": not pp and bool(p["host"]),
          "refit": p["spd"] < SHIPS[p["ship"]]["speed"] or p["cmb"] < SHIPS[p["ship"]]["combat"],
          "recover": p["scurvy"],
          "buy_haven": pp and p["haven"] is None and p["nw"] >= COST["safe_haven"],
          "retire_haven": p["haven"] == port and p["haven_turn"] < S["turn_no"],
          "bribe": not pp and p["nw"] >= COST["bribe"] and S["gov"][port] != "anti"}
    out += [{"type": a, "pirate": pid} for a in PORT_ACTIONS if ok[a]]
    return out


def _own_targets(S: State, seat: int) -> list[int]:
    return [pid for pid in B.active(S, seat) if S["pir"][pid]["st"] == "map"]


def card_plays(S: State, seat: int, only: Any = None) -> list[dict[str, Any]]:
    """Card plays allowed now (errata A2: none while Actions remain; one Action card a
    turn; an Action and Event card is the Action card, A7). By card id; ``only``: just
    the plays of that card."""
    T = S["T"]
    if T["act"] > 0:
        return []
    out: list[dict[str, Any]] = []
    seen: list[str] = []
    mine = _own_targets(S, seat)
    for c in S["hands"][seat]:
        t = B.ctype(c)
        if t in seen or (only is not None and c != only):
            continue
        seen.append(t)
        info = CARD_TYPES[t]
        if not T["card"] and info["kind"] == "action_event":
            out += _ae_plays(S, seat, c, t, mine)
        elif not T["card"] and info["action"] > 0:
            out.append({"type": "play_actions", "card": c})
        elif not T["card"] and info["action"] < 0:  # diamond: the pirate's Initiative
            out += [{"type": "play_actions", "card": c, "pirate": pid} for pid in mine
                    if not B.in_dr(S["pir"][pid])]
        if t in PIRATE_EVENTS:
            out += _event_plays(S, seat, c, t, mine)
    return out


def _ae_plays(S: State, seat: int, c: int, t: str, mine: list[int]) -> list[dict[str, Any]]:
    base = {"type": "play_ae", "card": c}
    if t == "commission_orders":
        kcs = [k for k in S["kc"] if k["owner"] == seat]
        plays = [{**base, "kc": k["kc"], "to": a} for k in kcs
                 for a in reachable(k["area"], COST["commission_orders_moves"])]
        return plays or [base]
    if t == "rumour_of_treasure":
        return [{**base, "area": a} for a in SEA] if S["mpool"] else [base]
    return [{**base, "pirate": pid} for pid in mine] or [base]


def _event_plays(S: State, seat: int, c: int, t: str, mine: list[int]) -> list[dict[str, Any]]:
    base = {"type": "play_event", "card": c}
    ps = [S["pir"][pid] for pid in mine]
    if t == "fair_winds":
        return [{**base, "pirate": p["id"], **d} for p in ps if not B.in_dr(p)
                for d in destinations(S, p)]
    if t in ("sail_ho", "bold_captain"):
        return [{**base, "pirate": p["id"]} for p in ps]
    if t == "heavy_guns":
        return [{**base, "pirate": p["id"]} for p in ps if not p["hg"]]
    if t == "letter_of_marque":
        return [{**base, "pirate": p["id"]} for p in ps
                if p["port"] is not None and not B.pirate_port(p["port"])]
    if t == "piratical_ambition":
        foes = [q["id"] for q in S["pir"] if q["st"] == "map" and q["owner"] != seat
                and q["port"] is None]
        return [{**base, "pirate": r, "target": f} for r in B.reserve(S, seat) for f in foes]
    return []


def main_actions(S: State, seat: int) -> list[dict[str, Any]]:
    """The phasing player's choices, in this order: card plays (by card id), deploy
    (by pirate, then Sea Area), each pirate's actions (by pirate id), D&R
    declarations, ``end_actions`` (forfeit, Q2), ``end_turn``."""
    T = S["T"]
    out = card_plays(S, seat)
    if len(B.active(S, seat)) < B.displays(S):
        out += [{"type": "deploy", "pirate": pid, "area": a} for pid in B.reserve(S, seat)
                for a in SEA]
    for pid in B.active(S, seat):
        p = S["pir"][pid]
        if can_act(S, p):
            out += pirate_actions(S, p)
    for pid in B.active(S, seat):
        p = S["pir"][pid]
        if not B.in_dr(p) and (p["port"] is not None or p["dr_ok"]):
            out.append({"type": "declare_dr", "pirate": pid})
    if T["act"] > 0 and S["opt"]["allow_forfeit_actions"]:
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
    T = S["T"]
    t = a["type"]
    if t == "end_turn":
        ev.append({"type": "end_turn", "seat": seat, "forfeit": T["act"]})
        T["act"] = 0
        S["stack"][-1] = {"k": "end", "st": "clear"}
        return
    if t == "end_actions":
        ev.append({"type": "actions_forfeited", "seat": seat, "n": T["act"]})
        T["act"], T["lock"] = 0, None
        return
    if t == "deploy":
        B.launch(S, a["pirate"], a["area"])
        S["pir"][a["pirate"]]["owner"] = seat
        ev.append({"type": "deployed", "seat": seat, "pirate": a["pirate"], "area": a["area"]})
        return
    if t == "declare_dr":
        anti.declare_dr(S, ev, S["pir"][a["pirate"]], forced=False)
        return
    if t in ("play_actions", "play_ae", "play_event"):
        play_card(S, seat, a, rng, ev)
        return
    p = S["pir"][a["pirate"]]
    cost = move_cost(p) if t == "move" else 1
    T["act"] -= cost
    if T["act"] == 0:
        T["lock"] = None
    p["dr_ok"] = False
    ev.append({"type": "action", "seat": seat, "action": t, "pirate": p["id"], "cost": cost,
               "left": T["act"]})
    f = {"k": "act", "a": t, "pid": p["id"], "st": "start", "used": [], "icpt": False}
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
    if type(pid) is not int or not 0 <= pid < len(S["pir"]):
        return False
    p = S["pir"][pid]
    return p["owner"] == seat and can_act(S, p) and a in pirate_actions(S, p)


def _why_not(S: State, seat: int, a: dict[str, Any]) -> str:
    t = a.get("type")
    if t in ("play_actions", "play_ae", "play_event") and S["T"]["act"] > 0:
        return ("finish (or forfeit) the Actions of your Action card before playing another "
                "card (4.4)")
    if t in ("play_actions", "play_ae") and S["T"]["card"]:
        return "only one card per Player-Turn may be played for Actions (4.4)"
    return f"{a!r} is not a legal action now"


def play_card(S: State, seat: int, a: dict[str, Any], rng: random.Random, ev: Events) -> None:
    T = S["T"]
    c = a["card"]
    t = B.ctype(c)
    S["hands"][seat].remove(c)
    if a["type"] in ("play_actions", "play_ae"):
        n = CARD_TYPES[t]["action"]
        if n < 0:
            n = PIRATES[a["pirate"]]["initiative"]
            T["lock"] = a["pirate"]
        T["card"], T["act"] = True, n
        ev.append({"type": "card_for_actions", "seat": seat, "card": t, "actions": n,
                   "pirate": a.get("pirate")})
    if a["type"] == "play_ae":  # errata A7: the Event is carried out too
        B.discard(S, c)
        if t == "commission_orders" and "kc" in a:
            k = next(k for k in S["kc"] if k["kc"] == a["kc"])
            ev.append({"type": "kc_moved", "seat": seat, "kc": k["kc"], "from": k["area"],
                       "dest": a["to"], "why": "commission_orders"})
            k["area"] = a["to"]
        elif t == "rumour_of_treasure" and "area" in a:
            B.place_merchant(S, rng, ev, a["area"])
        elif t == "press_gang" and "pirate" in a:
            B.loyalty(S, ev, S["pir"][a["pirate"]], COST["press_gang_loyalty"], "press_gang")
        else:
            ev.append({"type": "event_no_target", "card": t})
        return
    if a["type"] == "play_actions":
        B.discard(S, c)
        return
    p = S["pir"][a["pirate"]]
    ev.append({"type": "pirate_event", "seat": seat, "card": t, "pirate": p["id"]})
    if t == "heavy_guns":  # errata A8: kept on the Pirate Display
        p["hg"].append(c)
        return
    if t == "letter_of_marque":  # errata A9: never returns to the deck
        S["gone"].append(c)
        B.leave_map(S, ev, p, "retired", "letter_of_marque")
        return
    B.discard(S, c)
    if t == "fair_winds":
        f = {"k": "act", "a": "move", "pid": p["id"], "st": "start", "to": a["to"], "free": True,
             "used": [], "icpt": False}
        if "port" in a:
            f["port"] = a["port"]
        S["stack"].append(f)
    elif t == "sail_ho":
        p["sailho"] += COST["sail_ho_bonus"]
    elif t == "bold_captain":
        B.loyalty(S, ev, p, COST["bold_captain_loyalty"], "bold_captain")
    elif t == "piratical_ambition":
        S["stack"].append({"k": "evt", "e": "duel", "pid": a["pirate"], "target": a["target"],
                           "st": "roll"})


# -- the steps of an action ------------------------------------------------------------


def step_act(S: State, f: dict[str, Any], rng: random.Random, ev: Events) -> None:
    p = S["pir"][f["pid"]]
    if f.get("cancel") or p["st"] != "map":
        S["stack"].pop()
        return
    STEPS[f["a"]](S, f, p, rng, ev)


def _move(S: State, f: dict[str, Any], p: dict[str, Any], rng: random.Random,
          ev: Events) -> None:
    if f["st"] == "start":
        f["st"] = "end"
        left = p["port"] is not None
        ev.append({"type": "moved", "pirate": p["id"], "from": p["area"], "from_port": p["port"],
                   "dest": f["to"], "port": f.get("port"), "free": f.get("free", False)})
        p["area"], p["port"] = f["to"], f.get("port")
        anti.open_window(S, p["id"], "leave_port" if left else "move")
    else:
        S["stack"].pop()


def _find(S: State, f: dict[str, Any], p: dict[str, Any], rng: random.Random,
          ev: Events) -> None:
    m = B.merchant(S, f["slot"])
    if f["st"] == "start":
        f["st"] = "roll"
        anti.open_window(S, p["id"], "find")
    elif m is None or m["area"] != p["area"] or not B.at_sea(p) or m["found"] is not None:
        S["stack"].pop()
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": "find"})
    elif f["st"] == "roll":
        if f.get("slip"):
            S["stack"].pop()
            ev.append({"type": "find_failed", "pirate": p["id"], "why": "merchant_slips_away"})
            return
        f["bonus"] = p["sailho"] + min(1, p["info"])
        p["info"] -= min(1, p["info"])
        p["sailho"] = 0
        f["st"] = "res"
        B.roll_own(S, rng, ev, f, p["id"], 1, "find")
    else:
        S["stack"].pop()
        total = f["d"][0] + PIRATES[p["id"]]["ability"] + f["bonus"]
        ok = total >= COST["find_target"]
        if ok:
            m["up"], m["found"] = True, p["id"]
        ev.append({"type": "found_merchant" if ok else "find_failed", "pirate": p["id"],
                   "total": total, "slot": m["slot"],
                   "merchant": m["id"] if ok else None})


def _loot(S: State, f: dict[str, Any], p: dict[str, Any], rng: random.Random,
          ev: Events) -> None:
    m = B.merchant(S, f["slot"])
    st = f["st"]
    if st == "start":
        f["st"] = "cargo"
        anti.open_window(S, p["id"], "loot")
        return
    if m is None or m["found"] != p["id"] or not B.at_sea(p):
        S["stack"].pop()
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": "loot"})
        return
    mer = MERCHANTS[m["id"]]
    if st == "cargo":
        f["st"] = "cargo_res"
        B.roll_own(S, rng, ev, f, p["id"], 1, "cargo")
    elif st == "cargo_res":  # Cargo Table (published); Notoriety = Cargo rating
        r = max(1, min(10, f["d"][0] + mer["cargo"]))
        col = CARGO["columns"].index(AREAS[p["area"]]["cargo"]) if p["area"] in AREAS else 0
        amount = CARGO["rows"][r - 1][col]
        ev.append({"type": "cargo", "pirate": p["id"], "row": r, "doubloons": amount})
        mark = CARGO["loyalty"][r - 1]
        if mark:
            B.loyalty(S, ev, p, mark, "cargo_star" if mark < 0 else "cargo_double_star")
        if not (f.get("take", True) and B.stow(ev, p, amount, "cargo")):
            B.loyalty(S, ev, p, LOY["decline_cargo"], "decline_cargo")
        B.notoriety(ev, p, NOTO["loot"] * mer["cargo"], "loot")
        f["cargo_done"] = True
        f["st"] = "host_res"
        B.roll_own(S, rng, ev, f, p["id"], 1, "hostage")
    elif st == "host_res":
        f["st"] = "torture"
        if f["d"][0] >= COST["hostage_on"] and S["hpool"]:
            h = S["hpool"].pop(rng.randrange(len(S["hpool"])))
            f["h"] = h
            ev.append({"type": "hostage", "pirate": p["id"], "hostage": h})
            S["stack"].append({"k": "hostage", "seat": p["owner"], "pid": p["id"], "h": h})
    elif st == "torture":
        f["st"] = "conv_ask"
        if f.get("hc") == "torture":
            f["st"] = "torture_res"
            B.roll_own(S, rng, ev, f, p["id"], 1, "torture")
        elif f.get("hc") == "ransom":
            p["host"].append(f["h"])
    elif st == "torture_res":  # Q14: success on 1d6 <= Cruelty (or > Cruelty)
        h = HOSTAGES[f["h"]]
        cru = PIRATES[p["id"]]["cruelty"]
        le = S["opt"]["torture_rule"] == "le_cruelty"
        ok = f["d"][0] <= cru if le else f["d"][0] > cru
        ev.append({"type": "torture", "pirate": p["id"], "hostage": f["h"], "success": ok})
        if ok:
            p["info"] += h["info"]
        S["dead_hostages"].append(f["h"])
        B.notoriety(ev, p, NOTO["torture"] * h["value"], "torture")
        B.loyalty(S, ev, p, LOY["torture"], "torture")
        f["st"] = "conv_ask"
    elif st == "conv_ask":
        f["st"] = "conv_chk"
        if mer["size"] != p["ship"] + 1:
            S["stack"].append({"k": "convert", "seat": p["owner"], "pid": p["id"],
                               "size": mer["size"]})
    elif st == "conv_chk":
        if f.get("conv"):
            f["st"] = "conv_res"
            anti.open_window(S, p["id"], "convert")  # errata A11
        else:
            f["st"] = "remove"
    elif st == "conv_res":  # 8.5: the merchant becomes the pirate's ship
        new = mer["size"] - 1
        if new != p["ship"]:
            bigger = new > p["ship"]
            B.loyalty(S, ev, p, LOY["larger_ship"] if bigger else LOY["smaller_ship"],
                      "larger_ship" if bigger else "smaller_ship")
        p["ship"], p["spd"], p["cmb"] = new, SHIPS[new]["speed"], SHIPS[new]["combat"]
        keep = sorted(p["hold"], reverse=True)[:SHIPS[new]["holds"]]
        lost = sum(p["hold"]) - sum(keep)
        p["hold"] = keep
        ev.append({"type": "converted", "pirate": p["id"], "ship": new, "booty_lost": lost})
        f["st"] = "remove"
    elif st == "remove":
        S["stack"].pop()
        B.remove_merchant(S, ev, m["slot"])
        p["dr_ok"] = True  # D.2.7: D&R may be declared at once after a loot


def _attack_port(S: State, f: dict[str, Any], p: dict[str, Any], rng: random.Random,
                 ev: Events) -> None:
    port = PORTS[f["port"]]
    if f["st"] == "start":
        f["st"] = "roll"
        anti.open_window(S, p["id"], "attack_port")
    elif not B.at_sea(p) or p["area"] != port["area"]:
        S["stack"].pop()
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": "attack_port"})
    elif f["st"] == "roll":
        d = B.dice(rng, 2)
        f["ot"] = sum(d) + port["defense"]
        ev.append({"type": "roll", "why": "port_defense", "port": f["port"], "dice": d,
                   "total": f["ot"]})
        f["st"] = "res"
        B.roll_own(S, rng, ev, f, p["id"], 2, "attack_port")
    else:
        S["stack"].pop()
        mine = sum(f["d"]) + PIRATES[p["id"]]["ability"] + p["cmb"] + anti.heavy_guns(p)
        ok = mine > f["ot"]
        ev.append({"type": "port_attack", "pirate": p["id"], "port": f["port"], "total": mine,
                   "defense": f["ot"], "success": ok})
        if ok:
            B.notoriety(ev, p, NOTO["port_attack"] * port["value"], "port_attack")
            B.loyalty(S, ev, p, LOY["port_attack"], "port_attack")
            B.stow(ev, p, port["value"] * COST["attack_booty_per_value"], "port_attack")
            p["port"], p["sack"] = f["port"], f["port"]
        else:
            B.combat_damage(S, ev, p, 1, "port_attack")


def _sack(S: State, f: dict[str, Any], p: dict[str, Any], rng: random.Random,
          ev: Events) -> None:
    if f["st"] == "start":
        f["st"] = "roll"
        anti.open_window(S, p["id"], "sack")
    elif p["sack"] is None or p["sack"] != p["port"] or B.in_dr(p):
        S["stack"].pop()  # errata A4: a D&R card before the sack took the chance away
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": "sack"})
    elif f["st"] == "roll":
        f["st"] = "res"
        B.roll_own(S, rng, ev, f, p["id"], 1, "sack")
    else:
        S["stack"].pop()
        port = PORTS[p["port"]]
        ok = f["d"][0] + PIRATES[p["id"]]["cruelty"] >= COST["sack_target"]
        ev.append({"type": "sack", "pirate": p["id"], "port": p["port"], "success": ok})
        p["sack"] = None
        if ok:
            B.notoriety(ev, p, NOTO["port_sack"] * port["value"], "port_sack")
            B.loyalty(S, ev, p, LOY["port_sack"], "port_sack")
            B.stow(ev, p, port["value"] * COST["sack_booty_per_value"], "port_sack")


def net_worth(ev: Events, p: dict[str, Any], delta: int, why: str, booty: int = 0) -> None:
    """Every change of Net Worth is an event (``booty``: doubloons taken from the holds)."""
    p["nw"] += delta
    ev.append({"type": "net_worth", "pirate": p["id"], "delta": delta, "now": p["nw"],
               "why": why, "booty": booty})


def _port_action(S: State, f: dict[str, Any], p: dict[str, Any], rng: random.Random,
                 ev: Events) -> None:
    if f["st"] == "start":
        f["st"] = "res"
        f["at"] = p["port"]
        anti.open_window(S, p["id"], "port")
        return
    if p["port"] is None or p["port"] != f["at"]:
        S["stack"].pop()
        ev.append({"type": "action_fizzles", "pirate": p["id"], "action": f["a"]})
        return
    a, port = f["a"], p["port"]
    if a == "bribe":
        if f["st"] == "res":
            net_worth(ev, p, -COST["bribe"], "bribe")
            f["st"] = "bribe_res"
            B.roll_own(S, rng, ev, f, p["id"], 2, "bribe")
            return
        S["stack"].pop()
        ok = sum(f["d"]) <= COST["bribe_target"]
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
        p["hold"] = []
        net_worth(ev, p, total * rate // 100, "convert_booty", booty=total)
    elif a == "ransom":
        value = sum(HOSTAGES[h]["value"] for h in p["host"]) * COST["ransom_per_value"]
        S["hpool"].extend(p["host"])
        p["host"] = []
        net_worth(ev, p, value, "ransom")
    elif a == "refit":
        base = SHIPS[p["ship"]]
        if B.pirate_port(port):
            p["spd"], p["cmb"] = base["speed"], base["combat"]
        else:
            p["spd"], p["cmb"] = min(base["speed"], p["spd"] + 1), min(base["combat"], p["cmb"] + 1)
        ev.append({"type": "refit", "pirate": p["id"], "speed": p["spd"], "combat": p["cmb"]})
    elif a == "recover":
        p["scurvy"] = False
        ev.append({"type": "recovered", "pirate": p["id"]})
    elif a == "buy_haven":
        net_worth(ev, p, -COST["safe_haven"], "buy_haven")
        p["haven"], p["haven_turn"] = port, S["turn_no"]
    elif a == "retire_haven":
        B.leave_map(S, ev, p, "retired", "safe_haven")


STEPS = {"move": _move, "find": _find, "loot": _loot, "attack_port": _attack_port,
         "sack": _sack, **{a: _port_action for a in PORT_ACTIONS}}
