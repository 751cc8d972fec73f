"""Hidden decks, the game's side: the ``decks`` argument and the dealer that plays it
in-process (docs/plugins.md, "Hidden decks").

A game with hidden cards never holds them. It asks the ``decks`` it is given to
shuffle, deal, open and give *positions*, and learns cards through its
``game_cards_opened`` hook. Who answers depends on the table, and the game cannot
tell:

- :class:`LocalDealer` (a table without hidden decks, bots simulating in-process,
  the conformance suite): the host is the dealer. It shuffles with ``rng``, keeps the
  order in the state's reserved ``"_dealer"`` key, and hands every card over at once.
- At a fair table with ``hidden_decks`` the host only records the requests
  (:class:`Requests`); every seat masks and shuffles the deck, and the cards reach the
  game only when opened to everyone (:mod:`lantable.host.fairdecks`).

Requests are plain maps (``{"op": "deal", "deck": "hand", "positions": [0, 1], "seat":
1}``), so the host can journal them.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from .errors import IllegalAction

DEALER_KEY = "_dealer"  # the state key the in-process dealer keeps its secrets under
DECK_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
MAX_CARDS = 1024  # cards in one deck: a masked deck costs 2 passes x seats x n multiplications

Op = dict[str, Any]
Cards = dict[int, int]


class Requests:
    """The ``decks`` a game hook is given: it checks and records each request, in
    order; whoever gave it carries them out after the hook returns.

    Args:
        sizes: the game's decks (``game_decks``), name -> card count.
        seats: the table's seat count.
    """

    def __init__(self, sizes: Mapping[str, int], seats: int) -> None:
        self.sizes = dict(sizes)
        self.seats = seats
        self.ops: list[Op] = []

    def _deck(self, deck: str) -> int:
        if deck not in self.sizes:
            raise ValueError(f"no deck {deck!r}; the game declared {sorted(self.sizes)}")
        return self.sizes[deck]

    def _positions(self, deck: str, positions: Iterable[int]) -> list[int]:
        n = self._deck(deck)
        out = [p for p in positions]
        bad = [p for p in out if type(p) is not int or not 0 <= p < n]
        if bad or len(set(out)) != len(out):
            raise ValueError(f"deck {deck!r}: positions {out} are not distinct ints in 0..{n - 1}")
        return out

    def _seat(self, seat: int) -> int:
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat!r} at a table of {self.seats}")
        return seat

    def shuffle(self, deck: str) -> None:
        """Gather every card of ``deck`` face down and shuffle: positions ``0..n-1``
        of a fresh round."""
        self._deck(deck)
        self.ops.append({"op": "shuffle", "deck": deck})

    def deal(self, deck: str, positions: Iterable[int], seat: int) -> None:
        """``positions`` go to ``seat``: it, and nobody else, learns their cards."""
        self.ops.append({"op": "deal", "deck": deck,
                         "positions": self._positions(deck, positions), "seat": self._seat(seat)})

    def open(self, deck: str, positions: Iterable[int]) -> None:
        """``positions`` are turned face up: everyone learns their cards."""
        self.ops.append({"op": "open", "deck": deck,
                         "positions": self._positions(deck, positions)})

    def give(self, deck: str, pos: int, seat: int) -> None:
        """A position dealt to one seat goes to ``seat`` (a card that changes hands)."""
        (pos,) = self._positions(deck, [pos])
        self.ops.append({"op": "give", "deck": deck, "pos": pos, "seat": self._seat(seat)})

    def show(self, deck: str, positions: Iterable[int], seat: int) -> None:
        """``seat`` is shown the cards at ``positions`` without getting them: a hand's
        cards stay its holder's, a face-down pile's stay where they are. Only ``seat``
        learns them (and whoever held them already); ``game_cards_opened`` is told with
        ``shown=True`` where the host deals."""
        self.ops.append({"op": "show", "deck": deck,
                         "positions": self._positions(deck, positions), "seat": self._seat(seat)})

    def take(self) -> list[Op]:
        """The requests so far, and forget them."""
        ops, self.ops = self.ops, []
        return ops


def check_decks(sizes: Any, game_id: str) -> dict[str, int]:
    """A game's ``game_decks`` answer, checked (``{}`` for none).

    Raises:
        ValueError: not a map of deck names to card counts in 1..MAX_CARDS.
    """
    if not sizes:
        return {}
    if not isinstance(sizes, dict) or not all(
            isinstance(k, str) and DECK_NAME.match(k) and type(v) is int and 1 <= v <= MAX_CARDS
            for k, v in sizes.items()):
        raise ValueError(f"{game_id}: game_decks() must return {{name: card count}} with names "
                         f"[a-z0-9_-]+ and 1..{MAX_CARDS} cards, got {sizes!r}")
    return dict(sizes)


def claims_for(deck: str, held: Iterable[tuple[int, int]]) -> list[dict[str, Any]]:
    """The ``"claims"`` of an action that uses the cards ``held`` (``(pos, card)``
    pairs of ``deck``): what a game's client half adds to such an action (docs/plugins.md,
    "Hidden decks"); :func:`claims_of` reads them back."""
    return [{"deck": deck, "pos": pos, "card": card} for pos, card in held]


def claims_of(action: Mapping[str, Any]) -> list[tuple[str, int, int]]:
    """The ``(deck, pos, card)`` an action claims (``action["claims"]``), checked for shape.

    Raises:
        IllegalAction: ``claims`` is not a list of ``{"deck", "pos", "card"}`` maps.
    """
    claims = action.get("claims")
    if claims is None:
        return []
    out = []
    if isinstance(claims, list):
        for c in claims:
            if (isinstance(c, dict) and isinstance(c.get("deck"), str)
                    and type(c.get("pos")) is int and type(c.get("card")) is int):
                out.append((c["deck"], c["pos"], c["card"]))
    if not isinstance(claims, list) or len(out) != len(claims):
        raise IllegalAction(f"'claims' must be a list of {{deck, pos, card}} maps, got {claims!r}")
    return out


def sealed_for(deck: str, held: Iterable[tuple[int, int]]) -> list[dict[str, Any]]:
    """The ``"sealed"`` claims of an action that commits the cards ``held`` (``(pos,
    card)`` pairs of ``deck``) face down: a claim nobody, the host included, reads
    until the card is opened (docs/plugins.md, "Hidden decks"). The game's client half
    lists them with the card; at a hidden-deck table the seat's client replaces each
    card by its seal (a hash binding the card) before sending, and the host checks
    the seal when the card is opened. :func:`sealed_of` reads them back."""
    return [{"deck": deck, "pos": pos, "card": card} for pos, card in held]


def sealed_of(action: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The ``(deck, pos)`` an action commits face down (``action["sealed"]``), checked
    for shape. The card is never returned: the game must not read it (at a
    hidden-deck table the action carries only a seal).

    Raises:
        IllegalAction: ``sealed`` is not a list of ``{"deck", "pos"}`` maps, each
            with an int ``card`` or a 64-hex-digit ``seal``, positions distinct.
    """
    return [(d, p) for d, p, _, _ in _sealed(action)]


