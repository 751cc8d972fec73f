"""The Assist cards (R 3.3.3, 3.3.15, 3.3.36, 3.3.39, 3.3.41, 3.3.44): one class each.

An Assist card is committed for its action, then attached to an attack of the
same turn when :mod:`..fights` opens the attack's ``attach`` (or, for Boarding
Party, ``board``) window. Each class says when it may join (``attach_offers``),
what it changes (``attach``) and what the phantom's Special Action of the same
name does (``phantom_attach``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import kind
from .base import Action, AssistType, Ctx, State, best

if TYPE_CHECKING:
    import random


def _attach(c: int) -> Action:
    return {"type": "attach", "card": c}


class BoardingParty(AssistType):
    """R 3.3.3: before the roll on an undamaged merchant: a sinking captures it."""

    name = "boarding_party"

    def attach_offers(self, S: State, ctx: Ctx, c: int, window: str) -> list[Action]:
        return [{"type": "board", "card": c}] if window == "board" else []

    def attach(self, S: State, ctx: Ctx, action: Action) -> None:
        ctx["boarded"].append(ctx["targets"][ctx["index"]])

    def phantom_attach(self, S: State, rng: random.Random, ctx: Ctx, target: int,
                       rest: list[int]) -> None:
        ctx["boarded"] = [target]


class GoodHunting(AssistType):
    """R 3.3.15: a Raider intercepting one merchant takes a second one."""

    name = "good_hunting"

    def attach_offers(self, S: State, ctx: Ctx, c: int, window: str) -> list[Action]:
        if window != "attach" or ctx["kind"] != "interception" or len(ctx["targets"]) != 1 \
                or kind(S, ctx["ship"]) != "raider":
            return []
        free = [
            m
            for m in S["players"][ctx["defender"]]["merchants"]
            if m not in S["this_turn"]["intercepted"]
        ]
        return [{"type": "attach", "card": c, "extra": [m]} for m in free]

    def attach(self, S: State, ctx: Ctx, action: Action) -> None:
        ctx["targets"] += action["extra"]
        S["this_turn"]["intercepted"] += action["extra"]

    def phantom_attach(self, S: State, rng: random.Random, ctx: Ctx, target: int,
                       rest: list[int]) -> None:
        extra = [best(rng, rest)]
        ctx["targets"] += extra
        S["this_turn"]["intercepted"] += extra


class ShippingLanes(GoodHunting):
    """R 3.3.39: a Warship intercepting one merchant takes all the others."""

    name = "shipping_lanes"

    def attach_offers(self, S: State, ctx: Ctx, c: int, window: str) -> list[Action]:
        if window != "attach" or ctx["kind"] != "interception" or len(ctx["targets"]) != 1 \
                or kind(S, ctx["ship"]) != "warship":
            return []
        free = [
            m
            for m in S["players"][ctx["defender"]]["merchants"]
            if m not in S["this_turn"]["intercepted"]
        ]
        return [{"type": "attach", "card": c, "extra": sorted(free)}] if free else []

    def phantom_attach(self, S: State, rng: random.Random, ctx: Ctx, target: int,
                       rest: list[int]) -> None:
        extra = sorted(rest)
        ctx["targets"] += extra
        S["this_turn"]["intercepted"] += extra


class Searchlight(AssistType):
    """R 3.3.36: +3 to an interception at night."""

    name = "searchlight"

    def attach_offers(self, S: State, ctx: Ctx, c: int, window: str) -> list[Action]:
        ok = (
            window == "attach"
            and ctx["kind"] in ("interception", "british")
            and ctx["night"]
            and not ctx["searchlight"]
        )
        return [_attach(c)] if ok else []

    def attach(self, S: State, ctx: Ctx, action: Action) -> None:
        ctx["searchlight"] = True


class SpecialCargo(AssistType):
    """R 3.3.41: the merchant sunk by this attack counts double."""

    name = "special_cargo"

    def attach_offers(self, S: State, ctx: Ctx, c: int, window: str) -> list[Action]:
        ok = (
            window == "attach"
            and ctx["kind"] in ("interception", "mines", "torpedo")
            and not ctx["special_cargo"]
        )
        return [_attach(c)] if ok else []

    def attach(self, S: State, ctx: Ctx, action: Action) -> None:
        ctx["special_cargo"] = True


class SurpriseAttack(AssistType):
    """R 3.3.44: +2 to an interception (6.3.1: +4 for Wolf's seaplane); no escape."""

    name = "surprise_attack"

    def attach_offers(self, S: State, ctx: Ctx, c: int, window: str) -> list[Action]:
        ok = (
            window == "attach"
            and ctx["kind"] in ("interception", "british")
            and not ctx["surprise_attack"]
        )
        return [_attach(c)] if ok else []

    def attach(self, S: State, ctx: Ctx, action: Action) -> None:
        ctx["surprise_attack"] = True

    def phantom_attach(self, S: State, rng: random.Random, ctx: Ctx, target: int,
                       rest: list[int]) -> None:
        ctx["surprise_attack"] = True


ASSIST_CARDS: tuple[AssistType, ...] = (
    BoardingParty(), GoodHunting(), Searchlight(), ShippingLanes(), SpecialCargo(),
    SurpriseAttack(),
)
