"""Nero's rules engine: setup, Game Turns, Player Rounds, and the decision stack.

Every decision the game asks for is either the active player's next step of his round
(digest 5.2) or the item on top of ``S["pend"]``, a stack (digest 5.2, engine note:
"a stack, last in first out"): a retreat decision, a passage request, a battle's secret
card commitment, a window in which the seats holding a fitting any-time card may answer,
an assassination's opposition, a Germanic relocation or a Revolt's Legion to bring.
Items of kind ``do`` are not decisions: they are the effects waiting under a window, and
:func:`settle` runs them once the window above them closes.

Movement (5.4), battles (5.6) and events (6.2) live in :mod:`.moves` and :mod:`.events`;
this module owns the flow of play and the dispatch of actions.
"""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import IllegalAction

from . import board as B
from . import events as E
from . import moves as M
from .data import AREAS, CARDS, GAME_TURNS, HAND, IN_AREA, LEGIONS_PER_SEAT, NCARDS, ROME
from .hands import card_arg, deal_masked, own_card, use_cards

State = dict[str, Any]
Events = list[dict[str, Any]]


# --- setup -------------------------------------------------------------------------


def new_state(seats: int, opt: dict[str, Any], rng: random.Random, ev: Events,
              hidden: bool = False) -> State:
    """Digest 4: Bases by draw order, 7 Legions and a General per seat, 4 Game Turns.
    ``hidden``: the cards are a hidden deck that the seats deal (:mod:`.hidden`)."""
    youngest = opt["youngest"]
    if not isinstance(youngest, int) or isinstance(youngest, bool) \
            or not 0 <= youngest < seats:
        raise IllegalAction(f"youngest must be a seat 0..{seats - 1}, got {youngest!r}")
    S: State = {
        # The option hidden_deck is kept only when on: a plain game's state is as it was.
        "n": seats, "opt": {k: v for k, v in opt.items() if k != "hidden_deck" or v},
        "gt": 1, "over": False, "auto": None,
        "base": [None] * seats, "empty": None, "act": youngest, "first": youngest,
        "final": False, "hands": [[] for _ in range(seats)], "box": [], "seen": [],
        "vp": [0] * seats, "L": [], "ldr": [], "germ": [], "used": 0, "once": [],
        "hit": [], "mv": None, "pend": [], "setup": True,
    }
    # Step 2: each seat's marker is drawn from a cup; the drawn seat picks an Area.
    order = list(range(seats))
    rng.shuffle(order)
    ev.append({"type": "draw_order", "order": order})
    S["setup"] = True
    S["ldr"] = [[None, B.GENERAL, False] for _ in range(seats)]
    S["pend"] = [{"k": "base", "seat": s} for s in reversed(order)]
    if hidden:
        S["hid"] = {"claims": {}}
    _deal(S, rng, ev)
    return S


def _after_bases(S: State, ev: Events) -> None:
    """Steps 3-4, once every Base is chosen: 1 Legion in each Base province; then the
    other 2, one at a time from the youngest clockwise; then each General."""
    n = S["n"]
    youngest = S["opt"]["youngest"]
    if n == 3:
        S["empty"] = next(a for a in AREAS if a not in S["base"])
    for seat in range(n):
        for p in IN_AREA[S["base"][seat]]:
            S["L"].append([seat, p, False, False])
    clockwise = [(youngest + j) % n for j in range(n)]
    items = [{"k": "place", "seat": s} for s in clockwise * 2]
    items += [{"k": "general", "seat": s} for s in clockwise]
    S["pend"] = list(reversed(items))


def setup_actions(S: State, top: dict[str, Any]) -> list[dict[str, Any]]:
    """Areas in map order; provinces by id."""
    if top["k"] == "base":
        return [{"type": "base", "area": a} for a in AREAS if a not in S["base"]]
    return [{"type": top["k"], "prov": p} for p in IN_AREA[S["base"][top["seat"]]]]


def apply_setup(S: State, top: dict[str, Any], seat: int, action: dict[str, Any],
                ev: Events) -> None:
    if action not in setup_actions(S, top):
        raise IllegalAction(f"setup: choose one of {setup_actions(S, top)}")
    S["pend"].pop()
    if top["k"] == "base":
        S["base"][seat] = action["area"]
        ev.append({"type": "base", "seat": seat, "area": action["area"]})
        if not any(it["k"] == "base" for it in S["pend"]):
            _after_bases(S, ev)
    elif top["k"] == "place":
        S["L"].append([seat, action["prov"], False, False])
        ev.append({"type": "placed", "seat": seat, "prov": action["prov"]})
    else:
        S["ldr"][seat][0] = action["prov"]
        ev.append({"type": "general", "seat": seat, "prov": action["prov"]})
        if not S["pend"]:
            S["setup"] = False
            assert len(S["L"]) == LEGIONS_PER_SEAT * S["n"]
            ev.append({"type": "setup_done"})
            _start_round(S, ev)


