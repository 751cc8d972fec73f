"""Interceptions, mine and torpedo attacks, duels and the reactions to them (5.6-5.10).

Each attack is a *context* on ``S["stack"]`` with a step name ``st``; ``step`` runs
it until it needs a decision (it then sets ``S["pend"]``) or finishes (it pops).
Decisions inside a context (attach Assist cards, Boarding Party, reactions,
pursuit, Reflag windows) are applied by ``decide``.

Context kinds: ``gi`` German interception of merchants (5.6.1), ``bi`` British-forces
interception, also used by Interrogate and Monitor (5.6.2-5.6.3), ``mi`` mine
attack, ``to`` torpedo attack (5.7), ``ac`` Interned or Transfer Command aimed at a
revealed Raider or Prize, which its owner may answer with Reflag (R 3.3.32).
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any

from .data import ACTIONS, PRIZE_EXHAUST_CHECK, PRIZE_TORPEDO_CHECK, PURSUIT_CHECK, SHIPS
from .rules import (
    action_to_vp,
    challenge,
    combat_result,
    damage,
    dmg_mod,
    kind,
    new_status,
    opposed,
    remove_ship,
    to_used,
    to_vp,
)

if TYPE_CHECKING:
    import random

State = dict[str, Any]
Events = list[dict[str, Any]]
Ctx = dict[str, Any]

PASS = {"type": "pass"}
DONE = {"type": "done"}


# ---------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------


def _plain(cd: dict[str, Any]) -> dict[str, Any]:
    """A copy of card data for the state: the state never shares lists with ``data``."""
    return {k: list(v) if isinstance(v, list) else v for k, v in cd.items()}


def _opt(S: State, name: str) -> bool:
    return bool(S["o"][name])


def _open_acts(S: State) -> list[dict[str, Any]]:
    """Committed, not yet played cards placed upright in front of the Force."""
    return [e for e in S["T"]["com"] if not e["done"] and e["use"] == "act"]


def _mark_played(S: State, cid: int, ev: Events, **info: Any) -> None:
    for e in S["T"]["com"]:
        if e["c"] == cid:
            e["done"] = True
    ev.append({"type": "card_played", "seat": S["T"]["p"], "card": cid, **info})


def _in_force(S: State, sid: int, seat: int) -> bool:
    st = S["sh"][sid]
    return st is not None and st["o"] == seat


def _has_hand(S: State, seat: int) -> bool:
    """A seat is offered a reaction window whenever its hand is not empty.

    Asking only when a reaction is possible would tell everyone that it holds one.
    """
    if S["mode"] == "solo" and seat == 1:
        return True  # the phantom always draws a Solitaire card (R 5.3.3)
    return bool(S["p"][seat]["hand"])


def _react_card(S: State, seat: int, cid: int | None, ev: Events, **info: Any) -> None:
    if cid is not None:
        S["p"][seat]["hand"].remove(cid)
        S["T"]["rx"].append([seat, cid])
    ev.append({"type": "reaction", "seat": seat, "card": cid,
               "card_type": ACTIONS[cid]["type"] if cid is not None else info.pop("ctype"),
               **info})


def _reaction_offers(S: State, seat: int,
                     allowed: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """``pass`` then one action per matching hand card (ascending id).

    For the solitaire phantom, whose reactions come from the Solitaire deck, every
    allowed reaction type is listed with ``card`` None and its ``ctype``.
    """
    acts = [PASS]
    if S["mode"] == "solo" and seat == 1:
        return acts + [{"type": "react", "card": None, "ctype": t, **extra}
                       for t, extras in allowed.items() for extra in extras]
    for c in sorted(S["p"][seat]["hand"]):
        for extra in allowed.get(ACTIONS[c]["type"], ()):
            acts.append({"type": "react", "card": c, **extra})
    return acts


def passage(S: State, rng: random.Random, sid: int, mod: int, ev: Events) -> bool:
    """5.10: the owner rolls the merchant's Challenge, another player its Response."""
    own = S["sh"][sid]["o"]
    other = next(s for s in range(S["np"]) if s != own)
    ok, _c, _r = challenge(S, rng, ev, "passage", own, SHIPS[sid]["pch"], mod, other,
                           SHIPS[sid]["pre"])
    prize = S["sh"][sid]["prize"]
    if ok:
        to_vp(S, sid, own, 2 if prize else 1, "passage", ev)
    else:
        ev.append({"type": "passage_failed", "ship": sid})
    return ok


def _prize_resupply_auto(S: State, sid: int, ev: Events) -> None:
    """5.9: a capture resupplies the intercepting ship (replaced by 6.12)."""
    st = S["sh"][sid]
    if st is not None and st["ls"] and not _opt(S, "prize_resupply"):
        st["ls"] = False
        ev.append({"type": "resupplied", "ship": sid})


def prize_exhaust_check(S: State, rng: random.Random, prize: int, ev: Events) -> None:
    """6.12.2 (A-18): an opponent rolls 10/8 as Challenge, the owner a d10."""
    own = S["sh"][prize]["o"]
    other = next(s for s in range(S["np"]) if s != own)
    ch, re = PRIZE_EXHAUST_CHECK
    if _opt(S, "a18_owner_rolls"):
        c, r = opposed(S, rng, ev, "prize_supplies", own, ch, 0, other, re, 0)
        failed = c <= r
    else:
        failed, _c, _r = challenge(S, rng, ev, "prize_supplies", other, ch, 0, own, re)
    if failed:
        to_vp(S, prize, own, 1, "prize_exhausted", ev)


# ---------------------------------------------------------------------------
# German interception of merchants (5.6.1)
# ---------------------------------------------------------------------------


