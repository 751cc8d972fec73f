"""The lantable hooks of Blackbeard (BB-S)."""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction, hookimpl

from . import board, flow, hidden, text, views
from .data import COST, HOSTAGES, MERCHANTS, PIRATES, PORTS, PORTS_IN, SHIPS, neighbours

if TYPE_CHECKING:
    import random

_BOOL = [False, True]
# D.4: every open question of the digest is a table option with the digest's default.
INFO: dict[str, Any] = {
    "id": "blackbeard",
    "title": "Blackbeard (BB-S, errata 2008)",
    "version": "0.1",
    "min_seats": 2,
    "max_seats": 5,
    # mcts as measured in bench/blackbeard_bots.py: rollouts ranked by the heuristic,
    # with the heuristic margin mixed into each node's value (the default weight)
    "bots": {"mcts": {"reward": "rank"}},
    "options": {
        "game_length": {"default": "standard", "choices": ["standard", "long"],
                        "help": "standard: ends at the 3rd General Pardon; long: two passes "
                        "through the deck, General Pardons only in the second"},
        "phase6_mode": {"default": "hand_limit", "choices": ["hand_limit", "none"],
                        "help": "Q1: Phase 6 discards down to 4 Event cards (Pirate cards "
                        "never count, A1), or no hand limit"},
        "allow_forfeit_actions": {"default": True, "choices": _BOOL,
                                  "help": "Q2: unused Actions may be given up to play more cards"},
        "ap_event_copies_per_type": {"default": 1, "choices": [1, 2],
                                     "help": "Q3: copies of his one AP Event type a player may "
                                     "play in one AP action"},
        "warship_triggers": {"default": "find,loot,attack_port",
                             "choices": ["find,loot,attack_port", "loot,attack_port",
                                         "find,loot,attack_port,sack"],
                             "help": "Q4: the pirate actions of 6.41 a warship may attack "
                             "(Convert always, errata A11)"},
        "search_tie": {"default": "pirate", "choices": ["pirate", "warship"],
                       "help": "Q5: who wins a tied warship search"},
        "kc_reaction_triggers": {"default": "move,leave_port,find,loot,convert,attack_port",
                                 "choices": ["move,leave_port,find,loot,convert,attack_port",
                                             "find,loot,convert,attack_port"],
                                 "help": "Q6: the pirate actions of 10.31 a KC may react to"},
        "intercept_tie": {"default": "kc", "choices": ["kc", "pirate"],
                          "help": "Q7: who wins a tied KC interception"},
        "kc_ap_action_scope": {"default": "global", "choices": ["global", "per_ap_player"],
                               "help": "Q8: one KC AP action per Player-Turn at the table "
                               "(KC #7 Play Note), or one per AP player"},
        "kc_react_same_action_as_deploy": {"default": True, "choices": _BOOL,
                                           "help": "Q9: a KC commissioned during a pirate "
                                           "action may react to that same action (KC #6)"},
        "forced_dr_gains_loyalty": {"default": True, "choices": _BOOL,
                                    "help": "Q10: D&R forced by the D&R card raises Loyalty too"},
        "dr_other_bonus": {"default": 1, "choices": [0, 1, 2],
                           "help": "Q11: Loyalty gained by D&R at sea after a loot"},
        "dr_can_escape": {"default": False, "choices": _BOOL,
                          "help": "Q12: a pirate in D&R may choose Escape"},
        "battle_tie": {"default": "reroll", "choices": ["reroll", "pirate", "opponent"],
                       "help": "Q13: a tied battle is re-rolled or won by one side"},
        "torture_rule": {"default": "le_cruelty", "choices": ["le_cruelty", "gt_cruelty"],
                         "help": "Q14: torture succeeds on 1d6 <= Cruelty, or > Cruelty"},
        "battle_won_resumes": {"default": True, "choices": _BOOL,
                               "help": "Q15: a won battle lets the interrupted action go on"},
        "cunning_on_storm": {"default": True, "choices": _BOOL,
                             "help": "Q16: Cunning may re-roll the pirate's Storm roll"},
        "governors_module": {"default": False, "choices": _BOOL,
                             "help": "BB-S optional module G: AP players may appoint "
                             "Anti-Pirate Governors (no entry, no bribes in that port)"},
        "max_turns": {"default": 300, "help": "proposed safety limit: the game ends after "
                      "this many Player-Turns even if nobody plays cards"},
        "hidden_deck": {"default": False, "choices": _BOOL,
                        "help": "hands and face-down merchants hold positions of decks the "
                        "seats deal, so a fair table with hidden decks can deal them unseen, "
                        "by the host too"},
    },
    "traits": {"chance": True, "hidden_information": True, "simultaneous": False},
}