def _deal(S: State, rng: random.Random, ev: Events) -> None:
    """5.1 step 2: gather all cards, shuffle, deal; the rest lies face down, unused."""
    k = HAND[(S["n"], bool(S["opt"]["short_game"]))]
    if "hid" in S:  # a hidden deck (plugins/nero/hidden.py): the seats deal it, masked
        deal_masked(S, k, ev)
        ev.append({"type": "deal", "game_turn": S["gt"], "per_seat": k})
        return
    deck = list(range(NCARDS))
    rng.shuffle(deck)
    for seat in range(S["n"]):
        S["hands"][seat] = sorted(deck[seat * k:(seat + 1) * k])
        ev.append({"type": "dealt", "to": [seat], "cards": list(S["hands"][seat])})
    S["box"] = sorted(deck[S["n"] * k:])
    S["seen"] = []
    ev.append({"type": "deal", "game_turn": S["gt"], "per_seat": k})


# --- flow --------------------------------------------------------------------------


def _start_round(S: State, ev: Events) -> None:
    """A Player Round begins: per-round limits reset; 5.8.2 Contender in Rome check."""
    seat = S["act"]
    S["used"] = 0
    S["once"] = []
    S["hit"] = []
    S["mv"] = None
    for lg in S["L"]:
        lg[2] = False
    for ld in S["ldr"]:
        ld[2] = False
    ev.append({"type": "round", "seat": seat, "game_turn": S["gt"], "final": S["final"]})
    ld = S["ldr"][seat]
    if ld[1] == B.CONTENDER and ld[0] == ROME and len(B.emperors(S)) <= 1:
        ld[1] = B.EMPEROR
        ev.append({"type": "crowned", "seat": seat, "how": "legions"})


def _next_round(S: State, rng: random.Random, ev: Events) -> None:
    """5.1 step 3 with the last-player rule."""
    n = S["n"]
    holders = [s for s in range(n) if S["hands"][s]]
    if not holders or S["final"]:
        _end_game_turn(S, rng, ev)
        return
    if len(holders) == 1:
        S["final"] = True
        S["act"] = holders[0]
    else:
        s = S["act"]
        for _ in range(n):
            s = (s + 1) % n
            if S["hands"][s]:
                break
        S["act"] = s
    _start_round(S, ev)


def _end_game_turn(S: State, rng: random.Random, ev: Events) -> None:
    """5.1 steps 4-7: Retreat markers off, VP, automatic victory, next Game Turn."""
    for lg in S["L"]:
        lg[3] = False
    last = S["gt"] == GAME_TURNS
    scored = []
    for seat in range(S["n"]):
        items = B.turn_vp(S, seat, last)
        S["vp"][seat] += sum(items.values())
        scored.append(items)
    ev.append({"type": "scored", "game_turn": S["gt"], "items": scored, "vp": list(S["vp"])})
    winner = B.automatic_winner(S)
    if winner is not None:
        S["auto"] = winner
        S["over"] = True
        ev.append({"type": "automatic_victory", "seat": winner})
        return
    if last:
        S["over"] = True
        ev.append({"type": "game_over", "vp": list(S["vp"])})
        return
    S["gt"] += 1
    low = min(S["vp"])
    tied = [s for s in range(S["n"]) if S["vp"][s] == low]
    first = tied[0] if len(tied) == 1 else rng.choice(tied)
    if len(tied) > 1:
        ev.append({"type": "first_drawn", "among": tied, "seat": first})
    S["act"] = S["first"] = first
    S["final"] = False
    for h in S["hands"]:
        h.clear()
    _deal(S, rng, ev)
    _start_round(S, ev)


