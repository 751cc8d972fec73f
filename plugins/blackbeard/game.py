"""The lantable hooks of Blackbeard (BB-S)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction, hookimpl

from . import board, flow, text, views
from .data import HOSTAGES

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
    },
    "traits": {"chance": True, "hidden_information": True, "simultaneous": False},
}


@hookimpl
def game_info() -> dict[str, Any]:
    return INFO


@hookimpl
def game_setup(seats: int, options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if options["max_turns"] < 1:
        raise IllegalAction("max_turns must be at least 1")
    S = board.new_state(seats, dict(options), rng, [])
    flow.start_game(S)
    return S


@hookimpl
def game_to_act(state: dict[str, Any]) -> list[int]:
    return flow.to_act(state)


@hookimpl
def game_legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return flow.legal(state, seat)


@hookimpl
def game_apply(state: dict[str, Any], seat: int, action: dict[str, Any],
               rng: random.Random) -> list[dict[str, Any]]:
    return flow.apply(state, seat, action, rng)


@hookimpl
def game_view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return views.view(state, seat)


@hookimpl
def game_scores(state: dict[str, Any]) -> dict[str, Any]:
    return flow.scores(state)


@hookimpl
def game_sample_state(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
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
    return total


@hookimpl
def game_heuristic(state: dict[str, Any], seat: int) -> float:
    """My worth minus the best other seat's, in VP (greedy and mcts use it)."""
    mine = worth(state, seat)
    others = [worth(state, s) for s in range(state["n_players"]) if s != seat]
    return mine - max(others)


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
