"""Resume tokens remembered on disk, so a person (or a bot) gets their seat back.

One JSON file in the user's data directory (``platformdirs``; on Linux
``$XDG_DATA_HOME/lantable/seats.json``), keyed by the host's peer id and the table
id, then the seat. A token is a bearer secret: the file is created readable by its
owner only. Writes go through a temporary file and a rename, so a crash never leaves
half a file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import platformdirs


def data_dir() -> Path:
    """Where lantable keeps a user's files (journal, tokens)."""
    return Path(platformdirs.user_data_dir("lantable", appauthor=False))


class TokenStore:
    """Seats this user holds: ``{peer: {table: {seat: {"token", "name", ...}}}}``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / "seats.json"

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, data: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1)
        os.replace(tmp, self.path)

    def seats(self, peer: str, table: str) -> dict[int, dict[str, Any]]:
        """The seats remembered at ``table`` of ``peer``, by seat number."""
        entries = self._load().get(peer, {}).get(table, {})
        return {int(seat): entry for seat, entry in entries.items()
                if isinstance(entry, dict) and isinstance(entry.get("token"), str)}

    def find(self, peer: str, table: str, seat: int | None = None, *, name: str | None = None,
             any_name: bool = False) -> tuple[int, str] | None:
        """(seat, token) of a remembered seat: ``seat`` if given; else the one taken
        under ``name``; else, with ``any_name``, the only one remembered at the table.
        None when there is no single match."""
        seats = self.seats(peer, table)
        if seat is not None:
            entry = seats.get(seat)
            return (seat, entry["token"]) if entry else None
        pick = [s for s, e in seats.items() if name is not None and e.get("name") == name]
        if not pick and any_name:
            pick = list(seats)
        return (pick[0], seats[pick[0]]["token"]) if len(pick) == 1 else None

    def remember(self, peer: str, table: str, seat: int, token: str, **extra: Any) -> None:
        data = self._load()
        data.setdefault(peer, {}).setdefault(table, {})[str(seat)] = {"token": token, **extra}
        self._save(data)

    def forget(self, peer: str, table: str, seat: int | None = None) -> None:
        """Drop one seat (or every seat) remembered at ``table``."""
        data = self._load()
        tables = data.get(peer, {})
        if seat is None:
            tables.pop(table, None)
        else:
            tables.get(table, {}).pop(str(seat), None)
            if not tables.get(table, True):
                tables.pop(table, None)
        if not tables:
            data.pop(peer, None)
        self._save(data)
