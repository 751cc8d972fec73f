"""The Connection state machine on bytes: what each side may say when, and errors that stay."""

from __future__ import annotations

import struct

import msgpack
import pytest

from lantable.protocol import (
    CLOSED,
    ERROR,
    HELLO_SENT,
    MIN_PROTOCOL_VERSION,
    NEED_DATA,
    PROTOCOL_VERSION,
    SESSION,
    START,
    TRANSITIONS,
    Accepted,
    Act,
    Bye,
    Connection,
    ConnectionClosed,
    Error,
    ErrorCode,
    Hello,
    Join,
    Joined,
    LocalProtocolError,
    Ping,
    Pong,
    ProtocolError,
    RemoteProtocolError,
    Sync,
    Update,
    Welcome,
    negotiate,
)

from .pairs import connection_at

HELLO = Hello(proto=1, name="ann")
WELCOME = Welcome(proto=1, peer="p1", name="den", tables=[])


def _frame(obj: object) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


# -- conversations through a ConnectionPair -----------------------------------------


def test_a_whole_game_conversation(pair) -> None:
    assert pair.client.state is pair.host.state is START
    pair.send(HELLO)
    assert pair.client.state is HELLO_SENT
    pair.send(WELCOME)
    assert pair.client.state is SESSION
    pair.send(Join(id=1, table="t1"))
    pair.send(Joined(id=1, table="t1", seat=0, token="tok"))
    pair.send(Update(table="t1", seq=0, status="playing", seats=[], seat=0, view={"c": 0},
                     to_act=[0], legal=[{"type": "step", "n": 1}], full=True))
    pair.send(Act(id=2, table="t1", action={"type": "step", "n": 1}))
    pair.send(Accepted(id=2, table="t1", seq=1))
    pair.send(Update(table="t1", seq=1, status="finished", seats=[], seat=0, view={"c": 1},
                     to_act=[], events=[{"type": "won", "seat": 0}], scores={"rank": [1]}))
    pair.send(Sync(id=3, table="t1"))
    pair.send(Error(code=ErrorCode.NOT_SEATED, message="no", id=3, table="t1"))
    pair.send(Ping(id=4))
    pair.send(Pong(id=4))
    pair.send(Bye())
    assert pair.client.state is pair.host.state is CLOSED


def test_refused_hello_closes_both_sides(pair) -> None:
    pair.send(HELLO)
    pair.send(Error(code=ErrorCode.VERSION_UNSUPPORTED, message="no", id=None))
    assert pair.client.state is pair.host.state is CLOSED
    # A Connection does not police its own sends once CLOSED (the host's writer still
    # drains its outbox), but the receiving side refuses anything more.
    pair.host.receive_data(pair.client.send(Ping(id=1)))
    with pytest.raises(RemoteProtocolError) as excinfo:
        pair.host.next_event()
    assert excinfo.value.code == ErrorCode.UNEXPECTED_MESSAGE


def test_hello_may_carry_an_id_and_welcome_echoes_it(pair) -> None:
    pair.send(Hello(proto=1, name="ann", id=7, token="tok"))
    pair.send(Welcome(proto=1, peer="p", name="n", tables=[], id=7,
                      resumed={"table": "t1", "seat": 1, "token": "tok"}))


def test_host_may_send_several_messages_per_request(pair) -> None:
    pair.handshake()
    pair.send(Sync(id=1, table="t1"))
    for seat in (0, 1):
        pair.send(Update(table="t1", seq=3, status="playing", seats=[], seat=seat, view={},
                         to_act=[], full=True, id=1))


def test_host_may_send_unsolicited_errors_and_updates(pair) -> None:
    pair.handshake()
    pair.send(Error(code=ErrorCode.BAD_TOKEN, message="seat 0 was resumed elsewhere", table="t1"))
    pair.send(Update(table="t1", seq=0, status="waiting", seats=[], seat=None, view=None,
                     to_act=[]))


# -- the state table ------------------------------------------------------------------

