"""Nero with a hidden deck (plugins/nero/hidden.py), in process: the game drives the
masked deal of protocol/hidden_deal.py through a host that holds no scalar."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from lantable.plugins import IllegalAction
from lantable.plugins.nero import engine, hidden, sentences
from lantable.plugins.nero import hands as H
from lantable.plugins.nero.data import NCARDS
from lantable.protocol.hidden_deck import DeckError, open_card

from . import helpers as nx
from .hidden_table import Table


def true_state(t: Table) -> dict[str, Any]:
    """The state a host that knew every card would hold: each token replaced by the
    card at its position (read with every seat's key, as the audit would)."""
    S = pickle.loads(pickle.dumps(t.S))
    deck = S["hid"]["deck"]

    def card(c: int) -> int:
        return t.true_card(deck, c - H.MASKED) if H.is_masked(c) else c

    S["hands"] = [sorted(card(c) for c in h) for h in S["hands"]]
    S["box"] = sorted(card(c) for c in S["box"])
    for item in S["pend"]:
        if item["k"] == "battle":
            item["commit"] = {s: sorted(card(c) for c in cs) for s, cs in item["commit"].items()}
    return S


def count_cards(S: dict[str, Any]) -> int:
    return sum(len(h) for h in S["hands"]) + len(S["box"]) + len(S["seen"]) + sum(
        len(cs) for it in S["pend"] if it["k"] == "battle" for cs in it["commit"].values())


def play(seats: int, seed: int, check_every: int = 1) -> Table:
    """A whole game between random seats, each listing its own actions."""
    t = Table(seats, seed)
    pick = random.Random(seed)
    steps = 0
    while not t.S["over"]:
        assert not hidden.waiting(t.S)  # every opening was answered before the next move
        to_act = engine.to_act(t.S)
        seat = pick.choice(to_act)
        legal = t.legal(seat)
        if steps % check_every == 0:
            # The seat's own list is the list a host that knew every card would give.
            truth = true_state(t)
            pos_of = {c: p for p, c in t.cards[seat].items()}
            assert legal == [hidden.to_hidden(a, pos_of)
                             for a in engine.legal_actions(truth, seat)]
            assert count_cards(t.S) == NCARDS
        t.play(seat, pick.choice(legal))
        steps += 1
    assert t.S["forfeit"] is None
    return t


@pytest.mark.parametrize("seats", [3, 4])
def test_a_whole_hidden_deck_game_between_random_seats(seats: int) -> None:
    t = play(seats, 7 + seats)
    assert t.S["gt"] == 4 or t.S["auto"] is not None
    kinds = {e["type"] for e in t.events}
    assert {"deck_new", "deck_deal", "battle", "event", "march", "discarded", "answer",
            "stolen", "deck_give"} <= kinds, kinds
    # The host never opens a card dealt to one seat: with every key it relayed, a
    # position not opened to everyone is no card.
    private = [k for k in t.relayed if k not in t.public]
    assert len(private) > 30
    for deck, pos in private:
        assert len(t.relayed[deck, pos]) < seats  # it lacks its holder's key
        assert t.host_opens(deck, pos) is None
    # Every event reads as a sentence for the people at the table.
    view = nx.GAME.view(t.S, None)
    names = [f"P{s}" for s in range(seats)]
    for e in t.events:
        assert isinstance(sentences.describe_event(view, None, e, names), str), e
    # Every card opened to everyone is the card there; every face-up card was opened.
    for deck, pos in t.public:
        assert t.host_opens(deck, pos) == t.true_card(deck, pos)


def first_round(seats: int = 4, seed: int = 3) -> tuple[Table, int]:
    """A table after its setup, at the first seat's first round."""
    t = Table(seats, seed)
    pick = random.Random(seed)
    while t.S["setup"]:
        seat = engine.to_act(t.S)[0]
        t.play(seat, pick.choice(t.legal(seat)))
    return t, engine.to_act(t.S)[0]


def test_5_1_each_seat_is_dealt_positions_and_opens_only_its_own_cards() -> None:
    t, _ = first_round()
    for seat in range(4):
        hand = t.S["hands"][seat]
        assert all(H.is_masked(c) for c in hand) and len(hand) == 10
        assert sorted(t.cards[seat]) == [c - H.MASKED for c in hand]
        assert all(t.cards[seat][p] == t.true_card(t.S["hid"]["deck"], p) for p in t.cards[seat])
    assert all(H.is_masked(c) for c in t.S["box"]) and len(t.S["box"]) == NCARDS - 40
    # The host's view of a seat shows positions, never cards.
    assert nx.GAME.view(t.S, 2)["hand"] == t.S["hands"][2]


def test_a_false_claim_is_named_when_the_card_is_opened_and_forfeits() -> None:
    t, seat = first_round()
    deck = t.S["hid"]["deck"]
    march = next(a for a in t.legal(seat) if a["type"] == "march")
    (pos,) = march["pos"].values()
    lie = next(c for p, c in t.cards[(seat + 1) % 4].items())  # another seat's card
    t.play(seat, {**march, "cards": [lie], "pos": {str(lie): pos}})
    fault = [e for e in t.events if e["type"] == "false_claim"]
    assert fault == [{"type": "false_claim", "seat": seat, "deck": deck, "pos": pos,
                      "claimed": lie, "card": t.true_card(deck, pos)}]
    assert t.S["over"] and not engine.to_act(t.S)
    scores = hidden.scores(t.S)
    assert scores["rank"][seat] == 4 and scores["detail"]["forfeit"] == seat
    assert sorted(scores["rank"][s] for s in range(4) if s != seat) == [1, 1, 1]


def test_a_claim_the_host_can_check_at_once_is_refused_with_the_state_unchanged() -> None:
    t, seat = first_round()
    march = next(a for a in t.legal(seat) if a["type"] == "march")
    (card,) = march["cards"]
    before = copy.deepcopy(t.S)
    other = t.S["hands"][(seat + 1) % 4][0] - H.MASKED
    bad = [
        ({**march, "pos": {str(card): other}}, "not in your hand"),
        ({**march, "pos": {}}, "position of every card"),
        ({k: v for k, v in march.items() if k != "pos"}, "position of every card"),
        ({**march, "pos": {str(card): "x"}}, "must be an integer"),
        ({"type": "discard", "pos": other}, "not in your hand"),
    ]
    for action, why in bad:
        with pytest.raises(IllegalAction, match=why):
            hidden.apply(t.S, seat, action, t.rng)
        assert t.S == before
    t.play(seat, march)  # honest: opened, checked, no fault
    assert card in t.S["seen"] and not t.S["hid"]["claims"] and t.S["forfeit"] is None
    # A card already face up cannot be claimed again, at any position.
    now = engine.to_act(t.S)[0]
    own = t.S["hands"][now][0] - H.MASKED
    with pytest.raises(IllegalAction, match="already face up"):
        hidden.apply(t.S, now, {"type": "answer", "card": card, "pos": {str(card): own}}, t.rng)


def test_r_6_3_battle_cards_are_opened_only_when_both_sides_are_in() -> None:
    """Played until a battle: the first commitment opens nothing (not even to the
    host), the second opens both, and the battle is fought with the opened cards."""
    for seed in range(40):
        t = Table(4, 500 + seed)
        pick = random.Random(seed)
        while not t.S["over"]:
            top = t.S["pend"][-1] if t.S["pend"] else None
            if top is not None and top["k"] == "battle" and not top["commit"]:
                break
            seat = pick.choice(engine.to_act(t.S))
            t.play(seat, pick.choice(t.legal(seat)))
        else:
            continue
        first, second = engine.to_act(t.S)
        mine = t.legal(first)[-1]  # the most cards
        if not mine["pos"]:
            continue
        n_public = len(t.public)
        t.play(first, mine)
        assert len(t.public) == n_public and engine.to_act(t.S) == [second]
        view = nx.GAME.view(t.S, second)
        assert view["pend"][-1]["commit"][str(first)] == len(mine["pos"])
        theirs = t.legal(second)[-1]  # the most cards
        t.play(second, theirs)
        deck = t.S["hid"]["deck"]
        opened = sorted(mine["pos"] + theirs["pos"])
        assert {p for d, p in t.public if d == deck} >= set(opened)
        battle = next(e for e in reversed(t.events) if e["type"] == "battle")
        truth = {p: t.true_card(deck, p) for p in opened}
        assert sorted(battle["att_cards"] + battle["def_cards"]) == sorted(truth.values())
        assert not hidden.waiting(t.S)
        return
    raise AssertionError("no battle in 40 games")


def test_6_2_14_traitor_hands_a_card_to_the_thief_and_to_nobody_else() -> None:
    for seed in range(40):
        t = Table(4, 900 + seed)
        pick = random.Random(seed)
        while not t.S["over"] and not any(e["type"] == "deck_give" for e in t.events):
            seat = pick.choice(engine.to_act(t.S))
            t.play(seat, pick.choice(t.legal(seat)))
        gives = [e for e in t.events if e["type"] == "deck_give"]
        if not gives:
            continue
        give = gives[0]
        deck, pos, thief, victim = give["deck"], give["pos"], give["seat"], give["from"]
        if deck != t.S["hid"]["deck"]:
            continue
        assert t.cards[thief][pos] == t.true_card(deck, pos)
        stolen = next(e for e in t.events if e["type"] == "stolen")
        assert stolen["to"] == [thief, victim] and "card" not in stolen
        # The host holds every key but the victim's (the thief's too, relayed to the
        # victim at the deal), and the victim's answer to a blinded point: with all of
        # them it opens nothing.
        assert set(t.relayed[deck, pos]) == set(range(4)) - {victim}
        assert t.host_opens(deck, pos) is None
        (_, _, request, reply), = [b for b in t.blinded if b[:2] == (deck, pos)]
        host = t.decks[deck][0]
        for blinded in (request["point"], reply["point"]):
            with pytest.raises(DeckError, match="not a card"):
                open_card(bytes.fromhex(blinded), list(t.relayed[deck, pos].values()),
                          host.cards)
        return
    raise AssertionError("no Traitor in 40 games")
