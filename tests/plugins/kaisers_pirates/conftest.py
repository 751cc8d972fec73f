"""Helpers for Kaiser's Pirates tests: scripted tables, fixed dice, invariants."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lantable.plugins import Game
from lantable.plugins.kaisers_pirates import game as G
from lantable.plugins.kaisers_pirates import turn
from lantable.plugins.kaisers_pirates.data import ACTIONS, SHIP_BY_NAME, SHIPS
from lantable.plugins.kaisers_pirates.state import new_status

GAME = Game(G, "kaisers-pirates")


class Dice(random.Random):
    """A seeded rng whose ``random()`` first returns scripted die faces.

    ``Dice((10, 4), (8, 6))`` makes the next two dice rolled show 4 on a d10 and 6
    on a d8 (the engine rolls ``int(random() * size) + 1``). Sizes are checked.
    """

    def __init__(self, *faces: tuple[int, int], seed: int = 1) -> None:
        super().__init__(seed)
        self.queue: list[tuple[int, int]] = list(faces)

    def push(self, *faces: tuple[int, int]) -> None:
        self.queue += list(faces)

    def getrandbits(self, k: int) -> int:
        # defined so that shuffles (via _randbelow) never consume scripted faces
        return super().getrandbits(k)

    def random(self) -> float:
        if self.queue:
            size, face = self.queue.pop(0)
            assert 1 <= face <= size
            return (face - 0.5) / size
        return super().random()


def sid(name: str) -> int:
    return SHIP_BY_NAME[name]


def cards_of(t: str) -> list[int]:
    return [c["id"] for c in ACTIONS if c["type"] == t]


def table(seats: int = 3, forces: dict[int, dict[str, list[str]]] | None = None,
          hands: dict[int, list[Any]] | None = None, options: dict[str, Any] | None = None,
          seed: int = 0, turn_seat: int = 0) -> dict[str, Any]:
    """A game in round 1 rearranged to a scripted position, seat ``turn_seat`` to commit.

    ``forces[seat]`` names ``ger`` and ``mer`` ships (others get none unless given);
    ``hands[seat]`` lists card types (first free copy) or card ids.
    """
    S = GAME.setup(seats, options or {}, random.Random(seed))
    forces = forces or {}
    hands = hands or {}
    for p in S["players"]:
        for s in p["german"]:
            S["german_deck"].append(s)
        for s in p["merchants"]:
            S["merchant_deck"].append(s)
        p["german"], p["merchants"] = [], []
        S["action_deck"] += p["hand"]
        p["hand"] = []
    S["ships"] = [None] * len(SHIPS)
    for seat, f in forces.items():
        if seat >= S["n_players"]:
            continue
        for name in f.get("ger", []) + f.get("mer", []):
            s = sid(name)
            for deck in ("german_deck", "merchant_deck"):
                if s in S[deck]:
                    S[deck].remove(s)
            S["ships"][s] = new_status(seat)
            (S["players"][seat]["german"] if s < 20 else S["players"][seat]["merchants"]).append(s)
    taken: set[int] = set()
    for seat, hs in hands.items():
        for h in hs:
            c = h if isinstance(h, int) else next(x for x in cards_of(h) if x not in taken)
            taken.add(c)
            for pile in ("action_deck", "set_aside"):
                if c in S[pile]:
                    S[pile].remove(c)
            S["players"][seat]["hand"].append(c)
    # keep a long deck so nothing ends the round by accident
    S["action_deck"] += S["set_aside"]
    S["set_aside"] = []
    turn.new_turn(S, turn_seat)
    S["pending"] = None
    S["stack"] = []
    turn.advance(S, random.Random(seed), [])
    return S


def act(S: dict[str, Any], action: dict[str, Any], rng: random.Random | None = None,
        seat: int | None = None) -> list[dict[str, Any]]:
    """Apply ``action`` for the seat to act (must be legal)."""
    seat = GAME.to_act(S)[0] if seat is None else seat
    legal = GAME.legal_actions(S, seat)
    assert action in legal, (action, legal[:12])
    return GAME.apply(S, seat, action, rng or random.Random(0))


def commit(S: dict[str, Any], card: int, use: str, ship: int | None = None) -> None:
    a = {"type": "commit", "card": card, "use": use}
    if ship is not None:
        a["ship"] = ship
    act(S, a)


def check_cards(S: dict[str, Any]) -> None:
    """Every Action card and every ship card is in exactly one place."""
    locs: list[int] = []
    locs += S["action_deck"] + S["discards"] + S["set_aside"]
    for p in S["players"]:
        locs += p["hand"]
        if p["wait"] and p["wait"]["card"] is not None:
            locs.append(p["wait"]["card"])
        locs += [e["card"] for e in p["vp_pile"] if "card" in e]
    locs += [
        st["refuge"] for st in S["ships"] if st and st["refuge"] is not None and st["refuge"] >= 0
    ]
    if S["this_turn"]:
        locs += [e["card"] for e in S["this_turn"]["committed"]] + [
            c for _s, c in S["this_turn"]["reactions"]
        ]
    assert sorted(locs) == sorted(S["action_cards"])
    ships: list[int] = (
        S["german_deck"]
        + S["german_used"]
        + S["merchant_deck"]
        + S["merchant_used"]
        + S["removed_ships"]
    )
    for i, p in enumerate(S["players"]):
        for s in p["german"] + p["merchants"]:
            assert S["ships"][s]["owner"] == i
        ships += p["german"] + p["merchants"] + [e["ship"] for e in p["vp_pile"] if "ship" in e]
    assert sorted(ships) == list(range(len(SHIPS)))
    in_play = {s for p in S["players"] for s in p["german"] + p["merchants"]}
    assert {s for s in range(len(SHIPS)) if S["ships"][s] is not None} == in_play


def of(events: list[dict[str, Any]], t: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == t]


@pytest.fixture
def kp() -> Any:
    class _K:
        pass

    k = _K()
    for name, fn in {"Dice": Dice, "sid": sid, "cards_of": cards_of, "table": table,
                     "act": act, "commit": commit, "check_cards": check_cards, "of": of,
                     "GAME": GAME}.items():
        setattr(k, name, fn)
    return k
