"""Playing a committed card (4.5): its ``play`` actions and what playing it starts.

Every card may be committed as an interception by one of the player's ships
(``icpt``, 5.6.1) or as a British-forces interception (``brit``, 5.6.2): those two
uses are the same for every card and live here, as does Lay Mines' ``mines`` use.
A card committed for its action (``act``) is played as its card type says
(:mod:`.cardtypes`). ``plays(S, seat, entry)`` lists the ``play`` actions of one
committed card in a fixed order; ``play(S, rng, action, ev)`` performs one
(already validated).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cardtypes import CARD_TYPES
from .combat import prize_exhaust_check, start_bi, start_gi, start_mines
from .data import ACTIONS
from .rules import attack_targets, can_intercept, hidden, ship_can_act
from .state import Action, Events, State

if TYPE_CHECKING:
    import random


def plays(S: State, seat: int, e: dict[str, Any]) -> list[Action]:
    """The ``play`` actions for committed entry ``e`` (empty when it cannot be played)."""
    c, use = e["card"], e["use"]
    if use == "icpt":
        if not ship_can_act(S, seat, e["ship"]):
            return []
        return [{"type": "play", "card": c, "target": m} for o in attack_targets(S, seat)
                for m in S["players"][o]["merchants"] if can_intercept(S, m)]
    if use == "brit":  # 5.6.2: Warships, revealed Raiders, revealed Prizes
        return [{"type": "play", "card": c, "target": s} for o in attack_targets(S, seat)
                for s in S["players"][o]["german"] if can_intercept(S, s) and not hidden(S, s)]
    if use == "mines":
        if not ship_can_act(S, seat, e["ship"]):
            return []
        return [{"type": "play", "card": c, "target_seat": o} for o in attack_targets(S, seat)
                if S["players"][o]["merchants"]]
    return CARD_TYPES[ACTIONS[c]["type"]].plays(S, seat, c)  # use == "act"


def play(S: State, rng: random.Random, action: Action, ev: Events) -> None:
    T = S["this_turn"]
    seat = T["seat"]
    c = action["card"]
    e = next(x for x in T["committed"] if x["card"] == c)
    e["played"] = True
    T["late_asked"] = []  # a new card: defenders may answer earlier sinkings again afterwards
    cd = ACTIONS[c]
    ev.append({"type": "card_played", "seat": seat, "card": c, "use": e["use"],
               **{k: v for k, v in action.items() if k not in ("type", "card")}})
    if e["use"] == "icpt":
        start_gi(S, c, e["ship"], action["target"])
        return
    if e["use"] == "brit":
        start_bi(S, c, action["target"], "brit")
        return
    if e["use"] == "mines":
        start_mines(S, c, action["target_seat"], cd["mine"], e["ship"])
        return
    ct = CARD_TYPES[cd["type"]]
    if ct.stays_in_play:
        T["committed"].remove(e)  # these stay in play, not discarded with the others
    ct.perform(S, rng, seat, cd, c, action, ev)


def prize_resupply_offers(S: State, seat: int) -> list[Action]:
    """6.12.1: one Limited-Supply ship per prize, each prize once per turn."""
    if not S["options"]["prize_resupply"]:
        return []
    P = S["players"][seat]
    prizes = [
        s
        for s in P["german"]
        if S["ships"][s]["prize"] and s not in S["this_turn"]["resupplied_from"]
    ]
    needy = [s for s in P["german"] if S["ships"][s]["limited_supply"]]
    return [{"type": "resupply", "prize": p, "ship": s} for p in prizes for s in needy]


def apply_prize_resupply(S: State, rng: random.Random, action: Action, ev: Events) -> None:
    S["ships"][action["ship"]]["limited_supply"] = False
    S["this_turn"]["resupplied_from"].append(action["prize"])
    ev.append({"type": "resupplied", "ship": action["ship"], "from_prize": action["prize"]})
    prize_exhaust_check(S, rng, action["prize"], ev)
