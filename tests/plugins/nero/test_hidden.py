"""Nero with a hidden deck (option ``hidden_deck``, plugins/nero/hidden.py), in process:
the game asks its ``decks`` for positions, and the seats carry the requests out with
the masked deal of protocol/hidden_deal.py through a host that holds no scalar."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.decks import Requests
from lantable.plugins.nero import engine, hidden, people, sentences
from lantable.plugins.nero import hands as H
from lantable.plugins.nero.data import NCARDS

from . import helpers as nx
from .hidden_table import DECK, Fault, Table

G = nx.GAME


def true_state(t: Table) -> dict[str, Any]:
    """The state a host that knew every card would hold: each token replaced by the
    card at its position (read with every seat's key, as the audit would)."""
    S = pickle.loads(pickle.dumps(t.S))

    def card(c: int) -> int:
        return t.true_card(t.deck, c - H.MASKED) if H.is_masked(c) else c

    S["hands"] = [sorted(card(c) for c in h) for h in S["hands"]]
    S["box_face_down"] = sorted(card(c) for c in S["box_face_down"])
    for item in S["pending"]:
        if item["kind"] == "battle":
            item["committed"] = {s: sorted(card(c) for c in cs)
                                 for s, cs in item["committed"].items()}
    return S


def count_cards(S: dict[str, Any]) -> int:
    return sum(len(h) for h in S["hands"]) + len(S["box_face_down"]) + len(S["box_face_up"]) + sum(
        len(cs) for it in S["pending"] if it["kind"] == "battle" for cs in it["committed"].values())


def play(seats: int, seed: int, options: dict[str, Any] | None = None) -> Table:
    """A whole game between random seats, each listing its own actions."""
    t = Table(seats, seed, options)
    pick = random.Random(seed)
    while not t.S["over"]:
        assert not hidden.waiting(t.S)  # every opening was answered before the next move
        seat = pick.choice(G.to_act(t.S))
        legal = t.legal(seat)
        # The seat's own list is the list a host that knew every card would give.
        pos_of = {c: p for p, c in t.cards[seat].items()}
        assert legal == [hidden.to_hidden(a, pos_of)
                         for a in engine.legal_actions(true_state(t), seat)]
        assert count_cards(t.S) == NCARDS
        t.play(seat, pick.choice(legal))
    return t


@pytest.mark.parametrize("seats", [3, 4])
def test_a_whole_hidden_deck_game_between_random_seats(seats: int) -> None:
    t = play(seats, 7 + seats)
    assert t.S["game_turn"] == 4 or t.S["automatic_winner"] is not None
    kinds = {e["type"] for e in t.events}
    assert {"battle", "event", "march", "discarded", "answer", "stolen"} <= kinds, kinds
    assert {op["op"] for op in t.ops} == {"shuffle", "deal", "open", "give"}
    assert not any(e["type"].startswith("deck_") for e in t.events)  # markers became ops
    # The host never opens a card dealt to one seat: with every key it relayed, a
    # position not opened to everyone is no card.
    private = [k for k in t.carried if k not in t.public]
    assert len(private) > 20
    for deck, pos in private:
        assert (deck, pos) not in t.relayed  # no key of a dealt card leaves its seat
        assert t.host_opens(deck, pos) is None
    # Every card opened to everyone is the card there.
    for deck, pos in t.public:
        assert t.host_opens(deck, pos) == t.true_card(deck, pos)
    # Every event reads as a sentence for the people at the table.
    view = G.view(t.S, None)
    names = [f"P{s}" for s in range(seats)]
    for e in t.events:
        assert isinstance(sentences.describe_event(view, None, e, names), str), e


def test_a_hidden_deck_game_with_every_alternative_option() -> None:
    alternatives = {k: next(c for c in spec["choices"] if c != spec["default"])
                    for k, spec in G.info["options"].items()
                    if k[0] == "a" and k[1].isdigit() and "choices" in spec}
    t = play(4, 21, {**alternatives, "short_game": True})
    assert t.S["over"] and t.S["options"]["hidden_deck"] and t.S["options"]["reactions"] == "all"


def first_round(seats: int = 4, seed: int = 3) -> tuple[Table, int]:
    """A table after its setup, at the first seat's first round."""
    t = Table(seats, seed)
    pick = random.Random(seed)
    while t.S["setup"]:
        seat = G.to_act(t.S)[0]
        t.play(seat, pick.choice(t.legal(seat)))
    return t, G.to_act(t.S)[0]


def test_5_1_each_seat_is_dealt_positions_and_opens_only_its_own_cards() -> None:
    t, _ = first_round()
    for seat in range(4):
        hand = t.S["hands"][seat]
        assert all(H.is_masked(c) for c in hand) and len(hand) == 10
        assert sorted(t.cards[seat]) == [c - H.MASKED for c in hand]
        assert all(t.cards[seat][p] == t.true_card(t.deck, p) for p in t.cards[seat])
    box = t.S["box_face_down"]
    assert all(H.is_masked(c) for c in box) and len(box) == NCARDS - 40
    # The host's view of a seat shows positions, never cards; and the host, which
    # knows no card, cannot list a seat's actions.
    view = G.view(t.S, 2)
    assert view["hand"] == t.S["hands"][2] and view["hand_cards"] == {}
    with pytest.raises(ValueError, match="only its own client"):
        G.legal_actions(t.S, 2)


def test_a_false_claim_is_found_when_the_card_is_opened() -> None:
    t, seat = first_round()
    march = next(a for a in t.legal(seat) if a["type"] == "march")
    (claim,) = march["claims"]
    lie = next(iter(t.cards[(seat + 1) % 4].values()))  # another seat's card
    with pytest.raises(Fault) as fault:
        t.play(seat, {**march, "cards": [lie], "claims": [{**claim, "card": lie}]})
    assert (fault.value.seat, fault.value.pos, fault.value.claimed, fault.value.card) == (
        seat, claim["pos"], lie, t.true_card(t.deck, claim["pos"]))


def test_a_claim_the_host_can_check_at_once_is_refused_with_the_state_unchanged() -> None:
    t, seat = first_round()
    march = next(a for a in t.legal(seat) if a["type"] == "march")
    (claim,) = march["claims"]
    card = claim["card"]
    before = copy.deepcopy(t.S)
    other = t.S["hands"][(seat + 1) % 4][0] - H.MASKED
    bad = [
        ({**march, "claims": [{**claim, "pos": other}]}, "not in your hand"),
        ({**march, "claims": []}, "position of every card"),
        ({k: v for k, v in march.items() if k != "claims"}, "position of every card"),
        ({**march, "claims": [{**claim, "deck": "other"}]}, "position of every card"),
        ({**march, "claims": [{**claim, "pos": "x"}]}, "must be an integer"),
        ({"type": "discard", "pos": other}, "not in your hand"),
    ]
    for action, why in bad:
        with pytest.raises(IllegalAction, match=why):
            hidden.apply(t.S, seat, action, t.rng, Requests(t.sizes, 4))
        assert t.S == before
    t.play(seat, march)  # honest: opened, checked, no fault
    assert card in t.S["box_face_up"] and not t.S["hidden"]["claims"]
    # A card already face up cannot be claimed again, at any position.
    now = G.to_act(t.S)[0]
    own = t.S["hands"][now][0] - H.MASKED
    with pytest.raises(IllegalAction, match="already face up"):
        hidden.apply(t.S, now, {"type": "answer", "card": card, "claims": [
            {"deck": DECK, "pos": own, "card": card}]}, t.rng, Requests(t.sizes, 4))


def test_r_6_3_battle_cards_are_opened_only_when_both_sides_are_in() -> None:
    """Played until a battle: the first commitment opens nothing (not even to the
    host), the second opens both, and the battle is fought with the opened cards."""
    for seed in range(40):
        t = Table(4, 500 + seed)
        pick = random.Random(seed)
        while not t.S["over"]:
            top = t.S["pending"][-1] if t.S["pending"] else None
            if top is not None and top["kind"] == "battle" and not top["committed"]:
                break
            seat = pick.choice(G.to_act(t.S))
            t.play(seat, pick.choice(t.legal(seat)))
        else:
            continue
        first, second = G.to_act(t.S)
        mine = t.legal(first)[-1]  # the most cards
        if not mine["pos"]:
            continue
        n_public = len(t.public)
        t.play(first, mine)
        assert len(t.public) == n_public and G.to_act(t.S) == [second]
        view = G.view(t.S, second)
        assert view["pending"][-1]["committed"][str(first)] == len(mine["pos"])
        theirs = t.legal(second)[-1]
        t.play(second, theirs)
        opened = sorted(mine["pos"] + theirs["pos"])
        assert {p for d, p in t.public if d == t.deck} >= set(opened)
        battle = next(e for e in reversed(t.events) if e["type"] == "battle")
        truth = [t.true_card(t.deck, p) for p in opened]
        assert sorted(battle["att_cards"] + battle["def_cards"]) == sorted(truth)
        assert not hidden.waiting(t.S)
        return
    raise AssertionError("no battle in 40 games")


def test_6_2_14_traitor_hands_a_card_to_the_thief_and_to_nobody_else() -> None:
    for seed in range(40):
        t = Table(4, 900 + seed)
        pick = random.Random(seed)
        while not t.S["over"] and not t.gives:
            seat = pick.choice(G.to_act(t.S))
            t.play(seat, pick.choice(t.legal(seat)))
        if not t.gives:
            continue
        (pos, victim, thief), = t.gives
        assert t.cards[thief][pos] == t.true_card(t.deck, pos)
        stolen = next(e for e in t.events if e["type"] == "stolen")
        assert stolen["to"] == [thief, victim] and "card" not in stolen
        assert H.MASKED + pos in t.S["hands"][thief]
        assert H.MASKED + pos not in t.S["hands"][victim]
        # The host carried the point from seat to seat twice (to the victim, then to
        # the thief), and holds no key: none of those points is a card.
        assert (t.deck, pos) not in t.relayed and len(t.carried[t.deck, pos]) == 6
        assert t.host_opens(t.deck, pos) is None
        return
    raise AssertionError("no Traitor in 40 games")


@pytest.mark.parametrize("seats", [3, 4])
def test_where_the_host_deals_the_hidden_deck_game_runs_on_the_plain_game_api(
        seats: int) -> None:
    """At a table without hidden decks (and for bots in-process) the Game facade is
    the dealer: legal actions come from the cards it handed the state, claims are
    checked at once, and a whole game plays through the ordinary calls."""
    rng, pick = random.Random(seats), random.Random(seats + 1)
    S = G.setup(seats, {"hidden_deck": True}, rng)
    steps = 0
    while not G.is_over(S):
        seat = pick.choice(G.to_act(S))
        legal = G.legal_actions(S, seat)
        assert legal == G.seat_actions(G.view(S, seat), seat, {})
        action = pick.choice(legal)
        if action.get("claims") and steps % 5 == 0:  # a false claim, refused at once
            lie = {**action, "claims": [{**c, "card": (c["card"] + 1) % NCARDS}
                                        for c in action["claims"]]}
            before = copy.deepcopy(S)
            with pytest.raises(IllegalAction, match="claim"):
                G.apply(S, seat, lie, rng)
            assert S == before
        G.apply(S, seat, action, rng)
        steps += 1
    assert G.scores(S)["rank"]


def test_a_seat_reads_its_hidden_hand_in_words() -> None:
    """The terminal's board and action words name the cards the seat's client put in
    its view (``_hand``), and positions where it knows none."""
    t, seat = first_round()
    view = G.view(t.S, seat)
    names = [f"P{s}" for s in range(4)]
    mine = {**view, "_hand": {DECK: {str(p): c for p, c in t.cards[seat].items()}}}
    hand = sorted(t.cards[seat].values())
    caption = str(people.render(mine, seat, names).caption)
    assert caption.endswith("your hand: " + "; ".join(sentences.card_name(c) for c in hand))
    assert str(people.render(view, seat, names).caption).endswith(
        f"your hand: {len(hand)} cards not shown here")
    legal = t.legal(seat)
    discard = next(a for a in legal if a["type"] == "discard")
    card = t.cards[seat][discard["pos"]]
    assert G.describe(mine, seat, discard, names) == \
        f"discard {sentences.card_name(card)} face down"
    assert G.describe(view, seat, discard, names) == \
        f"discard the card at position {discard['pos']} face down"
