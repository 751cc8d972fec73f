"""Cards in hands: argument checks, the 4-card limit of one's own round, taking cards to
the discard box, and who holds a card that could answer now. Shared by the flow of play
(:mod:`.engine`), movement (:mod:`.moves`) and Events (:mod:`.events`)."""

from __future__ import annotations

from typing import Any

from lantable.plugins import IllegalAction

from .data import CARDS, NCARDS

State = dict[str, Any]


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
    if seat == S["act"] and S["used"] + k > 4:
        raise IllegalAction(f"5.2: at most 4 cards in your round ({S['used']} used)")


def use_cards(S: State, cards: list[int], face_down: bool = False, seat: int | None = None,
              count: bool = True) -> None:
    """Take cards from their holder's hand to the discard box; the active player's count
    toward his 4 (5.2). Face-down discards stay secret; the rest are seen."""
    for c in cards:
        for holder, h in enumerate(S["hands"]):
            if c in h:
                h.remove(c)
                if count and holder == S["act"]:
                    S["used"] += 1
                break
        (S["box"] if face_down else S["seen"]).append(c)
    S["box"].sort()


def holders(S: State, keys: list[str], exclude: list[int]) -> list[int]:
    """Seats that hold a card of one of ``keys``, clockwise from the active player
    (R 12.0); with the option ``reactions = all``, every seat with cards is asked."""
    n = S["n"]
    order = [(S["act"] + i) % n for i in range(n)]
    every = S["opt"]["reactions"] == "all"
    return [s for s in order if s not in exclude and
            any(every or CARDS[c]["ev"] in keys for c in S["hands"][s])]
