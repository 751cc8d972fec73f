"""Nero in sentences: what happened (one line per event) and what an answer window is
about, for the people at the table. Reads only what a view has."""

from __future__ import annotations

from typing import Any

from . import board as B
from .data import AREA_NAMES, CARDS, EVENTS, NAMES

State = dict[str, Any]

PLACES = NAMES  # province ids 0-21, then Roma (22)


def card_name(c: int) -> str:
    card = CARDS[c]
    return f"{EVENTS[card['ev']][0]} ({card['mp']} MP, {card['bp']} BP)"


def event_name(key: str) -> str:
    return EVENTS[key][0] if key in EVENTS else key.replace("_", " ")


def who(names: list[str], s: int | None) -> str:
    if s is None:
        return "?"
    if s < 0:
        return "the Uncontrolled"
    return names[s] if s < len(names) else f"seat {s}"


def _legions(k: int) -> str:
    return f"{k} Legion{'' if k == 1 else 's'}"


def _army(v: State, seat: int, legions: int, leader: bool) -> str:
    parts = [_legions(legions)] if legions else []
    if leader:
        parts.append(f"the {B.RANK_NAMES[v['leaders'][seat]['rank']]}")
    return " and ".join(parts) or "nobody"


# --- what an answer window is about -------------------------------------------------

_STOPS = {"move": "army on the move", "attack": "army's attack", "retreat": "retreat",
          "event": "Galley Fleet"}


def _what(key: str, act: str, names: list[str], target: int | None = None,
          prov: int | None = None, frm: int | None = None, to: int | None = None,
          area: str | None = None, about: str = "", cancelled: bool = False) -> str:
    """A card played: its name and its target (from an ``event`` event, or from the
    effect waiting on the stack, :func:`_effect`)."""
    text = event_name(key)
    if key in ("bad_weather", "wounded"):
        what = "General" if key == "wounded" else _STOPS.get(about, "army")
        text += f" against {act}'s {what}"
    elif key == "corruption":
        text += " against a Senate Influence of the declaration"
    elif target is not None and key in ("crisis", "rebel", "traitor", "assassin"):
        text += f" on {who(names, target)}"
        if prov is not None:
            text += f" in {PLACES[prov]}"
    elif key == "galley" and frm is not None and to is not None:
        text += f" from {PLACES[frm]} to {PLACES[to]}"
    elif key == "germanic" and prov is not None:
        text += f" on {PLACES[prov]}"
    elif key == "revolt" and area is not None:
        text += f" in {AREA_NAMES[area]}"
    if cancelled:
        text += " (now cancelled by Bad Omens)"
    return text


def _effect(item: dict[str, Any], act: str, names: list[str]) -> str:
    """The card of an effect waiting on the stack (``pending``, kind ``effect``)."""
    return _what(item.get("event") or item.get("what", ""), act, names,
                 target=item.get("target"), prov=item.get("province"),
                 frm=item.get("source"), to=item.get("to"), area=item.get("area"),
                 about=item.get("about", ""), cancelled=item.get("omens", 0) % 2 == 1)


def moment(v: State, names: list[str]) -> str:
    """What the answer window on top of the public stack is about."""
    pending = v.get("pending") or []
    top = pending[-1] if pending else {}
    below = pending[-2] if len(pending) > 1 else {}
    act = who(names, v.get("active"))
    if top.get("kind") == "assassination":
        return f"{act}'s assassination attempt"
    about = top.get("about")
    if about in ("move", "attack"):
        group = (v.get("movement") or {}).get("group") or {}
        army = _army(v, v["active"], len(group.get("legions", [])), bool(group.get("leader")))
        where = PLACES[group["at"]] if "at" in group else "?"
        if about == "attack":
            return (f"{act}'s army ({army}) attacking {who(names, below.get('defender'))} "
                    f"in {where}")
        return f"{act}'s army ({army}) on the move in {where}"
    if about == "retreat":
        return (f"{who(names, below.get('seat'))}'s retreat from {PLACES[below['province']]} "
                f"to {PLACES[below['to']]}" if "province" in below else "a retreat")
    if about == "declare":
        return f"{act}'s declaration in Rome (Corruption cancels a Senate Influence)"
    return f"{who(names, below.get('seat'))}'s {_effect(below, act, names)}"


