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
from lantable.plugins.text import Said, Sentences

from .data import ACTIONS, SHIPS
from .game import game_describe_action as _plain_label
from .hidden import readable

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
    state, action = readable(state), readable(state, action)
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


def _who(e: Said) -> str:
    """The event's seat, in words ("the phantom" in a Solitaire game)."""
    return _name(e.names, e.get("seat"))


def _s(e: Said) -> str:
    """The event's ship, in words."""
    return _ship(e.get("ship"))


SENTENCES = Sentences()  # event type -> its sentence (lantable.plugins.text)
SENTENCES.add("turn_started", lambda e: f"{_who(e)}'s {'extra ' if e.get('extra') else ''}turn")
SENTENCES.add("drew", lambda e: f"{_who(e)} draws a card")
SENTENCES.add("passage_failed", lambda e: f"{_s(e)} fails its passage and stays at sea")
SENTENCES.add("entered_refuge", lambda e: f"{_s(e)} enters an Island Refuge")
SENTENCES.add("left_refuge", lambda e: f"{_s(e)} leaves its Island Refuge")
SENTENCES.add("limited_supply", lambda e: f"{_s(e)} is now on Limited Supply")
SENTENCES.add("revealed", lambda e: f"{_s(e)} is revealed")
SENTENCES.add("merchant_drawn", lambda e: f"{_who(e)} draws the merchant {_s(e)}")
SENTENCES.add("ship_drawn", lambda e: f"{_who(e)} draws {_s(e)}")
SENTENCES.add("first_player", lambda e: f"{_who(e)} plays first this round")
SENTENCES.add("keep_chosen", lambda e: f"{_who(e)} has chosen which ships to keep")
SENTENCES.add("round_started", lambda e: f"Round {e.get('round')} begins")
SENTENCES.add("round_ended", lambda e: f"Round {e.get('round')} ends")
SENTENCES.add("hand_dealt", lambda e: f"{_who(e)} is dealt {_n(e.get('n'), 'card')}")
SENTENCES.add("attack_cancelled", lambda e: f"The attack on {_s(e)} is cancelled")
SENTENCES.add("action_cancelled", lambda e: f"{_card(e.get('card'))} on {_s(e)} is cancelled")
SENTENCES.add("passage_declined", lambda e: f"{_s(e)} does not try its passage")
SENTENCES.add("interception_cancelled", lambda e: f"The interception of {_s(e)} is cancelled")
SENTENCES.add("captured", lambda e: (
    f"{_who(e)} captures {_s(e)} with {_ship(e.get('by'))}: it becomes a prize"))
SENTENCES.add("cards_discarded_by_phantom", lambda e: f"The phantom makes {_who(e)} discard")
SENTENCES.add("cards_taken", lambda e: (
    f"{_who(e)} takes {_n(e.get('n'), 'card')} from "
    f"{_name(e.names, e.get('from'))}"))
SENTENCES.add("deck_reordered", lambda e: (
    f"{_who(e)} reorders the top "
    f"{_n(e.get('n'), 'card')} of the deck"))
SENTENCES.add("fog_bank_turn", lambda e: f"Fog bank: {_who(e)}'s turn")
SENTENCES.add("game_over", lambda e: "The game is over")
SENTENCES.add("hidden", lambda e: f"{_s(e)} is hidden")
SENTENCES.add("mine_order", lambda e: (
    f"Mines will hit {_ships(e.get('ships') or [])} in this order"))
SENTENCES.add("mines_swept", lambda e: f"{_who(e)}'s mines are swept")
SENTENCES.add("no_further_damage", lambda e: f"{_s(e)} is already damaged: no further effect")
SENTENCES.add("phantom_submarine_sunk", lambda e: "The phantom's submarine is sunk")
SENTENCES.add("pursuit", lambda e: f"{_s(e)} gives chase")
SENTENCES.add("shallows_pursuit", lambda e: f"{_s(e)} pursues into the shallows")
SENTENCES.add("red_die", lambda e: f"The red die shows {e.get('face')}")
SENTENCES.add("repaired", lambda e: f"{_s(e)} is repaired")
SENTENCES.add("reshuffle", lambda e: (
    f"The {str(e.get('deck', 'deck')).replace('adeck', 'Action deck')} "
    f"is reshuffled ({_n(e.get('n'), 'card')})"))