def _sealed(action: Mapping[str, Any]) -> list[tuple[str, int, int | None, str | None]]:
    """``(deck, pos, card or None, seal or None)`` of each sealed claim, checked."""
    sealed = action.get("sealed")
    if sealed is None:
        return []
    out: list[tuple[str, int, int | None, str | None]] = []
    if isinstance(sealed, list):
        for c in sealed:
            if not (isinstance(c, dict) and isinstance(c.get("deck"), str)
                    and type(c.get("pos")) is int):
                break
            card, seal = c.get("card"), c.get("seal")
            if (card is None) == (seal is None) or (card is not None and type(card) is not int):
                break
            if seal is not None and not (isinstance(seal, str) and len(seal) == 64
                                         and re.fullmatch(r"[0-9a-f]{64}", seal)):
                break
            out.append((c["deck"], c["pos"], card, seal))
    if (not isinstance(sealed, list) or len(out) != len(sealed)
            or len({(d, p) for d, p, _, _ in out}) != len(out)):
        raise IllegalAction("'sealed' must be a list of {deck, pos, card or seal} maps "
                            f"(seal: 64 hex digits), each position once, got {sealed!r}")
    return out


def sealed_cards(action: Mapping[str, Any]) -> list[tuple[str, int, int | None, str | None]]:
    """``(deck, pos, card or None, seal or None)`` of every sealed claim of ``action``,
    checked for shape: for the host, the client and ``lantable verify``, never the game.

    Raises:
        IllegalAction: as :func:`sealed_of`.
    """
    return _sealed(action)


