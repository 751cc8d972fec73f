"""An in-process table for Nero with a hidden deck (no network): the game's requests
to its ``decks`` drive ``DealHost`` (the host, holding no scalar) and one
``DeckPlayer`` per seat from protocol/hidden_deal.py; every key goes through the host.

Imported as a module by the tests; random seats choose among the legal actions they
list themselves (``game_seat_actions``)."""

from __future__ import annotations

import random
from typing import Any

import rbcl

from lantable.plugins.decks import Requests, claims_of
from lantable.plugins.nero.data import NCARDS
from lantable.plugins.nero.hidden import DECK
from lantable.protocol import fairplay as fp
from lantable.protocol import hidden_deal as hdl
from lantable.protocol.hidden_deck import DeckError, DeckSeat, open_card

from . import helpers as nx

TABLE = "5eed7ab1"
G = nx.GAME


def seeded_seat(rng: random.Random, n: int) -> DeckSeat:
    """A seat's deck secrets drawn from ``rng`` (a real seat draws them from the
    system's secure source: :class:`DeckSeat`'s defaults)."""
    def scalar() -> bytes:
        return rbcl.crypto_core_ristretto255_scalar_reduce(rng.randbytes(64))

    order = list(range(n))
    rng.shuffle(order)
    return DeckSeat(n, scalar(), order, [scalar() for _ in range(n)])


class Fault(Exception):
    """A false claim, found when its card was opened: the table ends, ``seat`` forfeits."""

    def __init__(self, seat: int, pos: int, claimed: int, card: int) -> None:
        super().__init__(f"seat {seat} claimed card {claimed} at position {pos}: it is {card}")
        self.seat, self.pos, self.claimed, self.card = seat, pos, claimed, card


