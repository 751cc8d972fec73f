"""Face-down piles are sets: a card is drawn when it is turned over (piles.py).

For every face-down deck (German ships, merchants, Action cards, Solitaire cards):
the state never holds an order for the cards still to come (the pile is sorted at
every step of seeded self-play), and a draw is one uniform pick among the cards left,
so the state alone does not fix the next card and the odds are a shuffled deck's
(chi-square over many seeded draws, with Python's rng and with a fair table's).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from lantable.plugins.kaisers_pirates import piles, rules, solo
from lantable.protocol import fairplay as fp

from . import helpers as kp

chi2 = kp.fairplay_module("test_core").chi2
chi2_critical = kp.fairplay_module("test_core").chi2_critical

State = dict[str, Any]


def _solitaire_card(S: State, rng: random.Random) -> int:
    ev: list[dict[str, Any]] = []
    solo._draw(S, rng, ev)
    return ev[-1]["card"]


# deck -> (seats of the table it is drawn at, its pile in the state, the game's own draw)
DECKS: dict[str, tuple[int, Callable[[State], list[int]], Callable[[State, Any], int]]] = {
    "german": (2, lambda S: S["german_deck"], lambda S, rng: rules.draw_ship(S, rng, True, [])),
    "merchant": (2, lambda S: S["merchant_deck"],
                 lambda S, rng: rules.draw_ship(S, rng, False, [])),
    "action": (2, lambda S: S["action_unseen"], piles.draw_action),
    "solitaire": (1, lambda S: S["solo"]["deck"], _solitaire_card),
}


def _fresh(deck: str) -> State:
    seats = DECKS[deck][0]
    return kp.GAME.setup(seats, {}, random.Random(11))


def _draws(S: State, deck: str, rngs: list[Any], n: int = 1) -> list[tuple[int, ...]]:
    """The first ``n`` cards drawn from ``deck`` in a copy of ``S``, once per rng."""
    out = []
    for rng in rngs:
        T = _shallow(S, deck)
        out.append(tuple(DECKS[deck][2](T, rng) for _ in range(n)))
    return out


def _shallow(S: State, deck: str) -> State:
    """A copy of ``S`` whose piles a draw touches are its own (deepcopy is slow)."""
    T = dict(S)
    for key in ("german_deck", "german_used", "merchant_deck", "merchant_used",
                "action_unseen", "action_deck_top"):
        T[key] = list(S[key])
    if S["solo"] is not None:
        T["solo"] = {**S["solo"], "deck": list(S["solo"]["deck"])}
    return T


def _uniform(counts: Counter, cells: list[Any]) -> tuple[float, float]:
    """(chi-square, its p = 0.0001 critical value) of ``counts`` against every cell alike."""
    assert set(counts) <= set(cells)
    return chi2([counts[c] for c in cells]), chi2_critical(len(cells) - 1)


# --- the state holds no order -------------------------------------------------------


@pytest.fixture(scope="module")
def selfplay() -> dict[str, dict[str, int]]:
    """Seeded random games at 1-4 seats (one with the tournament deal): at every step,
    per deck, whether its pile is sorted; and how many cards were drawn from it."""
    seen = {d: {"unsorted": 0, "draws": 0, "steps": 0} for d in DECKS}
    for seats, options in [(1, {}), (2, {}), (3, {"tournament": True}), (4, {})]:
        rng = random.Random(seats)
        S = kp.GAME.setup(seats, options, rng)
        while not kp.GAME.is_over(S):
            for d, (_, pile, _draw) in DECKS.items():
                if d == "solitaire" and S["solo"] is None:
                    continue
                before = list(pile(S))
                seen[d]["steps"] += 1
                seen[d]["unsorted"] += before != sorted(before)
            seat = rng.choice(kp.GAME.to_act(S))
            was = {d: list(pile(S)) if d != "solitaire" or S["solo"] else []
                   for d, (_, pile, _draw) in DECKS.items()}
            kp.GAME.apply(S, seat, rng.choice(kp.GAME.legal_actions(S, seat)), rng)
            for d, (_, pile, _draw) in DECKS.items():
                if d != "solitaire" or S["solo"]:
                    seen[d]["draws"] += len(set(was[d]) - set(pile(S)))
    return seen


@pytest.mark.parametrize("deck", list(DECKS))
def test_4_8_no_deck_holds_an_order_for_its_undrawn_cards(selfplay, deck: str) -> None:
    """At every step of self-play the pile is the sorted set of the cards left."""
    seen = selfplay[deck]
    assert seen["draws"] >= 30, seen  # the deck was really drawn from
    assert seen["unsorted"] == 0, seen


@pytest.mark.parametrize("deck", list(DECKS))
def test_4_8_the_state_does_not_fix_the_next_card(deck: str) -> None:
    """The same state, drawn from with different rngs, turns over different cards:
    whoever holds the state cannot know the next card."""
    S = _fresh(deck)
    cards = {c for (c,) in _draws(S, deck, [random.Random(i) for i in range(40)])}
    assert len(cards) > 10


# --- the odds are a shuffled deck's ---------------------------------------------------


@pytest.mark.parametrize("deck", list(DECKS))
def test_4_8_the_next_card_is_uniform_among_the_cards_left(deck: str) -> None:
    """100 draws per card left, each from the same state with its own seeded rng."""
    S = _fresh(deck)
    left = list(DECKS[deck][1](S))
    counts = Counter(c for (c,) in _draws(S, deck, [random.Random(i)
                                                    for i in range(100 * len(left))]))
    stat, critical = _uniform(counts, left)
    assert stat < critical, (deck, len(left), stat, critical)


@pytest.mark.parametrize("deck", ["german", "solitaire"])
def test_4_8_the_order_of_two_draws_is_uniform_like_a_shuffled_deck(deck: str) -> None:
    """Every ordered pair of the first two cards alike (20 draws per pair)."""
    S = _fresh(deck)
    left = list(DECKS[deck][1](S))
    pairs = [(a, b) for a in left for b in left if a != b]
    counts = Counter(_draws(S, deck, [random.Random(i) for i in range(20 * len(pairs))], 2))
    stat, critical = _uniform(counts, pairs)
    assert stat < critical, (deck, len(pairs), stat, critical)


def test_4_8_at_a_fair_table_the_next_merchant_is_uniform_too() -> None:
    """The same test with the rng a fair table gives the game: an event's stream,
    seeded from the seats' links (protocol/fairplay.py)."""
    S = _fresh("merchant")
    left = list(S["merchant_deck"])
    digest = fp.tagged_hash("test", "kaisers-pirates merchants")
    rngs = [fp.FairRandom(fp.event_seed("kp", i, digest, [(0, fp.sha256(b"%d" % i).hex()),
                                                          (1, fp.sha256(b"x%d" % i).hex())]))
            for i in range(1, 100 * len(left) + 1)]
    stat, critical = _uniform(Counter(c for (c,) in _draws(S, "merchant", rngs)), left)
    assert stat < critical, (stat, critical)


