"""A small third-party card game for the leak checks of `lantable check` (issue 26,
item 4), in an honest version and versions that leak a hand in different forms.

Three cards to each of 2-3 seats from twelve (ids 0..11, each with a name); in turn a
seat plays one face up; the highest total wins. A view shows the seat's own hand as
card ids, every hand's size and the cards played. ``leak`` picks the flaw:

- ``None``: honest.
- ``"remaining"``: the public ``played`` event lists the acting seat's remaining hand
  (a leak within the same action: the hand is secret after the event too).
- ``"name"``: the event names the next seat's first card ("hint": "Lynx"), a form no
  view has (views show ids).
- ``"position"``: the event says where in the next seat's hand the card nearest the
  one played sits.
"""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import IllegalAction, hookimpl

NAMES = ["Ash", "Birch", "Cedar", "Dove", "Elm", "Fox", "Gull", "Hare", "Ibis", "Jay",
         "Kite", "Lynx"]
HAND = 3


class Peek:
    def __init__(self, leak: str | None = None, sampler: bool = True) -> None:
        self.leak = leak
        self.game_id = ("peek" if leak is None else f"peek-{leak}") + ("" if sampler else
                                                                      "-nosampler")
        if not sampler:
            self.game_sample_state = None  # not a hook any more: no sampler

    @hookimpl
    def game_info(self) -> dict[str, Any]:
        return {"id": self.game_id, "title": "Peek", "version": "1", "min_seats": 2,
                "max_seats": 3, "options": {},
                "traits": {"chance": True, "hidden_information": True,
                           "simultaneous": False}}

    @hookimpl
    def game_setup(self, seats: int, options: dict[str, Any], rng: random.Random
                   ) -> dict[str, Any]:
        deck = list(range(len(NAMES)))
        rng.shuffle(deck)
        hands = [sorted(deck[i * HAND:(i + 1) * HAND]) for i in range(seats)]
        return {"hands": hands, "played": [[] for _ in range(seats)], "turn": 0}

    @hookimpl
    def game_to_act(self, state: dict[str, Any]) -> list[int]:
        return [state["turn"]] if state["hands"][state["turn"]] else []

    @hookimpl
    def game_legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if seat not in self.game_to_act(state):
            return []
        return [{"type": "play", "card": c} for c in state["hands"][seat]]

    @hookimpl
    def game_apply(self, state: dict[str, Any], seat: int, action: dict[str, Any],
                   rng: random.Random) -> list[dict[str, Any]]:
        hand = state["hands"][seat]
        if action.get("type") != "play" or action.get("card") not in hand:
            raise IllegalAction(f"not a card in seat {seat}'s hand: {action!r}")
        card = action["card"]
        hand.remove(card)
        state["played"][seat].append(card)
        seats = len(state["hands"])
        state["turn"] = (seat + 1) % seats
        event: dict[str, Any] = {"type": "played", "seat": seat, "card": card}
        following = state["hands"][state["turn"]]
        if self.leak == "remaining":
            event["left"] = list(hand)
        elif self.leak == "name" and following:
            event["hint"] = NAMES[following[0]]
        elif self.leak == "position" and following:
            event["where"] = min(range(len(following)),
                                 key=lambda i: abs(following[i] - card))
        return [event]

    @hookimpl
    def game_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        view = {"hand_sizes": [len(h) for h in state["hands"]],
                "played": [list(p) for p in state["played"]], "turn": state["turn"]}
        if seat is not None:
            view["hand"] = list(state["hands"][seat])
        return view

    @hookimpl
    def game_sample_state(self, view: dict[str, Any], seat: int, rng: random.Random
                          ) -> dict[str, Any]:
        seen = set(view["hand"]) | {c for p in view["played"] for c in p}
        pool = [c for c in range(len(NAMES)) if c not in seen]
        rng.shuffle(pool)
        hands = []
        for s, size in enumerate(view["hand_sizes"]):
            if s == seat:
                hands.append(list(view["hand"]))
            else:
                hands.append(sorted(pool[:size]))
                del pool[:size]
        return {"hands": hands, "played": [list(p) for p in view["played"]],
                "turn": view["turn"]}

    @hookimpl
    def game_scores(self, state: dict[str, Any]) -> dict[str, Any]:
        totals = [sum(p) for p in state["played"]]
        return {"scores": totals, "rank": [1 + sum(t > mine for t in totals) for mine in totals]}
