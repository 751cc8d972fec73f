"""Blackbeard with hidden decks: the host runs the game without knowing any hand or
any face-down merchant.

With the option ``hidden_deck`` the game holds *positions* of two decks instead of
Event cards and merchants, through the game API for hidden decks (docs/plugins.md,
"Hidden decks"). At a fair table with hidden decks (docs/fair-play.md) the seats
shuffle and mask both decks together at set-up; the host holds no key and learns a
card only when it is opened to everyone. The plain game is unchanged; this module
wraps :mod:`.flow`.

**Tokens.** A card nobody at the host may know is a *masked token* in the state:
``len(CARDS) + j`` for position j of the deck ``events`` (:data:`CARD_MASK`), and
``len(MERCHANTS) + j`` for position j of the deck ``merchants`` (:data:`MERCH_MASK`).
No token is a card or a merchant id, so a rule that read one would fail loudly; the
engine skips tokens where it lists a seat's cards (:func:`.board.masked`), so the host
lists only the cards claimed by the action in hand.

**The Event deck** (``events``) holds the Event cards that are not Must-Play-
Immediately (:data:`NONMPI`; card ``i`` of the deck is card id ``NONMPI[i]``). MPI
cards never stay in a hand: drawn, they are played at once, face up. So they stay
public ints in ``S["deck"]`` beside the tokens of the positions not yet dealt, and a
draw is the engine's own uniform pick among them: an MPI card comes out exactly as
often as from one shuffled deck, and a token is dealt to the drawing seat
(``decks.deal``). The set-up hands (D.2.2 step 1, an MPI card put back and replaced)
are four positions each.

**The long game's second pass** reshuffles the discards while the hands keep their
cards. Every Event card in the discards was played face up, so the second pass's
cards are known to everyone, not where they are: they become a fresh hidden deck,
``events2-k`` for k such cards (card i is ``S["hidden"]["pass2"]["cards"][i]``, the
sorted list; the game declares one such deck for every k, and shuffles only the one
it needs), shuffled and locked by every seat as any deck. Its positions are tokens
from :data:`P2_MASK`; a hand holds tokens of both decks. Everywhere the state keys a
position by its *slot*, ``token - CARD_MASK``: a position of ``events``, or
``len(NONMPI)`` + a position of the second deck.

**Merchants** (``merchants``): a merchant placed face down is a token; when a pirate
finds it, its position is opened to everyone (``decks.open``) and the merchant's id
replaces the token (event ``merchant_revealed``). A merchant removed face down goes
back to the pool as its token, still unseen; one removed face up goes back as its id,
which everyone has seen (so if it is drawn again, everyone knows which it is; the
physical cup would hide it among the others).

**Actions name cards with claims.** A seat lists its own legal actions
(:func:`seat_actions`, from its view and the cards it knows) in their plain form and
adds ``"claims": [{"deck": "events", "pos": j, "card": i}]`` for every card the action
plays or discards (for an AP Event with ``copies``, every copy). Every such card is
played face up: the host puts the claimed cards in the hand, applies the plain
action, requires each claimed card to have left the hand, and opens them at once; the
host checks each claim when its card is opened, and a false claim forfeits.

**What the host cannot check**: that an AP Event played with ``copies`` < the copies
in hand was not meant to play more (the seat chooses how many; the host counts only
the claimed ones).
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Mapping
from typing import Any

from lantable.plugins import IllegalAction
from lantable.plugins.decks import claims_for, claims_of, sample_dealer
from lantable.plugins.text import learn, own_cards

from . import board as B
from . import flow
from .data import CARD_TYPES, CARDS, HAND, MERCHANTS
from .state import Action, Events, State

Decks = Any  # lantable.plugins.decks.Requests: shuffle, deal, open, give

DECK = "events"
MDECK = "merchants"
CARD_MASK = len(CARDS)
MERCH_MASK = len(MERCHANTS)
NONMPI = [c for c in range(len(CARDS)) if CARD_TYPES[CARDS[c]]["kind"] != "mpi"]
MPI = [c for c in range(len(CARDS)) if CARD_TYPES[CARDS[c]]["kind"] == "mpi"]
INDEX = {c: i for i, c in enumerate(NONMPI)}  # card id -> its card in the deck ``events``
N = len(NONMPI)
P2_MASK = CARD_MASK + N  # position j of the second pass's deck: token P2_MASK + j


def pass2_decks() -> dict[str, int]:
    """The decks the long game's second pass may need: one per count of its cards."""
    return {f"events2-{k}": k for k in range(1, N + 1)}