_ONE_OF_EACH = {
    "hello": HELLO, "welcome": WELCOME, "bye": Bye(), "ping": Ping(id=1), "pong": Pong(id=1),
    "error": Error(code="internal", message="m"), "join": Join(id=1, table="t"),
    "update": Update(table="t", seq=0, status="waiting", seats=[], seat=None, view=None, to_act=[]),
}


def test_the_state_table_is_symmetric_in_shape() -> None:
    assert set(TRANSITIONS) == {"client", "host"}
    states = {START, HELLO_SENT, SESSION, CLOSED, ERROR}
    for table in TRANSITIONS.values():
        for state, moves in table.items():
            assert state in states
            assert set(moves.values()) <= states
    assert [repr(s) for s in (START, HELLO_SENT, SESSION, CLOSED, ERROR)] == [
        "START", "HELLO_SENT", "SESSION", "CLOSED", "ERROR"]


@pytest.mark.parametrize("state", [START, HELLO_SENT, SESSION])
@pytest.mark.parametrize("t", sorted(_ONE_OF_EACH))
def test_receiving_follows_the_state_table(state, t) -> None:
    msg = _ONE_OF_EACH[t]
    role = "host" if msg.sender == "client" else "client"
    conn = connection_at(role, state)
    conn.receive_data(_frame(msg.to_map()))
    allowed = TRANSITIONS[msg.sender].get(state, {})
    if t in allowed:
        assert conn.next_event() == msg
        assert conn.state is allowed[t]
    else:
        with pytest.raises(RemoteProtocolError) as excinfo:
            conn.next_event()
        assert excinfo.value.code == ErrorCode.UNEXPECTED_MESSAGE
        assert t in str(excinfo.value) and repr(state) in str(excinfo.value)
        assert conn.state is ERROR


@pytest.mark.parametrize("state", [START, HELLO_SENT, SESSION])
@pytest.mark.parametrize("t", sorted(_ONE_OF_EACH))
def test_sending_follows_the_state_table(state, t) -> None:
    msg = _ONE_OF_EACH[t]
    conn = connection_at(msg.sender, state)
    allowed = TRANSITIONS[msg.sender].get(state, {})
    if t in allowed:
        assert conn.send(msg)
        assert conn.state is allowed[t]
    else:
        with pytest.raises(LocalProtocolError) as excinfo:
            conn.send(msg)
        assert excinfo.value.code == ErrorCode.UNEXPECTED_MESSAGE
        assert conn.state is state  # a refused send emits nothing and changes nothing


def test_request_before_hello() -> None:
    conn = connection_at("host", START)
    conn.receive_data(_frame({"t": "ping", "id": 1}))
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.next_event()
    assert excinfo.value.code == ErrorCode.UNEXPECTED_MESSAGE


def test_second_hello(pair) -> None:
    pair.handshake()
    pair.host.receive_data(_frame(HELLO.to_map()))
    with pytest.raises(RemoteProtocolError) as excinfo:
        pair.host.next_event()
    assert excinfo.value.code == ErrorCode.UNEXPECTED_MESSAGE


def test_second_hello_before_welcome() -> None:
    conn = connection_at("host", HELLO_SENT)
    conn.receive_data(_frame(HELLO.to_map()))
    with pytest.raises(RemoteProtocolError):
        conn.next_event()


def test_nothing_after_bye(pair) -> None:
    pair.handshake()
    pair.send(Bye())
    pair.host.receive_data(_frame({"t": "ping", "id": 1}))
    with pytest.raises(RemoteProtocolError) as excinfo:
        pair.host.next_event()
    assert excinfo.value.code == ErrorCode.UNEXPECTED_MESSAGE


def test_host_may_still_flush_after_bye(pair) -> None:
    # The host's writer drains what the tables queued before the bye arrived.
    pair.handshake()
    pair.send(Bye())
    assert pair.host.send(Pong(id=1)) == _frame(Pong(id=1).to_map())


