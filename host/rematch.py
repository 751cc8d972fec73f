"""Rematch: "play again" at a finished table opens a new table of the same game and
options (and fair play, if the table played fair) for the same people, seats rotated
(docs/protocol.md, "Chat and rematch").

The first player who asks (``rematch``) opens the new table and sits at once. Every
other person's seat there is *kept* for them (``Seat.reserved``: nobody else may
take it) until they confirm with ``rematch`` too, or decline (the seat then opens
to anyone). A seat a page bot played comes along: the same bot takes its rotated
seat at once. Everyone still at the finished table hears of it (``rematch_offered``,
again whenever someone says yes or no), and so does whoever comes back to it later.
Seat ``s`` of the finished table moves to seat ``(s + 1) % n``, so the first player
changes from game to game.

What was asked, and who said what, is journalled in this module's own table of the
peer's journal, ``rematch``, so that a restarted peer keeps the seats kept.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import msgpack

from lantable.plugins import BadOptions
from lantable.protocol import Error, ErrorCode, Joined, Left, Rematch, RematchOffered

from .limits import LimitExceeded
from .pagebots import PageBot
from .table import FINISHED, WAITING, Seat, Table, _now

if TYPE_CHECKING:
    from .link import ClientLink
    from .lobby import Peer

LOGGER = logging.getLogger(__name__)

ASKED: Final = "asked"  # the seat is kept for its player, who has not answered yet
IN: Final = "in"  # the player (or their bot) sat down
DECLINED: Final = "declined"  # the player said no: the seat is open to anyone

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS rematch (
    old TEXT PRIMARY KEY,  -- the finished table
    new TEXT NOT NULL,     -- the table of its rematch
    record BLOB NOT NULL   -- msgpack: {"by": name, "seats": [{"from", "name", "bot", "state"}]}
);
"""


@dataclass
class Plan:
    """One rematch: the new table, who asked, and each new seat's person and answer."""

    old: str
    new: str
    by: str
    # per new seat: {"from": old seat, "name": str, "bot": {"strategy", "strength"} | None,
    # "state": ASKED | IN | DECLINED}
    seats: list[dict[str, Any]] = field(default_factory=list)

    def offer(self) -> RematchOffered:
        return RematchOffered(table=self.old, next=self.new, by=self.by, seats=[
            {"name": s["name"], "from": s["from"], "bot": s["bot"] is not None,
             "state": s["state"]} for s in self.seats])


