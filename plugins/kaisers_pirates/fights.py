"""Stepping an attack through its sequence, and the decisions taken inside it (5.6-5.10).

Each attack is a context on ``S["stack"]`` (kinds and fields: :mod:`.combat`) whose
``step`` names its next step. :func:`step` looks the step up in :data:`STEPS` and runs
it, until a seat must decide (the step sets ``S["pending"]``) or the context ends (it
pops). The sequences, at a glance (``[...]`` only sometimes):

- ``interception`` German interception of merchants (5.6.1), per merchant intercepted:
  attach → board → react → [pursue | shallows] → roll → [post | passage] → next,
  then board again for the next merchant, or end;
- ``british`` British forces, Interrogate, Monitor (5.6.2-5.6.3): [attach] → react → roll
  → [passage] → end;
- ``mines`` mine attack (5.7): attach → react → morder → roll → [post] → mnext → roll …
  → end;
- ``torpedo`` torpedo attack (5.7, 6.9): attach → check → react → roll → [post] → end;
- ``aimed`` Interned or Transfer Command at a revealed ship: [react] → roll → end.

Decisions inside a context (attach Assist cards, Boarding Party, reactions,
pursuit, Passage, Reflag windows) are listed by :func:`offers` and applied by
:func:`decide`; what each card does there is its card type's (:mod:`.cardtypes`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import TYPE_CHECKING, Any

from .cardtypes import CARD_TYPES, REACTIONS_TO
from .cardtypes import FAST_SHIP as _FAST_SHIP
from .cardtypes import MISTAKEN_IDENTITY as _MISTAKEN_IDENTITY
from .cardtypes import QQQ_CARD as _QQQ
from .cardtypes import RECALLED as _RECALLED
from .cardtypes import REFLAG as _REFLAG
from .cardtypes import SHALLOW_RUN as _SHALLOW_RUN
from .combat import (
    DONE,
    PASS,
    aimed_effect,
    attack_roll,
    gi_attack_mod,
    gi_sunk_or_captured,
    has_hand,
    in_force,
    mark_played,
    open_acts,
    passage,
    plain,
    react_card,
    reaction_offers,
)
from .data import ACTIONS, PRIZE_TORPEDO_CHECK, SHIPS
from .rules import challenge, combat_result, damage, dmg_mod, opposed, to_vp
from .state import Action, Ctx, Events, State

if TYPE_CHECKING:
    import random


# ---------------------------------------------------------------------------
# the steps
# ---------------------------------------------------------------------------

AFTER_ATTACH = {"interception": "board", "torpedo": "check", "british": "react", "mines": "react"}


def _attach(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """5.5: the phasing player may attach committed Assist cards (asked again after each)."""
    ctx["step"] = AFTER_ATTACH[ctx["kind"]]
    if open_acts(S):
        S["pending"] = {"kind": "attach", "seat": S["this_turn"]["seat"]}


def _board(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """R 3.3.3: a Boarding Party before the roll on an undamaged merchant."""
    m = ctx["targets"][ctx["index"]]
    ctx["step"] = "react"
    if open_acts(S) and S["ships"][m]["damage"] == 0:
        S["pending"] = {"kind": "board", "seat": S["this_turn"]["seat"]}


def _check(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """6.9.1: a torpedo attack on a hidden prize must find it first."""
    ctx["step"] = "react"
    m = ctx["targets"][0]
    if S["ships"][m]["prize"]:
        ch, re = PRIZE_TORPEDO_CHECK
        ok, _c, _r = challenge(
            S, rng, ev, "find_prize", S["this_turn"]["seat"], ch, 0, ctx["defender"], re
        )
        if not ok:
            ctx["step"] = "end"


def _react(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """5.8: the defender's reaction window (offered whenever his hand is not empty)."""
    ctx["reaction"] = None
    ctx["step"] = "roll"
    if ctx["kind"] == "mines":  # mines hit every merchant the defender has now
        ctx["targets"] = list(S["players"][ctx["defender"]]["merchants"])
        ctx["step"] = "morder"
    if has_hand(S, ctx["defender"]):
        S["pending"] = {"kind": "react", "seat": ctx["defender"]}


