"""The fair-play messages (docs/protocol.md, "Fair play"): commitments, reveals,
and what the host tells a table about its random events.

They live apart from :mod:`._messages` only to keep that module about the core
session; they register in the same tables and are checked the same way.
"""

from __future__ import annotations

from typing import Any

from ._messages import Message, _message

# -- client -> host -------------------------------------------------------------------


@_message("commit", "client")
class Commit(Message):
    """A seat's commitment at a fair table: the tip of its secret hash chain."""

    id: int
    table: str
    seat: int
    tip: str  # hex of the chain's link 0
    length: int  # how many events the chain covers
    sig: str  # Ed25519 over ["lantable-fairplay-v1", "commit", table, seat, key, tip, length]


@_message("reveal", "client")
class Reveal(Message):
    """A seat's link for one random event, signed together with what it is for."""

    id: int
    table: str
    seat: int
    event: int
    link: str  # hex of the chain's link number `event`
    sig: str  # Ed25519 over ["lantable-fairplay-v1", "reveal", table, seat, event, link, digest]


# -- host -> client -------------------------------------------------------------------


@_message("fair_request", "host")
class FairRequest(Message):
    """The host asks a seat for its commitment, or its link for an event."""

    table: str
    seat: int
    kind: str  # "commit" or "reveal"
    event: int | None = None  # for "reveal": the event number
    digest: str | None = None  # for "reveal": what the event is for (sign it)
    length: int | None = None  # for "commit": the chain length the table asks for


@_message("fair_event", "host")
class FairEvent(Message):
    """One random event, settled: every reveal, and the seed the game drew from."""

    table: str
    event: int
    seq: int  # the action it served (0: the set-up)
    digest: str
    seed: str
    reveals: list[dict[str, Any]]  # [{"seat", "link", "sig"}] in seat order
    commits: list[dict[str, Any]] | None = None  # with event 1: every seat's commitment
    withheld: list[int] | None = None  # seats that did not reveal in time
    fallback: str | None = None  # the host's value mixed in when some seat withheld


@_message("fair_fault", "host")
class FairFault(Message):
    """A seat withheld its reveal past the timeout, or revealed a link or signature
    that does not check: everyone at the table is told who, and what happens now."""

    table: str
    event: int
    seat: int
    reason: str  # "late" (a notice), "withheld" or "bad_reveal"
    outcome: str  # "waiting", "forfeit" or "host_rng"
    message: str


# -- hidden decks (docs/protocol.md, "Hidden decks") ------------------------------------
# A deck is named by the game (``deck``) and shuffled afresh in each ``round``; every
# signature names it as the string "deck/round" (protocol/hidden_deal.py).


@_message("deck_request", "host")
class DeckRequest(Message):
    """The host asks a seat for its part of a hidden deal: a pass over the deck, unlock
    keys, or (when the table ends) its secrets for the audit."""

    table: str
    seat: int
    game: str  # the game's id: the client runs its client-side half
    deck: str
    round: int
    n: int  # cards in the deck
    seats: int  # seats at the table (each one's key opens a card)
    kind: str  # "shuffle", "lock", "unlock", "keys" or "secrets"
    points: bytes | None = None  # shuffle, lock: the deck to pass over, n points of 32
    #                              bytes end to end; nil for the first shuffle: the cards
    positions: list[dict[str, Any]] | None = None  # unlock: [{"pos", "to", "point"}];
    #                                               keys: [{"pos", "to": nil}]


@_message("deck_keys", "host")
class DeckKeys(Message):
    """To everyone: the keys and locked points of cards turned face up. To one seat
    (``to``): the points of positions dealt to it, with only its lock left."""

    table: str
    deck: str
    round: int
    to: int | None  # the seat this is for; nil: everyone
    keys: list[dict[str, Any]] | None = None  # [{"seat", "pos", "to", "key", "sig"}], bin
    points: list[dict[str, Any]] | None = None  # [{"pos", "point"}], bin: for seat `to`, the
    #                                            points only its lock is left on; to everyone,
    #                                            the locked points of the positions opened


@_message("deck_pass", "client")
class DeckPass(Message):
    """A seat's shuffle or lock pass over the deck the host sent."""

    id: int
    table: str
    seat: int
    deck: str
    round: int
    stage: str  # "shuffle" or "lock"
    points: bytes  # n points of 32 bytes, end to end
    sig: bytes  # 64 bytes, over ["lantable-fairplay-v1", "deck_pass", table, "deck/round",
    #             seat, stage, tag("deck", [the points in hex])]


@_message("deck_unlock", "client")
class DeckUnlock(Message):
    """A seat's answer to ``unlock`` (its lock taken off each point, all signed at once)
    or ``keys`` (its key of each position turned face up, each signed)."""

    id: int
    table: str
    seat: int
    deck: str
    round: int
    items: list[dict[str, Any]]  # unlock: [{"pos", "to", "point"}]; keys: [{"pos",
    #                             "to": nil, "key", "sig"}]; points, keys, signatures as bin
    sig: bytes | None = None  # unlock: one signature over every step (deck_steps), which
    #                           also covers the points asked


@_message("deck_secrets", "client")
class DeckSecretsMessage(Message):
    """A seat's secrets for one round of a deck, published when the table ends (audit)."""

    id: int
    table: str
    seat: int
    deck: str
    round: int
    shuffle_key: bytes  # 32 bytes
    permutation: list[int]
    card_keys: bytes  # n scalars of 32 bytes, end to end
    sig: bytes  # 64 bytes, over ["lantable-fairplay-v1", "deck_secrets", table, "deck/round", seat,
    #           shuffle_key, permutation, card_keys]
