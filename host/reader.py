"""Every TCP session's requests, read by one task: the host's read side.

A welcomed TCP connection used to read its own requests in its own task: one trio
wake-up, one task switch and one ``epoll_ctl`` per request, which at 16 busy tables was
about a tenth of the host's CPU per action (``bench/net.py --profile``). Here the
sessions' sockets sit in one level-triggered ``select.epoll`` of the peer's, and one
task waits for it to become readable, then serves every ready socket in turn: read,
decode, :func:`~.requests.route`, exactly as the session's own task did. A request is
still handled in one go and never awaits, so requests to a table still run one at a
time (docs/decisions.md), and the batch's end still commits and writes after them.

Fairness as before: a session is served one request per turn; one whose client sent
several at once keeps the rest for the next turn (a burst yields to everyone else).

Everything around the reading stays with the session's own task (host/listener.py):
its writer, its watchdog, and its end. The reader tells it how the session ended
(:attr:`Session.ended`); a session whose task ends first (a timeout, a slow reader,
the host stopping) is taken out of the reader before its socket closes.

In a worker process the reader routes the requests to the worker's own tables (nearly
all of them) and stops at any other, which the session's task then hands to the
worker's ``claim`` (it may send the connection to another process, which awaits), and
reads on through the reader if the connection stays. Other streams (a WebSocket, a
test's memory stream) and the front of a host with workers (which hands connections
over) keep reading in the session's task (``_next_message`` in host/listener.py).
"""

from __future__ import annotations

import logging
import os
import select
from typing import TYPE_CHECKING, Any, Final

import trio

from lantable.protocol import NEED_DATA, Bye, Connection, ConnectionClosed, ProtocolError

from .requests import route

if TYPE_CHECKING:
    from .link import ClientLink
    from .lobby import Peer

LOGGER = logging.getLogger(__name__)

READ_SIZE: Final = 65536  # bytes per read; frames are reassembled by the protocol


class Claim:
    """How a worker's session stops being read: ``msg`` may name another process's
    table, and handing the connection over awaits (host/workers.py ``claim``)."""

    __slots__ = ("msg",)

    def __init__(self, msg: Any) -> None:
        self.msg = msg


class Session:
    """One welcomed TCP connection's read side, served by the peer's :class:`Reader`.

    ``clock`` is the session's watchdog clock (``last_message``, ``partial_since``).
    When reading ends, :attr:`ended` is set and :attr:`why` says how: None (the client
    closed or said ``bye``), a :class:`ProtocolError` (answer it, then close),
    ``"broken"`` (the socket failed), a :class:`Claim` (a worker's request that may go
    to another process) or another exception (a host bug: logged by the session's task
    as before).
    """

    __slots__ = ("fd", "conn", "link", "peer", "joined", "clock", "ended", "why")

    def __init__(self, fd: int, conn: Connection, link: ClientLink, peer: Peer,
                 joined: set[str], clock: Any) -> None:
        self.fd = fd
        self.conn = conn
        self.link = link
        self.peer = peer
        self.joined = joined
        self.clock = clock
        self.ended = trio.Event()
        self.why: Any = None

    def serve(self, read: bool) -> bool:
        """Read what the socket has (``read``), then handle one request; True if more
        requests are buffered (serve it again next turn)."""
        conn = self.conn
        try:
            if read:
                try:
                    data = os.read(self.fd, READ_SIZE)
                except BlockingIOError:  # a spurious wake-up
                    return False
                except OSError:  # reset by the peer
                    self._end("broken")
                    return False
                conn.receive_data(data)
            msg = conn.next_event()
            clock = self.clock
            if msg is NEED_DATA:
                if clock.partial_since is None and conn.trailing_data:
                    clock.partial_since = trio.current_time()
                return False
            clock.last_message = trio.current_time()
            clock.partial_since = None
            if isinstance(msg, (ConnectionClosed, Bye)):
                self._end(None)
                return False
            handoff = self.peer.handoff
            if handoff is not None and not handoff.routes_here(msg):
                self._end(Claim(msg))  # the session's task asks where it goes (awaits)
                return False
            # replies go out at the batch's end
            route(msg, conn.last_frame_size, self.link, self.peer, self.joined)
            return bool(conn.trailing_data)
        except ProtocolError as exc:
            self._end(exc)
        except Exception as exc:  # a bug: this session ends, logged by its task
            self._end(exc)
        return False

    def _end(self, why: Any) -> None:
        self.why = why
        self.ended.set()
        self.peer.reader.remove(self)


class Reader:
    """The peer's read side for TCP sessions; :meth:`run` in the peer's nursery."""

    def __init__(self) -> None:
        self._epoll = select.epoll()
        self._sessions: dict[int, Session] = {}
        self._again: list[Session] = []  # sessions with requests still buffered

    def add(self, session: Session) -> None:
        """Read ``session`` from now on. Its requests already buffered (sent along with
        its hello) must be served first: the socket may never be readable again. Once
        the reader has stopped (the host is stopping), the session ends at once as if
        its socket broke."""
        if self._epoll.closed:
            session._end("broken")
            return
        self._sessions[session.fd] = session
        self._epoll.register(session.fd, select.EPOLLIN)

    def remove(self, session: Session) -> None:
        """Stop reading ``session`` (before its socket closes); idempotent, and harmless
        after the reader stopped: when the host stops, the reader's task and the
        sessions' tasks are cancelled together, in no set order."""
        if self._sessions.get(session.fd) is session:
            del self._sessions[session.fd]
            if self._epoll.closed:  # the reader stopped first: nothing to unregister
                return
            try:
                self._epoll.unregister(session.fd)
            except OSError:  # already closed
                pass

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
                  ) -> None:
        """Serve the sessions until cancelled."""
        fd = self._epoll.fileno()
        task_status.started()
        try:
            while True:
                if self._again:
                    await trio.lowlevel.checkpoint()
                else:
                    await trio.lowlevel.wait_readable(fd)
                self.turn()
        finally:
            self._epoll.close()
            for session in list(self._sessions.values()):  # none waits for it any more
                session._end("broken")

    def turn(self) -> None:
        """Serve every session that has buffered requests or a readable socket, one
        request each."""
        again, self._again = self._again, []
        sessions = self._sessions
        for session in again:
            if sessions.get(session.fd) is session and session.serve(read=False):
                self._again.append(session)
        for fd, _ in self._epoll.poll(0):
            ready = sessions.get(fd)
            if ready is not None and ready.serve(read=True):
                self._again.append(ready)
