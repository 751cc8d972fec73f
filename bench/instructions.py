"""Instructions per host call of one game, counted by valgrind; prints JSON.

CPU time on a shared machine moves with the load; instruction counts do not. This
plays the same seeded random games as ``bench/engine.py --per-call`` (the positions of
``--games`` games per seat count, kept as clones), then runs one call over all of
them under valgrind's cachegrind: ``to_act``, ``legal_actions``, ``apply`` (on fresh
clones) or ``view_parts`` (the views of every seat and a spectator for a game without
``game_view_parts``). A run that makes no call is subtracted, so what is left is the
call's own instructions, divided by the positions. Runs are deterministic (the hash
seed is fixed), so one run per call is enough; compare two commits with it. Needs
``valgrind`` on the PATH; each run takes about ten seconds.

Usage: python bench/instructions.py [--game ID] [--games N] [--seats N ...]
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from typing import Any

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

CALLS = ("none", "to_act", "legal_actions", "apply", "view_parts")


def positions(game: Any, seats_list: list[int], games: int) -> list[tuple[Any, int, Any, int]]:
    """(position, seat to act, the action taken, seats at the table) of every decision."""
    kept = []
    for seats in seats_list:
        for g in range(games):
            rng = random.Random(1_000_003 + g)  # bench/engine.py's seed 1
            state = game.setup(seats, None, rng)
            while (to_act := game.to_act(state)) and len(kept) < 1_000_000:
                seat = to_act[0]
                action = rng.choice(game.concrete_actions(state, seat))
                kept.append((game.clone(state), seat, action, seats))
                game.apply(state, seat, action, rng)
    return kept


def inner(game_id: str, seats: list[int], games: int, call: str) -> None:
    """Under valgrind: build the positions, make ``call`` at each, print their count."""
    from lantable.plugins import load_registry

    game = load_registry()[game_id]
    kept = positions(game, seats, games)
    fresh = [(game.clone(p), s, a) for p, s, a, _ in kept]  # made in every run, for apply
    dice = random.Random(1)
    if call == "to_act":
        for p, _, _, _ in kept:
            game.to_act(p)
    elif call == "legal_actions":
        for p, s, _, _ in kept:
            game.legal_actions(p, s)
    elif call == "apply":
        for p, s, a in fresh:
            game.apply(p, s, a, dice)
    elif call == "view_parts" and game.has_view_parts:
        for p, _, _, _ in kept:
            game.view_parts(p)
    elif call == "view_parts":
        for p, _, _, n in kept:
            for s in (None, *range(n)):
                game.view(p, s)
    print(len(kept))


def counted(args: Any, call: str) -> tuple[int, int]:
    """(instructions, positions) of one run under cachegrind."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "--game", args.game, "--games", str(args.games),
           "--seats", *map(str, args.seats), "--inner", call]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if proc.returncode != 0 or found is None:
        raise SystemExit(f"valgrind run for {call} failed: {proc.stderr[-1500:]}")
    return int(found.group(1).replace(",", "")), int(proc.stdout.split()[-1])


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--game", default="manila", help="the game id")
    parser.add_argument("--games", type=int, default=3, help="games per seat count")
    parser.add_argument("--seats", type=int, nargs="+", default=[3, 4, 5],
                        help="seat counts played")
    parser.add_argument("--inner", choices=CALLS, default=None,
                        help="(used by the script itself) the call to make under valgrind")
    args = parser.parse_args()
    if args.inner is not None:
        return inner(args.game, args.seats, args.games, args.inner)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    base, count = counted(args, "none")
    report: dict[str, Any] = {"bench": "instructions", "game": args.game, "games": args.games,
                              "seats": args.seats, "positions": count,
                              "instructions_per_call": {}}
    for call in CALLS[1:]:
        total, _ = counted(args, call)
        report["instructions_per_call"][call] = round((total - base) / max(count, 1))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
