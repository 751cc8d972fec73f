"""Kaiser's Pirates with a hidden Action deck (option ``hidden_deck``), in process where
the host is the dealer (plugins/kaisers_pirates/hidden.py): whole games end; at every
decision the client half lists, from the seat's view and its own cards, exactly what a
host that knew every card would list; claims and seals are checked; the state holds
masked tokens, never a card nobody turned over; the sampler and the words work on it.
Over TCP: tests/fairplay/test_kp_hidden_table.py."""

from __future__ import annotations

import copy
import random

import pytest

from lantable.clients.bots import make_bot
from lantable.plugins import IllegalAction, load_registry
from lantable.plugins.kaisers_pirates import hidden as Hd
from lantable.plugins.kaisers_pirates import turn
from lantable.plugins.kaisers_pirates.masked import is_masked, split, token

G = load_registry(autoload=True)["kaisers-pirates"]


def _options(seats: int, seed: int) -> dict:
    return {"hidden_deck": True, "team_game": seats == 4 and seed % 2 == 1}


def _knowing(S: dict) -> tuple[dict, dict[int, int]]:
    """The plain state a host that knew every card would hold, and token -> card."""
    order = S["_dealer"]["decks"][Hd.DECK]["order"]
    ids, rnd = S["action_cards"], S["hidden"]["round"]
    cards = {token(rnd, p): ids[k] for p, k in enumerate(order)}
    P = copy.deepcopy(S)
    Hd.reveal(P, cards)
    del P["hidden"], P["_dealer"]
    return P, cards


def _plain(action: dict, cards: dict[int, int]) -> dict:
    out = {k: v for k, v in action.items() if k not in ("claims", "sealed")}
    if "card" in out:
        out["card"] = cards.get(out["card"], out["card"])
    if "cards" in out:
        out["cards"] = [cards.get(c, c) for c in out["cards"]]
    return out


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_client_half_lists_what_a_knowing_host_would_at_every_decision(seats) -> None:
    decisions = 0
    rng = random.Random(seats)
    S = G.setup(seats, _options(seats, 1), rng)
    while not G.is_over(S) and decisions < 300:
        for seat in G.to_act(S):
            P, cards = _knowing(S)
            mine = [_plain(a, cards) for a in G.legal_actions(S, seat)]
            assert mine == turn.legal_actions(P, seat), S["pending"]
            decisions += 1
        seat = rng.choice(G.to_act(S))
        G.apply(S, seat, rng.choice(G.legal_actions(S, seat)), rng)
    assert decisions >= 300


def test_the_state_holds_tokens_for_every_card_not_turned_over() -> None:
    rng = random.Random(5)
    S = G.setup(3, {"hidden_deck": True}, rng)
    seen_shapes = set()
    steps = 0
    while not G.is_over(S) and steps < 400:
        opened = {S["action_cards"][k] for k in S["hidden"]["opened"].values()}
        public = opened | set(S["discards"])
        for p in S["players"]:
            for c in p["hand"]:
                assert is_masked(c) or c in public or c in S["discards"] or c in opened
        T = S["this_turn"]
        if T is not None:
            for e in T["committed"]:
                seen_shapes.add("masked" if is_masked(e["card"]) else "open")
                if not is_masked(e["card"]):
                    assert e["card"] in opened
        for s in range(3):
            view = G.view(S, s)
            assert "_dealer" not in view
            mine = {int(p) for p in view["hidden"]["cards"]}
            held = {split(c)[1] for c in S["players"][s]["hand"] if is_masked(c)}
            assert held <= mine  # a seat's view has its cards, and no other hand
        seat = rng.choice(G.to_act(S))
        G.apply(S, seat, rng.choice(G.legal_actions(S, seat)), rng)
        steps += 1
    assert seen_shapes == {"masked", "open"}


def _at_commit(seed: int = 2) -> tuple[dict, int, random.Random]:
    rng = random.Random(seed)
    S = G.setup(2, {"hidden_deck": True}, rng)
    while S["pending"]["kind"] != "commit":
        seat = G.to_act(S)[0]
        G.apply(S, seat, G.legal_actions(S, seat)[0], rng)
    return S, S["pending"]["seat"], rng