def settle(S: State, rng: random.Random, ev: Events) -> None:
    """Run effects and close windows until a seat must decide (or the game is over)."""
    while not S["over"]:
        pend = S["pend"]
        if pend:
            top = pend[-1]
            if top["k"] == "do":
                pend.pop()
                E.run_effect(S, top, rng, ev)
                continue
            if top["k"] == "win" and S["opt"]["reactions"] == "holders":
                # Skip a seat left with nothing that fits (he answered with his last
                # fitting card, or the answer changed what fits): only holders are asked.
                while top["i"] < len(top["ask"]) and \
                        len(E.pending_actions(S, top, top["ask"][top["i"]])) == 1:
                    top["i"] += 1
            if top["k"] in ("win", "assas") and top["i"] >= len(top["ask"]):
                pend.pop()
                E.close_window(S, top, ev)
                continue
            return
        if S["mv"] is not None:
            if M.movement_settled(S, ev):
                continue
            return
        seat = S["act"]
        if S["used"] >= 4 or (not S["hands"][seat] and S["used"] >= 1) or \
                (not S["hands"][seat] and S["used"] == 0):
            ev.append({"type": "round_end", "seat": seat})
            _next_round(S, rng, ev)
            continue
        return


def to_act(S: State) -> list[int]:
    if S["over"]:
        return []
    if S["pend"]:
        top = S["pend"][-1]
        if top["k"] == "battle":
            return sorted(s for s in (top["att"], top["def"]) if str(s) not in top["commit"])
        if top["k"] in ("win", "assas", "passage", "germ"):
            return [top["ask"][top["i"]]]
        return [top["seat"]]
    return [S["act"]]


def legal_actions(S: State, seat: int) -> list[dict[str, Any]]:
    """The order: the pending decision's answers; else, in the active player's round,
    movement steps first (step, pick, attack, passage, drop, halt; between the groups
    of a Movement Action: group, done, then events and declare), then round-level
    choices (march, events, declare, discard, end).

    Events and the declaration in Rome ("at any time during his own round", R 4.3)
    may be played whenever no army is on the move: between Movement Actions and between
    the groups of one (5.4.1: one army moves at a time, and an Event in mid-move would
    change an army no rule says how to continue)."""
    if seat not in to_act(S):
        return []
    if S["pend"]:
        top = S["pend"][-1]
        if top["k"] in ("battle", "retreat", "passage"):
            return M.pending_actions(S, top, seat)
        if top["k"] in ("base", "place", "general"):
            return setup_actions(S, top)
        return E.pending_actions(S, top, seat)
    if S["mv"] is not None:
        out = M.movement_actions(S)
        if S["mv"]["g"] is None:  # no army on the move: Events and the declaration too
            out += E.event_actions(S) + E.declare_actions(S)
        return out
    out = M.march_actions(S)
    out += E.event_actions(S)
    out += E.declare_actions(S)
    hand = S["hands"][seat]
    # Discard: one per distinct (MP, BP, event) face, the lowest id.
    seen: set[tuple[Any, ...]] = set()
    for c in hand:
        face = (CARDS[c]["ev"], CARDS[c]["mp"], CARDS[c]["bp"])
        if face not in seen:
            seen.add(face)
            out.append({"type": "discard", "card": c})
    if S["used"] >= 1:
        out.append({"type": "end"})
    return out


def apply(S: State, seat: int, action: dict[str, Any], rng: random.Random) -> Events:
    if S["over"]:
        raise IllegalAction("the game is over")
    if seat not in to_act(S):
        raise IllegalAction(f"seat {seat} is not to act")
    t = action.get("type")
    ev: Events = []
    if S["pend"]:
        top = S["pend"][-1]
        if top["k"] in ("battle", "retreat", "passage"):
            M.apply_pending(S, top, seat, action, rng, ev)
        elif top["k"] in ("base", "place", "general"):
            apply_setup(S, top, seat, action, ev)
        else:
            E.apply_pending(S, top, seat, action, rng, ev)
    elif S["mv"] is not None and not (S["mv"]["g"] is None and t in ("event", "declare")):
        M.apply_movement(S, action, rng, ev)
    elif t == "march":
        M.apply_march(S, action, ev)
    elif t == "event":
        E.apply_event(S, action, rng, ev)
    elif t == "declare":
        E.apply_declare(S, action, ev)
    elif t == "discard":
        c = card_arg(action)
        own_card(S, seat, c)
        use_cards(S, [c], face_down=True)
        ev.append({"type": "discarded", "seat": seat})
    elif t == "end":
        if S["used"] < 1:
            raise IllegalAction("5.2: use at least one card in your round")
        ev.append({"type": "round_end", "seat": seat})
        _next_round(S, rng, ev)
    else:
        raise IllegalAction(f"unknown or misplaced action {t!r}")
    settle(S, rng, ev)
    return ev