@hookimpl
def game_info() -> dict[str, Any]:
    return INFO


@hookimpl
def game_setup(seats: int, options: dict[str, Any], rng: random.Random,
               decks: Any) -> dict[str, Any]:
    if options["max_turns"] < 1:
        raise IllegalAction("max_turns must be at least 1")
    if options.get("hidden_deck"):  # hands and merchants are positions (hidden.py)
        return hidden.new_state(seats, options, rng, decks)
    # The plain state is the one before hidden decks, key for key (behaviour digests).
    S = board.new_state(seats, {k: v for k, v in options.items() if k != "hidden_deck"}, rng, [])
    flow.start_game(S)
    return S


@hookimpl
def game_to_act(state: dict[str, Any]) -> list[int]:
    return flow.to_act(state)


@hookimpl
def game_legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    if "hidden" in state:  # from the cards the state knows (where the host deals)
        return hidden.seat_actions(views.view(state, seat), seat, {})
    return flow.legal(state, seat)


@hookimpl
def game_apply(state: dict[str, Any], seat: int, action: dict[str, Any],
               rng: random.Random, decks: Any) -> list[dict[str, Any]]:
    if "hidden" in state:
        return hidden.apply(state, seat, action, rng, decks)
    return flow.apply(state, seat, action, rng)


@hookimpl
def game_decks(options: dict[str, Any]) -> dict[str, int] | None:
    return hidden.decks_for(options)


@hookimpl
def game_cards_opened(state: dict[str, Any], deck: str, cards: dict[int, int],
                      seat: int | None, decks: Any) -> list[dict[str, Any]]:
    return hidden.cards_opened(state, deck, cards, seat, decks)


@hookimpl
def game_seat_actions(view: dict[str, Any], seat: int,
                      cards: dict[str, dict[int, int]]) -> list[dict[str, Any]]:
    if view.get("hidden_deck"):
        return hidden.seat_actions(view, seat, cards)
    return flow.legal(hidden.client_state(view, seat, view["hand"]), seat)


@hookimpl
def game_view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return views.view(state, seat)


@hookimpl
def game_scores(state: dict[str, Any]) -> dict[str, Any]:
    return flow.scores(state)


