"""Manila in words for people: choice labels with costs, payouts and odds, one sentence
per event, and the board as a rich renderable.

Everything here reads a seat's *view* (what a client has), never the full state, so
the terminal and browser clients can call these hooks. The odds are the game's own
dice arithmetic: the chance that a boat still at sea reaches Manila with the rolls
left, boats taken as independent (pilots and pirates can change it).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from lantable.plugins import hookimpl
from lantable.plugins.text import Said, Sentences, seat_name

from . import board as B

View = dict[str, Any]
SEA, DOCK, YARD = 0, 1, 2
ROLLS = 3  # dice rolls per voyage (4.4)
_PHASES = {
    "auction": "auction for harbour master", "buy": "harbour master buys a share",
    "launch": "harbour master loads the boats", "place": "placing accomplices",
    "board": "pirates may board", "pilot_small": "the small pilot moves",
    "pilot_large": "the large pilot moves", "plunder": "the pirate captain sends a boat",
    "step": "dice", "over": "game over",
}


_name = seat_name  # a seat's name, or "seat N"


def _good(view: View, boat: int) -> str:
    return B.GOODS[view["goods"][boat]]


def _boat_of(view: View, good: str) -> int | None:
    goods = view.get("goods") or []
    g = B.GOODS.index(good) if good in B.GOODS else -1
    return goods.index(g) if g in goods else None


# ---------------------------------------------------------------------------
# odds (4.4): the chance a boat reaches Manila with the rolls left
# ---------------------------------------------------------------------------


@cache
def _p_sum_at_least(dice: int, target: int) -> float:
    """P(sum of ``dice`` d6 >= target)."""
    if target <= 0:
        return 1.0
    if dice == 0:
        return 0.0
    return sum(_p_sum_at_least(dice - 1, target - face) for face in range(1, 7)) / 6


def arrival_chance(view: View, boat: int) -> float:
    """The chance ``boat`` docks this voyage: 1 if docked, 0 if in the shipyard,
    else the chance the dice left carry it past space 13."""
    where = view["where"][boat]
    if where == DOCK:
        return 1.0
    if where == YARD or view.get("plundered", [False] * 3)[boat]:
        return 0.0
    return _p_sum_at_least(ROLLS - view.get("rolls", 0), B.LAST_SPACE + 1 - view["pos"][boat])


def _at_least(chances: list[float], k: int) -> float:
    """P(at least k of the independent events with these chances happen)."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for i, q in enumerate(dist):
            nxt[i] += q * (1 - p)
            nxt[i + 1] += q * p
        dist = nxt
    return sum(dist[k:])


def _pct(p: float) -> str:
    return f"{round(100 * p)}%"


def _space_odds(view: View, kind: str, slot: int) -> float | None:
    """Chance a dock (``kind`` dock) or shipyard space pays, if boats are loaded."""
    if len(view.get("goods") or []) != 3:
        return None
    arrive = [arrival_chance(view, b) for b in range(3)]
    if kind == "dock":
        return _at_least(arrive, slot + 1)
    return _at_least([1 - p for p in arrive], slot + 1)


# ---------------------------------------------------------------------------
# choices
# ---------------------------------------------------------------------------


def _boat_seat_label(view: View, action: dict[str, Any]) -> str:
    good = action["good"]
    b = _boat_of(view, good)
    crew = view["crew"][b] if b is not None else []
    costs = B.SEAT_COSTS[good]
    cost = 0 if action.get("stowaway") else costs[min(len(crew), len(costs) - 1)]
    what = "stow away on" if action.get("stowaway") else f"seat {len(crew) + 1} on"
    price = "free" if cost == 0 else f"costs {cost}"
    n = len(crew) + 1
    split = f"{B.PROFIT[good] // n} ({B.PROFIT[good]} split {n} ways so far)" if crew \
        else f"{B.PROFIT[good]}"
    if b is not None and view["where"][b] == DOCK:
        return f"{what} the {good} boat — {price}, pays {split}: it is in Manila"
    odds = f", {_pct(arrival_chance(view, b))} to dock" if b is not None else ""
    return f"{what} the {good} boat — {price}, pays {split} if it docks{odds}"


