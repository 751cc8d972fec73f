"""The departures from the Italian rulebook an audit found (issue 13), one test each.

Each test is named after the rulebook section it checks and failed on the engine
before the fix.
"""

from __future__ import annotations

import random

from lantable.plugins.kaisers_pirates import rounds, solo, turn
from lantable.plugins.kaisers_pirates.data import ACTIONS, SOLO

from .conftest import GAME, act, cards_of, check_cards, commit, of, sid, table
from .test_variants import FORCES


def _card(S, seat: int, t: str) -> int:
    return next(c for c in S["p"][seat]["hand"] if ACTIONS[c]["type"] == t)


# ---------------------------------------------------------------------------
# 6.5.2 Beyond 1914: no German reshuffle *during* a round, but the deal reshuffles
# ---------------------------------------------------------------------------


def _next_round(S, rng: random.Random) -> None:
    ev: list = []
    rounds.cleanup_round(S, {}, ev)
    rounds.start_round(S, rng, ev)


def test_6_5_2_beyond_1914_deals_full_forces_in_later_rounds() -> None:
    for seats in (2, 3, 4):
        rng = random.Random(seats)
        S = GAME.setup(seats, {"beyond_1914": "ships"}, rng)
        for _round in (2, 3):
            _next_round(S, rng)
            assert [len(p["ger"]) for p in S["p"]] == [3] * seats, (seats, _round)
            check_cards(S)


def test_6_5_2_without_the_option_the_german_deck_reshuffles_as_usual() -> None:
    S = table(3, forces={0: {"ger": ["Leipzig"]}}, hands={0: ["breakout"]})
    S["wused"] += S["wdeck"]
    S["wdeck"] = []
    rng = random.Random(0)
    from lantable.plugins.kaisers_pirates.rules import draw_ship
    assert draw_ship(S, rng, True, []) is not None  # 4.8: reshuffle the used pile


def test_6_5_2_with_the_option_no_reshuffle_during_a_round() -> None:
    S = table(3, forces={0: {"ger": ["Leipzig"]}}, options={"beyond_1914": "ships"})
    S["wused"] += S["wdeck"]
    S["wdeck"] = []
    from lantable.plugins.kaisers_pirates.rules import draw_ship
    assert draw_ship(S, random.Random(0), True, []) is None


# ---------------------------------------------------------------------------
# Solitaire 5.4.1: the Solitaire deck is reshuffled at the end of every phantom turn
# ---------------------------------------------------------------------------


def _phantom_turn(seed: int = 4):
    base = GAME.setup(1, {}, random.Random(seed))
    S = table(seats=2, forces={0: FORCES[0], 1: FORCES[1]}, turn_seat=1)
    S["mode"], S["seats"], S["solo"] = "solo", 1, base["solo"]
    turn.new_turn(S, 1)
    S["pend"] = None
    return S


def test_5_4_1_solitaire_deck_reshuffled_at_the_end_of_the_phantom_turn() -> None:
    for seed in range(12):
        S = _phantom_turn(seed)
        S["solo"]["deck"] = S["solo"]["deck"][:5]  # most cards drawn earlier
        ev: list = []
        turn.advance(S, random.Random(seed), ev)
        if S["turn"] != 0 or S["pend"] is None or S["pend"]["s"] != 0:
            continue  # the phantom's turn is not over yet (a reaction of the player)
        assert sorted(S["solo"]["deck"]) == list(range(20))
        assert of(ev, "solitaire_shuffle")
        view = GAME.view(S, 0)
        assert view["solo"]["deck"] == list(range(20))


def test_5_4_1_sampled_state_keeps_the_phantom_turn_and_the_cards_left() -> None:
    rng = random.Random(5)
    S = GAME.setup(1, {}, rng)
    seen = 0
    for _ in range(4000):
        if GAME.is_over(S) or seen >= 20:
            break
        seat = GAME.to_act(S)[0]
        if S["T"]["p"] == 1 and S["T"]["pl"]:  # a decision inside the phantom's turn
            seen += 1
            view = GAME.view(S, 0)
            world = GAME.sample_state(view, 0, random.Random(seen))
            assert world["T"]["pl"] == S["T"]["pl"]
            assert world["T"]["pend_end"] == S["T"]["pend_end"]
            assert sorted(world["solo"]["deck"]) == sorted(S["solo"]["deck"])
        GAME.apply(S, seat, rng.choice(GAME.legal_actions(S, seat)), rng)
    assert seen


# ---------------------------------------------------------------------------
# Designed data: the phantom's Heavy Weather uses the card's own odds
# ---------------------------------------------------------------------------


def test_3_3_16_phantom_heavy_weather_founders_as_often_as_the_card() -> None:
    card = next(c for c in ACTIONS if c["type"] == "heavy_weather")
    for sc in SOLO:
        cd = solo.pseudo(sc, "heavy_weather")
        assert (cd["ch"], cd["re"]) == (card["ch"], card["re"])
    sunk = tries = 0
    for seed in range(300):
        S = _phantom_turn(seed)
        hw = next(i for i in range(20) if SOLO[i]["cols"][2][0] == "heavy_weather")
        ev: list = []
        solo._perform(S, random.Random(seed), SOLO[hw], "heavy_weather", ev)
        tries += len([e for e in of(ev, "roll") if e["what"] == "heavy_weather"])
        sunk += len(of(ev, "ship_removed"))
    assert 0.10 < sunk / tries < 0.20  # the card: Challenge 4 vs Response 10, 15 %
