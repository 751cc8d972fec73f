"""Words for people: action labels, event sentences and the board as text.

Everything here reads a seat's VIEW (never the full state), as the terminal and the
browser clients only have that.
"""

from __future__ import annotations

from typing import Any

from lantable.plugins.text import Said, Sentences

from .data import (
    AREAS,
    CARD_TYPES,
    CARDS,
    COST,
    HOSTAGES,
    KCS,
    MERCHANTS,
    NOTO,
    PIRATES,
    PORTS,
    SHIPS,
    TRANSIT,
    WARSHIPS,
)
from .state import PirateDict

View = dict[str, Any]  # a seat's view: the GameState's public part (state.py)


def where(area: str | None, port: int | None = None) -> str:
    if port is not None:
        return PORTS[port]["name"]
    if area is None:
        return "nowhere"
    return AREAS[area]["name"] if area in AREAS else f"the {TRANSIT[area]['name']} box"


def pname(pid: int) -> str:
    return PIRATES[pid]["name"]


def short(pid: int) -> str:
    """A pirate's surname, for narrow tables ("Teach", "La Buse")."""
    name = PIRATES[pid]["name"]
    return "La Buse" if name.endswith("La Buse") else name.split()[-1]


def actions(n: Any) -> str:
    """"1 Action", "3 Actions"."""
    return f"{n} Action" if n == 1 else f"{n} Actions"


def card(c: int) -> str:
    return CARD_TYPES[CARDS[c]]["name"]


def hand_cards(v: View) -> list[int]:
    """The card ids of the seat's hand: ``v["hand"]``, or with hidden decks (its entries
    are positions) the cards its client or the dealing host put in the view."""
    if not v.get("hidden_deck"):
        return list(v["hand"])
    from .hidden import CARD_MASK, NONMPI, known_slots

    known = known_slots(v, {})  # both passes of the long game
    return sorted(NONMPI[known[c - CARD_MASK]] for c in v["hand"] if c - CARD_MASK in known)


def kc_label(kc: int) -> str:
    k = KCS[kc]
    return f"KC {kc + 1} (speed {k['speed']}, combat {k['combat']})"


def _who(names: list[str], seat: int | None) -> str:
    if seat is None:
        return "someone"
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _active(v: View) -> dict[str, Any] | None:
    for f in reversed(v["stack"]):
        if "pirate" in f:
            return v["pirates"][f["pirate"]]
    return None


def _vp(p: PirateDict) -> int:
    return p["notoriety"] + p["net_worth"] // 100


def describe_action(v: View, seat: int, a: dict[str, Any], names: list[str]) -> str:
    t = a.get("type")
    p = v["pirates"][a["pirate"]] if isinstance(a.get("pirate"), int) else None
    if t == "deploy":
        return f"put {pname(a['pirate'])} to sea in {where(a['area'])} (a fresh Sloop)"
    if t == "play_actions":
        n = CARD_TYPES[CARDS[a["card"]]]["action"]
        if n < 0:
            n = PIRATES[a["pirate"]]["initiative"]
            return f"play {card(a['card'])} for {actions(n)}, all for {pname(a['pirate'])}"
        return f"play {card(a['card'])} for {actions(n)}"
    if t == "play_ae":
        return _ae(a)
    if t == "play_event" and "pirate" not in a and "card" in a:
        target = _active(v)
        on = f" on {pname(target['id'])}" if target else ""
        n = a.get("copies", 1)
        copies = f" (x{n})" if n > 1 else ""
        return f"play {card(a['card'])}{copies}{on} (your AP action this turn)"
    if t == "play_event":
        return _pirate_event(v, a, names)
    if p is not None and t in ACTION_WORDS:
        return ACTION_WORDS[t](v, p, a)
    return _ap_or_answer(v, seat, a, names)