def _place_label(view: View, action: dict[str, Any]) -> str:
    space: str = action["space"]
    if space == "boat":
        return _boat_seat_label(view, action)
    if space in ("dock", "shipyard"):
        i = "ABC".index(action["slot"])
        cost, pay = (B.DOCK_COST[i], B.DOCK_PAY[i]) if space == "dock" else \
            (B.YARD_COST[i], B.YARD_PAY[i])
        count = "a boat" if i == 0 else f"{i + 1} boats"
        when = (f"if {count} dock{'s' * (i == 0)}" if space == "dock"
                else f"if {count} miss{'es' * (i == 0)} Manila")
        odds = _space_odds(view, space, i)
        chance = f" ({_pct(odds)})" if odds is not None else ""
        return f"{space} {action['slot']} — costs {cost}, pays {pay} {when}{chance}"
    if space == "pirate":
        captain = (view.get("pirates") or [None])[0] is None
        which = "the pirate captain" if captain else "the second pirate"
        return (f"become {which} — costs {B.PIRATE_COST[0 if captain else 1]}; may board a "
                f"boat on 13 after roll 2 and plunders boats on 13 after roll 3")
    if space == "pilot_small":
        return f"small pilot — costs {B.PILOT_COST['small']}; moves one boat 1 space before roll 3"
    if space == "pilot_large":
        return (f"large pilot — costs {B.PILOT_COST['large']}; moves boats 2 spaces in all "
                f"before roll 3")
    if space == "insurance":
        return (f"insurance — free, you get {B.INSURANCE_BONUS} now; you pay the shipyard "
                f"for boats that miss Manila")
    return space.replace("_", " ")


def _money(view: View, good: str) -> str:
    return f"{good} (price {view.get('prices', {}).get(good, '?')})"


@hookimpl
def game_describe_action(state: View, seat: int, action: dict[str, Any],
                         names: list[str]) -> str:
    """Choice labels from a seat's view (a full state works too: it has every key used)."""
    view, kind = state, action["type"]
    if kind == "bid":
        return f"bid {action['amount']} to be harbour master"
    if kind == "pass":
        return "pass (out of this auction)"
    if kind == "buy":
        good = action["good"]
        price = view["prices"][good] if "prices" in view else \
            B.PRICE_TRACK[view["step"][B.GOODS.index(good)]]
        return f"buy a {good} share — costs {max(B.MIN_SHARE_PRICE, price)}, worth {price} now"
    if kind == "no_buy":
        return "buy no share"
    if kind == "launch":
        out = [g for g in B.GOODS if g not in action["goods"]][0]
        loads = ", ".join(f"{g} at {p}" for g, p in zip(action["goods"], action["starts"],
                                                         strict=True))
        return f"load {loads} ({out} stays home)"
    if kind == "place":
        return _place_label(view, action)
    if kind == "decline":
        return "place no more accomplices this voyage"
    if kind == "board":
        extra = ""
        if "displace" in action:
            crew = view["crew"][_boat_of(view, action["good"])]
            extra = f", displacing {_name(names, crew[action['displace']])}"
        profit = B.PROFIT[action["good"]]
        return f"board the {action['good']} boat{extra} — free, shares its {profit}"
    if kind == "stay":
        return "stay on the pirate ship (plunder boats on 13 after roll 3)"
    if kind == "pilot":
        if not action["moves"]:
            return "move no boat"
        parts = []
        for good, d in action["moves"]:
            b = _boat_of(view, good)
            to = f" (to {view['pos'][b] + d})" if b is not None else ""
            parts.append(f"{good} {d:+d}{to}")
        return "move " + " and ".join(parts)
    if kind == "send":
        where = "Manila (its crew is not paid; the dock counts it)" if action["to"] == "manila" \
            else "the shipyard"
        return f"send the plundered {action['good']} boat to {where}"
    if kind == "mortgage":
        return (f"mortgage a {_money(view, action['good'])} share — +{B.MORTGAGE_VALUE} now, "
                f"{B.REDEEM_COST} to redeem")
    if kind == "redeem":
        return f"redeem a mortgaged {action['good']} share — costs {B.REDEEM_COST}"
    return str(action)


