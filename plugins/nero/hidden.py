"""Nero with a hidden deck: the host runs the game without knowing any hand.

At a table with hidden decks (docs/fair-play.md, "Hidden decks") the seats shuffle and
mask the 55 cards together at each Game Turn; the host holds no key and learns a card
only when it is opened to everyone. This module is the game's side of it; the plain
game (:mod:`.engine`) is unchanged, and this one only wraps it.

**The state.** A card the host cannot know is a *masked token* in the state
(:data:`.hands.MASKED` + its position in the Game Turn's deck): each hand is a list of
tokens, the face-down box too. ``S["hid"]`` holds the deck's name and the claims not
yet checked; ``S["forfeit"]`` the seat that cheated, if any.

**The game asks the host** through its events (every one of them public):

- ``{"type": "deck_new", "deck": d, "cards": 55}``: shuffle and lock a fresh deck;
- ``{"type": "deck_deal", "deck": d, "pos": [j, ...], "seat": s}``: deal those positions
  to seat s (each other seat hands s its unlock key for them); ``"seat": None`` opens
  them to everyone, and the host then calls :func:`card_opened` for each.

**Actions name positions.** A seat lists its own legal actions (:func:`legal_actions`,
from its view and the cards it opened) and sends them in the forms below; the host
checks what it can and applies:

- a card played face up (a march, an Event, an answer, a declaration) names the cards
  as in the plain game and adds ``"pos": {"<card>": position}``, the position of each
  card it *claims*. The host applies the claim at once and asks for the cards to be
  opened; :func:`card_opened` checks each one, and a card that is not the one claimed
  is a named fault: the game ends and that seat is ranked last (``forfeit``);
- a battle commitment names only positions: ``{"type": "commit", "pos": [j, ...]}``.
  Nobody, the host included, learns the cards until both sides are in; then they are
  opened, and the battle is fought once the last one is (no claim to check);
- a discard names only its position: ``{"type": "discard", "pos": j}``. The card
  stays masked (the seats' secrets show it in the audit after the game);
- Traitor moves a card without showing it: its position (drawn by ``rng``, so by
  every seat at a fair table) is dealt again, to the thief.

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

from . import board as B
from . import client, engine
from . import hands as H
from . import moves as M

State = dict[str, Any]
Events = list[dict[str, Any]]
Action = dict[str, Any]

CARD_FIELDS = ("card", "cards", "guards", "corr")  # where an action names cards


def new_state(seats: int, options: dict[str, Any], rng: random.Random) -> tuple[State, Events]:
    """A game whose cards are a hidden deck; its first events ask for the first deal."""
    ev: Events = []
    S = engine.new_state(seats, {**options, "reactions": "all"}, rng, ev, hidden=True)
    return S, ev


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
    """Every card an action names (its claims), checked to be card ids, none twice."""
    out: list[int] = []
    for key in CARD_FIELDS:
        if key in action:
            out += [H.card_arg(action, key)] if key == "card" else H.cards_arg(action, key)
    if len(set(out)) != len(out):
        raise IllegalAction("a card appears twice")
    return out


def _claims(S: State, seat: int, action: Action) -> list[tuple[int, int]]:
    """The (card, token) pairs an action claims: every card it names, at a position of
    the seat's hand, and not a card already face up or claimed."""
    cards = _named(action)
    pos = action.get("pos", {})
    if not isinstance(pos, Mapping) or sorted(pos) != sorted(str(c) for c in cards):
        raise IllegalAction('hidden deck: "pos" must give the position of every card named '
                            f"({sorted(cards)}), and nothing else")
    tokens = _own_positions(S, seat, [pos[str(c)] for c in cards])
    claimed = {c for _, c in S["hid"]["claims"].values()}
    for c in cards:
        if c in S["seen"] or c in claimed:
            raise IllegalAction(f"card {c} is already face up")
    return list(zip(cards, tokens, strict=True))


def _restore(S: State, saved: bytes) -> None:
    S.clear()
    S.update(pickle.loads(saved))


def apply(S: State, seat: int, action: Action, rng: random.Random) -> Events:
    """Apply one action in its hidden-deck form; raises IllegalAction, the state
    unchanged, like :func:`.engine.apply`."""
    if S["over"]:
        raise IllegalAction("the game is over")
    if seat not in engine.to_act(S):
        raise IllegalAction(f"seat {seat} is not to act")
    t = action.get("type")
    top = S["pend"][-1] if S["pend"] else None
    if t == "commit" and top is not None and top["k"] == "battle":
        return _commit(S, top, seat, action, rng)
    if t == "discard" and top is None and S["mv"] is None:
        return _discard(S, seat, action, rng)
    claims = _claims(S, seat, action)
    saved = pickle.dumps(S, pickle.HIGHEST_PROTOCOL)
    deck = S["hid"]["deck"]
    hand = S["hands"][seat]
    for c, token in claims:  # the claimed card stands in for its token while it is played
        hand[hand.index(token)] = c
    hand.sort()
    try:
        ev = engine.apply(S, seat, {k: v for k, v in action.items() if k != "pos"}, rng)
    except IllegalAction:
        _restore(S, saved)
        raise
    if any(c in S["hands"][seat] for c, _ in claims):  # every face-up play uses its cards
        _restore(S, saved)
        raise IllegalAction("a card named is not played by this action")
    for c, token in claims:
        S["hid"]["claims"][f"{deck}/{token - H.MASKED}"] = [seat, c]
    if not claims:
        return ev
    # The cards are face up from the moment they are played: open them first.
    return [{"type": "deck_deal", "deck": deck, "pos": [t - H.MASKED for _, t in claims],
             "seat": None}, *ev]


