"""The batch-end flush: output leaves at the end of the scheduler batch, and a flush
that hands bytes to a sleeping writer task wakes the loop rather than leaving them
until some unrelated I/O arrives."""

from __future__ import annotations

import trio

from lantable.host.link import BatchEnd, ClientLink
from lantable.protocol import Connection, Hello, Pong, Welcome


def _session_conn() -> Connection:
    host, client = Connection("host"), Connection("client")
    host.receive_data(client.send(Hello(proto=1, name="c")))
    host.next_event()
    host.send(Welcome(proto=1, peer="p", name="n", tables=[]))
    return host


async def test_a_flush_that_wakes_a_writer_wakes_the_loop_too():
    with BatchEnd().installed() as batch:
        link = ClientLink("c", "test", _session_conn(), batch, fd=None)  # no socket: queue
        got: list[float] = []

        async def writer() -> None:
            await link.outbox_receive.receive()
            got.append(trio.current_time())

        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer)
            await trio.sleep(0.01)  # the writer now sleeps on its outbox
            start = trio.current_time()
            link.send(Pong(id=1))  # buffered; flushed when trio is about to wait for I/O
            # Nothing else happens for 5 s: without a wake-up, trio would sleep that long
            # with the writer runnable.
            with trio.move_on_after(5):
                while not got:
                    await trio.sleep(1)  # a long timeout for trio's I/O wait
            assert got and got[0] - start < 0.5, got
            nursery.cancel_scope.cancel()


async def test_output_is_written_once_per_batch_in_first_written_order():
    with BatchEnd().installed() as batch:
        first = ClientLink("a", "test", _session_conn(), batch, fd=None)
        second = ClientLink("b", "test", _session_conn(), batch, fd=None)
        second.send(Pong(id=1))
        first.send(Pong(id=2))
        second.send(Pong(id=3))  # same batch, same link: one write with both frames
        await trio.lowlevel.checkpoint()  # one scheduler batch ends: the flush runs
        one = second.outbox_receive.receive_nowait()
        two = first.outbox_receive.receive_nowait()
        reader = _client_after_welcome()
        reader.receive_data(one)
        assert [reader.next_event().id, reader.next_event().id] == [1, 3]
        reader.receive_data(two)
        assert reader.next_event().id == 2
        assert second.queued == 1 and first.queued == 1


def _client_after_welcome() -> Connection:
    host, client = Connection("host"), Connection("client")
    host.receive_data(client.send(Hello(proto=1, name="c")))
    host.next_event()
    client.receive_data(host.send(Welcome(proto=1, peer="p", name="n", tables=[])))
    client.next_event()
    return client
