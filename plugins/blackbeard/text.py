"""Words for people: action labels, event sentences and the board as text."""

from __future__ import annotations

from typing import Any


def describe_action(v: dict[str, Any], seat: int, a: dict[str, Any], names: list[str]) -> str:
    return str(a.get("type"))


def describe_event(v: dict[str, Any], seat: int | None, e: dict[str, Any],
                   names: list[str]) -> str | None:
    return None


def render(v: dict[str, Any], seat: int | None, names: list[str]) -> Any:
    return None
