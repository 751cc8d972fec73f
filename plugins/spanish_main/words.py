"""Words for people: action labels, event sentences and the text board.

Everything here reads a seat's view (clients have nothing else). Distances are shown
in millimetres and headings in degrees with a compass point.
"""

from __future__ import annotations

from typing import Any

from lantable.plugins.text import Said, Sentences

from . import data
from . import geometry as g

View = dict[str, Any]

_POINTS = ["E", "NE", "N", "NW", "W", "SW", "S", "SE"]


def heading(h: int) -> str:
    return f"{h / 10:g}° {_POINTS[round(h / 450) % 8]}"


def mm(units: float) -> str:
    return f"{units / 100:.1f} mm"


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _ship(view: View, sid: Any, names: list[str]) -> str:
    """A ship by name, owner and id; a crew id names the Marine (a target, 5.15)."""
    for s in view.get("ships", []):
        if s["id"] == sid:
            return f"{s['name']} ({_name(names, s['owner'])}, {sid})"
    for c in view.get("crew", []):
        if c["id"] == sid:
            return _marine(view, c, names)
    return str(sid)


def _marine(view: View, c: dict[str, Any], names: list[str]) -> str:
    who = "Sergeant Crane" if c.get("card") == "D-C04" else "the Marine"
    where = (f"on {c['island']}" if c["island"] else
             f"aboard {_ship(view, c['ship'], names)}" if c["ship"] else "gone")
    return f"{who} ({_name(names, c['owner'])}, {c['id']}, {where})"


def _cannon(view: View, sid: str, cannon: Any) -> str:
    s = next((x for x in view["ships"] if x["id"] == sid), None)
    if s is None:
        return str(cannon)
    if s.get("monster"):
        return f"segment {cannon + 1} ({data.ship(s['card'])['cannons'][cannon]})"
    if cannon == "musket":
        return "the Musketeer's 3S"
    code = data.ship(s["card"])["cannons"][cannon]
    return f"mast {cannon + 1} ({code})"


def _treasure(view: View, tid: str) -> str:
    t = next((x for x in view["treasure"] if x["id"] == tid), None)
    if t is None or t["gold"] is None:
        return f"{tid} (?)"
    if t["unique"]:
        return f"{tid} ({t['unique']})"
    return f"{tid} ({t['gold']} gold)"


def _item(view: View, item: str) -> str:
    """A treasure (with its value when the view shows it) or a crew (its kind when
    the view shows it)."""
    if item.startswith("t"):
        return "treasure " + _treasure(view, item)
    c = next((x for x in view["crew"] if x["id"] == item), None)
    kind = c["kind"] if c is not None and c["kind"] else "face-down"
    return f"crew {item} ({kind})"


