"""Hidden decks, sans-IO: dealing cards no peer can see, the host included (the first
step of docs/fair-play.md, "Hidden decks"; not yet wired into a game or the wire).

Commutative masking on ristretto255, a prime-order group (SRA-style, with per-card
keys), through libsodium's ristretto255 functions (the ``rbcl`` binding):

1. **Cards are points.** Card ``i`` of a deck is ``from_hash(SHA-512(tag || i))``;
   everyone can compute the list, no one knows a discrete log between two cards.
2. **Shuffle pass.** Each seat in turn permutes the deck with its own secret
   permutation and multiplies every card by its secret shuffle scalar ``a``. After
   every seat, no seat knows the order.
3. **Lock pass.** Each seat in turn replaces its shuffle scalar on every position
   ``j`` by a per-card scalar ``k_j`` (multiplies by ``a^-1 * k_j``). Now every
   position is locked by one scalar of every seat, so one card can be opened without
   opening the others.
4. **Dealing position j to seat t.** Every other seat hands ``t`` its unlock key
   ``k_j^-1`` for that position; ``t`` applies them and its own. Only ``t`` holds every
   key, so only ``t`` sees the card; the host, which relays, lacks ``t``'s key.
   **If the result is not a known card, it is detected at once** (:class:`DeckError`).
   Opening a card to everyone: every seat publishes its key for that position.
5. **Audit.** When the game ends every seat publishes its secrets; :func:`audit`
   recomputes every pass and names the seat whose published deck does not follow
   from the previous one (a replaced card, a wrong key).

What this does not yet give (docs/fair-play.md): a proof *during* play that a shuffle
is a permutation (a cheating seat is named at the first bad card or at the audit, not
before), and a game API through which a game asks for a hidden deal.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

import rbcl

from .deck_errors import DeckError

__all__ = ["DeckError", "DeckSeat", "DeckSecrets", "audit", "card_points", "invert_all",
           "open_card"]

Point = bytes  # a ristretto255 point, 32 bytes
Scalar = bytes  # a ristretto255 scalar, 32 bytes, little-endian mod the group order


class DeckSecrets(TypedDict):
    """What :meth:`DeckSeat.secrets` publishes at the end of a game for the audit."""

    shuffle_key: Scalar
    permutation: list[int]
    card_keys: list[Scalar]


def _mul(scalar: Scalar, point: Point) -> Point:
    product: Point = rbcl.crypto_scalarmult_ristretto255(scalar, point)
    return product


def _smul(a: Scalar, b: Scalar) -> Scalar:
    product: Scalar = rbcl.crypto_core_ristretto255_scalar_mul(a, b)
    return product


def _inv(a: Scalar) -> Scalar:
    inverse: Scalar = rbcl.crypto_core_ristretto255_scalar_invert(a)
    return inverse


def invert_all(scalars: Sequence[Scalar]) -> list[Scalar]:
    """The inverse of every scalar, with one inversion and three multiplications each
    (Montgomery's trick: an inversion costs some 60 multiplications of scalars; issue 29,
    a seat's unlock keys of a deck are all inverses of its card keys).

    Raises:
        ValueError: a scalar is zero (as :func:`_inv` does, for the first zero).
    """
    if not scalars:
        return []
    prefix = [scalars[0]]
    for a in scalars[1:]:
        prefix.append(_smul(prefix[-1], a))
    if not any(prefix[-1]):  # a zero among them: invert one by one, to name it as before
        return [_inv(a) for a in scalars]
    out: list[Scalar] = [b""] * len(scalars)
    acc = _inv(prefix[-1])  # the inverse of the whole product
    for i in range(len(scalars) - 1, 0, -1):
        out[i] = _smul(acc, prefix[i - 1])
        acc = _smul(acc, scalars[i])
    out[0] = acc
    return out


def card_points(tag: str, n: int) -> list[Point]:
    """The public points of cards ``0..n-1`` of the deck named ``tag`` (e.g. the game
    and the deck's name): hash-to-group, so no relation between cards is known."""
    return [rbcl.crypto_core_ristretto255_from_hash(
        hashlib.sha512(f"lantable-card-v1\x00{tag}\x00{i}".encode()).digest()) for i in range(n)]


@dataclass
class DeckSeat:
    """One seat's secrets for one deck of ``n`` cards."""

    n: int
    shuffle_key: Scalar = field(default_factory=rbcl.crypto_core_ristretto255_scalar_random)
    permutation: list[int] = field(default_factory=list)
    card_keys: list[Scalar] = field(default_factory=list)
    _unlock: list[Scalar] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.permutation:
            order = list(range(self.n))
            secrets.SystemRandom().shuffle(order)
            self.permutation = order
        if not self.card_keys:
            self.card_keys = [rbcl.crypto_core_ristretto255_scalar_random() for _ in range(self.n)]

    def shuffle_pass(self, deck: Sequence[Point]) -> list[Point]:
        """Permute (position ``j`` gets the card at ``permutation[j]``) and mask."""
        return [_mul(self.shuffle_key, deck[src]) for src in self.permutation]

    def lock_pass(self, deck: Sequence[Point]) -> list[Point]:
        """Swap the shuffle mask for one key per position."""
        unshuffle = _inv(self.shuffle_key)
        return [_mul(_smul(unshuffle, key), card) for key, card in zip(self.card_keys, deck,
                                                                          strict=True)]

    def unlock_key(self, position: int) -> Scalar:
        """What this seat hands over to let ``position`` be opened (by its recipient,
        or by everyone): the inverse of its key there (all of them computed at the
        first call, :func:`invert_all`)."""
        if not self._unlock:
            self._unlock = invert_all(self.card_keys)
        return self._unlock[position]

    def secrets(self) -> DeckSecrets:
        """Everything, published at the end of the game for the audit."""
        return {"shuffle_key": self.shuffle_key, "permutation": list(self.permutation),
                "card_keys": list(self.card_keys)}


def open_card(locked: Point, unlock_keys: Sequence[Scalar], cards: Sequence[Point]) -> int:
    """The card at a locked position, given every seat's unlock key for it.

    Raises:
        DeckError: the result is not a card of the deck (a wrong key or a replaced
            card): detected at once, by whoever opens it.
    """
    point = locked
    if unlock_keys:  # one multiplication by the keys' product: the group is commutative
        key = unlock_keys[0]
        for more in unlock_keys[1:]:
            key = _smul(key, more)
        point = _mul(key, point)
    try:
        return list(cards).index(point)
    except ValueError:
        raise DeckError("the unlocked card is not a card of this deck: a key or a pass "
                        "was wrong") from None


def audit(cards: Sequence[Point], shuffled: Sequence[Sequence[Point]],
          locked: Sequence[Sequence[Point]], seats: Sequence[DeckSecrets]) -> list[str]:
    """Recompute every published pass from the seats' published secrets.

    ``shuffled[s]`` and ``locked[s]`` are the decks seat ``s`` published after its
    shuffle pass and its lock pass (in seat order); ``seats[s]`` its :meth:`secrets`.
    Returns one sentence per seat whose pass does not follow (empty: all honest).
    """
    found = []
    deck: Sequence[Point] = cards
    for s, secret in enumerate(seats):
        seat = DeckSeat(len(cards), secret["shuffle_key"], secret["permutation"],
                        secret["card_keys"])
        if sorted(seat.permutation) != list(range(len(cards))):
            found.append(f"seat {s}: its permutation is not a permutation of the deck")
        elif seat.shuffle_pass(deck) != list(shuffled[s]):
            found.append(f"seat {s}: its shuffle pass does not follow from the deck before it "
                         "(a card was replaced)")
        deck = shuffled[s]
    for s, secret in enumerate(seats):
        seat = DeckSeat(len(cards), secret["shuffle_key"], secret["permutation"],
                        secret["card_keys"])
        if seat.lock_pass(deck) != list(locked[s]):
            found.append(f"seat {s}: its lock pass does not follow from the deck before it")
        deck = locked[s]
    return found
