"""Issue 26, items 10-14: what a client written in another language from
docs/protocol.md alone tripped over is now said there, once and consistently."""

from __future__ import annotations

import re
from pathlib import Path

from lantable.host.limits import DEFAULT_LIMITS
from lantable.protocol._messages import _checker

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = DOC.index(title)
    level = title.split(" ")[0]
    rest = DOC[start + len(title):]
    end = re.search(rf"^{level} ", rest, re.M)
    return rest[:end.start()] if end else rest


def test_item_10_each_error_code_has_one_row_and_shutting_down_is_sent():
    rows = [line.split("|")[1].strip() for line in _section("## Error codes").splitlines()
            if line.startswith("| `")]
    assert len(rows) == len(set(rows)), sorted(r for r in rows if rows.count(r) > 1)
    assert "reserved: a version-1 host does not send it" not in DOC
    row = next(line for line in _section("## Error codes").splitlines()
               if line.startswith("| `shutting_down`"))
    assert "unsolicited" in row and "restart" in row


def test_item_11_framing_gives_the_client_to_host_limit():
    framing = _section("## Framing")
    assert f"{DEFAULT_LIMITS.max_request_bytes:,}".replace(",", " ") in framing
    assert "64 KiB" in framing and "frame_too_large" in framing


def test_item_12_requests_in_flight_and_retrying_after_shutting_down():
    part = _section("### Requests in flight across a drop")
    assert "may or may not have been applied" in part and "full" in part
    assert "After `shutting_down`" in part and "0.5 s" in part


def test_item_13_numbers_sync_spectators_join_id_query_bye():
    assert "BigInt" in DOC and "an integer is accepted" in DOC
    assert "No message closes\nthe reply" in _section("### `sync` (client → host)")
    assert "A spectator has no token" in DOC
    assert "takes it over" in _section("### `join` (client → host)")
    row = next(line for line in _section("## Error codes").splitlines()
               if line.startswith("| `no_such_table`"))
    assert "`query`" in row
    bye = _section("### `bye` (client → host)")
    assert "| Field |" not in bye  # no empty field table
    # what the doc says of numbers holds: an int passes where a float is expected,
    # a float does not where an int is
    assert _checker(float)(3) and not _checker(int)(2.0)


def test_item_14_the_top_says_what_a_client_outside_python_cannot_do():
    top = DOC[:DOC.index("## Transport")]
    assert "What a client outside Python cannot do" in top
    assert "hidden decks" in top and "game_seat_actions" in top
