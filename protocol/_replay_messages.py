"""Finished tables and their replays (docs/protocol.md, "Finished tables and
replays"): step through a finished game, hide a finished table from the lobby, mark
one to keep through the journal's compaction.

They live apart from :mod:`._messages` like the fair-play messages; they register in
the same tables and are checked the same way.
"""

from __future__ import annotations

from typing import Any

from ._messages import Message, _message

# -- client -> host -------------------------------------------------------------------


@_message("replay", "client")
class Replay(Message):
    """Ask for one step of a finished table's replay, as one seat saw it or a spectator."""

    id: int
    table: str
    step: int  # 0: the table as set up; n: after its n-th action
    seat: int | None = None  # whose view; None: the spectator's


@_message("hide_table", "client")
class HideTable(Message):
    """Take a finished table off the lobby's list (its journal stays, for ``replay``)."""

    id: int
    table: str


@_message("keep_table", "client")
class KeepTable(Message):
    """Mark a finished table to keep (or not) when the host compacts its journal."""

    id: int
    table: str
    keep: bool


# -- host -> client -------------------------------------------------------------------


@_message("replay_step", "host")
class ReplayStep(Message):
    """One step of a replay: the board as ``seat`` saw it after action ``step``."""

    id: int
    table: str
    game: str
    step: int
    steps: int  # the number of actions: steps run from 0 to this
    seat: int | None  # whose view this is; None: the spectator's
    seat_views: bool  # whether seats' views may be asked for (not at a hidden-deck table)
    names: list[str]  # the seats' names
    view: dict[str, Any]
    to_act: list[int]  # the seats that had to decide at this step
    events: list[dict[str, Any]]  # the events of action ``step`` that ``seat`` saw
    sentences: list[str]  # the game's sentence for each event
    actor: int | None = None  # the seat that took action ``step`` (None at step 0)
    scores: dict[str, Any] | None = None  # at the last step: the final scores
    kept: bool | None = None  # True: the table is marked to keep


@_message("table_hidden", "host")
class TableHidden(Message):
    """Reply to ``hide_table``."""

    id: int
    table: str


@_message("table_kept", "host")
class TableKept(Message):
    """Reply to ``keep_table``."""

    id: int
    table: str
    keep: bool