def test_claims_and_seals_are_checked_where_the_host_deals() -> None:
    S, seat, rng = _at_commit()
    legal = G.legal_actions(S, seat)
    commit = next(a for a in legal if a["type"] == "commit")
    assert is_masked(commit["card"]) and "card" not in str(commit.get("claims"))
    seal = commit["sealed"][0]
    before = copy.deepcopy(S)
    lie = dict(commit, sealed=[dict(seal, card=(seal["card"] + 1) % 100)])
    with pytest.raises(IllegalAction, match="sealed claim"):
        G.apply(S, seat, lie, rng)
    with pytest.raises(IllegalAction, match="seals its claim"):
        G.apply(S, seat, {k: v for k, v in commit.items() if k != "sealed"}, rng)
    other = next(c for c in S["players"][1 - seat]["hand"] if is_masked(c))
    with pytest.raises(IllegalAction):
        G.apply(S, seat, dict(commit, card=other, sealed=[dict(seal, pos=split(other)[1])]),
                rng)
    assert S == before
    G.apply(S, seat, commit, rng)
    assert S["this_turn"]["committed"][-1]["card"] == commit["card"]  # still face down


def test_a_false_claim_is_refused_where_the_host_deals() -> None:
    rng = random.Random(7)
    S = G.setup(2, {"hidden_deck": True}, rng)
    for _ in range(3000):
        seat = G.to_act(S)[0]
        legal = G.legal_actions(S, seat)
        claimed = [a for a in legal if a.get("claims")]
        if claimed:
            a = claimed[0]
            claim = a["claims"][0]
            with pytest.raises(IllegalAction, match="is not card"):
                G.apply(S, seat, dict(a, claims=[dict(claim, card=(claim["card"] + 1) % 100)]),
                        rng)
            return
        G.apply(S, seat, rng.choice(legal), rng)
    raise AssertionError("no claim in 3000 actions")


def test_samples_keep_what_the_seat_knows_and_bots_play_them() -> None:
    S, seat, rng = _at_commit(4)
    view = G.view(S, seat)
    sample = G.sample_state(view, seat, random.Random(1))
    assert G.view(sample, seat) == view
    assert G.legal_actions(sample, seat) == G.legal_actions(S, seat)
    legal = G.legal_actions(S, seat)
    assert make_bot("mcts", G, iterations=4).choose(view, seat, legal, random.Random(3)) in legal
    action = make_bot("greedy", G, samples=2).choose(view, seat, legal, random.Random(2))
    G.apply(S, seat, action, rng)


def test_the_words_and_the_board_read_the_seats_own_cards() -> None:
    rng = random.Random(9)
    S = G.setup(2, {"hidden_deck": True}, rng)
    for _ in range(150):
        for s in (0, 1):
            view = G.view(S, s)
            text = str(G.render_text(view, s, ["ann", "bob"]))
            assert "a face-down card" not in text
            for a in G.legal_actions(S, s) if s in G.to_act(S) else []:
                label = G.describe(view, s, a, ["ann", "bob"])
                assert "a card" not in label and "10010" not in label, label
        seat = rng.choice(G.to_act(S))
        for e in G.apply(S, seat, rng.choice(G.legal_actions(S, seat)), rng):
            for s in (0, 1, None):
                G.describe_event(G.view(S, s), s, e, ["ann", "bob"])


def test_a_face_down_commitment_its_card_does_not_allow_cannot_be_played() -> None:
    """What the host cannot check at the commit (the card is sealed) is checked when
    the card is known: mines laid with a card that is no Lay Mines are refused."""
    from lantable.plugins.kaisers_pirates.data import ACTIONS

    for seed in range(60):
        S, seat, rng = _at_commit(seed)
        order = S["_dealer"]["decks"][Hd.DECK]["order"]
        ids = S["action_cards"]
        mines = [a for a in G.legal_actions(S, seat) if a.get("use") == "mines"]
        hand = [c for c in S["players"][seat]["hand"] if is_masked(c)
                and ACTIONS[ids[order[split(c)[1]]]]["type"] != "lay_mines"]
        if mines and hand:
            break
    else:
        raise AssertionError("no mine raider with a card that is not Lay Mines")
    tok, ship = hand[0], mines[0]["ship"]
    pos, k = split(tok)[1], order[split(tok)[1]]
    G.apply(S, seat, {"type": "commit", "card": tok, "use": "mines", "ship": ship,
                      "sealed": [{"deck": Hd.DECK, "pos": pos, "card": k}]}, rng)
    G.apply(S, seat, {"type": "done"}, rng)
    assert S["pending"] == {"kind": "resolve", "seat": seat}
    other = 1 - seat
    forged = {"type": "play", "card": ids[k], "target_seat": other,
              "claims": [{"deck": Hd.DECK, "pos": pos, "card": k}]}
    with pytest.raises(IllegalAction, match="does not allow"):
        G.apply(S, seat, forged, rng)
