"""The Player-Turn as decision points (BB-S D.2.3) and the frame machine.

``state["stack"]`` holds the procedures in progress, innermost last. A frame whose
kind is in :data:`DECISIONS` waits for one seat; any other frame is a step that
:func:`advance` runs at once. After every action the stack is advanced until a
decision is on top (or the game is over), so ``game_to_act`` only reads the top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction

from . import anti, pirate, state
from . import board as B
from .data import COST, HAND, PORTS, RAW, SEA
from .state import Events, FrameDict, State

if TYPE_CHECKING:
    import random

DECISIONS = ("setup", "main", "ap_window", "fight_or_escape", "cunning", "hostage", "convert",
             "pardon", "new_captain", "discard")


def start_game(S: State) -> None:
    """Each player deploys one pirate, in turn order (D.2.2 step 4); then turn 1."""
    S["stack"] = [{"kind": "turn_start", "step": "begin"}]
    for seat in reversed(S["turn_order"]):
        S["stack"].append({"kind": "setup", "seat": seat})


def seat_of(S: State, f: FrameDict) -> int:
    if f["kind"] == "main":
        return S["turn_order"][S["turn_index"]]
    if f["kind"] == "ap_window":
        return f["seats"][f["polled"]]
    if f["kind"] == "pardon":
        return f["seats"][0]
    return f["seat"]


def to_act(S: State) -> list[int]:
    if S["over"] or not S["stack"]:
        return []
    return [seat_of(S, S["stack"][-1])]


def legal(S: State, seat: int) -> list[dict[str, Any]]:
    if seat not in to_act(S):
        return []
    f = S["stack"][-1]
    k = f["kind"]
    if k == "setup":
        return [{"type": "deploy", "pirate": pid, "area": a} for pid in B.reserve(S, seat)
                for a in SEA]
    if k == "main":
        return pirate.main_actions(S, seat)
    if k == "ap_window":
        return anti.options(S, seat, f)
    if k == "fight_or_escape":
        return [{"type": "fight"}, {"type": "escape"}]
    if k == "cunning":
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
    return [pid for pid in B.active(S, seat) if S["pirates"][pid]["port"] is not None
            and PORTS[S["pirates"][pid]["port"]]["nationality"] == "ENG"]


def apply(S: State, seat: int, a: dict[str, Any], rng: random.Random) -> Events:
    if S["over"] or seat not in to_act(S):
        raise IllegalAction("it is not your decision")
    f = S["stack"][-1]
    ev: Events = []
    if f["kind"] == "ap_window":
        anti.apply_window(S, seat, f, a, rng, ev)
    elif f["kind"] == "main":
        pirate.apply_main(S, seat, a, rng, ev)
    else:
        if a not in legal(S, seat):
            raise IllegalAction(f"{a!r} is not one of your choices now")
        _decide(S, seat, f, a, rng, ev)
    advance(S, rng, ev)
    return ev


def _decide(S: State, seat: int, f: FrameDict, a: dict[str, Any], rng: random.Random,
            ev: Events) -> None:
    k, t = f["kind"], a["type"]
    stack = S["stack"]
    if k == "setup":
        stack.pop()
        B.launch(S, a["pirate"], a["area"])
        ev.append({"type": "deployed", "seat": seat, "pirate": a["pirate"], "area": a["area"]})
    elif k == "fight_or_escape":
        stack.pop()
        stack[-1]["escape"] = t == "escape"
        ev.append({"type": "flee" if t == "escape" else "stand", "pirate": f["pirate"]})
    elif k == "cunning":  # errata A5: the whole roll again, once, Cunning spent for good
        stack.pop()
        if t == "reroll":
            p = S["pirates"][f["pirate"]]
            p["cunning"] -= 1
            d = B.dice(rng, f["dice_count"])
            ev.append({"type": "roll", "why": f["why"], "pirate": f["pirate"], "dice": d,
                       "reroll": True, "cunning_left": p["cunning"]})
            stack[-1][f["dice_key"]] = d
    elif k == "hostage":
        stack.pop()
        stack[-1]["hostage_choice"] = t
        ev.append({"type": t, "pirate": f["pirate"], "hostage": f["hostage"]})
    elif k == "convert":
        stack.pop()
        stack[-1]["convert"] = a["yes"]
    elif k == "pardon":
        if t == "done":
            f["seats"].pop(0)
        else:
            B.leave_map(S, ev, S["pirates"][a["pirate"]], "retired", "general_pardon")
        _skip_pardon(S, f)
    elif k == "new_captain":
        stack.pop()
        old = S["pirates"][f["pirate"]]
        if a["pirate"] is None:
            B.leave_map(S, ev, old, "dead", "marooned")
        else:
            new = S["pirates"][a["pirate"]]
            anti.transfer(S, ev, old, new, "mutiny")
            B.loyalty(S, ev, new, RAW["loyalty"]["mutiny_reset"] - new["loyalty"], "mutiny_reset")
    elif k == "discard":  # errata A1: Pirate cards are not in the hand
        S["hands"][seat].remove(a["card"])
        B.discard(S, a["card"])
        ev.append({"type": "discarded", "seat": seat, "card": B.ctype(a["card"])})
        if len(S["hands"][seat]) <= HAND:
            stack.pop()


def _skip_pardon(S: State, f: FrameDict) -> None:
    while f["seats"] and not pardonable(S, f["seats"][0]):
        f["seats"].pop(0)
    if not f["seats"]:
        S["stack"].remove(f)


def advance(S: State, rng: random.Random, ev: Events) -> None:
    """Run automatic steps until a seat must decide or the game is over."""
    stack = S["stack"]
    while not S["over"]:
        f = stack[-1]
        k = f["kind"]
        if k == "ap_window":
            if _window_ready(S, f):
                return
            continue
        if k in DECISIONS:
            return
        if k == "action":
            pirate.step_act(S, f, rng, ev)
        elif k == "fight":
            anti.step_fight(S, f, rng, ev)
        elif k == "event":
            anti.step_evt(S, f, rng, ev)
        elif k == "turn_start":
            _step_start(S, f, rng, ev)
        elif k == "turn_end":
            _step_end(S, f, rng, ev)
        else:
            raise AssertionError(k)


def _window_ready(S: State, w: FrameDict) -> bool:
    """True if the polled seat has a choice; otherwise skip it (or close the window)."""
    a = anti.act_frame(S)
    if a is not None and a.get("cancelled") and a["pirate"] == w["pirate"] and not w["standalone"]:
        S["stack"].pop()
        return False
    while w["polled"] < len(w["seats"]):
        if anti.options(S, w["seats"][w["polled"]], w):
            return True
        w["polled"] += 1
    S["stack"].pop()
    return False


def _step_start(S: State, f: FrameDict, rng: random.Random, ev: Events) -> None:
    seat = S["turn_order"][S["turn_index"]]
    if f["step"] == "begin":
        S["player_turns"] += 1
        S["this_turn"] = state.new_turn(S["n_players"])
        ev.append({"type": "turn", "seat": seat, "turn": S["player_turns"]})
        f["step"] = "draw"
    elif f["step"] == "draw":  # 1. draw to 4; Must-Play-Immediately cards resolve at once
        while len(S["hands"][seat]) < HAND:
            c = B.draw_card(S, rng)
            if c is None:
                break
            if not B.masked(c) and B.kind(c) == "mpi":
                _mpi(S, seat, c, rng, ev)
                return  # it may have pushed frames, or ended the game
            S["hands"][seat].append(c)
            S["hands"][seat].sort()
            ev.append({"type": "drew", "seat": seat, "card": c, "to": [seat]})
            ev.append({"type": "drew_hidden", "seat": seat})
        f["step"] = "merchants"
    elif f["step"] == "merchants":  # 2. fewer than 5 merchants: bring them up to 6
        if len(S["merchants"]) < RAW["merchant_low"]["value"]:
            while len(S["merchants"]) < RAW["merchant_refill"]["value"] and S["merchant_pool"]:
                B.place_merchant(S, rng, ev)
        f["step"] = "upkeep"
    elif f["step"] == "upkeep":  # 3. scurvy, then mutiny checks at Loyalty <= 2
        S["stack"].pop()
        S["stack"].append({"kind": "main"})
        for pid in B.active(S, seat):
            p = S["pirates"][pid]
            if p["scurvy"]:
                B.loyalty(S, ev, p, RAW["loyalty"]["scurvy"], "scurvy")
        for pid in reversed(B.active(S, seat)):
            if S["pirates"][pid]["loyalty"] <= COST["mutiny_check_at"]:
                S["stack"].append(
                    {"kind": "event", "event": "mutiny", "pirate": pid, "step": "roll"}
                )


def _mpi(S: State, seat: int, c: int, rng: random.Random, ev: Events) -> None:
    t = B.ctype(c)
    B.discard(S, c)
    ev.append({"type": "mpi", "seat": seat, "card": t})
    if t == "general_pardon":
        S["general_pardons"] += 1
        ev.append({"type": "general_pardon", "count": S["general_pardons"], "pass": S["deck_pass"]})
        if S["general_pardons"] == 2:
            n, turn = S["n_players"], S["turn_index"]
            q = [S["turn_order"][(turn + i) % n] for i in range(n)]
            f = {"kind": "pardon", "seats": q}
            S["stack"].append(f)
            _skip_pardon(S, f)
        elif S["general_pardons"] >= 3:
            finish(S, ev, "third_general_pardon")
    elif t == "merchant_fleet":
        for _ in range(COST["merchant_fleet_count"]):
            B.place_merchant(S, rng, ev)
    elif t == "hurricane_season":
        for p in S["pirates"]:
            if p["status"] == "map" and p["area"] not in SEA:
                S["stack"].append(
                    {"kind": "event", "event": "storm", "pirate": p["id"], "step": "roll"}
                )


def _step_end(S: State, f: FrameDict, rng: random.Random, ev: Events) -> None:
    seat = S["turn_order"][S["turn_index"]]
    if f["step"] == "clear":
        for p in S["pirates"]:
            p["sack_opportunity"], p["may_declare_dr"], p["sail_ho"] = None, False, 0
        for m in S["merchants"]:
            m["found_by"] = None
        for pid in B.active(S, seat):  # 5. D&R markers come off after a full turn out
            p = S["pirates"][pid]
            if p["dr_turn"] is not None and p["dr_turn"] < S["player_turns"]:
                p["dr_turn"] = None
                ev.append({"type": "dr_over", "pirate": pid})
        f["step"] = "phase6"
        if S["options"]["phase6_mode"] == "hand_limit" and len(S["hands"][seat]) > HAND:
            S["stack"].append({"kind": "discard", "seat": seat})
    else:  # 6. a player with no pirate at all draws a Pirate card into his reserve
        S["stack"].pop()
        if not B.active(S, seat) and not B.reserve(S, seat) and S["pirate_deck"]:
            pid = S["pirate_deck"].pop(rng.randrange(len(S["pirate_deck"])))
            S["pirates"][pid].update(owner=seat, status="reserve")
            ev.append({"type": "pirate_dealt", "seat": seat, "pirate": pid})
        if S["player_turns"] >= S["options"]["max_turns"]:
            finish(S, ev, "max_turns")
            return
        S["turn_index"] = (S["turn_index"] + 1) % S["n_players"]
        S["stack"].append({"kind": "turn_start", "step": "begin"})


def finish(S: State, ev: Events, why: str) -> None:
    S["over"], S["end_reason"], S["stack"] = True, why, []
    ev.append({"type": "game_over", "why": why})


def scores(S: State) -> dict[str, Any]:
    """D.2.12: retired = Notoriety + Net Worth / 100; eliminated or still at sea =
    Notoriety; plus the AP VP ledger. Ties: Net Worth of retired pirates."""
    n = S["n_players"]
    pts, worth = list(S["ap_vp"]), [0] * n
    for p in S["pirates"]:
        if p["owner"] is None or p["status"] in ("deck", "reserve"):
            continue
        pts[p["owner"]] += p["notoriety"] + p["bonus_vp"]
        if p["status"] == "retired":
            pts[p["owner"]] += p["net_worth"] // 100
            worth[p["owner"]] += p["net_worth"]
    key = [(pts[s], worth[s]) for s in range(n)]
    rank = [1 + sum(1 for o in key if o > key[s]) for s in range(n)]
    return {"scores": pts, "rank": rank,
            "detail": {"ap_vp": list(S["ap_vp"]), "retired_net_worth": worth,
                       "ended": S["end_reason"]}}


def conservation(S: State) -> dict[str, int]:
    """Counts that the rules conserve (tests check them after every action)."""
    attached = sum(len(p["heavy_guns"]) for p in S["pirates"])
    hands = sum(len(h) for h in S["hands"])
    held = sum(len(p["hostages"]) for p in S["pirates"])
    return {
        "cards": len(S["deck"])
        + hands
        + len(S["discards"])
        + len(S["removed"])
        + attached
        + len(S["held_pardons"]),
        "merchants": len(S["merchants"]) + len(S["merchant_pool"]),
        "warships": len(S["warships"]) + len(S["warship_pool"]),
        "kcs": len(S["commissioners"]) + len(S["commissioner_pool"]) + len(S["commissioners_out"]),
        "hostages": len(S["hostage_pool"]) + held + len(S["dead_hostages"]) + _pending_hostage(S),
        "pirates": len(S["pirates"]),
        "anti_governors": S["anti_governor_pool"] + sum(g == "anti" for g in S["governors"]),
        "ships_at_sea": sum(1 for p in S["pirates"] if p["status"] in ("map", "adrift")),
    }


def _pending_hostage(S: State) -> int:
    """A hostage just drawn and not yet ransomed or tortured."""
    return sum(
        1
        for f in S["stack"]
        if f["kind"] == "action"
        and "hostage" in f
        and f["step"] == "hostage_answer"
        or f["kind"] == "action"
        and "hostage" in f
        and f["step"] == "torture_result"
    )