def start_gi(S: State, cid: int | None, ship_id: int, target: int,
             night: bool | None = None) -> Ctx:
    """Push a German interception; ``cid`` None (and ``night``) for the phantom."""
    T = S["T"]
    d = S["sh"][target]["o"]
    T["att"] = d
    T["icpt"].append(target)
    T["acted"].append(ship_id)
    ctx = {"k": "gi", "c": cid, "ship": ship_id, "d": d, "tg": [target], "i": 0,
           "night": ACTIONS[cid]["night"] if night is None else night, "sa": False, "sl": False,
           "sc": False, "bp": [], "st": "attach", "rx": None, "rxn": 0, "fs": False,
           "nc": False, "pur": False, "rev": False, "revd": False}
    S["stack"].append(ctx)
    return ctx


def _gi_attachables(S: State, ctx: Ctx) -> list[dict[str, Any]]:
    acts = [DONE]
    x = ctx["ship"]
    xk = kind(S, x)
    d = ctx["d"]
    free = [m for m in S["p"][d]["mer"] if m not in S["T"]["icpt"]]
    for e in _open_acts(S):
        c, t = e["c"], ACTIONS[e["c"]]["type"]
        if t == "good_hunting" and xk == "raider" and len(ctx["tg"]) == 1:
            acts += [{"type": "attach", "card": c, "extra": [m]} for m in free]
        elif t == "shipping_lanes" and xk == "warship" and len(ctx["tg"]) == 1 and free:
            acts.append({"type": "attach", "card": c, "extra": sorted(free)})
        elif t == "surprise_attack" and not ctx["sa"]:
            acts.append({"type": "attach", "card": c})
        elif t == "searchlight" and ctx["night"] and not ctx["sl"]:
            acts.append({"type": "attach", "card": c})
        elif t == "special_cargo" and not ctx["sc"] and ctx["k"] in ("gi", "mi", "to"):
            acts.append({"type": "attach", "card": c})
    return acts


def _attach(S: State, ctx: Ctx, action: dict[str, Any], ev: Events) -> None:
    c = action["card"]
    t = ACTIONS[c]["type"]
    _mark_played(S, c, ev, attached_to=ctx["c"])
    if t in ("good_hunting", "shipping_lanes"):
        ctx["tg"] += action["extra"]
        S["T"]["icpt"] += action["extra"]
    elif t == "surprise_attack":
        ctx["sa"] = True
    elif t == "searchlight":
        ctx["sl"] = True
    elif t == "special_cargo":
        ctx["sc"] = True


def _gi_reactions(S: State, ctx: Ctx) -> list[dict[str, Any]]:
    x, m = ctx["ship"], ctx["tg"][ctx["i"]]
    xk = kind(S, x)
    o = S["o"]
    sailing = o["sailing_merchants"] and SHIPS[m]["sailing"]
    # R 3.3.5/13/38: not at night, not against Surprise Attack
    fast_ok = not ctx["night"] and not ctx["sa"]
    undamaged = S["sh"][m]["dmg"] == 0
    allowed: dict[str, list[dict[str, Any]]] = {"trap": [{}]}
    if not sailing:  # 6.11.1
        allowed["amc"] = [{}]
    if fast_ok:
        allowed["break_contact"] = [{}]
        allowed["shallow_run"] = [{}]
        if xk == "raider" and undamaged and not sailing:
            allowed["fast_ship"] = [{}]
    if undamaged:
        allowed["non_combatant"] = [{}]
    if xk == "raider":
        allowed["qqq"] = [{}]
    if not (o["woelfchen"] and SHIPS[x]["wolf"]):  # 6.3.2
        if len(ctx["tg"]) > 1 and ctx["i"] == 0:
            allowed["slim_pickings"] = [{"keep": k} for k in ctx["tg"]]
        else:
            allowed["slim_pickings"] = [{}]
    return _reaction_offers(S, ctx["d"], allowed)


def _gi_attack_mod(S: State, ctx: Ctx, with_merchant_mods: bool) -> int:
    """5.5.1: interception attack modifiers of the German ship."""
    x = ctx["ship"]
    st = S["sh"][x]
    mod = dmg_mod(S, x)
    if st["ls"]:
        mod -= 2
    if ctx["night"]:
        mod -= 1
    if ctx["sa"]:
        mod += 4 if S["o"]["woelfchen"] and SHIPS[x]["wolf"] else 2  # 6.3.1
    if ctx["sl"]:
        mod += 3
    if with_merchant_mods:
        if ctx["fs"] and not ctx["pur"]:
            mod -= 4 if S["o"]["sails"] and SHIPS[x]["sails"] else 2  # 6.2.6
        if ctx["nc"]:
            mod -= 2
    return mod


def _gi_sunk_or_captured(S: State, rng: random.Random, ctx: Ctx, m: int, res: str,
                         ev: Events) -> None:
    """Apply a result to the merchant: capture (BP / Non-Combatant), sink, damage, Passage."""
    ph = S["T"]["p"]
    capture = m in ctx["bp"] or ctx["nc"]
    if capture:
        if res == "sunk":  # 5.9: captured as a hidden Prize
            remove_ship(S, m)
            S["sh"][m] = new_status(ph, prize=True)
            S["p"][ph]["ger"].append(m)
            ev.append({"type": "captured", "ship": m, "seat": ph, "by": ctx["ship"]})
            _prize_resupply_auto(S, ctx["ship"], ev)
            return
        ctx["st"] = "passage"
        ctx["pmod"] = 2 if ctx["nc"] else 0
        return
    if res == "sunk":
        to_vp(S, m, ph, 2 if ctx["sc"] else 1, "sunk_m", ev)
        ctx["st"] = "post"
        return
    if res == "damaged":
        damage(S, m, ev)
        return
    ctx["st"] = "passage"
    ctx["pmod"] = 0


