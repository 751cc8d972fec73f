"""host/reader.py, the one task that reads every TCP session: its edges when the host
stops (the reader's task and the sessions' tasks are cancelled together, in no set
order; issue 28's reader, found by the signal test of issue 25's finding 11)."""

from __future__ import annotations

import socket
from types import SimpleNamespace

import pytest
import trio

from lantable.host.reader import Reader, Session
from lantable.protocol import Connection


def _session(reader: Reader, sock: socket.socket) -> Session:
    peer = SimpleNamespace(reader=reader, handoff=None)
    clock = SimpleNamespace(last_message=0.0, partial_since=None)
    return Session(sock.fileno(), Connection("host"), None, peer, set(), clock)  # type: ignore[arg-type]


@pytest.fixture
def pair():
    """The host's end and the client's end of a connection."""
    a, b = socket.socketpair()
    yield a, b
    a.close()
    b.close()


async def _stopped(reader: Reader, session: Session | None = None) -> None:
    """Run the reader (reading ``session``), then cancel it."""
    async with trio.open_nursery() as nursery:
        await nursery.start(reader.run)
        if session is not None:
            reader.add(session)
        nursery.cancel_scope.cancel()


async def test_a_session_leaving_after_the_reader_stopped_ends_quietly(pair):
    reader = Reader()
    session = _session(reader, pair[0])
    await _stopped(reader, session)
    # The reader stopped first: the session was told (it would otherwise wait for a
    # reader that is gone), and its task's own removal raises nothing.
    assert session.ended.is_set() and session.why == "broken"
    reader.remove(session)
    reader.remove(session)


async def test_a_session_added_after_the_reader_stopped_ends_at_once(pair):
    reader = Reader()
    await _stopped(reader)
    session = _session(reader, pair[0])
    reader.add(session)
    assert session.ended.is_set() and session.why == "broken"
    reader.remove(session)


async def test_a_session_is_served_then_taken_out_before_its_socket_closes(pair):
    reader = Reader()
    a, b = pair
    session = _session(reader, a)
    async with trio.open_nursery() as nursery:
        await nursery.start(reader.run)
        reader.add(session)
        b.close()  # the client goes: the reader reads the end of the stream
        with trio.fail_after(5):
            await session.ended.wait()
        assert session.why is None
        nursery.cancel_scope.cancel()
