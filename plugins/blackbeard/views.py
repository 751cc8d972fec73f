"""Views (allow-list) and ``game_sample_state`` for Blackbeard.

Hidden information (BB-S): the Event cards in each hand, the deck (drawn at random,
so only its size is known) and the identity of face-down merchants and of the
merchant pool. Everything else is on the table: Pirate Displays, counters, the
discard pile, the AP VP ledger and every procedure in progress.
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any

from .data import CARDS, MERCHANTS

if TYPE_CHECKING:
    import random

State = dict[str, Any]
# Public state keys copied as they are (deep-copied: views are snapshots).
PUBLIC = ("n", "opt", "order", "turn", "turn_no", "disc", "gone", "held_pardons", "pass_no",
          "pardons", "pir", "pdeck", "next_slot", "hpool", "dead_hostages", "wpool", "ws",
          "kpool", "kc", "kc_out", "gov", "anti_pool", "vp", "ledger", "T", "stack", "over",
          "end_why")


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of plain data (pickle is several times faster than ``copy.deepcopy``)."""
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))


def view(S: State, seat: int | None) -> dict[str, Any]:
    v: dict[str, Any] = _copy({k: S[k] for k in PUBLIC})
    v["deck_n"] = len(S["deck"])
    v["mpool_n"] = len(S["mpool"])
    v["hand_n"] = [len(h) for h in S["hands"]]
    v["mer"] = [{"slot": m["slot"], "area": m["area"], "up": m["up"], "found": m["found"],
                 "id": m["id"] if m["up"] else None} for m in S["mer"]]
    if seat is not None:
        v["seat"] = seat
        v["hand"] = list(S["hands"][seat])
    return v


def sample(v: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full state consistent with ``v``: unseen cards dealt at random to the other
    hands and the deck; face-down merchants drawn at random from the unseen ones."""
    S: State = _copy({k: v[k] for k in PUBLIC})
    seen = set(v["hand"]) | set(v["disc"]) | set(v["gone"]) | set(v["held_pardons"])
    seen |= {c for p in v["pir"] for c in p["hg"]}
    unseen = [c for c in range(len(CARDS)) if c not in seen]
    rng.shuffle(unseen)
    hands = []
    for s, n in enumerate(v["hand_n"]):
        if s == seat:
            hands.append(list(v["hand"]))
        else:
            hands.append(sorted(unseen[:n]))
            unseen = unseen[n:]
    S["hands"], S["deck"] = hands, sorted(unseen)
    up = {m["id"] for m in v["mer"] if m["up"]}
    hidden = [i for i in range(len(MERCHANTS)) if i not in up]
    rng.shuffle(hidden)
    S["mer"] = []
    for m in v["mer"]:
        mid = m["id"] if m["up"] else hidden.pop()
        S["mer"].append({"slot": m["slot"], "id": mid, "area": m["area"], "up": m["up"],
                         "found": m["found"]})
    S["mpool"] = sorted(hidden)
    return S
