"""Nero with a hidden deck: the host runs the game without knowing any hand.

With the option ``hidden_deck`` the game holds positions in a deck instead of cards,
through the game API for hidden decks (docs/plugins.md, "Hidden decks"). At a fair
table with hidden decks (docs/fair-play.md) the seats shuffle and mask the 55 cards
together at each Game Turn; the host holds no key and learns a card only when it is
opened to everyone. This module is the game's side of it; the plain game
(:mod:`.engine`) is unchanged, and this module wraps it.

**The state.** A card the host cannot know is a *masked token* in the state
(:data:`.hands.MASKED` + its position in the Game Turn's deck): each hand is a list of
tokens, the face-down box too. ``S["hidden"]`` (:class:`.state.Hidden`) holds the
claims waiting for their card to
be opened, the seed for after a battle, and ``known``: each seat's cards, filled only
where the host is the dealer (a table without hidden decks, in-process bots), so that
:func:`legal_actions` can list them there.

**The deck.** One deck, ``events`` (:data:`DECK`, the 55 cards), shuffled afresh at
each Game Turn (``decks.shuffle``): positions ``s*k .. s*k+k-1`` are dealt to seat s
(``decks.deal``), the rest is the face-down box. Deep in the rules (:mod:`.engine`,
:mod:`.events`) a deal or a hand-over is written as a marker event (``deck_new``,
``deck_deal``, ``deck_give``); this module turns the markers into requests to the
``decks`` argument (docs/plugins.md, "Hidden decks") and drops them from the events.

**Actions name positions.** A seat lists its own legal actions (:func:`seat_actions`,
from its view and the cards it knows) and sends them in the forms below; the host
checks what it can and applies:

- a card played face up (a march, an Event, an answer, a declaration) names the cards
  as in the plain game and adds ``"claims": [{"deck": "events", "pos": j, "card": c}]``
  for each of them. The game applies the claim at once and asks for the cards to be
  opened (``decks.open``); the host checks each claim then, and a false one is a
  fault that names the seat (the table ends, the seat forfeits);
- a battle commitment names only positions: ``{"type": "commit", "pos": [j, ...]}``.
  Nobody, the host included, learns the cards until both sides are in; then they are
  opened, and the battle is fought in :func:`cards_opened` (no claim to check). What
  follows the battle (the end of a round, of a Game Turn) draws from a seed drawn
  with the second commitment, since the opening hook has no ``rng``;
- a discard names only its position: ``{"type": "discard", "pos": j}``. The card
  stays masked (the seats' secrets show it to ``lantable verify`` after the game);
- Traitor moves a card without showing it: its position (drawn by ``rng``, so by
  every seat at a fair table) is given to the thief (``decks.give``).

**What the host cannot check**, and the plain game does: that an answer to an
assassination uses the *cheapest* fitting card (any fitting card is accepted), and who
holds a card that fits a window: the option ``reactions`` is forced to ``all`` (every
seat with cards is asked, and may pass).
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Mapping
from typing import Any

from lantable.plugins import IllegalAction
from lantable.plugins.decks import claims_for
from lantable.plugins.text import learn, own_cards

from . import client, engine, views
from . import hands as H
from . import moves as M
from .data import NCARDS

State = dict[str, Any]
Events = list[dict[str, Any]]
Action = dict[str, Any]
Decks = Any  # lantable.plugins.decks.Requests: shuffle, deal, open, give

DECK = "events"
CARD_FIELDS = ("card", "cards", "guards", "corr")  # where an action names cards
MARKERS = ("deck_new", "deck_deal", "deck_give")


def decks_for(options: Mapping[str, Any]) -> dict[str, int] | None:
    """``game_decks``: the one deck of 55 cards, with the option ``hidden_deck``."""
    return {DECK: NCARDS} if options.get("hidden_deck") else None


def _send(S: State, ev: Events, decks: Decks) -> Events:
    """Turn the rules' marker events into requests to ``decks``; the other events."""
    out = []
    for e in ev:
        if e["type"] == "deck_new":
            decks.shuffle(DECK)
        elif e["type"] == "deck_deal":
            if e["seat"] is None:
                decks.open(DECK, e["pos"])
            else:
                decks.deal(DECK, e["pos"], e["seat"])
        elif e["type"] == "deck_give":
            decks.give(DECK, e["pos"], e["seat"])
        else:
            out.append(e)
    return out


