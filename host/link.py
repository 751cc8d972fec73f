"""What a table knows of a connected client: a name, its seats, a bounded outbox."""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING, Final

import trio

if TYPE_CHECKING:
    from lantable.protocol import Message

LOGGER = logging.getLogger(__name__)

# Messages queued for one client before it counts as stuck and is dropped. A table
# sends at most a few messages per action, so 512 is minutes of a slow reader.
OUTBOX_SIZE: Final = 512

_ids = itertools.count(1)


class ClientLink:
    """One connection as the lobby and tables see it.

    :meth:`send` never blocks: when the outbox is full the client is dropped
    (``too_slow``) and every later send is ignored.
    """

    def __init__(self, name: str, peer: str = "?") -> None:
        self.id = next(_ids)
        self.name = name
        self.peer = peer
        self.seats: dict[str, set[int]] = {}
        self.outbox, self.outbox_receive = trio.open_memory_channel[object](OUTBOX_SIZE)
        self.dropped = trio.Event()

    def __repr__(self) -> str:
        return f"<client {self.id} {self.name!r} {self.peer}>"

    def send(self, msg: Message) -> bool:
        if self.dropped.is_set():
            return False
        try:
            self.outbox.send_nowait(msg)
        except trio.WouldBlock:
            LOGGER.warning("%r does not read its updates; dropped", self)
            self.drop()
            return False
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        return True

    def drop(self) -> None:
        self.dropped.set()