# ---------------------------------------------------------------------------
# events
# ---------------------------------------------------------------------------


def _space_words(space: str) -> str:
    """A placed event's space ("nutmeg seat 2", "dock A", "pilot small") in words."""
    boat = re.fullmatch(r"(\w+) seat (\d+)", space)
    if boat and boat.group(1) in B.GOODS:
        return f"seat {boat.group(2)} on the {boat.group(1)} boat"
    return {"pirate captain": "the pirate captain's place",
            "second pirate": "the second pirate's place", "pilot small": "the small pilot",
            "pilot large": "the large pilot", "insurance": "the insurance"}.get(space, space)


def _payment_words(why: str) -> str:
    """What a payment bought, after "ann pays 4 ..."."""
    if why == "harbour master":
        return "to be harbour master"
    if why == "share":
        return "for a share"
    if why == "redeem":
        return "to redeem a share"
    if why == "insurance":
        return "as the insurance agent, for a boat in the shipyard"
    return f"for {_space_words(why)}"


def _income_words(why: str) -> str:
    """Where money came from, after "ann gets 12 ..."."""
    return {"mortgage": "for the mortgage", "insurance": "for taking the insurance",
            "crew": "for a seat on a boat that reached Manila",
            "plunder": "as a pirate's share of the plunder"}.get(why, f"for {_space_words(why)}")


def _seats_lost(crew: list[str]) -> str:
    """"; ann loses her seat" in the words of 7.2: each person, with how many seats."""
    if not crew:
        return ""
    counts = {name: crew.count(name) for name in dict.fromkeys(crew)}
    if len(counts) == 1:
        name, k = next(iter(counts.items()))
        return f"; {name} loses {'a seat' if k == 1 else f'{k} seats'}"
    return f"; {_and(list(counts))} lose their seats"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# One sentence per event type (lantable.plugins.text.Sentences). Each payment is told
# once: by its ``cash`` event (which names what it paid for), so the event of the
# purchase itself does not repeat the amount, unless the cash events are secret
# (decision 16), when only the purchase tells it (``_told``).
SENTENCES = Sentences()
SENTENCES.add("bid", "{who} bids {amount} for harbour master")
SENTENCES.add("passed", "{who} passes")
SENTENCES.add("declined", "{who} places no more accomplices this voyage")
SENTENCES.add("redeemed", "{who} redeems a share")
SENTENCES.add("arrived", "The {good} boat reaches Manila (dock {dock})")
SENTENCES.add("shipyard", "The {good} boat goes to shipyard {space}")
SENTENCES.add("boarded", "{who} boards the {good} boat")
SENTENCES.add("displaced", "{who} is thrown off the {good} boat")
SENTENCES.add("stayed", "{who} stays on the pirate ship")
SENTENCES.add("insured", "{who} insures their own shipyard {space}: nothing changes hands")
SENTENCES.add("bank_covers", "The bank covers {amount} that {who} could not pay")
SENTENCES.add("game_over", "A share price reached 30: the game is over")
SENTENCES.add("voyage", "Voyage {voyage} begins")


def _told(e: Said) -> bool:
    return "cash" in e.view


def _owner(e: Said) -> str:
    """"Your" to the seat a private event goes to, else "ann's"."""
    return "Your" if e.mine else f"{e.who}'s"


@SENTENCES.on("dealt")
def _dealt(e: Said) -> str:
    goods = _and(list(e["goods"]))
    return f"You were dealt {goods} shares" if e.mine else f"{e.who} was dealt {goods} shares"


@SENTENCES.on("supply")
def _supply(e: Said) -> str:
    return "Shares in the supply: " + ", ".join(f"{g} {n}" for g, n in e["supply"].items())


