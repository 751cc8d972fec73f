"""Nero in sentences: what happened (one line per event) and what an answer window is
about, for the people at the table. Reads only what a view has."""

from __future__ import annotations

from typing import Any

from lantable.plugins.text import Said, Sentences

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


SENTENCES = Sentences()  # event type -> its sentence (lantable.plugins.text)


@SENTENCES.on("march")
def _say_march(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} moves from {P[e['from']]} with {e['mp']} MP"


@SENTENCES.on("group")
def _say_group(said: Said) -> str | None:
    v, e, names = said.view, said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w}'s army sets out from {P[e['prov']]}: " + \
        _army(v, e["seat"], e["legions"], e["leader"])


@SENTENCES.on("step")
def _say_step(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} enters {P[e['dest']]} ({e['mp']} MP)"


@SENTENCES.on("halted")
def _say_halted(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    why = {"tie": " after a tied battle", "lost": " after losing the battle",
           "bad weather": ", stopped by Bad Weather"}.get(e.get("why", ""), "")
    return f"{w}'s army stops in {P[e['prov']]}{why}"


@SENTENCES.on("movement_end")
def _say_movement_end(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}'s movement ends"


@SENTENCES.on("picked")
def _say_picked(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    what = "own Legions" if e["kind"] == "own" else "Uncontrolled Legions"
    return f"{w} picks up {e['legions']} {what} in {P[e['prov']]} ({e['mp']} MP)"


@SENTENCES.on("dropped")
def _say_dropped(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    what = [_legions(e["legions"])] if e.get("legions") else []
    what += ["the Leader"] if e["leader"] else []
    if not what:  # an event recorded before drops named their count
        what = ["the Legions"]
    return f"{w} leaves {' and '.join(what)} in {P[e['prov']]}"


@SENTENCES.on("unmarked")
def _say_unmarked(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} removes the Retreat markers in {P[e['prov']]} (2 MP)"


@SENTENCES.on("attack")
def _say_attack(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} attacks {who(names, e['target'])} in {P[e['prov']]}"


@SENTENCES.on("attack_cancelled")
def _say_attack_cancelled(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}'s attack is called off by Bad Weather"


@SENTENCES.on("committed")
def _say_committed(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w} lays {e['count']} battle card(s) face down"


@SENTENCES.on("battle")
def _say_battle(said: Said) -> str | None:
    e, names = said.event, said.names
    P = PLACES
    return (f"Battle in {P[e['prov']]}: {who(names, e['att'])} {e['att_bp']} BP against "
            f"{who(names, e['def'])} {e['def_bp']} BP")


@SENTENCES.on("battle_tie")
def _say_battle_tie(said: Said) -> str | None:
    e = said.event
    P = PLACES
    return f"The battle in {P[e['prov']]} is a tie: the attacking army stops"


@SENTENCES.on("battle_won")
def _say_battle_won(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    took = "takes a Legion" if e.get("captured", True) else "takes no Legion"
    return f"{w} wins the battle in {P[e['prov']]} and {took}"


@SENTENCES.on("vp")
def _say_vp(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w} gains {e['vp']} VP ({e['why']})"


@SENTENCES.on("demoted")
def _say_demoted(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}, {e['was']}, is beaten and back to General"


@SENTENCES.on("passage_asked")
def _say_passage_asked(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} asks passage through {P[e['prov']]}"


@SENTENCES.on("passage_granted", "passage_refused")
def _say_passage_granted(said: Said) -> str | None:
    e, names = said.event, said.names
    t = e.get("type")
    w = who(names, e.get("seat"))
    return f"{w} {'grants' if t == 'passage_granted' else 'refuses'} passage"


@SENTENCES.on("stays")
def _say_stays(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} stays in {P[e['prov']]}"


@SENTENCES.on("retreated")
def _say_retreated(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} retreats {_legions(e['legions'])} from {P[e['from']]} to {P[e['dest']]}"


@SENTENCES.on("retreat_stopped")
def _say_retreat_stopped(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}'s retreat is stopped by Bad Weather"


@SENTENCES.on("leader_stopped")
def _say_leader_stopped(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}'s Leader is wounded and stays put this round (his Legions may go on)"


@SENTENCES.on("base")
def _say_base(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w} takes {AREA_NAMES[e['area']]} as Base"


@SENTENCES.on("placed")
def _say_placed(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} places a Legion in {P[e['prov']]}"


@SENTENCES.on("general")
def _say_general(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} places the General in {P[e['prov']]}"


@SENTENCES.on("crowned")
def _say_crowned(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w} is Emperor ({e['how']})!"


@SENTENCES.on("acclaimed")
def _say_acclaimed(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}'s Legions declare him Contender: now to Rome"


@SENTENCES.on("event")
def _say_event(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w} plays " + _what(e["ev"], w, names, target=e.get("target"),
                                 prov=e.get("prov"), frm=e.get("from"), to=e.get("dest"),
                                 area=e.get("area"))


@SENTENCES.on("answer")
def _say_answer(said: Said) -> str | None:
    v, e, names = said.view, said.event, said.names
    w = who(names, e.get("seat"))
    at = {"move": f"{who(names, v.get('active'))}'s moving army",
          "attack": f"{who(names, v.get('active'))}'s attack", "retreat": "a retreat",
          "declare": "the declaration in Rome",
          "event": f"{who(names, e.get('against'))}'s {event_name(e.get('against_ev', ''))}",
          "assassination": "the assassination attempt"}.get(e.get("at", ""), "")
    if e["ev"] == "wounded" and e.get("at") == "move":
        at = f"{who(names, v.get('active'))}'s General"
    return f"{w} answers with {event_name(e['ev'])}" + (f" against {at}" if at else "")


@SENTENCES.on("cancelled")
def _say_cancelled(said: Said) -> str | None:
    e = said.event
    return f"{event_name(e['ev'])} is cancelled"


@SENTENCES.on("corrupted")
def _say_corrupted(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}'s Corruption voids a Senate Influence of the declaration"


@SENTENCES.on("to_rome")
def _say_to_rome(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"Crisis in Rome: {w}, Emperor, is called to Rome"


@SENTENCES.on("sailed")
def _say_sailed(said: Said) -> str | None:
    v, e, names = said.view, said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w}'s Galley Fleet lands " + _army(v, e["seat"], e["legions"], e["leader"]) + \
        f" from {P[e['from']]} in {P[e['dest']]}"


@SENTENCES.on("rebels")
def _say_rebels(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"A Legion of {w} in {P[e['prov']]} rebels: now Uncontrolled"


@SENTENCES.on("revolt")
def _say_revolt(said: Said) -> str | None:
    e = said.event
    P = PLACES
    return f"Revolt in {P[e['prov']]}: {_legions(e['uncontrolled'])} turn Uncontrolled"


@SENTENCES.on("revolt_brings")
def _say_revolt_brings(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} brings a Legion from {P[e['from']]} to {P[e['dest']]} (Revolt)"


@SENTENCES.on("expelled")
def _say_expelled(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"Germanic Tribes drive {w}'s {_legions(e['legions'])} from " \
        f"{P[e['from']]} to {P[e['dest']]}"


@SENTENCES.on("germanic_marker")
def _say_germanic_marker(said: Said) -> str | None:
    e = said.event
    P = PLACES
    return f"Germanic Tribes hold {P[e['prov']]}: 3 MP to enter, nobody controls it"


@SENTENCES.on("germanic_lifted")
def _say_germanic_lifted(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    P = PLACES
    return f"{w} drives the Germanic Tribes out of {P[e['prov']]}"


@SENTENCES.on("traitor")
def _say_traitor(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}'s Traitor steals a random card from {who(names, e['from'])}"


@SENTENCES.on("stolen")
def _say_stolen(said: Said) -> str | None:
    e, names = said.event, said.names
    what = card_name(e["card"]) if "card" in e else "A card"  # hidden deck: unseen
    return f"{what} goes from {who(names, e['from'])} to {who(names, e['to'][0])}"


@SENTENCES.on("discarded")
def _say_discarded(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w} discards a card face down"


@SENTENCES.on("scored")
def _say_scored(said: Said) -> str | None:
    e, names = said.event, said.names
    return f"Game Turn {e['game_turn']} scored: " + _tally(e["vp"], names)


@SENTENCES.on("round")
def _say_round(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}'s round (Game Turn {e['game_turn']})"


@SENTENCES.on("round_end")
def _say_round_end(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}'s round ends"


@SENTENCES.on("deal")
def _say_deal(said: Said) -> str | None:
    e = said.event
    return f"Game Turn {e['game_turn']}: {e['per_seat']} cards each"


@SENTENCES.on("first_drawn")
def _say_first_drawn(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w} is drawn to start the Game Turn (fewest VP, tied)"


@SENTENCES.on("declare")
def _say_declare(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return (f"{w} tries to be crowned in Rome: {e['board_dp']} DP from the board, "
            f"{e['senate']} Senate Influence, {e['guards']} Praetorian Guard")


@SENTENCES.on("declared")
def _say_declared(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w} declares in Rome with {e['dp']} DP: " + \
        ("crowned" if e["crowned"] else "fails")


@SENTENCES.on("assassinated")
def _say_assassinated(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w}, Emperor, is assassinated in Rome"


@SENTENCES.on("assassination_failed")
def _say_assassination_failed(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"The assassination of {w} fails"


@SENTENCES.on("draw_order")
def _say_draw_order(said: Said) -> str | None:
    e, names = said.event, said.names
    return "Bases are picked in this order: " + ", ".join(who(names, x) for x in e["order"])


@SENTENCES.on("setup_done")
def _say_setup_done(said: Said) -> str | None:
    return "Setup done: Game Turn 1 begins"


@SENTENCES.on("dealt")
def _say_dealt(said: Said) -> str | None:
    e, names = said.event, said.names
    return f"{who(names, e['to'][0])} is dealt " + "; ".join(card_name(c) for c in e["cards"])


@SENTENCES.on("game_over")
def _say_game_over(said: Said) -> str | None:
    e, names = said.event, said.names
    return "Game over after Game Turn 4: " + _tally(e["vp"], names)


@SENTENCES.on("automatic_victory")
def _say_automatic_victory(said: Said) -> str | None:
    e, names = said.event, said.names
    w = who(names, e.get("seat"))
    return f"{w} wins outright (automatic victory)"


def describe_event(v: State, seat: int | None, e: dict[str, Any], names: list[str]) -> str | None:
    return SENTENCES.say(v, seat, e, names)
