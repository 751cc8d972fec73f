"""The departures from the Italian rulebook an audit found (issue 13), one test each.

Each test is named after the rulebook section it checks and failed on the engine
before the fix.
"""

from __future__ import annotations

import random

from lantable.plugins.kaisers_pirates import rounds, solo, turn
from lantable.plugins.kaisers_pirates.data import ACTIONS, SHIPS, SOLO

from . import helpers as kp
from .helpers import GAME, Dice, act, check_cards, commit, of, sid, table
from .test_cards import FORCES as CARD_FORCES
from .test_cards import R
from .test_variants import FORCES


def _card(S, seat: int, t: str) -> int:
    return next(c for c in S["players"][seat]["hand"] if ACTIONS[c]["type"] == t)


# ---------------------------------------------------------------------------
# 6.5.2 Beyond 1914: during a round the German deck reshuffles all but the ships
# removed this round; the deal reshuffles everything
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
            assert [len(p["german"]) for p in S["players"]] == [3] * seats, (seats, _round)
            check_cards(S)


def test_6_5_2_without_the_option_the_german_deck_reshuffles_as_usual() -> None:
    S = table(3, forces={0: {"ger": ["Leipzig"]}}, hands={0: ["breakout"]})
    S["german_used"] += S["german_deck"]
    S["german_deck"] = []
    rng = random.Random(0)
    from lantable.plugins.kaisers_pirates.rules import draw_ship
    assert draw_ship(S, rng, True, []) is not None  # 4.8: reshuffle the used pile


def _empty_german_deck(S, *, removed: tuple[str, ...] = ()) -> list[int]:
    """Put every German card left into the used pile, as if back from the end of an
    earlier round; then remove ``removed`` ships from play this round by Heavy Weather."""
    from lantable.plugins.kaisers_pirates.rules import place_ship, to_used
    back = [s for s in S["german_deck"] if s not in map(sid, removed)]
    S["german_used"] += back
    S["german_deck"] = [s for s in S["german_deck"] if s not in back]
    for name in removed:
        S["german_deck"].remove(sid(name))
        place_ship(S, 1, sid(name))
        to_used(S, sid(name), [], "heavy_weather")
    return back


def test_6_5_2_with_the_option_the_german_deck_reshuffles_mid_round_but_not_removed_ships() -> None:
    """6.5.2 (R 3.1.10, 2.4): the German deck is reshuffled during a round when it runs
    out; only ships removed from play this round by Heavy Weather, internment, recall
    or scuttling stay out until the next deal, and when they are all the used pile
    holds, Breakout finds nothing."""
    S = table(2, forces={0: {"ger": ["Koenigsberg"]}}, hands={0: ["breakout"]},
              options={"beyond_1914": "ships"})
    back = _empty_german_deck(S, removed=("Dresden",))
    # Breakout succeeds by twice the Response: two ships, both from the ones put back
    bo = _card(S, 0, "breakout")
    commit(S, bo, "act")
    act(S, {"type": "done"})
    act(S, {"type": "play", "card": bo}, Dice(*R([10, 8], 9), *R([8], 4)))
    got = [s for s in S["players"][0]["german"] if s != sid("Koenigsberg")]
    assert len(got) == 2 and set(got) <= set(back)
    assert sid("Dresden") in S["german_used"] and sid("Dresden") not in got
    check_cards(S)


def test_6_5_2_no_reshuffle_when_only_removed_ships_are_left() -> None:
    from lantable.plugins.kaisers_pirates.rules import draw_ship
    S = table(3, forces={0: {"ger": ["Koenigsberg"]}}, options={"beyond_1914": "ships"})
    S["german_used"] += S["german_deck"]
    S["german_deck"] = []
    S["german_out"] = list(S["german_used"])  # every one removed this round (6.5.2)
    assert draw_ship(S, random.Random(0), True, []) is None
    assert draw_ship(S, random.Random(0), True, [], deal=True) is not None  # the next deal