def _deck_of(S_or_view_p2: Mapping[str, Any] | None, slot: int) -> tuple[str, int]:
    """The deck and position of a slot (``token - CARD_MASK``)."""
    if slot < N:
        return DECK, slot
    if not S_or_view_p2:
        raise IllegalAction(f"no position {slot - N} of a second pass")
    return S_or_view_p2["deck"], slot - N


def decks_for(options: Mapping[str, Any]) -> dict[str, int] | None:
    """``game_decks``: the Event cards that stay in hands, and the merchants."""
    if not options.get("hidden_deck"):
        return None
    more = pass2_decks() if options.get("game_length") == "long" else {}
    return {DECK: len(NONMPI), MDECK: len(MERCHANTS), **more}


def new_state(seats: int, options: dict[str, Any], rng: random.Random, decks: Decks) -> State:
    """The set-up (D.2.2) with hidden decks: four positions per hand, the set-up
    merchants face-down positions; both decks shuffled by the dealer."""
    S = B.new_state(seats, dict(options), rng, [])
    flow.start_game(S)
    n = len(NONMPI)
    S["hands"] = [[CARD_MASK + p for p in range(s * HAND, (s + 1) * HAND)]
                  for s in range(seats)]
    S["deck"] = sorted([*(c for c in MPI if c not in S["held_pardons"]),  # long: held out
                        *(CARD_MASK + p for p in range(seats * HAND, n))])
    for j, m in enumerate(S["merchants"]):
        m["id"] = MERCH_MASK + j
    S["merchant_pool"] = [MERCH_MASK + j for j in range(len(S["merchants"]), len(MERCHANTS))]
    S["hidden"] = {"dealt": [], "opening": [], "claims": {},
                   "known": [{} for _ in range(seats)]}
    decks.shuffle(DECK)
    decks.shuffle(MDECK)
    _sync(S, [], decks)
    return S


def _sync(S: State, ev: Events, decks: Decks) -> Events:
    """Ask ``decks`` for what the rules did with tokens: a token new in a hand is dealt
    to its seat, a merchant token turned face up is opened. Returns the events, with the
    tokens a reader could not name left out."""
    hidden = S["hidden"]
    p2 = hidden.get("pass2")
    if p2 and not p2["shuffled"]:  # the second pass's deck, shuffled before any deal
        p2["shuffled"] = True
        decks.shuffle(p2["deck"])
    dealt = set(hidden["dealt"])
    for seat, hand in enumerate(S["hands"]):
        new = [c - CARD_MASK for c in hand if c >= CARD_MASK and c - CARD_MASK not in dealt]
        for deck in sorted({_deck_of(p2, slot)[0] for slot in new}):
            decks.deal(deck, [_deck_of(p2, slot)[1] for slot in new
                              if _deck_of(p2, slot)[0] == deck], seat)
        if new:
            hidden["dealt"] = sorted([*hidden["dealt"], *new])
    for m in S["merchants"]:
        pos = m["id"] - MERCH_MASK
        if m["face_up"] and pos >= 0 and pos not in hidden["opening"]:
            hidden["opening"].append(pos)
            decks.open(MDECK, [pos])
    out = []
    for e in ev:
        if e["type"] in ("drew", "dealt"):  # the seat's client tells it its card
            continue
        if e["type"] == "found_merchant" and (e.get("merchant") or 0) >= MERCH_MASK:
            e = {**e, "merchant": None}  # named by merchant_revealed once opened
        out.append(e)
    return out


def _claims(S: State, seat: int, action: Action) -> list[tuple[int, int]]:
    """The (slot, card id) pairs an action claims, checked: positions the seat
    holds, cards of the deck, the card the action names among them."""
    out: list[tuple[int, int]] = []
    p2 = S["hidden"].get("pass2")
    for deck, pos, card in claims_of(action):
        if deck == DECK and 0 <= card < N:
            slot, cid = pos, NONMPI[card]
        elif p2 and deck == p2["deck"] and 0 <= card < len(p2["cards"]):
            slot, cid = N + pos, p2["cards"][card]
        else:
            raise IllegalAction(f"claim: no card {card} in deck {deck!r}")
        if not 0 <= pos < N or CARD_MASK + slot not in S["hands"][seat]:
            raise IllegalAction(f"claim: position {pos} of {deck!r} is not in your hand")
        out.append((slot, cid))
    if len({p for p, _ in out}) != len(out):
        raise IllegalAction("claim: a position appears twice")
    named = action.get("card")
    if (named is not None or out) and named not in [c for _, c in out]:
        raise IllegalAction(f'hidden deck: "claims" must give the position of the card '
                            f"named ({named!r}) in deck {DECK!r}")
    return out