@SENTENCES.on("harbour_master")
def _harbour_master(e: Said) -> str:
    if not e["paid"]:
        return f"{e.who} is harbour master for free: everyone passed"
    return f"{e.who} is harbour master" + ("" if _told(e) else f" for {e['paid']}")


@SENTENCES.on("bought")
def _bought(e: Said) -> str:
    return f"{e.who} buys a {e['good']} share" + ("" if _told(e) else f" for {e['price']}")


@SENTENCES.on("launched")
def _launched(e: Said) -> str:
    loads = ", ".join(f"{g} at {p}" for g, p in zip(e["goods"], e["starts"], strict=True))
    return f"Boats loaded: {loads}"


@SENTENCES.on("placed")
def _placed(e: Said) -> str:
    cost = f" for {e['cost']}" if e.get("cost") and not _told(e) else ""
    if e.get("stowaway"):
        return f"{e.who} stows away on {_space_words(e['space'])}, for free"
    return f"{e.who} takes {_space_words(e['space'])}{cost}"


@SENTENCES.on("cash")
def _cash(e: Said) -> str:
    d, why = e["delta"], str(e["why"])
    if d > 0:
        return f"{e.who} gets {d} {_income_words(why)}"
    return f"{e.who} pays {-d} {_payment_words(why)}"


@SENTENCES.on("mortgaged")
def _mortgaged(e: Said) -> str:
    return f"{e.who} mortgages a share" + (" (forced)" if e.get("why") == "forced" else "")


@SENTENCES.on("mortgaged_good")
def _mortgaged_good(e: Said) -> str:
    return f"{_owner(e)} mortgaged share is {e['good']}"


@SENTENCES.on("redeemed_good")
def _redeemed_good(e: Said) -> str:
    return f"{_owner(e)} redeemed share is {e['good']}"


@SENTENCES.on("roll")
def _roll(e: Said) -> str:
    dice = ", ".join(f"{g} {d}" for g, d in e["dice"].items())
    return f"Roll {e['roll']}: {dice}"


@SENTENCES.on("piloted")
def _piloted(e: Said) -> str:
    return f"{e.who} moves the {e['good']} boat {e['by']:+d} to {e['pos']}"


@SENTENCES.on("plundered")
def _plundered(e: Said) -> str:
    lost = _seats_lost([e.name(s) for s in e.get("crew") or []])
    return f"Pirates plunder the {e['good']} boat{lost}"


@SENTENCES.on("prices")
def _prices(e: Said) -> str:
    return "Share prices: " + ", ".join(f"{g} {p}" for g, p in e["prices"].items())


@hookimpl
def game_describe_event(view: View, seat: int | None, event: dict[str, Any],
                        names: list[str]) -> str | None:
    return SENTENCES.say(view, seat, event, names)


# ---------------------------------------------------------------------------
# the board
# ---------------------------------------------------------------------------


def _track(view: View, b: int) -> str:
    """The river as 14 cells, 0..13, with the boat on its space."""
    where, pos = view["where"][b], view["pos"][b]
    if where == DOCK:
        return "·" * 14 + " ⚓ Manila"
    if where == YARD:
        return "·" * 14 + " shipyard"
    cells = ["·"] * 14
    cells[B.PIRATE_SPACE] = "☠"
    cells[min(pos, 13)] = "■"
    return "".join(cells) + f" {pos}/13"


def _crew(view: View, b: int, names: list[str]) -> str:
    good = _good(view, b)
    crew = [_name(names, s) for s in view["crew"][b]]
    costs = B.SEAT_COSTS[good]
    free = [str(c) for c in costs[len(crew):]]
    if view["where"][b] == YARD or view.get("plundered", [False] * 3)[b]:
        free = []
    return ", ".join(crew + (["free: " + "/".join(free)] if free else [])) or "—"


def _slot(owner: Any, names: list[str], free: str) -> str:
    return _name(names, owner) if owner is not None else free