def test_a_side_cannot_send_the_other_sides_messages() -> None:
    with pytest.raises(LocalProtocolError):
        Connection("client").send(WELCOME)
    with pytest.raises(LocalProtocolError):
        Connection("host").send(HELLO)
    with pytest.raises(LocalProtocolError):
        Connection("client").send_error(Error(code="internal", message="m"))


def test_a_host_message_arriving_at_a_host_is_an_unknown_type() -> None:
    conn = connection_at("host", SESSION)
    conn.receive_data(_frame(Pong(id=1).to_map()))
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.next_event()
    assert excinfo.value.code == ErrorCode.UNKNOWN_TYPE


def test_a_client_message_arriving_at_a_client_is_an_unknown_type() -> None:
    conn = connection_at("client", SESSION)
    conn.receive_data(_frame(Ping(id=1).to_map()))
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.next_event()
    assert excinfo.value.code == ErrorCode.UNKNOWN_TYPE


def test_role_is_checked() -> None:
    with pytest.raises(ValueError, match="our_role"):
        Connection("server")


def test_messages_are_frozen_and_keyword_only() -> None:
    with pytest.raises(TypeError):
        Ping(1)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Ping(id=1).id = 2  # type: ignore[misc]


def test_protocol_error_base_is_abstract() -> None:
    with pytest.raises(TypeError):
        ProtocolError("x")
    assert RemoteProtocolError("x").code == ErrorCode.BAD_MESSAGE
    assert LocalProtocolError("x", "bad_frame").code is ErrorCode.BAD_FRAME


# -- errors stay -----------------------------------------------------------------------

_BREAKERS = {
    "oversize": struct.pack(">I", 0xFFFFFFFF),
    "not msgpack": b"\x00\x00\x00\x01\xc1",
    "non-map": _frame([1, 2]),
    "unknown t": _frame({"t": "nope"}),
    "bad field": _frame({"t": "ping", "id": "1"}),
    "unexpected": _frame(HELLO.to_map()),
}


@pytest.mark.parametrize("data", _BREAKERS.values(), ids=list(_BREAKERS))
def test_after_a_remote_error_every_later_call_raises(data, pair) -> None:
    pair.handshake()
    host = pair.host
    with pytest.raises(RemoteProtocolError):  # noqa: PT012 - some breakers fail on receive, some on decode
        host.receive_data(data)
        host.next_event()
    assert host.state is ERROR
    with pytest.raises(LocalProtocolError):
        host.receive_data(_frame({"t": "ping", "id": 1}))
    with pytest.raises(LocalProtocolError):
        host.receive_data(b"")
    with pytest.raises(LocalProtocolError):
        host.next_event()
    with pytest.raises(LocalProtocolError):
        host.send(Pong(id=1))
    assert host.state is ERROR
    # ... but the host can still tell the peer why it is closing.
    error = Error(code=ErrorCode.BAD_FRAME, message="m")
    assert host.send_error(error) == _frame(error.to_map())


def test_after_a_remote_error_on_the_client_every_later_call_raises() -> None:
    client = connection_at("client", SESSION)
    client.receive_data(_frame({"t": "update"}))
    with pytest.raises(RemoteProtocolError):
        client.next_event()
    for call in (lambda: client.next_event(), lambda: client.receive_data(b"x"),
                 lambda: client.send(Ping(id=1))):
        with pytest.raises(LocalProtocolError):
            call()


def test_send_failed_moves_to_error() -> None:
    conn = connection_at("client", SESSION)
    conn.send_failed()
    assert conn.state is ERROR
    with pytest.raises(LocalProtocolError):
        conn.send(Ping(id=1))


# -- EOF --------------------------------------------------------------------------------


@pytest.mark.parametrize("state", [START, HELLO_SENT, SESSION])
def test_eof_gives_connection_closed(state) -> None:
    conn = connection_at("host", state)
    conn.receive_data(b"")
    assert isinstance(conn.next_event(), ConnectionClosed)
    assert conn.state is CLOSED
    assert isinstance(conn.next_event(), ConnectionClosed)  # and keeps giving it


