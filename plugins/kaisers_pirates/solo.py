"""Solitaire (digest 8.2): the phantom player, driven by the Solitaire deck."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import random

State = dict[str, Any]
Events = list[dict[str, Any]]


def decide(S: State, rng: random.Random, ev: Events) -> None:
    from . import turn
    pend = S["pend"]
    legal = turn.legal_actions(S, 1)
    turn.apply_legal(S, 1, legal[0], rng, ev)


def phantom_turn(S: State, rng: random.Random, ev: Events) -> None:
    S["T"]["ph"] = "end"


def phantom_keep(S: State) -> list[int]:
    return []
