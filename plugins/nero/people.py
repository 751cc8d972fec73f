"""Nero in words and numbers for people and bots: action labels, the board as text
(event sentences are in :mod:`.sentences`), and the heuristic the ``greedy`` and
``mcts`` bots use.

Everything here reads only what a view has (clients pass their seat's view), except the
heuristic, which is given a full (sampled) state.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.table import Table

from lantable.plugins.text import own_cards

from . import board as B
from .data import AREA_NAMES, AREA_OF, CARDS, EVENTS, LEADER_ADJ, NAMES, ROME
from .sentences import card_name, moment
from .sentences import who as _who

State = dict[str, Any]


def _distances(target: int) -> list[int]:
    dist = [99] * len(NAMES)
    dist[target] = 0
    todo = deque([target])
    while todo:
        p = todo.popleft()
        for q in LEADER_ADJ[p]:
            if dist[q] == 99:
                dist[q] = dist[p] + 1
                todo.append(q)
    return dist


TO_ROME = _distances(ROME)
RANK_WORTH = {B.GENERAL: 0.0, B.CONTENDER: 1.5, B.EMPEROR: 4.0}


# --- heuristic ----------------------------------------------------------------------


def _value(S: State, seat: int, ctrl: Any, legions: list[int]) -> float:
    last = S["game_turn"] >= 4
    items = B.turn_vp(S, seat, last, ctrl)
    leader = S["leaders"][seat]
    v = S["vp"][seat] + 1.2 * sum(items.values())
    v += RANK_WORTH[leader["rank"]]
    v += 0.6 * legions[seat]
    v += 0.15 * len(S["hands"][seat])
    if leader["rank"] != B.EMPEROR and not B.emperors(S):
        v -= 0.3 * TO_ROME[leader["location"]]  # the road to the throne starts in Rome
    if leader["rank"] == B.CONTENDER:
        v -= 0.3 * TO_ROME[leader["location"]]
    return v


def heuristic(S: State, seat: int) -> float:
    if S["setup"]:
        return 0.0
    if S["over"]:
        r = B.ranks(S)
        return 10.0 if r[seat] == 1 else -10.0 * r[seat]
    ctrl = B.control(S)
    legions = [0] * (S["n_players"] + 1)
    for legion in S["legions"]:
        legions[legion["owner"]] += 1
    vals = [_value(S, s, ctrl, legions) for s in range(S["n_players"])]
    others = [v for s, v in enumerate(vals) if s != seat]
    return (vals[seat] - max(others)) / 10.0


# --- words --------------------------------------------------------------------------


def _lift_words(a: dict[str, Any]) -> str:
    return ", driving the Germanic Tribes out (5.10)" if a.get("lift") else ""


def describe_action(v: State, seat: int, a: dict[str, Any], names: list[str]) -> str:
    t = a.get("type")
    P = NAMES
    if t == "march":
        what = []
        if a.get("legions"):
            what.append(f"{a['legions']} Legion{'s' if a['legions'] > 1 else ''}")
        if a.get("leader"):
            what.append("your Leader")
        cards = ", ".join(card_name(c) for c in a["cards"])
        extra = ", removing the Retreat markers (2 MP)" if a.get("unmark") else ""
        extra += _lift_words(a)
        return f"move {' and '.join(what)} from {P[a['from']]} using {cards}{extra}"
    if t == "group":
        return f"move on from the source: {a['legions']} Legions" + \
            (" with your Leader" if a.get("leader") else "") + _lift_words(a)
    if t == "step":
        return f"step to {P[a['to']]}"
    if t == "pick":
        k = a.get("legions")
        n = "all" if k is None else str(k)
        if a["kind"] == "own":
            return f"pick up {n} of your free Legions here (+1 MP)"
        return f"recruit {n} of the Uncontrolled Legions here (+2 MP)"
    if t == "attack":
        if a["seat"] < 0:
            return "attack the Uncontrolled Legions here (A20: they play no cards)"
        return f"attack {_who(names, a['seat'])}'s Legions here"
    if t == "passage":
        return "ask passage (+1 MP if granted)"
    if t == "drop":
        what = [f"{a['legions']} Legion{'s' if a['legions'] > 1 else ''}"] \
            if a.get("legions") else []
        what += ["your Leader"] if a.get("leader") else []
        return f"leave {' and '.join(what)} here; the rest of the army goes on"
    if t == "halt":
        return "stop this army here"
    if t == "done":
        return "end this movement (unused MP are lost)"
    if t == "event":
        key = CARDS[a["card"]]["ev"]
        name = EVENTS[key][0]
        if "target" in a:
            return f"play {name} on {_who(names, a['target'])}"
        if key == "galley":
            who = f"{a['legions']} Legions" + (" and your Leader" if a["leader"] else "")
            return f"play Galley Fleet: {who} sail from {P[a['from']]} to {P[a['to']]}"
        if key == "germanic":
            return f"play Germanic Tribes Attack on {P[a['prov']]}"
        if key == "rebel":
            return f"play Rebel Legions on a Legion of {_who(names, a['seat'])} in {P[a['prov']]}"
        if key == "revolt":
            return f"play Revolt in the Provinces in {AREA_NAMES[a['area']]}"
        if key == "traitor":
            return f"play Traitor: steal a random card from {_who(names, a['seat'])}"
        return f"play {name}"
    if t == "declare":
        cards = ", ".join(card_name(c) for c in a["cards"]) or "no cards"
        return f"declare yourself Emperor in Rome with {cards}"
    if t == "discard":
        if "card" not in a:  # a hidden deck: a position (plugins/nero/hidden.py)
            return f"discard {_held(v, a['pos'])} face down"
        return f"discard {card_name(a['card'])}"
    if t == "end":
        return "end your round"
    if t == "commit" and "cards" not in a:  # a hidden deck: positions
        if not a["pos"]:
            return "fight with no battle cards"
        return f"commit {len(a['pos'])} battle card(s) secretly: " + \
            ", ".join(_held(v, p) for p in a["pos"])
    if t == "commit":
        if not a["cards"]:
            return "fight with no battle cards"
        bp = sum(CARDS[c]["bp"] for c in a["cards"])
        return f"commit {len(a['cards'])} battle card(s), +{bp} BP, secretly"
    if t == "stay":
        top = (v.get("pending") or [{}])[-1]
        return f"stay in {P[top['province']]}" if "province" in top else "stay where you are"
    if t == "retreat":
        return f"retreat to {P[a['to']]}"
    if t in ("grant", "refuse"):
        return f"{t} passage"
    if t == "pass":
        return f"let it happen: {moment(v, names)}"
    if t == "answer":
        use = {"strip": " to cancel a protecting Guard", "corrupt": " against a protecting "
               "Guard (2 needed)", "block": " to stop the assassination"}.get(a.get("use"), "")
        if use:
            return f"answer with {card_name(a['card'])}{use} against {moment(v, names)}"
        verb = {"bad_omens": "cancel", "bad_weather": "stop", "wounded": "stop the General "
                "of", "corruption": "void a Senate Influence in"}[CARDS[a["card"]]["ev"]]
        return f"play {card_name(a['card'])} to {verb} {moment(v, names)}"
    if t == "base":
        return f"take {AREA_NAMES[a['area']]} as your Base"
    if t == "place":
        return f"place a Legion in {P[a['prov']]}"
    if t == "general":
        return f"place your General in {P[a['prov']]}"
    if t == "go":
        return f"withdraw to {P[a['to']]}"
    if t == "bring":
        return f"bring a Legion from {P[a['from']]}"
    return str(t)


def _known(v: State) -> dict[str, int]:
    """The seat's own cards of a hidden deck, by position: from the state where the
    host deals (``hand_cards``), or put into the view by the seat's client (``_hand``)."""
    return own_cards(v, "hand_cards", "events")