def test_6_5_2_option_b1914_reshuffle_all_takes_the_whole_used_pile() -> None:
    """The literal reading, as a table option: once any other ship is in the used
    pile, the whole pile is reshuffled, the removed ships with it."""
    from lantable.plugins.kaisers_pirates.rules import draw_ship
    S = table(2, forces={0: {"ger": ["Koenigsberg"]}},
              options={"beyond_1914": "ships", "b1914_reshuffle": "all"})
    _empty_german_deck(S, removed=("Dresden",))
    n = len(S["german_used"])
    assert draw_ship(S, random.Random(0), True, []) is not None
    assert len(S["german_deck"]) == n - 1 and not S["german_used"] and not S["german_out"]


# ---------------------------------------------------------------------------
# Solitaire 5.4.1: the Solitaire deck is reshuffled at the end of every phantom turn
# ---------------------------------------------------------------------------


def _phantom_turn(seed: int = 4):
    base = GAME.setup(1, {}, random.Random(seed))
    S = table(seats=2, forces={0: FORCES[0], 1: FORCES[1]}, turn_seat=1)
    S["mode"], S["seats"], S["solo"] = "solo", 1, base["solo"]
    turn.new_turn(S, 1)
    S["pending"] = None
    return S


def test_5_4_1_solitaire_deck_reshuffled_at_the_end_of_the_phantom_turn() -> None:
    for seed in range(12):
        S = _phantom_turn(seed)
        S["solo"]["deck"] = S["solo"]["deck"][:5]  # most cards drawn earlier
        ev: list = []
        turn.advance(S, random.Random(seed), ev)
        if S["turn_seat"] != 0 or S["pending"] is None or S["pending"]["seat"] != 0:
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
        if (
            S["this_turn"]["seat"] == 1 and S["this_turn"]["phantom_began"]
        ):  # a decision inside the phantom's turn
            seen += 1
            view = GAME.view(S, 0)
            world = GAME.sample_state(view, 0, random.Random(seen))
            assert world["this_turn"]["phantom_began"] == S["this_turn"]["phantom_began"]
            assert world["this_turn"]["phantom_ends"] == S["this_turn"]["phantom_ends"]
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


# ---------------------------------------------------------------------------
# The original's strict readings are the defaults; the digest's are options
# ---------------------------------------------------------------------------


def _trap_then_sink(options: dict) -> list[dict]:
    """Leipzig intercepts Mount Temple, the defender answers with Trap, the merchant sinks."""
    S = table(3, forces=CARD_FORCES, hands={0: ["fair_seas"], 1: ["trap", "recalled"]},
              options=options)
    fs = _card(S, 0, "fair_seas")
    commit(S, fs, "icpt", sid("Leipzig"))
    act(S, {"type": "done"})
    act(S, {"type": "play", "card": fs, "target": sid("Mount Temple")})
    trap = _card(S, 1, "trap")
    # the Trap misses Leipzig (1 vs 5); Leipzig sinks Mount Temple (10 vs 2)
    dice = Dice(*R(ACTIONS[trap]["att"], 1), *R(SHIPS[sid("Leipzig")]["def"], 5),
                *R(SHIPS[sid("Leipzig")]["att"], 10), *R([10], 2))
    ev = act(S, {"type": "react", "card": trap}, dice)
    assert of(ev, "to_vp_pile")[0]["ship"] == sid("Mount Temple")
    assert S["pending"]["kind"] == "post"
    return GAME.legal_actions(S, 1)


def test_3_2_2_one_reaction_per_attack_by_default() -> None:
    assert _trap_then_sink({}) == [{"type": "pass"}]
    loose = _trap_then_sink({"a39_strict": False})  # the digest's A-39
    assert any(a.get("card") is not None and ACTIONS[a["card"]]["type"] == "recalled"
               for a in loose)


def _british_with_both_assists(options: dict) -> list[dict]:
    night = next(c["id"] for c in ACTIONS if c["night"] and c["kind"] == "N")
    S = table(3, forces=FORCES, hands={0: [night, "searchlight", "surprise_attack"]},
              options=options)
    sl, sa = _card(S, 0, "searchlight"), _card(S, 0, "surprise_attack")
    commit(S, night, "brit")
    commit(S, sl, "act")
    commit(S, sa, "act")
    act(S, {"type": "done"})
    act(S, {"type": "play", "card": night, "target": sid("Emden")})
    assert {"type": "attach", "card": sl} in GAME.legal_actions(S, 0)
    act(S, {"type": "attach", "card": sa})
    return GAME.legal_actions(S, 0)


