"""Pirates of the Spanish Main (WizKids), advanced rules, 2 to 4 seats: the lantable
game plugin.

Rules digest sections are cited throughout; the project's rules page is
``docs/rules/pirates-spanish-main.md``. Modules: :mod:`.geometry` (pure shapes and
exact integer poses), :mod:`.hull` (a ship's shape), :mod:`.motion` (sailing to first
contact), :mod:`.deal` (set-up), :mod:`.world` (state-based predicates), :mod:`.turn`
(the turn and its actions), :mod:`.combat` (shooting, damage, ramming, boarding),
:mod:`.explore` (exploring ships and wrecks), :mod:`.multiplayer` (the 3+ player
sheet), :mod:`.views` (views and scores), :mod:`.queries` (answers from a seat's view),
:mod:`.bots` (discretisation, heuristic, sampling), :mod:`.words` (text for people),
and the optional rules :mod:`.terrain`, :mod:`.forts` and :mod:`.monsters`.
The designed starter set (not official cards) is ``data.json``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction, hookimpl

from . import bots, deal, hidden, queries, turn, views, words

if TYPE_CHECKING:
    import random

INFO = {
    "id": "pirates-spanish-main",
    "title": "Pirates of the Spanish Main",
    "version": "1.0",
    "min_seats": 2,
    "max_seats": 4,
    # mcts as measured in bench/spanish_main.py: rollouts scored by the chance to be
    # ahead (the default reward), no margin term
    "bots": {"mcts": {"margin_weight": 0}},
    "options": {
        "points": {"default": 40, "help": "3.1: fleet points per player (random fleets)"},
        "fleets": {"default": "sample", "choices": ["sample", "random"],
                   "help": "3.1: the designed sample fleets A and B of 9.3, or random "
                           "legal fleets of the starter set up to 'points'"},
        "unique_treasure": {"default": False,
                            "help": "3.7 / A-5: each player adds one designed unique "
                                    "treasure (Lodestone Compass, Golden Idol)"},
        "multiplayer_mode": {"default": "official_sheet",
                             "choices": ["official_sheet", "threshold"],
                             "help": "6.3, 3-4 players only: the WizKids multiplayer sheet "
                                     "(gold goes home face down, the end token, most gold "
                                     "at the end wins) or the 2-player threshold of 7.2"},
        "max_rounds": {"default": 40,
                       "help": "7.4: the fallback round cap; then most gold wins"},
        "terrain": {"default": 0, "min": 0, "max": 3,
                    "help": "3.4: terrain pieces per player (fog banks, reefs, Sargasso "
                            "seas, laid out by the game), 0 for none"},
        "forts": {"default": False,
                  "help": "2.8 / 5.17: each fleet buys a designed fort (Coastal Battery, "
                          "6 points and 6 gold), built during play on a wild island"},
        "monsters": {"default": False,
                     "help": "2.9 / 5.16: each fleet buys a designed sea monster (Reef "
                             "Serpent, 8 points) that dives, surfaces, shoots and pins"},
        "hidden_deck": {"default": False, "choices": [False, True],
                        "help": "treasure tokens are positions of a deck the seats deal, so "
                        "a fair table with hidden decks keeps their values from the host too "
                        "(not with forts; unique treasure is claimed by its first explorer)"},
        "broadside_captain": {"default": False,
                              "help": "5.15: a Captain lets a Broadside Attack ship move "
                                      "and broadside in one action (default: no, the "
                                      "keyword allows no other ability on its shot)"},
        "S_mm": {"default": 57.5, "help": "2.3: the S measure in millimetres"},
        "L_mm": {"default": 83.8, "help": "2.3: the L measure in millimetres"},
    },
    "traits": {"chance": True, "hidden_information": True, "simultaneous": False},
    # random games always run to the round cap (40 rounds, ~350 actions for two
    # players): the conformance suite plays 10 rounds, enough to sail, dock, explore,
    # shoot and sink, in a quarter of the time
    "conformance_options": {"max_rounds": 10},
    # The browser previews a filled move template with the `course` query (queries.py):
    # the query is the filled action with its type replaced (docs/plugins.md, "Templates").
    "template_queries": {"move": "course"},
}


@hookimpl
def game_info() -> dict[str, Any]:
    return INFO


@hookimpl
def game_setup(seats: int, options: dict[str, Any], rng: random.Random,
               decks: Any) -> dict[str, Any]:
    if options.get("hidden_deck"):  # treasure tokens are positions (hidden.py)
        return hidden.new_state(seats, options, rng, decks)
    return deal.setup(seats, options, rng)


@hookimpl
def game_decks(seats: int, options: dict[str, Any]) -> dict[str, int] | None:
    return hidden.decks_for(seats, options)


@hookimpl
def game_cards_opened(state: dict[str, Any], deck: str, cards: dict[int, int],
                      seat: int | None, decks: Any, shown: bool) -> list[dict[str, Any]]:
    return hidden.cards_opened(state, deck, cards, seat, decks, shown)


@hookimpl
def game_seat_actions(view: dict[str, Any], seat: int,
                      cards: dict[str, dict[int, int]]) -> list[dict[str, Any]]:
    return hidden.seat_actions(view, seat, cards)


@hookimpl
def game_to_act(state: dict[str, Any]) -> list[int]:
    return turn.to_act(state)


@hookimpl
def game_legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """In the order of :mod:`.turn`'s docstring; ``move``, ``pivot``, ``rotate`` and
    ``galley_pivot`` are templates (``lantable.plugins.params``)."""
    if "held" in state.get("hidden", ()):  # unique treasure, hidden deck: with claims
        return hidden.legal(state, seat)
    return turn.legal(state, seat)


@hookimpl
def game_apply(state: dict[str, Any], seat: int, action: dict[str, Any],
               rng: random.Random, decks: Any) -> list[dict[str, Any]]:
    if "params" in action:
        raise IllegalAction("fill the template's params before sending it")
    if "hidden" in state:
        return hidden.apply(state, seat, action, rng, decks)
    return turn.apply(state, seat, action, rng)


@hookimpl
def game_view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return views.view(state, seat)


@hookimpl
def game_scores(state: dict[str, Any]) -> dict[str, Any]:
    return views.scores(state)


@hookimpl
def game_discretise(state: dict[str, Any], seat: int,
                    template: dict[str, Any]) -> list[dict[str, Any]] | None:
    """Moves: every measure on one heading, for the 8 compass points and a heading at
    each island and enemy ship (the engine stops at first contact); turns: the 8
    compass points that fit. Works on a view (clients) as well as on the state."""
    return bots.discretise(state, seat, template)


@hookimpl
def game_heuristic(state: dict[str, Any], seat: int) -> float:
    return bots.heuristic(state, seat)


@hookimpl
def game_sample_state(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    if view.get("hidden_deck"):  # a state in the hidden deck's form, with its dealer
        return hidden.sample_hidden(view, seat, rng)
    return bots.sample_state(view, seat, rng)


@hookimpl
def game_query(view: dict[str, Any], seat: int | None, query: dict[str, Any]) -> Any:
    """The queries of :mod:`.queries` (sail, course, dock_approaches,
    shootable_targets, ram_candidates), answered from ``view`` alone."""
    return queries.answer(view, seat, query)


@hookimpl
def game_describe_action(state: dict[str, Any], seat: int, action: dict[str, Any],
                         names: list[str]) -> str | None:
    """From the seat's view (clients pass it as ``state``)."""
    return words.describe_action(state, seat, action, names)


@hookimpl
def game_describe_event(view: dict[str, Any], seat: int | None, event: dict[str, Any],
                        names: list[str]) -> str | None:
    return words.describe_event(view, seat, event, names)


@hookimpl
def game_render_text(view: dict[str, Any], seat: int | None, names: list[str]) -> str:
    return words.render(view, seat, names)


from .undo import game_undo_barrier  # noqa: E402, F401 - undo by consent (host/undo.py)
from .web_board import game_web_renderer  # noqa: E402, F401 - the browser board (web/board.js)
