"""A hidden deal between seats, sans-IO: the signed messages and the host's side of
dealing a masked deck (the step after :mod:`.hidden_deck`; docs/fair-play.md,
"Hidden decks"). Not yet carried by the wire or used by a game.

Who does what:

- :class:`DeckPlayer` is one seat: it runs its shuffle and lock passes, hands out its
  unlock keys for positions dealt to others, and opens the positions dealt to it.
- :class:`DealHost` is the table's host. It holds **no scalar**: it orders the passes
  (every seat's shuffle, then every seat's lock, in seat order), checks each message
  (the seat's signature, its turn, a pass of ``n`` valid and distinct group
  elements) and names the seat whose message does not check; it relays each unlock
  key to the one seat it is for, and journals everything. A seat's own key for a
  position dealt to it never leaves that seat, so the host can open nothing.

Every message is a plain map (msgpack-ready; hex for points and scalars) signed by
its seat's fair-play key (:class:`~lantable.protocol.fairplay.Identity`) over
``["lantable-fairplay-v1", t, table, deck, seat, …]``:

=============== ===========================================================================
``deck_pass``   ``stage`` ("shuffle" or "lock"), ``points`` (n hex points); signed over
                ``stage`` and the tagged hash of the points
``deck_key``    ``to`` (the recipient seat, or None: open to everyone), ``pos``, ``key``
``deck_secrets`` the seat's secrets, published when the deal is over, for the audit
=============== ===========================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import rbcl

from . import fairplay as fp
from .hidden_deck import (
    DeckError,
    DeckSeat,
    DeckSecrets,
    Point,
    Scalar,
    audit,
    card_points,
    open_card,
)

STAGES = ("shuffle", "lock")


def _seat(m: Mapping[str, Any]) -> int:
    """The seat a message claims, or -1 when it claims none (for :class:`DealError`)."""
    seat = m.get("seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else -1


class DealError(DeckError):
    """A deal message that does not check; ``seat`` is the seat it names (-1: none)."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(f"seat {seat}: {message}")
        self.seat = seat


def points_digest(points: Sequence[str]) -> str:
    return fp.tagged_hash("deck", list(points))


def _pass_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["stage"], points_digest(m["points"]))


def _key_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["to"], m["pos"], m["key"])


def _secrets_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["shuffle_key"], m["permutation"],
            m["card_keys"])


class DeckPlayer:
    """One seat's side of one hidden deck of ``n`` cards at ``table``."""

    def __init__(self, identity: fp.Identity, table: str, deck: str, seat: int, n: int) -> None:
        self.identity, self.table, self.deck, self.seat = identity, table, deck, seat
        self.secret = DeckSeat(n)
        self.cards = card_points(f"{table}/{deck}", n)
        self.locked: list[Point] = []  # the final deck, once every lock pass is in
        self._keys: dict[int, dict[int, Scalar]] = {}  # pos -> {seat: unlock key}

    def _msg(self, t: str, fields: Callable[[Mapping[str, Any]], tuple[Any, ...]],
             **body: Any) -> dict[str, Any]:
        m = {"t": t, "table": self.table, "deck": self.deck, "seat": self.seat, **body}
        m["sig"] = self.identity.sign(t, *fields(m))
        return m

    def pass_(self, stage: str, deck: Sequence[str]) -> dict[str, Any]:
        """This seat's ``stage`` pass over the deck the previous seat published."""
        points = [bytes.fromhex(p) for p in deck]
        out = (self.secret.shuffle_pass(points) if stage == "shuffle"
               else self.secret.lock_pass(points))
        return self._msg("deck_pass", _pass_fields, stage=stage, points=[p.hex() for p in out])

    def key(self, pos: int, to: int | None) -> dict[str, Any]:
        """The unlock key for ``pos``, for seat ``to`` (None: for everyone)."""
        return self._msg("deck_key", _key_fields, to=to, pos=pos,
                         key=self.secret.unlock_key(pos).hex())

    def receive_key(self, m: Mapping[str, Any]) -> None:
        self._keys.setdefault(m["pos"], {})[m["seat"]] = bytes.fromhex(m["key"])

    def open(self, pos: int, seats: int) -> int:
        """The card at ``pos``, once every other seat's key for it is in.

        Raises:
            DeckError: a key is missing, or the result is not a card of the deck.
        """
        keys = self._keys.get(pos, {})
        missing = sorted(set(range(seats)) - {self.seat} - set(keys))
        if missing:
            raise DeckError(f"position {pos}: no unlock key yet from seat(s) {missing}")
        return open_card(self.locked[pos], [*keys.values(), self.secret.unlock_key(pos)],
                         self.cards)

    def open_public(self, pos: int, keys: Sequence[Mapping[str, Any]]) -> int:
        """A card opened to everyone: every seat's key, this one's included, is public."""
        return open_card(self.locked[pos], [bytes.fromhex(k["key"]) for k in keys], self.cards)

    def secrets(self) -> dict[str, Any]:
        s = self.secret
        return self._msg("deck_secrets", _secrets_fields, shuffle_key=s.shuffle_key.hex(),
                         permutation=list(s.permutation),
                         card_keys=[k.hex() for k in s.card_keys])