def test_3_2_3_one_surprise_attack_or_searchlight_on_a_british_interception() -> None:
    assert _british_with_both_assists({}) == [{"type": "done"}]
    both = _british_with_both_assists({"a4_two_assists": True})  # the digest's A-4
    assert len(both) == 2


def test_3_3_31_recon_cards_may_be_played_the_same_turn_by_default() -> None:
    S = table(3, forces=FORCES, hands={0: ["recon_aircraft"], 1: ["collier", "fair_seas"]})
    c = _card(S, 0, "recon_aircraft")
    commit(S, c, "act")
    act(S, {"type": "done"})
    act(S, {"type": "play", "card": c, "target_seat": 1})
    taken = S["this_turn"]["recon_cards"]
    assert len(taken) == 2
    assert {"type": "commit", "card": taken[0], "use": "brit"} in GAME.legal_actions(S, 0)
    S = table(3, forces=FORCES, hands={0: ["recon_aircraft"], 1: ["collier", "fair_seas"]},
              options={"a7_recon_immediate": False})  # the digest's A-7
    commit(S, c, "act")
    act(S, {"type": "done"})
    act(S, {"type": "play", "card": c, "target_seat": 1})
    assert not [a for a in GAME.legal_actions(S, 0) if a["type"] == "commit"]


# ---------------------------------------------------------------------------
# 3.3.45 Transfer Command and 3.3.32 Reflag
# ---------------------------------------------------------------------------


def test_3_3_45_transfer_command_takes_a_warship_in_an_island_refuge() -> None:
    S = table(3, forces=FORCES, hands={0: ["transfer_command"]})
    emden = sid("Emden")
    ir = kp.from_deck(S, next(c for c in S["action_unseen"]
                              if ACTIONS[c]["type"] == "island_refuge"))
    S["ships"][emden].update({"refuge": ir, "refuge_turn": 0, "damage": 1})
    tc = _card(S, 0, "transfer_command")
    commit(S, tc, "act")
    act(S, {"type": "done"})
    assert {"type": "play", "card": tc, "target": emden} in GAME.legal_actions(S, 0)
    ev = act(S, {"type": "play", "card": tc, "target": emden}, Dice((10, 9), (10, 1), (4, 1)))
    assert of(ev, "transferred")
    assert emden in S["players"][0]["german"]
    assert (
        S["ships"][emden]["refuge"] == ir and S["ships"][emden]["damage"] == 1
    )  # keeps its status
    check_cards(S)


def _aimed_at_revealed_raider(t: str) -> tuple[dict, int]:
    S = table(3, forces=FORCES, hands={0: [t], 1: ["reflag"]})
    wolf = sid("Wolf")
    S["ships"][wolf]["revealed"] = True
    c = _card(S, 0, t)
    commit(S, c, "act")
    act(S, {"type": "done"})
    act(S, {"type": "play", "card": c, "target": wolf})
    return S, wolf


def test_3_3_32_reflag_answers_interned_and_transfer_command() -> None:
    for t in ("interned", "transfer_command"):
        S, wolf = _aimed_at_revealed_raider(t)
        assert S["pending"] == {"kind": "react", "seat": 1}
        rf = _card(S, 1, "reflag")
        ev = act(S, {"type": "react", "card": rf})
        assert of(ev, "hidden") and of(ev, "action_cancelled")
        assert not [e for e in of(ev, "roll") if e["what"] == t]
        assert wolf in S["players"][1]["german"] and not S["ships"][wolf]["revealed"]
        check_cards(S)


def test_3_3_32_without_reflag_the_action_goes_ahead() -> None:
    S, wolf = _aimed_at_revealed_raider("interned")
    ev = act(S, {"type": "pass"}, Dice((10, 9), (8, 1), (10, 1)))
    assert [e for e in of(ev, "roll") if e["what"] == "interned"]
    assert wolf in S["german_used"]