def _ae(a: dict[str, Any]) -> str:
    t = CARDS[a["card"]]
    n = CARD_TYPES[t]["action"]
    name = card(a["card"])
    if t == "commission_orders" and "kc" in a:
        return f"play {name}: {actions(n)}, and your {kc_label(a['kc'])} sails to {where(a['to'])}"
    if t == "rumour_of_treasure" and "area" in a:
        return f"play {name}: {actions(n)}, and a merchant appears in {where(a['area'])}"
    if t == "press_gang" and "pirate" in a:
        return f"play {name}: {actions(n)}, and {pname(a['pirate'])}'s Crew Loyalty +1"
    return f"play {name} for {actions(n)} (its event has no target)"


def _pirate_event(v: View, a: dict[str, Any], names: list[str]) -> str:
    t = CARDS[a["card"]]
    who = pname(a["pirate"])
    if t == "fair_winds":
        to = where(a["to"], a.get("port"))
        return f"Fair Winds: {who} sails to {to} for free"
    if t == "sail_ho":
        return f"Sail Ho!: +2 to {who}'s next Find"
    if t == "bold_captain":
        return f"Bold Captain: {who}'s Crew Loyalty +1"
    if t == "heavy_guns":
        return f"Heavy Guns on {who}'s ship: +1 in battles and port attacks, for good"
    if t == "letter_of_marque":
        p = v["pirates"][a["pirate"]]
        return (f"Letter of Marque: {who} retires now ({p['notoriety']} Notoriety + "
                f"{p['net_worth']:,} Net Worth = {_vp(p)} VP; booty in the holds is lost)")
    if t == "piratical_ambition":
        foe = v["pirates"][a["target"]]
        return (f"Piratical Ambition: {who} (duel {PIRATES[a['pirate']]['duel']}) challenges "
                f"{pname(foe['id'])} (duel {PIRATES[foe['id']]['duel']}) of "
                f"{_who(names, foe['owner'])} for his ship")
    return f"play {card(a['card'])}"


def _move(v: View, p: PirateDict, a: dict[str, Any]) -> str:
    cost = 2 if p["speed"] < 0 else 1
    if a.get("port") is not None:
        port = PORTS[a["port"]]
        kind = "Pirate Port" if port["nationality"] == "PIR" else port["nationality"]
        return f"{pname(p['id'])} enters {port['name']} ({kind}; {cost} Action)"
    if p["port"] is not None:
        return f"{pname(p['id'])} leaves {where(None, p['port'])} ({cost} Action)"
    return f"{pname(p['id'])} sails to {where(a['to'])} ({cost} Action)"


def _find(v: View, p: PirateDict, a: dict[str, Any]) -> str:
    bonus = PIRATES[p["id"]]["ability"] + p["sail_ho"] + min(1, p["information"])
    need = max(1, COST["find_target"] - bonus)
    return f"{pname(p['id'])} hunts a merchant in {where(p['area'])} (needs {need}+ on 1d6)"


def _loot(v: View, p: PirateDict, a: dict[str, Any]) -> str:
    m = next((m for m in v["merchants"] if m["slot"] == a["slot"]), None)
    what = ""
    if m is not None and m["id"] is not None:
        mer = MERCHANTS[m["id"]]
        what = f" ({mer['nationality']}, size {mer['size']}, cargo {mer['cargo']})"
    take = "" if a.get("take", True) else ", declining the cargo"
    return f"{pname(p['id'])} loots the merchant{what}{take}"


def _attack(v: View, p: PirateDict, a: dict[str, Any]) -> str:
    port = PORTS[a["port"]]
    mine = PIRATES[p["id"]]["ability"] + p["combat"] + (1 if p["heavy_guns"] else 0)
    return (f"{pname(p['id'])} attacks {port['name']} (2d6+{mine} vs 2d6+{port['defense']}; "
            f"wins {NOTO['port_attack'] * port['value']} Notoriety and "
            f"{port['value'] * COST['attack_booty_per_value']:,} booty, loses 1 combat)")


def _sack(v: View, p: PirateDict, a: dict[str, Any]) -> str:
    port = PORTS[p["port"]]
    need = max(1, COST["sack_target"] - PIRATES[p["id"]]["cruelty"])
    return (f"{pname(p['id'])} sacks {port['name']} (needs {need}+ on 1d6; "
            f"{port['value'] * COST['sack_booty_per_value']:,} booty)")