def apply(S: State, seat: int, action: Action, rng: random.Random, decks: Decks) -> Events:
    """Apply one action in its hidden-deck form; raises IllegalAction, the state
    unchanged, like :func:`.flow.apply`."""
    if S["over"] or seat not in flow.to_act(S):
        raise IllegalAction("it is not your decision")
    claims = _claims(S, seat, action)
    saved = pickle.dumps(S, pickle.HIGHEST_PROTOCOL)
    hand = S["hands"][seat]
    for pos, c in claims:  # the claimed card stands in for its token while it is played
        hand[hand.index(CARD_MASK + pos)] = c
    hand.sort()
    plain = {k: v for k, v in action.items() if k != "claims"}
    try:
        ev = flow.apply(S, seat, plain, rng)
        if any(c in S["hands"][seat] for _, c in claims):
            raise IllegalAction("a card claimed is not played by this action")
    except IllegalAction:
        S.clear()
        S.update(pickle.loads(saved))
        raise
    for pos, c in claims:
        S["hidden"]["claims"][str(pos)] = [seat, INDEX[c]]
    p2 = S["hidden"].get("pass2")
    for deck in sorted({_deck_of(p2, p)[0] for p, _ in claims}):
        # face up from the moment they are played: opened before anything else
        decks.open(deck, [_deck_of(p2, p)[1] for p, _ in claims if _deck_of(p2, p)[0] == deck])
    return _sync(S, ev, decks)


def cards_opened(S: State, deck: str, cards: Mapping[int, int], seat: int | None,
                 decks: Decks) -> Events:
    """``game_cards_opened``: Event cards dealt to ``seat`` (only where the host deals:
    kept as its secret), claimed cards opened (the host checks the claim), or a found
    merchant (its id replaces its token)."""
    p2 = S["hidden"].get("pass2")
    if deck == DECK or (p2 and deck == p2["deck"]):
        if deck != DECK:  # slots and deck cards of ``events`` (rules/blackbeard.md)
            cards = {N + p: INDEX[p2["cards"][c]] for p, c in cards.items()}
        if seat is not None:
            learn(S["hidden"]["known"][seat], cards)
        else:
            for pos in cards:
                S["hidden"]["claims"].pop(str(pos), None)
        return []
    ev: Events = []
    for pos, mid in cards.items():
        for m in S["merchants"]:
            if m["id"] == MERCH_MASK + pos:
                m["id"] = mid
                ev.append({"type": "merchant_revealed", "slot": m["slot"], "merchant": mid})
        S["hidden"]["opening"].remove(pos)
    return ev


# --- the seat's side ----------------------------------------------------------------


def known_slots(view: Mapping[str, Any], cards: Mapping[str, Mapping[Any, int]]
                ) -> dict[int, int]:
    """Slot -> card of ``events`` of every card the seat knows, from its view and its
    client (``cards``), both passes."""
    known = {int(p): c for p, c in own_cards(view, "hand_cards", DECK).items()}
    known.update({int(p): c for p, c in (cards.get(DECK) or {}).items()})
    p2 = view.get("pass2")
    if p2:  # the second pass's cards, as slots and cards of ``events``
        two = {**((view.get("_hand") or {}).get(p2["deck"]) or {}),
               **(cards.get(p2["deck"]) or {})}
        known.update({N + int(p): INDEX[p2["cards"][c]] for p, c in two.items()})
    return known


def _mine(view: Mapping[str, Any], cards: Mapping[str, Mapping[Any, int]]) -> dict[int, int]:
    """Slot -> card id of the cards the seat holds, from its view and its client."""
    known = known_slots(view, cards)
    held = {t - CARD_MASK for t in view["hand"]}
    if held - set(known):
        raise ValueError(f"seat {view.get('seat')} does not know the cards at positions "
                         f"{sorted(held - set(known))}: only its own client can list its "
                         "actions")
    return {p: NONMPI[c] for p, c in known.items() if p in held}


def client_state(view: Mapping[str, Any], seat: int, hand: list[int]) -> State:
    """A state holding exactly what ``seat``'s view tells, its own cards named: every
    card or merchant it cannot see is a token."""
    from .views import PUBLIC, _copy

    S: State = _copy({k: view[k] for k in PUBLIC})
    serial = iter(range(CARD_MASK, CARD_MASK + 10 * len(CARDS)))
    S["hands"] = [sorted(hand) if s == seat else [next(serial) for _ in range(n)]
                  for s, n in enumerate(view["hand_sizes"])]
    S["deck"] = [next(serial) for _ in range(view["deck_size"])]
    mserial = iter(range(MERCH_MASK, MERCH_MASK + 10 * len(MERCHANTS)))
    S["merchants"] = [{"slot": m["slot"], "area": m["area"], "face_up": m["face_up"],
                       "found_by": m["found_by"],
                       "id": m["id"] if m["id"] is not None else next(mserial)}
                      for m in view["merchants"]]
    S["merchant_pool"] = [next(mserial) for _ in range(view["merchant_pool_size"])]
    return S


