"""Manila rules: state, decisions and their effects (rules digest sections 3-6).

The state is plain data; goods are indexes into ``board.GOODS`` (0 nutmeg, 1 silk,
2 ginseng, 3 jade) and boats are indexes 0..2 into ``state["goods"]``. The game
moves through phases; each phase names the one seat that decides (``turn``), and
everything that needs no decision (dice rolls, arrivals, payouts, price rises) runs
inside :func:`apply` until the next decision.

Phases: ``auction`` -> ``buy`` -> ``launch`` -> (``place`` rounds, rolls, ``board``,
``pilot_small``, ``pilot_large``, ``plunder``) -> payouts -> next ``auction``, or
``over``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board as B

if TYPE_CHECKING:
    import random

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

SEA, DOCK, YARD = 0, 1, 2


class Illegal(Exception):
    """Raised before any change when an action is not legal now."""


# ---------------------------------------------------------------------------
# setup (section 3)
# ---------------------------------------------------------------------------


def setup(n: int, options: dict[str, Any], rng: random.Random) -> tuple[State, list[Event]]:
    deck = [g for g in range(4) for _ in range(B.SHUFFLED_PER_GOOD)]
    rng.shuffle(deck)
    dealt = [sorted(deck[i * B.DEALT_EACH:(i + 1) * B.DEALT_EACH]) for i in range(n)]
    rest = deck[n * B.DEALT_EACH:]
    supply = [B.SHARES_PER_GOOD - B.SHUFFLED_PER_GOOD + rest.count(g) for g in range(4)]
    state: State = {
        "n": n, "opt": dict(options),
        "cash": [B.START_CASH] * n,
        "dealt": dealt,  # secret: the goods of the shares dealt to each seat
        "bought": [[0] * 4 for _ in range(n)],  # public: shares bought as harbour master
        "mort": [[0] * 4 for _ in range(n)],  # goods secret, count public
        "supply": supply, "step": [0] * 4,
        "voyage": 1, "opener": 0, "prev_hm": None, "hm": None,
        "phase": "auction", "turn": 0, "bid": 0, "leader": None, "passed": [False] * n,
        "goods": [], "pos": [], "where": [], "docked": 0, "yarded": 0, "plundered": [],
        "crew": [], "docks": [None] * 3, "yards": [None] * 3, "pirates": [None, None],
        "pilots": [None, None], "insurance": None,
        "left": [0] * n, "declined": [False] * n,
        "plan": [], "pi": 0, "queue": [], "rolls": 0,
        "boarding": [], "boarded": None, "plunder": [], "pilot_done": None,
        "over": False,
    }
    events = [{"type": "dealt", "seat": s, "goods": [B.GOODS[g] for g in dealt[s]], "to": [s]}
              for s in range(n)]
    events.append({"type": "supply", "supply": _named(supply)})
    return state, events


def _named(counts: list[int]) -> dict[str, int]:
    return {B.GOODS[g]: c for g, c in enumerate(counts)}


# ---------------------------------------------------------------------------
# money (sections 5.4, 6.1)
# ---------------------------------------------------------------------------


def owned(state: State, seat: int) -> list[int]:
    """Shares of each good the seat owns (mortgaged or not)."""
    dealt = state["dealt"][seat]
    bought = state["bought"][seat]
    return [bought[0] + dealt.count(0), bought[1] + dealt.count(1),
            bought[2] + dealt.count(2), bought[3] + dealt.count(3)]


def unmortgaged(state: State, seat: int) -> list[int]:
    own = owned(state, seat)
    mort = state["mort"][seat]
    return [own[0] - mort[0], own[1] - mort[1], own[2] - mort[2], own[3] - mort[3]]


def can_raise(state: State, seat: int) -> int:
    """Cash plus what mortgaging every unmortgaged share would raise (4.1.7)."""
    free = len(state["dealt"][seat]) + sum(state["bought"][seat]) - sum(state["mort"][seat])
    return state["cash"][seat] + B.MORTGAGE_VALUE * free


def price(state: State, good: int) -> int:
    return B.PRICE_TRACK[state["step"][good]]


def _cash(state: State, events: list[Event], seat: int, delta: int, why: str) -> None:
    if delta:
        state["cash"][seat] += delta
        event = {"type": "cash", "seat": seat, "delta": delta, "why": why}
        if state["opt"]["hide_cash"]:  # decision 16: private money
            event["to"] = [seat]
        events.append(event)


def _mortgage(state: State, events: list[Event], seat: int, good: int, why: str) -> None:
    state["mort"][seat][good] += 1
    events.append({"type": "mortgaged", "seat": seat, "why": why})
    events.append({"type": "mortgaged_good", "seat": seat, "good": B.GOODS[good], "to": [seat]})
    _cash(state, events, seat, B.MORTGAGE_VALUE, "mortgage")


def _force_cash(state: State, events: list[Event], seat: int, amount: int) -> None:
    """Forced mortgage (6.1): mortgage shares, cheapest good first, until ``amount`` is in hand."""
    while state["cash"][seat] < amount:
        free = unmortgaged(state, seat)
        goods = [g for g in range(4) if free[g]]
        if not goods:
            return
        _mortgage(state, events, seat, min(goods, key=lambda g: (price(state, g), g)), "forced")


def _pay(state: State, events: list[Event], seat: int, amount: int, why: str) -> None:
    """The seat pays the bank ``amount``, mortgaging as needed (callers checked it can)."""
    _force_cash(state, events, seat, amount)
    _cash(state, events, seat, -amount, why)


# ---------------------------------------------------------------------------
# who decides, and what they may do
# ---------------------------------------------------------------------------


def to_act(state: State) -> list[int]:
    return [] if state["over"] else [state["turn"]]


def _money_actions(state: State, seat: int) -> list[Action]:
    """Mortgage or redeem one share, allowed at any decision (6.1, decision 15)."""
    if not state["opt"]["mortgage_any_time"]:
        return []
    out: list[Action] = []
    free = unmortgaged(state, seat)
    for g in range(4):
        if free[g]:
            out.append({"type": "mortgage", "good": B.GOODS[g]})
    if state["cash"][seat] >= B.REDEEM_COST:
        for g in range(4):
            if state["mort"][seat][g]:
                out.append({"type": "redeem", "good": B.GOODS[g]})
    return out


def _bid_amounts(low: int, high: int) -> list[int]:
    """Every bid from ``low`` to low+5, then every 5 up to ``high``, and ``high`` (a
    discretisation for bots; any integer bid in range is accepted)."""
    amounts = list(range(low, min(high, low + 5) + 1))
    amounts += list(range((low + 5) // 5 * 5 + 5, high + 1, 5))
    if amounts and amounts[-1] != high and high >= low:
        amounts.append(high)
    return sorted(set(amounts))


def legal_actions(state: State, seat: int) -> list[Action]:
    """Legal actions of ``seat``, in this order: the phase's own actions (in the order
    of the board: boats by boat index, docks A-C, shipyard A-C, pirate, pilots,
    insurance; bids ascending), then ``decline``/``pass``/``stay`` where they exist,
    then mortgage and redeem actions (goods in board order)."""
    if state["over"] or seat != state["turn"]:
        return []
    phase = state["phase"]
    out: list[Action]
    if phase == "auction":
        low = state["bid"] + (state["opt"]["min_raise"] if state["bid"] else 1)
        out = [{"type": "bid", "amount": a} for a in _bid_amounts(low, can_raise(state, seat))]
        out.append({"type": "pass"})
    elif phase == "buy":
        budget = can_raise(state, seat)
        out = [{"type": "buy", "good": B.GOODS[g]} for g in range(4)
               if state["supply"][g] and max(B.MIN_SHARE_PRICE, price(state, g)) <= budget]
        out.append({"type": "no_buy"})
    elif phase == "launch":
        out = [{"type": "launch", "goods": [B.GOODS[g] for g in goods], "starts": list(starts)}
               for goods in _LOADS for starts in _STARTS]
    elif phase == "place":
        out = [_space_action(sp) for sp in _free_spaces(state, seat)]
        out.append({"type": "decline"})
    elif phase == "board":
        out = _board_actions(state)
        out.append({"type": "stay"})
    elif phase in ("pilot_small", "pilot_large"):
        out = [{"type": "pilot", "moves": m} for m in _pilot_moves(state, phase == "pilot_large")]
    elif phase == "plunder":
        boat = state["plunder"][0]
        good = B.GOODS[state["goods"][boat]]
        out = [{"type": "send", "good": good, "to": "manila"},
               {"type": "send", "good": good, "to": "shipyard"}]
    else:  # pragma: no cover - every phase is listed above
        raise AssertionError(phase)
    return out + _money_actions(state, seat)


_LOADS = [[g for g in range(4) if g != out] for out in range(4)]  # 3 of the 4 goods (4.2b)
_STARTS = [(a, b, B.START_SUM - a - b)
           for a in range(B.MAX_START + 1) for b in range(B.MAX_START + 1)
           if 0 <= B.START_SUM - a - b <= B.MAX_START]  # 25 ordered triples summing to 9 (4.2c)


def _space_action(space: tuple) -> Action:
    kind = space[0]
    if kind == "boat":
        action = {"type": "place", "space": "boat", "good": space[1]}
        if space[2]:
            action["stowaway"] = True
        return action
    if kind in ("dock", "shipyard"):
        return {"type": "place", "space": kind, "slot": "ABC"[space[1]]}
    return {"type": "place", "space": kind}


def _stowaway_ok(state: State, seat: int, affordable_paid: bool) -> bool:
    """6.2: broke (no cash, nothing to mortgage) or nothing affordable; under the
    literal rule (decision 10, reading A) never the insurance agent."""
    if state["opt"]["stowaway_rule"] == "literal" and state["insurance"] == seat:
        return False  # reading A; reading B restricts the insurance space instead
    broke = can_raise(state, seat) == 0
    return broke or not affordable_paid


def _free_spaces(state: State, seat: int) -> list[tuple]:
    """Free spaces this seat may take now, as tuples (see :func:`_space_action`)."""
    budget = can_raise(state, seat)
    out: list[tuple] = []
    boat_seats = []
    for b, g in enumerate(state["goods"]):
        where = state["where"][b]
        if where == YARD or (where == DOCK and not state["opt"]["crew_docked_boats"]):
            continue
        crew = state["crew"][b]
        costs = B.SEAT_COSTS[B.GOODS[g]]
        if len(crew) < len(costs):
            boat_seats.append((b, costs[len(crew)]))
    paid: list[tuple] = [("boat", B.GOODS[state["goods"][b]], False)
                         for b, c in boat_seats if c <= budget]
    for i in range(3):
        if state["docks"][i] is None and B.DOCK_COST[i] <= budget:
            paid.append(("dock", i))
    for i in range(3):
        if state["yards"][i] is None and B.YARD_COST[i] <= budget:
            paid.append(("shipyard", i))
    pirates = state["pirates"]
    if (pirates[0] is None or pirates[1] is None) and B.PIRATE_COST[0] <= budget:
        paid.append(("pirate",))
    if state["pilots"][0] is None and B.PILOT_COST["small"] <= budget:
        paid.append(("pilot_small",))
    if state["pilots"][1] is None and B.PILOT_COST["large"] <= budget:
        paid.append(("pilot_large",))
    out = list(paid)
    if state["insurance"] is None and not (state["opt"]["stowaway_rule"] == "broke_no_insurance"
                                           and budget == 0):
        out.append(("insurance",))
    if _stowaway_ok(state, seat, bool(paid)):
        affordable = {sp[1] for sp in paid if sp[0] == "boat"}
        out += [("boat", B.GOODS[state["goods"][b]], True) for b, c in boat_seats
                if B.GOODS[state["goods"][b]] not in affordable]
    return out


def _board_actions(state: State) -> list[Action]:
    """Boats on 13 a pirate may board (4.7a); with the variant, full boats too (7.2)."""
    out: list[Action] = []
    for b, g in enumerate(state["goods"]):
        if state["where"][b] != SEA or state["pos"][b] != B.PIRATE_SPACE:
            continue
        crew = state["crew"][b]
        if len(crew) < len(B.SEAT_COSTS[B.GOODS[g]]):
            out.append({"type": "board", "good": B.GOODS[g]})
        elif state["opt"]["pirates_displace"]:
            protected = (state["boarded"][1] if state["boarded"] and state["boarded"][0] == b
                         else None)
            for i in range(len(crew)):
                if i != protected:
                    out.append({"type": "board", "good": B.GOODS[g], "displace": i})
    return out


def _pilot_moves(state: State, large: bool) -> list[list[list[Any]]]:
    """Pilot options (4.5, decision 9): nothing; one boat +-1; large: one boat +-2 or
    two boats +-1 each. Only boats at sea; never below 0."""
    boats = [b for b in range(3) if state["where"][b] == SEA]
    single = [[[B.GOODS[state["goods"][b]], d]]
              for b in boats for d in (-1, 1) if state["pos"][b] + d >= 0]
    out: list[list[list[Any]]] = [[]] + single
    if large:
        out += [[[B.GOODS[state["goods"][b]], d]]
                for b in boats for d in (-2, 2) if state["pos"][b] + d >= 0]
        for i, b1 in enumerate(boats):
            for b2 in boats[i + 1:]:
                for d1 in (-1, 1):
                    for d2 in (-1, 1):
                        if state["pos"][b1] + d1 >= 0 and state["pos"][b2] + d2 >= 0:
                            out.append([[B.GOODS[state["goods"][b1]], d1],
                                        [B.GOODS[state["goods"][b2]], d2]])
    return out


# ---------------------------------------------------------------------------
# applying a decision
# ---------------------------------------------------------------------------


def _good(name: Any) -> int:
    try:
        return B.GOODS.index(name)
    except ValueError:
        raise Illegal(f"unknown good {name!r}; goods are {list(B.GOODS)}") from None


def _boat_of(state: State, name: Any) -> int:
    g = _good(name)
    if g not in state["goods"]:
        raise Illegal(f"{name} is not loaded this voyage")
    return state["goods"].index(g)


def apply(state: State, seat: int, action: Action, rng: random.Random) -> list[Event]:
    """Check then apply one action; raises Illegal (state untouched) if it is not legal."""
    kind = action.get("type")
    if kind in ("mortgage", "redeem"):
        if {"type": kind, "good": action.get("good")} not in _money_actions(state, seat):
            raise Illegal(f"cannot {kind} {action.get('good')!r} now")
        events: list[Event] = []
        g = _good(action["good"])
        if kind == "mortgage":
            _mortgage(state, events, seat, g, "voluntary")
        else:
            state["mort"][seat][g] -= 1
            events.append({"type": "redeemed", "seat": seat})  # the good stays secret (6.4)
            events.append({"type": "redeemed_good", "seat": seat, "good": B.GOODS[g], "to": [seat]})
            _cash(state, events, seat, -B.REDEEM_COST, "redeem")
        return events
    handler = _HANDLERS.get(state["phase"])
    if handler is None or kind not in handler[1]:
        raise Illegal(f"{kind!r} is not an action of the {state['phase']} phase; "
                      f"expected one of {sorted(handler[1]) if handler else []} or mortgage/redeem")
    events = []
    handler[0](state, seat, action, events)  # validates before changing anything
    _run(state, events, rng)
    return events


def _auction(state: State, seat: int, action: Action, events: list[Event]) -> None:
    n = state["n"]
    if action["type"] == "bid":
        amount = action.get("amount")
        low = state["bid"] + (state["opt"]["min_raise"] if state["bid"] else 1)
        if type(amount) is not int or not low <= amount <= can_raise(state, seat):
            raise Illegal(f"bid must be an int from {low} to {can_raise(state, seat)} "
                          f"(cash + 12 per unmortgaged share), got {amount!r}")
        state["bid"], state["leader"] = amount, seat
        events.append({"type": "bid", "seat": seat, "amount": amount})
    else:
        state["passed"][seat] = True
        events.append({"type": "passed", "seat": seat})
    active = [s for s in range(n) if not state["passed"][s]]
    if state["leader"] is not None and active == [state["leader"]]:
        hm = state["leader"]
        _pay(state, events, hm, state["bid"], "harbour master")
        return _start_duties(state, events, hm, state["bid"])
    if not active:  # nobody bid (4.1.6; decision 3 for the first voyage)
        hm = state["prev_hm"] if state["prev_hm"] is not None else state["opener"]
        return _start_duties(state, events, hm, 0)
    state["turn"] = next(s % n for s in range(seat + 1, seat + 1 + n) if not state["passed"][s % n])


def _start_duties(state: State, events: list[Event], hm: int, paid: int) -> None:
    state["hm"] = hm
    events.append({"type": "harbour_master", "seat": hm, "paid": paid})
    state["phase"], state["turn"] = "buy", hm


def _buy(state: State, seat: int, action: Action, events: list[Event]) -> None:
    if action["type"] == "buy":
        g = _good(action.get("good"))
        cost = max(B.MIN_SHARE_PRICE, price(state, g))  # 4.2a
        if not state["supply"][g]:
            raise Illegal(f"no {B.GOODS[g]} share is left in the supply")
        if cost > can_raise(state, seat):
            raise Illegal(f"a {B.GOODS[g]} share costs {cost}; "
                          f"you can raise {can_raise(state, seat)}")
        _pay(state, events, seat, cost, "share")
        state["supply"][g] -= 1
        state["bought"][seat][g] += 1
        events.append({"type": "bought", "seat": seat, "good": B.GOODS[g], "price": cost})
    state["phase"] = "launch"


def _launch(state: State, seat: int, action: Action, events: list[Event]) -> None:
    names, starts = action.get("goods"), action.get("starts")
    if (not isinstance(names, list) or len(names) != 3
            or not isinstance(starts, list) or len(starts) != 3):
        raise Illegal("launch needs 3 goods and 3 start spaces")
    goods = [_good(x) for x in names]
    if len(set(goods)) != 3:
        raise Illegal(f"the 3 goods must differ, got {names}")
    if (not all(type(p) is int and 0 <= p <= B.MAX_START for p in starts)
            or sum(starts) != B.START_SUM):
        raise Illegal(f"start spaces must be 0-5 and sum to 9 (4.2c), got {starts}")
    n = state["n"]
    state.update(goods=goods, pos=list(starts), where=[SEA] * 3, crew=[[], [], []],
                 plundered=[False] * 3)
    events.append({"type": "launched", "goods": list(names), "starts": list(starts)})
    # 4.0 / 7.1: the voyage's schedule of placement rounds (P) and rolls (R).
    state["plan"] = (["P", "P", "R", "P", "R", "P", "R"] if n == 3
                     else ["P", "R", "P", "R", "P", "R"])
    state["pi"] = -1
    state["left"] = [B.accomplices(n)] * n
    state["declined"] = [False] * n
    state["phase"] = "step"


def _place(state: State, seat: int, action: Action, events: list[Event]) -> None:
    if action["type"] == "decline":
        state["declined"][seat] = True  # 4.3: no more placements this voyage
        events.append({"type": "declined", "seat": seat})
        return _next_placer(state)
    space = action.get("space")
    spaces = _free_spaces(state, seat)
    if space == "boat":
        want = ("boat", action.get("good"), bool(action.get("stowaway", False)))
    elif space in ("dock", "shipyard"):
        slot = action.get("slot")
        want = (space, "ABC".index(slot) if slot in ("A", "B", "C") else -1)
    else:
        want = (space,)
    if want not in spaces:
        raise Illegal(f"cannot place on {action!r} now")
    cost = 0
    if space == "boat":
        b = _boat_of(state, action["good"])
        crew = state["crew"][b]
        if not want[2]:
            cost = B.SEAT_COSTS[B.GOODS[state["goods"][b]]][len(crew)]
        crew.append(seat)
        where = f"{action['good']} seat {len(crew)}"
    elif space == "dock":
        cost = B.DOCK_COST[want[1]]
        state["docks"][want[1]] = seat
        where = f"dock {action['slot']}"
    elif space == "shipyard":
        cost = B.YARD_COST[want[1]]
        state["yards"][want[1]] = seat
        where = f"shipyard {action['slot']}"
    elif space == "pirate":
        slot = 0 if state["pirates"][0] is None else 1
        cost = B.PIRATE_COST[slot]
        state["pirates"][slot] = seat
        where = "pirate captain" if slot == 0 else "second pirate"
    elif space in ("pilot_small", "pilot_large"):
        cost = B.PILOT_COST[space[6:]]
        state["pilots"][0 if space == "pilot_small" else 1] = seat
        where = space.replace("_", " ")
    else:
        state["insurance"] = seat
        where = "insurance"
    if cost:
        _pay(state, events, seat, cost, where)
    state["left"][seat] -= 1
    events.append({"type": "placed", "seat": seat, "space": where, "cost": cost,
                   **({"stowaway": True} if space == "boat" and want[2] else {})})
    if space == "insurance":
        _cash(state, events, seat, B.INSURANCE_BONUS, "insurance")
    _next_placer(state)


def _next_placer(state: State) -> None:
    while state["queue"]:
        s = state["queue"].pop(0)
        if state["left"][s] and not state["declined"][s]:
            state["turn"] = s
            return
    state["phase"] = "step"


def _board(state: State, seat: int, action: Action, events: list[Event]) -> None:
    if action["type"] == "board":
        want = {"type": "board", "good": action.get("good")}
        if "displace" in action:
            want["displace"] = action["displace"]
        if want not in _board_actions(state):
            raise Illegal(f"cannot board {action!r}")
        slot = state["boarding"][0][1]
        b = _boat_of(state, action["good"])
        crew = state["crew"][b]
        if "displace" in want:
            gone = crew[want["displace"]]
            crew[want["displace"]] = seat
            state["left"][gone] += 1  # 7.2: back to its owner's pool
            events.append({"type": "displaced", "seat": gone, "good": action["good"]})
            state["boarded"] = [b, want["displace"]]
        else:
            crew.append(seat)
            state["boarded"] = [b, len(crew) - 1]
        events.append({"type": "boarded", "seat": seat, "good": action["good"]})
        state["pirates"][slot] = None
        if slot == 0 and state["pirates"][1] is not None:  # the second becomes captain (4.7a)
            state["pirates"][0], state["pirates"][1] = state["pirates"][1], None
            state["boarding"] = [[who, 0 if s == 1 else s] for who, s in state["boarding"]]
    else:
        events.append({"type": "stayed", "seat": seat})
        if not state["opt"]["second_pirate_may_board"] and state["boarding"][0][1] == 0:
            state["boarding"] = state["boarding"][:1]
    state["boarding"].pop(0)
    _next_boarder(state)


def _next_boarder(state: State) -> None:
    while state["boarding"]:
        who, slot = state["boarding"][0]
        if state["pirates"][slot] == who and _board_actions(state):
            state["phase"], state["turn"] = "board", who
            return
        state["boarding"].pop(0)
    state["phase"] = "step"


def _pilot(state: State, seat: int, action: Action, events: list[Event]) -> None:
    large = state["phase"] == "pilot_large"
    moves = action.get("moves")
    if moves not in _pilot_moves(state, large):
        raise Illegal(f"not a legal {'large' if large else 'small'} pilot move: {moves!r}")
    for name, delta in moves:
        b = _boat_of(state, name)
        state["pos"][b] += delta
        events.append({"type": "piloted", "seat": seat, "good": name, "by": delta,
                       "pos": state["pos"][b]})
        if state["pos"][b] > B.LAST_SPACE:  # 4.5.5: arrives at once
            _arrive(state, events, b)
    state["phase"] = "step"
    if not large:
        state["pilot_done"] = 1


def _send(state: State, seat: int, action: Action, events: list[Event]) -> None:
    b = state["plunder"][0]
    if (action.get("good") != B.GOODS[state["goods"][b]]
            or action.get("to") not in ("manila", "shipyard")):
        raise Illegal(f"send the {B.GOODS[state['goods'][b]]} boat to 'manila' or 'shipyard'")
    state["plunder"].pop(0)
    if action["to"] == "manila":
        _arrive(state, events, b)
    else:
        _to_yard(state, events, b)
    state["phase"] = "step"


_HANDLERS = {
    "auction": (_auction, {"bid", "pass"}),
    "buy": (_buy, {"buy", "no_buy"}),
    "launch": (_launch, {"launch"}),
    "place": (_place, {"place", "decline"}),
    "board": (_board, {"board", "stay"}),
    "pilot_small": (_pilot, {"pilot"}),
    "pilot_large": (_pilot, {"pilot"}),
    "plunder": (_send, {"send"}),
}


# ---------------------------------------------------------------------------
# what happens between decisions
# ---------------------------------------------------------------------------


def _arrive(state: State, events: list[Event], b: int) -> None:
    state["where"][b] = DOCK
    state["docked"] += 1
    events.append({"type": "arrived", "good": B.GOODS[state["goods"][b]],
                   "dock": "ABC"[state["docked"] - 1]})


def _to_yard(state: State, events: list[Event], b: int) -> None:
    state["where"][b] = YARD
    state["yarded"] += 1
    events.append({"type": "shipyard", "good": B.GOODS[state["goods"][b]],
                   "space": "ABC"[state["yarded"] - 1]})


def _run(state: State, events: list[Event], rng: random.Random) -> None:
    """Run the automatic steps of the voyage until someone must decide."""
    while state["phase"] == "step":
        if state.get("pilot_done") == 1:  # the small pilot acted; now the large one
            state["pilot_done"] = 2
            if state["pilots"][1] is not None:
                state["phase"], state["turn"] = "pilot_large", state["pilots"][1]
                return
            continue
        if state.get("pilot_done") == 2:
            state["pilot_done"] = 3
            _roll(state, events, rng)
            continue
        if state["plunder"]:
            state["phase"], state["turn"] = "plunder", state["pirates"][0]
            return
        if state.get("pilot_done") == 3:
            _finish_voyage(state, events)
            return
        state["pi"] += 1
        plan = state["plan"]
        step = plan[state["pi"]]
        if step == "P":
            h, n = state["hm"], state["n"]
            state["queue"] = [(h + i) % n for i in range(n)]
            state["phase"] = "place"
            _next_placer(state)
            continue
        # A roll. The third roll comes after the pilots (4.5).
        if state["rolls"] == 2:
            state["pilot_done"] = 0
            if state["pilots"][0] is not None:
                state["phase"], state["turn"] = "pilot_small", state["pilots"][0]
                return
            state["pilot_done"] = 1
            continue
        _roll(state, events, rng)


def _roll(state: State, events: list[Event], rng: random.Random) -> None:
    """The harbour master rolls the three dice (4.4)."""
    state["rolls"] += 1
    dice = [rng.randint(1, 6) for _ in range(3)]
    events.append({"type": "roll", "roll": state["rolls"],
                   "dice": {B.GOODS[g]: d for g, d in zip(state["goods"], dice, strict=True)}})
    for b in range(3):
        if state["where"][b] == SEA:
            state["pos"][b] = min(state["pos"][b] + dice[b], B.LAST_SPACE + 1)
            if state["pos"][b] > B.LAST_SPACE:
                _arrive(state, events, b)
    at13 = [b for b in range(3) if state["where"][b] == SEA and state["pos"][b] == B.PIRATE_SPACE]
    if state["rolls"] == 2 and at13 and any(p is not None for p in state["pirates"]):
        # 4.7a: boarding, captain first.
        state["boarding"] = [[state["pirates"][s], s] for s in (0, 1)
                             if state["pirates"][s] is not None]
        state["boarded"] = None
        _next_boarder(state)
        if state["phase"] == "board":
            return
    if state["rolls"] == 3:
        if any(p is not None for p in state["pirates"]):
            for b in at13:  # 4.7b: plunder
                state["plundered"][b] = True
                events.append({"type": "plundered", "good": B.GOODS[state["goods"][b]],
                               "crew": list(state["crew"][b])})
                state["crew"][b] = []
            state["plunder"] = list(at13)
        else:
            for b in at13:  # 4.7b: no pirates, so the boat reaches Manila
                _arrive(state, events, b)
        for b in range(3):  # 4.8
            if state["where"][b] == SEA and not state["plundered"][b]:
                _to_yard(state, events, b)


def _finish_voyage(state: State, events: list[Event]) -> None:
    """Payouts A-D (4.9), price rises (4.10), the end check (6.3) and clean-up."""
    n = state["n"]
    pirates = [p for p in state["pirates"] if p is not None]
    for b in range(3):  # A. pirates
        if state["plundered"][b] and pirates:
            share = B.PROFIT[B.GOODS[state["goods"][b]]] // len(pirates)
            for p in pirates:
                _cash(state, events, p, share, "plunder")
    for b in range(3):  # B. crews of boats docked and not plundered
        crew = state["crew"][b]
        if state["where"][b] == DOCK and not state["plundered"][b] and crew:
            share = B.PROFIT[B.GOODS[state["goods"][b]]] // len(crew)
            for s in crew:
                _cash(state, events, s, share, "crew")
    for i in range(3):  # C. docks
        if state["docks"][i] is not None and state["docked"] > i:
            _cash(state, events, state["docks"][i], B.DOCK_PAY[i], f"dock {'ABC'[i]}")
    agent = state["insurance"]
    for i in range(state["yarded"]):  # D. shipyard, paid by the insurance agent
        value, owner = B.YARD_PAY[i], state["yards"][i]
        if agent is None:
            if owner is not None:
                _cash(state, events, owner, value, f"shipyard {'ABC'[i]}")
            continue
        if owner == agent:
            events.append({"type": "insured", "seat": agent, "space": "ABC"[i], "amount": value,
                           "to_self": True})
            continue
        _force_cash(state, events, agent, value)
        paid = min(value, state["cash"][agent])
        _cash(state, events, agent, -paid, "insurance")
        if paid < value:
            events.append({"type": "bank_covers", "seat": agent, "amount": value - paid})
        if owner is not None:
            _cash(state, events, owner, value, f"shipyard {'ABC'[i]}")
    for b in range(3):  # 4.10
        if state["where"][b] == DOCK:
            g = state["goods"][b]
            state["step"][g] = min(state["step"][g] + 1, B.END_STEP)
    events.append({"type": "prices", "prices": {B.GOODS[g]: price(state, g) for g in range(4)}})
    if any(s >= B.END_STEP for s in state["step"]):
        state["over"] = True
        events.append({"type": "game_over"})
        return
    hm = state["hm"]
    state.update(
        voyage=state["voyage"] + 1, opener=hm, prev_hm=hm, hm=None, phase="auction", turn=hm,
        bid=0, leader=None, passed=[False] * n, goods=[], pos=[], where=[], docked=0, yarded=0,
        plundered=[], crew=[], docks=[None] * 3, yards=[None] * 3, pirates=[None, None],
        pilots=[None, None], insurance=None, left=[0] * n, declined=[False] * n, plan=[], pi=0,
        queue=[], rolls=0, boarding=[], boarded=None, plunder=[], pilot_done=None,
    )
    events.append({"type": "voyage", "voyage": state["voyage"]})


# ---------------------------------------------------------------------------
# scoring (6.3)
# ---------------------------------------------------------------------------


def fortune(state: State, seat: int) -> int:
    own = owned(state, seat)
    return (state["cash"][seat] + sum(own[g] * price(state, g) for g in range(4))
            - B.REDEEM_COST * sum(state["mort"][seat]))


def scores(state: State) -> dict[str, Any]:
    n = state["n"]
    values = [fortune(state, s) for s in range(n)]
    keys = [(values[s], state["cash"][s] if state["opt"]["tie_break"] == "cash" else 0)
            for s in range(n)]
    rank = [1 + sum(1 for o in keys if o > k) for k in keys]
    return {"scores": values, "rank": rank,
            "detail": {"cash": list(state["cash"]), "shares": [owned(state, s) for s in range(n)],
                       "mortgaged": [sum(m) for m in state["mort"]],
                       "prices": {B.GOODS[g]: price(state, g) for g in range(4)}}}
