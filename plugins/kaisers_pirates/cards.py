"""Playing a committed card: its legal targets and its effect (digest 6.2).

``plays(S, seat, entry)`` lists the ``play`` actions of one committed card in a
deterministic order; ``play(S, rng, action, ev)`` performs one (already validated).
Interceptions, mines and torpedoes push a context (``fights.py``); everything
else happens at once, apart from Intelligence's reordering and Exchange
Information, which ask further decisions.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any

from .data import ACTIONS, SHIPS
from .fights import passage as _passage
from .fights import (
    prize_exhaust_check,
    start_aimed,
    start_bi,
    start_gi,
    start_mines,
    start_torpedo,
)
from .rules import (
    attack_targets,
    challenge,
    damage,
    draw_ship,
    hidden,
    in_refuge,
    kind,
    opponents,
    place_ship,
    targetable,
    to_used,
)

if TYPE_CHECKING:
    import random

State = dict[str, Any]
Events = list[dict[str, Any]]
_ISLAND = next(c for c in ACTIONS if c["type"] == "island_refuge")


def _icpt_ok(S: State, sid: int) -> bool:
    """4.6.4 / 4.6.9: not yet intercepted this turn, not in an Island Refuge."""
    return sid not in S["T"]["icpt"] and S["sh"][sid]["ref"] is None


def _ship_can_act(S: State, seat: int, sid: int) -> bool:
    st = S["sh"][sid]
    T = S["T"]
    return (st is not None and st["o"] == seat and st["ref"] is None and sid not in T["acted"]
            and sid not in T["left"])


def _enemy_ships(S: State, seat: int, heavy: bool = False) -> list[tuple[int, int]]:
    """(owner, ship) of every German ship/prize of targetable opponents."""
    return [(o, s) for o in opponents(S, seat) if targetable(S, o, heavy) for s in S["p"][o]["ger"]]


def _opp_seats(S: State, seat: int, heavy: bool = False) -> list[int]:
    return [o for o in opponents(S, seat) if targetable(S, o, heavy)]


def plays(S: State, seat: int, e: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``play`` actions for committed entry ``e`` (empty when it cannot be played)."""
    c, use = e["c"], e["use"]
    cd = ACTIONS[c]
    t = cd["type"]
    P = S["p"][seat]
    T = S["T"]

    def act(**kw: Any) -> dict[str, Any]:
        return {"type": "play", "card": c, **kw}

    if use == "icpt":
        if not _ship_can_act(S, seat, e["ship"]):
            return []
        return [act(target=m) for o in attack_targets(S, seat) for m in S["p"][o]["mer"]
                if _icpt_ok(S, m)]
    if use == "brit":  # 5.6.2: Warships, revealed Raiders, revealed Prizes
        return [act(target=s) for o in attack_targets(S, seat) for s in S["p"][o]["ger"]
                if _icpt_ok(S, s) and not hidden(S, s)]
    if use == "mines":
        if not _ship_can_act(S, seat, e["ship"]):
            return []
        return [act(target_seat=o) for o in attack_targets(S, seat) if S["p"][o]["mer"]]
    # use == "act"
    if t == "blockade_runner" or t == "collier":
        return [act()] if any(S["sh"][s]["ls"] for s in P["ger"]) else []
    if t == "bounding_main":
        return [act()] if S["mode"] == "team" else []
    if t == "breakdown":
        return [act(target=s) for _o, s in _enemy_ships(S, seat)
                if kind(S, s) in ("warship", "raider") and S["sh"][s]["dmg"] == 0]
    if t == "breakout":
        return [act()]
    if t == "damage_control":
        return [act(target=s) for s in P["ger"] + P["mer"] if S["sh"][s]["dmg"]]
    if t in ("deception", "fog_bank"):
        return [act(target_seat=o) for o in _opp_seats(S, seat) if S["p"][o]["wait"] is None]
    if t == "exchange_information":
        return [act()] if S["mode"] == "team" else []
    if t == "fair_seas":
        return [act(target=s) for s in P["mer"] + P["ger"]
                if kind(S, s) in ("merchant", "prize") and S["sh"][s]["dmg"] == 0]
    if t == "heavy_weather":
        return [act(target_seat=o) for o in _opp_seats(S, seat, heavy=True)]
    if t == "intelligence":
        out = [act(mode="hand", target_seat=o) for o in _opp_seats(S, seat)]
        return out + ([act(mode="deck")] if S["adeck"] else [])
    if t == "interned" or t == "transfer_command":  # revealed prizes only
        return [act(target=s) for _o, s in _enemy_ships(S, seat) if not hidden(S, s)]
    if t == "interrogate":
        return [act(target=s) for o in attack_targets(S, seat) for s in S["p"][o]["ger"]
                if hidden(S, s) and _icpt_ok(S, s)]
    if t == "island_refuge":
        return [act(target=s) for s in P["ger"]
                if kind(S, s) in ("warship", "raider") and not in_refuge(S, s)]
    if t == "monitor":
        return [act(target=s) for o in attack_targets(S, seat) for s in S["p"][o]["ger"]
                if in_refuge(S, s) and s not in T["icpt"]]
    if t == "recon_aircraft":
        return [act(target_seat=o) for o in _opp_seats(S, seat) if S["p"][o]["hand"]]
    if t == "rendezvous_missed":
        return [act(target_seat=o) for o in _opp_seats(S, seat)]
    if t == "reflag":  # committed: a ship that started the turn revealed (R 3.3.32)
        return [act(target=s) for s in P["ger"] if s in T["rev0"] and S["sh"][s]["rev"]]
    if t == "scuttle":
        return [act(target=s) for s in P["ger"] if S["sh"][s]["dmg"]]
    if t == "second_chance":
        return [] if T["extra"] or T["sc"] else [act()]
    if t in ("submarine_u", "submarine_uc"):
        out = []
        for o in attack_targets(S, seat):
            out += [act(target=m) for m in S["p"][o]["mer"]]
            if S["o"]["torpedo_prizes"]:  # 6.9 (A-21: unrevealed only)
                out += [act(target=s) for s in S["p"][o]["ger"]
                        if S["sh"][s]["prize"] and hidden(S, s)]
        if t == "submarine_uc":
            out += [act(mode="mines", target_seat=o) for o in attack_targets(S, seat)
                    if S["p"][o]["mer"]]
        return out
    if t == "wireless_intercept":
        if T["extra"] or T["wi"] or P["wi"] == P["turns"] - 1 or not S["adisc"]:
            return []
        return [act()]
    return []  # Assist cards are attached, never played alone; Lay Mines needs its raider


