"""Blackbeard with hidden decks, in process (the host as the dealer, LocalDealer): seeded
games end; hands and face-down merchants are positions; at every decision, each seat's
own list of actions (its client half, from its view and its cards) is what a host that
knew every card would list; claims that are not the seat's to make are refused with the
state unchanged (docs/fair-play.md, "Blackbeard with hidden decks")."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from lantable.plugins import IllegalAction, load_registry
from lantable.plugins.blackbeard import flow, text
from lantable.plugins.blackbeard import hidden as BH
from lantable.plugins.blackbeard.board import masked
from lantable.plugins.blackbeard.data import CARDS
from lantable.plugins.decks import DEALER_KEY

GAME = load_registry(autoload=True)["blackbeard"]


def _revealed(S: dict[str, Any]) -> dict[str, Any]:
    """The plain state a host that knew every card would hold."""
    T = pickle.loads(pickle.dumps(S))
    order = {d: T[DEALER_KEY]["decks"][d]["order"] for d in (BH.DECK, BH.MDECK)}
    card = {c: BH.NONMPI[order[BH.DECK][c - BH.CARD_MASK]] for h in T["hands"] for c in h
            if BH.CARD_MASK <= c < BH.P2_MASK}
    p2 = T["hidden"].get("pass2")
    if p2:  # the long game's second pass: card i of its deck is p2["cards"][i]
        order2 = T[DEALER_KEY]["decks"][p2["deck"]]["order"]
        card.update({c: p2["cards"][order2[c - BH.P2_MASK]] for h in T["hands"] for c in h
                     if c >= BH.P2_MASK})
    T["hands"] = [sorted(card.get(c, c) for c in h) for h in T["hands"]]
    for m in T["merchants"]:
        if m["id"] >= BH.MERCH_MASK:
            m["id"] = order[BH.MDECK][m["id"] - BH.MERCH_MASK]
    return T


def _strip(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "claims"}


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_seeded_hidden_games_end_and_each_seat_lists_what_a_knowing_host_would(seats):
    rng = random.Random(f"bb-hidden/{seats}")
    S = GAME.setup(seats, {"hidden_deck": True}, rng)
    revealed = 0
    for n in range(3000):
        to_act = GAME.to_act(S)
        if not to_act:
            break
        seat = to_act[0]
        assert all(c >= BH.CARD_MASK for h in S["hands"] for c in h), n
        assert all(m["id"] >= BH.MERCH_MASK for m in S["merchants"] if not m["face_up"])
        legal = GAME.legal_actions(S, seat)
        assert [_strip(a) for a in legal] == flow.legal(_revealed(S), seat), n
        for a in legal:
            if "card" in a:
                assert [c["pos"] for c in a["claims"]]
        events = GAME.apply(S, seat, rng.choice(legal), rng)
        revealed += sum(e["type"] == "merchant_revealed" for e in events)
        assert not [e for e in events if e["type"] == "drew"]  # a seat's card is its own
    else:
        raise AssertionError("no end")
    assert S["over"]
    assert len(S["deck"]) + sum(map(len, S["hands"])) + len(S["discards"]) + len(
        S["removed"]) + sum(len(p["heavy_guns"]) for p in S["pirates"]) == len(CARDS)
    assert all(m["id"] < BH.MERCH_MASK for m in S["merchants"] if m["face_up"])
    assert revealed == len(S[DEALER_KEY]["decks"][BH.MDECK]["open"])  # each found one named
    assert revealed or seats == 5  # (these seeds find one at 2 and 3 seats)


def _deciding_with_a_card(seed: int) -> tuple[dict[str, Any], int, dict[str, Any]]:
    rng = random.Random(seed)
    S = GAME.setup(3, {"hidden_deck": True}, rng)
    while True:
        seat = GAME.to_act(S)[0]
        legal = GAME.legal_actions(S, seat)
        with_card = [a for a in legal if "claims" in a]
        if with_card:
            return S, seat, with_card[0]
        GAME.apply(S, seat, rng.choice(legal), rng)


def test_claims_that_are_not_the_seats_to_make_are_refused_and_change_nothing():
    S, seat, action = _deciding_with_a_card(7)
    before = pickle.dumps(S)
    other = next(c for s, h in enumerate(S["hands"]) if s != seat for c in h)
    claim = action["claims"][0]
    wrong = [
        {**action, "claims": [dict(claim, pos=other - BH.CARD_MASK)]},  # not its position
        {k: v for k, v in action.items() if k != "claims"},  # no claim for the card
        {**action, "claims": [dict(claim, card=len(BH.NONMPI))]},  # no such card
        {**action, "claims": [claim, claim]},  # a position twice
    ]
    for bad in wrong:
        with pytest.raises(IllegalAction):
            GAME.apply(S, seat, bad, random.Random(1))
        assert pickle.dumps(S) == before
    # Where the host deals, a false card is refused at once (LocalDealer checks it).
    false = {**action, "claims": [dict(claim, card=(claim["card"] + 1) % len(BH.NONMPI))]}
    with pytest.raises(IllegalAction):
        GAME.apply(S, seat, false, random.Random(1))
    assert pickle.dumps(S) == before


def test_a_long_hidden_game_deals_its_second_pass_as_a_fresh_deck_of_the_known_discards():
    """The long game's second pass: the discards (all seen face up) become a fresh deck
    ``events2-k``, shuffled by the dealer; hands keep their first-pass positions; each
    seat's list is still what a knowing host would list; the sampler plays it."""
    rng = random.Random("bb-hidden/long")
    S = GAME.setup(3, {"hidden_deck": True, "game_length": "long"}, rng)
    assert set(GAME.decks(3, {"hidden_deck": True, "game_length": "long"})) == {
        BH.DECK, BH.MDECK, *BH.pass2_decks()}
    second = 0
    for n in range(4000):
        to_act = GAME.to_act(S)
        if not to_act:
            break
        seat = to_act[0]
        p2 = S["hidden"].get("pass2")
        if p2:
            second += 1
            assert S["deck_pass"] == 2 and p2["shuffled"]
            assert p2["deck"] == f"events2-{len(p2['cards'])}"
            assert DEALER_KEY in S and p2["deck"] in S[DEALER_KEY]["decks"]
            assert all(c >= BH.CARD_MASK for h in S["hands"] for c in h), n
            assert all(masked(c) or c in BH.MPI for c in S["deck"])
        legal = GAME.legal_actions(S, seat)
        assert [_strip(a) for a in legal] == flow.legal(_revealed(S), seat), n
        if p2:  # the terminal names the seat's cards of both passes
            assert len(text.hand_cards(GAME.view(S, seat))) == len(S["hands"][seat])
        if p2 and second < 40:  # the sampler builds a second-pass state the rules play
            T = GAME.sample_state(GAME.view(S, seat), seat, random.Random(n))
            assert T["hidden"]["pass2"]["deck"] == p2["deck"]
            assert sorted(map(_strip, GAME.legal_actions(T, seat)), key=repr) == sorted(
                map(_strip, legal), key=repr)
        action = rng.choice(legal)
        GAME.apply(S, seat, action, rng)
    else:
        raise AssertionError("no end")
    assert S["over"] and second > 20
    p2deck = S["hidden"]["pass2"]["deck"]
    assert S[DEALER_KEY]["decks"][p2deck]["round"] == 1  # shuffled once