def _port(v: View, p: PirateDict, a: dict[str, Any]) -> str:
    t, who, port = a["type"], pname(p["id"]), p["port"]
    if t == "convert_booty":
        full = PORTS[port]["nationality"] == "PIR" or v["governors"][port] == "pro"
        total = sum(p["holds"])
        got = total if full else total * COST["convert_rate_elsewhere"] // 100
        why = "" if full else " (half: no Pirate Port or friendly governor)"
        return f"{who} banks {total:,} booty as {got:,} Net Worth{why}"
    if t == "ransom":
        value = sum(HOSTAGES[h]["value"] for h in p["hostages"]) * COST["ransom_per_value"]
        return f"{who} ransoms {len(p['hostages'])} hostage(s) for {value:,} Net Worth"
    if t == "refit":
        return f"{who} refits the ship"
    if t == "recover":
        return f"{who}'s crew recovers from scurvy"
    if t == "buy_haven":
        return f"{who} buys a Safe Haven here for {COST['safe_haven']:,} Net Worth"
    if t == "retire_haven":
        return f"{who} retires to his Safe Haven ({_vp(p)} VP; booty in the holds is lost)"
    if t == "bribe":
        return (f"{who} bribes the governor to retire ({COST['bribe']} Net Worth, "
                f"needs 2d6 <= {COST['bribe_target']})")
    return f"{who}: {t}"


def _dr(v: View, p: PirateDict, a: dict[str, Any]) -> str:
    if p["port"] is None:
        gain = v["options"]["dr_other_bonus"]
    else:
        gain = 3 if PORTS[p["port"]]["nationality"] == "PIR" else 1
    return (f"{pname(p['id'])}'s crew drinks and carouses (Loyalty +{gain}; "
            f"no more actions this turn and next)")


ACTION_WORDS = {"move": _move, "find": _find, "loot": _loot, "attack_port": _attack,
                "sack": _sack, "declare_dr": _dr,
                **{t: _port for t in ("convert_booty", "ransom", "refit", "recover",
                                      "buy_haven", "retire_haven", "bribe")}}


def _ap_or_answer(v: View, seat: int, a: dict[str, Any], names: list[str]) -> str:
    t = a["type"]
    p = _active(v)
    him = pname(p["id"]) if p else "the pirate"
    if t == "place_warship":
        if a["attack"]:
            return f"place a warship by {him} and attack (you score his damage, 1 VP at least)"
        return f"place a warship by {him} without attacking"
    if t == "warship_attack":
        s = next((s for s in v["warships"] if s["slot"] == a["ws"]), None)
        stats = f" (speed {WARSHIPS[s['id']]['speed']}, combat {WARSHIPS[s['id']]['combat']})" \
            if s else ""
        return f"attack {him} with the warship{stats} (you score his damage)"
    if t == "commission_kc":
        noto = p["notoriety"] if p else 0
        return f"commission a KC in {where(a['area'])} (needs 2d6 <= {noto}, his Notoriety)"
    if t == "kc_move":
        return f"move your {kc_label(a['kc'])} to {where(a['to'])}"
    if t == "kc_attack_port":
        return (f"your {kc_label(a['kc'])} attacks the Pirate Port to drive {him} out "
                f"(2d6 + combat >= {COST['kc_oust_target']})")
    if t == "kc_oust":
        return f"your {kc_label(a['kc'])} tries to oust {him} from port"
    if t == "appoint_governor":
        return (f"appoint an Anti-Pirate Governor in {PORTS[a['port']]['name']} "
                f"(no pirate may enter it or bribe there)")
    if t == "react":
        k = next((k for k in v["commissioners"] if k["id"] == a["kc"]), None)
        frm = f" from {where(k['area'])}" if k else ""
        return f"your {kc_label(a['kc'])}{frm} reacts: intercept {him}"
    if t == "pass":
        return f"let {him} be (no AP action)"
    if t == "fight":
        return "stand and fight"
    if t == "escape":
        return f"try to escape (1d6 + his speed {p['speed'] if p else '?'})"
    if t == "keep":
        f = v["stack"][-1]
        return f"keep the {f.get('why', '').replace('_', ' ')} roll {f.get('dice', '')}"
    if t == "reroll":
        left = p["cunning"] if p else 0
        return f"re-roll it with Cunning ({left} left for the whole game)"
    if t == "ransom":
        h = HOSTAGES[v["stack"][-1]["hostage"]]
        return f"keep the hostage for ransom (worth {h['value'] * COST['ransom_per_value']:,})"
    if t == "torture":
        h = HOSTAGES[v["stack"][-1]["hostage"]]
        return (f"torture the hostage for information (+{h['value']} Notoriety, "
                f"Loyalty +1; the hostage dies)")
    if t == "convert":
        size = v["stack"][-1]["size"]
        ship = SHIPS[size - 1]
        if a["yes"]:
            return (f"take the merchant as your ship: a {ship['name']} (speed {ship['speed']}, "
                    f"combat {ship['combat']}, {ship['holds']} holds)")
        return "keep your ship"
    if t == "retire":
        q = v["pirates"][a["pirate"]]
        return f"take the King's pardon: {pname(q['id'])} retires ({_vp(q)} VP)"
    if t == "done":
        return "no pardon"
    if t == "captain":
        if a["pirate"] is None:
            return "no new captain: the ship is lost"
        return f"put {pname(a['pirate'])} in command of the ship"
    if t == "discard":
        return f"discard {card(a['card'])}"
    if t == "end_actions":
        return f"give up the {actions(v['this_turn']['actions_left'])} left"
    if t == "end_turn":
        left = v["this_turn"]["actions_left"]
        return "end your turn" + (f" (forfeiting {actions(left)})" if left else "")
    return str(t)


