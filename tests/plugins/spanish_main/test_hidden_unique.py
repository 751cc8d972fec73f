"""Unique treasure with a hidden deck, in process (the host as the dealer): the first
explorer of an island is dealt its tokens and claims them, unique ones face up and the
others face down (sealed); each seat's own list of actions equals what a host knowing
every token lists, at every decision of seeded games; forged claims are refused with
the state unchanged; a unique token hidden behind a true seal is named when opened
(docs/rules/pirates-spanish-main.md, "With a hidden deck")."""

from __future__ import annotations

import copy
import functools
import random

import pytest

from lantable.clients.bots import make_bot
from lantable.plugins import IllegalAction, load_registry, params
from lantable.plugins.decks import DEALER_KEY
from lantable.plugins.spanish_main import hidden as SH
from lantable.plugins.spanish_main import turn

GAME = load_registry(autoload=True)["pirates-spanish-main"]
OPTIONS = {"hidden_deck": True, "unique_treasure": True, "max_rounds": 10}


def _full(S: dict) -> dict:
    """The state a host knowing every token would hold."""
    F = copy.deepcopy(S)
    values = SH.tokens(S)
    order = S[DEALER_KEY]["decks"][SH.DECK]["order"]
    for k, t in enumerate(F["treasure"]):
        if t["gold"] is None:
            t["gold"], t["unique"] = values[order[k]]
    return F


def _plain(actions: list) -> list:
    return [{k: v for k, v in a.items() if k not in ("claims", "sealed")} for a in actions]


def _at_table(S: dict, seat: int) -> tuple[dict, dict]:
    """The seat's view and cards as at a hidden-deck table: the host knows no value."""
    view = GAME.view(S, seat)
    cards = {SH.DECK: {int(p): c for p, c in view.pop("treasure_cards").items()}}
    return view, cards


def _play(seed: int, until=None, check: bool = False):
    rng, brng = random.Random(seed), random.Random(seed + 100)
    S = GAME.setup(2, OPTIONS, rng)
    bots = [make_bot("greedy", GAME), make_bot("random", GAME)]
    for n in range(3000):
        to_act = GAME.to_act(S)
        if not to_act:
            return S, n
        seat = to_act[0]
        legal = GAME.legal_actions(S, seat)
        if until is not None and until(S, seat, legal):
            return S, n
        assert not check or _check(S, seat, legal), n
        if any(params.is_template(a) for a in legal):
            legal = GAME.concrete_actions(S, seat)
        GAME.apply(S, seat, bots[seat].choose(GAME.view(S, seat), seat, legal, brng), rng)
    raise AssertionError("no end")


def _check(S: dict, seat: int, legal: list) -> bool:
    view, cards = _at_table(S, seat)
    mine = SH.seat_actions(view, seat, cards)
    assert mine == legal
    assert _plain(mine) == turn.legal(_full(S), seat)  # a host knowing every token
    order, values = S[DEALER_KEY]["decks"][SH.DECK]["order"], SH.tokens(S)
    for a in mine:  # each claim is true: unique face up, the rest face down
        for c in a.get("claims", []):
            assert c["card"] == order[c["pos"]] and values[c["card"]][1]
        for c in a.get("sealed", []):
            assert c["card"] == order[c["pos"]] and not values[c["card"]][1]
    return True


def test_each_seats_list_is_the_all_knowing_hosts_at_every_decision():
    S, n = _play(0, check=True)
    assert S["phase"] == "over" and n > 50
    claimed = [t for t in S["treasure"] if t["unique"]]
    assert claimed and all(t["face_up"] and t["gold"] is not None for t in claimed)
    assert S.get("revealed") and S["hidden"]["sealed"]  # the sealed ones opened at the end
    assert all(S["treasure"][int(k)]["gold"] is not None for k in S["hidden"]["sealed"])


def _first_claim(S, seat, legal):
    return any(a.get("claims") for a in legal)


def _before_claim():
    return copy.deepcopy(_found_claim())


@functools.cache
def _found_claim():
    """A seeded game played up to a take that claims a unique token (once per run)."""
    for seed in range(10):
        S, _ = _play(seed, until=_first_claim)
        if S["phase"] != "over":
            return S
    raise AssertionError("no unique treasure found")


def test_forged_claims_are_refused_with_the_state_unchanged():
    S = _before_claim()
    seat = GAME.to_act(S)[0]
    take = next(a for a in GAME.legal_actions(S, seat) if a.get("claims"))
    (u,) = take["claims"]
    sealed = take.get("sealed", [])
    values = SH.tokens(S)
    plain_card = next(c for c, v in enumerate(values) if not v[1])
    forged = [
        {k: v for k, v in take.items() if k != "claims"},  # the unique one unclaimed
        dict(take, claims=[], sealed=[*sealed, {"deck": SH.DECK, "pos": u["pos"],
                                                "card": u["card"]}]),  # sealed "not unique"
        dict(take, claims=[dict(u, card=plain_card)]),  # a claim of another card
        dict(take, claims=[*take["claims"], *sealed][:2], sealed=sealed[1:]) if sealed
        else dict(take, sealed=[]),  # a plain token claimed unique
        dict(take, treasure=[t for t in take["treasure"] if t != f"t{u['pos']}"]),  # left
    ]
    before = copy.deepcopy(S)
    for action in forged:
        with pytest.raises(IllegalAction):
            GAME.apply(S, seat, action, random.Random(0))
        assert S == before, action
    GAME.apply(S, seat, take, random.Random(0))
    assert S["treasure"][u["pos"]]["unique"] and S["treasure"][u["pos"]]["face_up"]


