"""Nero (the Year of the Four Emperors), 3 or 4 seats: the lantable game plugin.

Rules and every decision taken where the rulebook is silent: ``docs/rules/nero.md``;
the view a seat receives and the actions: ``docs/games/nero.md``. The state, key by
key: :mod:`.state`. The map and the cards: :mod:`.data`. Flow of play: :mod:`.engine`;
movement and battles: :mod:`.moves`; Events and any-time answers: :mod:`.events`; views
and sampling: :mod:`.views`; words for people and the bots' heuristic: :mod:`.people`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lantable.plugins import hookimpl

from . import board as B
from . import client, engine, hidden, people, sentences, views

if TYPE_CHECKING:
    import random

_B = [False, True]
INFO: dict[str, Any] = {
    "id": "nero",
    "title": "Nero: the Year of the Four Emperors",
    "version": "0.1",
    "min_seats": 3,
    "max_seats": 4,
    "options": {
        "short_game": {"default": False, "choices": _B,
                       "help": "R 3.0 step 5: 6 cards a Game Turn (8 with 3 players)"},
        "youngest": {"default": 0, "help": "M10: the seat of the youngest player, who "
                     "starts Game Turn 1"},
        "reactions": {"default": "all", "choices": ["all", "holders"],
                      "help": "any-time answers: ask every seat with cards, so nobody learns "
                      "who holds what (all), or ask only the seats holding a fitting card: "
                      "faster, but it shows everyone, spectators too, who holds one "
                      "(holders)"},
        "stop_windows": {"default": "contact", "choices": ["contact", "every_step"],
                         "help": "6.2 #3, #5: offer Bad Weather and Wounded General when an "
                         "army sets out, enters other players' Legions or attacks "
                         "(contact), or also at every step it takes (every_step)"},
        "captured_marker": {"default": "joins", "choices": ["joins", "stays"],
                            "help": "a captured Legion under a Retreat marker loses the marker "
                            "and joins the winning army (R 6.4, joins), or keeps it and "
                            "stays where it was taken (R 5.6, stays)"},
        "tie_break": {"default": "shared", "choices": ["shared", "areas_legions"],
                      "help": "M9: equal VP share the win, or more Areas, then Legions"},
        "a2_assassin_corruption": {"default": "mirror", "choices": ["mirror", "strict"],
                                   "help": "A2: each 2 Corruption the assassin plays void one "
                                   "blocking Guard, or they cannot be played"},
        "a3_two_emperors": {"default": "card", "choices": ["card", "contender"],
                            "help": "A3: Legion Declares needs at most one Emperor, or may "
                            "always make a Contender"},
        "a5_pickup": {"default": "flat", "choices": ["flat", "per_legion"],
                      "help": "A5: pick-up fee once per province entry, or per Legion"},
        "a6_fatigue_fee": {"default": False, "choices": _B,
                           "help": "A6: war fatigue also raises the passage fee"},
        "a7_passage": {"default": "refusers", "choices": ["refusers", "all"],
                       "help": "A7: beat only the players who refused passage, or all"},
        "a9_contender_rome": {"default": True, "choices": _B,
                              "help": "A9: a Contender in Rome may also declare (R 7.1)"},
        "a10_leader_fee": {"default": True, "choices": _B,
                           "help": "A10: a Leader alone pays +1 MP for passage"},
        "a11_fleet": {"default": "split", "choices": ["split", "entire"],
                      "help": "A11: Wounded General keeps only the Leader from sailing, "
                      "or cancels the whole Galley Fleet"},
        "a12_retreat": {"default": "own_or_free", "choices": ["own_or_free", "no_enemy"],
                        "help": "A12: retreat where no enemy Legion is or own Legions are, "
                        "or only where no enemy Legion is"},
        "a14_empty_area": {"default": "count", "choices": ["count", "exclude"],
                           "help": "A14: the empty Area of a 3-seat game counts for "
                           "automatic victory and DP (never VP), or for nothing"},
        "a15_germanic": {"default": "total", "choices": ["total", "extra"],
                         "help": "A15: entering a Germanic Tribes province costs 3 MP, "
                         "or 3 more"},
        "a17_retry": {"default": True, "choices": _B,
                      "help": "A17: a failed declaration in Rome may be retried this round"},
        "a19_leader_retreats": {"default": False, "choices": _B,
                                "help": "A19: the Leader retreats with his Legions"},
        "a20_attack_uncontrolled": {"default": False, "choices": _B,
                                    "help": "A20: Uncontrolled Legions may be attacked (they "
                                    "play no battle cards and capture nothing)"},
        "a21_tie_scope": {"default": "army", "choices": ["army", "player"],
                          "help": "A21: after a tied battle the army, or the player, may "
                          "not attack again this round"},
        "a22_legion_cap": {"default": False, "choices": _B,
                           "help": "A22: cap each player at his 20 Legion markers (a capture "
                           "or recruit beyond them does not happen)"},
        "a23_weather_after_attack": {"default": True, "choices": _B,
                                     "help": "A23: Bad Weather may still stop an announced "
                                     "attack before the cards are revealed"},
        "hidden_deck": {"default": False, "choices": _B,
                        "help": "hands hold positions of a deck the seats deal, so a fair "
                        "table with hidden decks can deal them unseen, by the host too"},
        "a24_revolt": {"default": "owner", "choices": ["owner", "player"],
                       "help": "A24: the Base owner brings the Legions and all Legions there "
                       "rebel, or the card player brings them and only the owner's rebel"},
    },
    "traits": {"chance": True, "hidden_information": True, "simultaneous": True},
    # Random moves say little about a Nero position and a ranking hides how far ahead a
    # seat is: mcts scores its leaves with the heuristic itself (bench/nero_bots.py;
    # measured with no margin term).
    "bots": {"mcts": {"rollout_depth": 0, "reward": "heuristic", "margin_weight": 0}},
}


@hookimpl
def game_info() -> dict[str, Any]:
    return INFO


@hookimpl
def game_setup(seats: int, options: dict[str, Any], rng: random.Random,
               decks: Any) -> dict[str, Any]:
    if options.get("hidden_deck"):
        return hidden.new_state(seats, options, rng, decks)
    return engine.new_state(seats, options, rng, [])


@hookimpl
def game_decks(options: dict[str, Any]) -> dict[str, int] | None:
    return hidden.decks_for(options)


@hookimpl
def game_cards_opened(state: dict[str, Any], cards: dict[int, int], seat: int | None,
                      decks: Any) -> list[dict[str, Any]]:
    return hidden.cards_opened(state, cards, seat, decks)


@hookimpl
def game_seat_actions(view: dict[str, Any], seat: int,
                      cards: dict[str, dict[int, int]]) -> list[dict[str, Any]]:
    if view.get("hidden_deck"):
        return hidden.seat_actions(view, seat, cards)
    return client.legal_actions(view, seat)


@hookimpl
def game_to_act(state: dict[str, Any]) -> list[int]:
    return engine.to_act(state)


@hookimpl
def game_legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    if "hidden" in state:  # from the cards the state knows (where the host deals)
        return hidden.seat_actions(views.view(state, seat), seat, {})
    return engine.legal_actions(state, seat)


@hookimpl
def game_apply(state: dict[str, Any], seat: int, action: dict[str, Any],
               rng: random.Random, decks: Any) -> list[dict[str, Any]]:
    if "hidden" in state:
        return hidden.apply(state, seat, action, rng, decks)
    return engine.apply(state, seat, action, rng)


@hookimpl
def game_view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return views.view(state, seat)


@hookimpl
def game_view_parts(state: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return views.public(state), [views.own(state, s) for s in range(state["n_players"])]


@hookimpl
def game_scores(state: dict[str, Any]) -> dict[str, Any]:
    return {"scores": list(state["vp"]), "rank": B.ranks(state),
            "detail": {"automatic_victory": state["automatic_winner"],
                       "game_turn": state["game_turn"]}}


@hookimpl
def game_sample_state(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    if view.get("hidden_deck"):  # a state in the hidden deck's form, with its dealer
        return hidden.sample_hidden(view, seat, rng)
    return views.sample(view, seat, rng)


@hookimpl
def game_heuristic(state: dict[str, Any], seat: int) -> float:
    return people.heuristic(state, seat)


@hookimpl
def game_describe_action(state: dict[str, Any], seat: int, action: dict[str, Any],
                         names: list[str]) -> str:
    return people.describe_action(state, seat, action, names)


@hookimpl
def game_describe_event(view: dict[str, Any], seat: int | None, event: dict[str, Any],
                        names: list[str]) -> str | None:
    return sentences.describe_event(view, seat, event, names)


@hookimpl
def game_render_text(view: dict[str, Any], seat: int | None, names: list[str]) -> Any:
    return people.render(view, seat, names)

from .undo import game_undo_barrier  # noqa: E402, F401 - undo by consent (host/undo.py)
from .web_board import game_web_renderer  # noqa: E402, F401 - the browser board (web/board.js)