# ---------------------------------------------------------------------------
# 3.2.6 Passage is the owner's choice ("può")
# ---------------------------------------------------------------------------


def test_3_2_6_passage_is_the_owners_choice() -> None:
    S = table(3, forces=FORCES, hands={1: ["fair_seas"]}, turn_seat=1)
    fs = _card(S, 1, "fair_seas")
    commit(S, fs, "icpt", sid("Prinz Eitel Friedrich"))
    act(S, {"type": "done"})
    matheran = sid("Matheran")
    ev = act(S, {"type": "play", "card": fs, "target": matheran}, Dice((10, 5), (8, 2), (8, 6)))
    assert of(ev, "result")[0]["result"] == "none"
    assert not [e for e in of(ev, "roll") if e["what"] == "passage"]
    assert S["pending"] == {"kind": "passage", "seat": 0, "ships": [matheran]}
    assert GAME.legal_actions(S, 0) == [{"type": "pass"}, {"type": "passage", "ship": matheran}]
    assert "stays at sea" in GAME.describe(S, 0, {"type": "pass"})
    ev = act(S, {"type": "pass"})
    assert of(ev, "passage_declined") and not of(ev, "roll")
    assert matheran in S["players"][0]["merchants"]  # still at sea, still a target for later turns
    assert S["pending"]["kind"] == "resolve"


def test_3_2_6_a_surviving_prize_may_choose_passage() -> None:
    day = next(c["id"] for c in ACTIONS if c["kind"] == "N" and not c["night"]
               and c["type"] == "fair_seas")
    S = table(3, forces=FORCES, hands={0: [day]})
    inv = sid("Invercoe")
    S["players"][1]["merchants"].remove(inv)
    S["players"][1]["german"].append(inv)
    S["ships"][inv].update({"prize": True, "revealed": True})
    commit(S, day, "brit")
    act(S, {"type": "done"})
    faces = [(d, 1) for d in ACTIONS[day]["icpt"]]
    act(S, {"type": "play", "card": day, "target": inv}, Dice(*faces, (4, 4)))
    assert S["pending"] == {"kind": "passage", "seat": 1, "ships": [inv]}
    act(S, {"type": "pass"})
    assert inv in S["players"][1]["german"]  # kept afloat: it scores double at the round's end


# ---------------------------------------------------------------------------
# 3.1.5 each defender discards his reactions in the order he chooses
# ---------------------------------------------------------------------------


def test_3_1_5_each_defender_orders_his_reaction_discards() -> None:
    S = table(3, forces=FORCES, hands={0: ["fair_seas", "breakout"],
                                       1: ["slim_pickings", "slim_pickings"]})
    fs, bo = _card(S, 0, "fair_seas"), _card(S, 0, "breakout")
    commit(S, fs, "icpt", sid("Leipzig"))
    commit(S, bo, "icpt", sid("Leopard"))
    act(S, {"type": "done"})
    sp1, sp2 = sorted(S["players"][1]["hand"])
    act(S, {"type": "play", "card": fs, "target": sid("Bowes Castle")})
    act(S, {"type": "react", "card": sp1})  # one merchant only: the interception ends
    act(S, {"type": "play", "card": bo, "target": sid("Invercoe")})
    act(S, {"type": "react", "card": sp2})
    act(S, {"type": "end_turn"})
    act(S, {"type": "discard", "top": [fs, bo]})  # the phasing player first
    assert S["pending"] == {"kind": "discard", "seat": 1}  # then the defender
    assert GAME.legal_actions(S, 1) == [{"type": "discard", "top": [sp1, sp2]},
                                        {"type": "discard", "top": [sp2, sp1]}]
    act(S, {"type": "discard", "top": [sp2, sp1]})
    assert S["discards"][-4:] == [fs, bo, sp2, sp1]  # sp1 on top
    assert S["turn_seat"] == 1
    check_cards(S)


# ---------------------------------------------------------------------------
# 3.3.30 Recalled and 3.3.23 Mistaken Identity "at any time after" the sinking
# ---------------------------------------------------------------------------


