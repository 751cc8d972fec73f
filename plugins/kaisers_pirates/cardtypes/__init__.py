"""Every Action card type of Kaiser's Pirates, one class each, found by name.

Open the class of a card to read its whole rule: when it may be committed and
played, what it does, what may answer with it and what the solitaire phantom does
with it (the protocol is :class:`.base.CardType`). The modules by card family:
:mod:`.actions` (Normal and Team cards), :mod:`.assists`, :mod:`.reactions`.
"""

from __future__ import annotations

from typing import TypeVar

from ..data import TYPES
from .actions import ACTION_CARDS, Deception, FogBank, FollowUp, IslandRefuge
from .assists import ASSIST_CARDS
from .base import CardType, ReactionType, best, pseudo
from .reactions import (
    QQQ,
    REACTION_CARDS,
    FastShip,
    MistakenIdentity,
    Recalled,
    Reflag,
    ShallowRun,
)

_T = TypeVar("_T", bound=CardType)

#: card type name (``data.ACTIONS[c]["type"]``) -> its definition
CARD_TYPES: dict[str, CardType] = {t.name: t for t in ACTION_CARDS + ASSIST_CARDS + REACTION_CARDS}
#: context kind -> the Reaction types that may answer it, in a fixed order
REACTIONS_TO: dict[str, tuple[ReactionType, ...]] = {
    k: tuple(r for r in REACTION_CARDS if k in r.against)
    for k in ("interception", "british", "mines", "torpedo", "aimed")
}
#: Solitaire column entry -> the card type the phantom performs (R 5.4.3 items 4-11)
PHANTOM_ENTRIES: dict[str, CardType] = {e: t for t in CARD_TYPES.values()
                                        for e in t.phantom_entries}
#: a decision a card's effect asks for (``S["pending"]["kind"]``) -> that card type
FOLLOW_UPS: dict[str, FollowUp] = {t.follow_up: t for t in CARD_TYPES.values()
                                   if isinstance(t, FollowUp)}


def _the(name: str, cls: type[_T]) -> _T:
    """The one instance of a card type other modules call by name."""
    card = CARD_TYPES[name]
    if not isinstance(card, cls):
        raise TypeError(f"{name} is a {type(card).__name__}, not a {cls.__name__}")
    return card


DECEPTION = _the("deception", Deception)
FOG_BANK = _the("fog_bank", FogBank)
ISLAND_REFUGE = _the("island_refuge", IslandRefuge)
REFLAG = _the("reflag", Reflag)
SHALLOW_RUN = _the("shallow_run", ShallowRun)
RECALLED = _the("recalled", Recalled)
FAST_SHIP = _the("fast_ship", FastShip)
QQQ_CARD = _the("qqq", QQQ)
MISTAKEN_IDENTITY = _the("mistaken_identity", MistakenIdentity)

_missing = {t[0] for t in TYPES} ^ set(CARD_TYPES)
if _missing:  # every card type of data.py has exactly one definition
    raise ImportError(f"card types without a definition: {sorted(_missing)}")
_wrong_kind = sorted(t for t, _name, k, _n in TYPES if CARD_TYPES[t].kind != k)
if _wrong_kind:  # and its class says the same kind (N, A, R, T) as the card data
    raise ImportError(f"card types whose class has the wrong kind: {_wrong_kind}")

__all__ = ["CARD_TYPES", "FOLLOW_UPS", "PHANTOM_ENTRIES", "REACTIONS_TO", "CardType", "best",
           "pseudo"]
