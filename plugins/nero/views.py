"""What each seat may know (views), and worlds consistent with it (sampling).

Secret: each hand, the cards of a battle commitment until both sides are in (R 6.3),
the face-down discards and the undealt cards (R 2.5, 4.2). Everything else is public:
the map, ranks, VP, the cards played face up, and every pending decision (who is asked
what). Views are built from an allow-list, never by deleting secrets from a copy.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

from . import hands as H

State = dict[str, Any]

_PUBLIC = ("n", "opt", "gt", "over", "auto", "base", "empty", "act", "first", "final", "vp",
           "L", "ldr", "germ", "used", "once", "hit", "mv", "seen", "setup")


def _pend_public(pend: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    out = []
    for item in pend:
        item = copy.deepcopy(item)
        if item["k"] == "battle":
            item["commit"] = {s: (cards if s == str(seat) else len(cards))
                              for s, cards in item["commit"].items()}
        out.append(item)
    return out


def public(S: State) -> dict[str, Any]:
    v = pickle.loads(pickle.dumps({k: S[k] for k in _PUBLIC}, pickle.HIGHEST_PROTOCOL))
    v["hand_sizes"] = [len(h) for h in S["hands"]]
    v["box_size"] = len(S["box"])
    v["pend"] = _pend_public(S["pend"], None)
    if "hid" in S:  # a hidden deck (plugins/nero/hidden.py): hands hold positions
        v["hidden_deck"] = True
    return v


def own(S: State, seat: int) -> dict[str, Any]:
    out = {"seat": seat, "hand": list(S["hands"][seat]),
           "pend_own": _pend_public(S["pend"], seat)}
    if "hid" in S:  # the seat's cards, where the host deals and so knows them
        out["cards"] = {p: c for p, c in S["hid"]["known"][seat].items()
                        if H.MASKED + int(p) in S["hands"][seat]}
    return out


def view(S: State, seat: int | None) -> dict[str, Any]:
    v = public(S)
    if seat is not None:
        v.update(own(S, seat))
    return v


def sample(v: dict[str, Any], seat: int, rng: random.Random) -> State:
    """Deal the cards ``seat`` cannot see (other hands, others' committed battle cards,
    the face-down box) at random from the cards it has not seen, keeping every count."""
    S = pickle.loads(pickle.dumps({k: v[k] for k in _PUBLIC}, pickle.HIGHEST_PROTOCOL))
    known = set(v["hand"]) | set(v["seen"])
    pend = copy.deepcopy(v["pend_own"])
    for item in pend:
        if item["k"] == "battle":
            known |= {c for s, cs in item["commit"].items() if s == str(seat) for c in cs}
    from .data import NCARDS
    pool = [c for c in range(NCARDS) if c not in known]
    rng.shuffle(pool)
    hands = []
    for s, size in enumerate(v["hand_sizes"]):
        if s == seat:
            hands.append(list(v["hand"]))
        else:
            hands.append(sorted(pool[:size]))
            del pool[:size]
    for item in pend:
        if item["k"] == "battle":
            for s, cs in list(item["commit"].items()):
                if s != str(seat):
                    item["commit"][s] = sorted(pool[:cs])
                    del pool[:cs]
    S["hands"] = hands
    S["box"] = sorted(pool[:v["box_size"]])
    S["pend"] = pend
    return S