def _discard(S: State, seat: int, action: Action, rng: random.Random) -> Events:
    """5.2: one card face down, for nothing; it stays masked."""
    (token,) = _own_positions(S, seat, [action.get("pos")])
    H.use_cards(S, [token], face_down=True)
    ev: Events = [{"type": "discarded", "seat": seat}]
    engine.settle(S, rng, ev)
    return ev


def _commit(S: State, top: dict[str, Any], seat: int, action: Action,
            rng: random.Random) -> Events:
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
    if seat == S["act"]:
        S["used"] += len(tokens)
    top["commit"][str(seat)] = sorted(tokens)
    ev: Events = [{"type": "committed", "seat": seat, "count": len(tokens)}]
    if len(top["commit"]) == 2:
        opening = sorted(c for cs in top["commit"].values() for c in cs)
        if opening:
            ev.append({"type": "deck_deal", "deck": S["hid"]["deck"],
                       "pos": [c - H.MASKED for c in opening], "seat": None})
        else:
            _fight(S, rng, ev)
    return ev


def _fight(S: State, rng: random.Random, ev: Events) -> None:
    top = S["pend"].pop()
    M._resolve(S, top, ev)
    engine.settle(S, rng, ev)


def card_opened(S: State, deck: str, pos: int, card: int, rng: random.Random) -> Events:
    """The card at ``pos`` of ``deck`` was opened to everyone: check its claim, or put it
    into the battle waiting for it (fought when its last card is in)."""
    claim = S["hid"]["claims"].pop(f"{deck}/{pos}", None)
    if claim is not None:
        seat, claimed = claim
        if claimed == card:
            return []
        S["forfeit"] = seat
        S["over"] = True
        return [{"type": "false_claim", "seat": seat, "deck": deck, "pos": pos,
                 "claimed": claimed, "card": card}]
    top = S["pend"][-1] if S["pend"] else None
    token = H.MASKED + pos
    if deck == S["hid"]["deck"] and top is not None and top["k"] == "battle":
        for cs in top["commit"].values():
            if token in cs:
                cs[cs.index(token)] = card
                cs.sort()
                ev: Events = []
                if not any(H.is_masked(c) for cs in top["commit"].values() for c in cs):
                    _fight(S, rng, ev)
                return ev
    raise ValueError(f"nothing waits for position {pos} of {deck}")


def waiting(S: State) -> bool:
    """True while the game waits for cards to be opened (nobody is to act meanwhile)."""
    top = S["pend"][-1] if S["pend"] else None
    return bool(S["hid"]["claims"]) or (
        top is not None and top["k"] == "battle" and len(top["commit"]) == 2)


# --- the seat's side ----------------------------------------------------------------


def seat_view(view: dict[str, Any], cards: Mapping[int, int]) -> dict[str, Any]:
    """A seat's view with its own cards in place of its tokens: ``cards`` maps each
    position it was dealt (and opened) to its card."""
    own = {H.MASKED + p: c for p, c in cards.items()}
    v = dict(view)
    v["hand"] = sorted(own[t] for t in view["hand"])
    pend = pickle.loads(pickle.dumps(view["pend_own"], pickle.HIGHEST_PROTOCOL))
    for item in pend:
        if item["k"] == "battle" and isinstance(item["commit"].get(str(view["seat"])), list):
            mine = item["commit"][str(view["seat"])]
            item["commit"][str(view["seat"])] = sorted(own.get(c, c) for c in mine)
    v["pend_own"] = pend
    return v


def to_hidden(action: Action, pos_of: Mapping[int, int]) -> Action:
    """A plain action in its hidden-deck form (see the module's docstring)."""
    t = action["type"]
    if t == "discard":
        return {"type": "discard", "pos": pos_of[action["card"]]}
    if t == "commit":
        return {"type": "commit", "pos": sorted(pos_of[c] for c in action["cards"])}
    cards = _named(action)
    return {**action, "pos": {str(c): pos_of[c] for c in cards}} if cards else action


def legal_actions(view: dict[str, Any], seat: int, cards: Mapping[int, int]) -> list[Action]:
    """``seat``'s legal actions in their hidden-deck forms, from its view and its own
    cards (``cards``: position -> card, for the positions in its hand)."""
    pos_of = {c: p for p, c in cards.items()}
    return [to_hidden(a, pos_of)
            for a in client.legal_actions(seat_view(view, cards), seat)]


def scores(S: State) -> dict[str, Any]:
    return {"scores": list(S["vp"]), "rank": B.ranks(S),
            "detail": {"automatic_victory": S["auto"], "game_turn": S["gt"],
                       "forfeit": S["forfeit"]}}
