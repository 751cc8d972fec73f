"""Kaiser's Pirates' client-side half: a seat's legal actions from that seat's view
alone (the first part of the hidden-deck port, docs/fair-play.md, "Kaiser's Pirates").

The host lists legal actions from the full state (:func:`.turn.legal_actions`), which
holds every hand. At a table with hidden decks the host no longer knows the hands, so
the seat must list its own choices from what it may know: its view (the public
table, its own hand, its own face-down commitments, what it saw with Intelligence).

:func:`client_state` rebuilds a state from the view in which every Action card the
seat cannot see is a *masked token* (:data:`MASKED` + a serial number): a value that
is no card id, so any rule that read an unseen card would fail loudly (``ACTIONS[token]``
is an ``IndexError``) instead of quietly reading a wrong card. :func:`legal_actions`
then runs the very same rules as the host; ``tests/plugins/kaisers_pirates/test_client.py``
plays seeded games of every seat count and checks, at every decision, that its list
equals the host's, order included.
"""

from __future__ import annotations

import random
from itertools import count
from typing import Any

from . import turn, views
from .state import State

MASKED = 1_000_000  # no Action card has an id this large

View = dict[str, Any]


def is_masked(card: Any) -> bool:
    return isinstance(card, int) and card >= MASKED


def client_state(view: View, seat: int) -> State:
    """A state holding exactly what ``view`` (``seat``'s view) tells: a sample of it
    (:func:`.views.sample`) in which every Action card the seat has not seen for sure
    (other hands, others' face-down commitments, the undrawn deck, a face-down discard
    pile) is a masked token."""
    S = views.sample(view, seat, random.Random(0))
    serial = count(MASKED)
    for i, p in enumerate(S["players"]):
        if i != seat:
            p["hand"] = [next(serial) for _ in p["hand"]]
    T, Tv = S["this_turn"], view["this_turn"]
    if T is not None:
        for e, ev in zip(T["committed"], Tv["committed"], strict=True):
            if ev["card"] is None:
                e["card"] = next(serial)
    if view["discards"] is None:
        S["discards"] = [next(serial) for _ in S["discards"]]
    S["action_unseen"] = [next(serial) for _ in S["action_unseen"]]
    return S


def legal_actions(view: View, seat: int) -> list[dict[str, Any]]:
    """``seat``'s legal actions from its own view: the host's list, in the host's order."""
    if view.get("seat") != seat:
        raise ValueError(f"this view is seat {view.get('seat')!r}'s, not seat {seat}'s")
    return turn.legal_actions(client_state(view, seat), seat)