SENTENCES.add("resupplied", lambda e: f"{_s(e)} is resupplied")
SENTENCES.add("solitaire_card", lambda e: f"Solitaire card {e.get('card')} is drawn")
SENTENCES.add("solitaire_shuffle", lambda e: "The Solitaire deck is reshuffled")
SENTENCES.add("swapped", lambda e: (
    f"{_who(e)} swaps {_ship(e.get('gave'))} for {_ship(e.get('took'))}"))
SENTENCES.add("took_discards", lambda e: (
    f"{_who(e)} takes {_n(len(e.get('cards') or []), 'card')} "
    f"from the discards"))
SENTENCES.add("transferred", lambda e: f"{_s(e)} is transferred to {_who(e)}")
SENTENCES.add("turn_skipped", lambda e: f"{_who(e)}'s turn is skipped")
SENTENCES.add("turn_will_be_skipped", lambda e: f"{_who(e)}'s next turn will be skipped")
SENTENCES.add("warship_limit_discard", lambda e: f"{_who(e)} must give up {_s(e)} (warship limit)")


@SENTENCES.on("committed")
def _say_committed(e: Said) -> str:
    who = _who(e)
    on = f" on {_ship(e['ship'])}" if e.get("ship") is not None else ""
    use = {"icpt": "an interception", "brit": "a British interception",
           "mines": "mines", "act": "an action"}.get(e.get("use"), "a card")
    return f"{who} commits a card face down for {use}{on}"


@SENTENCES.on("card_played")
def _say_card_played(e: Said) -> str:
    who = _who(e)
    at = f" at {_ship(e['target'])}" if e.get("target") is not None else ""
    return f"{who} plays {_card(e.get('card'))}{at}"


@SENTENCES.on("roll")
def _say_roll(e: Said) -> str:
    return _roll(e, e.names)


@SENTENCES.on("result")
def _say_result(e: Said) -> str:
    ship = _s(e)
    res = {"none": "is unharmed", "sunk": "is sunk", "damaged": "is damaged",
           "captured": "is captured"}.get(e.get("result"), f"— {e.get('result')}")
    return f"{ship} {res}"


@SENTENCES.on("damaged")
def _say_damaged(e: Said) -> str:
    ship = _s(e)
    n = e.get("markers")
    return f"{ship} is damaged ({n} marker{'s' * (n != 1)})"


@SENTENCES.on("to_vp_pile")
def _say_to_vp_pile(e: Said) -> str:
    who = _who(e)
    ship = _s(e)
    double = " (double)" if e.get("mult", 1) > 1 else ""
    if "card" in e:  # a sunk AMC, Q-ship or submarine card (R 3.3.1, 3.3.28)
        cd = ACTIONS[e["card"]]
        what = f"{cd['name']} {cd.get('ship', '')}".strip()
        return f"{what} goes to {who}'s VP pile: {cd.get('vp', 0)} VP"
    return f"{ship} goes to {who}'s VP pile: {SHIPS[e['ship']]['vp']} VP{double}"


@SENTENCES.on("ship_removed")
def _say_ship_removed(e: Said) -> str:
    ship = _s(e)
    return f"{ship} leaves play ({str(e.get('why', '')).replace('_', ' ')})"


@SENTENCES.on("discarded")
def _say_discarded(e: Said) -> str:
    who = _who(e)
    return f"{who} discards {_n(len(e.get('cards') or []), 'card')}"


@SENTENCES.on("drew_card")
def _say_drew_card(e: Said) -> str:
    return f"You draw {_card(e.get('card'))}"


@SENTENCES.on("hand")
def _say_hand(e: Said) -> str:
    cards = [_card(c) for c in e.get("cards") or []]
    return "Your hand: " + ", ".join(cards) if cards else "Your hand is empty"


