"""The host's side of hidden decks at a fair table (``fair: {"hidden_decks": true}``;
docs/fair-play.md, "Hidden decks"; docs/protocol.md, "Hidden decks").

The game asks its ``decks`` for positions (:mod:`lantable.plugins.decks`); here the
host carries each request out **without learning a card it is not shown**: one
:class:`~lantable.protocol.hidden_deal.DealHost` per round of each deck orders the
seats' shuffle and lock passes and relays their unlock keys, holding no scalar.

A game call that asked for something (the set-up, or an action) becomes a
:class:`Step`: the call was applied to a copy of the state; its requests run one by
one, each waiting for the seats (a pass each, or keys); cards opened to everyone are
handed to the game (``game_cards_opened``), which may ask for more; when nothing is
left the copy becomes the table's state and the action is accepted, so everyone sees
the action and the cards it turned over in one update. The table takes no action
meanwhile. A seat that does not answer within the table's ``timeout`` is named and
forfeits (there is no host fallback for a card: without the seat's key it stays
closed). A false claim, found when its card is opened, is named and forfeits too.

Every pass, key, request, opened card and (when the table ends) every seat's
secrets are journalled, so ``lantable verify`` can audit each deal and claim.
"""

from __future__ import annotations

import logging
import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

from lantable.plugins.decks import Op, Requests, claims_of, sealed_cards
from lantable.protocol import (
    Accepted,
    DeckKeys,
    DeckPass,
    DeckRequest,
    DeckSecretsMessage,
    DeckUnlock,
    Error,
    ErrorCode,
    FairFault,
)
from lantable.protocol import fairplay as fp
from lantable.protocol.deck_errors import DealError, DeckError

if TYPE_CHECKING:
    from lantable.plugins.types import State
    from lantable.protocol.hidden_deal import DealHost

    from .link import ClientLink

# The fair table and its table (host/fairplay.py, host/table.py import this module).
FairTable = Any
Table = Any

LOGGER = logging.getLogger(__name__)
LATE_NOTICE = 5.0  # seconds before the table says whom a deal waits for (at most timeout/2)


def deck_id(deck: str, rnd: int) -> str:
    """How a round of a deck is named in every signature: ``"deck/round"``."""
    return f"{deck}/{rnd}"


@dataclass(slots=True)
class Step:
    """A game call whose deck requests are being carried out."""

    seq: int  # the action's update number (0: the set-up)
    seat: int | None
    action: dict[str, Any] | None
    signed: dict[str, Any] | None  # the action's signature record
    reply: tuple[ClientLink, int] | None  # who to answer `accepted` at the end
    state: State  # the copy the call was applied to
    events: list[dict[str, Any]]
    queue: deque[Op]
    op: Op | None = None
    deadline: float = math.inf
    cancel: trio.CancelScope | None = None
    journalled: bool = False  # a "dealing" record says it began (a restart resumes it)


@dataclass(slots=True)
class Claim:
    seat: int
    card: int
    seq: int


@dataclass(slots=True)
class Seal:
    """A claim made face down: checked when its card is opened."""

    seat: int
    seal: str
    seq: int


@dataclass(slots=True)
class DeckRound:
    """One round of one deck: its deal, and what the table knows of it."""

    deck: str
    round: int
    deal: DealHost
    public: dict[int, int] = field(default_factory=dict)  # pos -> card opened to all
    claims: dict[int, Claim] = field(default_factory=dict)  # pos -> claim not checked yet
    seals: dict[int, Seal] = field(default_factory=dict)  # pos -> face-down claim, unchecked