def to_hidden(action: Action, hand: list[int], pos_of: Mapping[int, int],
              p2: Mapping[str, Any] | None = None) -> Action:
    """A plain action in its hidden-deck form: every card it plays, claimed
    (``pos_of``: card id -> slot; ``p2``: the second pass's deck, if dealt)."""
    c = action.get("card")
    if c is None:
        return action
    played = [c]
    if action["type"] == "play_event":  # errata A3: ``copies`` of one type, this one first
        same = [x for x in hand if x != c and CARDS[x] == CARDS[c]]
        played += same[:action.get("copies", 1) - 1]
    claims = []
    for x in played:
        deck, pos = _deck_of(p2, pos_of[x])
        card = INDEX[x] if deck == DECK else list(p2["cards"]).index(x)  # type: ignore[index]
        claims += claims_for(deck, [(pos, card)])
    return {**action, "claims": claims}


def seat_actions(view: dict[str, Any], seat: int, cards: Mapping[str, Mapping[Any, int]]
                 ) -> list[Action]:
    """``game_seat_actions``: ``seat``'s legal actions in their hidden-deck forms, from
    its view and the cards it knows (``cards["events"]``: position -> card)."""
    mine = _mine(view, cards)
    hand = sorted(mine.values())
    S = client_state(view, seat, hand)
    pos_of = {c: p for p, c in mine.items()}
    return [to_hidden(a, hand, pos_of, view.get("pass2")) for a in flow.legal(S, seat)]


def sample_hidden(v: dict[str, Any], seat: int, rng: random.Random) -> State:
    """``game_sample_state`` at a hidden-deck table: a state in the hidden decks' own
    form, with the dealer's record (docs/plugins.md, "Sampling a state with hidden
    decks"), so that the search bots play it in-process as the host would. The other
    hands get Event cards (never an MPI card) the seat has not seen, the deck the rest;
    face-down merchants get merchants not seen face up."""
    from .views import PUBLIC, _copy

    mine = _mine(v, {})
    S: State = _copy({k: v[k] for k in PUBLIC})
    n_seats = S["n_players"]
    if v.get("pass2"):
        return _sample_pass2(S, v, seat, mine, rng)
    seen = set(mine.values()) | set(v["discards"]) | set(v["removed"])
    seen |= set(v["held_pardons"]) | {c for p in v["pirates"] for c in p["heavy_guns"]}
    cards: dict[int, int] = {p: INDEX[c] for p, c in mine.items()}  # position -> deck card
    free = [p for p in range(len(NONMPI)) if p not in cards]
    rng.shuffle(free)
    unseen = [INDEX[c] for c in NONMPI if c not in seen]
    rng.shuffle(unseen)
    held: dict[int, int] = {p: seat for p in mine}
    hands: list[list[int]] = []
    for s, size in enumerate(v["hand_sizes"]):
        if s == seat:
            hands.append(sorted(CARD_MASK + p for p in mine))
            continue
        hand = []
        for _ in range(size):
            p, cards[p] = free.pop(), unseen.pop()
            held[p] = s
            hand.append(CARD_MASK + p)
        hands.append(sorted(hand))
    deck = [c for c in MPI if c not in seen][:max(0, v["deck_size"] - len(unseen))]
    for _ in unseen[:]:
        p, cards[p] = free.pop(), unseen.pop()
        deck.append(CARD_MASK + p)
    opened = []
    for c in sorted(seen - set(mine.values())):  # played face up: opened positions
        if c in INDEX:
            p, cards[p] = free.pop(), INDEX[c]
            opened.append(p)
    S["hands"], S["deck"] = hands, sorted(deck)
    S["hidden"] = {"dealt": sorted(held), "opening": [], "claims": {},
                   "known": [{str(p): cards[p] for p, s in held.items() if s == t}
                             for t in range(n_seats)]}
    _sample_merchants(S, v, rng, {DECK: N}, {DECK: held}, {DECK: cards}, {DECK: opened})
    if v["options"].get("game_length") == "long":  # a sampled game may reach the second pass
        S["_dealer"]["sizes"].update(pass2_decks())
    return S


