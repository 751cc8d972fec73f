"""Nero's rules engine: setup, Game Turns, Player Rounds, and the decision stack.

Every decision the game asks for is either the active player's next step of his round
(digest 5.2) or the item on top of ``S["pending"]``, a stack (digest 5.2, engine note:
"a stack, last in first out"): a retreat decision, a passage request, a battle's secret
card commitment, a window in which the seats holding a fitting any-time card may answer,
an assassination's opposition, a Germanic relocation or a Revolt's Legion to bring.
Items of kind ``effect`` are not decisions: they are the effects waiting under a window, and
:func:`settle` runs them once the window above them closes.

Movement (5.4), battles (5.6) and events (6.2) live in :mod:`.moves` and :mod:`.events`;
this module owns the flow of play and the dispatch of actions. The state's keys are
declared in :mod:`.state`.
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
from .state import Events, Item, State, new_leader, new_legion

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
        "n_players": seats,
        "options": {k: v for k, v in opt.items() if k != "hidden_deck" or v},
        "setup": True, "game_turn": 1, "over": False, "automatic_winner": None,
        "bases": [None] * seats, "empty_area": None, "active": youngest,
        "first_player": youngest, "final_round": False, "vp": [0] * seats,
        "hands": [[] for _ in range(seats)], "box_face_down": [], "box_face_up": [],
        "legions": [], "leaders": [new_leader() for _ in range(seats)],
        "germanic_tribes": [], "cards_used": 0, "once_used": [], "attacked": [],
        "movement": None, "pending": [],
    }
    # Step 2: each seat's marker is drawn from a cup; the drawn seat picks an Area.
    order = list(range(seats))
    rng.shuffle(order)
    ev.append({"type": "draw_order", "order": order})
    S["pending"] = [{"kind": "base", "seat": s} for s in reversed(order)]
    if hidden:
        S["hidden"] = {"claims": {}, "known": [{} for _ in range(seats)], "seed": None}
    _deal(S, rng, ev)
    return S


def _after_bases(S: State, ev: Events) -> None:
    """Steps 3-4, once every Base is chosen: 1 Legion in each Base province; then the
    other 2, one at a time from the youngest clockwise; then each General."""
    n = S["n_players"]
    youngest = S["options"]["youngest"]
    if n == 3:
        S["empty_area"] = next(a for a in AREAS if a not in S["bases"])
    for seat in range(n):
        for p in IN_AREA[S["bases"][seat]]:
            S["legions"].append(new_legion(seat, p))
    clockwise = [(youngest + j) % n for j in range(n)]
    items = [{"kind": "place", "seat": s} for s in clockwise * 2]
    items += [{"kind": "general", "seat": s} for s in clockwise]
    S["pending"] = list(reversed(items))


def setup_actions(S: State, top: Item) -> list[dict[str, Any]]:
    """Areas in map order; provinces by id."""
    if top["kind"] == "base":
        return [{"type": "base", "area": a} for a in AREAS if a not in S["bases"]]
    return [{"type": top["kind"], "prov": p} for p in IN_AREA[S["bases"][top["seat"]]]]


def apply_setup(S: State, top: Item, seat: int, action: dict[str, Any],
                ev: Events) -> None:
    if action not in setup_actions(S, top):
        raise IllegalAction(f"setup: choose one of {setup_actions(S, top)}")
    S["pending"].pop()
    if top["kind"] == "base":
        S["bases"][seat] = action["area"]
        ev.append({"type": "base", "seat": seat, "area": action["area"]})
        if not any(it["kind"] == "base" for it in S["pending"]):
            _after_bases(S, ev)
    elif top["kind"] == "place":
        S["legions"].append(new_legion(seat, action["prov"]))
        ev.append({"type": "placed", "seat": seat, "prov": action["prov"]})
    else:
        S["leaders"][seat]["location"] = action["prov"]
        ev.append({"type": "general", "seat": seat, "prov": action["prov"]})
        if not S["pending"]:
            S["setup"] = False
            assert len(S["legions"]) == LEGIONS_PER_SEAT * S["n_players"]
            ev.append({"type": "setup_done"})
            _start_round(S, ev)


def _deal(S: State, rng: random.Random, ev: Events) -> None:
    """5.1 step 2: gather all cards, shuffle, deal; the rest lies face down, unused."""
    k = HAND[(S["n_players"], bool(S["options"]["short_game"]))]
    if "hidden" in S:  # a hidden deck (plugins/nero/hidden.py): the seats deal it, masked
        deal_masked(S, k, ev)
        ev.append({"type": "deal", "game_turn": S["game_turn"], "per_seat": k})
        return
    deck = list(range(NCARDS))
    rng.shuffle(deck)
    for seat in range(S["n_players"]):
        S["hands"][seat] = sorted(deck[seat * k:(seat + 1) * k])
        ev.append({"type": "dealt", "to": [seat], "cards": list(S["hands"][seat])})
    S["box_face_down"] = sorted(deck[S["n_players"] * k:])
    S["box_face_up"] = []
    ev.append({"type": "deal", "game_turn": S["game_turn"], "per_seat": k})


# --- flow --------------------------------------------------------------------------


def _start_round(S: State, ev: Events) -> None:
    """A Player Round begins: per-round limits reset; 5.8.2 Contender in Rome check."""
    seat = S["active"]
    S["cards_used"] = 0
    S["once_used"] = []
    S["attacked"] = []
    S["movement"] = None
    for lg in S["legions"]:
        lg["moved"] = False
    for ld in S["leaders"]:
        ld["moved"] = False
    ev.append({"type": "round", "seat": seat, "game_turn": S["game_turn"],
               "final": S["final_round"]})
    ld = S["leaders"][seat]
    if ld["rank"] == B.CONTENDER and ld["location"] == ROME and len(B.emperors(S)) <= 1:
        ld["rank"] = B.EMPEROR
        ev.append({"type": "crowned", "seat": seat, "how": "legions"})


def _next_round(S: State, rng: random.Random, ev: Events) -> None:
    """5.1 step 3 with the last-player rule."""
    n = S["n_players"]
    holders = [s for s in range(n) if S["hands"][s]]
    if not holders or S["final_round"]:
        _end_game_turn(S, rng, ev)
        return
    if len(holders) == 1:
        S["final_round"] = True
        S["active"] = holders[0]
    else:
        s = S["active"]
        for _ in range(n):
            s = (s + 1) % n
            if S["hands"][s]:
                break
        S["active"] = s
    _start_round(S, ev)


def _end_game_turn(S: State, rng: random.Random, ev: Events) -> None:
    """5.1 steps 4-7: Retreat markers off, VP, automatic victory, next Game Turn."""
    for lg in S["legions"]:
        lg["retreat_marker"] = False
    last = S["game_turn"] == GAME_TURNS
    scored = []
    for seat in range(S["n_players"]):
        items = B.turn_vp(S, seat, last)
        S["vp"][seat] += sum(items.values())
        scored.append(items)
    ev.append({"type": "scored", "game_turn": S["game_turn"], "items": scored,
               "vp": list(S["vp"])})
    winner = B.automatic_winner(S)
    if winner is not None:
        S["automatic_winner"] = winner
        S["over"] = True
        ev.append({"type": "automatic_victory", "seat": winner})
        return
    if last:
        S["over"] = True
        ev.append({"type": "game_over", "vp": list(S["vp"])})
        return
    S["game_turn"] += 1
    low = min(S["vp"])
    tied = [s for s in range(S["n_players"]) if S["vp"][s] == low]
    first = tied[0] if len(tied) == 1 else rng.choice(tied)
    if len(tied) > 1:
        ev.append({"type": "first_drawn", "among": tied, "seat": first})
    S["active"] = S["first_player"] = first
    S["final_round"] = False
    for h in S["hands"]:
        h.clear()
    _deal(S, rng, ev)
    _start_round(S, ev)


def settle(S: State, rng: random.Random, ev: Events) -> None:
    """Run effects and close windows until a seat must decide (or the game is over)."""
    while not S["over"]:
        pend = S["pending"]
        if pend:
            top = pend[-1]
            if top["kind"] == "effect":
                pend.pop()
                E.run_effect(S, top, rng, ev)
                continue
            if top["kind"] == "window" and S["options"]["reactions"] == "holders":
                # Skip a seat left with nothing that fits (he answered with his last
                # fitting card, or the answer changed what fits): only holders are asked.
                while top["index"] < len(top["seats"]) and \
                        len(E.pending_actions(S, top, top["seats"][top["index"]])) == 1:
                    top["index"] += 1
            if top["kind"] in ("window", "assassination") and top["index"] >= len(top["seats"]):
                pend.pop()
                E.close_window(S, top, ev)
                continue
            return
        if S["movement"] is not None:
            if M.movement_settled(S, ev):
                continue
            return
        seat = S["active"]
        # Out of cards (4 used, or none left): the round ends, unless the General in
        # Rome may still declare on his board's DP alone; the declaration is not a
        # card (5.8.1, R 4.3: "at any time during his own round").
        if (S["cards_used"] >= 4 or not S["hands"][seat]) and \
                not (S["cards_used"] >= 1 and E.free_declaration(S, seat)):
            ev.append({"type": "round_end", "seat": seat})
            _next_round(S, rng, ev)
            continue
        return


def to_act(S: State) -> list[int]:
    if S["over"]:
        return []
    if S["pending"]:
        top = S["pending"][-1]
        if top["kind"] == "battle":
            return sorted(s for s in (top["attacker"], top["defender"])
                          if str(s) not in top["committed"])
        if top["kind"] in ("window", "assassination", "passage", "germanic"):
            return [top["seats"][top["index"]]]
        return [top["seat"]]
    return [S["active"]]


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
    if S["pending"]:
        top = S["pending"][-1]
        if top["kind"] in ("battle", "retreat", "passage"):
            return M.pending_actions(S, top, seat)
        if top["kind"] in ("base", "place", "general"):
            return setup_actions(S, top)
        return E.pending_actions(S, top, seat)
    if S["movement"] is not None:
        out = M.movement_actions(S)
        if S["movement"]["group"] is None:  # no army on the move: Events, declaring too
            out += E.event_actions(S) + E.declare_actions(S)
        return out
    out = M.march_actions(S)
    out += E.event_actions(S)
    out += E.declare_actions(S)
    hand = S["hands"][seat]
    # Discard: one per distinct (MP, BP, event) face, the lowest id.
    seen: set[tuple[Any, ...]] = set()
    for c in hand if S["cards_used"] < 4 else []:
        face = (CARDS[c]["ev"], CARDS[c]["mp"], CARDS[c]["bp"])
        if face not in seen:
            seen.add(face)
            out.append({"type": "discard", "card": c})
    if S["cards_used"] >= 1:
        out.append({"type": "end"})
    return out


def apply(S: State, seat: int, action: dict[str, Any], rng: random.Random) -> Events:
    if S["over"]:
        raise IllegalAction("the game is over")
    if seat not in to_act(S):
        raise IllegalAction(f"seat {seat} is not to act")
    t = action.get("type")
    ev: Events = []
    if S["pending"]:
        top = S["pending"][-1]
        if top["kind"] in ("battle", "retreat", "passage"):
            M.apply_pending(S, top, seat, action, rng, ev)
        elif top["kind"] in ("base", "place", "general"):
            apply_setup(S, top, seat, action, ev)
        else:
            E.apply_pending(S, top, seat, action, rng, ev)
    elif S["movement"] is not None and not (S["movement"]["group"] is None
                                            and t in ("event", "declare")):
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
        if S["cards_used"] < 1:
            raise IllegalAction("5.2: use at least one card in your round")
        ev.append({"type": "round_end", "seat": seat})
        _next_round(S, rng, ev)
    else:
        raise IllegalAction(f"unknown or misplaced action {t!r}")
    settle(S, rng, ev)
    return ev