def test_a_unique_token_sealed_as_not_unique_is_named_when_opened():
    """At a hidden-deck table the host cannot read a seal: a seat that seals a unique
    token's true card and leaves it on the island is caught when it is opened (at the
    end of the game at the latest) and forfeits."""
    S = _before_claim()
    seat = GAME.to_act(S)[0]
    take = next(a for a in GAME.legal_actions(S, seat) if a.get("claims"))
    (u,) = take["claims"]
    lie = dict(take, claims=[], sealed=[*take.get("sealed", []), u],
               treasure=[t for t in take["treasure"] if t != f"t{u['pos']}"])
    S["hidden"]["known"][seat].clear()  # as at a hidden-deck table: no value known
    GAME.apply(S, seat, lie, random.Random(0))
    assert not S["treasure"][u["pos"]]["unique"] and S["phase"] == "play"
    events = []
    rng = random.Random(5)
    for _ in range(3000):
        to_act = GAME.to_act(S)
        if not to_act:
            break
        s = to_act[0]
        legal = GAME.legal_actions(S, s)
        if any(params.is_template(a) for a in legal):
            legal = GAME.concrete_actions(S, s)
        events += GAME.apply(S, s, rng.choice(legal), rng)
    assert {"type": "false_claim", "seat": seat, "treasure": f"t{u['pos']}"} in events
    assert S["end"] == "false_claim" and S["winner"] == [1 - seat]


def _carried(F: dict) -> bool:
    """7.4's "gold left to carry" of a host knowing every token (no forts here)."""
    return any(t["gold"] > 0 for t in F["treasure"] if t["where"] not in ("home", "gone"))


def test_no_gold_left_is_exact_with_unique_tokens_unexplored():
    """7.4 with a hidden deck and unique treasure: every unexplored token may be one of
    the unclaimed uniques (worth 0), an explored face-down one is worth at least 1."""
    S, _ = _play(0, until=lambda S, seat, legal: S["phase"] == "play")
    values = SH.tokens(S)
    order = S[DEALER_KEY]["decks"][SH.DECK]["order"]
    uniques = [k for k in range(len(order)) if values[order[k]][1]]
    plain = [k for k in range(len(order)) if not values[order[k]][1]]
    assert len(uniques) == 2 and turn.hidden_gold_left(S) and _carried(_full(S))
    for k in plain[1:]:  # all plain tokens but one gone home, opened
        S["treasure"][k].update(where="home", home_of=0, face_up=True, gold=values[order[k]][0])
    assert turn.hidden_gold_left(S) and _carried(_full(S))  # 3 unexplored, 2 uniques
    last = S["treasure"][plain[0]]
    last["seen"][0] = True  # explored, left face down: not unique, so gold
    assert turn.hidden_gold_left(S) and _carried(_full(S))
    last.update(where="home", home_of=0, face_up=True, gold=values[order[plain[0]]][0])
    assert not turn.hidden_gold_left(S) and not _carried(_full(S))  # only the uniques left
    S["treasure"][uniques[0]].update(unique=values[order[uniques[0]]][1], face_up=True,
                                     gold=0, seen=[True, False])  # claimed, aboard or not
    assert not turn.hidden_gold_left(S) and not _carried(_full(S))


def test_a_threshold_win_found_when_a_token_opens_turns_the_sealed_ones_over_first():
    """7.2 checked when an unloaded token is opened: the winner is named only once the
    tokens sealed "not unique" are turned over too (asked for from that opening)."""
    from lantable.plugins.decks import LocalDealer

    S = _before_claim()
    seat = GAME.to_act(S)[0]
    GAME.apply(S, seat, next(a for a in GAME.legal_actions(S, seat) if a.get("claims")),
               random.Random(0))
    sealed = [int(k) for k in S["hidden"]["sealed"]]
    assert sealed and all(S["treasure"][k]["gold"] is None for k in sealed)
    k = next(k for k, t in enumerate(S["treasure"]) if t["gold"] is None and k not in sealed)
    isl = next(i for i in S["islands"] if k in i["treasure"])
    isl["treasure"].remove(k)  # as if carried home and unloaded
    S["treasure"][k].update(where="home", home_of=seat, face_up=True)
    S["hidden"]["opening"].append(k)
    S["home_gold"][seat] = S["gold_dealt"] // 2  # one more gold wins
    dealer = LocalDealer.of_state(S, GAME.cards_opened)
    events = dealer.run(S, [{"op": "open", "deck": SH.DECK, "positions": [k]}],
                        random.Random(0))
    assert S["phase"] == "over" and S["end"] == "threshold" and S["winner"] == [seat]
    assert all(S["treasure"][t]["gold"] is not None for t in sealed)
    assert [e["type"] for e in events if e["type"] in ("unloaded", "game_over")] == \
        ["unloaded", "game_over"]