def _sample_pass2(S: State, v: Mapping[str, Any], seat: int, mine: Mapping[int, int],
                  rng: random.Random) -> State:
    """:func:`sample_hidden` in the long game's second pass: the undrawn positions of
    the second deck get unseen cards of the second pass; the other hands the rest of the
    unseen cards, as positions of ``events`` (where they came from does not change what
    the rules let anyone do)."""
    p2 = v["pass2"]
    L, k = list(p2["cards"]), len(p2["cards"])
    seen = set(mine.values()) | set(v["discards"]) | set(v["removed"])
    seen |= set(v["held_pardons"]) | {c for p in v["pirates"] for c in p["heavy_guns"]}
    unseen = [c for c in NONMPI if c not in seen]
    pile = [c for c in unseen if c in set(L)]
    rng.shuffle(pile)
    pile = pile[:p2["left"]]
    rest = [c for c in unseen if c not in set(pile)]
    rng.shuffle(rest)
    cards1 = {sl: INDEX[c] for sl, c in mine.items() if sl < N}
    cards2 = {sl - N: L.index(c) for sl, c in mine.items() if sl >= N}
    free1 = [p for p in range(N) if p not in cards1]
    free2 = [p for p in range(k) if p not in cards2]
    rng.shuffle(free1)
    rng.shuffle(free2)
    held1, held2 = {p: seat for p in cards1}, {p: seat for p in cards2}
    hands: list[list[int]] = []
    for s, size in enumerate(v["hand_sizes"]):
        if s == seat:
            hands.append(sorted(CARD_MASK + sl for sl in mine))
            continue
        hand = []
        for _ in range(min(size, len(rest))):
            p = free1.pop()
            cards1[p], held1[p] = INDEX[rest.pop()], s
            hand.append(CARD_MASK + p)
        hands.append(sorted(hand))
    deck = [c for c in MPI if c not in seen][:max(0, v["deck_size"] - len(pile))]
    for c in pile:
        p = free2.pop()
        cards2[p] = L.index(c)
        deck.append(P2_MASK + p)
    S["hands"], S["deck"] = hands, sorted(deck)
    known: list[dict[str, int]] = [{} for _ in range(S["n_players"])]
    for p, t in held1.items():
        known[t][str(p)] = cards1[p]
    for p, t in held2.items():
        known[t][str(N + p)] = INDEX[L[cards2[p]]]
    S["hidden"] = {"dealt": sorted([*held1, *(N + p for p in held2)]), "opening": [],
                   "claims": {}, "known": known,
                   "pass2": {"deck": p2["deck"], "cards": L, "shuffled": True}}
    _sample_merchants(S, v, rng, {DECK: N, p2["deck"]: k},
                      {DECK: held1, p2["deck"]: held2},
                      {DECK: cards1, p2["deck"]: cards2}, {})
    return S


def _sample_merchants(S: State, v: Mapping[str, Any], rng: random.Random,
                      sizes: dict[str, int], held: dict[str, dict[int, int]],
                      cards: dict[str, dict[int, int]], opened: dict[str, list[int]]) -> None:
    """The merchants of a sampled state, and the dealer's record of every deck."""
    # Merchants: the ones face up are opened positions; face-down ones and the pool are
    # the others, at random.
    up = [m["id"] for m in v["merchants"] if m["id"] is not None]
    mfree = list(range(len(MERCHANTS)))
    rng.shuffle(mfree)
    mcards = {mfree.pop(): mid for mid in up}
    hidden_ids = [i for i in range(len(MERCHANTS)) if i not in up]
    rng.shuffle(hidden_ids)
    S["merchants"] = []
    for m in v["merchants"]:
        mid = m["id"]
        if mid is None:
            p = mfree.pop()
            mcards[p] = hidden_ids.pop()
            mid = MERCH_MASK + p
        S["merchants"].append({"slot": m["slot"], "id": mid, "area": m["area"],
                               "face_up": m["face_up"], "found_by": m["found_by"]})
    S["merchant_pool"] = []
    for p in mfree[:v["merchant_pool_size"]]:
        mcards[p] = hidden_ids.pop()
        S["merchant_pool"].append(MERCH_MASK + p)
    S["merchant_pool"].sort()
    for p in mfree[v["merchant_pool_size"]:]:
        mcards[p] = hidden_ids.pop()
    sample_dealer(S, sizes={**sizes, MDECK: len(MERCHANTS)}, seats=S["n_players"],
                  held=held, known={**cards, MDECK: mcards},
                  opened={**opened, MDECK: [p for p, mid in mcards.items() if mid in up]},
                  rng=rng)
