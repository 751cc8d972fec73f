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

from .state import State

# Public state keys copied as they are (deep-copied: views are snapshots).
PUBLIC = ("n_players", "options", "turn_order", "turn_index", "player_turns", "discards",
          "removed", "held_pardons", "deck_pass", "general_pardons", "pirates", "pirate_deck",
          "next_slot", "hostage_pool", "dead_hostages", "warship_pool", "warships",
          "commissioner_pool", "commissioners", "commissioners_out", "governors",
          "anti_governor_pool", "ap_vp", "ap_vp_ledger", "this_turn", "stack", "over",
          "end_reason")


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of plain data (pickle is several times faster than ``copy.deepcopy``)."""
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))


def view(S: State, seat: int | None) -> dict[str, Any]:
    v: dict[str, Any] = _copy({k: S[k] for k in PUBLIC})
    v["deck_size"] = len(S["deck"])
    v["merchant_pool_size"] = len(S["merchant_pool"])
    v["hand_sizes"] = [len(h) for h in S["hands"]]
    v["merchants"] = [{"slot": m["slot"], "area": m["area"], "face_up": m["face_up"],
                       "found_by": m["found_by"], "id": m["id"] if m["face_up"] else None}
                      for m in S["merchants"]]
    if "hidden" in S:  # hidden decks (hidden.py): hands and merchants hold positions
        v["hidden_deck"] = True
        if S["hidden"].get("pass2"):  # the long game's second pass: its deck and cards
            p2 = S["hidden"]["pass2"]
            v["pass2"] = {"deck": p2["deck"], "cards": list(p2["cards"]),
                          "left": sum(c >= len(CARDS) for c in S["deck"])}
    if seat is not None:
        v["seat"] = seat
        v["hand"] = list(S["hands"][seat])
        if "hidden" in S:  # the seat's cards, where the host deals and so knows them
            held = {str(c - len(CARDS)) for c in S["hands"][seat]}
            v["hand_cards"] = {p: c for p, c in S["hidden"]["known"][seat].items()
                               if p in held}
    return v


def sample(v: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full state consistent with ``v``: unseen cards dealt at random to the other
    hands and the deck; face-down merchants drawn at random from the unseen ones."""
    S: State = _copy({k: v[k] for k in PUBLIC})
    seen = set(v["hand"]) | set(v["discards"]) | set(v["removed"]) | set(v["held_pardons"])
    seen |= {c for p in v["pirates"] for c in p["heavy_guns"]}
    unseen = [c for c in range(len(CARDS)) if c not in seen]
    rng.shuffle(unseen)
    hands = []
    for s, n in enumerate(v["hand_sizes"]):
        if s == seat:
            hands.append(list(v["hand"]))
        else:
            hands.append(sorted(unseen[:n]))
            unseen = unseen[n:]
    S["hands"], S["deck"] = hands, sorted(unseen)
    up = {m["id"] for m in v["merchants"] if m["face_up"]}
    hidden = [i for i in range(len(MERCHANTS)) if i not in up]
    rng.shuffle(hidden)
    S["merchants"] = []
    for m in v["merchants"]:
        mid = m["id"] if m["face_up"] else hidden.pop()
        S["merchants"].append({"slot": m["slot"], "id": mid, "area": m["area"],
                               "face_up": m["face_up"], "found_by": m["found_by"]})
    S["merchant_pool"] = sorted(hidden)
    return S
