"""Blackbeard (GMT 2008) as BB-S, the simplified rule set, 2-5 seats.

The errata are law (A1-A29), the published tables are data (``data.json``), and every
gap is filled by a labelled proposal; ``docs/rules/blackbeard.md`` says which is which.
Modules: ``data`` (the data file, validated), ``board`` (state layout, set-up, shared
rules), ``flow`` (the Player-Turn and the frame machine), ``pirate`` (card plays and
pirate actions), ``anti`` (AP windows, KCs, warships, battles, events), ``views``
(views and sampling), ``text`` (words for people), ``game`` (the hooks).
"""

from .game import (
    game_apply,
    game_cards_opened,
    game_decks,
    game_describe_action,
    game_describe_event,
    game_heuristic,
    game_info,
    game_legal_actions,
    game_render_text,
    game_sample_state,
    game_scores,
    game_seat_actions,
    game_setup,
    game_to_act,
    game_view,
    game_web_renderer,
)

__all__ = [
    "game_apply",
    "game_cards_opened",
    "game_decks",
    "game_describe_action",
    "game_describe_event",
    "game_heuristic",
    "game_info",
    "game_legal_actions",
    "game_render_text",
    "game_sample_state",
    "game_scores",
    "game_seat_actions",
    "game_setup",
    "game_to_act",
    "game_view",
    "game_web_renderer",
]

from .undo import game_undo_barrier  # noqa: E402 - undo by consent (host/undo.py)

__all__ += ["game_undo_barrier"]
