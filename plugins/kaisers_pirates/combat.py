"""The pieces every attack is made of: contexts, reaction windows, rolls, duels.

An attack (an interception, a mine or torpedo attack, an Interned or Transfer
Command aimed at a revealed ship) is a *context* dict pushed on ``S["stack"]``;
:mod:`.fights` steps it through its sequence, the card types of :mod:`.cardtypes`
attach to it, react to it and change it. Both use the helpers here, which is why
they live in neither.

Context kinds (``ctx["kind"]``; fields: :class:`.state.Context`): ``interception``
German interception of merchants (5.6.1), ``british`` British-forces interception, also
used by Interrogate and Monitor (5.6.2-5.6.3), ``mines`` mine attack, ``torpedo``
torpedo attack (5.7), ``aimed`` Interned or Transfer Command aimed at a revealed Raider
or Prize, which its owner may answer with Reflag (R 3.3.32).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import ACTIONS, PRIZE_EXHAUST_CHECK, SHIPS
from .rules import (
    action_to_vp,
    challenge,
    combat_result,
    damage,
    dmg_mod,
    kind,
    opposed,
    remove_ship,
    to_used,
    to_vp,
)
from .state import Ctx, Events, State, new_attack, new_status

if TYPE_CHECKING:
    import random


PASS = {"type": "pass"}
DONE = {"type": "done"}


def plain(cd: dict[str, Any]) -> dict[str, Any]:
    """A copy of card data for the state: the state never shares lists with ``data``."""
    return {k: list(v) if isinstance(v, list) else v for k, v in cd.items()}


def opt(S: State, name: str) -> bool:
    return bool(S["options"][name])


def open_acts(S: State) -> list[dict[str, Any]]:
    """Committed, not yet played cards placed upright in front of the Force."""
    return [e for e in S["this_turn"]["committed"] if not e["played"] and e["use"] == "act"]


def mark_played(S: State, cid: int, ev: Events, **info: Any) -> None:
    for e in S["this_turn"]["committed"]:
        if e["card"] == cid:
            e["played"] = True
    ev.append({"type": "card_played", "seat": S["this_turn"]["seat"], "card": cid, **info})


def in_force(S: State, sid: int, seat: int) -> bool:
    st = S["ships"][sid]
    return st is not None and st["owner"] == seat


def has_hand(S: State, seat: int) -> bool:
    """A seat is offered a reaction window whenever its hand is not empty.

    Asking only when a reaction is possible would tell everyone that it holds one.
    """
    if S["mode"] == "solo" and seat == 1:
        return True  # the phantom always draws a Solitaire card (R 5.3.3)
    return bool(S["players"][seat]["hand"])


def react_card(S: State, seat: int, cid: int | None, ev: Events, **info: Any) -> None:
    if cid is not None:
        S["players"][seat]["hand"].remove(cid)
        S["this_turn"]["reactions"].append([seat, cid])
    ev.append({"type": "reaction", "seat": seat, "card": cid,
               "card_type": ACTIONS[cid]["type"] if cid is not None else info.pop("ctype"),
               **info})


def reaction_offers(S: State, seat: int,
                     allowed: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """``pass`` then one action per matching hand card (ascending id).

    For the solitaire phantom, whose reactions come from the Solitaire deck, every
    allowed reaction type is listed with ``card`` None and its ``ctype``.
    """
    acts = [PASS]
    if S["mode"] == "solo" and seat == 1:
        return acts + [{"type": "react", "card": None, "ctype": t, **extra}
                       for t, extras in allowed.items() for extra in extras]
    for c in sorted(S["players"][seat]["hand"]):
        for extra in allowed.get(ACTIONS[c]["type"], ()):
            acts.append({"type": "react", "card": c, **extra})
    return acts


def passage(S: State, rng: random.Random, sid: int, mod: int, ev: Events) -> bool:
    """5.10: the owner rolls the merchant's Challenge, another player its Response."""
    own = S["ships"][sid]["owner"]
    other = next(s for s in range(S["n_players"]) if s != own)
    ok, _c, _r = challenge(S, rng, ev, "passage", own, SHIPS[sid]["pch"], mod, other,
                           SHIPS[sid]["pre"])
    prize = S["ships"][sid]["prize"]
    if ok:
        to_vp(S, sid, own, 2 if prize else 1, "passage", ev)
    else:
        ev.append({"type": "passage_failed", "ship": sid})
    return ok