def test_the_check_catches_a_deck_shuffled_in_advance() -> None:
    """A deck shuffled once and popped (the old way) gives the same card whatever the
    draw's rng: the uniformity check above must fail on it."""
    S = _fresh("merchant")
    left = list(S["merchant_deck"])
    random.Random(3).shuffle(S["merchant_deck"])
    counts = Counter(_shallow(S, "merchant")["merchant_deck"].pop() for _ in range(100 * len(left)))
    stat, critical = _uniform(counts, left)
    assert stat > critical


# --- the Action deck: set-aside cards and the arranged top ---------------------------


def test_3_1_the_set_aside_cards_are_the_ones_never_drawn() -> None:
    """R 2.1: no card is set aside at set-up; every unseen card may still be drawn,
    and when the deck runs out the cards left are the set-aside ones."""
    S = kp.GAME.setup(2, {}, random.Random(2))
    assert S["set_aside_n"] == 60 and len(S["action_unseen"]) == 100 - 12
    first = Counter(c for (c,) in _draws(S, "action", [random.Random(i) for i in range(2000)]))
    assert set(first) == set(S["action_unseen"])  # any of the 88, set aside or not
    rng = random.Random(4)
    drawn = [piles.draw_action(S, rng) for _ in range(piles.action_left(S))]
    assert len(drawn) == 28 and piles.action_left(S) == 0
    assert len(S["action_unseen"]) == S["set_aside_n"] == 60
    assert not set(drawn) & set(S["action_unseen"])


def test_6_17_looking_at_the_top_turns_cards_over_and_a_second_look_keeps_them() -> None:
    """Intelligence (R 3.3.17): the top N are drawn only when looked at, then keep the
    order the player gave them; a later look draws only the cards it is missing."""
    S = kp.GAME.setup(3, {}, random.Random(5))
    unseen = len(S["action_unseen"])
    rng = random.Random(6)
    top = piles.look_at_top(S, rng, 3)
    assert S["action_deck_top"] == top and len(S["action_unseen"]) == unseen - 3
    S["action_deck_top"][:3] = sorted(top)  # the player arranges them
    assert piles.draw_action(S, rng) == sorted(top)[0]
    again = piles.look_at_top(S, rng, 3)
    assert again[:2] == sorted(top)[1:] and len(S["action_unseen"]) == unseen - 4
    assert piles.action_left(S) == len(S["action_unseen"]) + 3 - S["set_aside_n"]


def test_4_8_an_empty_ship_deck_takes_its_used_pile_back_without_an_order() -> None:
    S = kp.GAME.setup(2, {}, random.Random(7))
    S["merchant_used"] = [55, 23, 40]
    S["merchant_deck"] = []
    ev: list[dict[str, Any]] = []
    got = rules.draw_ship(S, random.Random(1), False, ev)
    assert ev == [{"type": "reshuffle", "deck": "mdeck", "n": 3}]
    assert got in (23, 40, 55) and S["merchant_deck"] == sorted({23, 40, 55} - {got})
    assert S["merchant_used"] == []
