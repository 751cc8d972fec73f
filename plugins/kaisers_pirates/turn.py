"""The turn as decision points (digest 4), the round's end and the keep decision (7).

Decision kinds in ``S["pending"]["kind"]`` and their actions, in the order listed by
``legal_actions``:

- ``commit`` (phasing): ``commit`` card/use/ship (cards by id; uses ``icpt`` on each
  eligible ship by id, ``brit``, ``mines`` on each mine raider, ``act``), then
  ``leave_refuge``, then ``done``.
- ``resolve`` (phasing): ``play`` for each committed card in commit order and its
  targets, ``commit`` of cards just taken with Recon Aircraft (A-7 option),
  ``resupply`` (6.12), ``leave_refuge``, ``end_turn``.
- ``attach`` / ``board`` / ``pursue`` / ``shallows`` (phasing), ``react`` / ``post`` (defender),
  ``reflag`` (whoever's ship was revealed): first ``done``/``pass``, then cards by id.
- ``passage`` (the owner of a merchant or prize that survived an interception
  undamaged, R 3.2.6): ``pass`` or ``passage {ship}``.
- ``late`` (a defender whose merchant was sunk earlier this turn, asked after each
  later card, R 3.3.30 / 3.3.23): ``pass``, then Recalled ``{ship}`` and Mistaken
  Identity ``{swap, took}`` per hand card.
- ``discard`` (phasing, 2+ committed cards; then each defender with 2+ reaction cards,
  R 3.1.5): ``discard {top: [second, top]}`` for each ordered pair by ascending ids;
  ``mine_order`` (phasing): each order of the merchants, ``order_targets {ships}``.
- ``order`` (Intelligence), ``exchange`` (Exchange Information), ``give_ships``
  (team Breakout), ``keep`` (all seats with surviving ships, simultaneous and secret).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from lantable.plugins import IllegalAction

from . import fights, plays, rounds, solo
from .cardtypes import CARD_TYPES, DECEPTION, FOG_BANK, FOLLOW_UPS, ISLAND_REFUGE
from .data import ACTIONS, SHIPS
from .masked import hidden, is_masked, marker
from .piles import action_left, draw_action
from .rules import kind, move_to_mate, refill_merchants
from .state import Action, Events, State, new_turn_record

if TYPE_CHECKING:
    import random


def new_turn(S: State, seat: int, extra: bool = False) -> None:
    S["turn_seat"] = seat
    S["this_turn"] = new_turn_record(seat, extra)


def to_act(S: State) -> list[int]:
    pend = S["pending"]
    if pend is None:
        return []
    if pend["kind"] == "keep":
        return [s for s in pend["seats"] if str(s) not in pend["chosen"]]
    return [pend["seat"]]


# ---------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------


def legal_actions(S: State, seat: int) -> list[Action]:
    if seat not in to_act(S):
        return []
    pend = S["pending"]
    k = pend["kind"]
    if k == "commit":
        return _commit_offers(S, seat)
    if k == "resolve":
        return _resolve_offers(S, seat)
    if k == "keep":
        return _keep_offers(S, seat)
    if k in FOLLOW_UPS:  # Intelligence, Exchange Information, a team Breakout
        return FOLLOW_UPS[k].follow_up_offers(S, seat)
    if k == "discard":
        return _discard_offers(S, seat)
    if k == "late":
        return fights.late_offers(S, seat)
    return fights.offers(S, pend)


def _discard_offers(S: State, seat: int) -> list[Action]:
    """The two cards to end on top (the only ones anyone may look at, R 3.1.7).

    ``top`` is [second from top, top]; the phasing player's other cards go first in
    commit order, a defender's other reaction cards in the order played.
    """
    T = S["this_turn"]
    if seat == T["seat"]:
        mine = sorted(e["card"] for e in T["committed"])
    else:
        mine = sorted(c for s, c in T["reactions"] if s == seat)
    return [{"type": "discard", "top": [a, b]} for a in mine for b in mine if a != b]


def _next_rx_discarder(S: State) -> int | None:
    """R 3.1.5: after the phasing player each defender discards his reactions in the
    order he chooses (clockwise from the phasing player); one card needs no choice."""
    T = S["this_turn"]
    for i in range(1, S["n_players"]):
        seat = (T["seat"] + i) % S["n_players"]
        if (
            seat not in T["reactions_ordered"]
            and sum(1 for s, _c in T["reactions"] if s == seat) > 1
        ):
            return seat
    return None


def _commit_offers(S: State, seat: int, only: list[int] | None = None) -> list[Action]:
    """4.3: placements; a card may go to any use its placement rules allow.

    ``only``: the cards just taken with Recon Aircraft (A-7 option), committed
    during the resolution; no refuge exits or ``done`` then.
    """
    T = S["this_turn"]
    P = S["players"][seat]
    busy = {e["ship"] for e in T["committed"] if e["ship"] is not None}
    sh = S["ships"]
    ships = [s for s in P["german"] if not sh[s]["prize"] and sh[s]["refuge"] is None
             and s not in busy and s not in T["left_refuge"]]
    miners = [s for s in ships if SHIPS[s]["mines"] and SHIPS[s]["kind"] == "raider"]
    team = S["mode"] == "team"
    out: list[Action] = []
    for c in sorted(P["hand"] if only is None else only):
        cd = ACTIONS[c]
        team_card = cd["kind"] == "T" and not team
        if not team_card or S["options"]["a13_any_interception"]:
            out += [{"type": "commit", "card": c, "use": "icpt", "ship": s} for s in ships]
        out.append({"type": "commit", "card": c, "use": "brit"})
        out += CARD_TYPES[cd["type"]].own_uses(c, miners, team)
    if only is not None:
        return out
    out += _refuge_exits(S, seat)
    out.append({"type": "done"})
    return out


def _refuge_exits(S: State, seat: int) -> list[Action]:
    """A-15: a ship may leave its refuge at any time of a later own turn."""
    out: list[Action] = []
    for s in S["players"][seat]["german"]:
        if S["ships"][s]["refuge"] is not None and S["ships"][s]["refuge_turn"] < S["turns_begun"]:
            out.append({"type": "leave_refuge", "ship": s})
            if S["mode"] == "team":  # 8.1 4.6: it may go to the teammate
                out.append({"type": "leave_refuge", "ship": s, "to_mate": True})
    return out


def _resolve_offers(S: State, seat: int) -> list[Action]:
    T = S["this_turn"]
    out: list[Action] = []
    for e in T["committed"]:
        if not e["played"]:
            out += plays.plays(S, seat, e)
    if T["deception"] and out:
        return out  # R 3.3.10: the Deception card must be performed if it can be
    stolen = [c for c in T["recon_cards"] if c in S["players"][seat]["hand"]]
    if stolen:
        out += _commit_offers(S, seat, stolen)
    out += plays.prize_resupply_offers(S, seat)
    out += _refuge_exits(S, seat)
    out.append({"type": "end_turn"})
    return out


def _keep_offers(S: State, seat: int) -> list[Action]:
    """7.5 step 5: keep none or one ship (6.7: up to three).

    Team game (8.1 4.9): the teammates' surviving ships form one pool; a ship the
    teammate has already chosen is no longer offered.
    """
    ships = [s for s in S["players"][seat]["german"] if not S["ships"][s]["prize"]]
    if S["mode"] == "team":
        mate = (seat + 2) % 4
        taken = S["pending"]["chosen"].get(str(mate), [])
        ships = [s for s in ships + S["players"][mate]["german"]
                 if not S["ships"][s]["prize"] and s not in taken]
    ships.sort()
    out: list[Action] = [{"type": "keep", "ships": []}]
    out += [{"type": "keep", "ships": [s]} for s in ships]
    if S["options"]["keep_three"]:
        n = len(ships)
        out += [{"type": "keep", "ships": [ships[i], ships[j]]} for i in range(n)
                for j in range(i + 1, n)]
        if n >= 3:
            out += [{"type": "keep", "ships": list(c)} for c in combinations(ships, 3)]
    return out


# ---------------------------------------------------------------------------
# applying
# ---------------------------------------------------------------------------


def apply(S: State, seat: int, action: Action, rng: random.Random) -> Events:
    """Validate against the legal list, then apply and run to the next decision."""
    legal = legal_actions(S, seat)
    if action not in legal:
        raise IllegalAction(f"action {action!r} is not legal now for seat {seat} "
                            f"(decision {S['pending']['kind'] if S['pending'] else None!r})")
    ev: Events = []
    apply_legal(S, seat, action, rng, ev)
    advance(S, rng, ev)
    return ev


def apply_legal(S: State, seat: int, action: Action, rng: random.Random, ev: Events) -> None:
    pend = S["pending"]
    k = pend["kind"]
    typ = action["type"]
    T = S["this_turn"]
    if k == "keep":
        pend["chosen"][str(seat)] = action["ships"]
        ev.append({"type": "keep_chosen", "seat": seat})
        if not to_act(S):
            _next_round(S, rng, ev)
        return
    S["pending"] = None
    if typ == "leave_refuge":
        st = S["ships"][action["ship"]]
        S["discards"].append(st["refuge"])
        st["refuge"] = None
        T["left_refuge"].append(action["ship"])
        ev.append({"type": "left_refuge", "ship": action["ship"]})
        if action.get("to_mate"):
            move_to_mate(S, seat, [action["ship"]], ev)
        return
    if k == "commit":
        if typ == "commit":
            S["players"][seat]["hand"].remove(action["card"])
            T["committed"].append({"card": action["card"], "use": action["use"],
                             "ship": action.get("ship"), "played": False})
            ev.append({"type": "committed", "seat": seat, "use": action["use"],
                       "ship": action.get("ship")})
        else:
            T["stage"] = "resolve"
        return
    if k == "resolve":
        if typ == "commit":  # A-7 option: a card taken with Recon Aircraft
            S["players"][seat]["hand"].remove(action["card"])
            T["recon_cards"].remove(action["card"])
            T["committed"].append({"card": action["card"], "use": action["use"],
                             "ship": action.get("ship"), "played": False})
            ev.append({"type": "committed", "seat": seat, "use": action["use"],
                       "ship": action.get("ship")})
        elif typ == "play":
            plays.play(S, rng, action, ev)
        elif typ == "resupply":
            plays.apply_prize_resupply(S, rng, action, ev)
        else:
            T["stage"] = "end"
        return
    if k in FOLLOW_UPS:
        FOLLOW_UPS[k].follow_up_apply(S, seat, action, ev)
        return
    if k == "late":
        fights.late_apply(S, rng, seat, action, ev)
        return
    if k == "discard":
        top = action["top"]
        if seat == T["seat"]:
            T["committed"] = [e for e in T["committed"] if e["card"] not in top] + \
                [next(e for e in T["committed"] if e["card"] == c) for c in top]
        else:  # this defender's reactions go last, the chosen two on top
            T["reactions"] = (
                [x for x in T["reactions"] if x[0] != seat]
                + [x for x in T["reactions"] if x[0] == seat and x[1] not in top]
                + [[seat, c] for c in top]
            )
        return
    fights.decide(S, rng, pend, action, ev)


def advance(S: State, rng: random.Random, ev: Events) -> None:
    """Run automatic steps until a seat must decide or the game is over."""
    while S["phase"] == "play":
        pend = S["pending"]
        if pend is not None:
            if S["mode"] == "solo" and pend["seat"] == solo.PHANTOM:
                # the phantom's choices are the engine's
                chosen = solo.decide(S, rng, legal_actions(S, solo.PHANTOM), ev)
                if chosen is not None:
                    apply_legal(S, solo.PHANTOM, chosen, rng, ev)
                continue
            return
        if S["stack"]:
            top = S["stack"][-1]
            if top["kind"] == "exchange":
                S["pending"] = {"kind": "exchange", "seat": top["seats"][top["index"]]}
            elif top["kind"] in ("order", "give_ships"):
                raise AssertionError(f"{top['kind']} context without a pending decision")
            else:
                fights.step(S, rng, ev)
            continue
        T = S["this_turn"]
        ph = T["stage"]
        if ph == "start":
            _pre_turn(S, rng, ev)
        elif ph == "commit":
            S["pending"] = {"kind": "commit", "seat": T["seat"]}
        elif ph in ("resolve", "phantom") and fights.late_seat(S) is not None:
            S["pending"] = {"kind": "late", "seat": fights.late_seat(S)}  # R 3.3.30, 3.3.23
        elif ph == "resolve":
            S["pending"] = {"kind": "resolve", "seat": T["seat"]}
        elif ph == "phantom":
            T["late_asked"] = []  # each step of the phantom's loop is a new card
            solo.phantom_turn(S, rng, ev)
        elif ph == "end" and hidden(S) and _face_down(T):
            # R 3.1.5: the committed cards are discarded face up (.hidden)
            marker(ev, "open", _face_down(T))
            T["opening"] = True
        elif ph == "end" and not T["fog"] and len(T["committed"]) > 1:
            T["stage"] = "discard"  # R 3.1.5: the phasing player orders his discards
            S["pending"] = {"kind": "discard", "seat": T["seat"]}
        elif ph in ("end", "discard") and not T["fog"] and _next_rx_discarder(S) is not None:
            T["stage"] = "discard"  # R 3.1.5: then each defender orders his reactions
            d = _next_rx_discarder(S)
            T["reactions_ordered"].append(d)
            S["pending"] = {"kind": "discard", "seat": d}
        else:
            _end_turn(S, rng, ev)


def _face_down(T: dict) -> list[int]:  # type: ignore[type-arg]
    """Masked committed cards not yet asked to be turned over (a hidden deck)."""
    if T.get("opening"):
        return []
    return [e["card"] for e in T["committed"] if is_masked(e["card"])]


def _pre_turn(S: State, rng: random.Random, ev: Events) -> None:
    """4.2: skipped turn, refuge rolls, Fog Bank, Deception."""
    T = S["this_turn"]
    seat = T["seat"]
    P = S["players"][seat]
    S["turns_begun"] += 1
    P["turns"] += 1
    ev.append({"type": "turn_started", "seat": seat, "extra": T["extra"]})
    if P["skip"]:  # Bounding Main: no commit, no play, no draw
        P["skip"] = False
        ev.append({"type": "turn_skipped", "seat": seat})
        T["stage"] = "skipped"
        return
    T["revealed_at_start"] = [
        s for s in P["german"] if S["ships"][s]["revealed"] and kind(S, s) != "warship"
    ]
    for s in list(P["german"]):
        st = S["ships"][s]
        if st is not None and st["refuge"] is not None and st["refuge_turn"] < S["turns_begun"]:
            ISLAND_REFUGE.refuge_rolls(S, rng, s, ev)
    w = P["wait"]
    if w is not None and w["card_type"] == "fog_bank":
        FOG_BANK.begin_turn(S, rng, seat, ev)
        return
    if S["mode"] == "solo" and seat == solo.PHANTOM:
        T["deception"] = w is not None and w["card_type"] == "deception"
        T["stage"] = "phantom"
        return
    if w is not None and w["card_type"] == "deception":  # R 3.3.10
        DECEPTION.begin_turn(S, rng, seat, ev)
        return
    T["stage"] = "commit"


def _end_turn(S: State, rng: random.Random, ev: Events) -> None:
    """4.1 steps 4-8: discard, draw one, refill merchants, Second Chance, next seat."""
    T = S["this_turn"]
    seat = T["seat"]
    P = S["players"][seat]
    if T["stage"] != "skipped":
        for e in T["committed"]:
            S["discards"].append(e["card"])
        for _s, c in T["reactions"]:
            S["discards"].append(c)
        if (T["fog"] or T["deception"]) and P["wait"] is not None:
            if P["wait"]["card"] is not None:  # the phantom's are no cards (R 5.4.3)
                S["discards"].append(P["wait"]["card"])
            P["wait"] = None
        ev.append({"type": "discarded", "seat": seat, "cards": [e["card"] for e in T["committed"]]
                   + [c for _s, c in T["reactions"]]})
        T["committed"] = []
        T["reactions"] = []
        if not T["fog"]:
            c = draw_action(S, rng)
            for p in S["players"]:
                if c in p["known_deck_top"]:
                    p["known_deck_top"].remove(c)
            if S["mode"] == "solo" and seat == 1:
                S["discards"].append(
                    c
                )  # R 5.4.2: the phantom's draw goes face down to the discards
                ev.append({"type": "drew", "seat": seat})
            else:
                P["hand"].append(c)
                marker(ev, "deal", [c], seat)
                ev.append({"type": "drew", "seat": seat})
                ev.append({"type": "drew_card", "card": c, "to": [seat]})
            if not action_left(S):  # R 2.0, A-2: the round ends at once
                _end_round(S, rng, ev)
                return
    if S["mode"] == "solo" and seat == solo.PHANTOM:
        solo.reshuffle(S, rng, ev)  # R 5.4.1: at the end of every phantom turn
    refill_merchants(S, rng, ev)
    if T["second_chance"] and not T["extra"]:
        new_turn(S, seat, extra=True)
    else:
        new_turn(S, (seat + 1) % S["n_players"])


def _end_round(S: State, rng: random.Random, ev: Events) -> None:
    ev.append({"type": "round_ended", "round": S["round"]})
    rounds.score_round(S, rng, ev)
    S["stack"] = []
    if rounds.game_decided(S):
        S["phase"] = "over"
        S["pending"] = None
        ev.append({"type": "game_over", "rank": rounds.ranks(S)})
        return
    S["phase"] = "keep"
    def has_ships(s: int) -> bool:
        return any(not S["ships"][x]["prize"] for x in S["players"][s]["german"])

    team = S["mode"] == "team"
    seats = [s for s in range(S["seats"]) if has_ships(s) or (team and has_ships((s + 2) % 4))]
    S["pending"] = {"kind": "keep", "seats": seats, "chosen": {}}
    if S["mode"] == "solo":
        S["pending"]["chosen"]["1"] = solo.phantom_keep(S)
    if not seats:
        _next_round(S, rng, ev)


def _next_round(S: State, rng: random.Random, ev: Events) -> None:
    ch = S["pending"]["chosen"]
    keep = {int(k): v for k, v in ch.items()}
    ev.append({"type": "ships_kept", "kept": [keep.get(s, []) for s in range(S["n_players"])]})
    rounds.cleanup_round(S, keep, ev)
    _start_round(S, rng, ev)


def _start_round(S: State, rng: random.Random, ev: Events) -> None:
    rounds.start_round(S, rng, ev)
    if S["mode"] == "solo":  # R 5.2.5: the Solitaire deck is reshuffled for every round
        solo.reshuffle(S, rng, ev)
    new_turn(S, S["turn_seat"])
    advance(S, rng, ev)


def start_game(S: State, rng: random.Random, ev: Events) -> None:
    _start_round(S, rng, ev)