def _tally(vp: list[int], names: list[str]) -> str:
    return ", ".join(f"{who(names, s)} {v}" for s, v in enumerate(vp)) + " VP"


# --- one line per event -------------------------------------------------------------


def describe_event(v: State, seat: int | None, e: dict[str, Any], names: list[str]) -> str | None:
    t = e.get("type")
    w = who(names, e.get("seat"))
    P = PLACES
    if t == "march":
        return f"{w} moves from {P[e['from']]} with {e['mp']} MP"
    if t == "group":
        return f"{w}'s army sets out from {P[e['prov']]}: " + \
            _army(v, e["seat"], e["legions"], e["leader"])
    if t == "step":
        return f"{w} enters {P[e['dest']]} ({e['mp']} MP)"
    if t == "halted":
        why = {"tie": " after a tied battle", "lost": " after losing the battle",
               "bad weather": ", stopped by Bad Weather"}.get(e.get("why", ""), "")
        return f"{w}'s army stops in {P[e['prov']]}{why}"
    if t == "movement_end":
        return f"{w}'s movement ends"
    if t == "picked":
        what = "own Legions" if e["kind"] == "own" else "Uncontrolled Legions"
        return f"{w} picks up {e['legions']} {what} in {P[e['prov']]} ({e['mp']} MP)"
    if t == "dropped":
        what = [_legions(e["legions"])] if e.get("legions") else []
        what += ["the Leader"] if e["leader"] else []
        if not what:  # an event recorded before drops named their count
            what = ["the Legions"]
        return f"{w} leaves {' and '.join(what)} in {P[e['prov']]}"
    if t == "unmarked":
        return f"{w} removes the Retreat markers in {P[e['prov']]} (2 MP)"
    if t == "attack":
        return f"{w} attacks {who(names, e['target'])} in {P[e['prov']]}"
    if t == "attack_cancelled":
        return f"{w}'s attack is called off by Bad Weather"
    if t == "committed":
        return f"{w} lays {e['count']} battle card(s) face down"
    if t == "battle":
        return (f"Battle in {P[e['prov']]}: {who(names, e['att'])} {e['att_bp']} BP against "
                f"{who(names, e['def'])} {e['def_bp']} BP")
    if t == "battle_tie":
        return f"The battle in {P[e['prov']]} is a tie: the attacking army stops"
    if t == "battle_won":
        took = "takes a Legion" if e.get("captured", True) else "takes no Legion"
        return f"{w} wins the battle in {P[e['prov']]} and {took}"
    if t == "vp":
        return f"{w} gains {e['vp']} VP ({e['why']})"
    if t == "demoted":
        return f"{w}, {e['was']}, is beaten and back to General"
    if t == "passage_asked":
        return f"{w} asks passage through {P[e['prov']]}"
    if t in ("passage_granted", "passage_refused"):
        return f"{w} {'grants' if t == 'passage_granted' else 'refuses'} passage"
    if t == "stays":
        return f"{w} stays in {P[e['prov']]}"
    if t == "retreated":
        return f"{w} retreats {_legions(e['legions'])} from {P[e['from']]} to {P[e['dest']]}"
    if t == "retreat_stopped":
        return f"{w}'s retreat is stopped by Bad Weather"
    if t == "leader_stopped":
        return f"{w}'s Leader is wounded and stays put this round (his Legions may go on)"
    if t == "base":
        return f"{w} takes {AREA_NAMES[e['area']]} as Base"
    if t == "placed":
        return f"{w} places a Legion in {P[e['prov']]}"
    if t == "general":
        return f"{w} places the General in {P[e['prov']]}"
    if t == "crowned":
        return f"{w} is Emperor ({e['how']})!"
    if t == "acclaimed":
        return f"{w}'s Legions declare him Contender: now to Rome"
    if t == "event":
        return f"{w} plays " + _what(e["ev"], w, names, target=e.get("target"),
                                     prov=e.get("prov"), frm=e.get("from"), to=e.get("dest"),
                                     area=e.get("area"))
    if t == "answer":
        at = {"move": f"{who(names, v.get('active'))}'s moving army",
              "attack": f"{who(names, v.get('active'))}'s attack", "retreat": "a retreat",
              "declare": "the declaration in Rome",
              "event": f"{who(names, e.get('against'))}'s {event_name(e.get('against_ev', ''))}",
              "assassination": "the assassination attempt"}.get(e.get("at", ""), "")
        if e["ev"] == "wounded" and e.get("at") == "move":
            at = f"{who(names, v.get('active'))}'s General"
        return f"{w} answers with {event_name(e['ev'])}" + (f" against {at}" if at else "")
    if t == "cancelled":
        return f"{event_name(e['ev'])} is cancelled"
    if t == "corrupted":
        return f"{w}'s Corruption voids a Senate Influence of the declaration"
    if t == "to_rome":
        return f"Crisis in Rome: {w}, Emperor, is called to Rome"
    if t == "sailed":
        return f"{w}'s Galley Fleet lands " + _army(v, e["seat"], e["legions"], e["leader"]) + \
            f" from {P[e['from']]} in {P[e['dest']]}"
    if t == "rebels":
        return f"A Legion of {w} in {P[e['prov']]} rebels: now Uncontrolled"
    if t == "revolt":
        return f"Revolt in {P[e['prov']]}: {_legions(e['uncontrolled'])} turn Uncontrolled"
    if t == "revolt_brings":
        return f"{w} brings a Legion from {P[e['from']]} to {P[e['dest']]} (Revolt)"
    if t == "expelled":
        return f"Germanic Tribes drive {w}'s {_legions(e['legions'])} from " \
            f"{P[e['from']]} to {P[e['dest']]}"
    if t == "germanic_marker":
        return f"Germanic Tribes hold {P[e['prov']]}: 3 MP to enter, nobody controls it"
    if t == "germanic_lifted":
        return f"{w} drives the Germanic Tribes out of {P[e['prov']]}"
    if t == "traitor":
        return f"{w}'s Traitor steals a random card from {who(names, e['from'])}"
    if t == "stolen":
        what = card_name(e["card"]) if "card" in e else "A card"  # hidden deck: unseen
        return f"{what} goes from {who(names, e['from'])} to {who(names, e['to'][0])}"
    if t == "discarded":
        return f"{w} discards a card face down"
    if t == "scored":
        return f"Game Turn {e['game_turn']} scored: " + _tally(e["vp"], names)
    if t == "round":
        return f"{w}'s round (Game Turn {e['game_turn']})"
    if t == "round_end":
        return f"{w}'s round ends"
    if t == "deal":
        return f"Game Turn {e['game_turn']}: {e['per_seat']} cards each"
    if t == "first_drawn":
        return f"{w} is drawn to start the Game Turn (fewest VP, tied)"
    if t == "declare":
        return (f"{w} tries to be crowned in Rome: {e['board_dp']} DP from the board, "
                f"{e['senate']} Senate Influence, {e['guards']} Praetorian Guard")
    if t == "declared":
        return f"{w} declares in Rome with {e['dp']} DP: " + \
            ("crowned" if e["crowned"] else "fails")
    if t == "assassinated":
        return f"{w}, Emperor, is assassinated in Rome"
    if t == "assassination_failed":
        return f"The assassination of {w} fails"
    if t == "draw_order":
        return "Bases are picked in this order: " + ", ".join(who(names, x) for x in e["order"])
    if t == "setup_done":
        return "Setup done: Game Turn 1 begins"
    if t == "dealt":
        return f"{who(names, e['to'][0])} is dealt " + "; ".join(card_name(c) for c in e["cards"])
    if t == "game_over":
        return "Game over after Game Turn 4: " + _tally(e["vp"], names)
    if t == "automatic_victory":
        return f"{w} wins outright (automatic victory)"
    return None