class OpenedHook(Protocol):
    def __call__(self, state: dict[str, Any], deck: str, cards: Cards, seat: int | None,
                 decks: Requests, shown: bool = False) -> list[dict[str, Any]]: ...


class LocalDealer:
    """The host as the dealer, in-process: it shuffles with ``rng``, keeps each deck's
    order in ``state["_dealer"]``, and hands the game every card it deals or opens at
    once through ``game_cards_opened``. Used wherever the host may know the cards."""

    def __init__(self, sizes: Mapping[str, int], seats: int, opened: OpenedHook) -> None:
        self.sizes, self.seats, self.opened = dict(sizes), seats, opened

    def requests(self) -> Requests:
        return Requests(self.sizes, self.seats)

    @classmethod
    def of_state(cls, state: Mapping[str, Any], opened: OpenedHook) -> LocalDealer:
        """The dealer of a state it dealt (its decks and seats are kept there)."""
        kept = state[DEALER_KEY]
        return cls(kept["sizes"], kept["seats"], opened)

    def start(self, state: dict[str, Any]) -> None:
        """Keep the dealer's record in a new state: ``state["_dealer"]``."""
        state[DEALER_KEY] = {"seats": self.seats, "sizes": dict(self.sizes), "decks": {}}

    @staticmethod
    def _record(state: dict[str, Any], deck: str) -> dict[str, Any]:
        record: dict[str, Any] = state[DEALER_KEY]["decks"].setdefault(
            deck, {"round": 0, "order": [], "held": {}, "open": []})
        return record

    def check_claims(self, state: dict[str, Any], seat: int, action: Mapping[str, Any]) -> None:
        """Every claim of ``action`` names a position ``seat`` holds, and its card.

        Raises:
            IllegalAction: a claim that is false or not the seat's to make.
        """
        for deck, pos, card in claims_of(action):
            record = state.get(DEALER_KEY, {}).get("decks", {}).get(deck)
            if record is None or not 0 <= pos < len(record["order"]):
                raise IllegalAction(f"claim: no position {pos} in deck {deck!r} now")
            if record["held"].get(str(pos)) != seat:
                raise IllegalAction(f"claim: position {pos} of deck {deck!r} is not seat "
                                    f"{seat}'s")
            if record["order"][pos] != card:
                raise IllegalAction(f"claim: position {pos} of deck {deck!r} is not card {card}")
        for deck, pos, card, _seal in sealed_cards(action):
            record = state.get(DEALER_KEY, {}).get("decks", {}).get(deck)
            if record is None or not 0 <= pos < len(record["order"]):
                raise IllegalAction(f"sealed claim: no position {pos} in deck {deck!r} now")
            if record["held"].get(str(pos)) != seat or pos in record["open"]:
                raise IllegalAction(f"sealed claim: position {pos} of deck {deck!r} is not "
                                    f"seat {seat}'s, face down")
            if card is None:  # a seal: only a hidden-deck table's host can check it
                raise IllegalAction("sealed claim: where the host deals, it carries its card, "
                                    "not a seal")
            if record["order"][pos] != card:
                raise IllegalAction(f"sealed claim: position {pos} of deck {deck!r} is not "
                                    f"card {card}")

    @staticmethod
    def _check(record: dict[str, Any], deck: str, op: Op) -> None:
        """A position is dealt once per shuffle (then given on), opened once; a shown
        position is not open, nor its viewer's own."""
        if op["op"] == "show":
            bad = [p for p in op["positions"]
                   if p in record["open"] or record["held"].get(str(p)) == op["seat"]]
            if bad:
                raise ValueError(f"deck {deck!r}: positions {bad} are open or seat "
                                 f"{op['seat']}'s own: there is nothing to show")
        elif op["op"] == "deal":
            again = [p for p in op["positions"] if str(p) in record["held"]]
            if again:
                raise ValueError(f"deck {deck!r}: positions {again} were dealt already "
                                 "(give them on instead)")
        elif op["op"] == "open":
            again = [p for p in op["positions"] if p in record["open"]]
            if again:
                raise ValueError(f"deck {deck!r}: positions {again} were opened already")
        elif str(op["pos"]) not in record["held"]:
            raise ValueError(f"deck {deck!r}: position {op['pos']} was dealt to no seat, "
                             "so it cannot be given")

    def run(self, state: dict[str, Any], ops: list[Op], rng: Any) -> list[dict[str, Any]]:
        """Carry out ``ops`` (and whatever the game asks for on seeing the cards);
        returns the events of ``game_cards_opened``."""
        queue = deque(ops)
        events: list[dict[str, Any]] = []
        while queue:
            op = queue.popleft()
            deck = op["deck"]
            record = self._record(state, deck)
            if op["op"] == "shuffle":
                order = list(range(self.sizes[deck]))
                rng.shuffle(order)
                record.update(round=record["round"] + 1, order=order, held={}, open=[])
                continue
            if not record["order"]:
                raise ValueError(f"deck {deck!r}: {op['op']} before the first shuffle")
            self._check(record, deck, op)  # the rules the hidden-deck host enforces too
            if op["op"] == "give":
                op = {"op": "deal", "deck": deck, "positions": [op["pos"]], "seat": op["seat"]}
            seat = op.get("seat")
            shown = op["op"] == "show"
            for pos in op["positions"]:
                if seat is None:
                    record["open"].append(pos)
                elif not shown:
                    record["held"][str(pos)] = seat
            more = self.requests()
            cards = {pos: record["order"][pos] for pos in op["positions"]}
            if shown:
                events += self.opened(state, deck, cards, seat, more, shown=True) or []
            else:
                events += self.opened(state, deck, cards, seat, more) or []
            queue.extend(more.take())
        return events


