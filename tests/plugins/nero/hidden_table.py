"""An in-process table for Nero with a hidden deck (no network): the game's events drive
``DealHost`` (the host, holding no scalar) and one ``DeckPlayer`` per seat from
protocol/hidden_deal.py, and every key goes through the host.

Imported as a module by the tests; random seats choose among the legal actions they
list themselves (plugins/nero/hidden.py ``legal_actions``)."""

from __future__ import annotations

import random
from typing import Any

import rbcl

from lantable.plugins.nero import hidden
from lantable.protocol import fairplay as fp
from lantable.protocol import hidden_deal as hdl
from lantable.protocol import hidden_handover as handover
from lantable.protocol.hidden_deck import DeckSeat, open_card

from . import helpers as nx

TABLE = "5eed7ab1"


def seeded_seat(rng: random.Random, n: int) -> DeckSeat:
    """A seat's deck secrets drawn from ``rng`` (a real seat draws them from the
    system's secure source: :class:`DeckSeat`'s defaults)."""
    def scalar() -> bytes:
        return rbcl.crypto_core_ristretto255_scalar_reduce(rng.randbytes(64))

    order = list(range(n))
    rng.shuffle(order)
    return DeckSeat(n, scalar(), order, [scalar() for _ in range(n)])


class Host(hdl.DealHost):
    """The deal host, plus opening to everyone a position dealt to one seat (a card
    played face up), and handing a position from one seat to another (Traitor)."""

    def deal(self, pos: int, to: int | None) -> list[int]:
        if pos in self.owner and to is None:
            self.owner[pos] = None
            return list(range(self.seats))
        return super().deal(pos, to)

    def give(self, pos: int, giver: int, to: int) -> list[int]:
        """Returns the seats whose keys ``to`` needs in the clear (not the giver's)."""
        assert self.owner[pos] == giver
        self.owner[pos] = to
        return [s for s in range(self.seats) if s not in (giver, to)]


class Table:
    """One game: the state, the host's deal hosts, each seat's player and cards."""

    def __init__(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> None:
        self.n = seats
        self.rng = random.Random(seed)
        self.deck_rng = random.Random(f"deck/{seed}")
        self.ids = [fp.Identity() for _ in range(seats)]
        self.S, ev = hidden.new_state(seats, nx.GAME.options(options), self.rng)
        self.decks: dict[str, tuple[Host, list[hdl.DeckPlayer]]] = {}
        self.cards: list[dict[int, int]] = [{} for _ in range(seats)]  # pos -> card, own
        self.relayed: dict[tuple[str, int], dict[int, bytes]] = {}  # keys the host saw
        self.public: set[tuple[str, int]] = set()  # positions opened to everyone
        self.events: list[dict[str, Any]] = []
        self._truth: dict[tuple[str, int], int] = {}
        self.blinded: list[tuple[str, int, dict[str, Any], dict[str, Any]]] = []
        self.handle(ev)

    # --- the host's side of the game's requests ----------------------------------------

    def handle(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            self.events.append(e)
            if e["type"] == "deck_new":
                self._new_deck(e["deck"])
            elif e["type"] == "deck_deal":
                for pos in e["pos"]:
                    self._deal(e["deck"], pos, e["seat"])
            elif e["type"] == "deck_give":
                self._give(e["deck"], e["pos"], e["from"], e["seat"])

    def _new_deck(self, deck: str) -> None:
        host = Host(TABLE, deck, 55, [i.public for i in self.ids])
        players = [hdl.DeckPlayer(self.ids[s], TABLE, deck, s, 55) for s in range(self.n)]
        for p in players:  # seeded secrets, so that a test replays the same game
            p.secret = seeded_seat(self.deck_rng, 55)
        while (want := host.expected()) is not None:
            stage, seat = want
            host.receive_pass(players[seat].pass_(stage, host.current()))
        for p in players:
            p.locked = [bytes.fromhex(x) for x in host.current()]
        self.decks[deck] = (host, players)
        self.cards = [{} for _ in range(self.n)]

    def _deal(self, deck: str, pos: int, to: int | None) -> None:
        host, players = self.decks[deck]
        keys = []
        for giver in host.deal(pos, to):
            msg = players[giver].key(pos, to)
            assert host.receive_key(msg) == to
            self.relayed.setdefault((deck, pos), {})[giver] = bytes.fromhex(msg["key"])
            keys.append(msg)
            if to is not None:
                players[to].receive_key(msg)
        if to is not None:
            if deck == self.S["hid"]["deck"]:
                self.cards[to][pos] = players[to].open(pos, self.n)
            return
        if to is None:  # opened to everyone: every seat reads the same card
            self.public.add((deck, pos))
            opened = {p.open_public(pos, keys) for p in players}
            assert len(opened) == 1
            self.handle(hidden.card_opened(self.S, deck, pos, opened.pop(), self.rng))

    def _give(self, deck: str, pos: int, giver: int, to: int) -> None:
        host, players = self.decks[deck]
        for s in host.give(pos, giver, to):
            msg = players[s].key(pos, to)
            assert host.receive_key(msg) == to
            self.relayed.setdefault((deck, pos), {})[s] = bytes.fromhex(msg["key"])
            players[to].receive_key(msg)
        receiver = handover.Receiver(players[to], pos, giver)
        request = receiver.request()
        handover.check(host.keys, TABLE, deck, request, pos, giver, to)
        reply = handover.answer(players[giver], request)
        handover.check(host.keys, TABLE, deck, reply, pos, giver, to)
        self.blinded.append((deck, pos, request, reply))
        self.cards[to][pos] = receiver.open(reply, self.n)

    # --- the seats ------------------------------------------------------------------------

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return hidden.legal_actions(nx.GAME.view(self.S, seat), seat, self.cards[seat])

    def play(self, seat: int, action: dict[str, Any]) -> None:
        self.handle(hidden.apply(self.S, seat, action, self.rng))

    def host_opens(self, deck: str, pos: int) -> int | None:
        """What the host can open at ``pos`` with every key it relayed (None: nothing)."""
        host, _ = self.decks[deck]
        try:
            return open_card(host.passes["lock"][-1][pos],
                             list(self.relayed.get((deck, pos), {}).values()), host.cards)
        except Exception:  # noqa: BLE001 - DeckError: not a card, which is the point
            return None

    def true_card(self, deck: str, pos: int) -> int:
        """The card at ``pos``, from every seat's own key (what the audit would show)."""
        if (deck, pos) not in self._truth:
            host, players = self.decks[deck]
            keys = [p.secret.unlock_key(pos) for p in players]
            self._truth[deck, pos] = open_card(host.passes["lock"][-1][pos], keys, host.cards)
        return self._truth[deck, pos]