class HostDecks:
    """Every hidden deck of one fair table."""

    def __init__(self, fair: FairTable, sizes: dict[str, int]) -> None:
        self.fair = fair
        self.sizes = sizes
        self.rounds: dict[str, DeckRound] = {}  # deck -> its current round
        self.done: list[DeckRound] = []  # every round, in order (for the secrets)
        self.step: Step | None = None
        self.secrets: dict[tuple[str, int], dict[int, dict[str, Any]]] = {}
        self.asked: set[tuple[Any, ...]] = set()  # what the current request asked already

    @property
    def table(self) -> Table:
        return self.fair.table

    def requests(self) -> Requests:
        return Requests(self.sizes, self.table.seats_n)

    def _keys(self) -> list[str]:
        return [self.fair.commits[s]["key"] for s in range(self.table.seats_n)]

    def _journal(self, rec: dict[str, Any]) -> None:
        self.table.journal.fair_append(self.table.id, rec)

    # -- claims -------------------------------------------------------------------------

    def check_claims(self, seat: int, action: dict[str, Any]) -> list[tuple[DeckRound, int, int]]:
        """The action's claims, each of a position ``seat`` holds now.

        Raises:
            IllegalAction: a claim of a position not the seat's, or of a card already
                open and another.
        """
        from lantable.plugins import IllegalAction

        out = []
        for deck, pos, card in claims_of(action):
            rnd = self.rounds.get(deck)
            if rnd is None or rnd.deal.owner.get(pos) != seat:
                raise IllegalAction(f"claim: position {pos} of deck {deck!r} is not seat "
                                    f"{seat}'s")
            if pos in rnd.public and rnd.public[pos] != card:
                raise IllegalAction(f"claim: position {pos} of deck {deck!r} is open, and "
                                    f"not card {card}")
            out.append((rnd, pos, card))
        self.check_sealed(seat, action)
        return out

    def check_sealed(self, seat: int, action: dict[str, Any]) -> list[tuple[DeckRound, int, str]]:
        """The action's claims made face down (``sealed``), each a seal (never the
        card: the host must not learn it) of a position ``seat`` holds, not yet open.

        Raises:
            IllegalAction: a sealed claim that carries its card, or of a position not
                the seat's, or already face up.
        """
        from lantable.plugins import IllegalAction

        out = []
        for deck, pos, card, seal in sealed_cards(action):
            rnd = self.rounds.get(deck)
            if card is not None or seal is None:
                raise IllegalAction("sealed claim: at a hidden-deck table it carries a seal, "
                                    "not its card (the seat's client seals it)")
            if rnd is None or rnd.deal.owner.get(pos) != seat or pos in rnd.deal.opened:
                raise IllegalAction(f"sealed claim: position {pos} of deck {deck!r} is not "
                                    f"seat {seat}'s, face down")
            out.append((rnd, pos, seal))
        return out

    # -- steps ----------------------------------------------------------------------------

    def begin(self, step: Step, ops: list[Op]) -> None:
        """Carry out ``ops`` for ``step`` (or commit it at once if there are none)."""
        if step.action is not None and step.seat is not None:
            claims = self.check_claims(step.seat, step.action)
            for rnd, pos, card in claims:
                if pos not in rnd.public:
                    rnd.claims[pos] = Claim(step.seat, card, step.seq)
            if claims:
                self._journal({"kind": "claims", "seq": step.seq, "seat": step.seat,
                               "claims": [[r.deck, r.round, p, c] for r, p, c in claims]})
            sealed = self.check_sealed(step.seat, step.action)
            for rnd, pos, seal in sealed:
                rnd.seals[pos] = Seal(step.seat, seal, step.seq)
            if sealed:
                self._journal({"kind": "sealed", "seq": step.seq, "seat": step.seat,
                               "seals": [[r.deck, r.round, p, x] for r, p, x in sealed]})
        step.queue.extend(ops)
        self.step = step
        if ops:  # it will wait for the seats: a restarted host resumes it (resume())
            self._journal({"kind": "dealing", "seq": step.seq, "seat": step.seat,
                           "action": step.action, "signed": step.signed})
            step.journalled = True
        self._advance()

    def _advance(self) -> None:
        """Start the next request, or finish the step; returns when waiting for seats."""
        step = self.step
        while step is not None and self.step is step:
            if step.op is None:
                if not step.queue:
                    self._commit(step)
                    return
                step.op = step.queue.popleft()
                self.asked = set()
                self._start(step.op)
                self._start_with(step)
                self._send_asks(step.op)
            if self._asking(step.op):
                self._arm_timer(step)
                return
            self._complete(step, step.op)
            step.op = None

    def _start(self, op: Op) -> None:
        """Journal a request and take it on (the seats are asked by the caller)."""
        t = self.table
        self._journal({"kind": "deck_op", "seq": self._seq(), **op})
        # A request the deck cannot take (a position dealt twice...) is the game's bug.
        t.g.blame(self._apply_op, op)

    def _start_with(self, step: Step) -> None:
        """Start the deals and gives queued right after ``step.op`` (of the same deck,
        none of a position still on its way) together with it: their unlock steps go
        on at once, a seat's steps for all of them in one request, instead of one
        request after another (issue 29: a Game Turn of Nero deals four hands, 3 round
        trips instead of 12). They are journalled in the order the game asked."""
        op = step.op
        if op is None or op["op"] not in ("deal", "give"):
            return
        chains = self.rounds[op["deck"]].deal.chains
        while step.queue:
            nxt = step.queue[0]
            positions = nxt.get("positions") or [nxt.get("pos")]
            if nxt["op"] not in ("deal", "give") or nxt["deck"] != op["deck"] or any(
                    p in chains and chains[p]["left"] for p in positions):
                return
            self._start(step.queue.popleft())

    def _seq(self) -> int:
        return self.step.seq if self.step is not None else -1

    def _apply_op(self, op: Op) -> None:
        """The bookkeeping of a request (also used when restoring from the journal)."""
        deck = op["deck"]
        if op["op"] == "shuffle":
            from lantable.protocol.hidden_deal import DealHost  # loads rbcl: only when dealing

            number = self.rounds[deck].round + 1 if deck in self.rounds else 1
            deal = DealHost(self.table.id, deck_id(deck, number), self.sizes[deck], self._keys())
            self.rounds[deck] = DeckRound(deck, number, deal)
            self.done.append(self.rounds[deck])
            return
        rnd = self.rounds.get(deck)
        if rnd is None:
            raise DeckError(f"{op['op']} before the deck was shuffled")
        if op["op"] == "deal":
            for pos in op["positions"]:
                rnd.deal.deal(pos, op["seat"])
        elif op["op"] == "open":
            for pos in op["positions"]:
                rnd.deal.open(pos)
        elif op["op"] == "give":
            rnd.deal.give(op["pos"], op["seat"])
        elif op["op"] == "show":
            for pos in op["positions"]:
                rnd.deal.show(pos, op["seat"])

    def _send_asks(self, op: Op, again: int | None = None) -> None:
        """Ask each seat for what it owes now, once (``again``: this seat came back,
        ask it again; the others were asked already, and answer once)."""
        rnd = self.rounds[op["deck"]]
        want = rnd.deal.expected()
        if want is not None:
            stage, seat = want
            if again == seat or (stage, seat) not in self.asked:
                self.asked.add((stage, seat))
                self._ask(seat, self._request(rnd, seat, stage, points=_deck_bytes(rnd.deal)))
            return
        for seat, items in rnd.deal.waiting().items():
            fresh = [i for i in items
                     if again == seat or (seat, i["pos"], i.get("point")) not in self.asked]
            self.asked.update((seat, i["pos"], i.get("point")) for i in fresh)
            steps = [{**i, "point": bytes.fromhex(i["point"])} for i in fresh
                     if i["to"] is not None]
            keys = [i for i in fresh if i["to"] is None]
            if steps:
                self._ask(seat, self._request(rnd, seat, "unlock", positions=steps))
            if keys:
                self._ask(seat, self._request(rnd, seat, "keys", positions=keys))

    def _request(self, rnd: DeckRound, seat: int, kind: str, **more: Any) -> DeckRequest:
        t = self.table
        return DeckRequest(table=t.id, seat=seat, game=t.game.id, deck=rnd.deck, round=rnd.round,
                           n=rnd.deal.n, seats=t.seats_n, kind=kind, **more)

    def _ask(self, seat: int, msg: DeckRequest) -> None:
        client = self.table.seats[seat].client
        if client is not None:
            client.send(msg)

    def _asking(self, op: Op) -> bool:
        rnd = self.rounds[op["deck"]]
        if op["op"] == "shuffle":
            return rnd.deal.expected() is not None
        return rnd.deal.busy()

    def _complete(self, step: Step, op: Op) -> None:
        """A request whose answers are all in: a locked deck goes to everyone; cards
        opened to everyone are checked against their claims and handed to the game."""
        t = self.table
        rnd = self.rounds[op["deck"]]
        if op["op"] != "open":  # a locked deck goes out only with cards turned face up
            return
        cards: dict[int, int] = {}
        keys = []
        for pos in op["positions"]:
            keys += rnd.deal.public_keys(pos)
            try:
                cards[pos] = rnd.deal.open_public(pos)
            except DeckError as exc:
                self._bad_card(rnd, pos, exc)
                return
        t.send_all(DeckKeys(table=t.id, deck=rnd.deck, round=rnd.round, to=None,
                            keys=[_relayed(k) for k in keys], points=_locked(rnd.deal, cards)))
        rnd.public.update(cards)
        self._journal({"kind": "opened", "seq": step.seq, "deck": rnd.deck, "round": rnd.round,
                       "cards": [[p, c] for p, c in cards.items()]})
        liars = self._check_opened(rnd, cards)
        if liars:
            self._forfeit(liars)
            return
        more = self.requests()
        step.events += t.g.cards_opened(step.state, rnd.deck, cards, None, more)
        step.queue.extend(more.take())

    def _check_opened(self, rnd: DeckRound, cards: dict[int, int]) -> list[int]:
        """Name every seat whose claim on a card just opened was false (made face up,
        or face down: its seal)."""
        liars = self._check_seals(rnd, cards)
        for pos, card in cards.items():
            claim = rnd.claims.pop(pos, None)
            if claim is None or claim.card == card:
                continue
            liars.append(claim.seat)
            self._fault(claim.seat, "false_claim",
                        f"seat {claim.seat} ({self.table.seats[claim.seat].name}) claimed "
                        f"card {claim.card} at position {pos} of deck {rnd.deck!r} (update "
                        f"{claim.seq}), but the card is {card}: the table ends and that seat "
                        "forfeits", {"deck": rnd.deck, "round": rnd.round, "pos": pos,
                                      "claimed": claim.card, "card": card})
        return sorted(set(liars))

    def _check_seals(self, rnd: DeckRound, cards: dict[int, int]) -> list[int]:
        """Every seal on a card just opened, checked with the card and its seat's key
        there (published with the opening)."""
        from lantable.protocol.hidden_deal import seal_digest

        liars = []
        for pos, card in cards.items():
            sealed = rnd.seals.pop(pos, None)
            if sealed is None:
                continue
            key = rnd.deal.got.get(pos, {}).get(sealed.seat, {}).get("key")
            if key is not None and seal_digest(self.table.id, deck_id(rnd.deck, rnd.round),
                                               sealed.seat, pos, card, key) == sealed.seal:
                continue
            liars.append(sealed.seat)
            self._fault(sealed.seat, "false_claim",
                        f"seat {sealed.seat} ({self.table.seats[sealed.seat].name}) sealed a "
                        f"claim on position {pos} of deck {rnd.deck!r} (update {sealed.seq}) "
                        f"that the card opened there, {card}, does not match: the table ends "
                        "and that seat forfeits", {"deck": rnd.deck, "round": rnd.round,
                                                  "pos": pos, "seal": sealed.seal, "card": card})
        return liars

    def _bad_card(self, rnd: DeckRound, pos: int, exc: DeckError) -> None:
        """An opened position that is no card: some seat's pass or key was wrong; the
        audit at the end names it. The table cannot go on with a broken deck."""
        t = self.table
        message = (f"position {pos} of deck {rnd.deck!r} (round {rnd.round}) opened to no card "
                   f"of the deck ({exc}); a seat's pass or key was wrong, and `lantable verify` "
                   "names it once the seats publish their secrets. The table ends.")
        self._journal({"kind": "deck_broken", "deck": rnd.deck, "round": rnd.round, "pos": pos,
                       "message": message})
        LOGGER.error("table %s: %s", t.id, message)
        t.send_all(FairFault(table=t.id, event=self.fair.event, seat=-1, reason="bad_deal",
                             outcome="forfeit", message=message))
        self._forfeit([])

    def _commit(self, step: Step) -> None:
        """Every request of the step is done: the copy becomes the table's state."""
        t = self.table
        self.step = None
        if step.cancel is not None:
            step.cancel.cancel()
        if step.journalled:
            self._journal({"kind": "dealt", "seq": step.seq})
        t.state = step.state
        if step.seq == 0:
            t.play()
            return
        assert step.seat is not None and step.action is not None and step.signed is not None
        t.journal.fair_append(t.id, step.signed)
        self.fair.adopted(step.seq, step.seat, step.action)
        t.accept(step.seat, step.action, step.events, reply=step.reply)

    def _forfeit(self, seats: list[int]) -> None:
        step = self.step
        self.step = None
        if step is not None and step.cancel is not None:
            step.cancel.cancel()
        self._journal({"kind": "forfeit", "event": self.fair.event, "seats": seats,
                       "deal": True})
        self.table.forfeit(seats)

    # -- the seats' messages ---------------------------------------------------------------

    def receive(self, client: ClientLink, msg: DeckPass | DeckUnlock | DeckSecretsMessage
                ) -> None:
        """A seat's pass, keys or secrets: checked against what was asked."""
        t = self.table
        if msg.seat not in client.seats.get(t.id, set()):
            self._refuse(client, msg.id, f"this connection does not hold seat {msg.seat}",
                         ErrorCode.NOT_SEATED)
            return
        if isinstance(msg, DeckSecretsMessage):
            self._receive_secrets(client, msg)
            return
        rnd = self.rounds.get(msg.deck)
        step = self.step
        if step is None or rnd is None or rnd.round != msg.round or step.op is None \
                or step.op["deck"] != msg.deck:
            self._refuse(client, msg.id, f"nothing of deck {msg.deck!r} round {msg.round} is "
                                         f"asked of seat {msg.seat} now")
            return
        try:
            if isinstance(msg, DeckPass):
                m = {"t": "deck_pass", "table": t.id, "deck": deck_id(msg.deck, msg.round),
                     "seat": msg.seat, "stage": msg.stage,
                     "points": _split(msg.points, msg.seat, "pass"), "sig": _hx(msg.sig)}
                rnd.deal.receive_pass(m)
                self._journal({"kind": "deck_pass", **m})
            else:
                dealt: dict[int, list[dict[str, Any]]] = {}  # seat -> its points now
                try:
                    if msg.sig is not None:
                        self._steps(rnd, msg, dealt)
                    for item in msg.items if msg.sig is None else []:
                        self._item(rnd, msg, item, dealt)
                finally:  # one deck_keys to each seat whose positions came through
                    for to, points in sorted(dealt.items()):
                        if t.seats[to].client is not None:
                            t.seats[to].client.send(DeckKeys(
                                table=t.id, deck=rnd.deck, round=rnd.round, to=to,
                                points=points))
        except DealError as exc:
            self._fault(msg.seat, "bad_deal",
                        f"seat {msg.seat} ({t.seats[msg.seat].name}) sent a deal message for "
                        f"deck {msg.deck!r} that does not check: {exc}", {})
            self._refuse(client, msg.id, str(exc))
            return
        # No `accepted`: a pass or an unlock answered is acknowledged by what follows;
        # only a refusal is answered (an `error` with the message's id).
        if not self._asking(step.op):
            self._advance()
        else:
            self._send_asks(step.op)  # the next seat's pass, or its unlock steps

    def _steps(self, rnd: DeckRound, msg: DeckUnlock,
               dealt: dict[int, list[dict[str, Any]]]) -> None:
        """A seat's unlock steps under one signature: checked and journalled as one
        ``deck_steps`` record; the points only their recipient's lock is left on are
        added to ``dealt``. The points the steps started from are the host's own (it
        asked with them): not sent back, but signed, and journalled."""
        t = self.table
        steps = []
        for item in msg.items:
            pos = item.get("pos")
            chain = rnd.deal.chains.get(pos) if type(pos) is int else None
            steps.append([item.get("to"), pos, None if chain is None else chain["point"],
                          _hx(item.get("point"))])
        m = {"t": "deck_steps", "table": t.id, "deck": deck_id(msg.deck, msg.round),
             "seat": msg.seat, "steps": steps, "sig": _hx(msg.sig)}
        done = rnd.deal.receive_steps(m)
        self._journal({"kind": "deck_steps", **m})
        for to, pos, point in done:
            dealt.setdefault(to, []).append({"pos": pos, "point": bytes.fromhex(point)})

    def _item(self, rnd: DeckRound, msg: DeckUnlock, item: dict[str, Any],
              dealt: dict[int, list[dict[str, Any]]]) -> None:
        """One unlock step (relayed on to its seat when it is the last) or public key."""
        t = self.table
        pos = item.get("pos")
        m = {"table": t.id, "deck": deck_id(msg.deck, msg.round), "seat": msg.seat,
             "to": item.get("to"), "pos": pos, "sig": _hx(item.get("sig"))}
        if item.get("to") is None:
            m = {"t": "deck_key", **m, "key": _hx(item.get("key"))}
            rnd.deal.receive_key(m)
            self._journal({"kind": "deck_key", **m})
            return
        # The point the step started from is the host's own (it asked with it): not sent
        # back, but signed, and journalled.
        chain = rnd.deal.chains.get(pos) if type(pos) is int else None
        m = {"t": "deck_step", **m, "point_in": None if chain is None else chain["point"],
             "point": _hx(item.get("point"))}
        done = rnd.deal.receive_step(m)
        self._journal({"kind": "deck_step", **m})
        if done is not None:
            dealt.setdefault(done[0], []).append({"pos": m["pos"],
                                                  "point": bytes.fromhex(done[1])})

    def _refuse(self, client: ClientLink, req_id: int, message: str,
                code: ErrorCode = ErrorCode.BAD_DEAL) -> None:
        client.send(Error(code=code, id=req_id, table=self.table.id, message=message))

    def _fault(self, seat: int, reason: str, message: str, evidence: dict[str, Any]) -> None:
        t = self.table
        outcome = "waiting" if reason == "bad_deal" else "forfeit"
        self._journal({"kind": "fault", "event": self.fair.event, "seat": seat, "reason": reason,
                       "outcome": outcome, "message": message, **evidence})
        LOGGER.warning("table %s: %s", t.id, message)
        t.send_all(FairFault(table=t.id, event=self.fair.event, seat=seat, reason=reason,
                             outcome=outcome, message=message))

    # -- a seat (re)connects, the table ends ---------------------------------------------

    def seated(self, seat: int) -> None:
        """A seat resumed: give it again what it may have missed of the current rounds
        (a host restarted after relaying a step cannot know whether it went out: the
        locked deck, the points dealt to it, the keys published), then ask it again
        for what the current request still needs of it."""
        t = self.table
        client = t.seats[seat].client
        if client is not None:
            for rnd in self.rounds.values():
                deal = rnd.deal
                if deal.expected() is not None:
                    continue
                points = [{"pos": p, "point": bytes.fromhex(c["point"])}
                          for p, c in sorted(deal.chains.items())
                          if c["to"] == seat and not c["left"]]
                shown = [p for p in sorted(deal.got) if p not in deal.asked]
                if shown:
                    client.send(DeckKeys(
                        table=t.id, deck=rnd.deck, round=rnd.round, to=None,
                        keys=[_relayed(k) for p in shown for k in deal.public_keys(p)],
                        points=_locked(deal, shown)))
                if points:
                    client.send(DeckKeys(table=t.id, deck=rnd.deck, round=rnd.round, to=seat,
                                         points=points))
        step = self.step
        if step is not None and step.op is not None:
            self._send_asks(step.op, again=seat)

    def finished(self) -> None:
        """The table ended: every seat hands over its secrets for every round it took
        part in (audit): a round cut short by a forfeit has no secrets of the seats that
        had not shuffled it yet (issue 25, finding 7)."""
        t = self.table
        for rnd in self.done:
            for seat in range(min(t.seats_n, len(rnd.deal.passes["shuffle"]))):
                self._ask(seat, DeckRequest(table=t.id, seat=seat, game=t.game.id, deck=rnd.deck,
                                            round=rnd.round, n=rnd.deal.n, seats=t.seats_n,
                                        kind="secrets"))

    def _receive_secrets(self, client: ClientLink, msg: DeckSecretsMessage) -> None:
        t = self.table
        rnd = next((r for r in self.done if (r.deck, r.round) == (msg.deck, msg.round)), None)
        got = self.secrets.setdefault((msg.deck, msg.round), {})
        if rnd is None or msg.seat in got or t.status != "finished":
            self._refuse(client, msg.id, f"no secrets of deck {msg.deck!r} round {msg.round} "
                                         f"are asked of seat {msg.seat}")
            return
        found = []
        try:
            m = {"t": "deck_secrets", "table": t.id, "deck": deck_id(msg.deck, msg.round),
                 "seat": msg.seat, "shuffle_key": _hx(msg.shuffle_key),
                 "permutation": msg.permutation,
                 "card_keys": _split(msg.card_keys, msg.seat, "card keys"), "sig": _hx(msg.sig)}
            rnd.deal._check_sig(m, (m["table"], m["deck"], m["seat"], m["shuffle_key"],
                                    m["permutation"], m["card_keys"]))
        except DealError as exc:
            found = [str(exc)]
        if found:
            self._refuse(client, msg.id, found[0])
            return
        got[msg.seat] = m
        self._journal({"kind": "deck_secrets", **m})
        client.send(Accepted(id=msg.id, table=t.id, seq=t.seq))
        if len(got) == t.seats_n and rnd.deal.expected() is None:  # a deal a forfeit cut
            self._audit(rnd, [got[s] for s in range(t.seats_n)])  # short is not audited

    def _audit(self, rnd: DeckRound, secrets: list[dict[str, Any]]) -> None:
        """Every seat's secrets of a round are in: recompute its passes now, and tell
        the table of any seat whose pass does not follow."""
        t = self.table
        try:
            found = rnd.deal.audit(secrets, signed=True)  # each checked as it came
        except (ValueError, KeyError, TypeError, DeckError) as exc:
            found = [f"the secrets cannot be read: {exc}"]
        for problem in found:
            message = f"deck {rnd.deck!r} round {rnd.round}: {problem}"
            LOGGER.warning("table %s: audit: %s", t.id, message)
            t.send_all(FairFault(table=t.id, event=self.fair.event, seat=-1, reason="bad_deal",
                                 outcome="audit", message=message))

    # -- the timeout --------------------------------------------------------------------------

    def _arm_timer(self, step: Step) -> None:
        """Name the seats that owe a pass or keys after the table's timeout (they forfeit)."""
        if step.cancel is not None:
            return  # one deadline per step: a seat that stalls any part of it is named
        timeout = self.fair.config.timeout
        step.deadline = time.monotonic() + timeout
        try:
            step.cancel = trio.CancelScope(deadline=trio.current_time() + timeout)
        except RuntimeError:
            return  # not in trio (tests call check_timeout)

        async def wait(scope: trio.CancelScope = step.cancel) -> None:
            with scope:
                await trio.sleep(min(LATE_NOTICE, timeout / 2))
                if self.step is step:
                    self.table.handle_deck_late()
                await trio.sleep_forever()
            if self.step is step and trio.current_time() >= scope.deadline:
                self.table.handle_deck_timeout()

        trio.lowlevel.spawn_system_task(wait, name=f"hidden deck timeout {self.table.id}")

    def _owed(self) -> str:
        """What the current request waits for, in words."""
        op = self.step.op if self.step is not None else None
        if op is None:
            return "part of the deal"
        if op["op"] == "shuffle":
            return "pass"
        return "unlock keys" if op["op"] == "open" else "unlock steps"

    def tell_late(self) -> None:
        """The deal has waited a while: tell everyone whom for, and until when."""
        step = self.step
        if step is None or step.op is None:
            return
        t = self.table
        left = max(0, round(step.deadline - time.monotonic()))
        for seat in self.owing():
            t.send_all(FairFault(
                table=t.id, event=self.fair.event, seat=seat, reason="late", outcome="waiting",
                message=f"the table is dealing: waiting for seat {seat} ({t.seats[seat].name}) "
                        f"to send its {self._owed()} for deck {step.op['deck']}; if it has "
                        f"not in {left} s, the table ends and that seat forfeits"))

    def owing(self) -> list[int]:
        """The seats the current request waits for."""
        step = self.step
        if step is None or step.op is None:
            return []
        rnd = self.rounds[step.op["deck"]]
        want = rnd.deal.expected()
        if want is not None:
            return [want[1]]
        return sorted(rnd.deal.waiting())

    def check_timeout(self, now: float | None = None) -> None:
        step = self.step
        now = time.monotonic() if now is None else now
        if step is None or now < step.deadline:
            return
        t = self.table
        missing = self.owing()
        what = self._owed()
        for seat in missing:
            self._fault(seat, "withheld",
                        f"seat {seat} ({t.seats[seat].name}) did not send its {what} for deck "
                        f"{step.op['deck'] if step.op else '?'} within "
                        f"{self.fair.config.timeout:g} s: the table ends and that seat forfeits",
                        {})
        self._forfeit(missing)

    # -- restoring ----------------------------------------------------------------------------

    def restore(self, records: list[dict[str, Any]]) -> None:
        """Rebuild every round from the journal (no message is sent)."""
        for rec in records:
            kind = rec["kind"]
            if kind == "deck_op":
                self._apply_op({k: v for k, v in rec.items() if k not in ("kind", "seq")})
            elif kind in ("deck_pass", "deck_key", "deck_step", "deck_steps"):
                deck, _, number = rec["deck"].rpartition("/")
                rnd = self.rounds[deck]
                m = {k: v for k, v in rec.items() if k != "kind"}
                if kind == "deck_pass":
                    rnd.deal.receive_pass(m)
                elif kind == "deck_key":
                    rnd.deal.receive_key(m)
                elif kind == "deck_steps":
                    rnd.deal.receive_steps(m)
                else:
                    rnd.deal.receive_step(m)
            elif kind == "claims":
                for deck, number, pos, card in rec["claims"]:
                    rnd = self.rounds[deck]
                    if rnd.round == number and pos not in rnd.public:
                        rnd.claims[pos] = Claim(rec["seat"], card, rec["seq"])
            elif kind == "sealed":
                for deck, number, pos, seal in rec["seals"]:
                    rnd = self.rounds[deck]
                    if rnd.round == number and pos not in rnd.public:
                        rnd.seals[pos] = Seal(rec["seat"], seal, rec["seq"])
            elif kind == "opened":
                rnd = self.rounds[rec["deck"]]
                for p, c in rec["cards"]:
                    rnd.public[p] = c
                    rnd.claims.pop(p, None)
                    rnd.seals.pop(p, None)
            elif kind == "deck_secrets":
                deck, _, number = rec["deck"].rpartition("/")
                self.secrets.setdefault((deck, int(number)), {})[rec["seat"]] = rec

    @staticmethod
    def _dealing(records: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The journal's last step that began dealing and neither ended nor was cut
        short by a forfeit, or None."""
        begun: dict[str, Any] | None = None
        for rec in records:
            if rec["kind"] == "dealing":
                begun = rec
            elif rec["kind"] in ("dealt", "forfeit"):
                begun = None
        return begun

    def dealing(self, records: list[dict[str, Any]]) -> int | None:
        """The update whose deal the journal shows under way (0: the set-up), or None."""
        begun = self._dealing(records)
        return None if begun is None else int(begun["seq"])

    def resume(self, records: list[dict[str, Any]]) -> bool:
        """A host restarted in the middle of a deal: rebuild the step that was under way
        (the action, or the set-up, applied again to the restored state; the requests
        the journal shows done, with the cards they opened handed to the game again)
        and carry on from where the journal stops: the seats are asked again for what
        it lacks when they come back (:meth:`seated`). Returns whether a step resumed.

        Call it once the table is restored (:meth:`restore`, the replay of its actions).
        """
        begun = self._dealing(records)
        if begun is None:
            return False
        t, seq = self.table, begun["seq"]
        if seq == 0:
            ops = t._setup()  # the set-up again, with the set-up event's rng
            state, events = t.state, []
        else:
            seed = self.fair.seeds.get(seq)
            rng = self.fair.probe if seed is None else fp.FairRandom(seed)
            state = t.game.clone(t.state)
            decks = self.requests()
            events = t.g.apply(state, begun["seat"], begun["action"], rng, decks)
            ops = decks.take()
        step = Step(seq, begun["seat"], begun["action"], begun["signed"], None, state, events,
                    deque(ops), journalled=True)
        opened = [r for r in records if r["kind"] == "opened" and r["seq"] == seq]
        last: Op | None = None
        for rec in records:
            if rec["kind"] != "deck_op" or rec["seq"] != seq:
                continue
            op = {k: v for k, v in rec.items() if k not in ("kind", "seq")}
            if not step.queue or step.queue[0] != op:
                LOGGER.error("table %s: cannot resume the deal of update %d: the journal's "
                             "request %s is not the game's %s", t.id, seq, op,
                             step.queue[0] if step.queue else None)
                return False
            last = step.queue.popleft()
            if op["op"] == "open" and opened:
                done = opened.pop(0)
                more = self.requests()
                step.events += t.g.cards_opened(state, done["deck"], dict(
                    (p, c) for p, c in done["cards"]), None, more)
                step.queue.extend(more.take())
                last = None  # done: the game has seen its cards
        step.op = last
        self.step = step
        self.asked = set()
        LOGGER.info("table %s: resuming the deal of update %d at %s", t.id, seq, last)
        self._advance()
        return True

    def replay_opened(self, state: State, seq: int, records: list[dict[str, Any]]) -> None:
        """Hand the game, in a replay, the cards opened during update ``seq``."""
        for rec in records:
            if rec["kind"] == "opened" and rec["seq"] == seq:
                self.table.g.cards_opened(state, rec["deck"], {p: c for p, c in rec["cards"]},
                                          None, self.requests())


def _relayed(m: dict[str, Any]) -> dict[str, Any]:
    """A key as relayed to a seat: who signed it, for which position and seat."""
    return {"seat": m["seat"], "pos": m["pos"], "to": m["to"], "key": bytes.fromhex(m["key"]),
            "sig": bytes.fromhex(m["sig"])}


# On the wire, points, scalars and signatures are msgpack bin (a deck: its points end to
# end); in signatures and the journal, hex strings as before (docs/protocol.md).


def _hx(value: Any) -> Any:
    """A bin value as the hex the journal and signatures use; anything else as it came
    (the checks that follow refuse it, naming the seat)."""
    return value.hex() if isinstance(value, bytes) else value


def _split(blob: bytes, seat: int, what: str) -> list[str]:
    """32-byte values end to end, as hex strings.

    Raises:
        DealError: not a whole number of 32-byte values.
    """
    if len(blob) % 32:
        raise DealError(seat, f"its {what} is {len(blob)} bytes, not a whole number of "
                              "32-byte values")
    return [blob[i:i + 32].hex() for i in range(0, len(blob), 32)]


def _locked(deal: DealHost, positions: Any) -> list[dict[str, Any]]:
    """The locked points of positions turned face up (each seat opens them with the
    keys that come with them)."""
    return [{"pos": p, "point": deal.passes["lock"][-1][p]} for p in positions]


def _deck_bytes(deal: DealHost) -> bytes | None:
    """The deck as it stands, for the next pass (None before any: the cards' points,
    which every seat computes itself) or to everyone once locked."""
    last = deal.passes["lock"] or deal.passes["shuffle"]
    return b"".join(last[-1]) if last else None
