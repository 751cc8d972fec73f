"""Undo by consent (docs/protocol.md, "Undo by consent"; docs/decisions.md, "Undo
re-derives the state from the journal").

A seat asks to take back its last action (``undo_ask``); every other seat is asked
(``undo`` with ``state: "asked"``) and answers (``undo_answer``), unless the table's
``undo`` setting says otherwise (:data:`POLICIES`). Only the table's last live action
can be taken back, only by the seat that made it, and never across a barrier: an
action the game declares a barrier (``game_undo_barrier``: chance or a reveal), an
action that drew from the rng, or a random event of a fair table. Any action accepted
while a request waits ends it (the table went on), so a silent seat never holds the
table.

The journal keeps both: an undo is a row of the actions log with the reserved action
``{"type": "lantable.undo", "undoes": N}``, so its seq follows the table's, and
:func:`live_actions` (used by the table's replay, ``lantable replay`` and ``verify``)
gives the actions that stand. At a fair table every seat signs the undo
(``["undo", table, seat, seq, undoes]``); the signatures go into the fair records
(kind ``"undo"``) and ``lantable verify`` checks each one.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from lantable.plugins import BadOptions, IllegalAction
from lantable.protocol import Accepted, Error, ErrorCode, UndoNotice
from lantable.protocol import fairplay as fp
from lantable.protocol.undo import UNDO_TYPE, is_undo, live_actions, undo_fields, undone_seqs

if TYPE_CHECKING:
    from .link import ClientLink

    Table = Any  # host/table.py's Table (which imports this module)

LOGGER = logging.getLogger(__name__)

ASK: Final = "ask"  # every other seat is asked; bots accept
ALWAYS: Final = "always"  # nobody is asked: every undo the rules allow is granted
NEVER: Final = "never"  # no undo at this table
PEOPLE: Final = "people"  # only seats played by people are asked (page bots are not)
POLICIES: Final = (ASK, ALWAYS, NEVER, PEOPLE)
META_KEY: Final = "undo:"  # journal meta key prefix: the table's setting


def check_policy(policy: str | None, fair: bool) -> str:
    """The table's undo setting (``create.undo``), checked.

    Raises:
        BadOptions: an unknown setting, or one a fair table cannot keep.
    """
    if policy is None:
        return ASK
    if policy not in POLICIES:
        raise BadOptions(f"undo={policy!r}: expected one of {', '.join(POLICIES)}")
    if fair and policy not in (ASK, NEVER):
        raise BadOptions(f"undo={policy!r}: at a fair table every seat signs an undo, so "
                         "it is 'ask' or 'never'")
    return policy


class _NoDraw(random.Random):
    """An rng that refuses to draw (an undoable action must not have drawn)."""

    class Drew(Exception):
        pass

    def random(self) -> float:
        raise self.Drew

    def getrandbits(self, k: int) -> int:
        raise self.Drew


@dataclass(slots=True)
class Request:
    seat: int  # who asks
    undoes: int  # the action it takes back
    seq: int  # the seq the undo will take
    asked: list[int]  # the seats whose answer is awaited
    sigs: dict[int, str] = field(default_factory=dict)  # fair: seat -> signature
    accepted: list[int] = field(default_factory=list)


@dataclass(slots=True)
class TableUndo:
    """One table's undo setting, its last undoable action and the request waiting."""

    table: Table
    policy: str = ASK
    last: tuple[int, int] | None = None  # (seq, seat) of the last live action, if undoable
    pending: Request | None = None
    refused: set[tuple[int, int]] = field(default_factory=set)  # (seat, seq) refused once
    max_asks: int = 20  # the peer's Limits.max_undo_asks
    asks: dict[int, int] = field(default_factory=dict)  # seat -> requests it made

    @classmethod
    def create(cls, table: Table, policy: str | None) -> TableUndo:
        undo = cls(table, check_policy(policy, table.fair is not None))
        table.journal.set_meta(META_KEY + table.id, undo.policy)
        return undo

    @classmethod
    def restore(cls, table: Table) -> TableUndo:
        policy = table.journal.meta(META_KEY + table.id)
        return cls(table, policy if policy in POLICIES else ASK)

    # -- what the table tells this module ---------------------------------------------

    def after_action(self, seq: int, seat: int, events: list[dict[str, Any]]) -> None:
        """Action ``seq`` was accepted: a waiting request is over, and the seat may be
        offered to take this one back."""
        t = self.table
        if self.pending is not None:
            self._tell_all("void", self.pending, "The table went on, so the request to take "
                                                 "back a move was dropped.")
            self.pending = None
        self.last = None
        if self.policy == NEVER or not t.game.has_undo or t.hidden or t.status != "playing":
            return
        if t.fair is not None and seq in t.fair.seeds:
            return  # a random event of a fair table
        if not t.g.undo_barrier(events, t.state):
            self.last = (seq, seat)
            self._offer(seat)

    def _offer(self, seat: int) -> None:
        t, last = self.table, self.last
        client = t.seats[seat].client
        if client is not None and last is not None and t.status == "playing":
            client.send(UndoNotice(table=t.id, state="offer", seat=seat, undoes=last[0],
                                   seq=t.seq + 1, message="You may ask to take back your "
                                                          "last move."))

    def attached(self, seat: int) -> None:
        """A seat's player is (back) at the table: its offer and any waiting request."""
        if self.last is not None and self.last[1] == seat:
            self._offer(seat)
        p = self.pending
        client = self.table.seats[seat].client
        if p is not None and client is not None:
            client.send(self._notice("asked", p, self._asked_sentence(p), seat))

    # -- requests -----------------------------------------------------------------------

    def ask(self, client: ClientLink, req_id: int, seat: int | None, sig: str | None) -> None:
        t = self.table
        seat = self._seat(client, req_id, seat)
        if seat is None:
            return
        why = self._why_not(seat)
        if why is None and self.asks.get(seat, 0) >= self.max_asks:
            why = f"you already asked {self.max_asks} times at this table, the limit"
        if why is not None:
            self._refuse(client, req_id, why)
            return
        self.asks[seat] = self.asks.get(seat, 0) + 1
        assert self.last is not None
        undoes = self.last[0]
        if (seat, undoes) in self.refused:
            self._refuse(client, req_id, "the other players already refused to let you take "
                                         "back that move")
            return
        why = self._drew(undoes)
        if why is not None:
            self.last = None
            self._refuse(client, req_id, why)
            return
        request = Request(seat, undoes, t.seq + 1, [])
        if t.fair is not None and not self._signed(client, req_id, request, seat, sig):
            return
        bots = {s for s, slot in enumerate(t.seats) if slot.bot is not None}
        others = [s for s in range(t.seats_n) if s != seat]
        if self.policy == ALWAYS:
            others = []
        elif self.policy == PEOPLE:
            others = [s for s in others if s not in bots]
        request.asked = others
        client.send(Accepted(id=req_id, table=t.id, seq=request.seq))
        if not others:
            self._done(request)
            return
        self.pending = request
        LOGGER.info("table %s: seat %d asks to take back action %d", t.id, seat, undoes)
        self._tell_all("asked", request, self._asked_sentence(request))

    def answer(self, client: ClientLink, req_id: int, seat: int | None, undoes: int,
               accept: bool, sig: str | None) -> None:
        t = self.table
        seat = self._seat(client, req_id, seat)
        if seat is None:
            return
        p = self.pending
        if p is None or p.undoes != undoes or t.status != "playing":
            self._refuse(client, req_id, "no request to take back that move is waiting")
            return
        if seat not in p.asked:
            self._refuse(client, req_id, f"seat {seat} is not asked about this move")
            return
        if accept and t.fair is not None and not self._signed(client, req_id, p, seat, sig):
            return
        client.send(Accepted(id=req_id, table=t.id, seq=p.seq))
        p.asked.remove(seat)
        if not accept:
            self.pending = None
            self.refused.add((p.seat, p.undoes))
            name = self._name(seat)
            LOGGER.info("table %s: seat %d refused the undo of action %d", t.id, seat, undoes)
            self._tell_all("refused", p, f"{name} said no: {self._name(p.seat)}'s last move "
                                         "stands.", refused_by=seat)
            return
        p.accepted.append(seat)
        if p.asked:
            self._tell_all("asked", p, self._asked_sentence(p))
            return
        self.pending = None
        self._done(p)

    # -- the undo itself ----------------------------------------------------------------

    def _done(self, p: Request) -> None:
        """Journal the undo, re-derive the state without the action, tell everyone."""
        t = self.table
        action = {"type": UNDO_TYPE, "undoes": p.undoes}
        events = [{"type": "undone", "seat": p.seat, "undoes": p.undoes,
                   "consent": sorted(p.accepted), "policy": self.policy}]
        if t.fair is not None:
            t.journal.fair_append(t.id, {"kind": "undo", "seq": p.seq, "undoes": p.undoes,
                                         "sigs": [{"seat": s, "sig": p.sigs[s]}
                                                  for s in sorted(p.sigs)]})
        t.seq = p.seq
        t.journal.append(t.id, p.seq, p.seat, action, events)
        t._replay()  # the state without the action, from the journal (one code path)
        LOGGER.info("table %s: action %d taken back (undo %d)", t.id, p.undoes, p.seq)
        self.last = None
        self._tell_all("done", p, f"{self._name(p.seat)} took back their last move.")
        t.timing.acted(None, t.g.to_act(t.state))  # the turn clock runs for who acts now
        t._broadcast(events=None, full=True)
        t._changed()
        self._after_undo()

    def _after_undo(self) -> None:
        """The action now last may be undoable by its seat in turn."""
        self.restored()
        if self.last is not None:
            self._offer(self.last[1])

    def restored(self) -> None:
        """Find the last action that stands and whether its seat may take it back (a
        restarted peer offers it when the seat's player is back)."""
        t = self.table
        self.last = None
        if self.policy == NEVER or not t.game.has_undo or t.hidden:
            return
        live = live_actions(t.journal.actions(t.id))
        if not live:
            return
        rec = live[-1]
        if t.fair is not None and rec.seq in t.fair.seeds:
            return
        if not t.g.undo_barrier(rec.events, t.state):
            self.last = (rec.seq, rec.seat)

    def _drew(self, undoes: int) -> str | None:
        """Why action ``undoes`` may not be undone after all: it drew from the rng (the
        game should have declared it; checked on a replay of the journal)."""
        t = self.table
        if t.fair is not None:
            return None  # a fair table knows its random events (fair.seeds)
        records = t.journal.actions(t.id)
        live = live_actions(records)
        if not live or live[-1].seq != undoes:
            return "that is no longer the table's last move"
        rng = random.Random(t.seed)
        state = t.game.setup(t.seats_n, t.options, rng)
        undone = undone_seqs(records)
        snaps: dict[int, Any] = {}
        for rec in records:
            if is_undo(rec.action):
                state, rng = snaps.pop(rec.action["undoes"])
            elif rec.seq == undoes:
                try:
                    t.game.apply(state, rec.seat, rec.action, _NoDraw())
                except _NoDraw.Drew:
                    return ("that move rolled dice or drew a card, so it cannot be taken "
                            "back")
                except IllegalAction:
                    return "that move cannot be replayed, so it cannot be taken back"
                return None
            else:
                if rec.seq in undone:
                    snaps[rec.seq] = (t.game.clone(state), _copy_rng(rng))
                t.game.apply(state, rec.seat, rec.action, rng)
        return "that move is not in the journal"

    # -- helpers ------------------------------------------------------------------------

    def _why_not(self, seat: int) -> str | None:
        t = self.table
        if self.policy == NEVER:
            return "this table was opened with undo turned off"
        if not t.game.has_undo:
            return f"{t.game.info['title']} does not say which moves reveal or are left to " \
                   "chance, so no move can be taken back"
        if t.hidden:
            return "the seats deal this table's hidden cards, so no move can be taken back"
        if t.status != "playing":
            return f"the table is {t.status}"
        if t.fair is not None and (t.fair.pending is not None):
            return "the table is waiting for a random event"
        if self.pending is not None:
            return "a request to take back a move is already waiting for answers"
        if self.last is None:
            return ("there is no move to take back: the last one rolled dice, drew or "
                    "revealed something, or there is none")
        if self.last[1] != seat:
            return "only the player who made the last move may take it back"
        return None

    def _signed(self, client: ClientLink, req_id: int, p: Request, seat: int,
                sig: str | None) -> bool:
        t = self.table
        try:
            if sig is None:
                raise fp.FairPlayError("this table plays fair: sign the undo (sig)")
            fp.verify_signature(t.fair.commits[seat]["key"], sig, "undo",
                                *undo_fields(t.id, seat, p.seq, p.undoes))
        except (fp.FairPlayError, ValueError, KeyError) as exc:
            self._refuse(client, req_id, f"undo signature of seat {seat}: {exc}")
            return False
        p.sigs[seat] = sig
        return True

    def _seat(self, client: ClientLink, req_id: int, seat: int | None) -> int | None:
        mine = client.seats.get(self.table.id, set())
        if seat is None and len(mine) == 1:
            (seat,) = mine
        if seat is None or seat not in mine:
            client.send(Error(code=ErrorCode.NOT_SEATED, id=req_id, table=self.table.id,
                              message="this connection holds no such seat here"))
            return None
        return seat

    def _refuse(self, client: ClientLink, req_id: int, why: str) -> None:
        client.send(Error(code=ErrorCode.BAD_UNDO, id=req_id, table=self.table.id,
                          message=f"That move cannot be taken back: {why}."))

    def _name(self, seat: int) -> str:
        return self.table.seats[seat].name or f"Seat {seat + 1}"

    def _asked_sentence(self, p: Request) -> str:
        waiting = ", ".join(self._name(s) for s in p.asked)
        return f"{self._name(p.seat)} asks to take back their last move; waiting for {waiting}."

    def _notice(self, state: str, p: Request, message: str, to: int | None,
                refused_by: int | None = None) -> UndoNotice:
        return UndoNotice(table=self.table.id, state=state, seat=p.seat, undoes=p.undoes,
                          seq=p.seq, waiting=list(p.asked) if state == "asked" else None,
                          ask=to if to is not None and state == "asked" and to in p.asked
                          else None,
                          refused_by=refused_by, message=message)

    def _tell_all(self, state: str, p: Request, message: str,
                  refused_by: int | None = None) -> None:
        t = self.table
        sent: set[int] = set()
        for seat, slot in enumerate(t.seats):
            if slot.client is not None:
                mine = slot.client.seats.get(t.id, set())
                to = next((s for s in sorted(mine) if p.asked and s in p.asked), seat)
                if id(slot.client) in sent:
                    continue
                sent.add(id(slot.client))
                slot.client.send(self._notice(state, p, message, to, refused_by))
        for client in t.spectators:
            client.send(self._notice(state, p, message, None, refused_by))


def _copy_rng(rng: random.Random) -> random.Random:
    out = random.Random()
    out.setstate(rng.getstate())
    return out
