"""Blackbeard and Pirates of the Spanish Main with hidden decks: the cost over loopback
TCP; prints JSON.

One process runs a host and the bots (ordinary clients over loopback TCP, each its own
connection; tests/fairplay/hiddengames.py) at a fair table with hidden decks (the seats
mask, shuffle and deal; host/fairdecks.py) and, for comparison, at a fair table where
the host deals (the same game option ``hidden_deck``, so the same rules and actions;
only the dealer differs). The modes alternate game by game (seeds 1..N, the same seed
in both modes); medians over the games of each mode of:

- ``cpu_s``: process CPU time of the whole game (host and every bot: one process), the
  number to compare on a loaded machine; ``cpu_ms_per_action`` divides it by the
  actions journalled (games differ in length, so compare per action);
- ``wall_s``: wall time of the game, from the table's creation to the last seat's end;
- ``bytes``: bytes through the bots' and the watcher's sockets, both directions;
- ``actions``: actions journalled; for hidden decks, the deal records journalled;
- ``all_finished``, ``seat_problems``: every game ended, and what the seats' dealing
  clients reported (0 when every deal went right).

Games: ``blackbeard`` (3 random seats, standard game; ``--long`` the long game, whose
second pass is a fresh hidden deck), ``spanish_main`` (2 seats, greedy vs random, 12
rounds: random seats alone never explore, so nothing would be shown), and
``spanish_main_mcts`` (2 seats, mcts vs random over TCP at a hidden-deck table only:
mcts samples states with the game's hidden sampler; its CPU per action is mostly the
search). Kaiser's Pirates is left out: on main it declares no hidden deck.

Usage: python bench/hidden_games.py [--games N] [--only NAME] [--long]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder
from fairplay import CountingStream, _counting_open_tcp_stream  # noqa: E402

from lantable.host.journal import Journal  # noqa: E402
from lantable.plugins import load_registry  # noqa: E402
from tests.fairplay.hiddengames import play_hidden  # noqa: E402 - the TCP harness


def one(registry: Any, spec: dict[str, Any], hidden: bool, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "journal.sqlite")
        CountingStream.total = 0
        t0, c0 = time.perf_counter(), time.process_time()
        game = trio.run(lambda: play_hidden(
            db, spec["seats"], options=spec["options"], registry=registry, game=spec["game"],
            fair={"hidden_decks": hidden}, limit=1800, strategies=spec["strategies"],
            bot_options=spec.get("bot_options"), seed=seed))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        finished = game.host_table.status == "finished"
        problems = sum(len(s.problems) for s in game.seats.values())
        journal = Journal(db)
        try:
            actions = len(journal.actions(game.table))
            kinds: dict[str, int] = {}
            for r in journal.fair_records(game.table):
                kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
        finally:
            journal.close()
    return {"wall_s": wall, "cpu_s": cpu, "actions": actions,
            "cpu_ms_per_action": 1000 * cpu / max(1, actions), "bytes": CountingStream.total,
            "finished": finished, "problems": problems,
            "records": {k: v for k, v in kinds.items() if k.startswith(("deck_", "opened"))}}


def specs(long: bool, mcts_iterations: int) -> dict[str, dict[str, Any]]:
    return {
        "blackbeard": {"game": "blackbeard", "seats": 3, "strategies": ["random"] * 3,
                       "options": {"hidden_deck": True,
                                   "game_length": "long" if long else "standard"}},
        "spanish_main": {"game": "pirates-spanish-main", "seats": 2,
                         "strategies": ["greedy", "random"],
                         "options": {"hidden_deck": True, "max_rounds": 12}},
        "spanish_main_mcts": {"game": "pirates-spanish-main", "seats": 2,
                              "strategies": ["mcts", "random"],
                              "bot_options": {"mcts": {"iterations": mcts_iterations}},
                              "options": {"hidden_deck": True, "max_rounds": 12},
                              "modes": [True]},
    }


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per mode")
    parser.add_argument("--only", choices=["blackbeard", "spanish_main", "spanish_main_mcts"],
                        default=None, help="measure one game only (default: all three)")
    parser.add_argument("--long", action="store_true", help="Blackbeard's long game")
    parser.add_argument("--mcts-iterations", type=int, default=16,
                        help="mcts iterations per decision (spanish_main_mcts)")
    args = parser.parse_args()
    # The client library opens its socket with trio.open_tcp_stream: count its bytes.
    trio.open_tcp_stream = _counting_open_tcp_stream  # type: ignore[assignment]
    registry = load_registry(autoload=True)
    out: dict[str, Any] = {"games_per_mode": args.games}
    for name, spec in specs(args.long, args.mcts_iterations).items():
        if args.only and name != args.only:
            continue
        modes = spec.get("modes", [False, True])
        runs: dict[bool, list[dict[str, Any]]] = {m: [] for m in modes}
        for g in range(args.games):
            for hidden in modes:  # alternating, the same seed in both modes
                runs[hidden].append(one(registry, spec, hidden, g + 1))
        res: dict[str, Any] = {"seats": spec["seats"], "strategies": spec["strategies"],
                               "options": spec["options"]}
        for hidden, rows in runs.items():
            med = {k: round(statistics.median(r[k] for r in rows), 3)
                   for k in ("wall_s", "cpu_s", "cpu_ms_per_action", "actions", "bytes")}
            med["spread_cpu_ms_per_action"] = [round(min(r["cpu_ms_per_action"] for r in rows), 2),
                                               round(max(r["cpu_ms_per_action"] for r in rows), 2)]
            med["all_finished"] = all(r["finished"] for r in rows)
            med["seat_problems"] = sum(r["problems"] for r in rows)
            if hidden:
                med["records"] = rows[len(rows) // 2]["records"]
            res["hidden_decks" if hidden else "host_deals"] = med
        out[name] = res
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