def describe_action(view: View, seat: int, action: dict[str, Any], names: list[str]) -> str | None:
    kind = action.get("type")
    sid = action.get("ship")
    who = _ship(view, sid, names) if sid else ""
    if kind == "move":
        if "params" in action:
            spec = action["params"]["segments"]
            legs = "+".join(mm(x) for x in spec.get("lengths", []))
            return f"{who}: sail (type a heading and a distance for each measure: {legs})"
        legs = ", then ".join(f"{mm(x['distance'])} at {heading(x['heading'])}"
                              for x in action.get("segments", []))
        return f"{who}: sail {legs} (stops at the first thing it touches)"
    if kind in ("pivot", "galley_pivot", "rotate"):
        how = {"pivot": "pivot in place (its move)", "galley_pivot": "pivot on the stern (free)",
               "rotate": "turn on the stern (Schooner, free)"}[kind]
        if "params" in action:
            return f"{who}: {how}, type the new heading"
        return f"{who}: {how} to {heading(action['heading'])}"
    if kind == "fire":
        gun = _cannon(view, sid, action["cannon"])
        rank = 3 if action["cannon"] == "musket" else int(gun.split("(")[1][0])
        return (f"{who}: fire {gun} at {_target(view, action['target'], names)} "
                f"(hits on {max(2, rank + 1)}+)")
    if kind == "marine_fire":
        return (f"{_ship(view, action['crew'], names)}: fire at "
                f"{_ship(view, action['target'], names)} (S range, hits on 3+)")
    if kind == "broadside":
        target = _ship(view, action["target"], names)
        return f"{who}: broadside at {target} (one roll, all or nothing)"
    if kind == "explore":
        return f"{who}: explore the island it is docked at"
    if kind == "explore_ship":
        return (f"{who}: explore {_ship(view, action['target'], names)} (look at her "
                "treasure, move treasure and crew between the two ships)")
    if kind == "transfer":
        return f"move {_item(view, action['item'])} to {_ship(view, action['onto'], names)}"
    if kind == "repair":
        return f"{who}: repair {_cannon(view, sid, action['mast'])}"
    if kind == "free":
        return f"{who}: try to break out of the weed (a d6 plus her masts above 6)"
    if kind == "scuttle":
        return f"{who}: try to scuttle (5-6 sinks her at the start of your next turn)"
    if kind == "release":
        return f"{who}: cast off the tow"
    if kind == "ghost":
        return f"{who}: {'enter' if action['on'] else 'leave'} ghost form for this turn"
    if kind == "unload_crew":
        return f"unload crew {action['crew']} onto the island"
    if kind == "load_crew":
        return f"load crew {action['crew']} aboard {_ship(view, action['ship'], names)}"
    if kind == "end_turn":
        return "end your turn"
    if kind == "choose_home":
        for_seat = (view.get("home_queue") or [{"for_seat": seat}])[0]["for_seat"]
        whose = "your" if for_seat == seat else f"{_name(names, for_seat)}'s"
        return f"make {action['island']} {whose} home island"
    if kind == "lose_mast":
        return f"{who}: lose {_cannon(view, sid, action['mast'])}"
    if kind == "take":
        items = ", ".join(_treasure(view, t) for t in action["treasure"]) or "nothing"
        return f"take {items}"
    if kind == "board":
        return "board them (d6 + your masts against d6 + theirs)"
    if kind == "refire":
        return "fire that cannon again with the Cannoneer (once a turn)"
    if kind == "decline":
        return "decline"
    if kind == "plunder":
        return "take one of their treasures (blind)" if action["what"] == "treasure" \
            else "eliminate one of their crew"
    if kind == "ram":
        return f"ram {_ship(view, action['target'], names)}"
    if kind == "tow":
        return f"take {_ship(view, action['target'], names)} in tow (she joins your fleet)"
    if kind == "explore_free":
        return "explore this island now (free)"
    if kind == "done":
        return "done with this ship"
    return _optional_action(view, action, names)


SENTENCES = Sentences()  # event type -> its sentence (lantable.plugins.text)


