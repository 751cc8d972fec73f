"""Kaiser's Pirates in words for people: choice labels with names and combat odds, one
sentence per event, and the board (ships, merchants, hand, committed cards, the
pending attack) as a rich renderable.

Everything reads a seat's *view*, never the full state. The odds are the rulebook's
own arithmetic (digest 5.2, 5.5): highest die of each side, Limited Supply and damage
-2, Night -1, a damaged defender -2; cards attached later can change them.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from lantable.plugins import hookimpl

from .data import ACTIONS, SHIPS
from .game import game_describe_action as _plain_label

View = dict[str, Any]
_PHASES = {"start": "starting", "commit": "committing cards", "resolve": "resolving cards",
           "discard": "discarding", "end": "ending", "skipped": "skipped", "phantom": "phantom"}
_PENDING = {
    "commit": "commit cards", "resolve": "play a committed card", "discard": "discard",
    "react": "react to the attack", "attach": "attach cards to the attack",
    "board": "choose a boarding card", "keep": "choose ships to keep",
    "order": "order the deck", "exchange": "exchange information",
    "mine_order": "order the mine targets", "pursue": "pursue or not", "shallows": "pursue or not",
    "post": "react after the attack", "reflag": "reflag a ship", "give_ships": "give ships",
    "passage": "decide whether to try Passage", "late": "decide whether to answer a sinking",
}
_ATTACKS = {
    "interception": "intercepts",
    "british": "British forces intercept",
    "mines": "lays mines against",
    "torpedo": "torpedoes",
}


def _name(names: list[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return "the phantom" if isinstance(seat, int) else "?"


def _ship(sid: Any) -> str:
    return SHIPS[sid]["name"] if isinstance(sid, int) and 0 <= sid < len(SHIPS) else "?"


def _card(cid: Any) -> str:
    return ACTIONS[cid]["name"] if isinstance(cid, int) and 0 <= cid < len(ACTIONS) else "a card"


def _n(count: Any, one: str, many: str | None = None) -> str:
    """"no cards", "1 card", "2 cards" (``many`` for an irregular plural)."""
    if count == 0:
        return f"no {many or one + 's'}"
    return f"{count} {one if count == 1 else many or one + 's'}"


def _dice(dice: list[int]) -> str:
    return "/".join(str(d) for d in dice) or "-"


# ---------------------------------------------------------------------------
# odds (digest 5.2): sunk at double, damaged above, else nothing
# ---------------------------------------------------------------------------


@cache
def _odds(att: tuple[int, ...], a_mod: int, dfn: tuple[int, ...],
          d_mod: int) -> tuple[float, float]:
    """(P(sunk), P(damaged)) for these dice and modifiers, exactly."""
    def dist(dice: tuple[int, ...], mod: int) -> dict[int, float]:
        out: dict[int, float] = {}
        total = 1
        for d in dice:
            total *= d
        for faces in product(*(range(1, d + 1) for d in dice)):
            v = max(1, max(faces) + mod)
            out[v] = out.get(v, 0) + 1 / total
        return out

    sunk = damaged = 0.0
    for a, pa in dist(att, a_mod).items():
        for d, pd in dist(dfn, d_mod).items():
            if a >= 2 * d:
                sunk += pa * pd
            elif a > d:
                damaged += pa * pd
    return sunk, damaged


def _ship_state(view: View, sid: int) -> dict[str, Any]:
    return (view.get("ships") or [])[sid] or {} if sid < len(view.get("ships") or []) else {}


def interception_odds(view: View, ship: int, target: int, night: bool) -> str:
    """"sinks 31%, damages 40%" for ``ship`` intercepting ``target`` before any card."""
    me, it = _ship_state(view, ship), _ship_state(view, target)
    a_mod = -2 * bool(me.get("limited_supply")) - 2 * bool(me.get("damage")) - int(night)
    d_mod = -2 * bool(it.get("damage"))
    sunk, dmg = _odds(tuple(SHIPS[ship]["att"]), a_mod, tuple(SHIPS[target]["def"]), d_mod)
    return f"{_dice(SHIPS[ship]['att'])} vs {_dice(SHIPS[target]['def'])}: " \
           f"sinks {round(100 * sunk)}%, damages {round(100 * dmg)}%"


# ---------------------------------------------------------------------------
# choices
# ---------------------------------------------------------------------------


@hookimpl
def game_describe_action(state: View, seat: int, action: dict[str, Any],
                         names: list[str]) -> str:
    """The game's plain label, with seat numbers as names, the target's VP and the
    odds of an interception where the view knows the attacker."""
    label = _plain_label(state, seat, action)
    for s in range(len(names)):
        label = label.replace(f"(seat {s})", f"({names[s]})").replace(f"seat {s}", names[s])
    target = action.get("target")
    if action.get("type") == "play" and isinstance(target, int) and 0 <= target < len(SHIPS):
        bits = [f"{SHIPS[target]['vp']} VP"]
        T = state.get("this_turn") or {}
        entry = next(
            (e for e in T.get("committed", []) if e.get("card") == action.get("card")), None
        )
        if entry and entry.get("use") == "icpt" and entry.get("ship") is not None:
            night = bool(ACTIONS[action["card"]]["night"])
            bits.append(interception_odds(state, entry["ship"], target, night))
        label += " — " + ", ".join(bits)
    return label


# ---------------------------------------------------------------------------
# events
# ---------------------------------------------------------------------------


_ROLL_WORDS = {"amc": "AMC", "qqq": "QQQ", "q": "Q-ship", "sub": "submarine"}


def _roll(event: dict[str, Any], names: list[str]) -> str:
    words = [_ROLL_WORDS.get(w, w) for w in str(event.get("what", "roll")).split("_")]
    what = " ".join(words)
    a = f"{_name(names, event.get('a_seat'))} rolls {event.get('a')} ({_dice(event['a_dice'])})"
    d = f"{_name(names, event.get('d_seat'))} {event.get('d')} ({_dice(event['d_dice'])})"
    return f"{what[:1].upper() + what[1:]}: {a} against {d}"


_DUEL_RESULT = {"none": "unharmed", "damaged": "damaged", "sunk": "sunk",
                "captured": "captured"}


def _duel(results: list[Any]) -> str:
    """R 3.3.1, 3.3.46: both shots of a duel at once: the raider's fate, then its
    target's ("The duel leaves the raider damaged and its target sunk")."""
    if len(results) != 2:
        return "The duel is fought"
    raider, target = (_DUEL_RESULT.get(str(r), str(r).replace("_", " ")) for r in results)
    if raider == target == "unharmed":
        return "The duel leaves both ships unharmed"
    return f"The duel leaves the raider {raider} and its target {target}"


