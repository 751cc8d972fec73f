"""The undo-by-consent messages (docs/protocol.md, "Undo by consent").

They live apart from :mod:`._messages` only to keep that module about the core
session; they register in the same tables and are checked the same way.
"""

from __future__ import annotations

from ._messages import Message, _message

# -- client -> host -------------------------------------------------------------------


@_message("undo_ask", "client")
class UndoAsk(Message):
    """Ask to take back this seat's last action; answered ``accepted`` (the request is
    put to the other seats) or ``error`` ``bad_undo`` with the reason."""

    id: int
    table: str
    seat: int | None = None  # which of this connection's seats asks (default: its only one)
    sig: str | None = None  # fair table: signature of ["undo", table, seat, seq, undoes]


@_message("undo_answer", "client")
class UndoAnswer(Message):
    """A seat's answer to a request to take back action ``undoes``."""

    id: int
    table: str
    undoes: int
    accept: bool
    seat: int | None = None
    sig: str | None = None  # fair table, when accepting: as ``undo_ask.sig``


# -- host -> client -------------------------------------------------------------------


@_message("undo", "host")
class UndoNotice(Message):
    """Where an undo stands: ``offer`` (to the seat that may ask), ``asked``, ``done``,
    ``refused`` or ``void`` (the table went on), with a sentence for people."""

    table: str
    state: str
    seat: int  # the seat that asks (or may ask)
    undoes: int  # the action it takes back
    seq: int  # the update the undo lands as (signed at a fair table)
    message: str
    waiting: list[int] | None = None  # asked: the seats not yet answered
    ask: int | None = None  # asked: this recipient's seat that must answer
    refused_by: int | None = None  # refused: the seat that said no