@hookimpl
def game_sample_state(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    if view.get("hidden_deck"):  # a state in the hidden decks' form, with its dealer
        return hidden.sample_hidden(view, seat, rng)
    return views.sample(view, seat, rng)


# What a doubloon is worth, in VP/100, by where it is. Only retired pirates bank Net
# Worth (D.2.12); at the end, a pirate still at sea scores his Notoriety and nothing of
# his wealth, and the end comes at a random draw. So wealth at sea counts at under half
# its retired value, and retiring turns it into full VP: with these weights a bribe
# (500, 2d6 <= 7) pays from about 1,200 Net Worth and a Safe Haven (1,000) from about
# 2,000, and banking booty pays even at the half rate of an unfriendly port. A pirate
# who owns a Safe Haven can retire there on his next turn, so his Net Worth counts
# nearly in full. Tuned by mcts-against-random self-play (bench numbers in
# docs/rules/blackbeard.md).
NET_WORTH_AT_SEA, BOOTY, HOSTAGE, HAVEN = 0.45, 0.2, 0.2, 0.9


def worth(state: dict[str, Any], seat: int) -> float:
    """What a seat holds, in VP: its score, plus what its pirates at sea could still
    bank if they retired, discounted for risk, minus a little for a crew near mutiny."""
    total = float(state["ap_vp"][seat])
    for p in state["pirates"]:
        if p["owner"] != seat:
            continue
        if p["status"] in ("retired", "dead"):
            total += (
                p["notoriety"]
                + p["bonus_vp"]
                + (p["net_worth"] // 100 if p["status"] == "retired" else 0)
            )
        elif p["status"] == "map":
            cash = (HAVEN if p["safe_haven"] is not None else NET_WORTH_AT_SEA) * p["net_worth"]
            cash += BOOTY * board.booty(p)
            cash += HOSTAGE * 200 * sum(HOSTAGES[h]["value"] for h in p["hostages"])
            total += p["notoriety"] + cash / 100 - 0.5 * max(0, 3 - p["loyalty"])
            total += PROGRESS * prospects(state, p)
    turn = state["this_turn"]
    if turn is not None and state["turn_order"][state["turn_index"]] == seat:
        total += ACTION * turn["actions_left"]
    return total


# Progress (issue 24 item 18): a pirate's plan spans several Player-Turns (sail to a
# merchant, find it, loot it; sail to a port, attack it), and one ply of the worth
# above saw no step but the last. So a pirate at sea is also worth his best prospect:
# the expected VP of a loot or a port attack, discounted by the Moves it is away, a
# found merchant counting in full; and an unspent Action is worth a little, so that an
# Action card is played and an Action is spent only on a step that brings more.
PROGRESS, ACTION, STEP = 0.5, 0.25, 0.5
_DIST: dict[str, dict[str, int]] = {}


def _dist(start: str) -> dict[str, int]:
    if start not in _DIST:
        d, frontier = {start: 0}, [start]
        while frontier:
            nxt = [n for w in frontier for n in neighbours(w) if n not in d]
            for n in nxt:
                d[n] = d[[w for w in frontier if n in neighbours(w)][0]] + 1
            frontier = list(dict.fromkeys(nxt))
        _DIST[start] = d
    return _DIST[start]


def prospects(state: dict[str, Any], p: dict[str, Any]) -> float:
    """The best thing a pirate could do next, in expected VP, discounted by distance."""
    if p["status"] != "map" or board.in_dr(p):
        return 0.0
    here = p["area"]
    dist = _dist(here)
    ability = PIRATES[p["id"]]["ability"]
    room = len(p["holds"]) < SHIPS[p["ship"]]["holds"]
    find = max(0.0, min(1.0, (ability + 1 + p["sail_ho"] + min(1, p["information"]) - 1) / 6))
    best = 0.0
    for m in state["merchants"]:
        if m["area"] not in dist or (m["found_by"] is not None and m["found_by"] != p["id"]):
            continue
        cargo = MERCHANTS[m["id"]]["cargo"] if m["face_up"] else 1.5
        value = cargo + (BOOTY * 1000 / 100 if room else 0) + 0.5
        if m["found_by"] != p["id"]:
            value *= find
        steps = dist[m["area"]] + (1 if p["port"] is not None else 0)
        best = max(best, value * STEP ** steps)
    combat = p["combat"] + ability + (COST["heavy_guns_bonus"] if p["heavy_guns"] else 0)
    for area, ports in PORTS_IN.items():
        if area not in dist:
            continue
        for i in ports:
            port = PORTS[i]
            if port["nationality"] == "PIR" or state["governors"][i] == "anti":
                continue
            edge = combat - port["defense"]  # 2d6 + edge > 2d6
            win = max(0.05, min(0.95, 0.42 + 0.08 * edge))
            value = win * (2 * port["value"] + (BOOTY * 300 * port["value"] / 100)) - (1 - win)
            steps = dist[area] + (1 if p["port"] is not None else 0)
            best = max(best, value * STEP ** steps)
    return best


@hookimpl
def game_heuristic(state: dict[str, Any], seat: int) -> float:
    """My worth minus the best other seat's, in VP (greedy and mcts use it)."""
    mine = worth(state, seat)
    others = [worth(state, s) for s in range(state["n_players"]) if s != seat]
    return mine - max(others)


@hookimpl
def game_web_renderer() -> Any:
    """The browser board: ``web/board.js`` (package data)."""
    return resources.files(__package__) / "web"


@hookimpl
def game_describe_action(state: dict[str, Any], seat: int, action: dict[str, Any],
                         names: list[str]) -> str:
    return text.describe_action(state, seat, action, names)


@hookimpl
def game_describe_event(view: dict[str, Any], seat: int | None, event: dict[str, Any],
                        names: list[str]) -> str | None:
    return text.describe_event(view, seat, event, names)


@hookimpl
def game_render_text(view: dict[str, Any], seat: int | None, names: list[str]) -> Any:
    return text.render(view, seat, names)
