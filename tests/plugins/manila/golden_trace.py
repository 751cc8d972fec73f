"""A golden trace of Manila: everything the host and its clients see, hashed.

A speed-up of the engine must leave this unchanged. For seeded random games (random
table options too) it hashes, at every decision: the seat to act, its legal actions,
the events of the action taken, the view parts, every seat's view and the spectator's,
what a near-miss action gets (usually refused: the IllegalAction text), and, one
action later, the view parts, views and legal actions handed out before (they are
snapshots: playing on never changes them); at the end, the scores. ``repr`` is hashed,
not msgpack, so a list that became a tuple, or an int that became a bool, shows too.

Run it as a script to hash many games (``--games 200``: about 200 games, 3, 4 and 5
seats); ``tests/plugins/manila/test_speed_reference.py`` hashes a few.
"""

from __future__ import annotations

import argparse
import hashlib
import random
from typing import Any

from lantable.plugins import IllegalAction, load_registry

GAME = load_registry()["manila"]

# Option values the random tables draw from (INFO["options"]; defaults first).
OPTIONS: dict[str, list[Any]] = {
    "pirates_displace": [False, True],
    "mortgage_any_time": [True, False],
    "crew_docked_boats": [True, False],
    "second_pirate_may_board": [True, False],
    "stowaway_rule": ["literal", "broke_no_insurance"],
    "hide_cash": [False, True],
    "tie_break": ["shared", "cash"],
    "min_raise": [1, 2, 5],
}


def table_options(pick: random.Random) -> dict[str, Any]:
    """Defaults half the time; otherwise each option drawn at random."""
    if pick.random() < 0.5:
        return {}
    return {key: pick.choice(values) for key, values in OPTIONS.items()}


def near_miss(legal: list[dict[str, Any]], pick: random.Random) -> dict[str, Any]:
    """An action close to a legal one: one field changed, or another phase's type."""
    action = dict(pick.choice(legal))
    how = pick.randrange(6)
    if how == 0:
        return pick.choice([{"type": "bid", "amount": 3}, {"type": "place", "space": "dock",
                                                            "slot": "A"},
                            {"type": "pilot", "moves": []}, {"type": "stay"},
                            {"type": "mortgage", "good": "jade"},
                            {"type": "redeem", "good": "silk"}, {"type": "bogus"}])
    keys = [k for k in action if k != "type"]
    if not keys:
        return {**action, "type": pick.choice(["decline", "pass", "stay", "no_buy", "send"])}
    key = pick.choice(keys)
    value = action[key]
    if isinstance(value, bool):
        action[key] = not value
    elif isinstance(value, int):
        action[key] = value + pick.choice([-100, -1, 1, 7])
    elif isinstance(value, str):
        action[key] = pick.choice(["nutmeg", "silk", "ginseng", "jade", "A", "C", "D", "boat",
                                   "pirate", "insurance", "pilot_large", "manila", "tea"])
    else:
        action[key] = pick.choice([[], [["jade", 3]], None, [["silk", 1], ["silk", 1]]])
    if how == 5:
        action["stowaway"] = True
    return action


def play(seats: int, seed: int, digest: Any) -> int:
    """Play one seeded game into ``digest`` (a hashlib object); returns its actions."""
    pick = random.Random(f"pick/{seats}/{seed}")
    rng = random.Random(f"dice/{seats}/{seed}")
    state = GAME.setup(seats, table_options(pick), rng)
    handed: tuple[Any, str] | None = None  # what was handed out one decision ago
    actions = 0
    while to_act := GAME.to_act(state):
        actions += 1
        assert actions < 10_000
        seat = to_act[0]
        legal = GAME.legal_actions(state, seat)
        parts = GAME.view_parts(state)
        views = [GAME.view(state, s) for s in (None, *range(seats))]
        now = repr((to_act, legal, parts, views))
        digest.update(now.encode())
        if handed is not None:
            assert repr(handed[0]) == handed[1], "something handed out changed as play went on"
        handed = ((to_act, legal, parts, views), now)
        try:  # on a copy, with dice of its own: the game goes on as if it never happened
            probe = repr(GAME.apply(GAME.clone(state), seat, near_miss(legal, pick),
                                    random.Random(actions)))
        except IllegalAction as exc:
            probe = f"refused: {exc}"
        digest.update(probe.encode())
        events = GAME.apply(state, seat, pick.choice(legal), rng)
        digest.update(repr(events).encode())
    digest.update(repr((GAME.scores(state), GAME.view_parts(state))).encode())
    return actions


def trace(games: int, first_seed: int = 0) -> tuple[str, int]:
    """The sha256 of ``games`` games per seat count (3, 4, 5), and how many actions."""
    digest = hashlib.sha256()
    actions = 0
    for seats in (3, 4, 5):
        for seed in range(first_seed, first_seed + games):
            actions += play(seats, seed, digest)
    return digest.hexdigest(), actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games in all (default: 200)")
    args = parser.parse_args()
    per_count = max(1, args.games // 3)
    digest, actions = trace(per_count)
    print(f"{per_count} games x 3 seat counts, {actions} actions: {digest}")


if __name__ == "__main__":
    main()
