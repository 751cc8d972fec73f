"""What a table knows of a connected client: a name, its seats, and its output.

A table never waits on a client. :meth:`ClientLink.send` only encodes and
buffers, and tells its peer's :class:`BatchEnd`. The batch end runs once per trio
scheduler batch, just before trio waits for I/O: it commits the peer's journal
once for everything the batch did (group commit), then flushes each client's
buffer: straight to its socket when nothing is queued before it, and otherwise to
the connection's writer task through an outbox bounded in writes and in bytes
(``Limits.max_outbox_bytes``). A client whose outbox fills up is dropped
(``too_slow``). If the commit fails, nothing buffered is written.

Each peer owns its :class:`BatchEnd` (its journal and the links with output), so two
peers in one process share nothing (docs/decisions.md, "One batch end per peer").

The direct write saves a task switch per client per action, and the batch-end
flush one commit and one write per client for all the tables that acted in the
batch; the outbox keeps the ordering and the bound whenever a socket cannot take
everything at once.

A serving peer makes its direct writes on a thread of their own
(:class:`~lantable.host._sender.Sender`, C, never holding the GIL): on loopback a
write costs the writer the whole delivery, a fifth of the host's CPU per Manila
action, and the trio thread goes on with the next requests meanwhile. Bytes go out in
the order submitted, after the commit; a write that would block hands what is left to
the link's outbox, as before (:meth:`BatchEnd.serve_sender`); a descriptor is settled
(the thread holds nothing of it) before it closes (:meth:`ClientLink.close_direct`).
Without the compiled module, or with ``LANTABLE_WRITER_THREAD=0``, the trio thread
writes, as it always did (docs/decisions.md, "Socket writes on a thread of their own").
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
from typing import TYPE_CHECKING, Any, Final

import trio

from lantable.protocol import ERROR, Error

from .journal import JournalFailed

try:
    from ._sender import Sender
except ImportError:  # built without a C compiler: the trio thread writes
    Sender = None  # type: ignore[assignment,misc]

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from lantable.protocol import Connection, Message, SharedUpdate

    from .journal import Journal

LOGGER = logging.getLogger(__name__)

# Writes queued for one client before it counts as stuck and is dropped. A table
# sends one or two messages per action, so 512 is minutes of a slow reader.
OUTBOX_SIZE: Final = 512

# A batch end with at least this many links to write hands them to the writer thread
# (one Manila action at one table writes to its 4 seats; at 16 busy tables a batch
# writes to 30-60): below it, the trio thread writes them itself.
THREAD_MIN_WRITES: Final = 8

_ids = itertools.count(1)


class ClientLink:
    """One connection as the lobby and tables see it.

    Args:
        name: the client's name from its hello.
        peer: its address, for logs.
        conn: the connection's protocol state, which encodes what we send.
        batch: the peer's batch end, which writes the buffer out.
        fd: the socket's file descriptor for direct writes, or None to always queue.
        frame: what the transport wraps around each write of lantable frames (a
            WebSocket's binary messages, ``lantable.web``), or None for TCP.
    """

    def __init__(self, name: str, peer: str, conn: Connection, batch: BatchEnd,
                 fd: int | None = None, max_outbox_bytes: int = 8 << 20,
                 frame: Callable[[bytes], bytes] | None = None) -> None:
        self.id = next(_ids)
        self.name = name
        self.peer = peer
        self.seats: dict[str, set[int]] = {}
        self.watching: set[str] = set()  # tables this client spectates
        self.address = peer.rpartition(":")[0] or peer  # per-client limits count by address
        self.outbox, self.outbox_receive = trio.open_memory_channel[bytes](OUTBOX_SIZE)
        self.dropped = trio.Event()
        self.gone = False  # ``dropped`` is set (a plain flag: read for every update)
        self.conn = conn
        self.batch = batch
        self.fd = fd
        self.frame = frame
        if fd is not None and batch.sender is not None:
            batch.by_fd[fd] = self  # a flagged descriptor's link (BatchEnd.serve_sender)
        self.queued = 0  # writes handed to the writer task and not yet sent
        self.queued_bytes = 0  # their size
        self.max_outbox_bytes = max_outbox_bytes
        self.key: str | None = None  # the client's Ed25519 public key (hex), for fair play
        self.key_refused: str | None = None  # why the hello's key was refused, if it was
        self.words = False  # hello.words: updates carry the game's labels and sentences
        self.decks = False  # hello.decks: it can sit at a hidden-deck table
        self._buf: list[bytes] = []

    def __repr__(self) -> str:
        return f"<client {self.id} {self.name!r} {self.peer}>"

    def send(self, msg: Message) -> bool:
        """Buffer ``msg`` for this client; False if the client is gone.

        After a protocol error only the closing ``error`` goes out: the stream is
        untrusted from then on.
        """
        if self.gone:
            return False
        if isinstance(msg, Error):
            data = self.conn.send_error(msg)  # allowed in any state, even after a remote error
        elif self.conn.state is ERROR:
            return True
        else:
            data = self.conn.send(msg)
        self._buf.append(data)
        self.batch.dirty[self] = None
        return True

    def send_update(self, shared: SharedUpdate, *, seat: int | None, view: Any,
                    legal: list[dict[str, Any]] | None = None, events: Any = None,
                    id: int | None = None, **words: Any) -> bool:
        """Buffer an update: ``shared`` plus this recipient's fields (see
        :meth:`Connection.send_update`; ``words``: its labels, sentences and text
        board); False if the client is gone."""
        if self.gone:
            return False
        conn = self.conn
        if conn.state is ERROR:
            return True
        self._buf.append(conn.send_update(shared, seat=seat, view=view, legal=legal,
                                          events=events, id=id, **words))
        self.batch.dirty[self] = None
        return True

    @property
    def receiving(self) -> bool:
        """False once the client is dropped or broke the protocol (nothing more is sent)."""
        return not self.gone and self.conn.state is not ERROR

    def encode_update(self, shared: SharedUpdate, **own: Any) -> bytes:
        """The bytes of an update for this client (for :meth:`send_encoded` to this and
        other clients in the same state: spectators share one copy).

        Raises:
            LocalProtocolError: the update cannot be encoded or is too large.
        """
        return self.conn.send_update(shared, **own)

    def send_encoded(self, data: bytes) -> bool:
        """Buffer an already encoded update; False if the client is gone."""
        if self.gone:
            return False
        if self.conn.state is ERROR:
            return True
        self._buf.append(data)
        self.batch.dirty[self] = None
        return True

    def flush(self, sender: Sender | None = None) -> bool:
        """Write or queue the buffer (through the writer thread ``sender`` if given);
        True if that woke a task (writer or drop)."""
        if not self._buf or self.gone:
            self._buf.clear()
            return False
        # One buffered update is written as is: spectators share its bytes.
        data = self._buf[0] if len(self._buf) == 1 else b"".join(self._buf)
        self._buf.clear()
        if self.frame is not None:
            data = self.frame(data)
        if self.fd is not None and not self.queued:
            if sender is not None:  # the writer thread writes it, in order
                sender.submit(self.fd, data)
                return False
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
        return self._queue(data)

    def _queue(self, data: bytes) -> bool:
        """Hand ``data`` to the connection's writer task (after what it holds); True:
        that woke a task (the writer, or the drop watcher of a client too slow)."""
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

    def discard_output(self) -> None:
        """Forget what is buffered (the batch's commit failed: it must not be seen)."""
        self._buf.clear()

    def close_direct(self) -> None:
        """No more direct writes (the socket is about to close, or failed). What the
        writer thread still held of this descriptor is written or handed to the
        outbox first: the descriptor's number may be reused once it closes."""
        fd = self.fd
        if fd is None:
            return
        self.fd = None
        sender = self.batch.sender
        if sender is not None:
            if self.batch.by_fd.get(fd) is self:
                del self.batch.by_fd[fd]
            self._settled(*sender.settle(fd))

    def settle(self) -> None:
        """Wait until the writer thread has written what it holds of this link (a
        connection about to go to another process: host/workers.py); what would have
        blocked goes to the outbox."""
        sender = self.batch.sender
        if sender is not None and self.fd is not None:
            self._settled(*sender.settle(self.fd))

    def _settled(self, rest: bytes, err: int) -> None:
        if err:  # the peer is gone; the reader will notice and clean up
            self.close_direct()
        elif rest and not self.gone:
            with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                self._queue(rest)

    def drop(self) -> None:
        self.gone = True  # first: what the writer thread held is not queued again
        self.close_direct()
        self.dropped.set()


class BatchEnd(trio.abc.Instrument):
    """One peer's end of every trio scheduler batch: commit its journal, then flush
    what its links buffered.

    Installed as a trio instrument (:meth:`installed`), :meth:`before_io_wait` runs
    each time trio is about to wait for I/O, which is once per scheduler batch:
    everything the batch's tasks sent goes out together, after the one commit that
    covers it. trio computes the I/O wait's timeout before this hook runs, so when a
    flush wakes a task the loop is poked (``run_sync_soon``) rather than left asleep.

    Args:
        journal: the peer's journal, or None (a test of the output alone).
    """

    def __init__(self, journal: Journal | None = None) -> None:
        self.journal = journal
        # Links with buffered bytes, in the order they were first written to (a dict as
        # an ordered set): the client whose request caused a change (its ``accepted``)
        # is written first.
        self.dirty: dict[ClientLink, None] = {}
        self._token: trio.lowlevel.TrioToken | None = None
        self.sender: Sender | None = None  # the writer thread, while serving
        self.thread_min_writes = THREAD_MIN_WRITES
        self.by_fd: dict[int, ClientLink] = {}  # links the writer thread writes for

    def commit(self) -> bool:
        """Commit the journal; False if that failed, after discarding every buffer (it
        may hold updates the journal does not; the peer then stops)."""
        journal = self.journal
        if journal is None or not journal.uncommitted:
            return True
        try:
            journal.commit()
        except JournalFailed:
            LOGGER.critical("journal commit failed; discarding the batch's output",
                            exc_info=True)
            for link in self.dirty:
                link.discard_output()
            self.dirty.clear()
            return False
        return True

    def flush(self) -> bool:
        """Write out what every link has buffered (call :meth:`commit` first); True if
        that woke a task (a writer or a drop watcher)."""
        woke = False
        dirty = self.dirty
        sender = self.sender
        while dirty:
            links = list(dirty)
            dirty.clear()
            # A few writes are made here: waking the writer thread would cost more
            # (a system call, and the latency of a wake-up on another core) than they
            # do. Many go to the thread, and so does everything while it holds bytes
            # (which must not be passed).
            via = sender if sender is not None and (
                len(links) >= self.thread_min_writes or not sender.idle()) else None
            for link in links:
                woke |= link.flush(via)
            if via is not None:
                via.kick()  # one wake-up of the writer thread for the whole batch
        return woke

    def end(self) -> bool:
        """The batch's end: :meth:`commit`, then :meth:`flush`. True if a task was woken
        (a writer, a drop watcher, or the peer told of a failed commit). Never raises."""
        if not self.commit():
            return True
        return self.flush()

    def before_io_wait(self, timeout: float) -> None:
        try:
            if self.end() and timeout > 0 and self._token is not None:
                self._token.run_sync_soon(_nothing)
        except Exception:  # trio would remove a raising instrument; keep flushing
            LOGGER.exception("flush failed")

    async def serve_sender(self, *, task_status: trio.TaskStatus[None] =
                           trio.TASK_STATUS_IGNORED) -> None:
        """Make the direct writes on a thread of their own while this runs (in the
        peer's nursery), if the compiled writer is there and not turned off
        (``LANTABLE_WRITER_THREAD=0``). A descriptor whose write would have blocked
        (or failed) is flagged: its link's rest goes to the link's outbox (or the link
        stops writing directly). Stopping writes what was submitted first.
        ``LANTABLE_WRITER_THREAD=always`` hands it every batch's writes (tests)."""
        mode = os.environ.get("LANTABLE_WRITER_THREAD", "1")
        if Sender is None or mode == "0":
            task_status.started()
            return
        self.thread_min_writes = 1 if mode == "always" else THREAD_MIN_WRITES
        sender = Sender()
        self.sender = sender
        try:
            task_status.started()
            while True:
                await trio.lowlevel.wait_readable(sender.notify_fd)
                for fd in sender.flagged():
                    link = self.by_fd.get(fd)  # none once it closed (close_direct)
                    if link is not None:
                        link.settle()
                    else:  # a link already settled at its close: forget it
                        sender.settle(fd)
        finally:
            for link in list(self.by_fd.values()):
                link.close_direct()  # settled: what would have blocked goes to its outbox
            self.sender = None
            sender.close()

    def sender_busy(self) -> bool:
        """Whether the writer thread still holds bytes: to write, or kept aside for a
        link's outbox (not yet settled)."""
        return self.sender is not None and not self.sender.idle()

    @contextlib.contextmanager
    def installed(self) -> Iterator[BatchEnd]:
        """Run :meth:`end` at every batch's end while in this block (inside trio)."""
        self._token = trio.lowlevel.current_trio_token()
        trio.lowlevel.add_instrument(self)
        try:
            yield self
        finally:
            trio.lowlevel.remove_instrument(self)


def _nothing() -> None:
    pass
