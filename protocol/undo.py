"""Undo rows in a journal (docs/protocol.md, "Undo by consent"): the reserved action
that takes back an earlier one, and what a seat signs for it at a fair table. Shared
by the host (host/undo.py), ``lantable replay`` and ``lantable verify``."""

from __future__ import annotations

from typing import Any, Final, TypeVar

UNDO_TYPE: Final = "lantable.undo"  # the reserved action type of an undo row

_R = TypeVar("_R")


def is_undo(action: dict[str, Any]) -> bool:
    """Whether a journalled action is an undo row (``{"type": "lantable.undo",
    "undoes": seq}``)."""
    return isinstance(action, dict) and action.get("type") == UNDO_TYPE


def _action(rec: Any) -> dict[str, Any]:
    action: dict[str, Any] = rec[2] if isinstance(rec, tuple) else rec.action
    return action


def _seq(rec: Any) -> int:
    seq: int = rec[0] if isinstance(rec, tuple) else rec.seq
    return seq


def live_actions(records: list[_R]) -> list[_R]:
    """The actions that stand: each undo row removes the action it undoes (the last
    that stands) and is left out itself. Records have ``.seq`` and ``.action``, or are
    ``(seq, seat, action, events)`` tuples."""
    out: list[_R] = []
    for rec in records:
        action = _action(rec)
        if is_undo(action):
            if out and _seq(out[-1]) == action.get("undoes"):
                out.pop()
        else:
            out.append(rec)
    return out


def undone_seqs(records: list[Any]) -> set[int]:
    """The seqs of the actions some undo row takes back."""
    out: set[int] = set()
    for rec in records:
        action = _action(rec)
        if is_undo(action) and isinstance(action.get("undoes"), int):
            out.add(action["undoes"])
    return out


def undo_fields(table: str, seat: int, seq: int, undoes: int) -> tuple[str, int, int, int]:
    """What a seat signs (kind ``"undo"``) at a fair table: the undo lands as update
    ``seq`` and takes back action ``undoes``."""
    return (table, seat, seq, undoes)