def _river(view: View, names: list[str]) -> Table:
    table = Table(title="The river (Manila after 13; pirates wait on 13)", title_justify="left",
                  expand=False, show_edge=False, pad_edge=False)
    for col in ("boat", "0 ........ 13", "crew (seat costs)", "pays", "docks"):
        table.add_column(col)
    for b in range(len(view.get("goods") or [])):
        good = _good(view, b)
        table.add_row(good, _track(view, b), _crew(view, b, names), str(B.PROFIT[good]),
                      _pct(arrival_chance(view, b)))
    return table


def _spaces(view: View, names: list[str]) -> Table:
    table = Table(show_header=True, show_edge=False, pad_edge=False)
    for col in ("", "A", "B", "C"):
        table.add_column(col)
    table.add_row("docks", *[_slot(view["docks"][i], names,
                                   f"{B.DOCK_COST[i]}→{B.DOCK_PAY[i]}") for i in range(3)])
    table.add_row("shipyard", *[_slot(view["yards"][i], names,
                                      f"{B.YARD_COST[i]}→{B.YARD_PAY[i]}") for i in range(3)])
    pirates, pilots = view["pirates"], view["pilots"]
    table.add_row("pirates", _slot(pirates[0], names, f"captain {B.PIRATE_COST[0]}"),
                  _slot(pirates[1], names, f"second {B.PIRATE_COST[1]}"), "")
    table.add_row("pilots", _slot(pilots[0], names, f"small {B.PILOT_COST['small']}"),
                  _slot(pilots[1], names, f"large {B.PILOT_COST['large']}"), "")
    table.add_row("insurance", _slot(view["insurance"], names, f"free, +{B.INSURANCE_BONUS}"),
                  "", "")
    return table


def _players(view: View, seat: int | None, names: list[str]) -> Table:
    table = Table(show_edge=False, pad_edge=False)
    for col in ("player", "cash", "shares", "mortgaged", "accomplices left", ""):
        table.add_column(col)
    n = view["n"]
    cash = view.get("cash")
    for s in range(n):
        marks = []
        if view.get("hm") == s:
            marks.append("harbour master")
        if view["phase"] == "auction":
            if view.get("leader") == s:
                marks.append(f"high bid {view['bid']}")
            elif view["passed"][s]:
                marks.append("passed")
        money = str(cash[s]) if cash is not None else ("?" if s != seat else str(view["my_cash"]))
        left = str(view["left"][s]) if view.get("goods") else ""
        table.add_row(names[s] if s < len(names) else f"seat {s}", money, str(view["shares"][s]),
                      str(view["mortgaged"][s]), left, ", ".join(marks))
    return table


def _mine(view: View) -> Text:
    prices = view["prices"]
    shares = view["my_shares"]
    mort = dict(zip(B.GOODS, view["my_mort"], strict=True))
    owned = [f"{g} {c}" + (f" ({mort[g]} mortgaged)" if mort[g] else "")
             for g, c in shares.items() if c]
    fortune = (view["my_cash"] + sum(c * prices[g] for g, c in shares.items())
               - B.REDEEM_COST * sum(view["my_mort"]))
    return Text(f"You: cash {view['my_cash']}, shares: {', '.join(owned) or 'none'}; "
                f"fortune if the game ended now {fortune}")


@hookimpl
def game_render_text(view: View, seat: int | None, names: list[str]) -> Any:
    prices = ", ".join(f"{g} {p}" for g, p in view["prices"].items())
    phase = _PHASES.get(view["phase"], view["phase"])
    hm = f"; harbour master {_name(names, view['hm'])}" if view.get("hm") is not None else ""
    head = Text(f"Voyage {view['voyage']}: {phase}{hm}\n"
                f"Share prices: {prices} (the game ends when one reaches 30)")
    parts: list[Any] = [head]
    if view.get("goods"):
        parts += [_river(view, names), _spaces(view, names)]
    parts.append(_players(view, seat, names))
    if seat is not None and "my_cash" in view:
        parts.append(_mine(view))
    return Group(*parts)
