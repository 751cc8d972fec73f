"""The state layout, set-up, and the small rules every procedure shares.

State (plain msgpack data; ``docs/rules/blackbeard.md`` has the same map):

- ``n`` seats, ``opt`` the table options, ``order`` the seats in Player-Turn order
  (BB-S D.2.2 step 3: rolled 1d6, highest first, then clockwise), ``turn`` the index
  in ``order`` of the phasing player, ``turn_no`` the Player-Turns begun so far;
- cards: ``deck`` (card ids, drawn at random so its order is never stored), ``hands``,
  ``disc`` (discards), ``gone`` (removed from the game: errata A8, A9), ``pass_no`` and
  ``pardons`` (General Pardons resolved in this pass);
- ``pir``: one record per Pirate card (id = index in ``data.PIRATES``) with its owner,
  status (``deck``/``reserve``/``map``/``retired``/``dead``), place and ship;
- counters: ``mer`` merchants on the map (face down until found), ``mpool``, ``hpool``
  hostages, ``wpool``/``ws`` warships, ``kpool``/``kc`` King's Commissioners, ``gov``;
- ``vp`` the AP VP ledger per seat and ``ledger`` its causes (errata A15, A29);
- ``T`` the per-Player-Turn counters (D.5) and ``stack`` the procedure frames
  (``flow.py``); ``over`` once the game has ended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import (
    CARD_TYPES,
    CARDS,
    COST,
    D66,
    HAND,
    HOSTAGES,
    KCS,
    LOY,
    LOY_MAX,
    LOY_MIN,
    MERCHANTS,
    PIRATES,
    PORTS,
    RAW,
    SHIPS,
    SPEED_FLOOR,
    START_LOYALTY,
    WARSHIPS,
)

if TYPE_CHECKING:
    import random

State = dict[str, Any]
Events = list[dict[str, Any]]


def ctype(card: int) -> str:
    return CARDS[card]


def kind(card: int) -> str:
    return CARD_TYPES[CARDS[card]]["kind"]


def displays(S: State) -> int:
    """Pirate Displays per player = Pirate cards dealt each (published setup table)."""
    return RAW["pirates_per_player"]["by_seats"][str(S["n"])]


# -- dice ------------------------------------------------------------------------


def dice(rng: random.Random, n: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(n)]


def d66(rng: random.Random, ev: Events, why: str) -> int:
    """D66: the black die gives the tens, the white die the units (never re-rolled, A5)."""
    black, white = rng.randint(1, 6), rng.randint(1, 6)
    ev.append({"type": "roll", "why": why, "dice": [black, white], "d66": 10 * black + white})
    return 10 * black + white


# -- pirates ---------------------------------------------------------------------


def new_pirate(card: int) -> dict[str, Any]:
    p = PIRATES[card]
    return {"id": card, "owner": None, "st": "deck", "area": None, "port": None,
            "ship": 0, "spd": SHIPS[0]["speed"], "cmb": SHIPS[0]["combat"], "hold": [],
            "nw": 0, "noto": 0, "loy": START_LOYALTY, "cun": p["cunning"], "host": [],
            "info": 0, "hg": [], "dr": None, "scurvy": False, "haven": None, "haven_turn": 0,
            "sack": None, "dr_ok": False, "sailho": 0, "bonus": 0}


def launch(S: State, pid: int, area: str) -> None:
    """Put a Pirate card on the map in a fresh Sloop (D.2.2 step 4)."""
    p = S["pir"][pid]
    fresh = new_pirate(pid)
    fresh.update(owner=p["owner"], st="map", area=area, cun=p["cun"])
    S["pir"][pid] = fresh


def active(S: State, seat: int) -> list[int]:
    return [p["id"] for p in S["pir"] if p["owner"] == seat and p["st"] == "map"]


def reserve(S: State, seat: int) -> list[int]:
    return [p["id"] for p in S["pir"] if p["owner"] == seat and p["st"] == "reserve"]


def holds(p: dict[str, Any]) -> int:
    return SHIPS[p["ship"]]["holds"]


def booty(p: dict[str, Any]) -> int:
    return sum(p["hold"])


def in_dr(p: dict[str, Any]) -> bool:
    return p["dr"] is not None


def at_sea(p: dict[str, Any]) -> bool:
    return p["st"] == "map" and p["port"] is None


def loyalty(S: State, ev: Events, p: dict[str, Any], delta: int, why: str) -> None:
    """Apply a Crew Loyalty Table line, kept inside 0..10 (BB-S D.2.10)."""
    new = max(LOY_MIN, min(LOY_MAX, p["loy"] + delta))
    if new != p["loy"] or delta:
        ev.append({"type": "loyalty", "pirate": p["id"], "delta": new - p["loy"], "now": new,
                   "why": why})
    p["loy"] = new


def notoriety(ev: Events, p: dict[str, Any], gain: int, why: str) -> None:
    if gain:
        p["noto"] += gain
        ev.append({"type": "notoriety", "pirate": p["id"], "gain": gain, "now": p["noto"],
                   "why": why})


def stow(ev: Events, p: dict[str, Any], amount: int, why: str) -> bool:
    """Put booty in one empty hold; False if every hold is full."""
    if len(p["hold"]) >= holds(p):
        ev.append({"type": "holds_full", "pirate": p["id"], "lost": amount, "why": why})
        return False
    p["hold"].append(amount)
    ev.append({"type": "booty", "pirate": p["id"], "amount": amount, "why": why})
    return True


def ap_vp(S: State, ev: Events, seat: int, vp: int, why: str) -> None:
    """VP from AP effects are scored at once, with their cause (errata A15, A29)."""
    if vp:
        S["vp"][seat] += vp
        S["ledger"].append({"seat": seat, "vp": vp, "why": why})
        ev.append({"type": "vp", "seat": seat, "vp": vp, "why": why})


def speed_hits(S: State, ev: Events, p: dict[str, Any], hits: int) -> None:
    """Storm damage: -1 Speed each, to -2; each fall from 0 to -1 costs Loyalty 1."""
    for _ in range(hits):
        if p["spd"] <= SPEED_FLOOR:
            break
        p["spd"] -= 1
        if p["spd"] == -1:
            loyalty(S, ev, p, LOY["speed_below_zero"], "speed_below_zero")
    ev.append({"type": "speed_damage", "pirate": p["id"], "hits": hits, "speed": p["spd"]})


def combat_damage(S: State, ev: Events, p: dict[str, Any], hits: int, why: str) -> bool:
    """Combat damage, 1 per hit; below 0 the ship sinks. True if the pirate survives."""
    p["cmb"] -= hits
    ev.append({"type": "damage", "pirate": p["id"], "hits": hits, "combat": p["cmb"],
               "why": why})
    if p["cmb"] < 0:
        leave_map(S, ev, p, "dead", "sunk")
        return False
    return True


def leave_map(S: State, ev: Events, p: dict[str, Any], status: str, why: str) -> None:
    """A pirate leaves the map: eliminated (Davy Jones' Locker) or retired.

    Booty in the holds is lost; hostages go back to the pool; Heavy Guns are removed
    from the game, never discarded (errata A8); a found merchant is released.
    """
    for c in p["hg"]:
        S["gone"].append(c)
    S["hpool"].extend(p["host"])
    for m in S["mer"]:
        if m["found"] == p["id"]:
            m["found"] = None
    lost = booty(p)
    p.update(st=status, area=None, port=None, hold=[], host=[], hg=[], dr=None, sack=None,
             scurvy=False, dr_ok=False)
    ev.append({"type": status, "pirate": p["id"], "why": why, "booty_lost": lost})


def has_pro(S: State, port: int) -> bool:
    return S["gov"][port] == "pro"


# -- cards -----------------------------------------------------------------------


def draw_card(S: State, rng: random.Random) -> int | None:
    """A random card from the deck; between passes of the long game, the second pass
    (errata A8/A9: Heavy Guns and used Letters of Marque are in ``gone``, not here)."""
    if not S["deck"] and S["opt"]["game_length"] == "long" and S["pass_no"] == 1:
        S["deck"] = sorted(S["disc"] + S["held_pardons"])
        S["disc"], S["held_pardons"] = [], []
        S["pass_no"], S["pardons"] = 2, 0
    if not S["deck"]:
        return None
    return S["deck"].pop(rng.randrange(len(S["deck"])))


def discard(S: State, card: int) -> None:
    S["disc"].append(card)


# -- merchants -------------------------------------------------------------------


def place_merchant(S: State, rng: random.Random, ev: Events, area: str | None = None) -> None:
    """Draw a merchant at random, face down, into the at-sea box of a D66 port's Sea
    Area (a Pirate Port sends it on to the next port, D.2.2 step 2) or into ``area``."""
    if not S["mpool"]:
        return
    mid = S["mpool"].pop(rng.randrange(len(S["mpool"])))
    if area is None:
        port = D66[d66(rng, ev, "merchant")]
        while PORTS[port]["nationality"] == "PIR":
            port = (port + 1) % len(PORTS)
        area = PORTS[port]["area"]
    S["mer"].append({"slot": S["next_slot"], "id": mid, "area": area, "up": False,
                     "found": None})
    S["next_slot"] += 1
    ev.append({"type": "merchant_placed", "area": area})


def remove_merchant(S: State, ev: Events, slot: int) -> None:
    m = next(m for m in S["mer"] if m["slot"] == slot)
    S["mer"].remove(m)
    S["mpool"].append(m["id"])
    ev.append({"type": "merchant_removed", "slot": slot, "area": m["area"]})


def merchant(S: State, slot: int) -> dict[str, Any] | None:
    return next((m for m in S["mer"] if m["slot"] == slot), None)


# -- set-up ----------------------------------------------------------------------


def new_state(seats: int, options: dict[str, Any], rng: random.Random, ev: Events) -> State:
    """BB-S D.2.2 set-up up to the deployment of the first pirates."""
    long = options["game_length"] == "long"
    deck = list(range(len(CARDS)))
    held = [c for c in deck if CARDS[c] == "general_pardon"] if long else []
    S: State = {
        "n": seats, "opt": dict(options), "order": [], "turn": 0, "turn_no": 0,
        "deck": [c for c in deck if c not in held], "held_pardons": held, "hands": [],
        "disc": [], "gone": [], "pass_no": 1, "pardons": 0,
        "pir": [new_pirate(i) for i in range(len(PIRATES))], "pdeck": list(range(len(PIRATES))),
        "mer": [], "next_slot": 0, "mpool": list(range(len(MERCHANTS))),
        "hpool": list(range(len(HOSTAGES))), "dead_hostages": [],
        "wpool": list(range(len(WARSHIPS))), "ws": [],
        "kpool": list(range(len(KCS))), "kc": [],
        "gov": [None] * len(PORTS), "anti_pool": RAW["anti_pirate_governors"]["value"],
        "vp": [0] * seats, "ledger": [],
        "kc_out": [], "T": {}, "stack": [], "over": False, "end_why": None,
    }
    # 1. Deal 4 Event cards each; a Must-Play-Immediately card goes back and is replaced.
    for seat in range(seats):
        hand: list[int] = []
        while len(hand) < HAND:
            c = S["deck"].pop(rng.randrange(len(S["deck"])))
            if kind(c) == "mpi":
                S["deck"].append(c)
                S["deck"].sort()
            else:
                hand.append(c)
        S["hands"].append(sorted(hand))
        ev.append({"type": "dealt", "seat": seat, "cards": sorted(hand), "to": [seat]})
    # 2. Merchants face down by D66.
    for _ in range(RAW["setup_merchants"]["value"]):
        place_merchant(S, rng, ev)
    # Pro-Pirate Governors by D66 (published count); Pirate Ports pass to the next port.
    for _ in range(RAW["pro_pirate_governors"]["value"]):
        port = D66[d66(rng, ev, "governor")]
        for _ in range(len(PORTS)):
            if PORTS[port]["nationality"] != "PIR" and S["gov"][port] is None:
                break
            port = (port + 1) % len(PORTS)
        S["gov"][port] = "pro"
        ev.append({"type": "governor", "port": port, "kind": "pro"})
    # 3. Player order: 1d6 each, highest first (re-roll ties among the highest).
    rolls = [rng.randint(1, 6) for _ in range(seats)]
    while rolls.count(max(rolls)) > 1:
        rolls = [rng.randint(1, 6) if r == max(rolls) else 0 for r in rolls]
    first = rolls.index(max(rolls))
    S["order"] = [(first + i) % seats for i in range(seats)]
    ev.append({"type": "order", "order": list(S["order"])})
    # 4. Pirate cards per the published table, dealt at random into each reserve.
    for seat in S["order"]:
        for _ in range(displays(S)):
            pid = S["pdeck"].pop(rng.randrange(len(S["pdeck"])))
            S["pir"][pid].update(owner=seat, st="reserve")
            ev.append({"type": "pirate_dealt", "seat": seat, "pirate": pid})
    return S


def pirate_port(port: int | None) -> bool:
    return port is not None and PORTS[port]["nationality"] == "PIR"


def cost_of(name: str) -> int:
    return COST[name]


def roll_own(S: State, rng: random.Random, ev: Events, f: dict[str, Any], pid: int, n: int,
             why: str, key: str = "d") -> None:
    """A roll made by the pirate himself: stored in ``f[key]``; if errata A5 allows it
    (1 to 3 dice, Cunning left) a ``cun`` decision is pushed so the owner may re-roll."""
    d = dice(rng, n)
    ev.append({"type": "roll", "why": why, "pirate": pid, "dice": d})
    f[key] = d
    p = S["pir"][pid]
    eligible = 1 <= n <= 3 and (why != "storm" or S["opt"]["cunning_on_storm"])
    if p["cun"] > 0 and eligible and p["st"] in ("map", "reserve"):
        S["stack"].append({"k": "cun", "seat": p["owner"], "pid": pid, "n": n, "why": why,
                           "key": key, "dice": list(d)})
