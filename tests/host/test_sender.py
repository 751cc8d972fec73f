"""host/_sender.c, the host's socket writes on a thread of their own: order, a write
that would block, a failed write, and never a write to a descriptor once it is settled
(it may close and its number be reused). The host's use of it is tested by every
network test (a serving peer writes through it); ``LANTABLE_WRITER_THREAD=0`` and the
in-process tests cover the trio thread's own writes."""

from __future__ import annotations

import errno
import os
import select
import shutil
import socket
import struct
import sysconfig

import pytest

try:
    from lantable.host._sender import Sender
except ImportError:  # checked below: built wherever a C compiler is
    Sender = None

def test_the_writer_thread_is_built_where_a_c_compiler_is():
    headers = os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))
    if not (shutil.which("cc") or shutil.which("gcc")) or not headers:
        pytest.skip("no C compiler or no Python headers: the trio thread writes")
    assert Sender is not None, "pip install built no lantable.host._sender (a compile error?)"


def _pair(sndbuf: int | None = None) -> tuple[socket.socket, socket.socket]:
    """A loopback TCP connection, as the host's (a Unix socketpair counts each small
    write's overhead against its buffer, so it would block far sooner)."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        b = socket.create_connection(server.getsockname())
        a, _ = server.accept()
    if sndbuf is not None:
        a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
        b.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, sndbuf)
    a.setblocking(False)
    return a, b


@pytest.fixture
def connect():
    """``connect(sndbuf=None)``: the host's end and the client's end of a loopback
    connection, both closed after the test."""
    made: list[socket.socket] = []

    def make(sndbuf: int | None = None) -> tuple[socket.socket, socket.socket]:
        a, b = _pair(sndbuf)
        made.extend((a, b))
        return a, b

    yield make
    for sock in made:
        sock.close()


@pytest.fixture
def sender():
    if Sender is None:
        pytest.skip("host/_sender.c was not built")
    made = Sender()
    yield made
    made.close()


def _read_all(sock: socket.socket, n: int, timeout: float = 5.0) -> bytes:
    sock.settimeout(timeout)
    got = bytearray()
    while len(got) < n:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        got += chunk
    return bytes(got)


def _flagged(sender, timeout: float = 5.0) -> list[int]:
    ready, _, _ = select.select([sender.notify_fd], [], [], timeout)
    assert ready, "no descriptor was flagged"
    return sender.flagged()


def test_bytes_go_out_in_the_order_submitted_once_kicked(sender, connect):
    a, b = connect()
    chunks = [f"update {i};".encode() for i in range(2000)]
    for chunk in chunks:
        sender.submit(a.fileno(), chunk)
    sender.kick()
    assert _read_all(b, sum(map(len, chunks))) == b"".join(chunks)
    assert sender.settle(a.fileno()) == (b"", 0)
    assert sender.idle()  # nothing queued, being written or kept aside


def test_a_write_that_would_block_keeps_the_rest_aside_in_order(sender, connect):
    a, b = connect(sndbuf=4096)
    chunks = [bytes([i % 251]) * 1000 for i in range(3000)]  # 3 MB, nobody reads
    for chunk in chunks:
        sender.submit(a.fileno(), chunk)
    sender.kick()
    assert _flagged(sender) == [a.fileno()]
    assert not sender.idle()  # a descriptor is diverted: nobody may pass its bytes
    rest, err = sender.settle(a.fileno())
    assert err == 0 and 0 < len(rest) < 3_000_000 and sender.idle()
    written = _read_all(b, 3_000_000 - len(rest))
    assert written + rest == b"".join(chunks)  # nothing lost, nothing twice, in order
    # settled: the descriptor is written directly again
    sender.submit(a.fileno(), b"after")
    sender.kick()
    assert _read_all(b, 5) == b"after"


def test_a_failed_write_flags_its_errno_and_drops_the_rest(sender, connect):
    a, b = connect()
    b.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    b.close()  # a reset: a's next send fails
    flagged: list[int] = []
    for _ in range(100):  # until the reset has arrived
        sender.submit(a.fileno(), b"x" * 100)
        sender.kick()
        if select.select([sender.notify_fd], [], [], 0.05)[0]:
            flagged = sender.flagged()
            break
    assert flagged == [a.fileno()]
    rest, err = sender.settle(a.fileno())
    assert rest == b"" and err in (errno.EPIPE, errno.ECONNRESET)


def test_nothing_is_written_to_a_descriptor_after_it_is_settled(sender, connect):
    """The host settles a descriptor before it closes: a new connection may get its
    number, and must never receive the old one's bytes."""
    for _ in range(50):
        a, b = connect(sndbuf=4096)
        fd = a.fileno()
        for _ in range(200):
            sender.submit(fd, b"old" * 300)
        sender.kick()
        sender.settle(fd)  # returns once the thread holds nothing of fd
        a.close()
        b.close()
        c, d = connect()  # likely the same descriptor number
        sender.submit(c.fileno(), b"new")
        sender.kick()
        assert _read_all(d, 3) == b"new"
        d.setblocking(False)
        with pytest.raises(BlockingIOError):
            d.recv(100)  # nothing else arrived
        sender.settle(c.fileno())
        c.close()
        d.close()


def test_close_writes_what_was_submitted_and_is_idempotent(sender, connect):
    a, b = connect()
    sender.submit(a.fileno(), b"last words")
    sender.close()  # not kicked: closing writes it anyway
    sender.close()
    assert _read_all(b, 10) == b"last words"
    with pytest.raises(RuntimeError):
        sender.submit(a.fileno(), b"too late")


def test_bad_arguments_are_refused_plainly(sender):
    with pytest.raises(ValueError, match="non-negative"):
        sender.settle(-1)
    with pytest.raises(TypeError):
        sender.submit(1, "text, not bytes")
    with pytest.raises(TypeError):
        sender.submit(1)
    with pytest.raises(TypeError):
        Sender(1)
    assert sender.settle(10_000) == (b"", 0)  # never submitted: nothing to settle
    assert sender.flagged() == []


def test_a_socket_left_blocking_never_blocks_the_thread(sender, connect):
    """Every send is MSG_DONTWAIT: a slow reader on a socket in blocking mode is kept
    aside like any other, and the other connections' bytes still go out."""
    slow, _ = connect(sndbuf=4096)
    slow.setblocking(True)
    other, reader = connect()
    for _ in range(3000):
        sender.submit(slow.fileno(), b"s" * 1000)
    sender.submit(other.fileno(), b"meanwhile")
    sender.kick()
    assert _read_all(reader, 9) == b"meanwhile"
    assert _flagged(sender) == [slow.fileno()]
    rest, err = sender.settle(slow.fileno())
    assert err == 0 and rest
