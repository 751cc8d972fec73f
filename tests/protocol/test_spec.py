"""docs/protocol.md against the code: messages, fields, error codes and the state table.

The spec is what client authors in other languages read, so every fact here that the
code also states is checked, and a change to either side that forgets the other fails.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from pathlib import Path
from typing import Any, Union

import pytest

from lantable.protocol import (
    CLIENT_TYPES,
    DEFAULT_MAX_FRAME,
    FATAL_CODES,
    HOST_TYPES,
    MIN_PROTOCOL_VERSION,
    PROTOCOL_VERSION,
    TRANSITIONS,
    ErrorCode,
    Ping,
    encode_frame,
    from_map,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
ALL_TYPES = {**CLIENT_TYPES, **HOST_TYPES}


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _section(doc: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same or a higher level."""
    level = heading.split(" ", 1)[0]
    start = doc.index(f"\n{heading}") + 1
    stop = re.compile(rf"^#{{1,{len(level)}}} ", re.M)
    m = stop.search(doc, start + len(heading))
    return doc[start:m.start() if m else len(doc)]


def _rows(text: str) -> list[list[str]]:
    """The cells of every markdown table row in ``text``, header and rule rows left out."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("|") or set(line) <= {"|", "-", " "}:
            continue
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:] if rows else rows  # the first row is the header


def _message_section(doc: str, t: str) -> str:
    heading = next((line for line in doc.splitlines() if line.startswith(f"### `{t}` (")), None)
    assert heading is not None, f"docs/protocol.md has no '### `{t}` (...)' section"
    return _section(doc, heading)


def _doc_type(hint: Any) -> str:
    """How the spec writes a field's type."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        (inner,) = args
        return f"{_doc_type(inner)} or nil"
    if origin is dict:
        return "map"
    if origin is list:
        (item,) = typing.get_args(hint)
        return "list of maps" if typing.get_origin(item) is dict else f"list of {_doc_type(item)}"
    return hint.__name__


# -- messages ------------------------------------------------------------------------


@pytest.mark.parametrize("t", sorted(ALL_TYPES))
def test_every_message_is_specified_with_its_direction(t, doc) -> None:
    cls = ALL_TYPES[t]
    heading = _message_section(doc, t).splitlines()[0]
    arrow = "(client → host)" if cls.sender == "client" else "(host → client)"
    assert heading == f"### `{t}` {arrow}"


@pytest.mark.parametrize("t", sorted(ALL_TYPES))
def test_every_field_is_specified_with_type_and_requirement(t, doc) -> None:
    cls = ALL_TYPES[t]
    section = _message_section(doc, t)
    table = section.split("```", 1)[0]  # the field table comes before the examples
    documented = {}
    for cells in _rows(table):
        assert len(cells) == 4, cells
        name = cells[0].strip("`")
        assert name not in documented, f"{t}: {name} documented twice"
        documented[name] = (cells[1], cells[2])
    hints = typing.get_type_hints(cls)
    expected = {
        f.name: (_doc_type(hints[f.name]), "yes" if f.default is dataclasses.MISSING else "no")
        for f in dataclasses.fields(cls)
    }
    assert documented == expected
    # The field order in the doc is the order senders use.
    assert list(documented) == [f.name for f in dataclasses.fields(cls)]


@pytest.mark.parametrize("t", sorted(ALL_TYPES))
def test_every_example_is_a_valid_message(t, doc) -> None:
    cls = ALL_TYPES[t]
    examples = re.findall(r"```json\n(.*?)```", _message_section(doc, t), re.S)
    assert examples, f"{t}: no example"
    for text in examples:
        obj = _bins(json.loads(text))
        assert next(iter(obj)) == "t"
        assert type(from_map(obj, cls.sender)) is cls


def _bins(obj):
    """An example as sent: a ``"bin:…"`` string stands for a msgpack bin (the JSON
    examples cannot show bytes)."""
    if isinstance(obj, dict):
        return {k: _bins(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_bins(v) for v in obj]
    return b"\x00" * 32 if isinstance(obj, str) and obj.startswith("bin:") else obj


def test_the_byte_example_is_exact(doc) -> None:
    line = next(line for line in doc.splitlines() if line.startswith("00 00 00 0c"))
    assert bytes.fromhex(line.replace("  ", " ")) == encode_frame(Ping(id=11).to_map())


# -- error codes -------------------------------------------------------------------------


def test_every_error_code_is_specified_with_its_fatality(doc) -> None:
    rows = _rows(_section(doc, "## Error codes"))
    documented = {cells[0].strip("`"): cells[1] for cells in rows if cells[0].startswith("`")}
    assert documented == {c.value: "yes" if c in FATAL_CODES else "no" for c in ErrorCode}
    # ... and in the order of the enum, so the table reads like the code.
    assert list(documented) == [c.value for c in ErrorCode]


# -- the state table -------------------------------------------------------------------


def test_the_state_table_matches_transitions(doc) -> None:
    documented = []
    for cells in _rows(_section(doc, "## State machine")):
        if len(cells) == 4 and cells[0] in ("client", "host"):
            documented.append((cells[0], cells[1], cells[2].strip("`"), cells[3]))
    assert len(documented) == len(set(documented)), "a transition is listed twice"
    actual = {
        (sender, repr(state), t, repr(new))
        for sender, table in TRANSITIONS.items()
        for state, moves in table.items()
        for t, new in moves.items()
    }
    assert set(documented) == actual


def test_the_spec_names_every_state(doc) -> None:
    states = {repr(s) for table in TRANSITIONS.values() for s in table}
    states |= {repr(n) for table in TRANSITIONS.values() for moves in table.values()
               for n in moves.values()}
    for state in states | {"ERROR"}:
        assert f"- **{state}**" in doc


# -- numbers the spec states -------------------------------------------------------------


def test_limits_and_versions(doc) -> None:
    assert DEFAULT_MAX_FRAME == 1 << 20
    assert "1 MiB (1 048 576 bytes)" in doc
    assert f"`{MIN_PROTOCOL_VERSION}..{PROTOCOL_VERSION}`" in doc
    assert f"version {PROTOCOL_VERSION}" in doc.splitlines()[0]


def test_host_constants(doc) -> None:
    from lantable.host.limits import DEFAULT_LIMITS
    from lantable.host.link import OUTBOX_SIZE
    from lantable.host.listener import FLUSH_TIMEOUT
    from lantable.host.peer import DEFAULT_PORT

    HELLO_TIMEOUT = DEFAULT_LIMITS.hello_timeout  # noqa: N806

    assert f"**Default port {DEFAULT_PORT}**" in doc
    assert f"**{HELLO_TIMEOUT:g} seconds**" in doc
    assert f"outbox of {OUTBOX_SIZE}" in doc
    assert f"for up to {FLUSH_TIMEOUT:g} seconds" in doc


def test_the_python_example_uses_only_socket_and_msgpack(doc) -> None:
    import ast

    (code,) = re.findall(r"```python\n(.*?)```", doc, re.S)
    tree = ast.parse(code)  # at least it is Python; it was run against a host when written
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"socket", "struct", "msgpack"}
