"""Hidden decks (protocol/hidden_deck.py): four seats shuffle and lock a deck; a card
dealt to one seat opens only with every seat's key; a wrong key or a replaced card is
detected at the first card it touches, and the audit names the seat."""

from __future__ import annotations

import pytest

from lantable.protocol import hidden_deck as hd

SEATS, CARDS = 4, 12


def deal(seats: list[hd.DeckSeat], cards: list[bytes]) -> tuple[list, list, list]:
    """Both passes in seat order; returns (decks after each shuffle, after each lock,
    the final locked deck)."""
    shuffled, locked, deck = [], [], cards
    for seat in seats:
        deck = seat.shuffle_pass(deck)
        shuffled.append(deck)
    for seat in seats:
        deck = seat.lock_pass(deck)
        locked.append(deck)
    return shuffled, locked, deck


@pytest.fixture(scope="module")
def table():
    cards = hd.card_points("test deck", CARDS)
    seats = [hd.DeckSeat(CARDS) for _ in range(SEATS)]
    shuffled, locked, deck = deal(seats, cards)
    return cards, seats, shuffled, locked, deck


def test_cards_are_distinct_points_fixed_by_their_tag() -> None:
    cards = hd.card_points("test deck", CARDS)
    assert len(set(cards)) == CARDS and cards == hd.card_points("test deck", CARDS)
    assert not set(cards) & set(hd.card_points("another deck", CARDS))


def test_a_dealt_card_opens_for_its_recipient_and_every_deal_is_the_deck(table) -> None:
    cards, seats, _, _, deck = table
    dealt = []
    for position in range(CARDS):
        to = position % SEATS
        others = [seats[s].unlock_key(position) for s in range(SEATS) if s != to]
        dealt.append(hd.open_card(deck[position], [*others, seats[to].unlock_key(position)],
                                  cards))
    assert sorted(dealt) == list(range(CARDS))  # a permutation: no card lost or doubled
    # the order is the composition of every seat's permutation, which no seat knows alone
    order = list(range(CARDS))
    for seat in seats:
        order = [order[src] for src in seat.permutation]
    assert dealt == order


def test_without_the_recipients_key_no_one_sees_the_card(table) -> None:
    """The host relays the other seats' keys for a deal: with all of them but the
    recipient's, the position is still masked and matches no card."""
    cards, seats, _, _, deck = table
    others = [seats[s].unlock_key(0) for s in range(1, SEATS)]
    with pytest.raises(hd.DeckError, match="not a card of this deck"):
        hd.open_card(deck[0], others, cards)


def test_a_wrong_unlock_key_is_detected_at_once_and_the_audit_names_the_seat(table) -> None:
    cards, seats, shuffled, locked, deck = table
    keys = [seats[s].unlock_key(3) for s in range(SEATS)]
    keys[2] = seats[2].unlock_key(4)  # seat 2 hands over the key of another position
    with pytest.raises(hd.DeckError, match="not a card of this deck"):
        hd.open_card(deck[3], keys, cards)
    # seat 2 published card keys other than those it locked with
    lying = seats[2].secrets()
    lying["card_keys"] = [lying["card_keys"][4], *lying["card_keys"][1:]]
    secrets_ = [s.secrets() for s in seats]
    assert hd.audit(cards, shuffled, locked, secrets_) == []
    secrets_[2] = lying
    assert hd.audit(cards, shuffled, locked, secrets_) == [
        "seat 2: its lock pass does not follow from the deck before it"]


def test_a_replaced_card_is_caught_when_opened_twice_and_named_by_the_audit() -> None:
    cards = hd.card_points("test deck", CARDS)
    seats = [hd.DeckSeat(CARDS) for _ in range(SEATS)]

    class Cheat(hd.DeckSeat):
        def shuffle_pass(self, deck):
            out = super().shuffle_pass(deck)
            out[1] = out[0]  # a second copy of one card, in place of another
            return out

    seats[1] = Cheat(CARDS)
    shuffled, locked, deck = deal(seats, cards)
    opened = [hd.open_card(deck[p], [s.unlock_key(p) for s in seats], cards)
              for p in range(CARDS)]
    assert len(set(opened)) == CARDS - 1  # a duplicate shows as soon as both are open
    assert hd.audit(cards, shuffled, locked, [s.secrets() for s in seats]) == [
        "seat 1: its shuffle pass does not follow from the deck before it (a card was "
        "replaced)"]
