"""A client's side of undo by consent (docs/protocol.md, "Undo by consent").

:class:`ClientUndo` keeps the host's ``undo`` notices per table, asks and answers
(signing at a fair table, like an action), and, for a bot (``auto_accept``), says
yes to every request it is asked about.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any

import trio

from lantable.protocol import Accepted, UndoAnswer, UndoAsk, UndoNotice
from lantable.protocol.undo import undo_fields

LOGGER = logging.getLogger(__name__)
KEEP = 200  # notices kept per table


class ClientUndo:
    def __init__(self, client: Any) -> None:  # clients/client.py's Client (imports this)
        self.client = client
        self.auto_accept = False  # a bot: accept every request it is asked about
        self.notices: dict[str, list[UndoNotice]] = defaultdict(list)
        self.on_notice: Any = None  # called with each notice (the terminal client)
        self._lot = trio.lowlevel.ParkingLot()
        self._count: dict[str, int] = defaultdict(int)  # notices received per table
        self._read: dict[str, int] = defaultdict(int)  # ... of which wait() went past

    def latest(self, table: str) -> UndoNotice | None:
        got = self.notices.get(table)
        return got[-1] if got else None

    def notice(self, msg: UndoNotice, nursery: trio.Nursery) -> None:
        self.notices[msg.table].append(msg)
        self._count[msg.table] += 1
        del self.notices[msg.table][:-KEEP]
        self._lot.unpark_all()
        if self.on_notice is not None:
            self.on_notice(msg)
        if self.auto_accept and msg.state == "asked" and msg.ask is not None:
            nursery.start_soon(self._accept, msg)

    async def _accept(self, msg: UndoNotice) -> None:
        try:
            await self.answer(msg.table, msg.undoes, True, msg.ask, seq=msg.seq)
        except Exception as exc:  # noqa: BLE001 - a bot goes on playing either way
            LOGGER.info("table %s: could not accept the undo of %d: %s", msg.table,
                        msg.undoes, exc)

    async def wait(self, table: str, state: str) -> UndoNotice:
        """The first notice of ``table`` in ``state`` that an earlier wait did not go
        past (waiting for it if need be)."""
        while True:
            got = self.notices.get(table, [])
            first = self._count[table] - len(got)  # the number of got[0]
            for i in range(max(self._read[table], first), self._count[table]):
                if got[i - first].state == state:
                    self._read[table] = i + 1
                    return got[i - first]
            await self._lot.park()

    def _sig(self, table: str, seat: int | None, seq: int, undoes: int) -> str | None:
        fair = self.client.fair
        if fair is None:
            return None
        seats = [s for (t, s) in fair._chains if t == table]
        if seat is None:
            if len(seats) != 1:
                return None
            (seat,) = seats
        if seat not in seats and fair._load((table, seat)) is None:
            return None
        sig: str = fair.identity.sign("undo", *undo_fields(table, seat, seq, undoes))
        return sig

    async def ask(self, table: str, seat: int | None = None) -> int:
        """Ask to take back this seat's last action; returns the seq the undo will
        take. Raises RequestError (``bad_undo`` with the reason)."""
        offer = self.latest(table)
        seq = offer.seq if offer is not None else 0
        undoes = offer.undoes if offer is not None else 0
        reply = await self.client._request(UndoAsk, table=table, seat=seat,
                                           sig=self._sig(table, seat, seq, undoes))
        assert isinstance(reply, Accepted)
        return reply.seq

    async def answer(self, table: str, undoes: int, accept: bool, seat: int | None = None,
                     seq: int | None = None) -> None:
        """Answer a request to take back action ``undoes``."""
        if seq is None:
            last = self.latest(table)
            seq = last.seq if last is not None else 0
        sig = self._sig(table, seat, seq, undoes) if accept else None
        await self.client._request(UndoAnswer, table=table, undoes=undoes, accept=accept,
                                   seat=seat, sig=sig)
