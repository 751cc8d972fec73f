"""Manila (Zoch / Z-Man), 3 to 5 seats: the lantable game plugin.

Rules: ``docs/rules/manila.md`` (cited by section; its "Modules" table says where each
rule lives); the rules engine is :mod:`.engine` and the modules it names, the state's
schema :mod:`.state`, board values :mod:`.board`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from lantable.plugins import IllegalAction, hookimpl

from . import board as B
from . import engine, voyage
from .heuristic import evaluate
from .state import Options, State
from .text import game_describe_action, game_describe_event, game_render_text
from .voyage import schedule_view

if TYPE_CHECKING:
    import random

# The words for people (labels, event sentences, the board) live in .text.
__all__ = ["game_describe_action", "game_describe_event", "game_render_text"]

INFO = {
    "id": "manila",
    "title": "Manila",
    "version": "1.0",
    "min_seats": 3,
    "max_seats": 5,
    "options": {
        "pirates_displace": {"default": False,
                             "help": "7.2 variant: pirates may board a full boat, displacing one "
                                     "accomplice"},
        "mortgage_any_time": {"default": True,
                              "help": "6.1 / decision 15: mortgage and redeem as free actions at "
                                      "every decision"},
        "crew_docked_boats": {"default": True,
                              "help": "decision 8: accomplices may take seats on a boat already in "
                                      "Manila"},
        "second_pirate_may_board": {"default": True,
                                    "help": "decision 6: the second pirate may board when the "
                                            "captain stayed"},
        "stowaway_rule": {"default": "literal", "choices": ["literal", "broke_no_insurance"],
                          "help": "decision 10: 'literal' = the insurance agent cannot stow away; "
                                  "'broke_no_insurance' = a broke player cannot take the insurance "
                                  "space"},
        "hide_cash": {"default": False, "help": "decision 16: cash is secret (default public)"},
        "tie_break": {"default": "shared", "choices": ["shared", "cash"],
                      "help": "decision 17: equal fortunes share the win, or (house rule) more "
                              "cash wins"},
        "min_raise": {"default": 1, "choices": [1, 2, 5],
                      "help": "decision 4: smallest raise over the current bid"},
    },
    "traits": {"chance": True, "hidden_information": True, "simultaneous": False},
}

# Everything in the state that every seat may see (6.4), in the order of the view
# (_public_view writes the same keys out, in this order; a test holds them equal).
# The secret keys are "dealt" (the shares dealt at setup) and "mort" (which goods are
# mortgaged). Views also carry the voyage's schedule as they always have, derived
# from the state's "at" (voyage.schedule_view): "plan" and "pi" come after
# _PUBLIC_1, "pilot_done" after _PUBLIC_2, and "over" last.
_PUBLIC_1 = ("n", "opt", "bought", "supply", "step", "voyage", "opener", "prev_hm", "hm",
             "phase", "turn", "bid", "leader", "passed", "goods", "pos", "where", "docked",
             "yarded", "plundered", "crew", "docks", "yards", "pirates", "pilots", "insurance",
             "left", "declined")
_PUBLIC_2 = ("queue", "rolls", "boarding", "boarded", "plunder")


@hookimpl
def game_info() -> dict[str, Any]:
    return INFO


@hookimpl
def game_setup(seats: int, options: Options, rng: random.Random) -> State:
    state, _ = engine.setup(seats, options, rng)
    return state


@hookimpl
def game_to_act(state: State) -> list[int]:
    return [] if state["over"] else [state["turn"]]


@hookimpl
def game_legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    return engine.legal_actions(state, seat)


@hookimpl
def game_apply(state: State, seat: int, action: dict[str, Any],
               rng: random.Random) -> list[dict[str, Any]]:
    try:
        return engine.apply(state, seat, action, rng)
    except engine.Illegal as exc:
        raise IllegalAction(str(exc)) from None
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        # A malformed action caught before any change (every handler validates first).
        raise IllegalAction(f"malformed action {action!r}: {exc!r}") from None


@hookimpl
def game_view(state: State, seat: int | None) -> dict[str, Any]:
    view = _public_view(state)
    if seat is not None:
        view.update(_own_view(state, seat))
    return view


@hookimpl
def game_view_parts(state: State) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return _public_view(state), [_own_view(state, s) for s in range(state["n"])]


def _public_view(state: State) -> dict[str, Any]:
    """What every seat may see: the public keys (_PUBLIC_1, the schedule, _PUBLIC_2),
    then the public facts about the secret keys (each seat's share and mortgage
    counts), the prices and, unless it is secret (decision 16), the cash.

    The host builds it after every change of every table, so it is written out key by
    key: each list is copied by the shape the schema gives it (State), a flat list
    with ``[:]``, a list of lists one level deeper, since a view shares no list or
    dict with the state (docs/plugins.md)."""
    plan, pi, pilot_done = schedule_view(state)
    step, dealt, bought = state["step"], state["dealt"], state["bought"]
    boarded = state["boarded"]
    view: dict[str, Any] = {
        "n": state["n"],
        "opt": state["opt"].copy(),
        "bought": [b[:] for b in bought],
        "supply": state["supply"][:],
        "step": step[:],
        "voyage": state["voyage"],
        "opener": state["opener"],
        "prev_hm": state["prev_hm"],
        "hm": state["hm"],
        "phase": state["phase"],
        "turn": state["turn"],
        "bid": state["bid"],
        "leader": state["leader"],
        "passed": state["passed"][:],
        "goods": state["goods"][:],
        "pos": state["pos"][:],
        "where": state["where"][:],
        "docked": state["docked"],
        "yarded": state["yarded"],
        "plundered": state["plundered"][:],
        "crew": [c[:] for c in state["crew"]],
        "docks": state["docks"][:],
        "yards": state["yards"][:],
        "pirates": state["pirates"][:],
        "pilots": state["pilots"][:],
        "insurance": state["insurance"],
        "left": state["left"][:],
        "declined": state["declined"][:],
        "plan": plan,
        "pi": pi,
        "queue": state["queue"][:],
        "rolls": state["rolls"],
        "boarding": [pair[:] for pair in state["boarding"]],
        "boarded": None if boarded is None else boarded[:],
        "plunder": state["plunder"][:],
        "pilot_done": pilot_done,
        "over": state["over"],
        # each seat's shares: every dealt one is a share of some good
        "shares": [len(dealt[s]) + sum(bought[s]) for s in range(state["n"])],
        "mortgaged": [sum(m) for m in state["mort"]],
        "prices": B.by_good([B.PRICE_TRACK[s] for s in step]),
    }
    if not state["opt"]["hide_cash"]:
        view["cash"] = state["cash"][:]
    return view


def _own_view(state: State, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "my_cash": state["cash"][seat],
        "my_dealt": state["dealt"][seat][:],
        "my_mort": state["mort"][seat][:],
        "my_shares": B.by_good(engine.owned(state, seat)),
    }


def _copy(obj: Any) -> Any:
    """A copy of one state value. Manila's state nests at most two levels (lists of
    lists of ints, dicts of scalars), so this is a full copy, at a fraction of the
    cost of a generic deep copy (views are built for every seat after every action)."""
    kind = type(obj)
    if kind is list:
        return [x[:] if type(x) is list else x for x in obj]
    if kind is dict:
        return dict(obj)
    return obj


@hookimpl
def game_scores(state: State) -> dict[str, Any]:
    return engine.scores(state)


@hookimpl
def game_sample_state(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """Deal the shares this seat cannot see: the dealt shares of the others come from
    the known pool (5 per good minus supply, purchases and its own), 2 each; each
    other seat's public mortgage count is spread over its shares at random."""
    state: dict[str, Any] = {key: _copy(view[key]) for key in (*_PUBLIC_1, *_PUBLIC_2, "over")}
    state["at"] = voyage.at_from_view(view)
    n = state["n"]
    state["cash"] = _copy(view["cash"]) if "cash" in view else [B.START_CASH] * n
    state["cash"][seat] = view["my_cash"]
    pool: list[int] = []
    for g in range(4):
        total = B.SHARES_PER_GOOD - view["supply"][g] - sum(b[g] for b in view["bought"])
        pool += [g] * (total - view["my_dealt"].count(g))
    rng.shuffle(pool)
    dealt: list[list[int]] = []
    mort: list[list[int]] = []
    for s in range(n):
        if s == seat:
            dealt.append(list(view["my_dealt"]))
            mort.append(list(view["my_mort"]))
            continue
        mine = sorted(pool[:B.DEALT_EACH])
        del pool[:B.DEALT_EACH]
        dealt.append(mine)
        shares = [g for g in range(4) for _ in range(view["bought"][s][g] + mine.count(g))]
        m = [0] * 4
        for g in rng.sample(shares, min(view["mortgaged"][s], len(shares))):
            m[g] += 1
        mort.append(m)
    state["dealt"], state["mort"] = dealt, mort
    return cast("State", state)  # every key of State is set above


@hookimpl
def game_heuristic(state: State, seat: int) -> float:
    return evaluate(state, seat)


from .undo import game_undo_barrier  # noqa: E402 - undo by consent (host/undo.py)
from .web_board import game_web_renderer  # noqa: E402, F401 - the browser board (web/board.js)

__all__ += ["game_undo_barrier"]
