"""The turn clock's and pause's messages (docs/protocol.md, "Turn clocks and pause").

They live apart from :mod:`._messages` to keep that module about the core session;
they register in the same tables and are checked the same way.
"""

from __future__ import annotations

from ._messages import Message, _message


@_message("pause", "client")
class Pause(Message):
    """A seat asks to pause (``paused`` true) or resume (false) its table, or consents
    to the same request of another seat; asking for the state the table is in while
    another seat asks for the other refuses that request. Answered with ``pause_noted``."""

    id: int
    table: str
    paused: bool
    seat: int | None = None  # which of this connection's seats speaks (default: its only one)


@_message("pause_noted", "host")
class PauseNoted(Message):
    id: int
    table: str
    paused: bool  # the table's state after this request
    waiting: list[int]  # the seats whose consent the open request still needs ([]: none open)