def play(S: State, rng: random.Random, action: dict[str, Any], ev: Events) -> None:
    T = S["T"]
    seat = T["p"]
    c = action["card"]
    e = next(x for x in T["com"] if x["c"] == c)
    e["done"] = True
    T["late"] = []  # a new card: defenders may answer earlier sinkings again afterwards
    cd = ACTIONS[c]
    t = cd["type"]
    tg = action.get("target")
    ts = action.get("target_seat")
    ev.append({"type": "card_played", "seat": seat, "card": c, "use": e["use"],
               **{k: v for k, v in action.items() if k not in ("type", "card")}})
    if e["use"] == "icpt":
        start_gi(S, c, e["ship"], tg)
        return
    if e["use"] == "brit":
        start_bi(S, c, tg, "brit")
        return
    if e["use"] == "mines":
        start_mines(S, c, ts, cd["mine"], e["ship"])
        return
    if t in ("deception", "fog_bank", "island_refuge"):
        T["com"].remove(e)  # these stay in play, not discarded with the others
    perform(S, rng, seat, cd, c, action, ev)


def perform(S: State, rng: random.Random, seat: int, cd: dict[str, Any], c: int | None,
            action: dict[str, Any], ev: Events) -> None:
    """The effect of an action half; ``c`` is None when the phantom performs it."""
    t = cd["type"]
    T = S["T"]
    P = S["p"][seat]
    tg = action.get("target")
    ts = action.get("target_seat")
    if t == "interrogate":  # R 3.3.19
        o = S["sh"][tg]["o"]
        S["T"]["att"] = o
        ok, _c, _r = challenge(S, rng, ev, "interrogate", seat, cd["ch"], 0, o, cd["re"])
        if ok:
            S["sh"][tg]["rev"] = True
            ev.append({"type": "revealed", "ship": tg})
            start_bi(S, c, tg, "interrogate", cd)
        return
    if t == "monitor":
        start_bi(S, c, tg, "monitor", cd)
        return
    if t in ("submarine_u", "submarine_uc"):
        if action.get("mode") == "mines":
            start_mines(S, c, ts, cd["mine"], None)
        else:
            start_torpedo(S, c, tg, cd)
        return
    if t == "blockade_runner":  # R 3.3.2
        bonus = 2 if any(S["sh"][s]["prize"] for s in P["ger"]) else 0
        for s in [s for s in P["ger"] if S["sh"][s]["ls"]]:
            mod = bonus + _coal_sails(S, s, -1, 1)
            ok, _c, _r = challenge(S, rng, ev, "blockade_runner", seat, cd["ch"], mod,
                                   _other(S, seat), cd["re"])
            if ok:
                S["sh"][s]["ls"] = False
                ev.append({"type": "resupplied", "ship": s})
    elif t == "collier":
        for s in P["ger"]:
            if S["sh"][s]["ls"]:
                S["sh"][s]["ls"] = False
                ev.append({"type": "resupplied", "ship": s})
    elif t == "bounding_main":
        nxt = (seat + 1) % S["np"]
        S["p"][nxt]["skip"] = True
        ev.append({"type": "turn_will_be_skipped", "seat": nxt})
    elif t == "breakdown":
        o = S["sh"][tg]["o"]
        ok, _c, _r = challenge(S, rng, ev, "breakdown", seat, cd["ch"], 0, o, cd["re"])
        if ok:
            damage(S, tg, ev)
    elif t == "breakout":  # R 3.3.7
        ok, cv, rv = challenge(S, rng, ev, "breakout", seat, cd["ch"], 0, _other(S, seat), cd["re"])
        n = (2 if cv >= 2 * rv else 1) if ok else 0
        got = []
        for _ in range(n):
            s = draw_ship(S, rng, True, ev)
            if s is not None:
                place_ship(S, seat, s)
                got.append(s)
                ev.append({"type": "ship_drawn", "seat": seat, "ship": s})
        if S["mode"] == "team" and len(got) == 2:  # 8.1 4.7: either or both to the teammate
            S["stack"].append({"k": "give_ships", "ships": got})
            S["pend"] = {"k": "give_ships", "s": seat}
    elif t == "damage_control":
        S["sh"][tg]["dmg"] -= 1 if S["o"]["additional_damage"] else S["sh"][tg]["dmg"]
        ev.append({"type": "repaired", "ship": tg})
    elif t in ("deception", "fog_bank"):
        S["p"][ts]["wait"] = {"t": t, "c": c}
        ev.append({"type": "placed_on", "card": c, "seat": ts})
    elif t == "exchange_information":  # R 3.3.11: both give blind, then swap
        mate = (seat + 2) % 4
        S["stack"].append({"k": "ex", "seats": [seat, mate], "i": 0})
    elif t == "fair_seas":
        _passage(S, rng, tg, 1, ev)
    elif t == "heavy_weather":  # R 3.3.16
        p = S["p"][ts]
        for s in list(p["ger"] + p["mer"]):
            if in_refuge(S, s):
                continue
            ok, _c, _r = challenge(S, rng, ev, "heavy_weather", seat, cd["ch"], 0, ts, cd["re"])
            if ok:
                to_used(S, s, ev, "heavy_weather")
    elif t == "intelligence":  # R 3.3.17
        if action["mode"] == "hand":
            hand = sorted(S["p"][ts]["hand"])
            P["seen"] = {"seat": ts, "cards": hand, "turn": S["tno"]}
            ev.append({"type": "seen_hand", "seat": ts, "cards": hand, "to": [seat]})
        else:
            n = min(S["seats"] if S["mode"] != "solo" else 2, len(S["adeck"]))
            top = S["adeck"][-n:][::-1]
            ev.append({"type": "seen_deck_top", "cards": top, "to": [seat]})
            P["peek"] = list(top)  # known from now on (view and sampler)
            S["stack"].append({"k": "order", "n": n})
            S["pend"] = {"k": "order", "s": seat}
    elif t in ("interned", "transfer_command"):  # R 3.3.18, 3.3.45; Reflag 3.3.32
        start_aimed(S, c, cd, seat, tg)
    elif t == "island_refuge":  # R 3.3.20
        st = S["sh"][tg]
        st["ref"], st["reft"] = (c if c is not None else -1), S["tno"]
        if st["rev"]:
            st["rev"] = False
            ev.append({"type": "hidden", "ship": tg})
        ev.append({"type": "entered_refuge", "ship": tg})
        refuge_rolls(S, rng, tg, ev)
    elif t == "recon_aircraft":  # R 3.3.31
        hand = S["p"][ts]["hand"]
        got = []
        for _ in range(min(2, len(hand))):
            got.append(hand.pop(int(rng.random() * len(hand))))
        P["hand"] += got
        ev.append({"type": "cards_taken", "from": ts, "seat": seat, "n": len(got)})
        ev.append({"type": "cards_taken_were", "cards": got, "to": [seat, ts]})
        if S["mode"] == "solo" and ts == 1:
            S["solo"]["recon"] = True  # R 5.4.3 item 10
        if S["o"]["a7_recon_immediate"] and c is not None:
            T["stolen"] += got  # A-7 option: playable this turn
    elif t == "rendezvous_missed":  # R 3.3.33
        pen = -2 if any(S["sh"][s]["prize"] for s in S["p"][ts]["ger"]) else 0
        for s in list(S["p"][ts]["ger"]):
            if kind(S, s) not in ("warship", "raider") or in_refuge(S, s):
                continue
            mod = pen + _coal_sails(S, s, 2, -2)
            ok, _c, _r = challenge(S, rng, ev, "rendezvous_missed", seat, cd["ch"], mod, ts,
                                   cd["re"])
            if ok and not S["sh"][s]["ls"]:
                S["sh"][s]["ls"] = True
                ev.append({"type": "limited_supply", "ship": s})
    elif t == "reflag":
        S["sh"][tg]["rev"] = False
        ev.append({"type": "hidden", "ship": tg})
    elif t == "scuttle":
        to_used(S, tg, ev, "scuttled")
    elif t == "second_chance":
        T["sc"] = True
    elif t == "wireless_intercept":
        got = [S["adisc"].pop() for _ in range(min(2, len(S["adisc"])))]
        P["hand"] += got
        T["wi"] = True
        P["wi"] = P["turns"]
        ev.append({"type": "took_discards", "seat": seat, "cards": got})


