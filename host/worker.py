"""A worker process of a host with worker processes (host/workers.py): ``python -m
lantable.host.worker CONFIG``, started by the front, never by hand. It serves the
tables of its residue over the host's journal, and the connections the front hands it.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import sys
from typing import TYPE_CHECKING, Any

import trio

from lantable.protocol import Error, ErrorCode, from_map

from .limits import Limits
from .lobby import Peer
from .pagebots import PageBots
from .workers import Control, WorkerSide, adopt, resolve

if TYPE_CHECKING:
    from .table import Table


class WorkerPeer(Peer):
    """A peer that owns the tables of its residue, and tells the front of them."""

    def _start(self, table: Table) -> Table:
        started = super()._start(table)
        if isinstance(self.handoff, WorkerSide):
            self.handoff.mark(table.id)
        return started

    def _table_changed(self, table: Table) -> None:
        super()._table_changed(table)
        if isinstance(self.handoff, WorkerSide):
            self.handoff.mark(table.id)

    def _push_lobby(self) -> None:
        """The lobby is the front's: it sends it here after every change, this one's
        included (:func:`_serve_worker` passes it on)."""

    def _lapse(self, table: Table) -> None:
        super()._lapse(table)
        if isinstance(self.handoff, WorkerSide):
            self.handoff.mark(table.id)


async def _serve_worker(config: dict[str, Any]) -> None:
    from lantable.plugins import BadOptions, load_registry

    from .journal import Journal
    from .limits import LimitExceeded
    from .peer import keep_house
    from .reader import Reader

    index, workers = int(config["index"]), int(config["workers"])
    fields: dict[str, Any] = {k: float(v) if isinstance(v, str) else v
                              for k, v in config["limits"].items()}
    limits = Limits(**fields)
    control = Control(socket.socket(fileno=int(config["fd"])))
    side = WorkerSide(index, workers, control)
    journal = Journal(config["db"])
    journal.contended = True  # the front and the other workers commit to it too
    bots = None
    if config.get("bots"):  # the front's runner class, made here (host/workers.py)
        bots = PageBots(resolve(config["bots"])(), limits)
    peer = WorkerPeer(registry=load_registry(), journal=journal,
                      name=str(config["name"]), peer_id=str(config["peer_id"]),
                      limits=limits, bots=bots)
    peer.handoff = side
    bots_at = trio.Event()
    address: list[tuple[str, int]] = []

    def bots_connect(at: Any) -> None:
        if at and not bots_at.is_set():
            address.append((str(at[0]), int(at[1])))
            bots_at.set()

    async def run_bots() -> None:
        """The page bots of this worker's tables, once the front says where they
        connect (they are queued until then)."""
        await bots_at.wait()
        if peer.bots is not None:
            await peer.bots.serve(address[0])

    bots_connect(config.get("bots_at"))
    try:
        with peer.batch.installed():
            async with trio.open_nursery() as nursery:
                await nursery.start(keep_house, peer)
                await nursery.start(peer.batch.serve_sender)  # writes on a thread (link.py)
                peer.reader = Reader()  # its sessions' requests, in one task (host/reader.py)
                await nursery.start(peer.reader.run)
                side.dirty.update(peer.tables)
                await control.send({"op": "tables", "gone": [], "set": {
                    t: table.summary() for t, table in peer.tables.items()}})
                side.dirty.clear()
                nursery.start_soon(side.tell_front, peer)
                nursery.start_soon(side.tell_watched, peer)
                nursery.start_soon(run_bots)
                await control.send({"op": "ready"})
                while True:
                    got = await control.receive()
                    if got is None:
                        break  # the front stopped or died
                    msg, fds = got
                    if msg.get("op") == "conn" and len(fds) == 1:
                        nursery.start_soon(adopt, peer, fds[0], msg)
                        continue
                    for fd in fds:
                        os.close(fd)
                    if msg.get("op") == "reply":
                        side.replied(msg)
                    elif msg.get("op") == "bots":
                        bots_connect(msg["at"])
                    elif msg.get("op") == "lobby":  # the front's, for the watchers here
                        lobby = from_map(msg["lobby"], "host")
                        for link in list(peer.lobby_watchers):
                            link.send(lobby)
                    elif msg.get("op") == "create":
                        reply: dict[str, Any] = {"op": "reply", "rid": msg["rid"]}
                        try:
                            table = peer.create_table(
                                msg["game"], msg["seats"], msg["options"], msg["seed"],
                                creator=msg["creator"], clock=msg["clock"], undo=msg["undo"])
                        except KeyError as exc:
                            reply |= {"code": ErrorCode.NO_SUCH_GAME.value,
                                      "message": str(exc.args[0])}
                        except BadOptions as exc:
                            reply |= {"code": ErrorCode.BAD_OPTIONS.value, "message": str(exc)}
                        except LimitExceeded as exc:
                            reply |= {"code": exc.code.value, "message": str(exc)}
                        else:
                            reply |= {"table": table.id, "summary": table.summary()}
                        peer.batch.end()  # committed before the front says created
                        await control.send(reply)
                # Gently, like a stopping peer: clients told, output drained (bounded).
                links = list(peer.links)
                for link in links:
                    link.send(Error(code=ErrorCode.SHUTTING_DOWN,
                                    message="the host is stopping; reconnect later and "
                                            "resume your seats with their tokens"))
                peer.batch.end()
                with trio.move_on_after(1.0):
                    while any(link.queued for link in links if link.receiving):  # noqa: ASYNC110
                        await trio.sleep(0.02)
                nursery.cancel_scope.cancel()
    finally:
        journal.close()
        control.close()


def main() -> None:
    """``python -m lantable.host.worker CONFIG``: one worker process (started by the
    front, host/workers.py; never by hand)."""
    # Ctrl-C reaches the whole process group; the front stops the workers (EOF on
    # their control socket), after telling its own clients.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s worker %(message)s")
    config = json.loads(sys.argv[1])
    try:
        trio.run(_serve_worker, config)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
