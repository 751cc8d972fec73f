"""A hidden deal between seats, sans-IO: the signed messages and the host's side of
dealing a masked deck (the step after :mod:`.hidden_deck`; docs/fair-play.md,
"Hidden decks"). The host's table runs one :class:`DealHost` per round of each deck
(host/fairdecks.py), each seat one :class:`DeckPlayer` (clients/fairdecks.py).

Who does what:

- :class:`DeckPlayer` is one seat: it runs its shuffle and lock passes, hands out its
  unlock keys for positions dealt to others, and opens the positions dealt to it.
- :class:`DealHost` is the table's host. It holds **no scalar**: it orders the passes
  (every seat's shuffle, then every seat's lock, in seat order), checks each message
  (the seat's signature, its turn, a pass of ``n`` valid and distinct group
  elements) and names the seat whose message does not check; it carries each dealt
  position from seat to seat, each taking its own lock off the point (an *unlock
  step*), to the one seat it is for, and journals everything. **No key of a dealt
  position ever leaves its seat**: the host sees only points still locked by the
  recipient, so it can open nothing, also when a card changes hands (:meth:`DealHost.give`).
  Only a card turned face up has its keys published.

Every message is a plain map (msgpack-ready; hex for points and scalars) signed by
its seat's fair-play key (:class:`~lantable.protocol.fairplay.Identity`) over
``["lantable-fairplay-v1", t, table, deck, seat, …]``:

=============== ===========================================================================
``deck_pass``   ``stage`` ("shuffle" or "lock"), ``points`` (n hex points); signed over
                ``stage`` and the tagged hash of the points
``deck_step``   ``to`` (the recipient), ``pos``, ``point_in``, ``point`` (this seat's lock off)
``deck_steps``  ``steps``: ``[[to, pos, point_in, point], …]``, several unlock steps of one
                seat under one signature (what a host asks of a seat at once)
``deck_key``    ``to`` (None: the card is opened to everyone), ``pos``, ``key``
``deck_secrets`` the seat's secrets, published when the deal is over, for the audit
=============== ===========================================================================

A position *shown* to a seat (:meth:`DealHost.show`) travels by the same unlock steps
as one dealt; a claim made face down is a :func:`seal_digest`, checked once the card
is opened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import rbcl

from . import fairplay as fp
from .deck_errors import DealError
from .hidden_deck import (
    DeckError,
    DeckSeat,
    DeckSecrets,
    Point,
    Scalar,
    _mul,
    audit,
    card_points,
    open_card,
)

STAGES = ("shuffle", "lock")


def _seat(m: Mapping[str, Any]) -> int:
    """The seat a message claims, or -1 when it claims none (for :class:`DealError`)."""
    seat = m.get("seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else -1


def points_digest(points: Sequence[str]) -> str:
    return fp.tagged_hash("deck", list(points))


def _pass_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["stage"], points_digest(m["points"]))


def _key_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["to"], m["pos"], m["key"])


def _step_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["to"], m["pos"], m["point_in"], m["point"])


def _steps_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["steps"])


def _secrets_fields(m: Mapping[str, Any]) -> tuple[Any, ...]:
    return (m["table"], m["deck"], m["seat"], m["shuffle_key"], m["permutation"],
            m["card_keys"])


def seal_digest(table: str, deck: str, seat: int, pos: int, card: int, key: str) -> str:
    """The seal of a claim made face down (``"sealed"`` in an action): a hash of the
    round (``deck`` is ``"deck/round"``), the seat, the position, the card, and the
    seat's own unlock key for that position (hex), which no one else holds until the
    card is opened to everyone (it is then published): so nobody can test the seal
    against the deck's cards before then, and everyone can check it after."""
    return fp.tagged_hash("deck_seal", table, deck, seat, pos, card, key)