def _held(v: State, pos: int) -> str:
    """A card of the seat's hidden hand, by name where its view knows it."""
    card = _known(v).get(str(pos))
    return card_name(card) if card is not None else f"the card at position {pos}"


def render(v: State, seat: int | None, names: list[str]) -> Table:
    """One row per province: Legions per player (L = his Leader, r = under a Retreat
    marker), the Uncontrolled, who controls it; each Area's first row names its
    controller. Under the table: ranks, VP, cards, Bases, and the seat's own hand."""
    n = v["n_players"]
    table = Table(title=f"Nero - Game Turn {v['game_turn']}/4", show_lines=False)
    table.add_column("Area")
    table.add_column("Province")
    for s in range(n):
        table.add_column(_who(names, s))
    table.add_column("Uncontrolled")
    table.add_column("Control")
    cnt = B.counts(v)
    provs, areas = B.control(v)
    marked = [[0] * n for _ in NAMES]
    for legion in v["legions"]:
        if legion["retreat_marker"] and legion["owner"] >= 0:
            marked[legion["province"]][legion["owner"]] += 1
    last_area = None
    for p, name in enumerate(NAMES[:-1]):
        a = AREA_OF[p]
        area = ""
        if a != last_area:
            area = AREA_NAMES[a] if a else "Italy"
            if a:
                area += f" ({_who(names, areas[a])})" if areas[a] is not None else ""
                area += " (empty)" if a == v["empty_area"] else ""
            last_area = a
        row = []
        for s in range(n):
            k = cnt[p][s]
            cell = f"{k}" if k else ""
            cell += f" ({marked[p][s]}r)" if marked[p][s] else ""
            cell += " L" if v["leaders"][s]["location"] == p else ""
            row.append(cell)
        flag = " [Germanic Tribes]" if p in v["germanic_tribes"] else ""
        owner = _who(names, provs[p]) if provs[p] is not None else ""
        table.add_row(area, name + flag, *row, str(cnt[p][n] or ""), owner)
    table.add_row("", "Roma", *[("L" if v["leaders"][s]["location"] == ROME else "")
                                for s in range(n)], "", "")
    lines = [f"{_who(names, s)}: {B.RANK_NAMES[leader['rank']]}, {v['vp'][s]} VP, "
             f"{v['hand_sizes'][s]} cards, Base {AREA_NAMES.get(v['bases'][s], '-')}"
             for s, leader in enumerate(v["leaders"])]
    pending = v.get("pending") or []
    top = pending[-1] if pending else {}
    if top.get("kind") in ("window", "assassination"):  # an answer window is open
        asked = _who(names, top["seats"][top["index"]]) if top["index"] < len(
            top["seats"]) else "nobody"
        lines.append(f"now: any-time cards may answer {moment(v, names)} ({asked} to answer)")
    if seat is not None and "hand" in v:
        known = _known(v)  # a hidden deck: the hand holds positions (tokens)
        hand = [c for c in v["hand"] if c < len(CARDS)]
        hand += [known[str(c - len(CARDS))] for c in v["hand"]
                 if c >= len(CARDS) and str(c - len(CARDS)) in known]
        unseen = len(v["hand"]) - len(hand)
        words = [card_name(c) for c in sorted(hand)]
        words += [f"{unseen} card{'' if unseen == 1 else 's'} not shown here"] if unseen else []
        lines.append("your hand: " + "; ".join(words))
    table.caption = "\n".join(lines)
    return table
