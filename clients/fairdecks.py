"""A seat's side of hidden decks (docs/fair-play.md, "Hidden decks"): its passes, its
unlock keys, the cards dealt to it, and the game's client-side half.

Every client built on :class:`~lantable.clients.client.Client` takes part on its own:
it answers each ``deck_request`` (a shuffle or lock pass, unlock keys, its secrets
when the table ends), opens the positions dealt to it as their keys arrive (``deck_keys``),
and, since the host cannot list a seat's actions at a hidden-deck table, fills each
update's ``legal`` with the game's ``game_seat_actions`` over the seat's own view and
its own cards. A card that opens to no card of the deck is detected here, at once.

The seat's deck secrets live in memory only: a client restarted in the middle of a
hidden-deck game cannot hand over its keys any more, and the table names it as
withholding after its timeout (docs/fair-play.md, "Its limits").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lantable.plugins import Game, load_registry
from lantable.protocol import DeckKeys, DeckPass, DeckRequest, DeckSecretsMessage, DeckUnlock
from lantable.protocol import fairplay as fp
from lantable.protocol.deck_errors import DeckError

if TYPE_CHECKING:
    from lantable.protocol.hidden_deal import DeckPlayer

LOGGER = logging.getLogger(__name__)

Round = tuple[str, str, int]  # (table, deck, round)


def deck_id(deck: str, rnd: int) -> str:
    """How a round of a deck is named in every signature (docs/protocol.md)."""
    return f"{deck}/{rnd}"


def _split(blob: bytes) -> list[str]:
    """A deck on the wire (32-byte points end to end) as hex points."""
    if len(blob) % 32:
        raise DeckError(f"a deck of {len(blob)} bytes is not a whole number of points")
    return [blob[i:i + 32].hex() for i in range(0, len(blob), 32)]


class SeatDecks:
    """The hidden decks of one client connection, at every table it sits at."""

    def __init__(self, identity: fp.Identity, games: Callable[[str], Game] | None = None) -> None:
        self.identity = identity
        self._games = games
        self.players: dict[tuple[str, int, str, int], DeckPlayer] = {}  # (table, seat, deck, rnd)
        self.current: dict[tuple[str, str], int] = {}  # (table, deck) -> its round now
        self.game_of: dict[str, str] = {}  # table -> game id
        self.seats: dict[str, int] = {}  # table -> its seat count
        self.cards: dict[tuple[str, int], dict[str, dict[int, int]]] = {}  # (table, seat) -> ...
        self.problems: list[str] = []
        self.on_notice: Callable[[str], None] | None = None
        self.published: set[tuple[str, int, str, int]] = set()  # secrets handed over

    def owed(self, table: str, seat: int) -> int:
        """How many rounds ``seat`` dealt at ``table`` whose secrets it has not handed
        over yet (the host asks for them when the table ends)."""
        return sum(1 for key in self.players
                   if key[:2] == (table, seat) and key not in self.published)

    def _game(self, game_id: str) -> Game:
        if self._games is None:
            registry = load_registry()
            self._games = registry.__getitem__
        return self._games(game_id)

    # -- answering the host --------------------------------------------------------

    def answer(self, req: DeckRequest) -> tuple[type, dict[str, Any]] | None:
        """The request (class and fields, without ``id``) that answers ``req``."""
        self.game_of[req.table] = req.game
        self.seats[req.table] = req.seats
        key = (req.table, req.seat, req.deck, req.round)
        base = {"table": req.table, "seat": req.seat, "deck": req.deck, "round": req.round}
        if req.kind in ("shuffle", "lock"):
            if req.kind == "shuffle" and key not in self.players:
                from lantable.protocol.hidden_deal import DeckPlayer  # rbcl: only when dealing

                self.players[key] = DeckPlayer(self.identity, req.table,
                                               deck_id(req.deck, req.round), req.seat, req.n)
                self._new_round(req.table, req.deck, req.round)
            player = self.players.get(key)
            if player is None or (req.points is None and req.kind != "shuffle"):
                self._cannot(req, "no shuffle of that round was asked of this seat")
                return None
            deck = ([c.hex() for c in player.cards] if req.points is None  # the first pass
                    else _split(req.points))
            m = player.pass_(req.kind, deck)
            return DeckPass, {**base, "stage": req.kind, "points": b"".join(
                bytes.fromhex(p) for p in m["points"]), "sig": bytes.fromhex(m["sig"])}
        player = self.players.get(key)
        if player is None:
            self._cannot(req, "this client has no secrets for that round (restarted?)")
            return None
        if req.kind == "unlock" and req.positions:
            m = player.steps([(p["pos"], p["to"], p["point"].hex()) for p in req.positions])
            items = [{"pos": pos, "to": to, "point": bytes.fromhex(point)}
                     for to, pos, _, point in m["steps"]]
            return DeckUnlock, {**base, "items": items, "sig": bytes.fromhex(m["sig"])}
        if req.kind == "keys" and req.positions:
            items = []
            for p in req.positions:
                m = player.key(p["pos"])
                items.append({"pos": m["pos"], "to": None, "key": bytes.fromhex(m["key"]),
                              "sig": bytes.fromhex(m["sig"])})
            return DeckUnlock, {**base, "items": items}
        if req.kind == "secrets":
            self.published.add(key)
            m = player.secrets()
            return DeckSecretsMessage, {
                **base, "shuffle_key": bytes.fromhex(m["shuffle_key"]),
                "permutation": m["permutation"],
                "card_keys": b"".join(bytes.fromhex(k) for k in m["card_keys"]),
                "sig": bytes.fromhex(m["sig"])}
        self._cannot(req, f"a deck request this client does not understand: {req.kind}")
        return None

    def _cannot(self, req: DeckRequest, why: str) -> None:
        LOGGER.warning("table %s seat %d: deck %s round %d: %s", req.table, req.seat, req.deck,
                       req.round, why)
        self.problems.append(f"table {req.table}: deck {req.deck} round {req.round}: {why}")
        return None

    def _new_round(self, table: str, deck: str, rnd: int) -> None:
        """A fresh shuffle: the deck's old positions mean nothing any more."""
        if self.current.get((table, deck), 0) >= rnd:
            return
        self.current[(table, deck)] = rnd
        for (t, _seat), cards in self.cards.items():
            if t == table:
                cards.pop(deck, None)

    # -- keys and cards -------------------------------------------------------------------

    def keys(self, msg: DeckKeys) -> None:
        """The locked deck, the points of positions dealt to one of this client's seats,
        or the keys of cards turned face up: open what can be opened."""
        mine = [(s, p) for (t, s, d, r), p in self.players.items()
                if (t, d, r) == (msg.table, msg.deck, msg.round)]
        for seat, player in mine:
            if msg.to == seat:
                for item in msg.points or []:
                    player.receive_point(item["pos"], item["point"].hex())
                    self._open(msg, seat, item["pos"], player.open)
            if msg.to is None and msg.points:  # the locked points of cards turned over
                if len(player.locked) != len(player.cards):
                    player.locked = [b""] * len(player.cards)
                for item in msg.points:
                    player.locked[item["pos"]] = item["point"]
            if msg.to is None and msg.keys:
                for k in msg.keys:
                    player.receive_key({"pos": k["pos"], "seat": k["seat"],
                                        "key": k["key"].hex()})
                for pos in sorted({k["pos"] for k in msg.keys}):
                    self._open(msg, seat, pos, player.open_public)

    def _open(self, msg: DeckKeys, seat: int, pos: int, how: Callable[[int], int]) -> None:
        try:
            card = how(pos)
        except DeckError as exc:
            problem = (f"table {msg.table}: position {pos} of deck {msg.deck} (round "
                       f"{msg.round}) opened to no card of the deck: {exc}; a seat cheated or "
                       "the host altered a point or a key")
            LOGGER.error("%s", problem)
            self.problems.append(problem)
            if self.on_notice is not None:
                self.on_notice(problem)
            return
        if self.current.get((msg.table, msg.deck)) == msg.round:
            self.cards.setdefault((msg.table, seat), {}).setdefault(msg.deck, {})[pos] = card

    def known(self, table: str, seat: int) -> dict[str, dict[int, int]]:
        """The cards ``seat`` knows at ``table``, by deck and position (current rounds):
        dealt or given to it, shown to it (``decks.show``), or opened to everyone."""
        return {d: dict(c) for d, c in self.cards.get((table, seat), {}).items()}

    def hand(self, table: str, seat: int) -> dict[str, dict[str, int]]:
        """The cards ``seat`` knows, as plain data for its view (``view["_hand"]``):
        deck -> {position as a string -> card}."""
        return {d: {str(p): c for p, c in cards.items()}
                for d, cards in self.known(table, seat).items()}

    # -- claims made face down --------------------------------------------------------------

    def seal(self, table: str, seat: int | None, action: dict[str, Any]) -> dict[str, Any]:
        """``action`` as it is sent: each claim it makes face down (``"sealed"``, listed
        with its card by the game's client half) carries a seal instead of the card
        (:func:`~lantable.protocol.hidden_deal.seal_digest`), so the host cannot read
        it; the host checks the seal when the card is opened. Unchanged at a table
        where this client does not deal, or without ``sealed``."""
        if table not in self.game_of or not isinstance(action.get("sealed"), list):
            return action
        if seat is None:
            seats = {s for (t, s, _d, _r) in self.players if t == table}
            if len(seats) != 1:
                return action
            (seat,) = seats
        sealed = []
        for c in action["sealed"]:
            if not isinstance(c, dict) or "card" not in c or "seal" in c:
                return action  # not ours to seal: the host says what is wrong with it
            deck = c.get("deck")
            if not isinstance(deck, str) or type(c.get("pos")) is not int \
                    or type(c["card"]) is not int:
                return action
            player = self.players.get((table, seat, deck, self.current.get((table, deck), 0)))
            if player is None:
                return action
            sealed.append({"deck": c["deck"], "pos": c["pos"],
                           "seal": player.seal(c["pos"], c["card"])})
        return {**action, "sealed": sealed}

    # -- the client-side half -----------------------------------------------------------------

    def legal(self, table: str, seat: int, view: dict[str, Any]) -> list[dict[str, Any]] | None:
        """``seat``'s legal actions from the game's client half, or None if this client
        does not deal at ``table`` (or cannot run the game)."""
        game_id = self.game_of.get(table)
        if game_id is None:
            return None
        try:
            return self._game(game_id).seat_actions(view, seat, self.known(table, seat))
        except Exception as exc:  # the game is not installed here, or its client half failed
            problem = f"table {table}: cannot list seat {seat}'s actions: {exc!r}"
            LOGGER.error("%s", problem)
            self.problems.append(problem)
            return None