def _ships(ids: list[int]) -> str:
    return ", ".join(_ship(s) for s in ids) or "no ship"


@hookimpl
def game_describe_event(view: View, seat: int | None, event: dict[str, Any],
                        names: list[str]) -> str | None:
    t = event.get("type")
    who = _name(names, event.get("seat"))
    ship = _ship(event.get("ship"))
    simple = {
        "turn_started": f"{who}'s {'extra ' if event.get('extra') else ''}turn",
        "drew": f"{who} draws a card",
        "passage_failed": f"{ship} fails its passage and stays at sea",
        "entered_refuge": f"{ship} enters an Island Refuge",
        "left_refuge": f"{ship} leaves its Island Refuge",
        "limited_supply": f"{ship} is now on Limited Supply",
        "revealed": f"{ship} is revealed",
        "merchant_drawn": f"{who} draws the merchant {ship}",
        "ship_drawn": f"{who} draws {ship}",
        "first_player": f"{who} plays first this round",
        "keep_chosen": f"{who} has chosen which ships to keep",
        "round_started": f"Round {event.get('round')} begins",
        "round_ended": f"Round {event.get('round')} ends",
        "hand_dealt": f"{who} is dealt {_n(event.get('n'), 'card')}",
        "attack_cancelled": f"The attack on {ship} is cancelled",
        "action_cancelled": f"{_card(event.get('card'))} on {ship} is cancelled",
        "passage_declined": f"{ship} does not try its passage",
        "interception_cancelled": f"The interception of {ship} is cancelled",
        "captured": f"{who} captures {ship} with {_ship(event.get('by'))}: it becomes a prize",
        "cards_discarded_by_phantom": f"The phantom makes {who} discard",
        "cards_taken": f"{who} takes {_n(event.get('n'), 'card')} from "
                       f"{_name(names, event.get('from'))}",
        "deck_reordered": f"{who} reorders the top "
                          f"{_n(event.get('n'), 'card')} of the deck",
        "fog_bank_turn": f"Fog bank: {who}'s turn",
        "game_over": "The game is over",
        "hidden": f"{ship} is hidden",
        "mine_order": f"Mines will hit {_ships(event.get('ships') or [])} in this order",
        "mines_swept": f"{who}'s mines are swept",
        "no_further_damage": f"{ship} is already damaged: no further effect",
        "phantom_submarine_sunk": "The phantom's submarine is sunk",
        "pursuit": f"{ship} gives chase",
        "shallows_pursuit": f"{ship} pursues into the shallows",
        "red_die": f"The red die shows {event.get('face')}",
        "repaired": f"{ship} is repaired",
        "reshuffle": f"The {str(event.get('deck', 'deck')).replace('adeck', 'Action deck')} "
                     f"is reshuffled ({_n(event.get('n'), 'card')})",
        "resupplied": f"{ship} is resupplied",
        "solitaire_card": f"Solitaire card {event.get('card')} is drawn",
        "solitaire_shuffle": "The Solitaire deck is reshuffled",
        "swapped": f"{who} swaps {_ship(event.get('gave'))} for {_ship(event.get('took'))}",
        "took_discards": f"{who} takes {_n(len(event.get('cards') or []), 'card')} "
                         f"from the discards",
        "transferred": f"{ship} is transferred to {who}",
        "turn_skipped": f"{who}'s turn is skipped",
        "turn_will_be_skipped": f"{who}'s next turn will be skipped",
        "warship_limit_discard": f"{who} must give up {ship} (warship limit)",
    }
    if t in simple:
        return simple[t]
    if t == "committed":
        on = f" on {_ship(event['ship'])}" if event.get("ship") is not None else ""
        use = {"icpt": "an interception", "brit": "a British interception",
               "mines": "mines", "act": "an action"}.get(event.get("use"), "a card")
        return f"{who} commits a card face down for {use}{on}"
    if t == "card_played":
        at = f" at {_ship(event['target'])}" if event.get("target") is not None else ""
        return f"{who} plays {_card(event.get('card'))}{at}"
    if t == "roll":
        return _roll(event, names)
    if t == "result":
        res = {"none": "is unharmed", "sunk": "is sunk", "damaged": "is damaged",
               "captured": "is captured"}.get(event.get("result"), f"— {event.get('result')}")
        return f"{ship} {res}"
    if t == "damaged":
        n = event.get("markers")
        return f"{ship} is damaged ({n} marker{'s' * (n != 1)})"
    if t == "to_vp_pile":
        double = " (double)" if event.get("mult", 1) > 1 else ""
        if "card" in event:  # a sunk AMC, Q-ship or submarine card (R 3.3.1, 3.3.28)
            cd = ACTIONS[event["card"]]
            what = f"{cd['name']} {cd.get('ship', '')}".strip()
            return f"{what} goes to {who}'s VP pile: {cd.get('vp', 0)} VP"
        return f"{ship} goes to {who}'s VP pile: {SHIPS[event['ship']]['vp']} VP{double}"
    if t == "ship_removed":
        return f"{ship} leaves play ({str(event.get('why', '')).replace('_', ' ')})"
    if t == "discarded":
        return f"{who} discards {_n(len(event.get('cards') or []), 'card')}"
    if t == "drew_card":
        return f"You draw {_card(event.get('card'))}"
    if t == "hand":
        cards = [_card(c) for c in event.get("cards") or []]
        return "Your hand: " + ", ".join(cards) if cards else "Your hand is empty"
    if t == "reaction":
        return f"{who} reacts with {_card(event.get('card'))}"
    if t == "interception_reduced":
        return f"The interception now targets only {_ships(event.get('targets') or [])}"
    if t == "duel":
        return _duel(event.get("results") or [])
    if t == "round_scored":
        vp = ", ".join(f"{_name(names, s)} {v}" for s, v in enumerate(event.get("vp") or []))
        rp = ", ".join(f"{_name(names, s)} {v}" for s, v in enumerate(event.get("rp_total") or []))
        return f"Round {event.get('round')} scored: VP {vp}; Round Points now {rp}"
    if t == "ships_kept":
        kept = [f"{_name(names, s)} {_ships(k)}" for s, k in enumerate(event.get("kept") or [])
                if k]
        return "Ships kept: " + ("; ".join(kept) if kept else "none")
    if t == "ships_dealt":
        return f"{who} gets {_ships(event.get('ships') or [])}"
    if t == "action_deck":
        return f"The Action deck has {_n(event.get('n'), 'card')}"
    if t == "roll_off":
        faces = ", ".join(f"{_name(names, s)} {f}" for s, f in
                          zip(event.get("seats") or [], event.get("faces") or [], strict=False))
        return f"Roll-off for first player: {faces}"
    if t == "placed_on":
        return f"{who} places {_card(event.get('card'))}"
    if t == "cards_taken_were":
        return "The cards taken: " + ", ".join(_card(c) for c in event.get("cards") or [])
    if t == "exchanged":
        a, b = (event.get("seats") or [None, None])[:2]
        return f"{_name(names, a)} and {_name(names, b)} exchange cards"
    if t == "exchanged_cards":
        return "Cards exchanged: " + "; ".join(", ".join(_card(c) for c in side)
                                               for side in event.get("cards") or [])
    if t == "seen_deck_top":
        return "The top of the deck: " + ", ".join(_card(c) for c in event.get("cards") or [])
    if t == "seen_hand":
        return f"{who}'s hand: " + ", ".join(_card(c) for c in event.get("cards") or [])
    if t == "phantom_action":
        return "The phantom acts"
    if t == "phantom_reaction":
        applies = "" if event.get("applies") else " (no effect)"
        return f"The phantom reacts: {str(event.get('reaction')).replace('_', ' ')}{applies}"
    if t == "phantom_specials":
        return "The phantom's special cards are drawn"
    if t == "deception_card":
        return f"Your Deception card is {_card(event.get('card'))}"
    return None


