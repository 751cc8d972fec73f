"""Cards in hands: argument checks, the 4-card limit of one's own round, taking cards to
the discard box, and who holds a card that could answer now. Shared by the flow of play
(:mod:`.engine`), movement (:mod:`.moves`) and Events (:mod:`.events`)."""

from __future__ import annotations

from typing import Any

from lantable.plugins import IllegalAction

from .data import CARDS, NCARDS

State = dict[str, Any]

# A card nobody at the host may know is a *masked token*: MASKED + its position in the
# Game Turn's masked deck (plugins/nero/hidden.py), or, on a client, a stand-in for a
# card it cannot see (plugins/nero/client.py). No token is a card id, so a rule that
# read one as a card fails loudly (``CARDS[token]`` is an IndexError).
MASKED = NCARDS


def is_masked(c: int) -> bool:
    return c >= MASKED


def known(hand: list[int]) -> list[int]:
    """The cards of ``hand`` whose face is known (on a plain table: all of them)."""
    return [c for c in hand if c < MASKED]


def deal_event(positions: list[int], to: int | None) -> dict[str, Any]:
    """A marker: deal ``positions`` of the Game Turn's hidden deck to seat ``to`` (None:
    open them to everyone). :mod:`.hidden` turns markers into requests to the dealer."""
    return {"type": "deck_deal", "pos": list(positions), "seat": to}


def give_event(pos: int, to: int) -> dict[str, Any]:
    """A marker: hand position ``pos`` of the hidden deck to seat ``to`` (its holder
    still knows it; nobody else, the host included, learns it)."""
    return {"type": "deck_give", "pos": pos, "seat": to}


def deal_masked(S: State, k: int, ev: list[dict[str, Any]]) -> None:
    """5.1 step 2 with a hidden deck: a fresh shuffle of all the cards (``deck_new``);
    seat s is dealt positions s*k .. s*k+k-1, the rest is the face-down box. Nobody,
    the host included, learns a card it is not dealt."""
    ev.append({"type": "deck_new"})
    for seat in range(S["n_players"]):
        S["hands"][seat] = [MASKED + p for p in range(seat * k, (seat + 1) * k)]
        ev.append(deal_event(list(range(seat * k, (seat + 1) * k)), seat))
    S["box_face_down"] = [MASKED + p for p in range(S["n_players"] * k, NCARDS)]
    S["box_face_up"] = []


def card_arg(action: dict[str, Any], key: str = "card") -> int:
    c = action.get(key)
    if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < NCARDS:
        raise IllegalAction(f"{key} must be a card id 0..{NCARDS - 1}, got {c!r}")
    return c


def cards_arg(action: dict[str, Any], key: str = "cards") -> list[int]:
    cs = action.get(key, [])
    if not isinstance(cs, list) or len(cs) > 13:
        raise IllegalAction(f"{key} must be a list of card ids")
    out = [card_arg({"c": c}, "c") for c in cs]
    if len(set(out)) != len(out):
        raise IllegalAction(f"{key}: a card appears twice")
    return out


def own_card(S: State, seat: int, c: int, ev_key: str | None = None) -> None:
    if c not in S["hands"][seat]:
        raise IllegalAction(f"card {c} is not in your hand")
    if ev_key is not None and CARDS[c]["ev"] != ev_key:
        raise IllegalAction(f"card {c} is not a {ev_key} card")


def room(S: State, seat: int, k: int) -> None:
    """5.2: at most 4 cards in one's own round, for every purpose."""
    if seat == S["active"] and S["cards_used"] + k > 4:
        raise IllegalAction(f"5.2: at most 4 cards in your round ({S['cards_used']} used)")


def use_cards(S: State, cards: list[int], face_down: bool = False, seat: int | None = None,
              count: bool = True) -> None:
    """Take cards from their holder's hand to the discard box; the active player's count
    toward his 4 (5.2). Face-down discards stay secret; the rest are seen."""
    for c in cards:
        for holder, h in enumerate(S["hands"]):
            if c in h:
                h.remove(c)
                if count and holder == S["active"]:
                    S["cards_used"] += 1
                break
        (S["box_face_down"] if face_down else S["box_face_up"]).append(c)
    S["box_face_down"].sort()


def holders(S: State, keys: list[str], exclude: list[int]) -> list[int]:
    """Seats that hold a card of one of ``keys``, clockwise from the active player
    (R 12.0); with the option ``reactions = all``, every seat with cards is asked."""
    n = S["n_players"]
    order = [(S["active"] + i) % n for i in range(n)]
    every = S["options"]["reactions"] == "all"
    return [s for s in order if s not in exclude and
            any(every or CARDS[c]["ev"] in keys for c in S["hands"][s])]