def _gi_roll(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    x, m = ctx["ship"], ctx["tg"][ctx["i"]]
    ph, d = S["T"]["p"], ctx["d"]
    ctx["st"] = "next"
    if ctx["rx"] == "trap":  # R 3.3.46: simultaneous duel
        r2 = _gi_duel(S, rng, ctx, ev, "trap_attack", ctx["rxd"]["att"], SHIPS[m]["def"], m)
        _gi_sunk_or_captured(S, rng, ctx, m, r2, ev)
        return
    if ctx["rx"] == "amc":  # R 3.3.1
        r2 = _gi_duel(S, rng, ctx, ev, "amc_attack", ctx["rxd"]["att"], ctx["rxd"]["def"], None)
        if r2 == "sunk" and ctx["rxc"] is not None:
            S["T"]["rx"].remove([d, ctx["rxc"]])
            action_to_vp(S, ctx["rxc"], ph, ev)
        return
    a, dd = opposed(S, rng, ev, "interception", ph, SHIPS[x]["att"], _gi_attack_mod(S, ctx, True),
                    d, SHIPS[m]["def"], dmg_mod(S, m))
    res = combat_result(a, dd)
    ev.append({"type": "result", "ship": m, "result": res})
    _gi_sunk_or_captured(S, rng, ctx, m, res, ev)


def _gi_duel(S: State, rng: random.Random, ctx: Ctx, ev: Events, label: str, attack: int,
             target_def: int, target_ship: str | None) -> str:
    """A simultaneous duel (R 3.3.1 armed merchant cruiser, R 3.3.46 Q-ship trap): the
    defender's reaction fires at the raider while the raider fires at its target
    (``target_ship``, or None for the cruiser itself). Resolves the raider's side and
    returns the raider's result against the target."""
    x = ctx["ship"]
    ph, d = S["T"]["p"], ctx["d"]
    night = -1 if ctx["night"] else 0
    a1, d1 = opposed(S, rng, ev, label, d, attack, night, ph, SHIPS[x]["def"], dmg_mod(S, x))
    a2, d2 = opposed(S, rng, ev, "interception", ph, SHIPS[x]["att"],
                     _gi_attack_mod(S, ctx, target_ship is not None), d, target_def,
                     dmg_mod(S, target_ship) if target_ship is not None else 0)
    r1, r2 = combat_result(a1, d1), combat_result(a2, d2)
    ev.append({"type": "duel", "results": [r1, r2]})
    _reveal(S, ctx, ev)
    if r1 == "sunk":
        to_vp(S, x, d, 1, "sunk", ev)
    elif r1 == "damaged":
        damage(S, x, ev)
    return r2


def _reveal(S: State, ctx: Ctx, ev: Events) -> None:
    x = ctx["ship"]
    st = S["sh"][x]
    if st is not None and kind(S, x) == "raider" and not st["rev"]:
        st["rev"] = True
        ctx["revd"] = True
        ev.append({"type": "revealed", "ship": x})


def _gi_apply_reaction(S: State, rng: random.Random, ctx: Ctx, action: dict[str, Any],
                       cd: dict[str, Any], cid: int | None, ev: Events) -> None:
    t = cd["type"]
    x, m, d = ctx["ship"], ctx["tg"][ctx["i"]], ctx["d"]
    ctx["rx"], ctx["rxc"], ctx["rxd"] = t, cid, _plain(cd)
    ctx["rxn"] += 1
    ctx["st"] = "roll"
    if t == "slim_pickings":  # R 3.3.40, A-26
        if len(ctx["tg"]) == 1:
            ctx["st"] = "next"
        elif ctx["i"] == 0:
            keep = action.get("keep", ctx["tg"][0])
            ctx["tg"] = [keep]
            if keep != m:
                ctx["rx"] = None
                ctx["st"] = "board"
        else:
            ctx["tg"] = ctx["tg"][:ctx["i"]]
            ctx["st"] = "next"
        ev.append({"type": "interception_reduced", "targets": list(ctx["tg"][ctx["i"]:])})
    elif t == "break_contact":  # R 3.3.5
        mod = dmg_mod(S, m)
        if S["o"]["sails"] and SHIPS[x]["sails"]:
            mod += 2  # 6.2.5
        if S["o"]["sailing_merchants"] and SHIPS[m]["sailing"]:
            mod -= 2  # 6.11.2
        ok, _c, _r = challenge(S, rng, ev, "break_contact", d, cd["ch"], mod, S["T"]["p"], cd["re"])
        if ok:
            ev.append({"type": "interception_cancelled", "ship": m})
            ctx["st"] = "next"
    elif t == "shallow_run":  # R 3.3.38
        if S["o"]["shallow_pursuit"]:
            ctx["st"] = "shallows"  # 6.10.1: the attacker announces pursuit first
        else:
            _shallow_run(S, rng, m, d, S["T"]["p"], cd, ev)
            ctx["st"] = "next"
    elif t == "fast_ship":
        ctx["fs"] = True
        if (S["o"]["fast_raiders"] and SHIPS[x]["fast"] and not S["sh"][x]["ls"]):
            ctx["st"] = "pursue"  # 6.6.1
    elif t == "non_combatant":
        ctx["nc"] = True
    elif t == "qqq":
        ctx["rev"] = True


def _shallow_run(S: State, rng: random.Random, sid: int, seat: int, attacker: int,
                 cd: dict[str, Any], ev: Events) -> None:
    """Automatic escape, then a crossing roll: failure damages, or sinks a damaged ship."""
    was = S["sh"][sid]["dmg"]
    mod = dmg_mod(S, sid)
    if S["o"]["fast_raiders"] and SHIPS[sid]["fast"]:
        mod -= 2  # 6.6.2
    ev.append({"type": "interception_cancelled", "ship": sid})
    ok, _c, _r = challenge(S, rng, ev, "shallow_run", seat, cd["ch"], mod, attacker, cd["re"])
    if ok:
        return
    if was:
        how = "sunk_m" if kind(S, sid) == "merchant" else "sunk"
        to_vp(S, sid, attacker, 1, how, ev)
    else:
        damage(S, sid, ev)


def _crossing(S: State, rng: random.Random, sid: int, seat: int, other: int,
              cd: dict[str, Any], extra: int, ev: Events) -> None:
    """6.10.2-6.10.3: one ship's crossing; failure damages, or sinks a damaged ship."""
    was = S["sh"][sid]["dmg"]
    ok, _c, _r = challenge(S, rng, ev, "shallows_crossing", seat, cd["ch"],
                           dmg_mod(S, sid) + extra, other, cd["re"])
    if ok:
        return
    if was:
        how = "sunk_m" if kind(S, sid) == "merchant" else "sunk"
        to_vp(S, sid, other, 1, how, ev)
    else:
        damage(S, sid, ev)


def _shallows(S: State, rng: random.Random, ctx: Ctx, pursue: bool, ev: Events) -> None:
    """6.10: pursue into the shallows, both cross, then the interception goes on."""
    x, m, d, ph = ctx["ship"], ctx["tg"][ctx["i"]], ctx["d"], S["T"]["p"]
    cd = ctx["rxd"]
    if not pursue:
        _shallow_run(S, rng, m, d, ph, cd, ev)
        ctx["st"] = "next"
        return
    ev.append({"type": "shallows_pursuit", "ship": x})
    fast = -2 if SHIPS[x]["fast"] else 0  # 6.10.4
    _crossing(S, rng, m, d, ph, cd, 0, ev)
    _crossing(S, rng, x, ph, d, cd, fast, ev)
    alive = _in_force(S, x, ph) and _in_force(S, m, d)
    ctx["rx"] = None
    ctx["st"] = "roll" if alive else "next"


def _record_sinking(S: State, ctx: Ctx) -> None:
    """Remember a sinking of the defender's merchant for Recalled and Mistaken Identity,
    which may answer it "at any time after" in this turn (R 3.3.30, 3.3.23). Under
    3.2.2 (``a39_strict``) a sinking in an attack already answered stays closed."""
    T = S["T"]
    is_open = not (S["o"]["a39_strict"] and ctx.get("rxn"))
    T["sank"].append({"m": ctx["sunk"], "ship": ctx["ship"] if ctx["k"] == "gi" else None,
                      "d": ctx["d"], "open": is_open})
    ctx["sank_i"] = len(T["sank"]) - 1
    T["late"].append(ctx["d"])  # just asked (the post window); again after the next card


def _post_offers(S: State, ctx: Ctx) -> list[dict[str, Any]]:
    d = ctx["d"]
    allowed: dict[str, list[dict[str, Any]]] = {}
    if not S["T"]["sank"][ctx["sank_i"]]["open"]:
        return [PASS]
    if ctx["k"] == "gi" and _in_force(S, ctx["ship"], S["T"]["p"]):
        allowed["recalled"] = [{}]
    mine = sorted({e["s"] for e in S["p"][d]["vp"] if e.get("h") == "sunk_m"})
    if mine:
        allowed["mistaken_identity"] = [{"swap": s} for s in mine]
    return _reaction_offers(S, d, allowed)


def _post_apply(S: State, rng: random.Random, ctx: Ctx, action: dict[str, Any],
                cd: dict[str, Any], cid: int | None, ev: Events) -> None:
    d, ph = ctx["d"], S["T"]["p"]
    S["T"]["sank"][ctx["sank_i"]]["open"] = False  # one reaction per sinking
    ok, _c, _r = challenge(S, rng, ev, cd["type"], d, cd["ch"], 0, ph, cd["re"])
    if not ok:
        return
    if cd["type"] == "recalled":  # R 3.3.30
        to_used(S, ctx["ship"], ev, "recalled")
        ctx["tg"] = ctx["tg"][:ctx["i"] + 1]
        return
    sunk = ctx["sunk"]  # R 3.3.23, A-11: swap the two pile entries' cards
    mine = next(e for e in S["p"][d]["vp"] if e.get("s") == action["swap"] and e["h"] == "sunk_m")
    theirs = next(e for e in S["p"][ph]["vp"] if e.get("s") == sunk)
    mine["s"], theirs["s"] = theirs["s"], mine["s"]
    ev.append({"type": "swapped", "seat": d, "gave": action["swap"], "took": sunk})


def _late_allowed(S: State, seat: int) -> dict[str, list[dict[str, Any]]]:
    """What ``seat`` could still answer of this turn's sinkings of its merchants."""
    T = S["T"]
    ph = T["p"]
    ships: list[int] = []
    swaps: list[dict[str, Any]] = []
    mine = sorted({e["s"] for e in S["p"][seat]["vp"] if e.get("h") == "sunk_m"})
    for rec in T["sank"]:
        if rec["d"] != seat or not rec["open"]:
            continue
        if rec["ship"] is not None and _in_force(S, rec["ship"], ph) and rec["ship"] not in ships:
            ships.append(rec["ship"])
        if any(e.get("s") == rec["m"] and e["h"] == "sunk_m" for e in S["p"][ph]["vp"]):
            swaps += [{"swap": x, "took": rec["m"]} for x in mine]
    allowed: dict[str, list[dict[str, Any]]] = {}
    if ships:
        allowed["recalled"] = [{"ship": x} for x in ships]
    if swaps:
        allowed["mistaken_identity"] = swaps
    return allowed


def late_seat(S: State) -> int | None:
    """A defender to ask now whether he answers an earlier sinking (R 3.3.30, 3.3.23).

    Asked after the sinking (the ``post`` window) and again after every later card
    the phasing player plays, while a sinking can still be answered; asked whenever
    his hand is not empty, like every reaction window. The phantom holds neither card.
    """
    T = S["T"]
    for rec in T["sank"]:
        d = rec["d"]
        if d in T["late"] or (S["mode"] == "solo" and d == 1) or not S["p"][d]["hand"]:
            continue
        if _late_allowed(S, d):
            return d
    return None


def late_offers(S: State, seat: int) -> list[dict[str, Any]]:
    return _reaction_offers(S, seat, _late_allowed(S, seat))


def late_apply(S: State, rng: random.Random, seat: int, action: dict[str, Any],
               ev: Events) -> None:
    """Recalled (the interceptor goes home) or Mistaken Identity, later in the turn."""
    T = S["T"]
    T["late"].append(seat)
    if action["type"] != "react":
        return
    cid = action["card"]
    cd = ACTIONS[cid]
    _react_card(S, seat, cid, ev, **{k: v for k, v in action.items() if k not in ("type", "card")})
    ph = T["p"]
    for rec in T["sank"]:  # one reaction per sinking
        if rec["d"] == seat and (rec["ship"] == action.get("ship") if cd["type"] == "recalled"
                                 else rec["m"] == action["took"]):
            rec["open"] = False
    ok, _c, _r = challenge(S, rng, ev, cd["type"], seat, cd["ch"], 0, ph, cd["re"])
    if not ok:
        return
    if cd["type"] == "recalled":
        to_used(S, action["ship"], ev, "recalled")
        return
    mine = next(e for e in S["p"][seat]["vp"] if e.get("s") == action["swap"]
                and e["h"] == "sunk_m")
    theirs = next(e for e in S["p"][ph]["vp"] if e.get("s") == action["took"])
    mine["s"], theirs["s"] = theirs["s"], mine["s"]
    ev.append({"type": "swapped", "seat": seat, "gave": action["swap"], "took": action["took"]})


# ---------------------------------------------------------------------------
# British-forces interception, Interrogate, Monitor (5.6.2, 5.6.3)
# ---------------------------------------------------------------------------


def start_bi(S: State, cid: int | None, target: int, via: str,
             cd: dict[str, Any] | None = None) -> Ctx:
    """Push a British-forces interception (``cd``: the phantom's Solitaire-card data)."""
    T = S["T"]
    d = S["sh"][target]["o"]
    T["att"] = d
    T["icpt"].append(target)
    cd = ACTIONS[cid] if cd is None else cd
    dice = cd["icpt"] if via == "brit" else cd["att"]
    ctx = {"k": "bi", "c": cid, "tg": [target], "i": 0, "d": d, "via": via,
                       "dice": list(dice), "night": cd["night"] and via == "brit", "sa": False,
           "sl": False, "sc": False, "st": "attach" if via == "brit" else "react",
           "rx": None, "rxn": 0}
    S["stack"].append(ctx)
    return ctx


def _bi_attachables(S: State, ctx: Ctx) -> list[dict[str, Any]]:
    acts = [DONE]
    if (ctx["sa"] or ctx["sl"]) and not S["o"]["a4_two_assists"]:
        return acts  # R 3.2.3: only one Surprise Attack *or* Searchlight
    for e in _open_acts(S):  # only Surprise Attack and Searchlight
        t = ACTIONS[e["c"]]["type"]
        if (t == "surprise_attack" and not ctx["sa"]) or (
                t == "searchlight" and ctx["night"] and not ctx["sl"]):
            acts.append({"type": "attach", "card": e["c"]})
    return acts


def _bi_reactions(S: State, ctx: Ctx) -> list[dict[str, Any]]:
    t = ctx["tg"][0]
    allowed: dict[str, list[dict[str, Any]]] = {"pull_the_plug": [{}]}
    refuge = S["sh"][t]["ref"] is not None
    if ctx["via"] != "monitor" and not refuge and not ctx["night"] and not ctx["sa"]:
        allowed["break_contact"] = [{}]
        allowed["shallow_run"] = [{}]
    if ctx["via"] == "brit" and kind(S, t) in ("raider", "prize"):
        allowed["reflag"] = [{}]
    return _reaction_offers(S, ctx["d"], allowed)


def _bi_apply_reaction(S: State, rng: random.Random, ctx: Ctx, cd: dict[str, Any],
                       cid: int | None, ev: Events) -> None:
    t, d, ph = ctx["tg"][0], ctx["d"], S["T"]["p"]
    typ = cd["type"]
    ctx["rx"] = typ
    ctx["rxn"] += 1
    ctx["st"] = "end"
    if typ == "pull_the_plug":  # R 3.3.26
        to_used(S, t, ev, "pull_the_plug")
    elif typ == "reflag":
        S["sh"][t]["rev"] = False
        ev.append({"type": "hidden", "ship": t})
        ev.append({"type": "interception_cancelled", "ship": t})
    elif typ == "shallow_run":
        _shallow_run(S, rng, t, d, ph, cd, ev)
    elif typ == "break_contact":
        mod = dmg_mod(S, t) - (2 if S["sh"][t]["ls"] else 0)
        if S["o"]["sails"] and SHIPS[t]["sails"]:
            mod -= 2  # 6.2.4
        if S["o"]["woelfchen"] and SHIPS[t]["wolf"]:
            mod += 2  # 6.3.3, A-36
        ok, _c, _r = challenge(S, rng, ev, "break_contact", d, cd["ch"], mod, ph, cd["re"])
        if ok:
            ev.append({"type": "interception_cancelled", "ship": t})
        else:
            ctx["st"] = "roll"


def _bi_roll(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    t, d, ph = ctx["tg"][0], ctx["d"], S["T"]["p"]
    mod = (-1 if ctx["night"] else 0) + (2 if ctx["sa"] else 0) + (3 if ctx["sl"] else 0)
    if ctx["via"] == "monitor":
        mod += 2
    a, dd = opposed(S, rng, ev, "british_interception", ph, ctx["dice"], mod, d, SHIPS[t]["def"],
                    dmg_mod(S, t))
    res = combat_result(a, dd)
    ev.append({"type": "result", "ship": t, "result": res})
    ctx["st"] = "end"
    if res == "sunk":
        to_vp(S, t, ph, 1, "sunk", ev)  # a sunk prize is worth its normal VP (5.9)
    elif res == "damaged":
        damage(S, t, ev)
    elif S["sh"][t]["prize"] and S["sh"][t]["dmg"] == 0:
        ctx["st"], ctx["pmod"], ctx["pnext"] = "passage", 0, "end"


# ---------------------------------------------------------------------------
# Mine and torpedo attacks (5.7), Q-ship duels (R 3.3.28)
# ---------------------------------------------------------------------------


def start_mines(S: State, cid: int, target_seat: int, dice: list[int], ship_id: int | None) -> None:
    T = S["T"]
    T["att"] = target_seat
    if ship_id is not None:
        T["acted"].append(ship_id)
    S["stack"].append({"k": "mi", "c": cid, "d": target_seat, "dice": list(dice), "tg": [], "i": 0,
                       "sc": False, "sa": False, "sl": False, "night": False, "st": "attach",
                       "rx": None, "rxn": 0})


def start_torpedo(S: State, cid: int | None, target: int,
                  sub: dict[str, Any] | None = None) -> None:
    """Push a torpedo attack; ``sub`` carries the phantom submarine's dice."""
    T = S["T"]
    d = S["sh"][target]["o"]
    T["att"] = d
    sub = ACTIONS[cid] if sub is None else sub
    S["stack"].append({"k": "to", "c": cid, "d": d, "tg": [target], "i": 0, "sc": False,
                       "sa": False, "sl": False, "night": False, "st": "attach", "rx": None,
                       "rxn": 0, "sub": {k: list(sub[k]) for k in ("torp", "gun", "def")}})


def _sc_attachables(S: State, ctx: Ctx) -> list[dict[str, Any]]:
    acts = [DONE]
    if not ctx["sc"]:
        acts += [{"type": "attach", "card": e["c"]} for e in _open_acts(S)
                 if ACTIONS[e["c"]]["type"] == "special_cargo"]
    return acts


def _to_reactions(S: State, ctx: Ctx) -> list[dict[str, Any]]:
    m = ctx["tg"][0]
    allowed: dict[str, list[dict[str, Any]]] = {"razzle_dazzle": [{}]}
    if not S["sh"][m]["prize"]:  # 6.9.2
        if SHIPS[m]["sailing"]:
            allowed["sail_q_ship"] = [{}]
        if not (S["o"]["sailing_merchants"] and SHIPS[m]["sailing"]):
            allowed["q_ship"] = [{}]
    return _reaction_offers(S, ctx["d"], allowed)


def _sub_sunk(S: State, ctx: Ctx, winner: int, ev: Events) -> None:
    c = ctx["c"]
    if c is None:  # the phantom's submarine is no card: it just sinks
        ev.append({"type": "phantom_submarine_sunk"})
        return
    S["T"]["com"] = [e for e in S["T"]["com"] if e["c"] != c]
    action_to_vp(S, c, winner, ev)


def _q_duel(S: State, rng: random.Random, ctx: Ctx, q: dict[str, Any], qid: int | None,
            ev: Events) -> None:
    """R 3.3.28 / 3.3.34: lure, then a gun duel or torpedoes then depth charges."""
    ph, d = S["T"]["p"], ctx["d"]
    sub = ctx["sub"]
    ok, _c, _r = challenge(S, rng, ev, "q_ship_lure", d, q["ch"], 0, ph, q["re"])
    sub_res = q_res = "none"
    if ok:
        a1, d1 = opposed(S, rng, ev, "q_gun", d, q["gun"], 0, ph, sub["def"], 0)
        a2, d2 = opposed(S, rng, ev, "sub_gun", ph, sub["gun"], 0, d, q["def"], 0)
        sub_res, q_res = combat_result(a1, d1), combat_result(a2, d2)
    else:
        a2, d2 = opposed(S, rng, ev, "torpedo", ph, sub["torp"], 0, d, q["def"], 0)
        q_res = combat_result(a2, d2)
        if q_res != "sunk" and q.get("dc"):
            a1, d1 = opposed(S, rng, ev, "depth_charges", d, q["dc"],
                             -2 if q_res == "damaged" else 0, ph, sub["def"], 0)
            sub_res = combat_result(a1, d1)
    ev.append({"type": "duel", "results": [sub_res, q_res]})
    if sub_res == "sunk":
        _sub_sunk(S, ctx, d, ev)
    if q_res == "sunk" and qid is not None:
        S["T"]["rx"].remove([d, qid])
        action_to_vp(S, qid, ph, ev)


def _attack_roll(S: State, rng: random.Random, ctx: Ctx, m: int, dice: list[int], what: str,
                 ev: Events) -> None:
    ph = S["T"]["p"]
    a, dd = opposed(S, rng, ev, what, ph, dice, 0, ctx["d"], SHIPS[m]["def"], dmg_mod(S, m))
    res = combat_result(a, dd)
    ev.append({"type": "result", "ship": m, "result": res})
    if res == "sunk":
        prize = S["sh"][m]["prize"]
        to_vp(S, m, ph, 1 if prize else (2 if ctx["sc"] else 1), "sunk" if prize else "sunk_m", ev)
        if not prize:
            ctx["sunk"] = m
            ctx["st"] = "post"
    elif res == "damaged":
        damage(S, m, ev)


# ---------------------------------------------------------------------------
# Interned and Transfer Command (R 3.3.18, 3.3.45) and the Reflag that answers them
# ---------------------------------------------------------------------------


def start_aimed(S: State, cid: int | None, cd: dict[str, Any], seat: int, target: int) -> None:
    """Interned or Transfer Command: at a revealed Raider or Prize its owner may first
    play Reflag (R 3.3.32); hidden again, the ship is no longer a legal target and
    the card has no effect. At a Warship (never hidden) the effect follows at once."""
    d = S["sh"][target]["o"]
    S["stack"].append({"k": "ac", "c": cid, "cd": _plain(cd), "seat": seat, "tg": [target],
                       "i": 0, "d": d, "st": "react" if kind(S, target) != "warship" else "roll",
                       "rx": None, "rxn": 0})


def aimed_effect(S: State, rng: random.Random, seat: int, cd: dict[str, Any], tg: int,
                 ev: Events) -> None:
    """The Challenge of Interned (+2 per damage / Limited Supply, A-30) or Transfer
    Command; a transferred ship keeps its status, an Island Refuge included."""
    o = S["sh"][tg]["o"]
    if cd["type"] == "interned":
        mod = -dmg_mod(S, tg) + (2 if S["sh"][tg]["ls"] else 0)
        ok, _c, _r = challenge(S, rng, ev, "interned", seat, cd["ch"], mod, o, cd["re"])
        if ok:
            to_used(S, tg, ev, "interned")
        return
    ok, _c, _r = challenge(S, rng, ev, "transfer_command", seat, cd["ch"], 0, o, cd["re"])
    if ok:
        S["p"][o]["ger"].remove(tg)
        S["sh"][tg]["o"] = seat
        S["p"][seat]["ger"].append(tg)
        ev.append({"type": "transferred", "ship": tg, "seat": seat})


# ---------------------------------------------------------------------------
# the step machine
# ---------------------------------------------------------------------------


def step(S: State, rng: random.Random, ev: Events) -> None:
    """Run the top context until it needs a decision or is finished."""
    ctx = S["stack"][-1]
    k = ctx["k"]
    ph = S["T"]["p"]
    while S["pend"] is None and S["stack"] and S["stack"][-1] is ctx:
        st = ctx["st"]
        if st == "attach":
            ctx["st"] = "board" if k == "gi" else ("check" if k == "to" else "react")
            if _open_acts(S):
                S["pend"] = {"k": "attach", "s": ph}
        elif st == "board":
            m = ctx["tg"][ctx["i"]]
            ctx["st"] = "react"
            if _open_acts(S) and S["sh"][m]["dmg"] == 0:
                S["pend"] = {"k": "board", "s": ph}
        elif st == "check":  # 6.9.1: a torpedo attack on a hidden prize must find it first
            ctx["st"] = "react"
            m = ctx["tg"][0]
            if S["sh"][m]["prize"]:
                ch, re = PRIZE_TORPEDO_CHECK
                ok, _c, _r = challenge(S, rng, ev, "find_prize", ph, ch, 0, ctx["d"], re)
                if not ok:
                    ctx["st"] = "end"
        elif st == "react":
            ctx["rx"] = None
            ctx["st"] = "roll"
            if k == "mi":
                ctx["tg"] = list(S["p"][ctx["d"]]["mer"])
                ctx["st"] = "morder"
            if _has_hand(S, ctx["d"]):
                S["pend"] = {"k": "react", "s": ctx["d"]}
        elif st == "morder":  # 5.7.3: the attacker orders the merchants
            ctx["st"] = "roll"
            if len(ctx["tg"]) > 1:
                S["pend"] = {"k": "mine_order", "s": ph}
        elif st == "pursue":
            ctx["st"] = "roll"
            S["pend"] = {"k": "pursue", "s": ph}
        elif st == "shallows":
            ctx["st"] = "shallows_wait"
            S["pend"] = {"k": "shallows", "s": ph}
        elif st == "roll":
            if k == "ac":
                ctx["st"] = "end"
                if _in_force(S, ctx["tg"][0], ctx["d"]):
                    aimed_effect(S, rng, ctx["seat"], ctx["cd"], ctx["tg"][0], ev)
            elif k == "gi":
                _gi_roll(S, rng, ctx, ev)
            elif k == "bi":
                _bi_roll(S, rng, ctx, ev)
            elif k == "mi":
                if ctx["i"] >= len(ctx["tg"]):
                    ctx["st"] = "end"
                    continue
                m = ctx["tg"][ctx["i"]]
                ctx["st"] = "mnext"
                if _in_force(S, m, ctx["d"]):
                    _attack_roll(S, rng, ctx, m, ctx["dice"], "mines", ev)
            else:  # torpedo
                ctx["st"] = "end"
                m = ctx["tg"][0]
                if ctx["rx"] in ("q_ship", "sail_q_ship"):
                    _q_duel(S, rng, ctx, ctx["rxd"], ctx["rxc"], ev)
                else:
                    _attack_roll(S, rng, ctx, m, ctx["sub"]["torp"], "torpedo", ev)
        elif st == "post":
            if k == "gi":
                ctx["sunk"] = ctx["tg"][ctx["i"]]
            ctx["st"] = "mnext" if k == "mi" else ("next" if k == "gi" else "end")
            _record_sinking(S, ctx)
            if _has_hand(S, ctx["d"]):
                S["pend"] = {"k": "post", "s": ctx["d"]}
        elif st == "passage":  # R 3.2.6: the owner *may* try Passage ("può")
            ctx["st"] = ctx.get("pnext", "next")
            m = ctx["tg"][ctx["i"]]
            if _in_force(S, m, ctx["d"]) and S["sh"][m]["dmg"] == 0:
                S["pend"] = {"k": "passage", "s": ctx["d"], "ships": [m]}
        elif st == "mnext":
            ctx["i"] += 1
            ctx["st"] = "roll"
        elif st == "next":
            ctx["i"] += 1
            ctx["fs"] = ctx["nc"] = False
            ctx["rxn"] = 0
            alive = _in_force(S, ctx["ship"], ph)
            ctx["st"] = "board" if alive and ctx["i"] < len(ctx["tg"]) else "end"
        elif st == "end":
            S["stack"].pop()
            _finish(S, rng, ctx, ev)
            return


def _finish(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """Reveals after the interception and the Reflag windows they open."""
    ph = S["T"]["p"]
    if ctx["k"] == "gi":
        x = ctx["ship"]
        if ctx["rev"] and _in_force(S, x, ph):
            _reveal(S, ctx, ev)  # R 3.3.27: QQQ reveals at the end of the interception
        if ctx["pur"] and _in_force(S, x, ph):  # 6.6.1 pursuit: Limited Supply check
            other = ctx["d"]
            ch, re = PURSUIT_CHECK
            if S["o"]["a18_owner_rolls"]:
                c, r = opposed(S, rng, ev, "pursuit_supplies", ph, ch, 0, other, re, 0)
                failed = c <= r
            else:
                failed, _c, _r = challenge(S, rng, ev, "pursuit_supplies", other, ch, 0, ph, re)
            if failed:
                S["sh"][x]["ls"] = True
                ev.append({"type": "limited_supply", "ship": x})
        if (ctx["revd"] and _in_force(S, x, ph) and S["sh"][x]["rev"] and _has_hand(S, ph)
                and not S["T"]["dec"]):  # nothing else is played in a Deception turn
            S["pend"] = {"k": "reflag", "s": ph, "ships": [x]}
    elif ctx["k"] == "bi" and ctx["via"] == "interrogate":
        t = ctx["tg"][0]
        if _in_force(S, t, ctx["d"]) and S["sh"][t]["rev"] and _has_hand(S, ctx["d"]):
            S["pend"] = {"k": "reflag", "s": ctx["d"], "ships": [t]}


# ---------------------------------------------------------------------------
# decisions inside a context
# ---------------------------------------------------------------------------


def offers(S: State, pend: dict[str, Any]) -> list[dict[str, Any]]:
    """Legal actions for a pending decision that belongs to the top context."""
    k = pend["k"]
    if k == "reflag":
        return _reaction_offers(S, pend["s"], {"reflag": [{"ship": s} for s in pend["ships"]]})
    ctx = S["stack"][-1]
    if k == "attach":
        if ctx["k"] == "gi":
            return _gi_attachables(S, ctx)
        if ctx["k"] == "bi":
            return _bi_attachables(S, ctx)
        return _sc_attachables(S, ctx)
    if k == "board":
        return [DONE] + [{"type": "board", "card": e["c"]} for e in _open_acts(S)
                         if ACTIONS[e["c"]]["type"] == "boarding_party"]
    if k in ("pursue", "shallows"):
        return [DONE, {"type": "pursue"}]
    if k == "passage":
        return [PASS, {"type": "passage", "ship": pend["ships"][0]}]
    if k == "mine_order":
        return [{"type": "order_targets", "ships": list(p)}
                for p in permutations(sorted(ctx["tg"]))]
    if k == "post":
        return _post_offers(S, ctx)
    # react
    if ctx["k"] == "gi":
        return _gi_reactions(S, ctx)
    if ctx["k"] == "bi":
        return _bi_reactions(S, ctx)
    if ctx["k"] == "mi":
        return _reaction_offers(S, ctx["d"], {"minesweeper": [{}]})
    if ctx["k"] == "ac":
        return _reaction_offers(S, ctx["d"], {"reflag": [{}]})
    return _to_reactions(S, ctx)


def decide(S: State, rng: random.Random, pend: dict[str, Any], action: dict[str, Any],
           ev: Events, cd: dict[str, Any] | None = None) -> None:
    """Apply a (validated) decision. ``cd`` replaces the card data for phantom reactions."""
    k = pend["k"]
    typ = action["type"]
    seat = pend["s"]
    if k == "reflag":
        if typ == "react":
            _react_card(S, seat, action["card"], ev, ship=action["ship"])
            S["sh"][action["ship"]]["rev"] = False
            ev.append({"type": "hidden", "ship": action["ship"]})
        return
    ctx = S["stack"][-1]
    if k == "shallows":
        _shallows(S, rng, ctx, typ == "pursue", ev)
        return
    if k == "passage":
        if typ == "passage":
            passage(S, rng, action["ship"], ctx.get("pmod", 0), ev)
        else:
            ev.append({"type": "passage_declined", "ship": pend["ships"][0]})
        return
    if k == "mine_order":
        ctx["tg"] = list(action["ships"])
        ev.append({"type": "mine_order", "ships": ctx["tg"]})
        return
    if typ in ("done", "pass"):
        return
    if k == "attach":
        _attach(S, ctx, action, ev)
        ctx["st"] = "attach"  # more may follow
        return
    if k == "board":
        _mark_played(S, action["card"], ev, attached_to=ctx["c"])
        ctx["bp"].append(ctx["tg"][ctx["i"]])
        return
    if k == "pursue":
        ctx["pur"] = True
        ev.append({"type": "pursuit", "ship": ctx["ship"]})
        return
    cid = action.get("card")
    if cd is None:
        cd = ACTIONS[cid]
    action = {k2: v for k2, v in action.items() if k2 != "ctype"}
    if cid is not None:
        _react_card(S, seat, cid, ev, **{k2: v for k2, v in action.items()
                                         if k2 not in ("type", "card")})
    else:
        ev.append({"type": "reaction", "seat": seat, "card": None, "card_type": cd["type"]})
    if k == "post":
        _post_apply(S, rng, ctx, action, cd, cid, ev)
        return
    if ctx["k"] == "gi":
        _gi_apply_reaction(S, rng, ctx, action, cd, cid, ev)
    elif ctx["k"] == "bi":
        _bi_apply_reaction(S, rng, ctx, cd, cid, ev)
    elif ctx["k"] == "ac":  # Reflag (R 3.3.32): hidden, the target is no longer legal
        ctx["rxn"] += 1
        t = ctx["tg"][0]
        S["sh"][t]["rev"] = False
        ev.append({"type": "hidden", "ship": t})
        ev.append({"type": "action_cancelled", "card": ctx["c"], "ship": t})
        ctx["st"] = "end"
    elif ctx["k"] == "mi":  # Minesweeper
        ctx["rxn"] += 1
        ev.append({"type": "mines_swept", "seat": seat})
        ctx["st"] = "end"
    else:
        ctx["rxn"] += 1
        ctx["rx"], ctx["rxc"], ctx["rxd"] = cd["type"], cid, _plain(cd)
        if cd["type"] == "razzle_dazzle":
            ok, _c, _r = challenge(S, rng, ev, "razzle_dazzle", seat, cd["ch"], 0, S["T"]["p"],
                                   cd["re"])
            if ok:
                ev.append({"type": "attack_cancelled", "ship": ctx["tg"][0]})
                ctx["st"] = "end"