def prize_resupply_auto(S: State, sid: int, ev: Events) -> None:
    """5.9: a capture resupplies the intercepting ship (replaced by 6.12)."""
    st = S["ships"][sid]
    if st is not None and st["limited_supply"] and not opt(S, "prize_resupply"):
        st["limited_supply"] = False
        ev.append({"type": "resupplied", "ship": sid})


def prize_exhaust_check(S: State, rng: random.Random, prize: int, ev: Events) -> None:
    """6.12.2 (A-18): an opponent rolls 10/8 as Challenge, the owner a d10."""
    own = S["ships"][prize]["owner"]
    other = next(s for s in range(S["n_players"]) if s != own)
    ch, re = PRIZE_EXHAUST_CHECK
    if opt(S, "a18_owner_rolls"):
        c, r = opposed(S, rng, ev, "prize_supplies", own, ch, 0, other, re, 0)
        failed = c <= r
    else:
        failed, _c, _r = challenge(S, rng, ev, "prize_supplies", other, ch, 0, own, re)
    if failed:
        to_vp(S, prize, own, 1, "prize_exhausted", ev)


def start_gi(S: State, cid: int | None, ship_id: int, target: int,
             night: bool | None = None) -> Ctx:
    """Push a German interception; ``cid`` None (and ``night``) for the phantom."""
    T = S["this_turn"]
    d = S["ships"][target]["owner"]
    T["attacked_seat"] = d
    T["intercepted"].append(target)
    T["acted"].append(ship_id)
    ctx = new_attack(
        "interception", cid, d, [target], "attach",
        ship=ship_id,
        night=ACTIONS[cid]["night"] if night is None else night,
        surprise_attack=False, searchlight=False, special_cargo=False, boarded=[],
        fast_ship=False, non_combatant=False, pursued=False, reveal_at_end=False,
        revealed=False,
    )
    S["stack"].append(ctx)
    return ctx


def gi_attack_mod(S: State, ctx: Ctx, with_merchant_mods: bool) -> int:
    """5.5.1: interception attack modifiers of the German ship."""
    x = ctx["ship"]
    st = S["ships"][x]
    mod = dmg_mod(S, x)
    if st["limited_supply"]:
        mod -= 2
    if ctx["night"]:
        mod -= 1
    if ctx["surprise_attack"]:
        mod += 4 if S["options"]["woelfchen"] and SHIPS[x]["wolf"] else 2  # 6.3.1
    if ctx["searchlight"]:
        mod += 3
    if with_merchant_mods:
        if ctx["fast_ship"] and not ctx["pursued"]:
            mod -= 4 if S["options"]["sails"] and SHIPS[x]["sails"] else 2  # 6.2.6
        if ctx["non_combatant"]:
            mod -= 2
    return mod


def gi_sunk_or_captured(S: State, ctx: Ctx, m: int, res: str, ev: Events) -> None:
    """Apply a result to the merchant: capture (BP / Non-Combatant), sink, damage, Passage."""
    ph = S["this_turn"]["seat"]
    capture = m in ctx["boarded"] or ctx["non_combatant"]
    if capture:
        if res == "sunk":  # 5.9: captured as a hidden Prize
            remove_ship(S, m)
            S["ships"][m] = new_status(ph, prize=True)
            S["players"][ph]["german"].append(m)
            ev.append({"type": "captured", "ship": m, "seat": ph, "by": ctx["ship"]})
            prize_resupply_auto(S, ctx["ship"], ev)
            return
        ctx["step"] = "passage"
        ctx["passage_mod"] = 2 if ctx["non_combatant"] else 0
        return
    if res == "sunk":
        to_vp(S, m, ph, 2 if ctx["special_cargo"] else 1, "sunk_m", ev)
        ctx["step"] = "post"
        return
    if res == "damaged":
        damage(S, m, ev)
        return
    ctx["step"] = "passage"
    ctx["passage_mod"] = 0


