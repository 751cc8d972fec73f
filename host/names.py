"""Players' names: what the host accepts, and one name per person at a table."""

from __future__ import annotations

import unicodedata


def name_problem(name: str, max_bytes: int) -> str | None:
    """Why ``name`` cannot be a player's name (a sentence), or None."""
    if len(name.encode("utf-8", "surrogatepass")) > max_bytes:
        return f"name is longer than {max_bytes} bytes"
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        return "name has control characters"
    if not name.strip():
        return "name is empty; give at least one letter"
    return None


def unique_name(name: str, others: list[str | None], max_bytes: int = 64) -> str:
    """``name``, or ``name (2)``, ``name (3)``... : the first that no other seat at the
    table has (case and surrounding spaces ignored), cut to ``max_bytes`` UTF-8 bytes."""
    taken = {o.strip().casefold() for o in others if o is not None}
    if name.strip().casefold() not in taken:
        return name
    n = 2
    while True:
        suffix = f" ({n})"
        base = name.encode("utf-8", "surrogatepass")[:max_bytes - len(suffix)]
        candidate = base.decode("utf-8", "ignore").rstrip() + suffix
        if candidate.casefold() not in taken:
            return candidate
        n += 1
