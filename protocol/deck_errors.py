"""The errors of hidden decks, apart from :mod:`.hidden_deck` so that code that only
catches them (the host, the client library) need not load the group arithmetic:
``rbcl`` unpacks its libsodium into a temporary file when imported, which a host or a
client of a table without hidden decks should never do."""

from __future__ import annotations


class DeckError(Exception):
    """A dealt or opened card is not a card of the deck, or a pass does not check."""


class DealError(DeckError):
    """A deal message that does not check; ``seat`` is the seat it names (-1: none)."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(f"seat {seat}: {message}")
        self.seat = seat