def _other(S: State, seat: int) -> int:
    return opponents(S, seat)[0]


def _coal_sails(S: State, sid: int, coal: int, sails: int) -> int:
    """6.1 / 6.2 Challenge modifiers for coal ships and Seeadler."""
    mod = 0
    if S["o"]["coal"] and SHIPS[sid]["coal"]:
        mod += coal
    if S["o"]["sails"] and SHIPS[sid]["sails"]:
        mod += sails
    return mod


def refuge_rolls(S: State, rng: random.Random, sid: int, ev: Events) -> None:
    """R 3.3.20 (A-15): one repair and one resupply attempt per own turn in refuge."""
    st = S["sh"][sid]
    cd = ACTIONS[st["ref"]] if st["ref"] >= 0 else _ISLAND  # -1: the phantom's refuge
    seat = st["o"]
    if st["dmg"]:
        ok, _c, _r = challenge(S, rng, ev, "refuge_repair", seat, cd["ch"], 0, _other(S, seat),
                               cd["re"])
        if ok:
            st["dmg"] -= 1 if S["o"]["additional_damage"] else st["dmg"]
            ev.append({"type": "repaired", "ship": sid})
    if st["ls"]:
        ok, _c, _r = challenge(S, rng, ev, "refuge_resupply", seat, cd["ch2"],
                               _coal_sails(S, sid, -1, 1), _other(S, seat), cd["re2"])
        if ok:
            st["ls"] = False
            ev.append({"type": "resupplied", "ship": sid})