def new_state(seats: int, options: dict[str, Any], rng: random.Random, decks: Decks) -> State:
    """A game whose cards are a hidden deck; it asks ``decks`` for the first deal."""
    ev: Events = []
    S = engine.new_state(seats, {**options, "reactions": "all"}, rng, ev, hidden=True)
    _send(S, ev, decks)
    return S


def _int(v: Any, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise IllegalAction(f"{what} must be an integer, got {v!r}")
    return v


def _own_positions(S: State, seat: int, positions: list[Any]) -> list[int]:
    """Tokens of ``positions``, each a distinct position in ``seat``'s hand."""
    tokens = [H.MASKED + _int(p, "a position") for p in positions]
    if len(set(tokens)) != len(tokens):
        raise IllegalAction("a position appears twice")
    for t, p in zip(tokens, positions, strict=True):
        if t not in S["hands"][seat]:
            raise IllegalAction(f"position {p} is not in your hand")
    return tokens


def _named(action: Action) -> list[int]:
    """Every card an action names, checked to be card ids, none twice."""
    out: list[int] = []
    for key in CARD_FIELDS:
        if key in action:
            out += [H.card_arg(action, key)] if key == "card" else H.cards_arg(action, key)
    if len(set(out)) != len(out):
        raise IllegalAction("a card appears twice")
    return out


def _claims(S: State, seat: int, action: Action) -> list[tuple[int, int]]:
    """The (card, token) pairs an action claims: every card it names, at a position of
    the seat's hand, and not a card already face up."""
    cards = _named(action)
    claims = action.get("claims", [])
    ok = isinstance(claims, list) and all(
        isinstance(c, Mapping) and c.get("deck") == DECK for c in claims)
    if not ok or sorted(c.get("card") for c in claims) != sorted(cards):
        raise IllegalAction(f'hidden deck: "claims" must give the position of every card '
                            f"named ({sorted(cards)}) in deck {DECK!r}, and nothing else")
    pos = {c["card"]: c.get("pos") for c in claims}
    tokens = _own_positions(S, seat, [pos[c] for c in cards])
    claimed = {c for _, c in S["hidden"]["claims"].values()}
    for c in cards:
        if c in S["box_face_up"] or c in claimed:
            raise IllegalAction(f"card {c} is already face up")
    return list(zip(cards, tokens, strict=True))


def _restore(S: State, saved: bytes) -> None:
    S.clear()
    S.update(pickle.loads(saved))


def apply(S: State, seat: int, action: Action, rng: random.Random, decks: Decks) -> Events:
    """Apply one action in its hidden-deck form; raises IllegalAction, the state
    unchanged, like :func:`.engine.apply`."""
    if S["over"]:
        raise IllegalAction("the game is over")
    if seat not in engine.to_act(S):
        raise IllegalAction(f"seat {seat} is not to act")
    t = action.get("type")
    top = S["pending"][-1] if S["pending"] else None
    if t == "commit" and top is not None and top["kind"] == "battle":
        return _commit(S, top, seat, action, rng, decks)
    if t == "discard" and top is None and S["movement"] is None:
        return _discard(S, seat, action, rng, decks)
    claims = _claims(S, seat, action)
    saved = pickle.dumps(S, pickle.HIGHEST_PROTOCOL)
    hand = S["hands"][seat]
    for c, token in claims:  # the claimed card stands in for its token while it is played
        hand[hand.index(token)] = c
    hand.sort()
    plain = {k: v for k, v in action.items() if k != "claims"}
    try:
        ev = engine.apply(S, seat, plain, rng)
    except IllegalAction:
        _restore(S, saved)
        raise
    if any(c in S["hands"][seat] for c, _ in claims):  # every face-up play uses its cards
        _restore(S, saved)
        raise IllegalAction("a card named is not played by this action")
    for c, token in claims:
        S["hidden"]["claims"][str(token - H.MASKED)] = [seat, c]
    if claims:  # face up from the moment they are played: opened before anything else
        decks.open(DECK, [t - H.MASKED for _, t in claims])
    return _send(S, ev, decks)


def _discard(S: State, seat: int, action: Action, rng: random.Random, decks: Decks) -> Events:
    """5.2: one card face down, for nothing; it stays masked."""
    (token,) = _own_positions(S, seat, [action.get("pos")])
    H.use_cards(S, [token], face_down=True)
    ev: Events = [{"type": "discarded", "seat": seat}]
    engine.settle(S, rng, ev)
    return _send(S, ev, decks)


def _commit(S: State, top: dict[str, Any], seat: int, action: Action,
            rng: random.Random, decks: Decks) -> Events:
    """R 6.3: a secret commitment of positions; opened once both sides are in."""
    positions = action.get("pos")
    if not isinstance(positions, list):
        raise IllegalAction('commit the positions of your battle cards: "pos": [...]')
    tokens = _own_positions(S, seat, positions)
    limit = M._limit(S, top, seat)
    if len(tokens) > limit:
        raise IllegalAction(f"R 6.3: at most {limit} battle cards")
    for token in tokens:
        S["hands"][seat].remove(token)
    if seat == S["active"]:
        S["cards_used"] += len(tokens)
    top["committed"][str(seat)] = sorted(tokens)
    ev: Events = [{"type": "committed", "seat": seat, "count": len(tokens)}]
    if len(top["committed"]) < 2:
        return ev
    opening = sorted(c for cs in top["committed"].values() for c in cs)
    if not opening:
        _fight(S, rng, ev)
        return _send(S, ev, decks)
    # What follows the battle is settled in cards_opened, which is given no rng.
    S["hidden"]["seed"] = rng.getrandbits(64)
    decks.open(DECK, [c - H.MASKED for c in opening])
    return ev


def _fight(S: State, rng: random.Random, ev: Events) -> None:
    top = S["pending"].pop()
    M._resolve(S, top, ev)
    engine.settle(S, rng, ev)


def cards_opened(S: State, cards: Mapping[int, int], seat: int | None,
                 decks: Decks) -> Events:
    """``game_cards_opened``: cards dealt to ``seat`` (only where the host deals: kept
    as its secret), or opened to everyone: a claimed card (the host checks the claim;
    the state keeps the card claimed), or battle cards (fought once the last is in)."""
    if seat is not None:
        learn(S["hidden"]["known"][seat], cards)
        return []
    top = S["pending"][-1] if S["pending"] else None
    battle = top is not None and top["kind"] == "battle" and len(top["committed"]) == 2
    for pos, card in cards.items():
        if S["hidden"]["claims"].pop(str(pos), None) is not None or not battle:
            continue
        assert top is not None
        token = H.MASKED + pos
        for cs in top["committed"].values():
            if token in cs:
                cs[cs.index(token)] = card
                cs.sort()
    if not battle or any(H.is_masked(c) for cs in top["committed"].values() for c in cs):
        return []
    ev: Events = []
    _fight(S, random.Random(S["hidden"]["seed"]), ev)
    S["hidden"]["seed"] = None
    return _send(S, ev, decks)


def waiting(S: State) -> bool:
    """True while the game waits for cards to be opened (nobody is to act meanwhile)."""
    top = S["pending"][-1] if S["pending"] else None
    return bool(S["hidden"]["claims"]) or (
        top is not None and top["kind"] == "battle" and len(top["committed"]) == 2)


# --- the seat's side ----------------------------------------------------------------


def seat_view(view: dict[str, Any], cards: Mapping[int, int]) -> dict[str, Any]:
    """A seat's view with its own cards in place of its tokens: ``cards`` maps each
    position it holds to its card."""
    own = {H.MASKED + int(p): c for p, c in cards.items()}
    v = dict(view)
    v["hand"] = sorted(own[t] for t in view["hand"])
    pending = pickle.loads(pickle.dumps(view["own_pending"], pickle.HIGHEST_PROTOCOL))
    for item in pending:
        mine_shown = item["kind"] == "battle" and \
            isinstance(item["committed"].get(str(view["seat"])), list)
        if mine_shown:
            mine = item["committed"][str(view["seat"])]
            item["committed"][str(view["seat"])] = sorted(own.get(c, c) for c in mine)
    v["own_pending"] = pending
    return v


def to_hidden(action: Action, pos_of: Mapping[int, int]) -> Action:
    """A plain action in its hidden-deck form (see the module's docstring)."""
    t = action["type"]
    if t == "discard":
        return {"type": "discard", "pos": pos_of[action["card"]]}
    if t == "commit":
        return {"type": "commit", "pos": sorted(pos_of[c] for c in action["cards"])}
    cards = _named(action)
    if not cards:
        return action
    return {**action, "claims": claims_for(DECK, [(pos_of[c], c) for c in cards])}


def seat_actions(view: dict[str, Any], seat: int, cards: Mapping[str, Mapping[Any, int]]
                 ) -> list[Action]:
    """``game_seat_actions``: ``seat``'s legal actions in their hidden-deck forms, from
    its view and the cards it knows (``cards[DECK]``: position -> card)."""
    mine = {int(p): c for p, c in (view.get("hand_cards") or {}).items()}
    mine.update({int(p): c for p, c in cards.get(DECK, {}).items()})
    held = {t - H.MASKED for t in view["hand"]}
    if held - set(mine):
        raise ValueError(f"seat {seat} does not know the cards at positions "
                         f"{sorted(held - set(mine))}: only its own client can list its actions")
    mine = {p: c for p, c in mine.items() if p in held}
    pos_of = {c: p for p, c in mine.items()}
    return [to_hidden(a, pos_of)
            for a in client.legal_actions(seat_view(view, mine), seat)]


def sample_hidden(v: dict[str, Any], seat: int, rng: random.Random) -> State:
    """:func:`views.sample` for a hidden-deck game (``v["hidden_deck"]``): a state in the
    hidden deck's own form, with the dealer's record (docs/plugins.md, "Sampling a state
    with hidden decks"), so that the search bots play it in-process as the host would.

    The seat's cards come from ``v["hand_cards"]`` (where the host deals) or
    ``v["_hand"]`` (at a hidden-deck table, from its client). The other cards are dealt
    at random as :func:`sample` deals them; each gets a position of the deck nobody
    has told this seat about (positions carry nothing but their card)."""
    from lantable.plugins.decks import sample_dealer

    mine = {int(p): c for p, c in own_cards(v, "hand_cards", DECK).items()}
    S = views.sample(seat_view(v, mine), seat, rng)
    pos_of = {c: p for p, c in mine.items()}
    free = [p for p in range(NCARDS) if p not in mine]
    rng.shuffle(free)

    def token(c: int) -> int:
        if H.is_masked(c):  # already a position (the seat's own committed card)
            pos_of.setdefault(mine.get(c - H.MASKED, -1 - c), c - H.MASKED)
            return c
        if c not in pos_of:
            pos_of[c] = free.pop()
        return H.MASKED + pos_of[c]

    held: dict[int, int] = {}
    for s in range(S["n_players"]):
        S["hands"][s] = sorted(token(c) for c in S["hands"][s])
        held.update({t - H.MASKED: s for t in S["hands"][s]})
    S["box_face_down"] = sorted(token(c) for c in S["box_face_down"])
    for item in S["pending"]:
        if item["kind"] == "battle":
            for s, cs in item["committed"].items():
                item["committed"][s] = sorted(token(c) for c in cs)
                held.update({t - H.MASKED: int(s) for t in item["committed"][s]})
    down = {t - H.MASKED for t in S["box_face_down"]} | set(held)
    for c in range(NCARDS):  # the cards face up somewhere: opened positions
        if c not in pos_of:
            pos_of[c] = free.pop()
    opened = [p for c, p in pos_of.items() if 0 <= c < NCARDS and p not in down]
    cards = {p: c for c, p in pos_of.items() if 0 <= c < NCARDS}
    S["hidden"] = {"claims": {}, "seed": None,
                   "known": [{str(t - H.MASKED): cards[t - H.MASKED] for t in S["hands"][s]}
                             for s in range(S["n_players"])]}
    sample_dealer(S, sizes={DECK: NCARDS}, seats=S["n_players"],
                  held={DECK: held}, known={DECK: cards},
                  opened={DECK: opened}, rng=rng)
    return S
