"""Helpers for Blackbeard tests: scripted dice, tables set up by hand, invariants."""

from __future__ import annotations

import random
from typing import Any

from lantable.plugins import Game
from lantable.plugins.blackbeard import flow
from lantable.plugins.blackbeard import game as G
from lantable.plugins.blackbeard.data import CARDS

GAME = Game(G, "blackbeard")


class Dice(random.Random):
    """A seeded rng whose ``randint`` (every die) first returns scripted faces.

    Draws of cards and counters use ``randrange`` and stay seeded-random.
    """

    def __init__(self, *faces: int, seed: int = 1) -> None:
        super().__init__(seed)
        self.queue = list(faces)

    def push(self, *faces: int) -> None:
        self.queue += list(faces)

    def randint(self, a: int, b: int) -> int:
        if self.queue:
            face = self.queue.pop(0)
            assert a <= face <= b, (a, b, face)
            return face
        return super().randint(a, b)


def table(seats: int = 3, seed: int = 0, area: str = "CARIB", **options: Any
          ) -> tuple[dict[str, Any], Dice]:
    """A table past set-up: each seat deployed its first reserve pirate in ``area``;
    the first player is in his main phase with a hand of four non-MPI cards."""
    rng = Dice(seed=seed)
    S = GAME.setup(seats, options or None, rng)
    while S["stack"][-1]["kind"] == "setup":
        seat = S["stack"][-1]["seat"]
        pid = min(p["id"] for p in S["pirates"] if p["owner"] == seat and p["status"] == "reserve")
        GAME.apply(S, seat, {"type": "deploy", "pirate": pid, "area": area}, rng)
    while S["stack"][-1]["kind"] != "main":  # a Pardon or a mutiny at the start: get past it
        seat = GAME.to_act(S)[0]
        GAME.apply(S, seat, GAME.legal_actions(S, seat)[-1], rng)
    return S, rng


def me(S: dict[str, Any]) -> int:
    return S["turn_order"][S["turn_index"]]


def others(S: dict[str, Any]) -> list[int]:
    """The AP players in polling order."""
    n = S["n_players"]
    return [S["turn_order"][(S["turn_index"] + i) % n] for i in range(1, n)]


def pirate(S: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(p for p in S["pirates"] if p["owner"] == seat and p["status"] == "map")


def give(S: dict[str, Any], seat: int, *types: str) -> list[int]:
    """Move one card of each type into ``seat``'s hand (from the deck, the discards or
    another hand) and return their ids."""
    out = []
    for t in types:
        pools = [S["deck"], S["discards"], *(h for s, h in enumerate(S["hands"]) if s != seat)]
        for pool in pools:
            c = next((c for c in pool if CARDS[c] == t), None)
            if c is not None:
                pool.remove(c)
                break
        else:
            raise AssertionError(f"no {t} card left to give")
        S["hands"][seat].append(c)
        out.append(c)
    S["hands"][seat].sort()
    return out


def hand(S: dict[str, Any], seat: int, *types: str) -> list[int]:
    """Replace ``seat``'s hand with exactly these card types (old cards to the deck)."""
    S["deck"].extend(S["hands"][seat])
    S["hands"][seat] = []
    return give(S, seat, *types)


def act(S: dict[str, Any], seat: int, action: dict[str, Any], rng: Dice,
        *faces: int) -> list[dict[str, Any]]:
    rng.push(*faces)
    return GAME.apply(S, seat, action, rng)


def top(S: dict[str, Any]) -> dict[str, Any]:
    return S["stack"][-1]


def pass_window(S: dict[str, Any], rng: Dice) -> list[dict[str, Any]]:
    """Every AP player passes until no AP window is open."""
    ev: list[dict[str, Any]] = []
    while S["stack"] and top(S)["kind"] == "ap_window":
        seat = GAME.to_act(S)[0]
        ev += GAME.apply(S, seat, {"type": "pass"}, rng)
    return ev


def answer(S: dict[str, Any], rng: Dice, kind: str, action: dict[str, Any],
           *faces: int) -> list[dict[str, Any]]:
    assert top(S)["kind"] == kind, top(S)
    return act(S, GAME.to_act(S)[0], action, rng, *faces)


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def conserved(S: dict[str, Any]) -> dict[str, int]:
    return flow.conservation(S)


def add_merchant(S: dict[str, Any], area: str, size: int | None = None,
                 cargo: int | None = None) -> int:
    """Put a face-down merchant from the pool into ``area``; returns its slot."""
    from lantable.plugins.blackbeard.data import MERCHANTS
    mid = next(m for m in S["merchant_pool"] if (size is None or MERCHANTS[m]["size"] == size)
               and (cargo is None or MERCHANTS[m]["cargo"] == cargo))
    S["merchant_pool"].remove(mid)
    slot = S["next_slot"]
    S["next_slot"] += 1
    S["merchants"].append(
        {"slot": slot, "id": mid, "area": area, "face_up": False, "found_by": None}
    )
    return slot


def add_kc(S: dict[str, Any], owner: int, area: str, speed: int | None = None) -> int:
    """Give ``owner`` a KC from the pool in ``area``; returns its id."""
    from lantable.plugins.blackbeard.data import KCS
    kid = next(k for k in S["commissioner_pool"] if speed is None or KCS[k]["speed"] == speed)
    S["commissioner_pool"].remove(kid)
    S["commissioners"].append({"id": kid, "owner": owner, "area": area})
    return kid


def add_warship(S: dict[str, Any], area: str) -> int:
    wid = S["warship_pool"].pop(0)
    slot = S["next_slot"]
    S["next_slot"] += 1
    S["warships"].append({"slot": slot, "id": wid, "area": area})
    return slot


def actions(S: dict[str, Any], n: int) -> None:
    """As if the phasing player had played an Action card worth ``n``."""
    S["this_turn"]["card_played"], S["this_turn"]["actions_left"] = True, n


def place(p: dict[str, Any], area: str, port: int | None = None) -> None:
    p["area"], p["port"] = area, port