@SENTENCES.on("moved")
def _say_moved(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    hit = f", stopped by {event['contact']}" if event.get("contact") else ""
    return f"{ship} sails to ({mm(event['at'][0])}, {mm(event['at'][1])}){hit}"


@SENTENCES.on("shot")
def _say_shot(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return (f"{ship} fires at {_target(view, event['target'], names)}: rolls "
            f"{event['roll']}, {'hit' if event['hit'] else 'miss'}")


@SENTENCES.on("marine_shot")
def _say_marine_shot(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    return (f"{_ship(view, event['crew'], names)} fires at "
            f"{_ship(view, event['target'], names)}: rolls {event['roll']}, "
            f"{'hit' if event['hit'] else 'miss'}")


@SENTENCES.on("marine_hit")
def _say_marine_hit(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    return (f"{_ship(view, event['crew'], names)} is hit: one hit does nothing, a "
            "second this turn eliminates the Marine")


@SENTENCES.on("marine_eliminated")
def _say_marine_eliminated(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    return f"{_ship(view, event['crew'], names)} is hit a second time and eliminated"


@SENTENCES.on("refire")
def _say_refire(said: Said) -> str | None:
    event = said.event
    return f"the Cannoneer fires again: {event['roll']}, {'hit' if event['hit'] else 'miss'}"


@SENTENCES.on("broadside")
def _say_broadside(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return (f"{ship} looses a broadside: rolls {event['roll']} against {event['rank']}, "
            f"{event['hits']} hits")


@SENTENCES.on("mast_lost")
def _say_mast_lost(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    part = "segment" if _is_monster(view, event["ship"]) else "mast"
    return f"{ship} loses a {part} ({event['left']} left)"


@SENTENCES.on("derelict")
def _say_derelict(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} is derelict"


@SENTENCES.on("sunk")
def _say_sunk(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    split = event.get("split")
    gold = f"; gold split {split}" if split else ""
    return f"{ship} sinks{gold}"


@SENTENCES.on("docked")
def _say_docked(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} docks at {event['island']}"


@SENTENCES.on("ransom")
def _say_ransom(said: Said) -> str | None:
    event, names = said.event, said.names
    total = f": {event['home_gold']} at home" if "home_gold" in event else ""
    return f"a Ransom crew is worth 1 gold to {_name(names, event['seat'])}{total}"


@SENTENCES.on("lost")
def _say_lost(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} sails into fog bank {event['fog']} and is lost"


@SENTENCES.on("fog_exit")
def _say_fog_exit(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} comes out of fog bank {event['fog']} at point {event['roll']}"


@SENTENCES.on("still_lost")
def _say_still_lost(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} finds no way out of fog bank {event['fog']} (rolled {event['roll']})"


@SENTENCES.on("danger")
def _say_danger(said: Said) -> str | None:
    event = said.event
    return (f"{TERRAIN_NAMES[event['kind']]} {event['terrain']}: danger "
            f"{event['roll']} this turn")


@SENTENCES.on("trapped")
def _say_trapped(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return (f"{ship} is trapped in the Sargasso Sea {event['sea']} (danger "
            f"{event['danger']} beats {event['masts']} masts)")


@SENTENCES.on("reef")
def _say_reef(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} scrapes reef {event['reef']}: {event['loss']} masts lost"


@SENTENCES.on("wrecked")
def _say_wrecked(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} founders on the reef: the wreck stays there with its cargo"


@SENTENCES.on("freed")
def _say_freed(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} breaks free of the weed (rolled {event['roll']})"


@SENTENCES.on("still_trapped")
def _say_still_trapped(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} stays stuck in the weed (rolled {event['roll']})"


@SENTENCES.on("sunk_gold")
def _say_sunk_gold(said: Said) -> str | None:
    event = said.event
    split = event.get("split")
    shared = f": split {split}" if split else ": lost"
    return f"the treasure of the sunk ship is turned over, {event['gold']} gold{shared}"


@SENTENCES.on("destroyed_gold")
def _say_destroyed_gold(said: Said) -> str | None:
    event = said.event
    return f"the treasure the monster destroyed, {event['treasure']}, is turned over: " \
        f"{event['gold']} gold lost"


@SENTENCES.on("unloaded")
def _say_unloaded(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    who = _name(names, event["seat"])
    return f"{ship} unloads {event['gold']} gold: {who} has {event['home_gold']} at home"


@SENTENCES.on("ram")
def _say_ram(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    result = "a mast falls" if event["hit"] else "no damage"
    return (f"{ship} rams {_ship(view, event['target'], names)}: rolls {event['roll']} "
            f"against {event['masts']} masts, {result}")


@SENTENCES.on("boarding")
def _say_boarding(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    won = _ship(view, event["winner"], names) if event["winner"] else "nobody"
    return f"boarding! totals {event['totals'][0]} to {event['totals'][1]}: {won} wins"


@SENTENCES.on("saw")
def _say_saw(said: Said) -> str | None:
    event = said.event
    if not event["treasure"]:
        return "there is no treasure aboard"
    return "you see " + ", ".join(f"{t}: {v} gold" for t, v in event["treasure"].items())


@SENTENCES.on("crew_unloaded")
def _say_crew_unloaded(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} lands crew {event['crew']} on {event['island']}"


@SENTENCES.on("crew_loaded")
def _say_crew_loaded(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} takes crew {event['crew']} aboard"


@SENTENCES.on("explored_ship")
def _say_explored_ship(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} comes alongside {_ship(view, event['target'], names)} to explore her"


@SENTENCES.on("transferred")
def _say_transferred(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    return (f"{_item(view, event['item'])} moves from {_ship(view, event['from'], names)} "
            f"to {_ship(view, event['onto'], names)}")


@SENTENCES.on("ransom_captured")
def _say_ransom_captured(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return (f"the Ransom crew taken aboard {ship} is worth {event['gold']} gold: "
            f"treasure {event['treasure']}, face up")


@SENTENCES.on("took")
def _say_took(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return f"{ship} loads {len(event['treasure'])} treasure from {event['island']}"


@SENTENCES.on("false_claim")
def _say_false_claim(said: Said) -> str | None:
    event = said.event
    return (f"{_name(said.names, event['seat'])} claimed treasure {event['treasure']} was not "
            "unique, but it is: that player forfeits")


@SENTENCES.on("unloaded_hidden")
def _say_unloaded_hidden(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return (f"{ship} unloads treasure {event['treasure']} face down on "
            f"{_name(names, event['seat'])}'s home island")


@SENTENCES.on("end_token")
def _say_end_token(said: Said) -> str | None:
    view, event, names = said.view, said.event, said.names
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    return (f"the last treasure is aboard {ship}: she takes the end token (the game "
            "ends when she unloads at home or sinks)")


@SENTENCES.on("home_revealed")
def _say_home_revealed(said: Said) -> str | None:
    event, names = said.event, said.names
    return (f"{_name(names, event['seat'])} pays for a fort from the gold at home: "
            "it is all turned face up")


@SENTENCES.on("revealed")
def _say_revealed(said: Said) -> str | None:
    event, names = said.event, said.names
    gold = ", ".join(f"{_name(names, p)} {v}" for p, v in enumerate(event["gold"]))
    return f"all treasure is turned face up: gold at home {gold}"


@SENTENCES.on("game_over")
def _say_game_over(said: Said) -> str | None:
    event, names = said.event, said.names
    won = " and ".join(_name(names, p) for p in event["winners"])
    why = END_WORDS.get(event["why"], event["why"])
    verb = "wins" if len(event["winners"]) == 1 else "share the win"
    return f"game over ({why}): {won} {verb} with {max(event['gold'])} gold"


@SENTENCES.on("turn")
def _say_turn(said: Said) -> str | None:
    event, names = said.event, said.names
    return f"round {event['round']}: {_name(names, event['seat'])}'s turn"


@SENTENCES.on("home_chosen")
def _say_home_chosen(said: Said) -> str | None:
    event, names = said.event, said.names
    who, whose = _name(names, event["seat"]), _name(names, event["for"])
    return (f"{who} makes {event['island']} their home island; their fleet is placed "
            f"beside it" if event["seat"] == event["for"] else
            f"{who} makes {event['island']} the home island of {whose}")


@SENTENCES.on("treasure_dealt")
def _say_treasure_dealt(said: Said) -> str | None:
    event = said.event
    return (f"{event['pieces']} treasure pieces are placed face down on the "
            f"{len(event['islands'])} wild islands")


def _with_values(view: View) -> View:
    """With a hidden deck: the view with the values this seat was shown filled in (its
    client put them in ``_hand``; where the host deals, ``treasure_cards``)."""
    if not view.get("hidden_deck"):
        return view
    from .hidden import _known, seat_view

    return seat_view(view, _known(view, {}))


def describe_event(view: View, seat: int | None, event: dict[str, Any],
                   names: list[str]) -> str | None:
    view = _with_values(view)
    if event.get("type") in SENTENCES.types:
        return SENTENCES.say(view, seat, event, names)
    return _optional_event(view, event, names)


END_WORDS = {
    "threshold": "more than half of the starting gold at home",
    "exhaustion": "no gold left to bring home",
    "annihilation": "no ships afloat",
    "round_cap": "the last round is over",
    "end_token_home": "the end-token ship unloaded at home",
    "end_token_sunk": "the end-token ship sank",
    "one_fleet_left": "only one fleet still has a ship with masts",
    "half_sunk": "half of the players have lost all their ships",
    "false_claim": "a player hid a unique treasure (a false claim)",
}


def _letter(sid: str) -> str:
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[int(sid[1:]) % 26]


TERRAIN_MARKS = {"fog": "~", "reef": ":", "sargasso": "%"}
TERRAIN_NAMES = {"fog": "fog bank", "reef": "reef", "sargasso": "Sargasso Sea"}


def render(view: View, seat: int | None, names: list[str]) -> str:
    """A character map of the table (wild islands ``#``, a home island its owner's
    seat number, each island's id across its middle, each ship a letter at its bow
    tip: s0 = A) and a ship list."""
    view = _with_values(view)
    w, h = view["table"]
    cols, rows = 72, 30
    grid = [[" "] * cols for _ in range(rows)]
    pieces = [(t["poly"], TERRAIN_MARKS[t["kind"]]) for t in view.get("terrain", [])]
    pieces += [(i["poly"], "#" if i["home"] is None else str(i["home"])) for i in view["islands"]]
    pieces += [(f["poly"], "F") for f in view.get("forts", [])
               if f["island"] and not f["destroyed"]]
    for raw, mark in pieces:
        poly = [(x, y) for x, y in raw]
        for r in range(rows):
            for c in range(cols):
                p = ((c + 0.5) * w / cols, (rows - r - 0.5) * h / rows)
                if g.inside(p, poly):
                    grid[r][c] = mark
    for i in view["islands"]:  # each island's id written across its middle
        cx, cy = g.centroid([(x, y) for x, y in i["poly"]])
        r = min(rows - 1, max(0, rows - 1 - int(cy * rows / h)))
        c0 = min(cols - len(i["id"]), max(0, int(cx * cols / w) - len(i["id"]) // 2))
        grid[r][c0:c0 + len(i["id"])] = list(i["id"])
    for s in view["ships"]:
        if (s["sunk"] and not s["wreck"]) or s["lost_in"] or s.get("submerged") \
                or not s["placed"]:
            continue
        c = min(cols - 1, int(s["pose"][0] * cols / w))
        r = min(rows - 1, rows - 1 - int(s["pose"][1] * rows / h))
        grid[r][c] = _letter(s["id"])
    lines = ["+" + "-" * cols + "+"] + ["|" + "".join(row) + "|" for row in grid]
    lines.append("+" + "-" * cols + "+")
    hidden = view.get("home_hidden") or [0] * len(view["home_gold"])
    gold = ", ".join(f"{_name(names, p)} {v}" + (f" + {k} face down" if k and p != seat else "")
                     for p, (v, k) in enumerate(zip(view["home_gold"], hidden, strict=True)))
    goal = (f"{view['gold_to_win']} wins" if view["gold_to_win"] is not None
            else "most gold at the end wins")
    lines.append(f"round {view['round']} of {view['max_rounds']}; gold at home: {gold}; "
                 f"{goal}" + ("; gold in forts counts too" if "forts" in view else ""))
    if view.get("end_token"):
        lines.append(f"end token: {_ship(view, view['end_token'], names)}")
    for t in view.get("terrain", []):
        danger = f", danger {t['danger']} this turn" if t["danger"] else ""
        lines.append(f"{TERRAIN_MARKS[t['kind']]} {t['id']} {TERRAIN_NAMES[t['kind']]}{danger}")
    lines += [_fort_line(view, f, names) for f in view.get("forts", [])]
    for s in view["ships"]:
        if s["sunk"] and not s["wreck"]:
            continue
        up = sum(s["masts_up"])
        flags = [f for f, on in (("sea monster", s.get("monster")),
                                 ("submerged", s.get("submerged")),
                                 ("WRECK", s["wreck"]),
                                 (f"lost in fog {s['lost_in']}", s["lost_in"]),
                                 (f"trapped in {s['trapped_in']}", s["trapped_in"]),
                                 ("derelict", s["derelict"] and not s["wreck"]),
                                 ("pinned", s["pinned"]),
                                 ("ghost", s["ghost"]), (f"docked {s['docked']}", s["docked"]),
                                 (f"towing {s['towing']}", s["towing"]),
                                 (f"acted: {s['acted']}", s["acted"])) if on]
        if s["placed"]:
            where = f"at ({mm(s['pose'][0])}, {mm(s['pose'][1])}) {heading(s['pose'][2])}"
        else:  # 3.5: a fleet is placed beside its home island once that is chosen
            flags, where = [], "not on the table yet (placed with its home island)"
        hold = ", ".join(_treasure(view, t) for t in s["hold"])
        extra = ("  hold: " + hold if hold else "") + ("  " + ", ".join(flags) if flags else "")
        owner = _name(names, s["owner"])
        lines.append(f"{_letter(s['id'])} {s['id']:>3} {s['name']:<14} {owner:<10} "
                     f"{'segments' if s.get('monster') else 'masts'} {up}/{s['masts']}  "
                     f"{where}{extra}")
    for c in view["crew"]:  # crew landed on islands (a Marine fires from there, 5.15)
        if c["island"] and not c["gone"]:
            kind = c["kind"] or "face-down crew"
            lines.append(f"  {c['id']} {kind} of {_name(names, c['owner'])} on {c['island']}")
    return "\n".join(lines)


# -- forts and sea monsters (options, :mod:`.forts`, :mod:`.monsters`) --------------------


def _fort(view: View, fid: Any, names: list[str]) -> str:
    f = next((x for x in view.get("forts", []) if x["id"] == fid), None)
    if f is None:
        return str(fid)
    name = data.fort(f["card"])["name"]
    where = f" on {f['island']}" if f["island"] else ""
    return f"{name} ({_name(names, f['owner'])}, {fid}{where})"


def _target(view: View, tid: Any, names: list[str]) -> str:
    return _fort(view, tid, names) if str(tid).startswith("f") else _ship(view, tid, names)


def _flag(view: View, fid: str, flag: int) -> str:
    f = next((x for x in view.get("forts", []) if x["id"] == fid), None)
    code = data.fort(f["card"])["cannons"][flag] if f else "?"
    return f"flag {flag + 1} ({code})"


def _fort_line(view: View, f: dict[str, Any], names: list[str]) -> str:
    head = f"F {_fort(view, f['id'], names)}"
    if f["destroyed"]:
        return f"{head}: destroyed"
    if f["island"] is None:
        cost = data.fort(f["card"])["cost"]
        return f"{head}: not built yet (costs {cost} gold; dock at a wild island)"
    known = [t for t in view["treasure"] if t["where"] == f["id"]]
    gold = sum(t["gold"] for t in known if t["gold"] is not None)
    hidden = sum(1 for t in known if t["gold"] is None)
    more = f" and {hidden} unknown" if hidden else ""
    state = "ABANDONED" if not any(f["flags"]) else f"flags {sum(f['flags'])}/{len(f['flags'])}"
    return f"{head}: {state}, holds {gold} gold{more}"


def _optional_action(view: View, action: dict[str, Any], names: list[str]) -> str | None:
    kind = action.get("type")
    if kind == "build_fort":
        cost = data.fort(next(f for f in view.get("forts", [])
                              if f["id"] == action["fort"])["card"])["cost"]
        return (f"build your fort on {action['island']} ({cost} gold from home go in; "
                "its treasure becomes yours) and end your turn")
    if kind == "fort_fire":
        flag = _flag(view, action["fort"], action["flag"])
        return (f"{_fort(view, action['fort'], names)}: fire {flag} "
                f"at {_target(view, action['target'], names)}")
    if kind == "load_fort":
        return f"{_ship(view, action['ship'], names)}: load treasure from your fort"
    if kind == "load_fort_free":
        return "load treasure from your fort now (free)"
    if kind == "lose_flag":
        flag = _flag(view, action["fort"], action["flag"])
        return f"{_fort(view, action['fort'], names)}: lose {flag}"
    if kind == "submerge":
        what = "dive (moves only, cannot be seen or shot)" if action["on"] else "surface"
        return f"{_ship(view, action['ship'], names)}: {what} for this turn"
    return None


def _optional_event(view: View, event: dict[str, Any], names: list[str]) -> str | None:
    kind = event.get("type")
    ship = _ship(view, event.get("ship"), names) if event.get("ship") else ""
    if kind == "fort_built":
        return (f"{_name(names, event['seat'])} builds a fort on {event['island']}: "
                f"{event['paid']} gold and {event['pieces']} treasure inside")
    if kind == "fort_shot":
        return (f"{_fort(view, event['fort'], names)} fires at "
                f"{_target(view, event['target'], names)}: rolls {event['roll']}, "
                f"{'hit' if event['hit'] else 'miss'}")
    if kind == "flag_lost":
        return f"{_fort(view, event['fort'], names)} loses a flag ({event['left']} left)"
    if kind == "fort_abandoned":
        return f"{_fort(view, event['fort'], names)} is abandoned"
    if kind == "fort_destroyed":
        return (f"{_fort(view, event['fort'], names)} is destroyed: {event['pieces']} "
                f"treasure lies face down on {event['island']} again")
    if kind == "loaded_from_fort":
        return f"{ship} loads {len(event['treasure'])} treasure from the fort"
    if kind == "fort_opened":
        return f"{ship} opens the fort's strongroom"
    if kind in ("submerged", "surfaced"):
        return f"{ship} {'dives' if kind == 'submerged' else 'surfaces'}"
    if kind == "monster_eliminated":
        return f"{ship} is slain"
    if kind == "treasure_destroyed":
        gold = "" if event["gold"] is None else f" ({event['gold']} gold)"  # hidden: later
        return f"{ship} drags {event['treasure']}{gold} to the bottom"
    return None


def _is_monster(view: View, sid: Any) -> bool:
    return any(s["id"] == sid and s.get("monster") for s in view.get("ships", []))