class Table:
    """One game as a hidden-deck host runs it: the game asks ``decks`` (it records
    requests), the seats' ``DeckPlayer`` s carry them out through the ``DealHost``, and
    the game hears only of cards opened to everyone. Each seat keeps its own cards."""

    def __init__(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> None:
        self.n = seats
        self.rng = random.Random(seed)
        self.deck_rng = random.Random(f"deck/{seed}")
        self.ids = [fp.Identity() for _ in range(seats)]
        self.sizes = {DECK: NCARDS}
        self.round = 0
        self.decks: dict[str, tuple[hdl.DealHost, list[hdl.DeckPlayer]]] = {}  # by round
        self.cards: list[dict[int, int]] = [{} for _ in range(seats)]  # pos -> card, own
        self.relayed: dict[tuple[str, int], dict[int, bytes]] = {}  # keys the host saw
        self.carried: dict[tuple[str, int], list[bytes]] = {}  # points it carried
        self.public: set[tuple[str, int]] = set()  # positions opened to everyone
        self.claims: dict[int, tuple[int, int]] = {}  # pos -> (seat, card), to check
        self.events: list[dict[str, Any]] = []
        self.ops: list[dict[str, Any]] = []
        self._truth: dict[tuple[str, int], int] = {}
        self.gives: list[tuple[int, int, int]] = []  # (pos, from, to)
        req = Requests(self.sizes, seats)
        self.S = G.setup(seats, {**(options or {}), "hidden_deck": True}, self.rng, req)
        self.run(req.take())

    @property
    def deck(self) -> str:
        """The name of the deck's current round, as the deal host knows it."""
        return f"{DECK}-{self.round}"

    # --- the host's side of the game's requests ----------------------------------------

    def run(self, ops: list[dict[str, Any]]) -> None:
        queue = list(ops)
        while queue:
            op = queue.pop(0)
            self.ops.append(op)
            if op["op"] == "shuffle":
                self._new_deck()
            elif op["op"] == "deal":
                for pos in op["positions"]:
                    self._deal(pos, op["seat"])
            elif op["op"] == "give":
                self._give(op["pos"], op["seat"])
            else:
                cards = {pos: self._open(pos) for pos in op["positions"]}
                for pos, card in cards.items():
                    seat, claimed = self.claims.pop(pos, (None, card))
                    if claimed != card:
                        raise Fault(seat, pos, claimed, card)
                more = Requests(self.sizes, self.n)
                self.events += G.cards_opened(self.S, DECK, cards, None, more)
                queue = more.take() + queue

    def _new_deck(self) -> None:
        self.round += 1
        host = hdl.DealHost(TABLE, self.deck, NCARDS, [i.public for i in self.ids])
        players = [hdl.DeckPlayer(self.ids[s], TABLE, self.deck, s, NCARDS)
                   for s in range(self.n)]
        for p in players:  # seeded secrets, so that a test replays the same game
            p.secret = seeded_seat(self.deck_rng, NCARDS)
        while (want := host.expected()) is not None:
            stage, seat = want
            host.receive_pass(players[seat].pass_(stage, host.current()))
        for p in players:
            p.locked = [bytes.fromhex(x) for x in host.current()]
        self.decks[self.deck] = (host, players)
        self.cards = [{} for _ in range(self.n)]

    def _deal(self, pos: int, to: int) -> None:
        host, _ = self.decks[self.deck]
        self._chain(pos, to, host.deal(pos, to))

    def _give(self, pos: int, to: int) -> None:
        host, _ = self.decks[self.deck]
        self.gives.append((pos, host.owner[pos], to))
        self._chain(pos, to, host.give(pos, to))

    def _chain(self, pos: int, to: int, seats: list[int]) -> None:
        """Each seat in turn takes its lock off the point, through the host; the last
        point, locked by ``to`` alone, goes to ``to``, which opens it."""
        host, players = self.decks[self.deck]
        point = host.passes["lock"][-1][pos].hex()
        done = None
        for seat in list(seats):  # the host's own list: it pops each seat that is done
            step = players[seat].step(pos, to, point)
            done = host.receive_step(step)
            point = step["point"]
            self.carried.setdefault((self.deck, pos), []).append(bytes.fromhex(point))
        assert done == (to, point)
        players[to].receive_point(pos, point)
        self.cards[to][pos] = players[to].open(pos)

    def _open(self, pos: int) -> int:
        """Every seat publishes its key for ``pos``: everyone reads the same card."""
        host, players = self.decks[self.deck]
        for seat in host.open(pos):
            msg = players[seat].key(pos)
            host.receive_key(msg)
            self.relayed.setdefault((self.deck, pos), {})[seat] = bytes.fromhex(msg["key"])
        self.public.add((self.deck, pos))
        keys = host.public_keys(pos)
        opened = {p.open_public(pos, keys) for p in players} | {host.open_public(pos)}
        assert len(opened) == 1
        return opened.pop()

    # --- the seats ------------------------------------------------------------------------

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """What the seat's own client lists: from its view and the cards it opened."""
        return G.seat_actions(G.view(self.S, seat), seat, {DECK: dict(self.cards[seat])})

    def play(self, seat: int, action: dict[str, Any]) -> None:
        req = Requests(self.sizes, self.n)
        for _deck, pos, card in claims_of(action):  # the host checks them when opened
            self.claims[pos] = (seat, card)
        self.events += G.apply(self.S, seat, action, self.rng, req)
        self.run(req.take())

    def host_opens(self, deck: str, pos: int) -> int | None:
        """What the host can open at ``pos`` with every key and point it relayed
        (None: nothing)."""
        host, _ = self.decks[deck]
        keys = list(self.relayed.get((deck, pos), {}).values())
        for point in [host.passes["lock"][-1][pos], *self.carried.get((deck, pos), [])]:
            try:
                return open_card(point, keys, host.cards)
            except DeckError:
                continue
        return None

    def true_card(self, deck: str, pos: int) -> int:
        """The card at ``pos``, from every seat's own key (what the audit would show)."""
        if (deck, pos) not in self._truth:
            host, players = self.decks[deck]
            keys = [p.secret.unlock_key(pos) for p in players]
            self._truth[deck, pos] = open_card(host.passes["lock"][-1][pos], keys, host.cards)
        return self._truth[deck, pos]
