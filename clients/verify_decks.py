"""``lantable verify`` on a hidden-deck table: audit every deal from the journal.

Pure, like :mod:`.verify`, which calls it. From the journalled records it rebuilds
each round of each deck as the host did (:class:`~lantable.protocol.hidden_deal.DealHost`):
every pass and unlock key is checked again, in order, with its seat's signature; then,
from every seat's secrets (published when the table ended), it recomputes every pass
(``DealHost.audit``), works out which card lay at every position, and checks every
unlock key, every card the journal says was opened, and every claim a signed action
made. Each problem names the deck, the round, the seat and the step.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import rbcl

from lantable.plugins import IllegalAction
from lantable.plugins.decks import Requests, claims_of, sealed_cards
from lantable.protocol.deck_errors import DealError
from lantable.protocol.hidden_deal import DealHost, seal_digest
from lantable.protocol.hidden_deck import DeckError, invert_all


def _deck_id(deck: str, rnd: int) -> str:
    return f"{deck}/{rnd}"


class DeckAudit:
    """Every round of every hidden deck of one table, rebuilt from its journal."""

    def __init__(self, table: str, seats: int, sizes: dict[str, int], keys: list[str],
                 records: list[dict[str, Any]]) -> None:
        self.table, self.seats, self.sizes, self.keys = table, seats, sizes, keys
        self.problems: list[str] = []
        self.notes: list[str] = []
        # The update whose deal a forfeit cut short (fairdecks: forfeit with "deal"), and
        # the seats that forfeited: that deal cannot finish, and is not a problem.
        cut = next((r for r in records if r.get("kind") == "forfeit" and r.get("deal")), None)
        self.cut_seats: list[int] = list(cut["seats"]) if cut else []
        self.cut_at: int | None = None
        if cut is not None:
            before = records[:records.index(cut)]
            ops = [r["seq"] for r in before if r.get("kind") == "deck_op"]
            self.cut_at = ops[-1] if ops else None
        self.deals: dict[tuple[str, int], DealHost] = {}
        self.current: dict[str, int] = {}
        self.ops: dict[int, list[dict[str, Any]]] = defaultdict(list)  # seq -> requests done
        self.round_at: dict[int, dict[str, int]] = {}  # seq -> deck -> round before its step
        self.opened: dict[int, list[dict[str, Any]]] = defaultdict(list)  # seq -> records
        self.secrets: dict[tuple[str, int], dict[int, dict[str, Any]]] = defaultdict(dict)
        self.truth: dict[tuple[str, int], list[int]] = {}  # (deck, round) -> card by position
        self._replay(records)
        self._audit()

    # -- the journal, as the host saw it ---------------------------------------------------

    def _replay(self, records: list[dict[str, Any]]) -> None:
        for rec in records:
            kind = rec.get("kind")
            try:
                if kind == "deck_op":
                    self._op(rec)
                elif kind in ("deck_pass", "deck_key", "deck_step", "deck_steps"):
                    self._message(rec)
                elif kind == "opened":
                    self.opened[rec["seq"]].append(rec)
                elif kind == "deck_secrets":
                    deck, _, number = rec["deck"].rpartition("/")
                    self.secrets[(deck, int(number))][rec["seat"]] = rec
            except (KeyError, TypeError, ValueError, DeckError) as exc:
                self.problems.append(f"a {kind} record cannot be read: {exc!r}")

    def _op(self, rec: dict[str, Any]) -> None:
        seq, deck = rec["seq"], rec["deck"]
        self.round_at.setdefault(seq, dict(self.current))
        op = {k: v for k, v in rec.items() if k not in ("kind", "seq")}
        self.ops[seq].append(op)
        if op["op"] == "shuffle":
            number = self.current.get(deck, 0) + 1
            self.current[deck] = number
            self.deals[(deck, number)] = DealHost(self.table, _deck_id(deck, number),
                                                  self.sizes[deck], self.keys)
            return
        deal = self.deals[(deck, self.current[deck])]
        if op["op"] == "deal":
            for pos in op["positions"]:
                deal.deal(pos, op["seat"])
        elif op["op"] == "open":
            for pos in op["positions"]:
                deal.open(pos)
        elif op["op"] == "give":
            deal.give(op["pos"], op["seat"])
        elif op["op"] == "show":
            for pos in op["positions"]:
                deal.show(pos, op["seat"])

    def _message(self, rec: dict[str, Any]) -> None:
        deck, _, number = str(rec.get("deck")).rpartition("/")
        deal = self.deals.get((deck, int(number) if number.isdigit() else -1))
        what = {"deck_pass": "pass", "deck_key": "unlock key",
                "deck_steps": "unlock steps"}.get(rec["kind"], "unlock step")
        if deal is None:
            self.problems.append(f"deck {rec.get('deck')}: a {what} of seat {rec.get('seat')} "
                                 "for a round that was never shuffled")
            return
        m = {k: v for k, v in rec.items() if k != "kind"}
        try:
            if rec["kind"] == "deck_pass":
                deal.receive_pass(m)
            elif rec["kind"] == "deck_key":
                deal.receive_key(m)
            elif rec["kind"] == "deck_steps":
                deal.receive_steps(m)
            else:
                deal.receive_step(m)
        except DealError as exc:
            self.problems.append(f"deck {deck} round {number}: seat {exc.seat}'s {what}"
                                 f"{_at(rec)}: {exc} (the journal was altered, or the host "
                                 "took what it should have refused)")

    # -- the seats' secrets ------------------------------------------------------------------

    def _audit(self) -> None:
        for (deck, number), deal in sorted(self.deals.items()):
            name = f"deck {deck} round {number}"
            got = self.secrets.get((deck, number), {})
            missing = [s for s in range(self.seats) if s not in got]
            if self.cut_at is not None and self._cut_short(deck, number, deal, missing):
                self.notes.append(f"{name}: the deal was cut short when seat(s) "
                                  f"{self.cut_seats} forfeit; it is not audited")
                continue
            if missing:
                self.problems.append(f"{name}: seat(s) {missing} never published their secrets: "
                                     "that deal cannot be audited")
                continue
            if deal.expected() is not None:
                self.problems.append(f"{name}: the journal lacks passes (waiting for "
                                     f"{deal.expected()})")
                continue
            secrets = [got[s] for s in range(self.seats)]
            try:
                found = deal.audit(secrets)
            except (KeyError, TypeError, ValueError) as exc:
                found = [f"the secrets cannot be read: {exc!r}"]
            for problem in found:
                self.problems.append(f"{name}: {problem}")
            if found:
                continue
            self.truth[(deck, number)] = _cards_at(secrets, deal.n)
            self._check_keys(name, deal, secrets)

    def _cut_short(self, deck: str, number: int, deal: DealHost, missing: list[int]) -> bool:
        """Whether this round is the one a forfeit stopped, unfinished or with secrets
        missing only from seats that forfeited or never shuffled it."""
        if self.current.get(deck) != number:
            return False  # a later round was shuffled: this one was done
        never = range(len(deal.passes["shuffle"]), self.seats)
        unfinished = deal.expected() is not None or any(
            c["left"] for c in deal.chains.values())
        return unfinished or all(s in self.cut_seats or s in never for s in missing)

    def _check_keys(self, name: str, deal: DealHost, secrets: list[dict[str, Any]]) -> None:
        """Every unlock key a seat published is the inverse of its key there, and every
        unlock step took exactly that seat's lock off the point it was given."""
        inverses: dict[int, list[bytes]] = {}

        def unlock(seat: int, pos: int) -> bytes:
            if seat not in inverses:  # every key of the seat at once (invert_all)
                inverses[seat] = invert_all([bytes.fromhex(k)
                                             for k in secrets[seat]["card_keys"]])
            return inverses[seat][pos]

        for pos, keys in sorted(deal.got.items()):
            for seat, m in sorted(keys.items()):
                if unlock(seat, pos).hex() != m["key"]:
                    self.problems.append(f"{name}: seat {seat}'s unlock key for position {pos} "
                                         "is not its key there (a card was opened wrong)")
        for m in deal.journal:
            if m.get("t") == "deck_step":
                steps = [[m["to"], m["pos"], m["point_in"], m["point"]]]
            elif m.get("t") == "deck_steps":  # several under one signature
                steps = m["steps"]
            else:
                continue
            seat = m["seat"]
            for to, pos, point_in, point in steps:
                out = rbcl.crypto_scalarmult_ristretto255(unlock(seat, pos),
                                                          bytes.fromhex(point_in))
                if out.hex() != point:
                    self.problems.append(f"{name}: seat {seat}'s unlock step for position "
                                         f"{pos} (to seat {to}) did not take its own lock off: "
                                         "the card it sent on was replaced")

    # -- what the replay asks --------------------------------------------------------------------

    def card(self, deck: str, number: int, pos: int) -> int | None:
        cards = self.truth.get((deck, number))
        return None if cards is None or not 0 <= pos < len(cards) else cards[pos]

    def check_claims(self, seq: int, seat: int, action: dict[str, Any]) -> None:
        """Every claim of action ``seq`` names the card the seats' secrets put there."""
        rounds = self.round_at.get(seq, self.current_before(seq))
        for deck, pos, claimed in claims_of(action):
            number = rounds.get(deck)
            card = None if number is None else self.card(deck, number, pos)
            if card is not None and card != claimed:
                self.problems.append(f"action {seq} (seat {seat}): it claims card {claimed} at "
                                     f"position {pos} of deck {deck} (round {number}), but the "
                                     f"seats' secrets put card {card} there: a false claim")
        self.check_sealed(seq, seat, action, rounds)

    def check_sealed(self, seq: int, seat: int, action: dict[str, Any],
                     rounds: dict[str, int]) -> None:
        """Every claim action ``seq`` made face down seals the card the seats' secrets
        put there, under the seat's own key for that position."""
        try:
            sealed = sealed_cards(action)
        except IllegalAction as exc:
            self.problems.append(f"action {seq} (seat {seat}): {exc}")
            return
        for deck, pos, card_in, seal in sealed:
            number = rounds.get(deck)
            where = f"position {pos} of deck {deck} (round {number})"
            if seal is None:
                self.problems.append(f"action {seq} (seat {seat}): its claim made face down on "
                                     f"{where} shows its card ({card_in}) instead of a seal")
                continue
            card = None if number is None else self.card(deck, number, pos)
            secret = self.secrets.get((deck, number or 0), {}).get(seat)
            if card is None or secret is None:
                continue  # that round is not audited: said already
            key = rbcl.crypto_core_ristretto255_scalar_invert(
                bytes.fromhex(secret["card_keys"][pos])).hex()
            if seal_digest(self.table, _deck_id(deck, number or 0), seat, pos, card,
                           key) != seal:
                self.problems.append(f"action {seq} (seat {seat}): its claim made face down on "
                                     f"{where} does not seal card {card}, which the seats' "
                                     "secrets put there: a false claim")

    def current_before(self, seq: int) -> dict[str, int]:
        """Each deck's round before update ``seq`` (for a step that asked nothing)."""
        before = [s for s in self.round_at if s < seq]
        if not before:
            return {}
        last = max(before)
        rounds = dict(self.round_at[last])
        for op in self.ops[last]:
            if op["op"] == "shuffle":
                rounds[op["deck"]] = rounds.get(op["deck"], 0) + 1
        return rounds

    def opened_cards(self, seq: int) -> list[tuple[str, dict[int, int]]]:
        """The cards turned face up during update ``seq``, as the journal says, each
        checked against the seats' secrets."""
        out = []
        for rec in self.opened.get(seq, []):
            cards = {p: c for p, c in rec["cards"]}
            for pos, card in cards.items():
                truth = self.card(rec["deck"], rec["round"], pos)
                if truth is not None and truth != card:
                    self.problems.append(f"update {seq}: the journal says position {pos} of deck "
                                         f"{rec['deck']} (round {rec['round']}) opened to card "
                                         f"{card}, but the seats' secrets put card {truth} there")
            out.append((rec["deck"], cards))
        return out

    def check_ops(self, seq: int, asked: list[dict[str, Any]]) -> None:
        """The host carried out exactly what the game asked during update ``seq`` (only
        the first of them, in order, if a forfeit cut that update's deal short)."""
        done = self.ops.get(seq, [])
        if seq == self.cut_at and done == asked[:len(done)]:
            return
        if asked != done:
            self.problems.append(f"update {seq}: the deck requests the journal records "
                                 f"({self.ops.get(seq, [])}) are not the ones the game made "
                                 f"({asked})")