def _morder(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """5.7.3: the attacker orders the mined merchants."""
    ctx["step"] = "roll"
    if len(ctx["targets"]) > 1:
        S["pending"] = {"kind": "mine_order", "seat": S["this_turn"]["seat"]}


def _pursue(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """6.6.1: a fast raider may pursue a Fast Ship."""
    ctx["step"] = "roll"
    S["pending"] = {"kind": "pursue", "seat": S["this_turn"]["seat"]}


def _shallows(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """6.10.1: the attacker says whether he follows a Shallow Run (ShallowRun.pursued)."""
    ctx["step"] = "shallows_wait"
    S["pending"] = {"kind": "shallows", "seat": S["this_turn"]["seat"]}


def _roll(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """The attack's roll, by context kind (a reaction's duel may replace it)."""
    ROLLS[ctx["kind"]](S, rng, ctx, ev)


def _post(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """R 3.3.30 / 3.3.23: a merchant sank; its owner may answer (Recalled, Mistaken
    Identity)."""
    k = ctx["kind"]
    if k == "interception":
        ctx["sunk"] = ctx["targets"][ctx["index"]]
    ctx["step"] = "mnext" if k == "mines" else ("next" if k == "interception" else "end")
    _record_sinking(S, ctx)
    if has_hand(S, ctx["defender"]):
        S["pending"] = {"kind": "post", "seat": ctx["defender"]}


def _passage(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """R 3.2.6: the owner of an undamaged survivor *may* try Passage ("può")."""
    ctx["step"] = ctx.get("after_passage", "next")
    m = ctx["targets"][ctx["index"]]
    if in_force(S, m, ctx["defender"]) and S["ships"][m]["damage"] == 0:
        S["pending"] = {"kind": "passage", "seat": ctx["defender"], "ships": [m]}


def _mnext(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """The next mined merchant."""
    ctx["index"] += 1
    ctx["step"] = "roll"


def _next(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """The next intercepted merchant, while the interceptor is still afloat."""
    ctx["index"] += 1
    ctx["fast_ship"] = ctx["non_combatant"] = False
    ctx["n_reactions"] = 0
    alive = in_force(S, ctx["ship"], S["this_turn"]["seat"])
    ctx["step"] = "board" if alive and ctx["index"] < len(ctx["targets"]) else "end"


def _end(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    S["stack"].pop()
    _finish(S, rng, ctx, ev)


Step = Callable[["State", "random.Random", Ctx, Events], None]

#: step name (``ctx["step"]``) -> what it does; each sets the next step name
STEPS: dict[str, Step] = {
    "attach": _attach, "board": _board, "check": _check, "react": _react, "morder": _morder,
    "pursue": _pursue, "shallows": _shallows, "roll": _roll, "post": _post,
    "passage": _passage, "mnext": _mnext, "next": _next, "end": _end,
}


def step(S: State, rng: random.Random, ev: Events) -> None:
    """Run the top context until it needs a decision or is finished."""
    ctx = S["stack"][-1]
    while S["pending"] is None and S["stack"] and S["stack"][-1] is ctx:
        STEPS[ctx["step"]](S, rng, ctx, ev)


# ---------------------------------------------------------------------------
# the rolls, by context kind
# ---------------------------------------------------------------------------


def _reaction_roll(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> bool:
    """A reaction's duel in place of the roll (AMC, Trap, Q-ships)."""
    rt = CARD_TYPES.get(ctx["reaction"]) if ctx["reaction"] is not None else None
    return rt is not None and rt.roll(S, rng, ctx, ev)


def _gi_roll(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """5.6.1: the German ship's attack on the merchant."""
    x, m = ctx["ship"], ctx["targets"][ctx["index"]]
    ph, d = S["this_turn"]["seat"], ctx["defender"]
    ctx["step"] = "next"
    if _reaction_roll(S, rng, ctx, ev):
        return
    a, dd = opposed(S, rng, ev, "interception", ph, SHIPS[x]["att"], gi_attack_mod(S, ctx, True),
                    d, SHIPS[m]["def"], dmg_mod(S, m))
    res = combat_result(a, dd)
    ev.append({"type": "result", "ship": m, "result": res})
    gi_sunk_or_captured(S, ctx, m, res, ev)


def _bi_roll(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """5.6.2: the British forces' attack on a German ship or prize."""
    t, d, ph = ctx["targets"][0], ctx["defender"], S["this_turn"]["seat"]
    mod = (
        (-1 if ctx["night"] else 0)
        + (2 if ctx["surprise_attack"] else 0)
        + (3 if ctx["searchlight"] else 0)
    )
    if ctx["via"] == "monitor":
        mod += 2
    a, dd = opposed(S, rng, ev, "british_interception", ph, ctx["dice"], mod, d, SHIPS[t]["def"],
                    dmg_mod(S, t))
    res = combat_result(a, dd)
    ev.append({"type": "result", "ship": t, "result": res})
    ctx["step"] = "end"
    if res == "sunk":
        to_vp(S, t, ph, 1, "sunk", ev)  # a sunk prize is worth its normal VP (5.9)
    elif res == "damaged":
        damage(S, t, ev)
    elif S["ships"][t]["prize"] and S["ships"][t]["damage"] == 0:
        ctx["step"], ctx["passage_mod"], ctx["after_passage"] = "passage", 0, "end"


def _mi_roll(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """5.7: the mines' attack on the next merchant still in the defender's Force."""
    if ctx["index"] >= len(ctx["targets"]):
        ctx["step"] = "end"
        return
    m = ctx["targets"][ctx["index"]]
    ctx["step"] = "mnext"
    if in_force(S, m, ctx["defender"]):
        attack_roll(S, rng, ctx, m, ctx["dice"], "mines", ev)


def _to_roll(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """5.7: the torpedo attack (a Q-ship turns it into a duel)."""
    ctx["step"] = "end"
    if not _reaction_roll(S, rng, ctx, ev):
        attack_roll(S, rng, ctx, ctx["targets"][0], ctx["submarine"]["torp"], "torpedo", ev)


def _ac_roll(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """Interned / Transfer Command take effect if the target is still there."""
    ctx["step"] = "end"
    if in_force(S, ctx["targets"][0], ctx["defender"]):
        aimed_effect(S, rng, ctx["seat"], ctx["card_data"], ctx["targets"][0], ev)


ROLLS: dict[str, Step] = {
    "interception": _gi_roll,
    "british": _bi_roll,
    "mines": _mi_roll,
    "torpedo": _to_roll,
    "aimed": _ac_roll,
}


def _finish(S: State, rng: random.Random, ctx: Ctx, ev: Events) -> None:
    """Reveals after the interception and the Reflag windows they open."""
    ph = S["this_turn"]["seat"]
    if ctx["kind"] == "interception":
        x = ctx["ship"]
        if ctx["reveal_at_end"] and in_force(S, x, ph):
            _QQQ.reveal_at_end(S, ctx, ev)
        if ctx["pursued"] and in_force(S, x, ph):
            _FAST_SHIP.pursuit_supplies(S, rng, ctx, ev)
        if (
            ctx["revealed"]
            and in_force(S, x, ph)
            and S["ships"][x]["revealed"]
            and has_hand(S, ph)
            and not S["this_turn"]["deception"]
        ):  # nothing else is played in a Deception turn
            S["pending"] = {"kind": "reflag", "seat": ph, "ships": [x]}
    elif ctx["kind"] == "british" and ctx["via"] == "interrogate":
        t = ctx["targets"][0]
        if (
            in_force(S, t, ctx["defender"])
            and S["ships"][t]["revealed"]
            and has_hand(S, ctx["defender"])
        ):
            S["pending"] = {"kind": "reflag", "seat": ctx["defender"], "ships": [t]}


# ---------------------------------------------------------------------------
# decisions inside a context
# ---------------------------------------------------------------------------


def _attach_offers(S: State, ctx: Ctx, window: str) -> list[Action]:
    """``done``, then each committed Assist card's ways to join, in commit order."""
    acts = [DONE]
    if (
        window == "attach"
        and ctx["kind"] == "british"
        and (ctx["surprise_attack"] or ctx["searchlight"])
        and not S["options"]["a4_two_assists"]
    ):
        return acts  # R 3.2.3: only one Surprise Attack *or* Searchlight
    for e in open_acts(S):
        acts += CARD_TYPES[ACTIONS[e["card"]]["type"]].attach_offers(S, ctx, e["card"], window)
    return acts


def _allowed_reactions(S: State, ctx: Ctx) -> dict[str, list[dict[str, Any]]]:
    out = {}
    for rt in REACTIONS_TO[ctx["kind"]]:
        extras = rt.answers(S, ctx)
        if extras is not None:
            out[rt.name] = extras
    return out


def offers(S: State, pend: dict[str, Any]) -> list[Action]:
    """Legal actions for a pending decision that belongs to the top context."""
    k = pend["kind"]
    if k == "reflag":
        return reaction_offers(S, pend["seat"], _REFLAG.window_offers(pend["ships"]))
    ctx = S["stack"][-1]
    if k in ("attach", "board"):
        return _attach_offers(S, ctx, k)
    if k in ("pursue", "shallows"):
        return [DONE, {"type": "pursue"}]
    if k == "passage":
        return [PASS, {"type": "passage", "ship": pend["ships"][0]}]
    if k == "mine_order":
        return [{"type": "order_targets", "ships": list(p)}
                for p in permutations(sorted(ctx["targets"]))]
    if k == "post":
        return _post_offers(S, ctx)
    return reaction_offers(S, ctx["defender"], _allowed_reactions(S, ctx))  # react


#: after a reaction to a context of this kind, its next step (the card may change it)
AFTER_REACTION = {"interception": "roll", "british": "end", "aimed": "end", "mines": "end"}


def _record_reaction(ctx: Ctx, cd: dict[str, Any], cid: int | None) -> None:
    """The context remembers the reaction: one per attack (3.2.2), and the duels and
    the 6.10 shallows need its card."""
    k = ctx["kind"]
    if k == "interception":
        ctx["reaction"], ctx["reaction_card"], ctx["reaction_data"] = cd["type"], cid, plain(cd)
    ctx["n_reactions"] += 1
    if k == "torpedo":
        ctx["reaction"], ctx["reaction_card"], ctx["reaction_data"] = cd["type"], cid, plain(cd)
    elif k == "british":
        ctx["reaction"] = cd["type"]
    if k in AFTER_REACTION:
        ctx["step"] = AFTER_REACTION[k]


def decide(S: State, rng: random.Random, pend: dict[str, Any], action: Action,
           ev: Events, cd: dict[str, Any] | None = None) -> None:
    """Apply a (validated) decision. ``cd`` replaces the card data for phantom reactions."""
    k = pend["kind"]
    typ = action["type"]
    seat = pend["seat"]
    if k == "reflag":
        _REFLAG.window_apply(S, seat, action, ev)
        return
    ctx = S["stack"][-1]
    if k == "shallows":
        _SHALLOW_RUN.pursued(S, rng, ctx, typ == "pursue", ev)
        return
    if k == "passage":
        if typ == "passage":
            passage(S, rng, action["ship"], ctx.get("passage_mod", 0), ev)
        else:
            ev.append({"type": "passage_declined", "ship": pend["ships"][0]})
        return
    if k == "mine_order":
        ctx["targets"] = list(action["ships"])
        ev.append({"type": "mine_order", "ships": ctx["targets"]})
        return
    if typ in ("done", "pass"):
        return
    if k in ("attach", "board"):
        mark_played(S, action["card"], ev, attached_to=ctx["card"])
        CARD_TYPES[ACTIONS[action["card"]]["type"]].attach(S, ctx, action)
        if k == "attach":
            ctx["step"] = "attach"  # more may follow
        return
    if k == "pursue":
        _FAST_SHIP.pursue(ctx, ev)
        return
    cid = action.get("card")
    if cd is None:
        cd = ACTIONS[cid]
    action = {k2: v for k2, v in action.items() if k2 != "ctype"}
    if cid is not None:
        react_card(S, seat, cid, ev, **{k2: v for k2, v in action.items()
                                        if k2 not in ("type", "card")})
    else:
        ev.append({"type": "reaction", "seat": seat, "card": None, "card_type": cd["type"]})
    if k == "post":
        _post_apply(S, rng, ctx, action, cd, ev)
        return
    _record_reaction(ctx, cd, cid)
    CARD_TYPES[cd["type"]].react(S, rng, ctx, action, cd, cid, ev)


# ---------------------------------------------------------------------------
# answering a sinking: Recalled and Mistaken Identity (R 3.3.30, 3.3.23)
# ---------------------------------------------------------------------------


def _record_sinking(S: State, ctx: Ctx) -> None:
    """Remember a sinking of the defender's merchant for Recalled and Mistaken Identity,
    which may answer it "at any time after" in this turn (R 3.3.30, 3.3.23). Under
    3.2.2 (``a39_strict``) a sinking in an attack already answered stays closed."""
    T = S["this_turn"]
    is_open = not (S["options"]["a39_strict"] and ctx.get("n_reactions"))
    T["sinkings"].append(
        {
            "merchant": ctx["sunk"],
            "ship": ctx["ship"] if ctx["kind"] == "interception" else None,
            "defender": ctx["defender"],
            "open": is_open,
        }
    )
    ctx["sinking"] = len(T["sinkings"]) - 1
    T["late_asked"].append(
        ctx["defender"]
    )  # just asked (the post window); again after the next card


def _post_offers(S: State, ctx: Ctx) -> list[Action]:
    """Right after a sinking: what its owner may answer it with (once per sinking)."""
    if not S["this_turn"]["sinkings"][ctx["sinking"]]["open"]:
        return [PASS]
    allowed = {}
    for rt in (_RECALLED, _MISTAKEN_IDENTITY):
        extras = rt.post_answers(S, ctx)
        if extras is not None:
            allowed[rt.name] = extras
    return reaction_offers(S, ctx["defender"], allowed)


def _post_apply(S: State, rng: random.Random, ctx: Ctx, action: Action,
                cd: dict[str, Any], ev: Events) -> None:
    d, ph = ctx["defender"], S["this_turn"]["seat"]
    S["this_turn"]["sinkings"][ctx["sinking"]]["open"] = False  # one reaction per sinking
    ok, _c, _r = challenge(S, rng, ev, cd["type"], d, cd["ch"], 0, ph, cd["re"])
    if not ok:
        return
    if cd["type"] == "recalled":
        _RECALLED.answer(S, d, ctx["ship"], ev)
        ctx["targets"] = ctx["targets"][:ctx["index"] + 1]
        return
    _MISTAKEN_IDENTITY.answer(S, d, ph, action["swap"], ctx["sunk"], ev)


def _late_allowed(S: State, seat: int) -> dict[str, list[dict[str, Any]]]:
    """What ``seat`` could still answer of this turn's sinkings of its merchants."""
    sinkings = [rec for rec in S["this_turn"]["sinkings"]
                if rec["defender"] == seat and rec["open"]]
    allowed = {}
    for rt in (_RECALLED, _MISTAKEN_IDENTITY):
        extras = rt.late_answers(S, seat, sinkings)
        if extras is not None:
            allowed[rt.name] = extras
    return allowed


def late_seat(S: State) -> int | None:
    """A defender to ask now whether he answers an earlier sinking (R 3.3.30, 3.3.23).

    Asked after the sinking (the ``post`` window) and again after every later card
    the phasing player plays, while a sinking can still be answered; asked whenever
    his hand is not empty, like every reaction window. The phantom holds neither card.
    """
    T = S["this_turn"]
    for rec in T["sinkings"]:
        d = rec["defender"]
        if d in T["late_asked"] or (S["mode"] == "solo" and d == 1) or not S["players"][d]["hand"]:
            continue
        if _late_allowed(S, d):
            return d
    return None


def late_offers(S: State, seat: int) -> list[dict[str, Any]]:
    return reaction_offers(S, seat, _late_allowed(S, seat))


def late_apply(S: State, rng: random.Random, seat: int, action: dict[str, Any],
               ev: Events) -> None:
    """Recalled (the interceptor goes home) or Mistaken Identity, later in the turn."""
    T = S["this_turn"]
    T["late_asked"].append(seat)
    if action["type"] != "react":
        return
    cid = action["card"]
    cd = ACTIONS[cid]
    react_card(S, seat, cid, ev, **{k: v for k, v in action.items() if k not in ("type", "card")})
    ph = T["seat"]
    for rec in T["sinkings"]:  # one reaction per sinking
        if rec["defender"] == seat and (
            rec["ship"] == action.get("ship")
            if cd["type"] == "recalled"
            else rec["merchant"] == action["took"]
        ):
            rec["open"] = False
    ok, _c, _r = challenge(S, rng, ev, cd["type"], seat, cd["ch"], 0, ph, cd["re"])
    if not ok:
        return
    if cd["type"] == "recalled":
        _RECALLED.answer(S, seat, action["ship"], ev)
        return
    _MISTAKEN_IDENTITY.answer(S, seat, ph, action["swap"], action["took"], ev)
