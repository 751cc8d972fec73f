"""Resume tokens remembered on disk, so a person (or a bot) gets their seat back.

One JSON file in the user's data directory (``platformdirs``; on Linux
``$XDG_DATA_HOME/lantable/seats.json``), keyed by the host's peer id and the table
id, then the seat. A token is a bearer secret: the file is created readable by its
owner only. Writes go through a temporary file and a rename, so a crash never leaves
half a file.

Each seat is remembered with its owner (issue 22, "one laptop, many seats"): the
program that took it (``play``, ``bot``) and that program's process (its pid and
start time). A program resumes only the seats it owns whose process is gone (itself
after a crash or Ctrl-C); another program's seat, or a live process's, is taken only
when the user says so (``--take-over``). See docs/decisions.md, "Who owns a seat".
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs


def data_dir() -> Path:
    """Where lantable keeps a user's files (journal, tokens)."""
    return Path(platformdirs.user_data_dir("lantable", appauthor=False))


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, from /proc), or None where
    that cannot be read: with the pid, it tells a live owner from a reused pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else None


def alive(pid: Any, started: Any) -> bool:
    """Whether the process that remembered a seat is still running."""
    if type(pid) is not int or pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, under another user
        pass
    now = _start_time(pid)
    return started is None or now is None or now == started


def owner(program: str) -> dict[str, Any]:
    """What is remembered with a seat about who took it: this process of ``program``."""
    return {"program": program, "pid": os.getpid(), "started": _start_time(os.getpid())}


@dataclass(frozen=True)
class Remembered:
    """A seat remembered on this machine, and who owns it."""

    seat: int
    token: str
    name: str | None
    program: str | None  # "play", "bot", or None (remembered before owners were kept)
    running: bool  # its owner's process is still running

    def owner_text(self) -> str:
        """Who holds it, in words: "lantable bot (random-1@den, still running)"."""
        who = f"lantable {self.program}" if self.program else "another lantable program"
        name = f"{self.name}, " if self.name else ""
        return f"{who} ({name}{'still running' if self.running else 'not running'})"


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

    def remembered(self, peer: str, table: str) -> list[Remembered]:
        """Every seat remembered at ``table`` of ``peer``, with its owner, by seat."""
        out = []
        for seat, entry in sorted(self.seats(peer, table).items()):
            program = entry.get("program")
            out.append(Remembered(seat, entry["token"], entry.get("name"),
                                  program if isinstance(program, str) else None,
                                  alive(entry.get("pid"), entry.get("started"))))
        return out

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