def order_offers(S: State, seat: int) -> list[dict[str, Any]]:
    """Intelligence: every order of the top N cards, listed top first."""
    n = S["stack"][-1]["n"]
    top = S["adeck"][-n:][::-1]
    return [{"type": "order", "cards": list(p)} for p in permutations(sorted(top))]


def apply_order(S: State, seat: int, action: dict[str, Any], ev: Events) -> None:
    n = S["stack"].pop()["n"]
    del S["adeck"][len(S["adeck"]) - n:]
    S["adeck"] += action["cards"][::-1]
    S["p"][seat]["peek"] = list(action["cards"])
    ev.append({"type": "deck_reordered", "seat": seat, "n": n})


def prize_resupply_offers(S: State, seat: int) -> list[dict[str, Any]]:
    """6.12.1: one Limited-Supply ship per prize, each prize once per turn."""
    if not S["o"]["prize_resupply"]:
        return []
    P = S["p"][seat]
    prizes = [s for s in P["ger"] if S["sh"][s]["prize"] and s not in S["T"]["resup"]]
    needy = [s for s in P["ger"] if S["sh"][s]["ls"]]
    return [{"type": "resupply", "prize": p, "ship": s} for p in prizes for s in needy]


def apply_prize_resupply(S: State, rng: random.Random, action: dict[str, Any], ev: Events) -> None:
    S["sh"][action["ship"]]["ls"] = False
    S["T"]["resup"].append(action["prize"])
    ev.append({"type": "resupplied", "ship": action["ship"], "from_prize": action["prize"]})
    prize_exhaust_check(S, rng, action["prize"], ev)


