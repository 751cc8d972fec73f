"""host/reader.py, the one task that reads every TCP session: its edges when the host
stops (the reader's task and the sessions' tasks are cancelled together, in no set
order; issue 28's reader, found by the signal test of issue 25's finding 11)."""

from __future__ import annotations

import socket
from types import SimpleNamespace

import trio

from lantable.host.reader import Reader, Session
from lantable.protocol import Connection


def _session(reader: Reader, sock: socket.socket) -> Session:
    peer = SimpleNamespace(reader=reader, handoff=None)
    clock = SimpleNamespace(last_message=0.0, partial_since=None)
    return Session(sock.fileno(), Connection("host"), None, peer, set(), clock)  # type: ignore[arg-type]


async def test_a_session_leaving_after_the_reader_stopped_ends_quietly():
    reader = Reader()
    a, b = socket.socketpair()
    try:
        session = _session(reader, a)
        async with trio.open_nursery() as nursery:
            await nursery.start(reader.run)
            reader.add(session)
            nursery.cancel_scope.cancel()
        # The reader stopped first: the session was told (it would otherwise wait for a
        # reader that is gone), and its task's own removal raises nothing.
        assert session.ended.is_set() and session.why == "broken"
        reader.remove(session)
        reader.remove(session)
    finally:
        a.close()
        b.close()


async def test_a_session_added_after_the_reader_stopped_ends_at_once():
    reader = Reader()
    a, b = socket.socketpair()
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(reader.run)
            nursery.cancel_scope.cancel()
        session = _session(reader, a)
        reader.add(session)
        assert session.ended.is_set() and session.why == "broken"
        reader.remove(session)
    finally:
        a.close()
        b.close()


async def test_a_session_is_served_then_taken_out_before_its_socket_closes():
    reader = Reader()
    a, b = socket.socketpair()
    try:
        session = _session(reader, a)
        async with trio.open_nursery() as nursery:
            await nursery.start(reader.run)
            reader.add(session)
            b.close()  # the client goes: the reader reads the end of the stream
            with trio.fail_after(5):
                await session.ended.wait()
            assert session.why is None
            nursery.cancel_scope.cancel()
    finally:
        a.close()
