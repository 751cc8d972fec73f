"""Nero in words and numbers for people and bots: action labels, event sentences, the
board as text, and the heuristic the ``greedy`` and ``mcts`` bots use.

Everything here reads only what a view has (clients pass their seat's view), except the
heuristic, which is given a full (sampled) state.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.table import Table

from . import board as B
from .data import AREA_NAMES, AREA_OF, CARDS, EVENTS, LEADER_ADJ, NAMES, ROME

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


# --- heuristic ----------------------------------------------------------------------


def _value(S: State, seat: int, ctrl: Any, legions: list[int]) -> float:
    last = S["gt"] >= 4
    items = B.turn_vp(S, seat, last, ctrl)
    ld = S["ldr"][seat]
    v = S["vp"][seat] + 1.2 * sum(items.values())
    v += (0, 1.5, 4.0)[ld[1]]
    v += 0.6 * legions[seat]
    v += 0.15 * len(S["hands"][seat])
    if ld[1] != B.EMPEROR and not B.emperors(S):
        v -= 0.3 * TO_ROME[ld[0]]  # the road to the throne starts with the road to Rome
    if ld[1] == B.CONTENDER:
        v -= 0.3 * TO_ROME[ld[0]]
    return v


def heuristic(S: State, seat: int) -> float:
    if S["setup"]:
        return 0.0
    if S["over"]:
        r = B.ranks(S)
        return 10.0 if r[seat] == 1 else -10.0 * r[seat]
    ctrl = B.control(S)
    legions = [0] * (S["n"] + 1)
    for lg in S["L"]:
        legions[lg[0]] += 1
    vals = [_value(S, s, ctrl, legions) for s in range(S["n"])]
    others = [v for s, v in enumerate(vals) if s != seat]
    return (vals[seat] - max(others)) / 10.0


# --- words --------------------------------------------------------------------------


def card_name(c: int) -> str:
    card = CARDS[c]
    return f"{EVENTS[card['ev']][0]} ({card['mp']} MP, {card['bp']} BP)"


def _who(names: list[str], s: int | None) -> str:
    if s is None:
        return "?"
    if s < 0:
        return "the Uncontrolled"
    return names[s] if s < len(names) else f"seat {s}"


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
        return f"move {' and '.join(what)} from {P[a['from']]} using {cards}{extra}"
    if t == "group":
        return f"move on from the source: {a['legions']} Legions" + \
            (" with your Leader" if a.get("leader") else "")
    if t == "step":
        return f"step to {P[a['to']]}"
    if t == "pick":
        return "pick up your Legions here (+1 MP)" if a["kind"] == "own" else \
            "recruit the Uncontrolled Legions here (+2 MP)"
    if t == "attack":
        return f"attack {_who(names, a['seat'])}'s Legions here"
    if t == "passage":
        return "ask passage (+1 MP if granted)"
    if t == "drop":
        return "leave your Leader here" if a.get("leader") else "leave your Legions here"
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
        return f"discard {card_name(a['card'])}"
    if t == "end":
        return "end your round"
    if t == "commit":
        if not a["cards"]:
            return "fight with no battle cards"
        bp = sum(CARDS[c]["bp"] for c in a["cards"])
        return f"commit {len(a['cards'])} battle card(s), +{bp} BP, secretly"
    if t == "stay":
        return "stay"
    if t == "retreat":
        return f"retreat to {P[a['to']]}"
    if t in ("grant", "refuse"):
        return f"{t} passage"
    if t == "pass":
        return f"let it happen: {_moment(v, names)}"
    if t == "answer":
        use = {"strip": " to cancel a protecting Guard", "corrupt": " against a protecting "
               "Guard (2 needed)", "block": " to stop the assassination"}.get(a.get("use"), "")
        return f"answer with {card_name(a['card'])}{use} against {_moment(v, names)}"
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


def _moment(v: State, names: list[str]) -> str:
    """What an answer window is about, from the public stack in the view."""
    pend = v.get("pend") or []
    top = pend[-1] if pend else {}
    act = _who(names, v.get("act"))
    if top.get("k") == "assas":
        return f"{act}'s assassination attempt"
    kind = top.get("kind")
    if kind in ("move", "attack"):
        return f"{act}'s army " + ("attacking" if kind == "attack" else "on the move")
    if kind == "retreat":
        below = pend[-2] if len(pend) > 1 else {}
        return f"{_who(names, below.get('seat'))}'s retreat"
    if kind == "declare":
        return f"{act}'s declaration in Rome (Corruption cancels a Senate Influence)"
    below = pend[-2] if len(pend) > 1 else {}
    what = below.get("ev") or below.get("what", "")
    name = EVENTS[what][0] if what in EVENTS else what.replace("_", " ")
    cancelled = " (now cancelled by Bad Omens)" if below.get("omens", 0) % 2 else ""
    return f"{_who(names, below.get('seat'))}'s {name}{cancelled}"


def describe_event(v: State, seat: int | None, e: dict[str, Any], names: list[str]) -> str | None:
    t = e.get("type")
    w = _who(names, e.get("seat"))
    P = NAMES
    if t == "march":
        return f"{w} moves from {P[e['from']]} with {e['mp']} MP"
    if t == "step":
        return f"{w} enters {P[e['dest']]} ({e['mp']} MP)"
    if t == "corrupted":
        return f"{w}'s Corruption voids a Senate Influence of the declaration"
    if t == "base":
        return f"{w} takes {AREA_NAMES[e['area']]} as Base"
    if t == "placed":
        return f"{w} places a Legion in {P[e['prov']]}"
    if t == "general":
        return f"{w} places the General in {P[e['prov']]}"
    if t == "battle":
        return (f"Battle in {P[e['prov']]}: {_who(names, e['att'])} {e['att_bp']} BP against "
                f"{_who(names, e['def'])} {e['def_bp']} BP")
    if t == "battle_won":
        return f"{w} wins the battle in {P[e['prov']]} and takes a Legion"
    if t == "crowned":
        return f"{w} is Emperor ({e['how']})!"
    if t == "event":
        return f"{w} plays {EVENTS[e['ev']][0]}"
    if t == "answer":
        return f"{w} answers with {EVENTS[e['ev']][0]}"
    if t == "cancelled":
        return f"{EVENTS[e['ev']][0] if e['ev'] in EVENTS else e['ev']} is cancelled"
    if t == "retreated":
        return f"{w} retreats {e['legions']} Legions from {P[e['from']]} to {P[e['dest']]}"
    if t == "scored":
        return f"Game Turn {e['game_turn']} scored: VP now {e['vp']}"
    if t == "round":
        return f"{w}'s round (Game Turn {e['game_turn']})"
    if t == "declared":
        return f"{w} declares in Rome with {e['dp']} DP: " + \
            ("crowned" if e["crowned"] else "fails")
    if t == "assassinated":
        return f"{w}, Emperor, is assassinated in Rome"
    if t == "automatic_victory":
        return f"{w} wins outright (automatic victory)"
    return None


def render(v: State, seat: int | None, names: list[str]) -> Table:
    """One row per province: Legions per player (L = his Leader, r = under a Retreat
    marker), the Uncontrolled, who controls it; each Area's first row names its
    controller. Under the table: ranks, VP, cards, Bases, and the seat's own hand."""
    n = v["n"]
    table = Table(title=f"Nero - Game Turn {v['gt']}/4", show_lines=False)
    table.add_column("Area")
    table.add_column("Province")
    for s in range(n):
        table.add_column(_who(names, s))
    table.add_column("Uncontrolled")
    table.add_column("Control")
    cnt = B.counts(v)
    provs, areas = B.control(v)
    marked = [[0] * n for _ in NAMES]
    for owner, prov, _m, r in v["L"]:
        if r and owner >= 0:
            marked[prov][owner] += 1
    last_area = None
    for p, name in enumerate(NAMES[:-1]):
        a = AREA_OF[p]
        area = ""
        if a != last_area:
            area = AREA_NAMES[a] if a else "Italy"
            if a:
                area += f" ({_who(names, areas[a])})" if areas[a] is not None else ""
                area += " (empty)" if a == v["empty"] else ""
            last_area = a
        row = []
        for s in range(n):
            k = cnt[p][s]
            cell = f"{k}" if k else ""
            cell += f" ({marked[p][s]}r)" if marked[p][s] else ""
            cell += " L" if v["ldr"][s][0] == p else ""
            row.append(cell)
        flag = " [Germanic Tribes]" if p in v["germ"] else ""
        owner = _who(names, provs[p]) if provs[p] is not None else ""
        table.add_row(area, name + flag, *row, str(cnt[p][n] or ""), owner)
    table.add_row("", "Roma", *[("L" if v["ldr"][s][0] == ROME else "") for s in range(n)],
                  "", "")
    lines = [f"{_who(names, s)}: {B.RANKS[ld[1]]}, {v['vp'][s]} VP, {v['hand_sizes'][s]} "
             f"cards, Base {AREA_NAMES.get(v['base'][s], '-')}"
             for s, ld in enumerate(v["ldr"])]
    if seat is not None and "hand" in v:
        lines.append("your hand: " + "; ".join(card_name(c) for c in v["hand"]))
    table.caption = "\n".join(lines)
    return table