def exchange_offers(S: State, seat: int) -> list[dict[str, Any]]:
    P = S["p"][seat]
    return [{"type": "done"}] + [{"type": "give", "card": c} for c in sorted(P["hand"])
                                 if c not in P["give"]]


def apply_exchange(S: State, seat: int, action: dict[str, Any], ev: Events) -> None:
    ctx = S["stack"][-1]
    if action["type"] == "give":
        S["p"][seat]["give"].append(action["card"])
        return
    ctx["i"] += 1
    if ctx["i"] < 2:
        return
    S["stack"].pop()
    a, b = ctx["seats"]
    ga, gb = S["p"][a]["give"], S["p"][b]["give"]
    for src, dst, cards in ((a, b, ga), (b, a, gb)):
        for c in cards:
            S["p"][src]["hand"].remove(c)
            S["p"][dst]["hand"].append(c)
    ev.append({"type": "exchanged", "seats": [a, b], "n": [len(ga), len(gb)]})
    ev.append({"type": "exchanged_cards", "cards": [list(ga), list(gb)], "to": [a, b]})
    S["p"][a]["give"] = []
    S["p"][b]["give"] = []


def give_ships_offers(S: State, seat: int) -> list[dict[str, Any]]:
    a, b = S["stack"][-1]["ships"]
    return [{"type": "to_mate", "ships": x} for x in ([], [a], [b], [a, b])]


def move_to_mate(S: State, seat: int, ships: list[int], ev: Events) -> None:
    """8.1 4.6 / 4.7: ships handed to the teammate keep their status."""
    mate = (seat + 2) % 4
    for s in ships:
        S["p"][seat]["ger"].remove(s)
        S["p"][mate]["ger"].append(s)
        S["sh"][s]["o"] = mate
        ev.append({"type": "transferred", "ship": s, "seat": mate})
