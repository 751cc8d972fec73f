"""Face-down decks, kept as the *set* of cards left: a card is drawn when it is turned over.

A shuffled deck stored in the state would hold the order of every card still to come,
and whoever holds the state (the host) could read it, even at a fair table
(docs/fair-play.md). So no face-down pile here has an order: each is a **sorted** list,
and :func:`take` picks one card with the ``rng`` at the moment the rules turn it over.
One uniform pick among the cards left, then another among the rest, gives exactly the
odds of a shuffled deck; at a fair table each pick is part of a random event fixed by
every seat's link, so nobody can know the next card before the action that draws it.

The piles: the two ship decks (``german_deck``, ``merchant_deck``), the Solitaire deck
(``solo.deck``) and the Action deck. The Action deck has two parts:
``action_unseen``, the cards nobody has seen this round (the draw pile *and* the cards
set aside by R 2.1, in no order: which ones are set aside is never decided, they are
simply the ``set_aside_n`` cards still there when the round ends), and
``action_deck_top``, the cards a player looked at and arranged with Intelligence
(R 3.3.17), top first: only they have an order, because a player gave them one.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from .state import State

if TYPE_CHECKING:
    import random


def take(pile: list[int], rng: random.Random) -> int:
    """Remove and return a uniformly random card of the sorted ``pile`` (it stays sorted)."""
    return pile.pop(rng.randrange(len(pile)))


def put(pile: list[int], card: int) -> None:
    """Put ``card`` into the sorted ``pile`` (a card going back into a deck)."""
    insort(pile, card)


def next_unseen(S: State, rng: random.Random) -> int:
    """The next unseen Action card: one at random of the set, or, with a hidden deck
    (:mod:`.masked`), the next position of the deck's masked order."""
    if S.get("hidden") is not None:
        return S["action_unseen"].pop(0)
    return take(S["action_unseen"], rng)


def action_left(S: State) -> int:
    """Action cards still to draw this round (R 4.7: anyone may count them)."""
    return len(S["action_deck_top"]) + len(S["action_unseen"]) - S["set_aside_n"]


def draw_action(S: State, rng: random.Random) -> int:
    """Turn over the top Action card: an arranged one if any, else one of the unseen."""
    if S["action_deck_top"]:
        return S["action_deck_top"].pop(0)
    return next_unseen(S, rng)


def look_at_top(S: State, rng: random.Random, n: int) -> list[int]:
    """The top ``n`` Action cards, top first (Intelligence): the arranged ones, then as
    many unseen ones as it takes, drawn now and from now on part of the arranged top."""
    top = S["action_deck_top"]
    while len(top) < n:
        top.append(next_unseen(S, rng))
    return top[:n]
