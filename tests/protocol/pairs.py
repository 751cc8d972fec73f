"""Connections for the protocol tests: a pair wired back to back, and one of either
role in a given state, reached through real bytes. Plain functions: import them
(``from .pairs import connection_at``)."""

from __future__ import annotations

from typing import Any

from lantable.protocol import (
    HELLO_SENT,
    NEED_DATA,
    SESSION,
    START,
    TRANSITIONS,
    Connection,
    Hello,
    Message,
    Welcome,
)

HELLO: Hello = Hello(proto=1, name="ann")
WELCOME: Welcome = Welcome(proto=1, peer="p1", name="den", tables=[])


class ConnectionPair:
    """A client and a host Connection wired back to back (h11's ConnectionPair).

    :meth:`send` encodes on one side, feeds the bytes to the other and checks that
    the other side yields exactly what was sent and that both sides agree on the
    state afterwards (the state table is the same from either end).
    """

    def __init__(self) -> None:
        self.client = Connection("client")
        self.host = Connection("host")

    def side(self, role: str) -> Connection:
        return self.client if role == "client" else self.host

    def send(self, msg: Message, expect: Any = None) -> bytes:
        sender = self.side(msg.sender)
        receiver = self.client if sender is self.host else self.host
        data = sender.send(msg)
        receiver.receive_data(data)
        got = receiver.next_event()
        assert got == (msg if expect is None else expect)
        assert receiver.next_event() is NEED_DATA
        assert sender.state is receiver.state
        return data

    def handshake(self) -> None:
        self.send(HELLO)
        self.send(WELCOME)
        assert self.client.state is self.host.state is SESSION


def connection_at(role: str, state: Any) -> Connection:
    """A Connection playing ``role`` that has reached ``state`` through real bytes."""
    pair = ConnectionPair()
    if state is START:
        return pair.side(role)
    pair.send(HELLO)
    if state is HELLO_SENT:
        return pair.side(role)
    pair.send(WELCOME)
    assert state is SESSION, state
    return pair.side(role)


def receiver_for(msg: Message) -> Connection:
    """A Connection of the other role, in the first state where ``msg`` may arrive."""
    role = "host" if msg.sender == "client" else "client"
    for state in (START, HELLO_SENT, SESSION):
        if msg.t in TRANSITIONS[msg.sender].get(state, {}):
            return connection_at(role, state)
    raise AssertionError(f"{msg.t!r} is never allowed")


def sender_for(msg: Message) -> Connection:
    """A Connection of ``msg``'s role, in the first state where it may send ``msg``."""
    for state in (START, HELLO_SENT, SESSION):
        if msg.t in TRANSITIONS[msg.sender].get(state, {}):
            return connection_at(msg.sender, state)
    raise AssertionError(f"{msg.t!r} is never allowed")