def test_eof_after_complete_frames_delivers_them_first() -> None:
    conn = connection_at("host", SESSION)
    conn.receive_data(_frame(Ping(id=1).to_map()) + _frame(Bye().to_map()))
    conn.receive_data(b"")
    assert conn.next_event() == Ping(id=1)
    assert conn.next_event() == Bye()
    assert isinstance(conn.next_event(), ConnectionClosed)


def test_eof_inside_a_frame_is_a_close() -> None:
    conn = connection_at("host", SESSION)
    conn.receive_data(_frame(Ping(id=1).to_map())[:-1])
    assert conn.next_event() is NEED_DATA
    conn.receive_data(b"")
    assert isinstance(conn.next_event(), ConnectionClosed)


def test_connection_closed_repr() -> None:
    assert repr(ConnectionClosed()) == "ConnectionClosed()"
    assert repr(NEED_DATA) == "NEED_DATA"


# -- junk from other protocols fails at once ------------------------------------------------

# The first bytes of a TLS 1.2 ClientHello record and of an HTTP request: as a length
# prefix they read as hundreds of MiB, so the very first receive refuses them.
TLS_CLIENT_HELLO = bytes.fromhex("16030100c4010000c00303") + b"\x00" * 32
HTTP_REQUEST = b"GET / HTTP/1.1\r\nHost: example\r\n\r\n"
SSH_BANNER = b"SSH-2.0-OpenSSH_9.6\r\n"


@pytest.mark.parametrize("junk", [TLS_CLIENT_HELLO, HTTP_REQUEST, SSH_BANNER],
                         ids=["tls", "http", "ssh"])
@pytest.mark.parametrize("role", ["host", "client"])
def test_junk_fails_at_once(junk, role) -> None:
    conn = connection_at(role, START if role == "host" else HELLO_SENT)
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.receive_data(junk)
    assert excinfo.value.code == ErrorCode.FRAME_TOO_LARGE
    assert conn.state is ERROR
    assert conn.trailing_data == 0


def test_http_fails_on_its_first_four_bytes() -> None:
    conn = connection_at("host", START)
    conn.receive_data(b"GE")
    conn.receive_data(b"T")
    with pytest.raises(RemoteProtocolError):
        conn.receive_data(b" ")


# -- version negotiation -----------------------------------------------------------------


def test_this_code_speaks_version_one() -> None:
    assert (MIN_PROTOCOL_VERSION, PROTOCOL_VERSION) == (1, 1)


@pytest.mark.parametrize(("proto", "min_proto", "chosen"), [
    (1, None, 1),  # the usual case
    (1, 1, 1),
    (5, 1, 1),  # a newer client that still speaks 1
    (5, None, None),  # min_proto defaults to proto: the client speaks only 5
    (5, 2, None),  # the client's range 2..5 misses ours
    (0, None, None),  # older than we speak
    (0, 0, None),
    (1, 0, 1),
    (1, 5, None),  # min above max: an empty range
    (-3, -7, None),
])
def test_negotiate(proto, min_proto, chosen) -> None:
    assert negotiate(proto, min_proto) == chosen


@pytest.mark.parametrize(("proto", "min_proto", "chosen"), [
    (3, None, 3),
    (4, 1, 3),  # the highest common version
    (2, None, 2),
    (2, 1, 2),
    (1, None, None),  # below our range 2..3
    (1, 1, None),
    (9, 4, None),
])
def test_negotiate_picks_the_highest_common_version(proto, min_proto, chosen, monkeypatch) -> None:
    # A future host speaking 2..3.
    monkeypatch.setattr("lantable.protocol._connection.MIN_PROTOCOL_VERSION", 2)
    monkeypatch.setattr("lantable.protocol._connection.PROTOCOL_VERSION", 3)
    assert negotiate(proto, min_proto) == chosen
