"""The lantable hooks of Kaiser's Pirates (I Pirati del Kaiser)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction, hookimpl

from . import hidden, rounds, turn, value, views
from .data import ACTIONS, SHIPS
from .rules import vp_total

if TYPE_CHECKING:
    import random

_BOOL = [False, True]
INFO: dict[str, Any] = {
    "id": "kaisers-pirates",
    "title": "Kaiser's Pirates (I Pirati del Kaiser)",
    "version": "0.1",
    "min_seats": 1,
    "max_seats": 4,
    "options": {
        "team_game": {"default": False, "choices": _BOOL,
                      "help": "8.1: with 4 seats, teams 0+2 against 1+3"},
        "extra_removed": {"default": 0, "help": "R 2.1.4: Action cards removed beyond the "
                          "standard number (negative: fewer; longer rounds)"},
        "first_player": {"default": "roll", "choices": ["roll", "lowest_vp"],
                         "help": "3.3: round 1 by d10 roll-off or lowest Warship/Raider VP"},
        "coal": {"default": False, "choices": _BOOL, "help": "6.1 coal"},
        "sails": {"default": False, "choices": _BOOL, "help": "6.2 Seeadler's sails"},
        "woelfchen": {"default": False, "choices": _BOOL, "help": "6.3 Wolf's seaplane"},
        "tournament": {"default": False, "choices": _BOOL, "help": "6.4 tournament balance"},
        "beyond_1914": {"default": "off", "choices": ["off", "ships", "ships_and_merchants"],
                        "help": "6.5 beyond 1914 (6.5.4 also removes 19 merchants)"},
        "b1914_reshuffle": {"default": "available", "choices": ["available", "all"],
                            "help": "6.5.2, with beyond_1914: when the German deck runs out "
                            "during a round, reshuffle the used ships but those removed this "
                            "round by weather, internment, recall or scuttling (available), "
                            "or the whole used pile once any other ship is in it (all)"},
        "no_breakout": {"default": False, "choices": _BOOL,
                        "help": "6.5.3: with beyond_1914 and 4 seats, remove the 3 Breakout cards"},
        "fast_raiders": {"default": False, "choices": _BOOL, "help": "6.6 fast raiders"},
        "keep_three": {"default": False, "choices": _BOOL,
                       "help": "6.7 keep up to 3 Warships & Raiders"},
        "additional_damage": {"default": False, "choices": _BOOL, "help": "6.8 damage stacks"},
        "torpedo_prizes": {"default": False, "choices": _BOOL,
                           "help": "6.9 torpedo attacks on hidden Prize ships"},
        "shallow_pursuit": {"default": False, "choices": _BOOL,
                            "help": "6.10 shallow-water pursuit"},
        "sailing_merchants": {"default": False, "choices": _BOOL, "help": "6.11 sailing merchants"},
        "prize_resupply": {"default": False, "choices": _BOOL,
                           "help": "6.12 resupply from Prize ships"},
        "a7_recon_immediate": {"default": True, "choices": _BOOL,
                               "help": "R 3.3.31: cards taken with Recon Aircraft may be "
                               "committed and played in the same turn (false: the digest's "
                               "A-7, from the next turn on)"},
        "a4_two_assists": {"default": False, "choices": _BOOL,
                           "help": "A-4, the digest's reading: a British interception may "
                           "take a Surprise Attack and also a Searchlight (the original "
                           "3.2.3: only one of the two)"},
        "a13_any_interception": {"default": False, "choices": _BOOL,
                                 "help": "A-13 alternative: Team cards in non-team games may "
                                 "also intercept on a German ship"},
        "a18_owner_rolls": {"default": False, "choices": _BOOL,
                            "help": "A-18 alternative: the owner rolls the 6.6.1/6.12.2 Challenge"},
        "a39_strict": {"default": True, "choices": _BOOL,
                       "help": "R 3.2.2: one reaction per attack, so no Recalled/Mistaken "
                       "Identity after another reaction to it (false: the digest's A-39)"},
    },
    "traits": {"chance": True, "hidden_information": True, "simultaneous": True},
}
INFO["options"]["hidden_deck"] = {
    "default": False, "choices": _BOOL,
    "help": "2-4 seats: the Action cards are a hidden deck (docs/fair-play.md): at a fair "
    "table with hidden decks nobody, the host included, sees a hand"}


@hookimpl
def game_info() -> dict[str, Any]:
    return INFO


@hookimpl
def game_setup(seats: int, options: dict[str, Any], rng: random.Random,
               decks: Any) -> dict[str, Any]:
    if options["team_game"] and seats != 4:
        raise IllegalAction(f"the team game needs 4 seats, got {seats}")
    if options["tournament"] and options["beyond_1914"] != "off":
        raise IllegalAction("6.4 tournament balance needs ships that 6.5 beyond 1914 removes")
    ev: list[dict[str, Any]] = []
    # The option hidden_deck is kept only when on: a plain game's state is as it was.
    S = rounds.new_state(seats, {k: v for k, v in options.items()
                                 if k != "hidden_deck" or v}, rng, ev)
    if hidden.enabled(seats, options):
        hidden.start(S)
        turn.start_game(S, rng, ev)
        hidden.send(S, ev, decks)
        return S
    turn.start_game(S, rng, ev)
    return S


@hookimpl
def game_to_act(state: dict[str, Any]) -> list[int]:
    return turn.to_act(state)


@hookimpl
def game_legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    if "hidden" in state:
        return hidden.legal_actions(state, seat)
    return turn.legal_actions(state, seat)


@hookimpl
def game_apply(state: dict[str, Any], seat: int, action: dict[str, Any],
               rng: random.Random, decks: Any) -> list[dict[str, Any]]:
    if "hidden" in state:
        return hidden.apply(state, seat, action, rng, decks)
    events = turn.apply(state, seat, action, rng)
    n = state["seats"]
    if state["n_players"] > n:  # solitaire: the phantom is the engine, not a seat at the table
        for event in events:
            if "to" in event:
                event["to"] = [s for s in event["to"] if s < n]
    return events


@hookimpl
def game_view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return views.view(state, seat)


# -- the hidden Action deck (option hidden_deck, :mod:`.hidden`) ---------------------------


@hookimpl
def game_decks(seats: int, options: dict[str, Any]) -> dict[str, int] | None:
    return hidden.decks_for(seats, options)


@hookimpl
def game_cards_opened(state: dict[str, Any], deck: str, cards: dict[int, int], seat: int | None,
                      shown: bool) -> list[dict[str, Any]]:
    return hidden.cards_opened(state, cards, seat, shown)


@hookimpl
def game_seat_actions(view: dict[str, Any], seat: int, cards: dict[str, dict[int, int]]
                      ) -> list[dict[str, Any]]:
    if "hidden" not in view:
        return []
    return hidden.seat_actions(view, seat, cards)


@hookimpl
def game_scores(state: dict[str, Any]) -> dict[str, Any]:
    n = state["seats"]
    rank = rounds.ranks(state)
    return {"scores": [p["round_points"] for p in state["players"]][:n], "rank": rank[:n],
            "detail": {"round_vp": [p["round_vp"] for p in state["players"]],
                       "vp_now": [vp_total(state, s) for s in range(state["n_players"])],
                       "rp": [p["round_points"] for p in state["players"]], "mode": state["mode"],
                       "rounds": state["round"]}}


@hookimpl
def game_sample_state(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    if "hidden" in view:
        return hidden.sample(view, seat, rng)
    return views.sample(view, seat, rng)


@hookimpl
def game_heuristic(state: dict[str, Any], seat: int) -> float:
    """This seat's position less the best opponent's (see :mod:`.value`)."""
    if "hidden" in state:  # a sampled hidden-deck state: read its cards off its dealer
        state = hidden.dealt(state)
    keys = rounds.standings(state)
    if state["phase"] == "over":
        return 1000.0 if rounds.ranks(state)[seat] == 1 else -1000.0
    mine = value.position(state, seat, keys)
    team = state["mode"] == "team"
    others = [value.position(state, s, keys) for s in range(state["n_players"])
              if s != seat and not (team and s % 2 == seat % 2)]
    return mine - (max(others) if others else 0.0)


def _ship(sid: int) -> str:
    return SHIPS[sid]["name"]


def _card(cid: int) -> str:
    return f"{ACTIONS[cid]['name']} #{cid}"


def _half(cid: int) -> str:
    """The Interception half: British dice and the Night symbol."""
    c = ACTIONS[cid]
    dice = "/".join(str(d) for d in c["icpt"])
    return f"{dice}{', night -1' if c['night'] else ''}"


@hookimpl
def game_describe_action(state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
    t = action.get("type")
    c = action.get("card")
    if t == "commit":
        night = " (night -1)" if ACTIONS[c]["night"] else ""
        use = {"icpt": f"as an interception by {_ship(action.get('ship', 0))}{night}",
               "brit": f"as a British-forces interception ({_half(c)})",
               "mines": f"to lay mines with {_ship(action.get('ship', 0))}",
               "act": "for its action"}[action["use"]]
        return f"commit {_card(c)} {use}"
    if t == "play":
        entry = (
            next((e for e in state["this_turn"]["committed"] if e["card"] == c), None)
            if state["this_turn"]
            else None
        )
        use = entry["use"] if entry else "act"
        if use == "icpt":
            bits = [f"{_ship(entry['ship'])} intercepts with {_card(c)}"]
        elif use == "brit":
            bits = [f"British forces intercept with {_card(c)} ({_half(c)})"]
        elif use == "mines":
            bits = [f"{_ship(entry['ship'])} lays mines with {_card(c)}"]
        else:
            bits = [f"play {_card(c)}"]
        if "mode" in action:
            bits.append(f"({action['mode']})")
        if "target" in action:
            tg = action["target"]
            owner = state["ships"][tg]["owner"] if state["ships"][tg] else "?"
            bits.append(f"at {_ship(tg)} (seat {owner})")
        if "target_seat" in action:
            bits.append(f"against seat {action['target_seat']}")
        return " ".join(bits)
    if t == "attach":
        extra = action.get("extra")
        more = f" adding {', '.join(_ship(s) for s in extra)}" if extra else ""
        return f"attach {_card(c)}{more}"
    if t == "react":
        bits = [f"react with {_card(c)}"]
        if "keep" in action:
            bits.append(f"keeping only {_ship(action['keep'])}")
        if "swap" in action:
            bits.append(f"swapping in {_ship(action['swap'])}")
        if "took" in action:
            bits.append(f"for {_ship(action['took'])}")
        if "ship" in action:
            bits.append(f"on {_ship(action['ship'])}")
        return " ".join(bits)
    if t == "board":
        return f"send a {_card(c)}"
    if t == "keep":
        ships = action["ships"]
        return "keep " + (", ".join(_ship(s) for s in ships) if ships else "no ship")
    if t == "order":
        return "order the deck top first: " + ", ".join(_card(x) for x in action["cards"])
    if t == "give":
        return f"give {_card(c)} to your teammate"
    if t == "leave_refuge":
        mate = " and joins your teammate" if action.get("to_mate") else ""
        return f"{_ship(action['ship'])} leaves its Island Refuge{mate}"
    if t == "discard":
        a, b = action["top"]
        return f"discard, leaving {_card(b)} on top of {_card(a)}"
    if t == "order_targets":
        return "mines hit " + ", ".join(_ship(s) for s in action["ships"]) + " in this order"
    if t == "to_mate":
        ships = action["ships"]
        return "give " + (", ".join(_ship(s) for s in ships) if ships else "no ship") + \
            " to your teammate"
    if t == "resupply":
        return f"resupply {_ship(action['ship'])} from prize {_ship(action['prize'])}"
    if t == "passage":
        return f"{_ship(action['ship'])} tries Passage to a friendly port"
    if t == "pass" and state["pending"] and state["pending"]["kind"] == "passage":
        return f"{_ship(state['pending']['ships'][0])} stays at sea (no Passage attempt)"
    if t == "pursue":
        if state["pending"] and state["pending"]["kind"] == "shallows":
            return "pursue into the shallows (both ships cross, then attack)"
        return "pursue the fast merchant (no -2, Limited Supply check after)"
    return {"done": "done", "pass": "no reaction", "end_turn": "end the turn"}.get(t, str(t))