class DealHost:
    """The host's side of one hidden deck: orders, checks, relays and journals.

    Args:
        table, deck: what the deck is (its cards are ``card_points("table/deck", n)``).
        n: the number of cards; ``keys``: every seat's public key, by seat number.
    """

    def __init__(self, table: str, deck: str, n: int, keys: Sequence[str]) -> None:
        self.table, self.deck, self.n, self.keys = table, deck, n, list(keys)
        self.cards = card_points(f"{table}/{deck}", n)
        self.passes: dict[str, list[list[Point]]] = {s: [] for s in STAGES}
        self.journal: list[dict[str, Any]] = []
        self.owner: dict[int, int | None] = {}  # pos -> the seat it is dealt to (None: public)

    @property
    def seats(self) -> int:
        return len(self.keys)

    def expected(self) -> tuple[str, int] | None:
        """Whose pass comes next: (stage, seat), or None when the deck is locked."""
        for stage in STAGES:
            if len(self.passes[stage]) < self.seats:
                return stage, len(self.passes[stage])
        return None

    def current(self) -> list[str]:
        """The deck as it stands: what the next seat's pass starts from."""
        last = self.passes["lock"] or self.passes["shuffle"]
        return [p.hex() for p in (last[-1] if last else self.cards)]

    def _check_sig(self, m: Mapping[str, Any], fields: tuple[Any, ...]) -> None:
        seat = _seat(m)
        if not 0 <= seat < self.seats:
            raise DealError(-1, f"no seat {m.get('seat')!r} at this table")
        if (m.get("table"), m.get("deck")) != (self.table, self.deck):
            raise DealError(seat, "the message is for another table or deck")
        try:
            fp.verify_signature(self.keys[seat], m["sig"], m["t"], *fields)
        except (fp.FairPlayError, ValueError, KeyError) as exc:
            raise DealError(seat, f"its {m.get('t')} does not check: {exc}") from None

    def receive_pass(self, m: Mapping[str, Any]) -> None:
        """A seat's pass: its turn, signed, ``n`` valid and distinct points.

        Raises:
            DealError: naming the seat; nothing is kept.
        """
        want = self.expected()
        seat = _seat(m)
        if want is None or (m.get("stage"), seat) != want:
            raise DealError(seat, f"a {m.get('stage')} pass out of turn (waiting for {want})")
        try:
            self._check_sig(m, _pass_fields(m))
            points = [fp.unhex(p, "point") for p in m["points"]]
        except (fp.FairPlayError, KeyError, TypeError) as exc:
            raise DealError(seat, f"its pass is malformed: {exc}") from None
        if len(points) != self.n:
            raise DealError(seat, f"its pass has {len(points)} cards, the deck {self.n}")
        if not all(rbcl.crypto_core_ristretto255_is_valid_point(p) for p in points):
            raise DealError(seat, "its pass holds a value that is not a group element")
        if len(set(points)) != self.n:
            # Masking is a bijection: distinct cards stay distinct. A duplicate is a
            # replaced card, caught here instead of when both copies are opened.
            raise DealError(seat, "its pass holds the same card twice (a card was replaced)")
        self.passes[m["stage"]].append(points)
        self.journal.append(dict(m))

    def deal(self, pos: int, to: int | None) -> list[int]:
        """Deal ``pos`` to seat ``to`` (None: open it to everyone); returns the seats
        whose key for it the host must now ask for."""
        if self.expected() is not None:
            raise DeckError("the deck is not locked yet")
        if pos in self.owner:
            raise DeckError(f"position {pos} was already dealt")
        self.owner[pos] = to
        return [s for s in range(self.seats) if s != to]

    def receive_key(self, m: Mapping[str, Any]) -> int | None:
        """A seat's unlock key: checked and journalled; returns the seat to relay it to
        (None: to everyone, the card is public).

        Raises:
            DealError: not signed by its seat, or for a position not dealt that way.
        """
        seat = _seat(m)
        try:
            self._check_sig(m, _key_fields(m))
            fp.unhex(m["key"], "key")
        except (fp.FairPlayError, KeyError, TypeError) as exc:
            raise DealError(seat, f"its key is malformed: {exc}") from None
        pos, to = m.get("pos"), m.get("to")
        if pos not in self.owner or self.owner[pos] != to or seat == to:
            raise DealError(seat, f"a key for position {pos} to {to} that was not asked for")
        self.journal.append(dict(m))
        return to

    def audit(self, secrets: Sequence[Mapping[str, Any]]) -> list[str]:
        """Check every seat's published secrets against its passes (after the game)."""
        found = []
        for m in secrets:
            try:
                self._check_sig(m, _secrets_fields(m))
            except DealError as exc:
                found.append(str(exc))
        parsed = [DeckSecrets(shuffle_key=bytes.fromhex(m["shuffle_key"]),
                              permutation=list(m["permutation"]),
                              card_keys=[bytes.fromhex(k) for k in m["card_keys"]])
                  for m in sorted(secrets, key=lambda m: m["seat"])]
        return found + audit(self.cards, self.passes["shuffle"], self.passes["lock"], parsed)