class Rematches:
    """The peer's rematches, by finished table (loaded from the journal as needed)."""

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self.db = peer.journal._db
        self.db.execute(_SCHEMA)  # one statement: never commits a batch
        self.plans: dict[str, Plan | None] = {}
        self._keep_seats()

    def _keep_seats(self) -> None:
        """After a restart: the seats of the rematches still waiting are kept again."""
        waiting = [t for t in self.peer.tables.values() if t.status == WAITING]
        if not waiting:
            return
        ids = {t.id for t in waiting}
        for old, new, record in self.db.execute("SELECT old, new, record FROM rematch"):
            if new in ids:
                plan = self._plan(old, new, record)
                self.plans[old] = plan
                table = self.peer.tables[new]
                for seat, entry in enumerate(plan.seats):
                    if entry["state"] == ASKED and not table.seats[seat].token:
                        table.seats[seat] = Seat(entry["name"], reserved=True)

    @staticmethod
    def _plan(old: str, new: str, record: bytes) -> Plan:
        data = msgpack.unpackb(record, raw=False)
        return Plan(old, new, data["by"], data["seats"])

    def get(self, old: str) -> Plan | None:
        if old not in self.plans:
            row = self.db.execute("SELECT new, record FROM rematch WHERE old=?",
                                  (old,)).fetchone()
            self.plans[old] = None if row is None else self._plan(old, row[0], row[1])
        return self.plans[old]

    def _save(self, plan: Plan) -> None:
        self.peer.journal._write(
            "INSERT OR REPLACE INTO rematch VALUES (?, ?, ?)",
            (plan.old, plan.new, msgpack.packb({"by": plan.by, "seats": plan.seats},
                                               use_bin_type=True)))

    # -- the request ---------------------------------------------------------------

    def ask(self, link: ClientLink, req_id: int, table_id: str, decline: bool) -> None:
        def refuse(code: ErrorCode, message: str) -> None:
            link.send(Error(code=code, id=req_id, table=table_id, message=message))

        old = self.peer.table(table_id)
        if old is None:
            refuse(ErrorCode.NO_SUCH_TABLE, f"no table {table_id!r} on this peer (a "
                                            "rematch is asked at the table that finished)")
            return
        mine = link.seats.get(old.id)
        if not mine:
            refuse(ErrorCode.NOT_SEATED, "only the players of this table can ask for its "
                                         "rematch or answer it")
            return
        if old.status != FINISHED:
            refuse(ErrorCode.BAD_REMATCH, f"the game at table {old.id} is not over yet")
            return
        plan = self.get(old.id)
        if plan is None:
            if decline:
                refuse(ErrorCode.BAD_REMATCH, "nobody has asked for a rematch here yet")
                return
            try:
                plan = self._open(old, link)
            except (LimitExceeded, BadOptions) as exc:
                code = exc.code if isinstance(exc, LimitExceeded) else ErrorCode.BAD_REMATCH
                refuse(code, f"the rematch could not be opened: {exc}")
                return
        new = self.peer.table(plan.new)
        seat = (min(mine) + 1) % old.seats_n
        if new is None:
            refuse(ErrorCode.BAD_REMATCH, f"the rematch table {plan.new} is closed")
            return
        slot = new.seats[seat]
        if slot.client is link and slot.token:  # asked twice: the same answer
            link.send(Joined(id=req_id, table=new.id, seat=seat, token=slot.token))
            return
        entry = plan.seats[seat]
        if decline:
            if slot.reserved:
                new.seats[seat] = Seat()
                new._broadcast(events=None, full=True, status_only=True)
                new._changed()
            entry["state"] = DECLINED
            self._save(plan)
            link.send(Left(id=req_id, table=new.id))
            old.send_all(plan.offer())
            return
        if new.status != WAITING or (slot.token and not slot.reserved):
            refuse(ErrorCode.SEAT_TAKEN, f"your seat at the rematch (table {new.id}, seat "
                                         f"{seat}) was taken by {slot.name} after you "
                                         "declined" if new.status == WAITING else
                                         f"the rematch at table {new.id} has started without "
                                         "you; watch it from the lobby")
            return
        new.seats[seat] = Seat()
        entry["state"] = IN
        self._save(plan)
        old.send_all(plan.offer())
        new.seat_client(link, req_id, seat)  # joined; the table starts if it was the last

    def _open(self, old: Table, link: ClientLink) -> Plan:
        """Open the new table: bots take their seats, the others are kept."""
        n = old.seats_n
        fair = old.fair.config.to_map() if old.fair is not None else None
        new = self.peer.create_table(old.game.id, n, old.options, None,
                                     creator=link.address, fair=fair)
        asker = min(link.seats[old.id])
        plan = Plan(old.id, new.id, old.seats[asker].name or link.name)
        bots = self.peer.bots
        for seat in range(n):
            before = old.seats[(seat - 1) % n]
            bot = before.bot if before.bot is not None and not before.bot.handed else None
            plan.seats.append({
                "from": (seat - 1) % n, "name": before.name or f"seat {(seat - 1) % n}",
                "bot": None if bot is None else {"strategy": bot.strategy,
                                                 "strength": bot.strength},
                "state": ASKED})
        for seat, entry in enumerate(plan.seats):
            if entry["bot"] is not None and bots is not None and bots.full() is None:
                strategy, strength = entry["bot"]["strategy"], entry["bot"]["strength"]
                token = secrets.token_urlsafe(18)
                bot = PageBot(strategy, strength, token, handed=False)
                new.seats[seat] = Seat(entry["name"], token, None, bot=bot, away_since=_now())
                self.peer.journal.take_seat(new.id, seat, entry["name"], token)
                self.peer.journal.add_page_bot(new.id, seat, strategy, strength, token, False)
                bots.start(new.id, seat, bot, entry["name"])
                entry["state"] = IN
            elif entry["bot"] is not None:
                entry["state"] = DECLINED  # no bot can come along: the seat is open
            elif seat != (asker + 1) % n:
                new.seats[seat] = Seat(entry["name"], reserved=True)
        self.plans[old.id] = plan
        self._save(plan)
        LOGGER.info("table %s: %s asked for a rematch: table %s", old.id, plan.by, new.id)
        return plan

    def tell(self, link: ClientLink, table: Table) -> None:
        """``link`` came (back) to the finished ``table``: tell it of an open rematch."""
        plan = self.get(table.id)
        if plan is not None:
            link.send(plan.offer())


def rematches_of(peer: Peer) -> Rematches:
    """The peer's rematches, made on first use (at the latest when it restores its
    tables, so that kept seats are kept from the start)."""
    found: Rematches | None = getattr(peer, "_rematches", None)
    if found is None:
        found = Rematches(peer)
        setattr(peer, "_rematches", found)  # noqa: B010 - kept on the peer, out of lobby.py
    return found


def route_rematch(msg: Rematch, link: ClientLink, peer: Peer) -> None:
    """Serve ``rematch`` (from host/requests.py)."""
    rematches_of(peer).ask(link, msg.id, msg.table, bool(msg.decline))


def tell_rematch(peer: Peer, link: ClientLink, table: Table) -> None:
    """After a join, resume or sync of ``table``: if it is finished and has a rematch,
    tell ``link`` (host/requests.py)."""
    if table.status == FINISHED:
        rematches_of(peer).tell(link, table)
