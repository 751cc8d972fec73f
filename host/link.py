"""What a table knows of a connected client: a name, its seats, and its output.

A table never waits on a client. :meth:`ClientLink.send` only encodes and
buffers. :func:`flush` runs once per trio scheduler batch, just before trio waits
for I/O (:class:`FlushAtBatchEnd`): it commits the journal once for everything
the batch did (group commit), then writes each client's buffer straight to its
socket when nothing is queued before it, and otherwise hands it to the
connection's writer task through an outbox bounded in writes and in bytes
(``Limits.max_outbox_bytes``). A client whose outbox fills up is dropped
(``too_slow``). If the commit fails, nothing buffered is written.

The direct write saves a task switch per client per action, and the batch-end
flush one commit and one write per client for all the tables that acted in the
batch; the outbox keeps the ordering and the bound whenever a socket cannot take
everything at once.
"""

from __future__ import annotations

import itertools
import logging
import os
from typing import TYPE_CHECKING, Any, Final

import trio

from lantable.protocol import ERROR, Error

from .journal import JournalFailed, commit_all

if TYPE_CHECKING:
    from collections.abc import Callable

    from lantable.protocol import Connection, Message, SharedUpdate

LOGGER = logging.getLogger(__name__)

# Writes queued for one client before it counts as stuck and is dropped. A table
# sends one or two messages per action, so 512 is minutes of a slow reader.
OUTBOX_SIZE: Final = 512

_ids = itertools.count(1)
# Links with buffered bytes, in the order they were first written to (a dict as an
# ordered set): the client whose request caused a change (its ``accepted``) is
# written first. trio is single-threaded, so one module-level set serves every peer.
_dirty: dict[ClientLink, None] = {}


class ClientLink:
    """One connection as the lobby and tables see it.

    Args:
        name: the client's name from its hello.
        peer: its address, for logs.
        conn: the connection's protocol state, which encodes what we send.
        fd: the socket's file descriptor for direct writes, or None to always queue.
        frame: what the transport wraps around each write of lantable frames (a
            WebSocket's binary messages, ``lantable.web``), or None for TCP.
    """

    def __init__(self, name: str, peer: str, conn: Connection, fd: int | None = None,
                 max_outbox_bytes: int = 8 << 20,
                 frame: Callable[[bytes], bytes] | None = None) -> None:
        self.id = next(_ids)
        self.name = name
        self.peer = peer
        self.seats: dict[str, set[int]] = {}
        self.watching: set[str] = set()  # tables this client spectates
        self.address = peer.rpartition(":")[0] or peer  # per-client limits count by address
        self.outbox, self.outbox_receive = trio.open_memory_channel[bytes](OUTBOX_SIZE)
        self.dropped = trio.Event()
        self.conn = conn
        self.fd = fd
        self.frame = frame
        self.queued = 0  # writes handed to the writer task and not yet sent
        self.queued_bytes = 0  # their size
        self.max_outbox_bytes = max_outbox_bytes
        self.key: str | None = None  # the client's Ed25519 public key (hex), for fair play
        self.words = False  # hello.words: updates carry the game's labels and sentences
        self._buf: list[bytes] = []

    def __repr__(self) -> str:
        return f"<client {self.id} {self.name!r} {self.peer}>"

    def send(self, msg: Message) -> bool:
        """Buffer ``msg`` for this client; False if the client is gone.

        After a protocol error only the closing ``error`` goes out: the stream is
        untrusted from then on.
        """
        if self.dropped.is_set():
            return False
        if isinstance(msg, Error):
            data = self.conn.send_error(msg)  # allowed in any state, even after a remote error
        elif self.conn.state is ERROR:
            return True
        else:
            data = self.conn.send(msg)
        self._buf.append(data)
        _dirty[self] = None
        return True

    def send_update(self, shared: SharedUpdate, **own: Any) -> bool:
        """Buffer an update: ``shared`` plus this recipient's fields (see
        :meth:`Connection.send_update`); False if the client is gone."""
        if self.dropped.is_set():
            return False
        if self.conn.state is ERROR:
            return True
        self._buf.append(self.conn.send_update(shared, **own))
        _dirty[self] = None
        return True

    @property
    def receiving(self) -> bool:
        """False once the client is dropped or broke the protocol (nothing more is sent)."""
        return not self.dropped.is_set() and self.conn.state is not ERROR

    def encode_update(self, shared: SharedUpdate, **own: Any) -> bytes:
        """The bytes of an update for this client (for :meth:`send_encoded` to this and
        other clients in the same state: spectators share one copy).

        Raises:
            LocalProtocolError: the update cannot be encoded or is too large.
        """
        return self.conn.send_update(shared, **own)

    def send_encoded(self, data: bytes) -> bool:
        """Buffer an already encoded update; False if the client is gone."""
        if self.dropped.is_set():
            return False
        if self.conn.state is ERROR:
            return True
        self._buf.append(data)
        _dirty[self] = None
        return True

    def flush(self) -> bool:
        """Write or queue the buffer; True if that woke a task (writer or drop)."""
        if not self._buf or self.dropped.is_set():
            self._buf.clear()
            return False
        # One buffered update is written as is: spectators share its bytes.
        data = self._buf[0] if len(self._buf) == 1 else b"".join(self._buf)
        self._buf.clear()
        if self.frame is not None:
            data = self.frame(data)
        if self.fd is not None and not self.queued:
            try:
                written = os.write(self.fd, data)
            except BlockingIOError:
                written = 0
            except OSError:  # the peer is gone; the reader will notice and clean up
                self.close_direct()
                return False
            data = data[written:]
            if not data:
                return False
        if self.queued_bytes + len(data) > self.max_outbox_bytes:
            LOGGER.warning("%r does not read its updates (%d bytes waiting); dropped",
                           self, self.queued_bytes + len(data))
            self.drop()
            return True
        try:
            self.outbox.send_nowait(data)
            self.queued += 1
            self.queued_bytes += len(data)
        except trio.WouldBlock:
            LOGGER.warning("%r does not read its updates; dropped", self)
            self.drop()
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        return True

    def close_direct(self) -> None:
        """No more direct writes (the socket is about to close, or failed)."""
        self.fd = None

    def drop(self) -> None:
        self.close_direct()
        self.dropped.set()


def flush() -> bool:
    """Commit the journal, then write out what every link has buffered.

    Returns True if a task was woken (a writer, a drop watcher, or the peer told of
    a failed commit). Never raises: after a failed commit every buffer is discarded,
    since it may hold updates the journal does not (the peer then stops).
    """
    try:
        commit_all()
    except JournalFailed:
        LOGGER.critical("journal commit failed; discarding the batch's output", exc_info=True)
        for link in _dirty:
            link._buf.clear()
        _dirty.clear()
        return True
    woke = False
    while _dirty:
        links = list(_dirty)
        _dirty.clear()
        for link in links:
            woke |= link.flush()
    return woke


class FlushAtBatchEnd(trio.abc.Instrument):
    """Calls :func:`flush` each time trio is about to wait for I/O, which is once per
    scheduler batch: everything the batch's tasks sent goes out together.

    trio computes the I/O wait's timeout before this hook runs, so when a flush wakes
    a task the loop is poked (``run_sync_soon``) rather than left asleep.
    """

    def __init__(self) -> None:
        self._token = trio.lowlevel.current_trio_token()

    def before_io_wait(self, timeout: float) -> None:
        try:
            if flush() and timeout > 0:
                self._token.run_sync_soon(_nothing)
        except Exception:  # trio would remove a raising instrument; keep flushing
            LOGGER.exception("flush failed")


def _nothing() -> None:
    pass