def replay_step(game: Any, audit: DeckAudit, state: Any, seq: int,
                asked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Hand the game the cards opened during update ``seq`` (after its call); returns
    their events, and checks the requests the game made against the journal's."""
    events: list[dict[str, Any]] = []
    for deck, cards in audit.opened_cards(seq):
        more = Requests(audit.sizes, audit.seats)
        events += game.cards_opened(state, deck, cards, None, more)
        asked += more.take()
    audit.check_ops(seq, asked)
    return events


def _cards_at(secrets: list[dict[str, Any]], n: int) -> list[int]:
    """Which card every position holds after every seat's shuffle: seat ``s`` put at
    position ``j`` what was at ``permutation_s[j]`` before it."""
    order = list(range(n))
    for m in secrets:
        order = [order[src] for src in m["permutation"]]
    return order


def _at(rec: dict[str, Any]) -> str:
    if rec.get("kind") in ("deck_key", "deck_step"):
        return f" for position {rec.get('pos')} (to {rec.get('to')})"
    if rec.get("kind") == "deck_steps":
        steps = rec.get("steps")
        steps = steps if isinstance(steps, list) else []
        return " for positions " + ", ".join(
            f"{x[1]} (to {x[0]})" for x in steps if isinstance(x, list) and len(x) == 4)
    return f" ({rec.get('stage')})"