# ---------------------------------------------------------------------------
# the board
# ---------------------------------------------------------------------------


def _vp(view: View, seat: int) -> int:
    total = 0
    for e in view["players"][seat]["vp_pile"]:
        vp = SHIPS[e["ship"]]["vp"] if "ship" in e else ACTIONS[e["card"]].get("vp", 0) or 0
        total += vp * e.get("mult", 1)
    return total


def _ship_line(view: View, sid: int) -> str:
    s = SHIPS[sid]
    st = _ship_state(view, sid)
    marks = [m for m, on in (("damaged", st.get("damage")), ("LS", st.get("limited_supply")),
                             ("refuge", st.get("refuge") is not None), ("prize", st.get("prize")))
             if on]
    dice = f"att {_dice(s['att'])} " if s["att"] else ""
    extra = f" [{', '.join(marks)}]" if marks else ""
    return f"{s['name']} ({dice}def {_dice(s['def'])}, {s['vp']} VP){extra}"


def _players(view: View, seat: int | None, names: list[str]) -> Table:
    table = Table(show_edge=False, pad_edge=False, expand=False)
    for col in ("player", "VP", "RP", "hand", "German ships", "merchants"):
        table.add_column(col)
    for s, p in enumerate(view["players"][:view.get("seats", len(view["players"]))]):
        table.add_row(_name(names, s) + (" (you)" if s == seat else ""), str(_vp(view, s)),
                      str(p["round_points"]), str(p["hand_n"]),
                      "\n".join(_ship_line(view, x) for x in p["german"]) or "—",
                      "\n".join(_ship_line(view, x) for x in p["merchants"]) or "—")
    return table


