"""The turn as decision points (digest 4), the round's end and the keep decision (7).

Decision kinds in ``S["pend"]["k"]`` and their actions, in the order listed by
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

from typing import TYPE_CHECKING, Any

from . import fights, plays, rounds, solo
from .cardtypes import CARD_TYPES, DECEPTION, FOG_BANK, FOLLOW_UPS, ISLAND_REFUGE
from .data import ACTIONS, SHIPS
from .rules import kind, move_to_mate, refill_merchants

if TYPE_CHECKING:
    import random

State = dict[str, Any]
Events = list[dict[str, Any]]
Action = dict[str, Any]


def new_turn(S: State, seat: int, extra: bool = False) -> None:
    S["turn"] = seat
    S["T"] = {"p": seat, "ph": "start", "com": [], "att": None, "icpt": [], "acted": [],
              "sc": False, "extra": extra, "wi": False, "rev0": [], "rx": [], "dec": False,
              "fog": False, "left": [], "resup": [], "stolen": [], "pl": 0, "pend_end": False,
              "rxo": [], "sank": [], "late": []}


def to_act(S: State) -> list[int]:
    pend = S["pend"]
    if pend is None:
        return []
    if pend["k"] == "keep":
        return [s for s in pend["seats"] if str(s) not in pend["ch"]]
    return [pend["s"]]


# ---------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------


def legal_actions(S: State, seat: int) -> list[Action]:
    if seat not in to_act(S):
        return []
    pend = S["pend"]
    k = pend["k"]
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
    T = S["T"]
    if seat == T["p"]:
        mine = sorted(e["c"] for e in T["com"])
    else:
        mine = sorted(c for s, c in T["rx"] if s == seat)
    return [{"type": "discard", "top": [a, b]} for a in mine for b in mine if a != b]


def _next_rx_discarder(S: State) -> int | None:
    """R 3.1.5: after the phasing player each defender discards his reactions in the
    order he chooses (clockwise from the phasing player); one card needs no choice."""
    T = S["T"]
    for i in range(1, S["np"]):
        seat = (T["p"] + i) % S["np"]
        if seat not in T["rxo"] and sum(1 for s, _c in T["rx"] if s == seat) > 1:
            return seat
    return None


def _commit_offers(S: State, seat: int, only: list[int] | None = None) -> list[Action]:
    """4.3: placements; a card may go to any use its placement rules allow.

    ``only``: the cards just taken with Recon Aircraft (A-7 option), committed
    during the resolution; no refuge exits or ``done`` then.
    """
    T = S["T"]
    P = S["p"][seat]
    busy = {e["ship"] for e in T["com"] if e["ship"] is not None}
    sh = S["sh"]
    ships = [s for s in P["ger"] if not sh[s]["prize"] and sh[s]["ref"] is None
             and s not in busy and s not in T["left"]]
    miners = [s for s in ships if SHIPS[s]["mines"] and SHIPS[s]["kind"] == "raider"]
    team = S["mode"] == "team"
    out: list[Action] = []
    for c in sorted(P["hand"] if only is None else only):
        cd = ACTIONS[c]
        team_card = cd["kind"] == "T" and not team
        if not team_card or S["o"]["a13_any_interception"]:
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
    for s in S["p"][seat]["ger"]:
        if S["sh"][s]["ref"] is not None and S["sh"][s]["reft"] < S["tno"]:
            out.append({"type": "leave_refuge", "ship": s})
            if S["mode"] == "team":  # 8.1 4.6: it may go to the teammate
                out.append({"type": "leave_refuge", "ship": s, "to_mate": True})
    return out


def _resolve_offers(S: State, seat: int) -> list[Action]:
    T = S["T"]
    out: list[Action] = []
    for e in T["com"]:
        if not e["done"]:
            out += plays.plays(S, seat, e)
    if T["dec"] and out:
        return out  # R 3.3.10: the Deception card must be performed if it can be
    stolen = [c for c in T["stolen"] if c in S["p"][seat]["hand"]]
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
    ships = [s for s in S["p"][seat]["ger"] if not S["sh"][s]["prize"]]
    if S["mode"] == "team":
        mate = (seat + 2) % 4
        taken = S["pend"]["ch"].get(str(mate), [])
        ships = [s for s in ships + S["p"][mate]["ger"]
                 if not S["sh"][s]["prize"] and s not in taken]
    ships.sort()
    out: list[Action] = [{"type": "keep", "ships": []}]
    out += [{"type": "keep", "ships": [s]} for s in ships]
    if S["o"]["keep_three"]:
        n = len(ships)
        out += [{"type": "keep", "ships": [ships[i], ships[j]]} for i in range(n)
                for j in range(i + 1, n)]
        if n >= 3:
            from itertools import combinations
            out += [{"type": "keep", "ships": list(c)} for c in combinations(ships, 3)]
    return out


# ---------------------------------------------------------------------------
# applying
# ---------------------------------------------------------------------------


def apply(S: State, seat: int, action: Action, rng: random.Random) -> Events:
    """Validate against the legal list, then apply and run to the next decision."""
    from lantable.plugins import IllegalAction

    legal = legal_actions(S, seat)
    if action not in legal:
        raise IllegalAction(f"action {action!r} is not legal now for seat {seat} "
                            f"(decision {S['pend']['k'] if S['pend'] else None!r})")
    ev: Events = []
    apply_legal(S, seat, action, rng, ev)
    advance(S, rng, ev)
    return ev


def apply_legal(S: State, seat: int, action: Action, rng: random.Random, ev: Events) -> None:
    pend = S["pend"]
    k = pend["k"]
    typ = action["type"]
    T = S["T"]
    if k == "keep":
        pend["ch"][str(seat)] = action["ships"]
        ev.append({"type": "keep_chosen", "seat": seat})
        if not to_act(S):
            _next_round(S, rng, ev)
        return
    S["pend"] = None
    if typ == "leave_refuge":
        st = S["sh"][action["ship"]]
        S["adisc"].append(st["ref"])
        st["ref"] = None
        T["left"].append(action["ship"])
        ev.append({"type": "left_refuge", "ship": action["ship"]})
        if action.get("to_mate"):
            move_to_mate(S, seat, [action["ship"]], ev)
        return
    if k == "commit":
        if typ == "commit":
            S["p"][seat]["hand"].remove(action["card"])
            T["com"].append({"c": action["card"], "use": action["use"],
                             "ship": action.get("ship"), "done": False})
            ev.append({"type": "committed", "seat": seat, "use": action["use"],
                       "ship": action.get("ship")})
        else:
            T["ph"] = "resolve"
        return
    if k == "resolve":
        if typ == "commit":  # A-7 option: a card taken with Recon Aircraft
            S["p"][seat]["hand"].remove(action["card"])
            T["stolen"].remove(action["card"])
            T["com"].append({"c": action["card"], "use": action["use"],
                             "ship": action.get("ship"), "done": False})
            ev.append({"type": "committed", "seat": seat, "use": action["use"],
                       "ship": action.get("ship")})
        elif typ == "play":
            plays.play(S, rng, action, ev)
        elif typ == "resupply":
            plays.apply_prize_resupply(S, rng, action, ev)
        else:
            T["ph"] = "end"
        return
    if k in FOLLOW_UPS:
        FOLLOW_UPS[k].follow_up_apply(S, seat, action, ev)
        return
    if k == "late":
        fights.late_apply(S, rng, seat, action, ev)
        return
    if k == "discard":
        top = action["top"]
        if seat == T["p"]:
            T["com"] = [e for e in T["com"] if e["c"] not in top] + \
                [next(e for e in T["com"] if e["c"] == c) for c in top]
        else:  # this defender's reactions go last, the chosen two on top
            T["rx"] = [x for x in T["rx"] if x[0] != seat] + \
                [x for x in T["rx"] if x[0] == seat and x[1] not in top] + [[seat, c] for c in top]
        return
    fights.decide(S, rng, pend, action, ev)


def advance(S: State, rng: random.Random, ev: Events) -> None:
    """Run automatic steps until a seat must decide or the game is over."""
    while S["phase"] == "play":
        pend = S["pend"]
        if pend is not None:
            if S["mode"] == "solo" and pend["s"] == solo.PHANTOM:
                # the phantom's choices are the engine's
                chosen = solo.decide(S, rng, legal_actions(S, solo.PHANTOM), ev)
                if chosen is not None:
                    apply_legal(S, solo.PHANTOM, chosen, rng, ev)
                continue
            return
        if S["stack"]:
            top = S["stack"][-1]
            if top["k"] == "ex":
                S["pend"] = {"k": "exchange", "s": top["seats"][top["i"]]}
            elif top["k"] in ("order", "give_ships"):
                raise AssertionError(f"{top['k']} context without a pending decision")
            else:
                fights.step(S, rng, ev)
            continue
        T = S["T"]
        ph = T["ph"]
        if ph == "start":
            _pre_turn(S, rng, ev)
        elif ph == "commit":
            S["pend"] = {"k": "commit", "s": T["p"]}
        elif ph in ("resolve", "phantom") and fights.late_seat(S) is not None:
            S["pend"] = {"k": "late", "s": fights.late_seat(S)}  # R 3.3.30, 3.3.23
        elif ph == "resolve":
            S["pend"] = {"k": "resolve", "s": T["p"]}
        elif ph == "phantom":
            T["late"] = []  # each step of the phantom's loop is a new card
            solo.phantom_turn(S, rng, ev)
        elif ph == "end" and not T["fog"] and len(T["com"]) > 1:
            T["ph"] = "discard"  # R 3.1.5: the phasing player orders his discards
            S["pend"] = {"k": "discard", "s": T["p"]}
        elif ph in ("end", "discard") and not T["fog"] and _next_rx_discarder(S) is not None:
            T["ph"] = "discard"  # R 3.1.5: then each defender orders his reactions
            d = _next_rx_discarder(S)
            T["rxo"].append(d)
            S["pend"] = {"k": "discard", "s": d}
        else:
            _end_turn(S, rng, ev)


def _pre_turn(S: State, rng: random.Random, ev: Events) -> None:
    """4.2: skipped turn, refuge rolls, Fog Bank, Deception."""
    T = S["T"]
    seat = T["p"]
    P = S["p"][seat]
    S["tno"] += 1
    P["turns"] += 1
    ev.append({"type": "turn_started", "seat": seat, "extra": T["extra"]})
    if P["skip"]:  # Bounding Main: no commit, no play, no draw
        P["skip"] = False
        ev.append({"type": "turn_skipped", "seat": seat})
        T["ph"] = "skipped"
        return
    T["rev0"] = [s for s in P["ger"] if S["sh"][s]["rev"] and kind(S, s) != "warship"]
    for s in list(P["ger"]):
        st = S["sh"][s]
        if st is not None and st["ref"] is not None and st["reft"] < S["tno"]:
            ISLAND_REFUGE.refuge_rolls(S, rng, s, ev)
    w = P["wait"]
    if w is not None and w["t"] == "fog_bank":
        FOG_BANK.begin_turn(S, rng, seat, ev)
        return
    if S["mode"] == "solo" and seat == solo.PHANTOM:
        T["dec"] = w is not None and w["t"] == "deception"
        T["ph"] = "phantom"
        return
    if w is not None and w["t"] == "deception":  # R 3.3.10
        DECEPTION.begin_turn(S, rng, seat, ev)
        return
    T["ph"] = "commit"


def _end_turn(S: State, rng: random.Random, ev: Events) -> None:
    """4.1 steps 4-8: discard, draw one, refill merchants, Second Chance, next seat."""
    T = S["T"]
    seat = T["p"]
    P = S["p"][seat]
    if T["ph"] != "skipped":
        for e in T["com"]:
            S["adisc"].append(e["c"])
        for _s, c in T["rx"]:
            S["adisc"].append(c)
        if (T["fog"] or T["dec"]) and P["wait"] is not None:
            if P["wait"]["c"] is not None:  # the phantom's are no cards (R 5.4.3)
                S["adisc"].append(P["wait"]["c"])
            P["wait"] = None
        ev.append({"type": "discarded", "seat": seat, "cards": [e["c"] for e in T["com"]]
                   + [c for _s, c in T["rx"]]})
        T["com"] = []
        T["rx"] = []
        if not T["fog"]:
            c = S["adeck"].pop()
            for p in S["p"]:
                if c in p["peek"]:
                    p["peek"].remove(c)
            if S["mode"] == "solo" and seat == 1:
                S["adisc"].append(c)  # R 5.4.2: the phantom's draw goes face down to the discards
                ev.append({"type": "drew", "seat": seat})
            else:
                P["hand"].append(c)
                ev.append({"type": "drew", "seat": seat})
                ev.append({"type": "drew_card", "card": c, "to": [seat]})
            if not S["adeck"]:  # R 2.0, A-2: the round ends at once
                _end_round(S, rng, ev)
                return
    if S["mode"] == "solo" and seat == solo.PHANTOM:
        solo.reshuffle(S, rng, ev)  # R 5.4.1: at the end of every phantom turn
    refill_merchants(S, rng, ev)
    if T["sc"] and not T["extra"]:
        new_turn(S, seat, extra=True)
    else:
        new_turn(S, (seat + 1) % S["np"])


def _end_round(S: State, rng: random.Random, ev: Events) -> None:
    ev.append({"type": "round_ended", "round": S["round"]})
    rounds.score_round(S, rng, ev)
    S["stack"] = []
    if rounds.game_decided(S):
        S["phase"] = "over"
        S["pend"] = None
        ev.append({"type": "game_over", "rank": rounds.ranks(S)})
        return
    S["phase"] = "keep"
    def has_ships(s: int) -> bool:
        return any(not S["sh"][x]["prize"] for x in S["p"][s]["ger"])

    team = S["mode"] == "team"
    seats = [s for s in range(S["seats"]) if has_ships(s) or (team and has_ships((s + 2) % 4))]
    S["pend"] = {"k": "keep", "seats": seats, "ch": {}}
    if S["mode"] == "solo":
        S["pend"]["ch"]["1"] = solo.phantom_keep(S)
    if not seats:
        _next_round(S, rng, ev)


def _next_round(S: State, rng: random.Random, ev: Events) -> None:
    ch = S["pend"]["ch"]
    keep = {int(k): v for k, v in ch.items()}
    ev.append({"type": "ships_kept", "kept": [keep.get(s, []) for s in range(S["np"])]})
    rounds.cleanup_round(S, keep, ev)
    _start_round(S, rng, ev)


def _start_round(S: State, rng: random.Random, ev: Events) -> None:
    rounds.start_round(S, rng, ev)
    if S["mode"] == "solo":  # R 5.2.5: the Solitaire deck is reshuffled for every round
        solo.reshuffle(S, rng, ev)
    new_turn(S, S["turn"])
    advance(S, rng, ev)


def start_game(S: State, rng: random.Random, ev: Events) -> None:
    _start_round(S, rng, ev)