class DeckPlayer:
    """One seat's side of one hidden deck of ``n`` cards at ``table``."""

    def __init__(self, identity: fp.Identity, table: str, deck: str, seat: int, n: int) -> None:
        self.identity, self.table, self.deck, self.seat = identity, table, deck, seat
        self.secret = DeckSeat(n)
        self.cards = card_points(f"{table}/{deck}", n)
        self.locked: list[Point] = []  # the final deck, once every lock pass is in
        self._keys: dict[int, dict[int, Scalar]] = {}  # pos -> {seat: public unlock key}
        self._points: dict[int, Point] = {}  # pos dealt here -> the point only we can open

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

    def key(self, pos: int, to: int | None = None) -> dict[str, Any]:
        """The unlock key for ``pos``, published to open it to everyone (``to`` None)."""
        return self._msg("deck_key", _key_fields, to=to, pos=pos,
                         key=self.secret.unlock_key(pos).hex())

    def step(self, pos: int, to: int, point_in: str) -> dict[str, Any]:
        """Take this seat's lock off ``point_in`` (position ``pos`` on its way to seat
        ``to``): the key itself never leaves the seat."""
        out = _mul(self.secret.unlock_key(pos), fp.unhex(point_in, "point"))
        return self._msg("deck_step", _step_fields, to=to, pos=pos, point_in=point_in,
                         point=out.hex())

    def seal(self, pos: int, card: int) -> str:
        """This seat's seal of a face-down claim that ``pos`` (dealt to it) is ``card``
        (:func:`seal_digest`)."""
        return seal_digest(self.table, self.deck, self.seat, pos, card,
                           self.secret.unlock_key(pos).hex())

    def steps(self, asked: Sequence[tuple[int, int, str]]) -> dict[str, Any]:
        """Take this seat's lock off several points (``(pos, to, point_in)`` each), under
        one signature: ``deck_steps``."""
        steps = [[to, pos, point_in,
                  _mul(self.secret.unlock_key(pos), fp.unhex(point_in, "point")).hex()]
                 for pos, to, point_in in asked]
        return self._msg("deck_steps", _steps_fields, steps=steps)

    def receive_point(self, pos: int, point: str) -> None:
        """Position ``pos`` with every other seat's lock taken off: only ours is left."""
        self._points[pos] = bytes.fromhex(point)

    def receive_key(self, m: Mapping[str, Any]) -> None:
        self._keys.setdefault(m["pos"], {})[m["seat"]] = bytes.fromhex(m["key"])

    def open(self, pos: int) -> int:
        """The card at ``pos`` dealt to this seat, once its point has come.

        Raises:
            DeckError: no point yet, or the result is not a card of the deck.
        """
        if pos not in self._points:
            raise DeckError(f"position {pos}: not dealt to this seat (yet)")
        return open_card(self._points[pos], [self.secret.unlock_key(pos)], self.cards)

    def open_public(self, pos: int, keys: Sequence[Mapping[str, Any]] | None = None) -> int:
        """A card opened to everyone: every seat's key, this one's included, is public
        (``keys``, or those received)."""
        got = ([bytes.fromhex(k["key"]) for k in keys] if keys is not None
               else list(self._keys.get(pos, {}).values()))
        return open_card(self.locked[pos], got, self.cards)

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
        self.owner: dict[int, int | None] = {}  # pos -> the seat it is dealt to now
        self.opened: set[int] = set()  # positions turned face up
        self.chains: dict[int, dict[str, Any]] = {}  # pos -> {"to", "left": seats, "point"}
        self.asked: dict[int, set[int]] = {}  # pos being opened -> seats whose key is due
        self.got: dict[int, dict[int, dict[str, Any]]] = {}  # pos -> seat -> published key

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
        last = self.passes["lock"] or self.passes["shuffle"]
        if set(points) & set(last[-1] if last else self.cards):
            # A seat's mask or lock changes every card (a key of 1 is no key): a card
            # passed on as it came would open to no card once that seat's lock is taken
            # off, stalling the table with nobody named (issue 25, finding 6).
            raise DealError(seat, "its pass left a card as it came: every card must be "
                                  "masked with the seat's own key")
        self.passes[m["stage"]].append(points)
        self.journal.append(dict(m))

    def _unlocked(self) -> None:
        if self.expected() is not None:
            raise DeckError("the deck is not locked yet")

    def _chain(self, pos: int, to: int, own: bool = True) -> list[int]:
        """Start taking every lock but ``to``'s off ``pos``, seat after seat (``own``:
        ``to`` holds it afterwards; else it is only shown to ``to``)."""
        self._unlocked()
        if not 0 <= pos < self.n or not 0 <= to < self.seats:
            raise DeckError(f"no position {pos} or no seat {to}")
        if pos in self.chains and self.chains[pos]["left"]:
            raise DeckError(f"position {pos} is already on its way to seat "
                            f"{self.chains[pos]['to']}")
        left = [s for s in range(self.seats) if s != to]
        self.chains[pos] = {"to": to, "left": left, "point": self.current()[pos]}
        if own:
            self.owner[pos] = to
        return left

    def deal(self, pos: int, to: int | None) -> list[int]:
        """Deal ``pos`` to seat ``to`` (None: open it to everyone, :meth:`open`);
        returns the seats that take their lock off it, in order."""
        if to is None:
            return self.open(pos)
        if pos in self.owner:
            raise DeckError(f"position {pos} was already dealt")
        return self._chain(pos, to)

    def give(self, pos: int, to: int) -> list[int]:
        """A position dealt to one seat goes to seat ``to``: every other seat, the one
        that held it included, takes its lock off afresh. The host sees only points
        still locked by ``to``."""
        if self.owner.get(pos) is None:
            raise DeckError(f"position {pos} was not dealt to a seat, so it cannot be given")
        return self._chain(pos, to)

    def show(self, pos: int, to: int) -> list[int]:
        """Show ``pos`` to seat ``to`` without giving it: the same unlock steps as
        :meth:`give` (every seat but ``to``, its holder included, takes its lock off
        afresh), but the position stays where it is (its holder's, or undealt). The
        host sees only points still locked by ``to``."""
        if pos in self.opened:
            raise DeckError(f"position {pos} is open: there is nothing to show")
        if self.owner.get(pos) == to:
            raise DeckError(f"position {pos} is seat {to}'s own: there is nothing to show")
        return self._chain(pos, to, own=False)

    def open(self, pos: int) -> list[int]:
        """Turn ``pos`` face up: every seat publishes its key for it; returns them."""
        self._unlocked()
        if not 0 <= pos < self.n:
            raise DeckError(f"no position {pos} in a deck of {self.n}")
        if pos in self.opened:
            raise DeckError(f"position {pos} was already opened")
        self.opened.add(pos)
        seats = list(range(self.seats))
        self.asked[pos] = set(seats)
        return seats

    def waiting(self) -> dict[int, list[dict[str, Any]]]:
        """What each seat owes now: ``{"pos", "to", "point"}`` (take your lock off this
        point) for the next seat of each chain, ``{"pos", "to": None}`` (publish your
        key) for a position being opened."""
        out: dict[int, list[dict[str, Any]]] = {}
        for pos, chain in sorted(self.chains.items()):
            if chain["left"]:
                out.setdefault(chain["left"][0], []).append(
                    {"pos": pos, "to": chain["to"], "point": chain["point"]})
        for pos, seats in sorted(self.asked.items()):
            for s in sorted(seats):
                out.setdefault(s, []).append({"pos": pos, "to": None})
        return out

    def receive_step(self, m: Mapping[str, Any]) -> tuple[int, str] | None:
        """A seat took its lock off a point on its way to another seat: checked and
        journalled. Returns ``(to, point)`` when only ``to``'s lock is left on it.

        Raises:
            DealError: not this seat's turn on that position, not from the point the
                host gave, not a group element, or not signed by the seat.
        """
        seat = _seat(m)
        chain = self.chains.get(m.get("pos"))  # type: ignore[arg-type]
        if chain is None or not chain["left"] or chain["left"][0] != seat \
                or chain["to"] != m.get("to") or chain["point"] != m.get("point_in"):
            raise DealError(seat, f"an unlock step on position {m.get('pos')} that was not "
                                  "asked of it")
        try:
            self._check_sig(m, _step_fields(m))
            point = fp.unhex(m["point"], "point")
        except (fp.FairPlayError, KeyError, TypeError) as exc:
            raise DealError(seat, f"its unlock step is malformed: {exc}") from None
        if not rbcl.crypto_core_ristretto255_is_valid_point(point):
            raise DealError(seat, "its unlock step is not a group element")
        chain["left"].pop(0)
        chain["point"] = m["point"]
        self.journal.append(dict(m))
        return None if chain["left"] else (chain["to"], m["point"])

    def receive_steps(self, m: Mapping[str, Any]) -> list[tuple[int, int, str]]:
        """Several unlock steps of one seat under one signature (``deck_steps``): all
        checked (each asked of this seat, from the point the host gave, a group
        element) before any is taken; journalled as one. Returns ``(to, pos, point)``
        for each position that only ``to``'s lock is left on now.

        Raises:
            DealError: naming the seat and the positions; nothing is kept.
        """
        seat = _seat(m)
        steps = m.get("steps")
        if not isinstance(steps, list) or not steps or not all(
                isinstance(x, list) and len(x) == 4 for x in steps):
            raise DealError(seat, "its unlock steps are malformed: not a list of "
                                  "[to, pos, point_in, point]")
        positions = [x[1] for x in steps]
        if len(set(map(repr, positions))) != len(positions):
            raise DealError(seat, f"its unlock steps name a position twice: {positions}")
        for to, pos, point_in, _ in steps:
            chain = self.chains.get(pos) if type(pos) is int else None
            if chain is None or not chain["left"] or chain["left"][0] != seat \
                    or chain["to"] != to or chain["point"] != point_in:
                raise DealError(seat, f"an unlock step on position {pos} that was not "
                                      "asked of it")
        try:
            self._check_sig(m, _steps_fields(m))
            points = [fp.unhex(x[3], "point") for x in steps]
        except (DealError, fp.FairPlayError, KeyError, TypeError) as exc:
            raise DealError(seat, f"its unlock steps for positions {positions} do not check: "
                                  f"{exc}") from None
        if not all(rbcl.crypto_core_ristretto255_is_valid_point(p) for p in points):
            raise DealError(seat, "an unlock step is not a group element")
        done = []
        for to, pos, _, point in steps:
            chain = self.chains[pos]
            chain["left"].pop(0)
            chain["point"] = point
            if not chain["left"]:
                done.append((to, pos, point))
        self.journal.append(dict(m))
        return done

    def receive_key(self, m: Mapping[str, Any]) -> None:
        """A seat's key for a position being opened to everyone: checked, journalled.

        Raises:
            DealError: not signed by its seat, or for a position not being opened.
        """
        seat = _seat(m)
        try:
            self._check_sig(m, _key_fields(m))
            fp.unhex(m["key"], "key")
        except (fp.FairPlayError, KeyError, TypeError) as exc:
            raise DealError(seat, f"its key is malformed: {exc}") from None
        pos = m.get("pos")
        if m.get("to") is not None or seat not in self.asked.get(pos, set()):  # type: ignore[arg-type]
            raise DealError(seat, f"a key for position {pos} to {m.get('to')} that was not "
                                  "asked for")
        self.asked[pos].discard(seat)  # type: ignore[index]
        if not self.asked[pos]:  # type: ignore[index]
            del self.asked[pos]  # type: ignore[arg-type]
        self.got.setdefault(pos, {})[seat] = dict(m)  # type: ignore[arg-type]
        self.journal.append(dict(m))

    def busy(self) -> bool:
        """Whether a deal or an opening still waits for some seat."""
        return bool(self.asked) or any(c["left"] for c in self.chains.values())

    def public_keys(self, pos: int) -> list[dict[str, Any]]:
        """Every seat's published key of an opened position."""
        return [m for _, m in sorted(self.got.get(pos, {}).items())]

    def open_public(self, pos: int) -> int:
        """The card at an opened position, from every seat's key (all in).

        Raises:
            DeckError: a key is missing, or the result is not a card of the deck.
        """
        keys = self.got.get(pos, {})
        if len(keys) < self.seats:
            raise DeckError(f"position {pos}: keys from seat(s) "
                            f"{sorted(set(range(self.seats)) - set(keys))} are missing")
        locked = self.passes["lock"][-1][pos]
        return open_card(locked, [bytes.fromhex(keys[s]["key"]) for s in sorted(keys)],
                         self.cards)

    def audit(self, secrets: Sequence[Mapping[str, Any]], signed: bool = False) -> list[str]:
        """Check every seat's published secrets against its passes (after the game);
        ``signed``: their signatures were checked already (the host checks each as it
        comes), else they are checked here."""
        found = []
        for m in secrets if not signed else []:
            try:
                self._check_sig(m, _secrets_fields(m))
            except DealError as exc:
                found.append(str(exc))
        parsed = [DeckSecrets(shuffle_key=bytes.fromhex(m["shuffle_key"]),
                              permutation=list(m["permutation"]),
                              card_keys=[bytes.fromhex(k) for k in m["card_keys"]])
                  for m in sorted(secrets, key=lambda m: m["seat"])]
        return found + audit(self.cards, self.passes["shuffle"], self.passes["lock"], parsed)