# -- events -------------------------------------------------------------------------


SENTENCES = Sentences()  # event type -> its sentence (lantable.plugins.text)


@SENTENCES.on("turn")
def _say_turn(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who}'s turn {e.get('turn')}"


@SENTENCES.on("end_turn")
def _say_end_turn(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who} ends the turn"


@SENTENCES.on("deployed")
def _say_deployed(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{who} puts {pn} to sea in {where(e.get('area'))}"


@SENTENCES.on("card_for_actions")
def _say_card_for_actions(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who} plays {_cname(e.get('card'))} for {actions(e.get('actions'))}"


@SENTENCES.on("pirate_event")
def _say_pirate_event(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{who} plays {_cname(e.get('card'))} for {pn}"


@SENTENCES.on("ap_event")
def _say_ap_event(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{who} plays {_cname(e.get('card'))} against {pn}"


@SENTENCES.on("mpi")
def _say_mpi(said: Said) -> str | None:
    e = said.event
    return f"{_cname(e.get('card'))} comes up and takes effect at once"


@SENTENCES.on("moved")
def _say_moved(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} sails to {where(e.get('dest'), e.get('port'))}"


@SENTENCES.on("merchant_revealed")
def _say_merchant_revealed(said: Said) -> str | None:
    return "the merchant found is" + _merchant(said.event.get("merchant"))


@SENTENCES.on("found_merchant")
def _say_found_merchant(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} finds a merchant" + _merchant(e.get("merchant"))


@SENTENCES.on("find_failed")
def _say_find_failed(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} finds nothing"


@SENTENCES.on("cargo")
def _say_cargo(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} takes cargo worth {e.get('doubloons', 0):,}"


@SENTENCES.on("booty")
def _say_booty(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} stows {e.get('amount', 0):,} in the hold"


@SENTENCES.on("holds_full")
def _say_holds_full(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s holds are full: {e.get('lost', 0):,} left behind"


@SENTENCES.on("hostage")
def _say_hostage(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} takes a hostage"


@SENTENCES.on("ransom")
def _say_ransom(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} keeps the hostage for ransom"


@SENTENCES.on("torture")
def _say_torture(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return (f"{pn} tortures the hostage" + (" and learns something" if e.get("success")
            else ""))


@SENTENCES.on("converted")
def _say_converted(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} takes the merchant as a {SHIPS[e.get('ship', 0)]['name']}"


@SENTENCES.on("port_attack")
def _say_port_attack(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return (f"{pn} attacks {_port(e.get('port'))}: "
            + ("taken!" if e.get("success") else "beaten off"))


@SENTENCES.on("sack")
def _say_sack(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} sacks {_port(e.get('port'))}" + ("" if e.get("success") else ": it fails")


@SENTENCES.on("sack_lost")
def _say_sack_lost(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s crew is too drunk to sack {_port(e.get('port'))}"


@SENTENCES.on("dr")
def _say_dr(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s crew drinks and carouses" + (" (forced)" if e.get("forced") else "")


@SENTENCES.on("dr_over")
def _say_dr_over(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s crew sobers up"


@SENTENCES.on("net_worth")
def _say_net_worth(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return (f"{pn}: Net Worth {e.get('delta', 0):+,} ({e.get('why', '')}), now "
            f"{e.get('now', 0):,}")


@SENTENCES.on("notoriety")
def _say_notoriety(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}: Notoriety +{e.get('gain')} ({e.get('why', '')}), now {e.get('now')}"


@SENTENCES.on("loyalty")
def _say_loyalty(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return (f"{pn}: Crew Loyalty {e.get('delta', 0):+d} ({e.get('why', '')}), now "
            f"{e.get('now')}")


@SENTENCES.on("vp")
def _say_vp(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who} scores {e.get('vp')} VP ({e.get('why', '')})"


@SENTENCES.on("warship_placed")
def _say_warship_placed(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who} places a warship in {where(e.get('area'))}"


@SENTENCES.on("warship_attacks")
def _say_warship_attacks(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{who}'s warship attacks {pn}"


@SENTENCES.on("kc_commissioned")
def _say_kc_commissioned(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who} commissions a King's Commissioner in {where(e.get('area'))}"


@SENTENCES.on("kc_refused")
def _say_kc_refused(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who} fails to get a King's Commissioner"


@SENTENCES.on("kc_moved")
def _say_kc_moved(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who}'s KC sails to {where(e.get('dest'))}"


@SENTENCES.on("kc_reaction")
def _say_kc_reaction(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{who}'s KC reacts to {pn}"


@SENTENCES.on("flee")
def _say_flee(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} tries to escape"


@SENTENCES.on("stand")
def _say_stand(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} stands and fights"


@SENTENCES.on("escaped")
def _say_escaped(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} escapes ({e.get('pirate_total')} against {e.get('total')})"


@SENTENCES.on("found")
def _say_found(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} is caught ({e.get('pirate_total')} against {e.get('total')})"


@SENTENCES.on("battle")
def _say_battle(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return (f"battle: {pn} {e.get('pirate_total')} against {e.get('total')}, "
            + ("the pirate wins" if e.get("winner") == "pirate" else "the pirate loses"))


@SENTENCES.on("damage")
def _say_damage(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s ship takes {e.get('hits')} damage (combat now {e.get('combat')})"


@SENTENCES.on("dead")
def _say_dead(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} is gone ({e.get('why')})"


@SENTENCES.on("retired")
def _say_retired(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} retires ({e.get('why', '').replace('_', ' ')})"


@SENTENCES.on("mutiny")
def _say_mutiny(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"mutiny aboard {pn}'s ship!"


@SENTENCES.on("mutiny_failed")
def _say_mutiny_failed(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"a mutiny aboard {pn}'s ship fails"


@SENTENCES.on("new_captain")
def _say_new_captain(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return (f"{pn} takes command of {pname(e['replaces'])}'s ship"
            if isinstance(e.get("replaces"), int) else None)


@SENTENCES.on("storm")
def _say_storm(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"a storm hits {pn}"


@SENTENCES.on("scurvy")
def _say_scurvy(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"scurvy breaks out aboard {pn}'s ship"


@SENTENCES.on("ousted")
def _say_ousted(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn} is driven out of {_port(e.get('port'))}"


@SENTENCES.on("general_pardon")
def _say_general_pardon(said: Said) -> str | None:
    e = said.event
    return f"General Pardon number {e.get('count')}"


@SENTENCES.on("game_over")
def _say_game_over(said: Said) -> str | None:
    e = said.event
    return f"the game is over ({str(e.get('why', '')).replace('_', ' ')})"


@SENTENCES.on("action_cancelled")
def _say_action_cancelled(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s {str(e.get('action', '')).replace('_', ' ')} is cancelled"


@SENTENCES.on("move_stands")
def _say_move_stands(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s move stands"


@SENTENCES.on("speed_damage")
def _say_speed_damage(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s ship loses {e.get('hits')} speed (now {e.get('speed')})"


@SENTENCES.on("warship_returns")
def _say_warship_returns(said: Said) -> str | None:
    return "the beaten warship goes back to the pool"


@SENTENCES.on("kc_removed")
def _say_kc_removed(said: Said) -> str | None:
    return "the beaten King's Commissioner leaves play"


@SENTENCES.on("action")
def _say_action(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return (f"{who}: {pn} {DOES.get(e.get('action'), e.get('action'))} "
            f"({actions(e.get('left'))} left)")


@SENTENCES.on("actions_forfeited")
def _say_actions_forfeited(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who} gives up {actions(e.get('n'))}"


@SENTENCES.on("merchant_placed")
def _say_merchant_placed(said: Said) -> str | None:
    e = said.event
    return f"a merchant appears in {where(e.get('area'))}"


@SENTENCES.on("merchant_removed")
def _say_merchant_removed(said: Said) -> str | None:
    e = said.event
    return f"a merchant leaves {where(e.get('area'))}"


@SENTENCES.on("governor")
def _say_governor(said: Said) -> str | None:
    e = said.event
    return (f"{'an anti' if e.get('kind') == 'anti' else 'a pro'}-pirate governor "
            f"sits in {_port(e.get('port'))}")


@SENTENCES.on("order")
def _say_order(said: Said) -> str | None:
    e, names = said.event, said.names
    return "turn order: " + ", ".join(_who(names, s) for s in e.get("order", []))


@SENTENCES.on("pirate_dealt")
def _say_pirate_dealt(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{who} gets the Pirate card {pn}"


@SENTENCES.on("must_fight")
def _say_must_fight(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s drunken crew cannot run: they must fight"


@SENTENCES.on("battle_tie")
def _say_battle_tie(said: Said) -> str | None:
    return "a tied battle: both sides roll again"


@SENTENCES.on("refit")
def _say_refit(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s ship is refitted (speed {e.get('speed')}, combat {e.get('combat')})"


@SENTENCES.on("recovered")
def _say_recovered(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s crew is cured of scurvy"


@SENTENCES.on("bribe")
def _say_bribe(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s bribe " + ("works" if e.get("success") else "is pocketed for nothing")


@SENTENCES.on("oust_attempt")
def _say_oust_attempt(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return (f"a KC tries to oust {pn}: "
            + ("out he goes" if e.get("success") else "he stays"))


@SENTENCES.on("kc_attacks_port")
def _say_kc_attacks_port(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return (f"{who}'s KC attacks {_port(e.get('port'))}: "
            + ("the pirates are driven out" if e.get("success") else "repulsed"))


@SENTENCES.on("duel")
def _say_duel(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return (f"duel: {pn} {e.get('total')} against "
            f"{pname(e['target']) if isinstance(e.get('target'), int) else ''} "
            f"{e.get('target_total')}")


@SENTENCES.on("event_no_target")
def _say_event_no_target(said: Said) -> str | None:
    e = said.event
    return f"{_cname(e.get('card'))}: its event has no target"


@SENTENCES.on("action_fizzles")
def _say_action_fizzles(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"{pn}'s {str(e.get('action', '')).replace('_', ' ')} comes to nothing"


@SENTENCES.on("discarded")
def _say_discarded(said: Said) -> str | None:
    e, names = said.event, said.names
    who = _who(names, e.get("seat"))
    return f"{who} discards {_cname(e.get('card'))}"


@SENTENCES.on("dealt")
def _say_dealt(said: Said) -> str | None:
    e = said.event
    return f"you are dealt {', '.join(card(c) for c in e.get('cards', []))}"


@SENTENCES.on("scurvy_upkeep")
def _say_scurvy_upkeep(said: Said) -> str | None:
    e = said.event
    pn = pname(e["pirate"]) if isinstance(e.get("pirate"), int) else ""
    return f"scurvy aboard {pn}'s ship"


@SENTENCES.on("roll")
def _say_roll(said: Said) -> str | None:
    e = said.event
    dice = e.get("dice")
    again = " (Cunning re-roll)" if e.get("reroll") else ""
    return f"roll for {str(e.get('why', '')).replace('_', ' ')}: {dice}{again}"


@SENTENCES.on("drew")
def _say_drew(said: Said) -> str | None:
    seat, e = said.seat, said.event
    return f"you draw {card(e['card'])}" if seat == e.get("seat") else None


@SENTENCES.on("drew_hidden")
def _say_drew_hidden(said: Said) -> str | None:
    seat, e, names = said.seat, said.event, said.names
    who = _who(names, e.get("seat"))
    return None if seat == e.get("seat") else f"{who} draws a card"


def describe_event(v: View, seat: int | None, e: dict[str, Any],
                   names: list[str]) -> str | None:
    return SENTENCES.say(v, seat, e, names)


# A pirate action as it is announced, before its rolls ("Teach attacks a port").
DOES = {"move": "sets sail", "find": "hunts a merchant", "loot": "boards a merchant",
        "attack_port": "attacks a port", "sack": "sacks the port",
        "convert_booty": "banks his booty", "ransom": "ransoms his hostages",
        "refit": "refits his ship", "recover": "treats the scurvy",
        "buy_haven": "buys a Safe Haven", "retire_haven": "retires to his Safe Haven",
        "bribe": "bribes the governor"}


def _cname(t: Any) -> str:
    return CARD_TYPES[t]["name"] if t in CARD_TYPES else str(t)


def _port(port: Any) -> str:
    return PORTS[port]["name"] if isinstance(port, int) else "the port"


def _merchant(mid: Any) -> str:
    if not isinstance(mid, int):
        return ""
    m = MERCHANTS[mid]
    return f" ({m['nationality']}, size {m['size']}, cargo {m['cargo']})"


# -- the board --------------------------------------------------------------------------

# What a pirate is doing when an AP window opens (the window's trigger).
DOING = {"move": "sails to {where}", "leave_port": "leaves port for {where}",
         "find": "hunts a merchant in {where}", "loot": "loots a merchant in {where}",
         "convert": "takes a merchant as his ship in {where}",
         "attack_port": "attacks {where}", "sack": "sacks {where}",
         "port": "does business in {where}"}


def situation(v: View, seat: int | None, names: list[str]) -> str | None:
    """One line: whose turn it is and what is being decided now, so a choice such as
    "let Kidd be" reads in its context."""
    if not v["stack"] or v["over"]:
        return None
    top = v["stack"][-1]
    k = top["kind"]
    phasing = v["turn_order"][v["turn_index"]]
    turn = "Your turn" if phasing == seat else f"{_who(names, phasing)}'s turn"
    if k == "setup":
        return "Setting up: each player puts his first pirate to sea."
    if v["this_turn"] and v["this_turn"]["actions_left"]:
        turn += f", {actions(v['this_turn']['actions_left'])} left"
    p = v["pirates"][top["pirate"]] if isinstance(top.get("pirate"), int) else None
    if p is None:
        him = "the pirate"
    elif p["owner"] == seat:
        him = f"your {pname(p['id'])}"
    else:
        him = f"{pname(p['id'])} ({_who(names, p['owner'])})"
    here = where(p["area"], p["port"]) if p else ""
    act = next((f for f in reversed(v["stack"]) if f["kind"] == "action"), None)
    if k == "ap_window" and top.get("trigger") == "attack_port" and act and "port" in act:
        here = PORTS[act["port"]]["name"]
    doing = {
        "ap_window": f"{him} {DOING.get(top.get('trigger'), 'acts').format(where=here)}: "
        "each other player may answer with one AP action",
        "fight_or_escape": f"{him} is attacked: fight, or try to escape",
        "cunning": f"Cunning: keep the {str(top.get('why', '')).replace('_', ' ')} roll "
        f"{top.get('dice')} for {him} or roll it again",
        "hostage": f"{him} has taken a hostage: ransom or torture?",
        "convert": f"{him} may take the merchant as his ship",
        "pardon": "The second General Pardon: pirates in English ports may retire",
        "new_captain": f"Mutiny: {him} is marooned; who takes command?",
        "discard": "End of the turn: discard down to 4 cards",
    }.get(k)
    return f"{turn}. {doing[0].upper()}{doing[1:]}." if doing else f"{turn}."


def render(v: View, seat: int | None, names: list[str]) -> Any:
    from rich.console import Group
    from rich.table import Table

    sea = Table(title="The sea", show_lines=False)
    for col in ("where", "pirates", "merchants", "warships", "KCs"):
        sea.add_column(col)
    for area in [*AREAS, *TRANSIT]:
        here = [p for p in v["pirates"] if p["status"] == "map" and p["area"] == area]
        mer = [m for m in v["merchants"] if m["area"] == area]
        ws = [s for s in v["warships"] if s["area"] == area]
        kcs = [k for k in v["commissioners"] if k["area"] == area]
        if not (here or mer or ws or kcs) and area not in AREAS:
            continue
        pirates = ", ".join(
            f"{short(p['id'])} ({_who(names, p['owner'])})"
            + (f" in {PORTS[p['port']]['name']}" if p["port"] is not None else "")
            for p in here)
        merch = ", ".join("?" if not m["face_up"] else f"cargo {MERCHANTS[m['id']]['cargo']}"
                          for m in mer)
        sea.add_row(where(area), pirates, merch,
                    ", ".join(f"{WARSHIPS[s['id']]['speed']}/{WARSHIPS[s['id']]['combat']}"
                              for s in ws),
                    ", ".join(f"{KCS[k['id']]['speed']}/{KCS[k['id']]['combat']} "
                              f"({_who(names, k['owner'])})" for k in kcs))
    crews = Table(title="Pirate Displays", padding=(0, 1))
    for col in ("pirate", "player", "ship", "loyalty", "notoriety", "booty", "worth", "notes"):
        crews.add_column(col, no_wrap=col in ("pirate", "ship"))
    for p in v["pirates"]:
        shown = p["status"] in ("map", "adrift", "retired", "dead") or (
            p["status"] == "reserve" and p["owner"] == seat)
        if p["owner"] is None or not shown:
            continue
        notes = [n for n, on in (("D&R", p["dr_turn"] is not None), ("scurvy", p["scurvy"]),
                                 ("heavy guns", bool(p["heavy_guns"])),
                                 (f"{len(p['hostages'])} hostage(s)", bool(p["hostages"])),
                                 ("safe haven", p["safe_haven"] is not None),
                                 (f"cunning {p['cunning']}", p["cunning"] > 0)) if on]
        if p["status"] != "map":
            notes.insert(0, p["status"])
        ship = (f"{SHIPS[p['ship']]['name']} {p['speed']}/{p['combat']}" if p["status"] == "map"
                else "")
        crews.add_row(
            short(p["id"]),
            _who(names, p["owner"]),
            ship,
            str(p["loyalty"]),
            str(p["notoriety"]),
            f"{sum(p['holds']):,}",
            f"{p['net_worth']:,}",
            ", ".join(notes),
        )
    held = [
        sum(p["owner"] == s and p["status"] == "reserve" for p in v["pirates"])
        for s in range(v["n_players"])
    ]
    reserves = [f"{_who(names, s)} {held[s]}" for s in range(v["n_players"]) if s != seat]
    lines = ["Ship: speed/combat. Pirate cards in reserve: " + ", ".join(reserves),
             f"Deck {v['deck_size']} cards; General Pardons played {v['general_pardons']}"
             + (f" (pass {v['deck_pass']})" if v["options"]["game_length"] == "long" else "")
             + "; AP VP " + ", ".join(f"{_who(names, s)} {x}" for s, x in enumerate(v["ap_vp"]))]
    now = situation(v, seat, names)
    if now:
        lines.append(now)
    if seat is not None and "hand" in v:
        lines.append("Your hand: " + (", ".join(card(c) for c in hand_cards(v)) or "empty"))
    from rich.text import Text
    return Group(sea, crews, *(Text(line) for line in lines))
