"""Kaiser's Pirates (I Pirati del Kaiser), 1-4 seats: WWI commerce raiding card game.

The hooks live in :mod:`.game`; the rules, designed values and decisions are in
``docs/rules/kaisers-pirates.md`` (section numbers are the rulebook's, R x.y, or
those of the project's rules digest).
"""

from .game import (
    game_apply,
    game_cards_opened,
    game_decks,
    game_heuristic,
    game_info,
    game_legal_actions,
    game_sample_state,
    game_scores,
    game_seat_actions,
    game_setup,
    game_to_act,
    game_view,
)
from .text import game_describe_action, game_describe_event, game_render_text

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
]

from .web_board import game_web_renderer  # noqa: E402 - the browser board (web/board.js)

__all__ += ["game_web_renderer"]

from .undo import game_undo_barrier  # noqa: E402 - undo by consent (host/undo.py)

__all__ += ["game_undo_barrier"]