def _hand(view: View) -> Text:
    cards = []
    for c in view["me"]["hand"]:
        card = ACTIONS[c]
        night = ", night" if card.get("night") else ""
        icpt = f" (British {_dice(card['icpt'])}{night})" if card.get("icpt") else ""
        cards.append(f"{card['name']}{icpt}")
    return Text("Your hand: " + "; ".join(cards) if cards else "Your hand is empty")


_USES = {"icpt": "interception", "brit": "British forces", "mines": "mines", "act": "action"}


def _turn(view: View, names: list[str]) -> list[Any]:
    T = view.get("this_turn")
    out: list[Any] = []
    if not T:
        return out
    com = []
    for e in T.get("committed", []):
        card = _card(e["card"]) if e.get("card") is not None else "face down"
        on = f" on {_ship(e['ship'])}" if e.get("ship") is not None else ""
        done = " (played)" if e.get("played") else ""
        use = _USES.get(e["use"], str(e["use"]))
        com.append(f"{use}{on}: {card}{done}")
    if com:
        out.append(Text("Committed this turn: " + "; ".join(com)))
    for ctx in reversed(view.get("stack") or []):
        verb = _ATTACKS.get(ctx.get("kind"))
        if verb is None:
            continue
        targets = _ships(ctx.get("targets") or [])
        by = _ship(ctx["ship"]) + " " if ctx.get("ship") is not None else ""
        night = " at night" if ctx.get("night") else ""
        out.append(Text(f"Pending attack: {by}{verb} {targets} of "
                        f"{_name(names, ctx.get('defender'))}{night}"))
        break
    return out


