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
