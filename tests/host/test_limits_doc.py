"""docs/limits.md lists every host limit with its flag, default and error code, and
``lantable host`` has exactly those flags."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from lantable.clients.cli import build_parser
from lantable.host.limits import CODES, DEFAULT_LIMITS, HELP, Limits, depth_at_most, flag

DOC = Path(__file__).resolve().parents[2] / "docs" / "limits.md"


def _rows() -> dict[str, list[str]]:
    rows = {}
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 5:
            rows[cells[0].strip("`")] = cells
    return rows


def test_every_limit_is_documented_with_flag_default_and_code() -> None:
    rows = _rows()
    names = [f.name for f in dataclasses.fields(Limits)]
    assert list(rows) == names == list(CODES) == list(HELP)
    for name, (_, flag_cell, default, code, _what) in rows.items():
        assert flag_cell == f"`{flag(name)}`"
        assert default == str(getattr(DEFAULT_LIMITS, name))
        assert code.split(" ")[0].strip("`") == (CODES[name].value if CODES[name] else "—")


def test_lantable_host_has_a_flag_per_limit() -> None:
    args = build_parser().parse_args(["host", "--max-tables", "7", "--idle-timeout", "2.5"])
    assert args.max_tables == 7 and args.idle_timeout == 2.5
    for f in dataclasses.fields(Limits):
        assert getattr(args, f.name) == getattr(DEFAULT_LIMITS, f.name) or f.name in (
            "max_tables", "idle_timeout")


def test_limits_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="positive"):
        Limits(max_tables=0)
    with pytest.raises(ValueError, match="max_request_bytes"):
        Limits(max_request_bytes=2 << 20)


def test_depth_is_measured_without_recursion() -> None:
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert not depth_at_most(deep, 16)
    assert depth_at_most({"a": [1, {"b": 2}]}, 3) and not depth_at_most({"a": [{"b": [1]}]}, 3)