def sample_dealer(state: dict[str, Any], *, sizes: Mapping[str, int], seats: int,
                  held: Mapping[str, Mapping[int, int]], known: Mapping[str, Mapping[int, int]],
                  opened: Mapping[str, Iterable[int]] | None = None,
                  rng: Any) -> dict[str, dict[int, int]]:
    """For ``game_sample_state`` in a game with hidden decks: deal a sampled state's
    unseen cards and give it the dealer's record, so that bots can play it in-process
    (docs/plugins.md, "Sampling a state with hidden decks").

    Args:
        state: the sampled state being built; its ``"_dealer"`` key is written.
        sizes: the game's decks (what ``game_decks`` returns for this table).
        seats: the table's seat count.
        held: deck -> {position: seat} for every position dealt (or given) in the deck's
            current round and not yet opened (public: a hand's positions are).
        known: deck -> {position: card} the sampling seat knows: its own cards
            (``view["_hand"]`` at a hidden-deck table, the game's own view elsewhere)
            and the cards opened to everyone.
        opened: deck -> the positions opened to everyone this round (their cards are
            in ``known``).
        rng: the sampler's ``random.Random``.

    Returns:
        deck -> {position: card} for every position of each deck: the known cards as
        given, every other position a card the seat cannot rule out, drawn at random.
        Record the cards of the positions other seats hold (as ``game_cards_opened``
        with a seat would have) so that their legal actions can be listed.

    Raises:
        ValueError: an unknown deck, a position out of range, or a card known twice.
    """
    record: dict[str, Any] = {"seats": seats, "sizes": dict(sizes), "decks": {}}
    out: dict[str, dict[int, int]] = {}
    for deck, n in sizes.items():
        mine = {int(p): int(c) for p, c in (known.get(deck) or {}).items()}
        if any(not 0 <= p < n for p in mine) or any(not 0 <= c < n for c in mine.values()):
            raise ValueError(f"deck {deck!r}: known positions or cards out of 0..{n - 1}")
        if len(set(mine.values())) != len(mine):
            raise ValueError(f"deck {deck!r}: a card is known at two positions")
        pool = [c for c in range(n) if c not in set(mine.values())]
        rng.shuffle(pool)
        order = [mine[p] if p in mine else pool.pop() for p in range(n)]
        out[deck] = dict(enumerate(order))
        record["decks"][deck] = {
            "round": 1, "order": order,
            "held": {str(p): s for p, s in (held.get(deck) or {}).items()},
            "open": sorted(int(p) for p in ((opened or {}).get(deck) or []))}
    for deck in [*held, *known]:
        if deck not in sizes:
            raise ValueError(f"no deck {deck!r}; the game declared {sorted(sizes)}")
    state[DEALER_KEY] = record
    return out