def _round_points_rule(view: View) -> str:
    """7.4 in a sentence, with this table's numbers: what the VP piles are for."""
    n = view.get("n_players") or len(view["players"])
    rest = f", the next {n - 1}" + (", and so on" if n > 2 else "") if n > 1 else ""
    team = " (a team adds up its two players')" if view.get("mode") == "team" else ""
    return (f"Round points (RP): at the end of each round the most VP scores {n}{rest}; "
            f"no VP scores nothing. Most RP after round 3 wins{team}; equal RP go to "
            f"total VP.")


@hookimpl
def game_render_text(view: View, seat: int | None, names: list[str]) -> Any:
    T = view.get("this_turn") or {}
    phase = _PHASES.get(T.get("stage"), T.get("stage") or "between turns")
    turn = f"; {_name(names, T['seat'])}'s turn ({phase})" if T.get("seat") is not None else ""
    pend = view.get("pending") or {}
    waiting = ""
    if pend.get("kind") in _PENDING and pend.get("seat") is not None:
        waiting = f"; {_name(names, pend['seat'])} must {_PENDING[pend['kind']]}"
    head = Text(
        f"Round {view['round']} of 3{turn}{waiting}\n"
        f"Action deck {_n(view['action_deck_n'], 'card')}, "
        f"merchants left {view['merchant_deck_n']}"
    )
    parts: list[Any] = [head, _players(view, seat, names), Text(_round_points_rule(view)),
                        *_turn(view, names)]
    if view.get("me") is not None:
        parts.append(_hand(view))
    return Group(*parts)
