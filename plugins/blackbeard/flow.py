"""The Player-Turn as decision points (BB-S D.2.3) and the frame machine.

``state["stack"]`` holds the procedures in progress, innermost last. A frame whose
kind is in :data:`DECISIONS` waits for one seat; any other frame is a step that
:func:`advance` runs at once. After every action the stack is advanced until a
decision is on top (or the game is over), so ``game_to_act`` only reads the top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction

from . import anti, pirate
from . import board as B
from .data import COST, HAND, PORTS, RAW, SEA

if TYPE_CHECKING:
    import random

State = dict[str, Any]
Events = list[dict[str, Any]]
DECISIONS = ("setup", "main", "win", "flee", "cun", "hostage", "convert", "pardon",
             "new_captain", "discard")


def start_game(S: State) -> None:
    """Each player deploys one pirate, in turn order (D.2.2 step 4); then turn 1."""
    S["stack"] = [{"k": "start", "st": "begin"}]
    for seat in reversed(S["order"]):
        S["stack"].append({"k": "setup", "seat": seat})


def seat_of(S: State, f: dict[str, Any]) -> int:
    if f["k"] == "main":
        return S["order"][S["turn"]]
    if f["k"] == "win":
        return f["q"][f["i"]]
    if f["k"] == "pardon":
        return f["q"][0]
    return f["seat"]


def to_act(S: State) -> list[int]:
    if S["over"] or not S["stack"]:
        return []
    return [seat_of(S, S["stack"][-1])]


def legal(S: State, seat: int) -> list[dict[str, Any]]:
    if seat not in to_act(S):
        return []
    f = S["stack"][-1]
    k = f["k"]
    if k == "setup":
        return [{"type": "deploy", "pirate": pid, "area": a} for pid in B.reserve(S, seat)
                for a in SEA]
    if k == "main":
        return pirate.main_actions(S, seat)
    if k == "win":
        return anti.options(S, seat, f)
    if k == "flee":
        return [{"type": "fight"}, {"type": "escape"}]
    if k == "cun":
        return [{"type": "keep"}, {"type": "reroll"}]
    if k == "hostage":
        return [{"type": "ransom"}, {"type": "torture"}]
    if k == "convert":
        return [{"type": "convert", "yes": True}, {"type": "convert", "yes": False}]
    if k == "pardon":
        return [*({"type": "retire", "pirate": pid} for pid in pardonable(S, seat)),
                {"type": "done"}]
    if k == "new_captain":
        return [*({"type": "captain", "pirate": pid} for pid in B.reserve(S, seat)),
                {"type": "captain", "pirate": None}]
    if k == "discard":
        return [{"type": "discard", "card": c} for c in S["hands"][seat]]
    raise AssertionError(k)


def pardonable(S: State, seat: int) -> list[int]:
    """General Pardon (2nd play): pirates in an English non-Pirate port."""
    return [pid for pid in B.active(S, seat) if S["pir"][pid]["port"] is not None
            and PORTS[S["pir"][pid]["port"]]["nationality"] == "ENG"]


def apply(S: State, seat: int, a: dict[str, Any], rng: random.Random) -> Events:
    if S["over"] or seat not in to_act(S):
        raise IllegalAction("it is not your decision")
    f = S["stack"][-1]
    ev: Events = []
    if f["k"] == "win":
        anti.apply_window(S, seat, f, a, rng, ev)
    elif f["k"] == "main":
        pirate.apply_main(S, seat, a, rng, ev)
    else:
        if a not in legal(S, seat):
            raise IllegalAction(f"{a!r} is not one of your choices now")
        _decide(S, seat, f, a, rng, ev)
    advance(S, rng, ev)
    return ev


def _decide(S: State, seat: int, f: dict[str, Any], a: dict[str, Any], rng: random.Random,
            ev: Events) -> None:
    k, t = f["k"], a["type"]
    stack = S["stack"]
    if k == "setup":
        stack.pop()
        B.launch(S, a["pirate"], a["area"])
        ev.append({"type": "deployed", "seat": seat, "pirate": a["pirate"], "area": a["area"]})
    elif k == "flee":
        stack.pop()
        stack[-1]["esc"] = t == "escape"
        ev.append({"type": "flee" if t == "escape" else "stand", "pirate": f["pid"]})
    elif k == "cun":  # errata A5: the whole roll again, once, Cunning spent for good
        stack.pop()
        if t == "reroll":
            p = S["pir"][f["pid"]]
            p["cun"] -= 1
            d = B.dice(rng, f["n"])
            ev.append({"type": "roll", "why": f["why"], "pirate": f["pid"], "dice": d,
                       "reroll": True, "cunning_left": p["cun"]})
            stack[-1][f["key"]] = d
    elif k == "hostage":
        stack.pop()
        stack[-1]["hc"] = t
        ev.append({"type": t, "pirate": f["pid"], "hostage": f["h"]})
    elif k == "convert":
        stack.pop()
        stack[-1]["conv"] = a["yes"]
    elif k == "pardon":
        if t == "done":
            f["q"].pop(0)
        else:
            B.leave_map(S, ev, S["pir"][a["pirate"]], "retired", "general_pardon")
        _skip_pardon(S, f)
    elif k == "new_captain":
        stack.pop()
        old = S["pir"][f["pid"]]
        if a["pirate"] is None:
            B.leave_map(S, ev, old, "dead", "marooned")
        else:
            new = S["pir"][a["pirate"]]
            anti.transfer(S, ev, old, new, "mutiny")
            B.loyalty(S, ev, new, RAW["loyalty"]["mutiny_reset"] - new["loy"], "mutiny_reset")
    elif k == "discard":  # errata A1: Pirate cards are not in the hand
        S["hands"][seat].remove(a["card"])
        B.discard(S, a["card"])
        ev.append({"type": "discarded", "seat": seat, "card": B.ctype(a["card"])})
        if len(S["hands"][seat]) <= HAND:
            stack.pop()


def _skip_pardon(S: State, f: dict[str, Any]) -> None:
    while f["q"] and not pardonable(S, f["q"][0]):
        f["q"].pop(0)
    if not f["q"]:
        S["stack"].remove(f)


def advance(S: State, rng: random.Random, ev: Events) -> None:
    """Run automatic steps until a seat must decide or the game is over."""
    stack = S["stack"]
    while not S["over"]:
        f = stack[-1]
        k = f["k"]
        if k == "win":
            if _window_ready(S, f):
                return
            continue
        if k in DECISIONS:
            return
        if k == "act":
            pirate.step_act(S, f, rng, ev)
        elif k == "fight":
            anti.step_fight(S, f, rng, ev)
        elif k == "evt":
            anti.step_evt(S, f, rng, ev)
        elif k == "start":
            _step_start(S, f, rng, ev)
        elif k == "end":
            _step_end(S, f, rng, ev)
        else:
            raise AssertionError(k)


def _window_ready(S: State, w: dict[str, Any]) -> bool:
    """True if the polled seat has a choice; otherwise skip it (or close the window)."""
    a = anti.act_frame(S)
    if a is not None and a.get("cancel") and a["pid"] == w["pid"] and not w["own"]:
        S["stack"].pop()
        return False
    while w["i"] < len(w["q"]):
        if anti.options(S, w["q"][w["i"]], w):
            return True
        w["i"] += 1
    S["stack"].pop()
    return False


def _step_start(S: State, f: dict[str, Any], rng: random.Random, ev: Events) -> None:
    seat = S["order"][S["turn"]]
    if f["st"] == "begin":
        S["turn_no"] += 1
        S["T"] = {"card": False, "act": 0, "lock": None, "ap_used": [False] * S["n"],
                  "kc_ap": False, "kc_ap_seats": [], "ev_types": []}
        ev.append({"type": "turn", "seat": seat, "turn": S["turn_no"]})
        f["st"] = "draw"
    elif f["st"] == "draw":  # 1. draw to 4; Must-Play-Immediately cards resolve at once
        while len(S["hands"][seat]) < HAND:
            c = B.draw_card(S, rng)
            if c is None:
                break
            if B.kind(c) == "mpi":
                _mpi(S, seat, c, rng, ev)
                return  # it may have pushed frames, or ended the game
            S["hands"][seat].append(c)
            S["hands"][seat].sort()
            ev.append({"type": "drew", "seat": seat, "card": c, "to": [seat]})
            ev.append({"type": "drew_hidden", "seat": seat})
        f["st"] = "merchants"
    elif f["st"] == "merchants":  # 2. fewer than 5 merchants: bring them up to 6
        if len(S["mer"]) < RAW["merchant_low"]["value"]:
            while len(S["mer"]) < RAW["merchant_refill"]["value"] and S["mpool"]:
                B.place_merchant(S, rng, ev)
        f["st"] = "upkeep"
    elif f["st"] == "upkeep":  # 3. scurvy, then mutiny checks at Loyalty <= 2
        S["stack"].pop()
        S["stack"].append({"k": "main"})
        for pid in B.active(S, seat):
            p = S["pir"][pid]
            if p["scurvy"]:
                B.loyalty(S, ev, p, RAW["loyalty"]["scurvy"], "scurvy")
        for pid in reversed(B.active(S, seat)):
            if S["pir"][pid]["loy"] <= COST["mutiny_check_at"]:
                S["stack"].append({"k": "evt", "e": "mutiny", "pid": pid, "st": "roll"})


def _mpi(S: State, seat: int, c: int, rng: random.Random, ev: Events) -> None:
    t = B.ctype(c)
    B.discard(S, c)
    ev.append({"type": "mpi", "seat": seat, "card": t})
    if t == "general_pardon":
        S["pardons"] += 1
        ev.append({"type": "general_pardon", "count": S["pardons"], "pass": S["pass_no"]})
        if S["pardons"] == 2:
            n, turn = S["n"], S["turn"]
            q = [S["order"][(turn + i) % n] for i in range(n)]
            f = {"k": "pardon", "q": q}
            S["stack"].append(f)
            _skip_pardon(S, f)
        elif S["pardons"] >= 3:
            finish(S, ev, "third_general_pardon")
    elif t == "merchant_fleet":
        for _ in range(COST["merchant_fleet_count"]):
            B.place_merchant(S, rng, ev)
    elif t == "hurricane_season":
        for p in S["pir"]:
            if p["st"] == "map" and p["area"] not in SEA:
                S["stack"].append({"k": "evt", "e": "storm", "pid": p["id"], "st": "roll"})


def _step_end(S: State, f: dict[str, Any], rng: random.Random, ev: Events) -> None:
    seat = S["order"][S["turn"]]
    if f["st"] == "clear":
        for p in S["pir"]:
            p["sack"], p["dr_ok"], p["sailho"] = None, False, 0
        for m in S["mer"]:
            m["found"] = None
        for pid in B.active(S, seat):  # 5. D&R markers come off after a full turn out
            p = S["pir"][pid]
            if p["dr"] is not None and p["dr"] < S["turn_no"]:
                p["dr"] = None
                ev.append({"type": "dr_over", "pirate": pid})
        f["st"] = "phase6"
        if S["opt"]["phase6_mode"] == "hand_limit" and len(S["hands"][seat]) > HAND:
            S["stack"].append({"k": "discard", "seat": seat})
    else:  # 6. a player with no pirate at all draws a Pirate card into his reserve
        S["stack"].pop()
        if not B.active(S, seat) and not B.reserve(S, seat) and S["pdeck"]:
            pid = S["pdeck"].pop(rng.randrange(len(S["pdeck"])))
            S["pir"][pid].update(owner=seat, st="reserve")
            ev.append({"type": "pirate_dealt", "seat": seat, "pirate": pid})
        if S["turn_no"] >= S["opt"]["max_turns"]:
            finish(S, ev, "max_turns")
            return
        S["turn"] = (S["turn"] + 1) % S["n"]
        S["stack"].append({"k": "start", "st": "begin"})


def finish(S: State, ev: Events, why: str) -> None:
    S["over"], S["end_why"], S["stack"] = True, why, []
    ev.append({"type": "game_over", "why": why})


def scores(S: State) -> dict[str, Any]:
    """D.2.12: retired = Notoriety + Net Worth / 100; eliminated or still at sea =
    Notoriety; plus the AP VP ledger. Ties: Net Worth of retired pirates."""
    n = S["n"]
    pts, worth = list(S["vp"]), [0] * n
    for p in S["pir"]:
        if p["owner"] is None or p["st"] in ("deck", "reserve"):
            continue
        pts[p["owner"]] += p["noto"] + p["bonus"]
        if p["st"] == "retired":
            pts[p["owner"]] += p["nw"] // 100
            worth[p["owner"]] += p["nw"]
    key = [(pts[s], worth[s]) for s in range(n)]
    rank = [1 + sum(1 for o in key if o > key[s]) for s in range(n)]
    return {"scores": pts, "rank": rank,
            "detail": {"ap_vp": list(S["vp"]), "retired_net_worth": worth,
                       "ended": S["end_why"]}}


def conservation(S: State) -> dict[str, int]:
    """Counts that the rules conserve (tests check them after every action)."""
    attached = sum(len(p["hg"]) for p in S["pir"])
    hands = sum(len(h) for h in S["hands"])
    held = sum(len(p["host"]) for p in S["pir"])
    return {"cards": len(S["deck"]) + hands + len(S["disc"]) + len(S["gone"]) + attached
            + len(S["held_pardons"]),
            "merchants": len(S["mer"]) + len(S["mpool"]),
            "warships": len(S["ws"]) + len(S["wpool"]),
            "kcs": len(S["kc"]) + len(S["kpool"]) + len(S["kc_out"]),
            "hostages": len(S["hpool"]) + held + len(S["dead_hostages"]) + _pending_hostage(S),
            "pirates": len(S["pir"]),
            "anti_governors": S["anti_pool"] + sum(g == "anti" for g in S["gov"]),
            "ships_at_sea": sum(1 for p in S["pir"] if p["st"] in ("map", "adrift"))}


def _pending_hostage(S: State) -> int:
    """A hostage just drawn and not yet ransomed or tortured."""
    return sum(1 for f in S["stack"] if f["k"] == "act" and "h" in f and f["st"] == "torture"
               or f["k"] == "act" and "h" in f and f["st"] == "torture_res")