def gi_duel(S: State, rng: random.Random, ctx: Ctx, ev: Events, label: str,
            attack: list[int], target_def: list[int], target_ship: int | None) -> str:
    """A simultaneous duel (R 3.3.1 armed merchant cruiser, R 3.3.46 Q-ship trap): the
    defender's reaction fires at the raider while the raider fires at its target
    (``target_ship``, or None for the cruiser itself). Resolves the raider's side and
    returns the raider's result against the target."""
    x = ctx["ship"]
    ph, d = S["this_turn"]["seat"], ctx["defender"]
    night = -1 if ctx["night"] else 0
    a1, d1 = opposed(S, rng, ev, label, d, attack, night, ph, SHIPS[x]["def"], dmg_mod(S, x))
    a2, d2 = opposed(S, rng, ev, "interception", ph, SHIPS[x]["att"],
                     gi_attack_mod(S, ctx, target_ship is not None), d, target_def,
                     dmg_mod(S, target_ship) if target_ship is not None else 0)
    r1, r2 = combat_result(a1, d1), combat_result(a2, d2)
    ev.append({"type": "duel", "results": [r1, r2]})
    reveal(S, ctx, ev)
    if r1 == "sunk":
        to_vp(S, x, d, 1, "sunk", ev)
    elif r1 == "damaged":
        damage(S, x, ev)
    return r2


def reveal(S: State, ctx: Ctx, ev: Events) -> None:
    x = ctx["ship"]
    st = S["ships"][x]
    if st is not None and kind(S, x) == "raider" and not st["revealed"]:
        st["revealed"] = True
        ctx["revealed"] = True
        ev.append({"type": "revealed", "ship": x})


def shallow_run(S: State, rng: random.Random, sid: int, seat: int, attacker: int,
                 cd: dict[str, Any], ev: Events) -> None:
    """Automatic escape, then a crossing roll: failure damages, or sinks a damaged ship."""
    was = S["ships"][sid]["damage"]
    mod = dmg_mod(S, sid)
    if S["options"]["fast_raiders"] and SHIPS[sid]["fast"]:
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


def crossing(S: State, rng: random.Random, sid: int, seat: int, other: int,
              cd: dict[str, Any], extra: int, ev: Events) -> None:
    """6.10.2-6.10.3: one ship's crossing; failure damages, or sinks a damaged ship."""
    was = S["ships"][sid]["damage"]
    ok, _c, _r = challenge(S, rng, ev, "shallows_crossing", seat, cd["ch"],
                           dmg_mod(S, sid) + extra, other, cd["re"])
    if ok:
        return
    if was:
        how = "sunk_m" if kind(S, sid) == "merchant" else "sunk"
        to_vp(S, sid, other, 1, how, ev)
    else:
        damage(S, sid, ev)


def start_bi(S: State, cid: int | None, target: int, via: str,
             cd: dict[str, Any] | None = None) -> Ctx:
    """Push a British-forces interception (``cd``: the phantom's Solitaire-card data)."""
    T = S["this_turn"]
    d = S["ships"][target]["owner"]
    T["attacked_seat"] = d
    T["intercepted"].append(target)
    cd = ACTIONS[cid] if cd is None else cd
    dice = cd["icpt"] if via == "brit" else cd["att"]
    ctx = new_attack(
        "british", cid, d, [target], "attach" if via == "brit" else "react",
        via=via, dice=list(dice), night=cd["night"] and via == "brit",
        surprise_attack=False, searchlight=False, special_cargo=False,
    )
    S["stack"].append(ctx)
    return ctx


