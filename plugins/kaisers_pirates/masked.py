"""Masked Action cards, for the hidden-deck form of the game (:mod:`.hidden`).

With the option ``hidden_deck`` the host never holds an Action card nobody has turned
over: in its place the state holds a *masked token*, ``MASKED + round * ROUND + pos``,
position ``pos`` of that round's shuffle of the deck. A token is no card id, so a rule
that read one would fail loudly (``ACTIONS[token]`` is an ``IndexError``); when the
card is opened to everyone every copy of its token is replaced by the card.

Deep in the rules a deal, a hand-over, a look or a turn face up is written as a
marker event (:func:`marker`); :mod:`.hidden` turns the markers into requests to the
table's ``decks`` and drops them. Without the option no marker is ever written.
"""

from __future__ import annotations

from typing import Any

from .state import Events, State

MASKED = 1_000_000  # no Action card id is this large
ROUND = 1_000  # positions of one round (a deck has fewer cards)
MARKER = "deck"


def hidden(S: State) -> bool:
    """Whether this game keeps its Action cards as masked positions."""
    return S.get("hidden") is not None


def token(rnd: int, pos: int) -> int:
    return MASKED + rnd * ROUND + pos


def is_masked(card: Any) -> bool:
    return type(card) is int and card >= MASKED


def split(tok: int) -> tuple[int, int]:
    """``(round, pos)`` of a token."""
    return divmod(tok - MASKED, ROUND)


def marker(ev: Events, op: str, cards: list[int], seat: int | None = None) -> None:
    """Ask for the masked ``cards`` (real cards are skipped: they are public) to be
    dealt (``deal``: to ``seat``), given to ``seat`` (``give``), shown to ``seat``
    (``show``) or turned face up (``open``)."""
    toks = [c for c in cards if is_masked(c)]
    if toks:
        ev.append({"type": MARKER, "op": op, "tokens": toks, "seat": seat})
