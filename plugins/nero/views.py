"""What each seat may know (views), and worlds consistent with it (sampling).

Secret: each hand, the cards of a battle commitment until both sides are in (R 6.3),
the face-down discards and the undealt cards (R 2.5, 4.2). Everything else is public:
the map, ranks, VP, the cards played face up, and every pending decision (who is asked
what). Views are built from an allow-list, never by deleting secrets from a copy.

A view holds the state's public keys under the state's names (:mod:`.state`), plus:
``hand_sizes`` and ``box_face_down_count`` (what is known of the hidden cards),
``pending`` (the stack, battle commitments shown as counts) and, with a hidden deck,
``hidden_deck``; a seat's view adds ``seat``, ``hand`` and ``own_pending`` (the stack
with its own commitment shown), and with a hidden deck dealt by the host,
``hand_cards``. Every key is described in ``docs/games/nero.md``.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from . import hands as H
from .data import NCARDS
from .state import Item, State

PUBLIC = ("n_players", "options", "setup", "game_turn", "over", "automatic_winner", "bases",
          "empty_area", "active", "first_player", "final_round", "vp", "legions", "leaders",
          "germanic_tribes", "cards_used", "once_used", "attacked", "movement", "box_face_up")


def _pending_seen(pending: list[Item], seat: int | None) -> list[Item]:
    """The stack as ``seat`` sees it: others' battle cards as a count (R 6.3)."""
    out = []
    for item in pending:
        item = copy.deepcopy(item)
        if item["kind"] == "battle":
            item["committed"] = {s: (cards if s == str(seat) else len(cards))
                                 for s, cards in item["committed"].items()}
        out.append(item)
    return out


def copy_public(S: State) -> dict[str, Any]:
    """The public keys of ``S``, copied record by record (flat records: a dict copy each,
    faster than a pickle round trip of the whole)."""
    movement = S["movement"]
    if movement is not None:
        group = movement["group"]
        if group is not None:
            group = {**group, "legions": list(group["legions"]),
                     "blocked_by": list(group["blocked_by"]),
                     "picked_up": list(group["picked_up"])}
        movement = {**movement, "group": group}
    return {
        "n_players": S["n_players"], "options": dict(S["options"]), "setup": S["setup"],
        "game_turn": S["game_turn"], "over": S["over"],
        "automatic_winner": S["automatic_winner"], "bases": list(S["bases"]),
        "empty_area": S["empty_area"], "active": S["active"],
        "first_player": S["first_player"], "final_round": S["final_round"],
        "vp": list(S["vp"]), "legions": [lg.copy() for lg in S["legions"]],
        "leaders": [ld.copy() for ld in S["leaders"]],
        "germanic_tribes": list(S["germanic_tribes"]), "cards_used": S["cards_used"],
        "once_used": list(S["once_used"]), "attacked": [a.copy() for a in S["attacked"]],
        "movement": movement, "box_face_up": list(S["box_face_up"]),
    }


def public(S: State) -> dict[str, Any]:
    v = copy_public(S)
    v["hand_sizes"] = [len(h) for h in S["hands"]]
    v["box_face_down_count"] = len(S["box_face_down"])
    v["pending"] = _pending_seen(S["pending"], None)
    if "hidden" in S:  # a hidden deck (plugins/nero/hidden.py): hands hold positions
        v["hidden_deck"] = True
    return v


def own(S: State, seat: int) -> dict[str, Any]:
    out = {"seat": seat, "hand": list(S["hands"][seat]),
           "own_pending": _pending_seen(S["pending"], seat)}
    if "hidden" in S:  # the seat's cards, where the host deals and so knows them
        out["hand_cards"] = {p: c for p, c in S["hidden"]["known"][seat].items()
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
    S = copy_public(v)
    known = set(v["hand"]) | set(v["box_face_up"])
    pending = copy.deepcopy(v["own_pending"])
    for item in pending:
        if item["kind"] == "battle":
            known |= {c for s, cs in item["committed"].items() if s == str(seat) for c in cs}
    pool = [c for c in range(NCARDS) if c not in known]
    rng.shuffle(pool)
    hands = []
    for s, size in enumerate(v["hand_sizes"]):
        if s == seat:
            hands.append(list(v["hand"]))
        else:
            hands.append(sorted(pool[:size]))
            del pool[:size]
    for item in pending:
        if item["kind"] == "battle":
            for s, cs in list(item["committed"].items()):
                if s != str(seat):
                    item["committed"][s] = sorted(pool[:cs])
                    del pool[:cs]
    S["hands"] = hands
    S["box_face_down"] = sorted(pool[:v["box_face_down_count"]])
    S["pending"] = pending
    return S
