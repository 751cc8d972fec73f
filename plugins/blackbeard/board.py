"""Set-up (BB-S D.2.2) and the small rules every procedure shares: dice, Crew Loyalty,
Notoriety, booty, damage, leaving the map, merchants, the deck, Cunning re-rolls.

The state's layout is declared in :mod:`.state` (read it first); this module builds
it (:func:`new_state`) and changes it only through the named records there.
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

from . import state
from .state import Events, FrameDict, PirateDict, State


def ctype(card: int) -> str:
    return CARDS[card]


def masked(card: int) -> bool:
    """A hand or deck entry that is no card: a position of the hidden deck
    (:mod:`.hidden`), whose card this state does not know. Never true at a plain table."""
    return card >= len(CARDS)


def kind(card: int) -> str:
    return CARD_TYPES[CARDS[card]]["kind"]


def displays(S: State) -> int:
    """Pirate Displays per player = Pirate cards dealt each (published setup table)."""
    return RAW["pirates_per_player"]["by_seats"][str(S["n_players"])]


# -- dice ------------------------------------------------------------------------


def dice(rng: random.Random, n: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(n)]


def d66(rng: random.Random, ev: Events, why: str) -> int:
    """D66: the black die gives the tens, the white die the units (never re-rolled, A5)."""
    black, white = rng.randint(1, 6), rng.randint(1, 6)
    ev.append({"type": "roll", "why": why, "dice": [black, white], "d66": 10 * black + white})
    return 10 * black + white


# -- pirates ---------------------------------------------------------------------


def new_pirate(card: int) -> PirateDict:
    """A Pirate card as dealt: not yet at sea, rated for a fresh Sloop."""
    return state.new_pirate(card, PIRATES[card]["cunning"], SHIPS[0]["speed"], SHIPS[0]["combat"],
                            START_LOYALTY)


def launch(S: State, pid: int, area: str) -> None:
    """Put a Pirate card on the map in a fresh Sloop (D.2.2 step 4)."""
    p = S["pirates"][pid]
    fresh = new_pirate(pid)
    fresh.update(owner=p["owner"], status="map", area=area, cunning=p["cunning"])
    S["pirates"][pid] = fresh


def active(S: State, seat: int) -> list[int]:
    return [p["id"] for p in S["pirates"] if p["owner"] == seat and p["status"] == "map"]


def reserve(S: State, seat: int) -> list[int]:
    return [p["id"] for p in S["pirates"] if p["owner"] == seat and p["status"] == "reserve"]


def holds(p: PirateDict) -> int:
    return SHIPS[p["ship"]]["holds"]


def booty(p: PirateDict) -> int:
    return sum(p["holds"])


def in_dr(p: PirateDict) -> bool:
    return p["dr_turn"] is not None


def at_sea(p: PirateDict) -> bool:
    return p["status"] == "map" and p["port"] is None


def loyalty(S: State, ev: Events, p: PirateDict, delta: int, why: str) -> None:
    """Apply a Crew Loyalty Table line, kept inside 0..10 (BB-S D.2.10)."""
    new = max(LOY_MIN, min(LOY_MAX, p["loyalty"] + delta))
    if new != p["loyalty"] or delta:
        ev.append({"type": "loyalty", "pirate": p["id"], "delta": new - p["loyalty"], "now": new,
                   "why": why})
    p["loyalty"] = new


def notoriety(ev: Events, p: PirateDict, gain: int, why: str) -> None:
    if gain:
        p["notoriety"] += gain
        ev.append({"type": "notoriety", "pirate": p["id"], "gain": gain, "now": p["notoriety"],
                   "why": why})


def stow(ev: Events, p: PirateDict, amount: int, why: str) -> bool:
    """Put booty in one empty hold; False if every hold is full."""
    if len(p["holds"]) >= holds(p):
        ev.append({"type": "holds_full", "pirate": p["id"], "lost": amount, "why": why})
        return False
    p["holds"].append(amount)
    ev.append({"type": "booty", "pirate": p["id"], "amount": amount, "why": why})
    return True


def ap_vp(S: State, ev: Events, seat: int, vp: int, why: str) -> None:
    """VP from AP effects are scored at once, with their cause (errata A15, A29)."""
    if vp:
        S["ap_vp"][seat] += vp
        S["ap_vp_ledger"].append({"seat": seat, "vp": vp, "why": why})
        ev.append({"type": "vp", "seat": seat, "vp": vp, "why": why})


def speed_hits(S: State, ev: Events, p: PirateDict, hits: int) -> None:
    """Storm damage: -1 Speed each, to -2; each fall from 0 to -1 costs Loyalty 1."""
    for _ in range(hits):
        if p["speed"] <= SPEED_FLOOR:
            break
        p["speed"] -= 1
        if p["speed"] == -1:
            loyalty(S, ev, p, LOY["speed_below_zero"], "speed_below_zero")
    ev.append({"type": "speed_damage", "pirate": p["id"], "hits": hits, "speed": p["speed"]})


def combat_damage(S: State, ev: Events, p: PirateDict, hits: int, why: str) -> bool:
    """Combat damage, 1 per hit; below 0 the ship sinks. True if the pirate survives."""
    p["combat"] -= hits
    ev.append({"type": "damage", "pirate": p["id"], "hits": hits, "combat": p["combat"],
               "why": why})
    if p["combat"] < 0:
        leave_map(S, ev, p, "dead", "sunk")
        return False
    return True


def leave_map(S: State, ev: Events, p: PirateDict, status: str, why: str) -> None:
    """A pirate leaves the map: eliminated (Davy Jones' Locker) or retired.

    Booty in the holds is lost; hostages go back to the pool; Heavy Guns are removed
    from the game, never discarded (errata A8); a found merchant is released.
    """
    for c in p["heavy_guns"]:
        S["removed"].append(c)
    S["hostage_pool"].extend(p["hostages"])
    for m in S["merchants"]:
        if m["found_by"] == p["id"]:
            m["found_by"] = None
    lost = booty(p)
    p.update(
        status=status,
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
    ev.append({"type": status, "pirate": p["id"], "why": why, "booty_lost": lost})


def has_pro(S: State, port: int) -> bool:
    return S["governors"][port] == "pro"


# -- cards -----------------------------------------------------------------------


def draw_card(S: State, rng: random.Random) -> int | None:
    """A random card from the deck; between passes of the long game, the second pass
    (errata A8/A9: Heavy Guns and used Letters of Marque are in ``gone``, not here)."""
    if not S["deck"] and S["options"]["game_length"] == "long" and S["deck_pass"] == 1:
        S["deck"] = sorted(S["discards"] + S["held_pardons"])
        S["discards"], S["held_pardons"] = [], []
        S["deck_pass"], S["general_pardons"] = 2, 0
        if "hidden" in S:  # hidden.py: the known discards become a fresh hidden deck
            _second_pass_hidden(S)
    if not S["deck"]:
        return None
    return S["deck"].pop(rng.randrange(len(S["deck"])))


def _second_pass_hidden(S: State) -> None:
    """With hidden decks (:mod:`.hidden`): the Event cards of the second pass, all seen
    face up, are cards 0..k-1 of a fresh deck ``events2-k`` (card i is
    ``S["hidden"]["pass2"]["cards"][i]``), dealt as positions; MPI cards stay public."""
    cards = sorted(c for c in S["deck"] if not masked(c) and kind(c) != "mpi")
    if any(masked(c) for c in S["deck"]):
        raise ValueError("hidden deck: a card of the second pass was never opened")
    if not cards:  # only MPI cards: nothing to hide
        return
    base = len(CARDS) + sum(kind(c) != "mpi" for c in range(len(CARDS)))
    S["hidden"]["pass2"] = {"deck": f"events2-{len(cards)}", "cards": cards,
                            "shuffled": False}
    S["deck"] = sorted([c for c in S["deck"] if kind(c) == "mpi"]
                       + [base + i for i in range(len(cards))])


def discard(S: State, card: int) -> None:
    S["discards"].append(card)


# -- merchants -------------------------------------------------------------------


def place_merchant(S: State, rng: random.Random, ev: Events, area: str | None = None) -> None:
    """Draw a merchant at random, face down, into the at-sea box of a D66 port's Sea
    Area (a Pirate Port sends it on to the next port, D.2.2 step 2) or into ``area``."""
    if not S["merchant_pool"]:
        return
    mid = S["merchant_pool"].pop(rng.randrange(len(S["merchant_pool"])))
    if area is None:
        port = D66[d66(rng, ev, "merchant")]
        while PORTS[port]["nationality"] == "PIR":
            port = (port + 1) % len(PORTS)
        area = PORTS[port]["area"]
    S["merchants"].append({"slot": S["next_slot"], "id": mid, "area": area, "face_up": False,
                     "found_by": None})
    S["next_slot"] += 1
    ev.append({"type": "merchant_placed", "area": area})


def remove_merchant(S: State, ev: Events, slot: int) -> None:
    m = next(m for m in S["merchants"] if m["slot"] == slot)
    S["merchants"].remove(m)
    S["merchant_pool"].append(m["id"])
    ev.append({"type": "merchant_removed", "slot": slot, "area": m["area"]})


def merchant(S: State, slot: int) -> dict[str, Any] | None:
    return next((m for m in S["merchants"] if m["slot"] == slot), None)


# -- set-up ----------------------------------------------------------------------


def new_state(seats: int, options: dict[str, Any], rng: random.Random, ev: Events) -> State:
    """BB-S D.2.2 set-up up to the deployment of the first pirates."""
    long = options["game_length"] == "long"
    deck = list(range(len(CARDS)))
    held = [c for c in deck if CARDS[c] == "general_pardon"] if long else []
    S: State = {
        "n_players": seats,
        "options": dict(options),
        "turn_order": [],
        "turn_index": 0,
        "player_turns": 0,
        "deck": [c for c in deck if c not in held],
        "held_pardons": held,
        "hands": [],
        "discards": [],
        "removed": [],
        "deck_pass": 1,
        "general_pardons": 0,
        "pirates": [new_pirate(i) for i in range(len(PIRATES))],
        "pirate_deck": list(range(len(PIRATES))),
        "merchants": [],
        "next_slot": 0,
        "merchant_pool": list(range(len(MERCHANTS))),
        "hostage_pool": list(range(len(HOSTAGES))),
        "dead_hostages": [],
        "warship_pool": list(range(len(WARSHIPS))),
        "warships": [],
        "commissioner_pool": list(range(len(KCS))),
        "commissioners": [],
        "governors": [None] * len(PORTS),
        "anti_governor_pool": RAW["anti_pirate_governors"]["value"],
        "ap_vp": [0] * seats,
        "ap_vp_ledger": [],
        "commissioners_out": [],
        "this_turn": None,
        "stack": [],
        "over": False,
        "end_reason": None,
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
            if PORTS[port]["nationality"] != "PIR" and S["governors"][port] is None:
                break
            port = (port + 1) % len(PORTS)
        S["governors"][port] = "pro"
        ev.append({"type": "governor", "port": port, "kind": "pro"})
    # 3. Player order: 1d6 each, highest first (re-roll ties among the highest).
    rolls = [rng.randint(1, 6) for _ in range(seats)]
    while rolls.count(max(rolls)) > 1:
        rolls = [rng.randint(1, 6) if r == max(rolls) else 0 for r in rolls]
    first = rolls.index(max(rolls))
    S["turn_order"] = [(first + i) % seats for i in range(seats)]
    ev.append({"type": "order", "order": list(S["turn_order"])})
    # 4. Pirate cards per the published table, dealt at random into each reserve.
    for seat in S["turn_order"]:
        for _ in range(displays(S)):
            pid = S["pirate_deck"].pop(rng.randrange(len(S["pirate_deck"])))
            S["pirates"][pid].update(owner=seat, status="reserve")
            ev.append({"type": "pirate_dealt", "seat": seat, "pirate": pid})
    return S


def pirate_port(port: int | None) -> bool:
    return port is not None and PORTS[port]["nationality"] == "PIR"


def cost_of(name: str) -> int:
    return COST[name]


def roll_own(S: State, rng: random.Random, ev: Events, f: FrameDict, pid: int, n: int,
             why: str, key: str = "dice") -> None:
    """A roll made by the pirate himself: stored in ``f[key]``; if errata A5 allows it
    (1 to 3 dice, Cunning left) a ``cunning`` decision is pushed so the owner may re-roll."""
    d = dice(rng, n)
    ev.append({"type": "roll", "why": why, "pirate": pid, "dice": d})
    f[key] = d
    p = S["pirates"][pid]
    eligible = 1 <= n <= 3 and (why != "storm" or S["options"]["cunning_on_storm"])
    if p["cunning"] > 0 and eligible and p["status"] in ("map", "reserve"):
        S["stack"].append({"kind": "cunning", "seat": p["owner"], "pirate": pid, "dice_count": n,
                           "why": why, "dice_key": key, "dice": list(d)})
