"""Helpers for Kaiser's Pirates tests: scripted tables, fixed dice, invariants.

Imported as a module (``from . import helpers as kp``), not handed out by a fixture."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from lantable.plugins import Game
from lantable.plugins.kaisers_pirates import game as G
from lantable.plugins.kaisers_pirates import piles, turn
from lantable.plugins.kaisers_pirates.data import ACTIONS, SHIP_BY_NAME, SHIPS
from lantable.plugins.kaisers_pirates.state import new_status

GAME = Game(G, "kaisers-pirates")


def fairplay_module(name: str) -> ModuleType:
    """``tests/fairplay/<name>.py`` (the fair-play tests' helpers: fair tables over TCP,
    the chi-square check), loaded by its path: this package cannot import outside itself."""
    key = f"lantable_tests_fairplay_{name}"
    if key not in sys.modules:
        path = Path(__file__).resolve().parents[2] / "fairplay" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


class Dice(random.Random):
    """A seeded rng whose ``random()`` first returns scripted die faces, and whose
    card draws may be scripted too.

    ``Dice((10, 4), (8, 6))`` makes the next two dice rolled show 4 on a d10 and 6
    on a d8 (the engine rolls ``int(random() * size) + 1``). Sizes are checked.
    ``turn_over(pile, a, b)`` makes the next two cards drawn from ``pile`` be ``a``
    then ``b`` (see :meth:`turn_over`).
    """

    def __init__(self, *faces: tuple[int, int], seed: int = 1) -> None:
        super().__init__(seed)
        self.queue: list[tuple[int, int]] = list(faces)
        self.picks: list[tuple[int, int]] = []

    def push(self, *faces: tuple[int, int]) -> None:
        self.queue += list(faces)

    def turn_over(self, pile: list[int], *cards: int) -> Dice:
        """Script the next draws from the face-down ``pile`` (as it will be when they
        happen) to turn over ``cards`` in this order: a deck is the set of its cards
        left and a draw picks one with ``randrange(len(pile))`` (``piles.take``),
        so each card becomes its index among the cards still left. Sizes are checked."""
        left = sorted(pile)
        for c in cards:
            self.picks.append((len(left), left.index(c)))
            left.remove(c)
        return self

    def _randbelow(self, n: int) -> int:
        if self.picks:
            size, index = self.picks.pop(0)
            assert size == n, f"a draw from {n} cards, scripted for a pile of {size}"
            return index
        return super()._randbelow(n)

    def getrandbits(self, k: int) -> int:
        # defined so that _randbelow's fallback never consumes scripted faces
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
        S["german_deck"] = sorted(S["german_deck"] + p["german"])
        S["merchant_deck"] = sorted(S["merchant_deck"] + p["merchants"])
        p["german"], p["merchants"] = [], []
        S["action_unseen"] = sorted(S["action_unseen"] + p["hand"])
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
            S["action_unseen"].remove(c)
            S["players"][seat]["hand"].append(c)
    # keep a long deck so nothing ends the round by accident
    S["set_aside_n"] = 0
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


def from_deck(S: dict[str, Any], card: int) -> int:
    """Take Action card ``card`` out of the Action deck (wherever it is) and return it."""
    (S["action_deck_top"] if card in S["action_deck_top"] else S["action_unseen"]).remove(card)
    return card


def on_top(S: dict[str, Any], *cards: int) -> None:
    """Arrange the Action deck's top as ``cards`` (top first), as Intelligence would:
    the only way a test can know the next Action card drawn."""
    for c in cards:
        from_deck(S, c)
    S["action_deck_top"][:0] = list(cards)


def leave_in_deck(S: dict[str, Any], n: int) -> None:
    """Set all but ``n`` of the Action deck's cards aside: the ``n``-th draw ends the round."""
    S["set_aside_n"] += piles.action_left(S) - n


def check_decks(S: dict[str, Any]) -> None:
    """No face-down pile holds an order for its undrawn cards: each is sorted (.piles)."""
    piles = [S["german_deck"], S["merchant_deck"], S["action_unseen"]]
    piles += [S["solo"]["deck"]] if S["solo"] is not None else []
    for pile in piles:
        assert pile == sorted(pile)
    assert 0 <= S["set_aside_n"] <= len(S["action_unseen"])


def check_cards(S: dict[str, Any]) -> None:
    """Every Action card and every ship card is in exactly one place; decks are sets."""
    check_decks(S)
    locs: list[int] = []
    locs += S["action_deck_top"] + S["action_unseen"] + S["discards"]
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