@SENTENCES.on("reaction")
def _say_reaction(e: Said) -> str:
    who = _who(e)
    return f"{who} reacts with {_card(e.get('card'))}"


@SENTENCES.on("interception_reduced")
def _say_interception_reduced(e: Said) -> str:
    return f"The interception now targets only {_ships(e.get('targets') or [])}"


@SENTENCES.on("duel")
def _say_duel(e: Said) -> str:
    return _duel(e.get("results") or [])


@SENTENCES.on("round_scored")
def _say_round_scored(e: Said) -> str:
    vp = ", ".join(f"{_name(e.names, s)} {v}" for s, v in enumerate(e.get("vp") or []))
    rp = ", ".join(f"{_name(e.names, s)} {v}" for s, v in enumerate(e.get("rp_total") or []))
    return f"Round {e.get('round')} scored: VP {vp}; Round Points now {rp}"


@SENTENCES.on("ships_kept")
def _say_ships_kept(e: Said) -> str:
    kept = [f"{_name(e.names, s)} {_ships(k)}" for s, k in enumerate(e.get("kept") or [])
            if k]
    return "Ships kept: " + ("; ".join(kept) if kept else "none")


@SENTENCES.on("ships_dealt")
def _say_ships_dealt(e: Said) -> str:
    who = _who(e)
    return f"{who} gets {_ships(e.get('ships') or [])}"


@SENTENCES.on("action_deck")
def _say_action_deck(e: Said) -> str:
    return f"The Action deck has {_n(e.get('n'), 'card')}"


@SENTENCES.on("roll_off")
def _say_roll_off(e: Said) -> str:
    faces = ", ".join(f"{_name(e.names, s)} {f}" for s, f in
                      zip(e.get("seats") or [], e.get("faces") or [], strict=False))
    return f"Roll-off for first player: {faces}"


@SENTENCES.on("placed_on")
def _say_placed_on(e: Said) -> str:
    who = _who(e)
    return f"{who} places {_card(e.get('card'))}"


@SENTENCES.on("cards_taken_were")
def _say_cards_taken_were(e: Said) -> str:
    return "The cards taken: " + ", ".join(_card(c) for c in e.get("cards") or [])


@SENTENCES.on("exchanged")
def _say_exchanged(e: Said) -> str:
    a, b = (e.get("seats") or [None, None])[:2]
    return f"{_name(e.names, a)} and {_name(e.names, b)} exchange cards"


@SENTENCES.on("exchanged_cards")
def _say_exchanged_cards(e: Said) -> str:
    return "Cards exchanged: " + "; ".join(", ".join(_card(c) for c in side)
                                           for side in e.get("cards") or [])


@SENTENCES.on("seen_deck_top")
def _say_seen_deck_top(e: Said) -> str:
    return "The top of the deck: " + ", ".join(_card(c) for c in e.get("cards") or [])


@SENTENCES.on("seen_hand")
def _say_seen_hand(e: Said) -> str:
    who = _who(e)
    return f"{who}'s hand: " + ", ".join(_card(c) for c in e.get("cards") or [])


@SENTENCES.on("phantom_action")
def _say_phantom_action(e: Said) -> str:
    return "The phantom acts"


@SENTENCES.on("phantom_reaction")
def _say_phantom_reaction(e: Said) -> str:
    applies = "" if e.get("applies") else " (no effect)"
    return f"The phantom reacts: {str(e.get('reaction')).replace('_', ' ')}{applies}"


@SENTENCES.on("phantom_specials")
def _say_phantom_specials(e: Said) -> str:
    return "The phantom's special cards are drawn"


@SENTENCES.on("deception_card")
def _say_deception_card(e: Said) -> str:
    return f"Your Deception card is {_card(e.get('card'))}"


@hookimpl
def game_describe_event(view: View, seat: int | None, event: dict[str, Any],
                        names: list[str]) -> str | None:
    return SENTENCES.say(readable(view), seat, readable(view, event), names)


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
        if not 0 <= c < len(ACTIONS):  # a hidden deck's card this client cannot read
            cards.append("a face-down card")
            continue
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
    view = readable(view)
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
