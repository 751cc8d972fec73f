"""Nero's client-side half: a seat's legal actions computed from that seat's view alone.

The host lists legal actions from the full state (:func:`.engine.legal_actions`), which
holds every hand. At a table with hidden decks (docs/fair-play.md, "Hidden decks") the
host no longer knows the hands, so the seat must list its own choices: from what it
may know, its view (the public state, its own hand, its own battle commitment).

:func:`legal_actions` rebuilds a state from the view in which every card the seat
cannot see is a *masked token* (:data:`.hands.MASKED` + a serial number): a value that is no
card id, so that any rule reading an unseen card fails loudly (``CARDS[token]`` is an
``IndexError``) instead of quietly reading a wrong card. It then runs the very same
rules as the host. ``tests/plugins/nero/test_client.py`` plays many seeded games and
checks, at every decision, that this list equals the host's, order included.
"""

from __future__ import annotations

import pickle
from typing import Any

from . import engine
from .data import NCARDS
from .hands import MASKED, is_masked
from .views import PUBLIC

__all__ = ["MASKED", "client_state", "is_masked", "legal_actions"]

State = dict[str, Any]
View = dict[str, Any]


def client_state(view: View, seat: int) -> State:
    """A state holding exactly what ``view`` (``seat``'s view) tells: the public fields,
    the seat's own hand, and a masked token for every card it cannot see (other hands,
    the face-down box, another seat's battle commitment)."""
    S: State = pickle.loads(pickle.dumps({k: view[k] for k in PUBLIC},
                                         pickle.HIGHEST_PROTOCOL))
    serial = iter(range(MASKED, MASKED + 10 * NCARDS))
    S["hands"] = [list(view["hand"]) if s == seat else [next(serial) for _ in range(size)]
                  for s, size in enumerate(view["hand_sizes"])]
    S["box_face_down"] = [next(serial) for _ in range(view["box_face_down_count"])]
    pending = pickle.loads(pickle.dumps(view["own_pending"], pickle.HIGHEST_PROTOCOL))
    for item in pending:
        if item["kind"] == "battle":
            item["committed"] = {s: cs if isinstance(cs, list) else
                                 [next(serial) for _ in range(cs)]
                                 for s, cs in item["committed"].items()}
    S["pending"] = pending
    return S


def legal_actions(view: View, seat: int) -> list[dict[str, Any]]:
    """``seat``'s legal actions from its own view: the host's list, in the host's order."""
    if view.get("seat") != seat:
        raise ValueError(f"this view is seat {view.get('seat')!r}'s, not seat {seat}'s")
    return engine.legal_actions(client_state(view, seat), seat)
