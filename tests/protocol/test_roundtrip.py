"""Hypothesis: every valid message survives bytes, and no byte string breaks the reader.

Strategies are built from the message dataclasses' own field types, so a new field
or message is covered without touching this file.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Union

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lantable.protocol import (
    CLIENT_TYPES,
    HOST_TYPES,
    NEED_DATA,
    SESSION,
    Connection,
    ConnectionClosed,
    Hello,
    Message,
    RemoteProtocolError,
    Welcome,
    decode_body,
    encode_frame,
    from_map,
)

from .pairs import receiver_for

# msgpack carries integers in -2**63 .. 2**64-1.
INTS = st.integers(min_value=-(2**63), max_value=2**64 - 1)
# Game data: what msgpack carries and DESIGN.md allows (plus bin, which the protocol
# carries as bytes). NaN is left out only because NaN != NaN would fail the equality.
PLAIN = st.recursive(
    st.none() | st.booleans() | INTS | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
PLAIN_MAPS = st.dictionaries(st.text(max_size=6), PLAIN, max_size=4)


def strategy_for(hint: Any) -> st.SearchStrategy[Any]:
    """Values that conform to a message field's type hint."""
    if hint is Any:  # a game's plain data (a query's answer)
        return PLAIN
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        return st.one_of(*(strategy_for(h) for h in typing.get_args(hint)))
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return INTS
    if hint is str:
        return st.text(max_size=12)
    if hint is bytes:
        return st.binary(max_size=40)
    if origin is dict:
        return PLAIN_MAPS
    if origin is list:
        (item,) = typing.get_args(hint)
        return st.lists(strategy_for(item), max_size=4)
    raise AssertionError(f"no strategy for {hint!r}; add one")


def messages_of(cls: type[Message]) -> st.SearchStrategy[Message]:
    hints = typing.get_type_hints(cls)
    fields = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        value = strategy_for(hints[f.name])
        # Optional fields are sometimes left out altogether.
        fields[f.name] = value if f.default is dataclasses.MISSING else st.just(f.default) | value
    return st.builds(cls, **fields)


ALL_TYPES = {**CLIENT_TYPES, **HOST_TYPES}
# Random bodies behind correct length prefixes, to get past the framing more often.
FRAMED = st.lists(st.binary(max_size=60), min_size=1, max_size=4).map(
    lambda bodies: b"".join(len(b).to_bytes(4, "big") + b for b in bodies))
HELLO = Hello(proto=1, name="fuzz")
WELCOME = Welcome(proto=1, peer="p", name="n", tables=[])


@pytest.mark.parametrize("t", sorted(ALL_TYPES))
def test_round_trip(t: str) -> None:
    cls = ALL_TYPES[t]

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(messages_of(cls))
    def check(msg: Message) -> None:
        data = encode_frame(msg.to_map())
        assert int.from_bytes(data[:4], "big") == len(data) - 4
        assert from_map(decode_body(data[4:]), msg.sender) == msg
        # ... and through a Connection, in pieces, with the next frame's start behind it.
        conn = receiver_for(msg)
        conn.receive_data(data[:3])
        conn.receive_data(data[3:] + b"\x00")
        assert conn.next_event() == msg
        assert conn.next_event() is NEED_DATA
        assert conn.trailing_data == 1

    check()


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200) | FRAMED,
       st.lists(st.integers(min_value=1, max_value=40), max_size=30),
       st.sampled_from(["host", "client"]), st.booleans())
def test_random_bytes_raise_only_remote_protocol_error(data, cuts, role, handshaken) -> None:
    conn = Connection(role)
    if role == "client":
        conn.send(HELLO)  # a client only reads after saying hello
    if handshaken:
        _welcome(conn)
    chunks, pos = [], 0
    for cut in cuts:
        chunks.append(data[pos:pos + cut])
        pos += cut
    chunks = [c for c in [*chunks, data[pos:]] if c]  # b"" would mean EOF
    try:
        for chunk in [*chunks, b""]:
            conn.receive_data(chunk)
            while (event := conn.next_event()) is not NEED_DATA:
                if isinstance(event, ConnectionClosed):
                    return
    except RemoteProtocolError:
        pass


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(["t", "id", "proto", "name", "table", "seat", "action",
                                        "token", "x"]),
                       st.sampled_from(["hello", "join", "act", "ping", "welcome"]) | PLAIN,
                       max_size=6),
       st.sampled_from(["host", "client"]))
def test_random_maps_raise_only_remote_protocol_error(obj, role) -> None:
    # Random maps get past the framing and msgpack, so they exercise the field checks.
    conn = Connection(role)
    if role == "client":
        conn.send(HELLO)
    _welcome(conn)
    conn.receive_data(encode_frame(obj))
    try:
        while conn.next_event() is not NEED_DATA:
            pass
    except RemoteProtocolError:
        pass


def _welcome(conn: Connection) -> None:
    """Bring ``conn`` to SESSION through real bytes from a partner."""
    partner = Connection("client" if conn.our_role == "host" else "host")
    if conn.our_role == "host":
        conn.receive_data(partner.send(HELLO))
        conn.next_event()
        conn.send(WELCOME)
    else:
        partner.receive_data(encode_frame(HELLO.to_map()))
        partner.next_event()
        conn.receive_data(partner.send(WELCOME))
        conn.next_event()
    assert conn.state is SESSION