def _sink_then_play_another(hand1: list[str]) -> dict:
    """Leipzig sinks Mount Temple; the defender lets the moment pass; another card follows."""
    S = table(3, forces=CARD_FORCES, hands={0: ["fair_seas", "breakout"], 1: hand1})
    fs, bo = _card(S, 0, "fair_seas"), _card(S, 0, "breakout")
    commit(S, fs, "icpt", sid("Leipzig"))
    commit(S, bo, "act")
    act(S, {"type": "done"})
    act(S, {"type": "play", "card": fs, "target": sid("Mount Temple")})
    while S["pending"]["kind"] in ("attach", "board"):  # the upright Breakout is no Assist
        act(S, {"type": "done"})
    act(S, {"type": "pass"}, Dice(*R(SHIPS[sid("Leipzig")]["att"], 10), *R([10], 2)))
    assert S["pending"] == {"kind": "post", "seat": 1}
    act(S, {"type": "pass"})  # not right after the sinking
    assert S["pending"] == {"kind": "resolve", "seat": 0}  # no second question at once
    act(S, {"type": "play", "card": bo}, Dice((10, 1), (8, 8)))  # Breakout fails
    assert S["pending"] == {"kind": "late", "seat": 1}  # after the next card: again
    return S


def test_3_3_30_recalled_at_any_time_after_the_sinking() -> None:
    S = _sink_then_play_another(["recalled", "damage_control"])
    rc = _card(S, 1, "recalled")
    leipzig = sid("Leipzig")
    assert {"type": "react", "card": rc, "ship": leipzig} in GAME.legal_actions(S, 1)
    ev = act(S, {"type": "react", "card": rc, "ship": leipzig}, Dice((10, 9), (6, 1), (10, 2)))
    assert of(ev, "ship_removed")[0] == {"type": "ship_removed", "ship": leipzig,
                                         "why": "recalled"}
    assert S["players"][0]["vp_pile"][0]["ship"] == sid("Mount Temple")  # the sinking stands
    assert S["pending"] == {"kind": "resolve", "seat": 0}
    act(S, {"type": "end_turn"})
    check_cards(S)


def test_3_3_23_mistaken_identity_at_any_time_after_the_sinking() -> None:
    S = _sink_then_play_another(["mistaken_identity", "damage_control"])
    lovat = sid("Lovat")  # a merchant seat 1 sank in an earlier turn
    S["players"][0]["merchants"].remove(lovat)
    S["ships"][lovat] = None
    S["players"][1]["vp_pile"].append({"ship": lovat, "mult": 1, "how": "sunk_m"})
    mi = _card(S, 1, "mistaken_identity")
    took = sid("Mount Temple")
    action = {"type": "react", "card": mi, "swap": lovat, "took": took}
    assert action in GAME.legal_actions(S, 1)
    assert "for Mount Temple" in GAME.describe(S, 1, action)
    act(S, action, Dice((10, 9), (6, 1), (10, 1)))
    assert S["players"][0]["vp_pile"] == [{"ship": lovat, "mult": 1, "how": "sunk_m"}]
    assert {"ship": took, "mult": 1, "how": "sunk_m"} in S["players"][1]["vp_pile"]


def test_3_2_2_a_sinking_already_answered_stays_closed() -> None:
    S = _sink_then_play_another(["recalled", "mistaken_identity"])
    lovat = sid("Lovat")
    S["players"][0]["merchants"].remove(lovat)
    S["ships"][lovat] = None
    S["players"][1]["vp_pile"].append({"ship": lovat, "mult": 1, "how": "sunk_m"})
    rc, mi = _card(S, 1, "recalled"), _card(S, 1, "mistaken_identity")
    act(S, {"type": "react", "card": rc, "ship": sid("Leipzig")}, Dice((10, 1), (6, 1), (10, 9)))
    assert sid("Leipzig") in S["players"][0]["german"]  # the recall failed
    assert S["pending"] == {"kind": "resolve", "seat": 0}  # and the sinking is answered: no more
    assert mi in S["players"][1]["hand"]
