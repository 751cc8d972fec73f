"""Handing a dealt card from one seat to another without the host seeing it, sans-IO
(the step after :mod:`.hidden_deal`, for a card that changes hands: Nero's Traitor).

Position ``j`` was dealt to seat A: every other seat's unlock key for ``j`` went to A
through the host, so the host holds all of them; only A's own key ``u_A`` keeps the
card from it. Handing ``j`` to seat B by sending B that key in the clear, through the
host, would give the host the last key it lacks: it would open the card. So A unlocks
a *blinded* copy instead:

1. the other seats (not A, not B) hand B their keys for ``j``, as in a deal;
2. B draws a secret scalar ``r`` and sends ``Q = r * locked[j]`` (``deck_blind``);
3. A answers ``R = u_A * Q`` (``deck_unblind``);
4. B opens ``r^-1 * u_B * (the others' keys) * R``, the card. A wrong answer gives a
   point that is no card: detected at once, and the answer is signed by A.

The host sees ``Q`` and ``R`` and every key but B's; without ``r`` they tell it
nothing (``R`` is the card masked by ``r`` and B's key, under the same assumption as
the masking itself). Messages are signed like :mod:`.hidden_deal`'s:

================ ==============================================================
``deck_blind``   ``seat`` (B), ``pos``, ``giver`` (A), ``point`` (hex ``Q``)
``deck_unblind`` ``seat`` (A), ``pos``, ``to`` (B), ``point`` (hex ``R``)
================ ==============================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import rbcl

from . import fairplay as fp
from .hidden_deal import DealError, DeckPlayer
from .hidden_deck import DeckError, _inv, _mul


def _blind_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["pos"], m["giver"], m["point"])


def _unblind_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["pos"], m["to"], m["point"])


class Receiver:
    """Seat B's side of receiving position ``pos`` from seat ``giver``."""

    def __init__(self, player: DeckPlayer, pos: int, giver: int) -> None:
        self.player, self.pos, self.giver = player, pos, giver
        self._r = rbcl.crypto_core_ristretto255_scalar_random()

    def request(self) -> dict[str, Any]:
        p = self.player
        m = {"t": "deck_blind", "table": p.table, "deck": p.deck, "seat": p.seat,
             "pos": self.pos, "giver": self.giver,
             "point": _mul(self._r, p.locked[self.pos]).hex()}
        m["sig"] = p.identity.sign("deck_blind", *_blind_fields(m))
        return m

    def open(self, answer: Mapping[str, Any], seats: int) -> int:
        """The card, from the giver's answer and every other seat's key.

        Raises:
            DeckError: a key is missing, or the result is not a card (a wrong answer).
        """
        p = self.player
        keys = dict(p._keys.get(self.pos, {}))  # noqa: SLF001 - the keys it received
        missing = sorted(set(range(seats)) - {p.seat, self.giver} - set(keys))
        if missing:
            raise DeckError(f"position {self.pos}: no unlock key yet from seat(s) {missing}")
        point = bytes.fromhex(answer["point"])
        for key in [_inv(self._r), p.secret.unlock_key(self.pos), *keys.values()]:
            point = _mul(key, point)
        try:
            return list(p.cards).index(point)
        except ValueError:
            raise DeckError(f"position {self.pos}: seat {self.giver}'s answer opens no card "
                            "of this deck") from None


def answer(player: DeckPlayer, request: Mapping[str, Any]) -> dict[str, Any]:
    """Seat A's answer: its key for the position, applied to B's blinded point."""
    m = {"t": "deck_unblind", "table": player.table, "deck": player.deck, "seat": player.seat,
         "pos": request["pos"], "to": request["seat"],
         "point": _mul(player.secret.unlock_key(request["pos"]),
                       bytes.fromhex(request["point"])).hex()}
    m["sig"] = player.identity.sign("deck_unblind", *_unblind_fields(m))
    return m


def check(keys: Sequence[str], table: str, deck: str, m: Mapping[str, Any],
          pos: int, giver: int, to: int) -> None:
    """The host's check of a ``deck_blind`` (from ``to``) or ``deck_unblind`` (from
    ``giver``) for handing ``pos`` from ``giver`` to ``to``.

    Raises:
        DealError: naming the seat whose message does not check.
    """
    blind = m.get("t") == "deck_blind"
    seat = to if blind else giver
    want = {"table": table, "deck": deck, "seat": seat, "pos": pos,
            **({"giver": giver} if blind else {"to": to})}
    if any(m.get(k) != v for k, v in want.items()):
        raise DealError(seat, f"a {m.get('t')} that was not asked for")
    try:
        fields = _blind_fields(m) if blind else _unblind_fields(m)
        fp.verify_signature(keys[seat], m["sig"], m["t"], *fields)
        point = fp.unhex(m["point"], "point")
    except (fp.FairPlayError, KeyError, TypeError, ValueError) as exc:
        raise DealError(seat, f"its {m.get('t')} does not check: {exc}") from None
    if not rbcl.crypto_core_ristretto255_is_valid_point(point):
        raise DealError(seat, "its point is not a group element")