def start_mines(S: State, cid: int | None, target_seat: int, dice: list[int],
                ship_id: int | None) -> None:
    T = S["this_turn"]
    T["attacked_seat"] = target_seat
    if ship_id is not None:
        T["acted"].append(ship_id)
    S["stack"].append(new_attack(
        "mines", cid, target_seat, [], "attach",
        dice=list(dice), special_cargo=False, surprise_attack=False, searchlight=False,
        night=False,
    ))


def start_torpedo(S: State, cid: int | None, target: int,
                  sub: dict[str, Any] | None = None) -> None:
    """Push a torpedo attack; ``sub`` carries the phantom submarine's dice."""
    T = S["this_turn"]
    d = S["ships"][target]["owner"]
    T["attacked_seat"] = d
    sub = ACTIONS[cid] if sub is None else sub
    S["stack"].append(new_attack(
        "torpedo", cid, d, [target], "attach",
        special_cargo=False, surprise_attack=False, searchlight=False, night=False,
        submarine={k: list(sub[k]) for k in ("torp", "gun", "def")},
    ))


def start_aimed(S: State, cid: int | None, cd: dict[str, Any], seat: int, target: int) -> None:
    """Interned or Transfer Command: at a revealed Raider or Prize its owner may first
    play Reflag (R 3.3.32); hidden again, the ship is no longer a legal target and
    the card has no effect. At a Warship (never hidden) the effect follows at once."""
    d = S["ships"][target]["owner"]
    S["stack"].append(new_attack(
        "aimed", cid, d, [target], "react" if kind(S, target) != "warship" else "roll",
        card_data=plain(cd), seat=seat,
    ))


def aimed_effect(S: State, rng: random.Random, seat: int, cd: dict[str, Any], tg: int,
                 ev: Events) -> None:
    """The Challenge of Interned (+2 per damage / Limited Supply, A-30) or Transfer
    Command; a transferred ship keeps its status, an Island Refuge included."""
    o = S["ships"][tg]["owner"]
    if cd["type"] == "interned":
        mod = -dmg_mod(S, tg) + (2 if S["ships"][tg]["limited_supply"] else 0)
        ok, _c, _r = challenge(S, rng, ev, "interned", seat, cd["ch"], mod, o, cd["re"])
        if ok:
            to_used(S, tg, ev, "interned")
        return
    ok, _c, _r = challenge(S, rng, ev, "transfer_command", seat, cd["ch"], 0, o, cd["re"])
    if ok:
        S["players"][o]["german"].remove(tg)
        S["ships"][tg]["owner"] = seat
        S["players"][seat]["german"].append(tg)
        ev.append({"type": "transferred", "ship": tg, "seat": seat})


def sub_sunk(S: State, ctx: Ctx, winner: int, ev: Events) -> None:
    c = ctx["card"]
    if c is None:  # the phantom's submarine is no card: it just sinks
        ev.append({"type": "phantom_submarine_sunk"})
        return
    S["this_turn"]["committed"] = [e for e in S["this_turn"]["committed"] if e["card"] != c]
    action_to_vp(S, c, winner, ev)


def attack_roll(S: State, rng: random.Random, ctx: Ctx, m: int, dice: list[int], what: str,
                 ev: Events) -> None:
    ph = S["this_turn"]["seat"]
    a, dd = opposed(S, rng, ev, what, ph, dice, 0, ctx["defender"], SHIPS[m]["def"], dmg_mod(S, m))
    res = combat_result(a, dd)
    ev.append({"type": "result", "ship": m, "result": res})
    if res == "sunk":
        prize = S["ships"][m]["prize"]
        to_vp(
            S,
            m,
            ph,
            1 if prize else (2 if ctx["special_cargo"] else 1),
            "sunk" if prize else "sunk_m",
            ev,
        )
        if not prize:
            ctx["sunk"] = m
            ctx["step"] = "post"
    elif res == "damaged":
        damage(S, m, ev)


