"""The game's own words for an update: a label per legal action, a sentence per event.

A browser runs JavaScript and cannot call a game's Python hooks, so a connection that
says ``hello.words`` gets them in each update (``labels``, ``sentences``;
docs/protocol.md). They come from the same hooks, through the same
:class:`~lantable.plugins.Game` facade, that the terminal client calls on its own
side: one contract for both clients (docs/decisions.md, "Words travel with updates").

Built from what the recipient may see (its own view and its filtered events), never
from the full state, so the words leak nothing the view does not. A game whose
describe hook raises falls back to the generic words: a bug in wording must not
fault a table.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from lantable.plugins.registry import generic_event_sentence

from .textboard import board_blocks

if TYPE_CHECKING:
    from lantable.plugins import Game

LOGGER = logging.getLogger(__name__)


def seat_names(names: list[str | None]) -> list[str]:
    """A display name for every seat ("seat 2" for an empty one)."""
    return [name or f"seat {i}" for i, name in enumerate(names)]


def update_words(game: Game, view: Any, seat: int | None, legal: list[dict[str, Any]] | None,
                 events: list[dict[str, Any]] | None, names: list[str],
                 board: bool = False) -> dict[str, Any]:
    """``labels`` (one per legal action) and ``sentences`` (one per event) for one
    recipient's update; a key is left out when its list is. With ``board`` (a game
    without a browser board of its own), also ``board_text``: the game's text board as
    blocks (host/textboard.py)."""
    out: dict[str, Any] = {}
    if board and view is not None:
        out["board_text"] = text_board(game, view, seat, names)
    if legal is not None and seat is not None:
        out["labels"] = [_label(game, view, seat, action, names) for action in legal]
    if events is not None:
        out["sentences"] = [_sentence(game, view, seat, event, names) for event in events]
    return out


def text_board(game: Game, view: Any, seat: int | None, names: list[str]) -> list[dict[str, Any]]:
    """``game_render_text`` (or the generic board) as blocks; a board that raises is
    one sentence saying so, not a faulted table."""
    try:
        return board_blocks(game.render_text(view, seat, names))
    except Exception:
        LOGGER.exception("game %s: game_render_text failed; no text board sent", game.id)
        return [{"kind": "text", "text": "The game could not draw its board for this move."}]


def _label(game: Game, view: Any, seat: int, action: dict[str, Any], names: list[str]) -> str:
    try:
        return game.describe(view, seat, action, names)
    except Exception:
        LOGGER.exception("game %s: game_describe_action failed; generic label used", game.id)
        rest = ", ".join(f"{k}={v}" for k, v in action.items() if k != "type")
        return f"{action.get('type')}({rest})" if rest else str(action.get("type"))


def _sentence(game: Game, view: Any, seat: int | None, event: dict[str, Any],
              names: list[str]) -> str:
    try:
        return game.describe_event(view, seat, event, names)
    except Exception:
        LOGGER.exception("game %s: game_describe_event failed; generic sentence used", game.id)
        return generic_event_sentence(event, names)
