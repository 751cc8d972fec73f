"""Nero's named state (issue 31) against the positional one it replaced: same game, same
speed? An A/B over seeded self-play.

The old plugin is a copy of ``plugins/nero`` from a commit before the rename, laid out as
a package ``nero_old`` in a folder::

    mkdir -p /tmp/ab && git archive e5550ba plugins/nero | tar -x -C /tmp/ab \
        && mv /tmp/ab/plugins/nero /tmp/ab/nero_old

``--check``: both play the same seeded games (a greedy seat and random seats; the plain
game, 3 and 4 seats, and the option-heavy variants); at every step the legal actions,
the events and the scores must be equal, and every view of the old plugin, translated
to the new names (:func:`translate`), must equal the new plugin's view.

``--speed``: CPU time (``time.process_time``) of the same batch of games, old and new
alternating, ``--rounds`` times; prints each figure and the medians.

Usage: python bench/nero_names_ab.py --old /tmp/ab --check --games 20
       python bench/nero_names_ab.py --old /tmp/ab --speed --games 10 --rounds 7
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from typing import Any

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

from lantable.clients.bots import make_bot
from lantable.plugins import Game
from lantable.plugins import nero as new_module

RANK = ["general", "contender", "emperor"]
TOP = {"n": "n_players", "opt": "options", "gt": "game_turn", "auto": "automatic_winner",
       "base": "bases", "empty": "empty_area", "act": "active", "first": "first_player",
       "final": "final_round", "seen": "box_face_up", "germ": "germanic_tribes",
       "used": "cards_used", "once": "once_used", "over": "over", "vp": "vp",
       "setup": "setup", "hand_sizes": "hand_sizes", "box_size": "box_face_down_count",
       "hidden_deck": "hidden_deck", "seat": "seat", "hand": "hand", "cards": "hand_cards"}
ITEM = {"k": "kind", "kind": "about", "keys": "answers", "ask": "seats", "i": "index",
        "prov": "province", "after": "after_battle", "no": "refused", "att": "attacker",
        "def": "defender", "commit": "committed", "frm": "source", "ev": "event",
        "corr": "corruption", "who": "owners"}
KINDS = {"win": "window", "assas": "assassination", "germ": "germanic", "do": "effect"}


def _item(old: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in old.items():
        key = ITEM.get(k, k)
        if k == "from":
            key = "came_from"  # a retreat's
        if k == "at":
            key = "about"  # a Bad Weather or Wounded General effect's
        out[key] = KINDS.get(v, v) if k == "k" else v
    return out


def translate(v: dict[str, Any]) -> dict[str, Any]:
    """An old view under the new names (what the rename promises: nothing else moved)."""
    out = {TOP[k]: val for k, val in v.items() if k in TOP}
    out["legions"] = [{"owner": o, "province": p, "moved": m, "retreat_marker": r}
                      for o, p, m, r in v["L"]]
    out["leaders"] = [{"location": loc, "rank": RANK[rank], "moved": m}
                      for loc, rank, m in v["ldr"]]
    out["attacked"] = [{"province": p, "defender": d} for p, d in v["hit"]]
    mv = v["mv"]
    if mv is not None:
        g = mv["g"]
        if g is not None:
            g = {"legions": g["legs"], "leader": g["ldr"], "at": g["at"],
                 "came_from": g["from"], "battles": g["fat"], "blocked_by": g["block"],
                 "has_entered": g["new"], "picked_up": g["picked"],
                 "passage_asked": g["asked"]}
        mv = {"source": mv["src"], "pool": mv["pool"], "group": g}
    out["movement"] = mv
    out["pending"] = [_item(it) for it in v["pend"]]
    if "pend_own" in v:
        out["own_pending"] = [_item(it) for it in v["pend_own"]]
    return out


def _games(args: argparse.Namespace) -> list[tuple[int, dict[str, Any], int]]:
    variants: list[dict[str, Any]] = [
        {}, {"a20_attack_uncontrolled": True, "a21_tie_scope": "player", "a5_pickup":
             "per_legion", "a6_fatigue_fee": True, "a19_leader_retreats": True,
             "a22_legion_cap": True, "reactions": "all", "a24_revolt": "player"},
        {"short_game": True, "a11_fleet": "entire", "a12_retreat": "no_enemy",
         "a15_germanic": "extra", "a2_assassin_corruption": "strict", "a3_two_emperors":
         "contender", "tie_break": "areas_legions", "a14_empty_area": "exclude"}]
    out = []
    for g in range(args.games):
        out.append((3 + g % 2, variants[g % len(variants)] if args.check else {},
                    args.seed + g))
    return out


def play(game: Game, seats: int, options: dict[str, Any], seed: int,
         record: list[Any] | None) -> None:
    rng = random.Random(seed)
    bot_rng = random.Random(seed + 1)
    bots = [make_bot("greedy" if s == 0 else "random", game) for s in range(seats)]
    state = game.setup(seats, {**game.options(), **options}, rng)
    while game.to_act(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        action = bots[seat].choose(view, seat, legal, bot_rng)
        events = game.apply(state, seat, action, rng)
        if record is not None:
            record.append((seat, legal, events, game.view(state, seat),
                           game.view(state, None)))
    if record is not None:
        record.append(game.scores(state))


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--old", required=True, help="folder holding the package nero_old")
    parser.add_argument("--check", action="store_true",
                        help="check that both versions play the same games")
    parser.add_argument("--speed", action="store_true", help="time both versions")
    parser.add_argument("--games", type=int, default=10, help="games per check or timing")
    parser.add_argument("--rounds", type=int, default=7, help="timing rounds")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args()
    sys.path.insert(0, args.old)
    old = Game(importlib.import_module("nero_old"), "nero")
    new = Game(new_module, "nero")
    if args.check:
        steps = 0
        for seats, options, seed in _games(args):
            a: list[Any] = []
            b: list[Any] = []
            play(old, seats, options, seed, a)
            play(new, seats, options, seed, b)
            assert len(a) == len(b), (seed, len(a), len(b))
            assert a[-1] == b[-1], (seed, "scores")
            for i, (x, y) in enumerate(zip(a[:-1], b[:-1], strict=True)):
                assert x[:3] == y[:3], (seed, i, "actions or events differ")
                assert translate(x[3]) == y[3], (seed, i, "seat view")
                assert translate(x[4]) == y[4], (seed, i, "public view")
            steps += len(a) - 1
        print(f"{args.games} games, {steps} steps: actions, events, scores equal; "
              "views equal once translated")
    if args.speed:
        figures: dict[str, list[float]] = {"old": [], "new": []}
        for _ in range(args.rounds):
            for name, game in (("old", old), ("new", new)):
                t = time.process_time()
                for seats, options, seed in _games(args):
                    play(game, seats, options, seed, None)
                figures[name].append(time.process_time() - t)
                print(name, f"{figures[name][-1]:.2f} s", flush=True)
        med = {k: statistics.median(v) for k, v in figures.items()}
        print(f"median CPU s for {args.games} games: old {med['old']:.2f}, "
              f"new {med['new']:.2f} ({(med['new'] / med['old'] - 1) * 100:+.1f}%)")


if __name__ == "__main__":
    main()
