"""How good a position is for one seat: the heuristic the greedy and search bots use.

A position is worth its Round Points and VP (what scoring counts), a little for
every card in hand and for every live Prize, and, while the phasing player commits
and resolves, what his attacks can still be expected to bring: the committed,
unplayed attack cards played at the best single opponent with each target taken
once, and each interception, mine or torpedo attack still on the stack, at their
expected VP. Without that last term committing a card only loses a card from the
hand, and a one-ply bot never attacks. Other committed cards count a little less
than a hand card: they are lost if they find no use.

Expected values come from the exact distribution of the highest die (digest 2.4)
and the combat table (5.2): sunk at double, damaged above, else nothing. A miss
against an undamaged merchant lets it try Passage (5.10), which is counted
against the attacker. Reactions the defender may hold are not seen; every
attack is discounted by ``REACTION_RISK`` for them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import plays
from .data import ACTIONS, SHIPS
from .rules import attack_targets, dmg_mod, kind, vp_total
from .state import State

RP_WEIGHT = 12.0  # one Round Point is worth about a good round's VP margin
HAND_CARD = 0.3  # a card in hand: options for later turns and reactions
LIVE_PRIZE = 0.5  # of a prize's double value: it still has to survive the round
REACTION_RISK = 0.75  # share of an attack's value left after the defender's reactions
ASSIST = 1.0  # an Assist card committed next to an attack it can help
COMMITTED_CARD = 0.25  # a committed card that attacks nothing


@cache
def _max_dist(dice: tuple[int, ...]) -> tuple[float, ...]:
    """P(highest die = k) for k = 0..10 (index 0 unused)."""
    out = [0.0] * 11
    for k in range(1, 11):
        le = 1.0
        lt = 1.0
        for d in dice:
            le *= min(k, d) / d
            lt *= min(k - 1, d) / d
        out[k] = le - lt
    return tuple(out)


@cache
def odds(att: tuple[int, ...], a_mod: int, dfn: tuple[int, ...], d_mod: int) -> tuple[float, float]:
    """(P sunk, P damaged) of an attack (5.2), modifiers applied, floor 1 (5.4)."""
    pa, pd = _max_dist(att), _max_dist(dfn)
    sunk = dmg = 0.0
    for i in range(1, 11):
        if not pa[i]:
            continue
        a = max(1, i + a_mod)
        for j in range(1, 11):
            if not pd[j]:
                continue
            d = max(1, j + d_mod)
            p = pa[i] * pd[j]
            if a >= 2 * d:
                sunk += p
            elif a > d:
                dmg += p
    return sunk, dmg


@cache
def beats(ch: tuple[int, ...], mod: int, re: tuple[int, ...]) -> float:
    """P(modified Challenge > Response) (5.3)."""
    pc, pr = _max_dist(ch), _max_dist(re)
    return sum(pc[i] * pr[j] for i in range(1, 11) for j in range(1, 11)
               if pc[i] and pr[j] and max(1, i + mod) > j)


def _merchant_ev(S: State, att: list[int], a_mod: int, m: int, mult: int = 1) -> float:
    """Expected VP of an attack on merchant ``m``: sinkings, less the Passage a miss allows."""
    st = S["ships"][m]
    sunk, dmg = odds(tuple(att), a_mod, tuple(SHIPS[m]["def"]), dmg_mod(S, m))
    vp = SHIPS[m]["vp"]
    ev = sunk * vp * mult
    if not st["damage"] and not st["prize"]:
        miss = 1.0 - sunk - dmg
        ev -= miss * beats(tuple(SHIPS[m]["pch"]), 0, tuple(SHIPS[m]["pre"])) * vp
    return ev


def _german_ev(S: State, att: list[int], a_mod: int, t: int) -> float:
    """Expected VP of a British-forces attack on a German ship or prize ``t``."""
    sunk, _dmg = odds(tuple(att), a_mod, tuple(SHIPS[t]["def"]), dmg_mod(S, t))
    return sunk * SHIPS[t]["vp"]


def _gi_mod(S: State, x: int, night: bool) -> int:
    """5.5.1: damage, Limited Supply and Night modifiers of an intercepting ship."""
    return dmg_mod(S, x) - (2 if S["ships"][x]["limited_supply"] else 0) - (1 if night else 0)


def _options(S: State, seat: int, e: dict[str, Any], o: int) -> list[tuple[float, Any]]:
    """(expected VP, target key) of each way one committed attack card can hit seat ``o``.

    The key is what two attacks cannot share this turn (a merchant intercepted, a ship
    intercepted by British forces, a merchant torpedoed); None for mines.
    """
    c, use = e["card"], e["use"]
    cd = ACTIONS[c]
    out: list[tuple[float, Any]] = []
    for a in plays.plays(S, seat, e):
        tg, ts = a.get("target"), a.get("target_seat")
        if (ts if tg is None else S["ships"][tg]["owner"]) != o:
            continue
        if use == "icpt":
            x = e["ship"]
            mod = _gi_mod(S, x, cd["night"])
            out.append((_merchant_ev(S, SHIPS[x]["att"], mod, tg), ("m", tg)))
        elif use == "brit":
            out.append((_german_ev(S, cd["icpt"], -1 if cd["night"] else 0, tg), ("g", tg)))
        elif use == "mines" or a.get("mode") == "mines":
            out.append(
                (sum(_merchant_ev(S, cd["mine"], 0, m) for m in S["players"][o]["merchants"]), None)
            )
        elif kind(S, tg) == "merchant":
            out.append((_merchant_ev(S, cd["torp"], 0, tg), ("t", tg)))
    return out


def _is_attack(e: dict[str, Any]) -> bool:
    return e["use"] != "act" or ACTIONS[e["card"]]["type"] in ("submarine_u", "submarine_uc")


def _attacks_ev(S: State, seat: int, entries: list[dict[str, Any]]) -> float:
    """Expected VP of the committed attacks, played at the best single opponent (4.6.1:
    one opponent per turn), each target used once: a card with no target of its own
    left is worth nothing, so a bot does not commit four cards against one ship."""
    best = 0.0
    for o in attack_targets(S, seat):
        pairs = sorted(((ev, i, key) for i, e in enumerate(entries)
                        for ev, key in _options(S, seat, e, o)), key=lambda x: -x[0])
        done: set[int] = set()
        used: set[Any] = set()
        total = 0.0
        for ev, i, key in pairs:
            if i in done or (key is not None and key in used) or ev <= 0:
                continue
            done.add(i)
            used.add(key)
            total += ev
        best = max(best, total)
    return REACTION_RISK * best


def _assist_ev(S: State, e: dict[str, Any]) -> float:
    """An Assist card counts when an attack it can join is committed or under way."""
    t = ACTIONS[e["card"]]["type"]
    T = S["this_turn"]
    attacks = [x for x in T["committed"] if not x["played"] and x["use"] in ("icpt", "brit")]
    attacks += [ctx for ctx in S["stack"] if ctx["kind"] in ("interception", "british")]
    if t in ("surprise_attack", "searchlight", "boarding_party"):
        return ASSIST if attacks else 0.0
    if t in ("good_hunting", "shipping_lanes"):
        want = "raider" if t == "good_hunting" else "warship"
        return ASSIST if any(x.get("ship") is not None and SHIPS[x["ship"]]["kind"] == want
                             for x in attacks) else 0.0
    if t == "special_cargo":
        return ASSIST if attacks else 0.0
    return 0.0


def _stack_ev(S: State, ctx: dict[str, Any]) -> float:
    """Expected VP still to come from an attack under way."""
    if ctx.get("step") == "end":
        return 0.0
    k = ctx["kind"]
    if k == "interception":
        x = ctx["ship"]
        if S["ships"][x] is None:
            return 0.0
        mod = (
            _gi_mod(S, x, ctx["night"])
            + (2 if ctx["surprise_attack"] else 0)
            + (3 if ctx["searchlight"] else 0)
        )
        mult = 2 if ctx["special_cargo"] else 1
        rest = [m for m in ctx["targets"][ctx["index"]:] if S["ships"][m] is not None
                and S["ships"][m]["owner"] == ctx["defender"]]
        return sum(_merchant_ev(S, SHIPS[x]["att"], mod, m, mult) for m in rest)
    if k == "british":
        t = ctx["targets"][0]
        if S["ships"][t] is None or ctx.get("reaction") is not None:
            return 0.0
        mod = (
            (-1 if ctx["night"] else 0)
            + (2 if ctx["surprise_attack"] else 0)
            + (3 if ctx["searchlight"] else 0)
        )
        return _german_ev(S, ctx["dice"], mod, t)
    if k == "mines":
        tg = (
            ctx["targets"][ctx["index"] :]
            if ctx["targets"]
            else S["players"][ctx["defender"]]["merchants"]
        )
        return sum(_merchant_ev(S, ctx["dice"], 0, m) for m in tg
                   if S["ships"][m] is not None and S["ships"][m]["owner"] == ctx["defender"])
    if k == "torpedo":
        m = ctx["targets"][0]
        if S["ships"][m] is None or kind(S, m) != "merchant":
            return 0.0
        return _merchant_ev(S, ctx["submarine"]["torp"], 0, m)
    return 0.0


def pending(S: State, seat: int) -> float:
    """Expected VP of ``seat``'s committed cards and attacks under way (0 off its turn)."""
    T = S["this_turn"]
    if (
        T is None
        or T["seat"] != seat
        or S["phase"] != "play"
        or T["stage"] not in ("commit", "resolve")
    ):
        return 0.0  # once the turn ends, what was not played is lost
    total = 0.0
    attacks = []
    for e in T["committed"]:
        if e["played"]:
            continue
        if _is_attack(e):
            attacks.append(e)
        elif ACTIONS[e["card"]]["kind"] == "A":
            total += _assist_ev(S, e)
        elif plays.plays(S, seat, e):  # any other action: about what it was worth in hand,
            total += COMMITTED_CARD  # a little less, as it is lost if it finds no use
    total += _attacks_ev(S, seat, attacks)
    for ctx in S["stack"]:
        if ctx["kind"] in (
            "interception",
            "british",
            "mines",
            "torpedo",
        ):  # after a reaction there is no more risk
            total += _stack_ev(S, ctx) * (REACTION_RISK if ctx.get("reaction") is None else 1.0)
    return total


def position(S: State, seat: int, keys: list[tuple[int, int]]) -> float:
    """The value of one seat's position, before comparing with the others."""
    p = S["players"][seat]
    live = sum(SHIPS[x]["vp"] * 2 for x in p["german"] if S["ships"][x]["prize"])
    return (RP_WEIGHT * keys[seat][0] + vp_total(S, seat) + LIVE_PRIZE * live
            + HAND_CARD * len(p["hand"]) + pending(S, seat))
