"""``lantable tournament``: bots against bots with seats rotated, ratings, plots.

Needs the optional extra ``[rl]`` (openskill, matplotlib; dask for ``--scheduler``);
without it the command says so in one line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import CliError
from .common import add_command, option, print_json, registry_game


def add_tournament(sub: Any) -> None:
    p = add_command(
        sub, "tournament", "rate bots against each other over many seeded games",
        "Play every entrant against every other over many seeds, with seats rotated so "
        "that each entrant sits at each seat equally often and every lineup of a block "
        "plays the same deal. Results are journalled as they arrive (run it again to go "
        "on after Ctrl-C); ratings are openskill's Plackett-Luce with 95%% intervals. "
        "Writes report.html and the plots (PNG, SVG) to --out. Games run on every core, "
        "or on a Dask cluster (--scheduler).",
        "lantable tournament --game manila --seats 3 random greedy mcts:iterations=60 "
        "--blocks 10 --out manila-rating")
    p.add_argument("entrants", nargs="+", metavar="ENTRANT",
                   help="random, greedy or mcts, with :key=value settings "
                        "(mcts:iterations=200, :name=NAME to name it), or a Python bot "
                        "factory module:function")
    p.add_argument("--game", action="append", required=True, dest="games",
                   help="a game id (repeat for several games)")
    p.add_argument("--seats", action="append", type=int,
                   help="seat count (repeat for several; default: each game's smallest "
                        "above 1)")
    p.add_argument("--blocks", type=int, default=10,
                   help="seeds per game and seat count; each seed plays every lineup")
    p.add_argument("--seed", type=int, default=0, help="the first seed")
    p.add_argument("--option", action="append", type=option, default=[], metavar="GAME.K=V",
                   help="a table option for one game, e.g. manila.rounds=2")
    p.add_argument("--out", default="tournament", help="folder for the journal and report")
    p.add_argument("--jobs", type=int, help="local processes (default: every core)")
    p.add_argument("--scheduler", metavar="tcp://HOST:8786",
                   help="run the games on a Dask distributed cluster")
    p.add_argument("--batch", type=int, default=4, help="games per task")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    try:
        from lantable.rl import tournament as t
    except ImportError as exc:
        raise CliError(f"the tournament needs the [rl] extra ({exc.name} is missing): "
                       f"pip install 'lantable[rl]'") from None
    games = [registry_game(g).id for g in args.games]
    try:
        entrants = [t.parse_entrant(e) for e in args.entrants]
    except ValueError as exc:
        raise CliError(str(exc)) from None
    seats = args.seats or sorted({max(2, registry_game(g).info["min_seats"]) for g in games})
    options: dict[str, dict[str, Any]] = {}
    for key, value in args.option:
        game, dot, name = key.partition(".")
        if not dot or game not in games:
            raise CliError(f"--option {key}: write GAME.KEY=VALUE for one of {games}")
        options.setdefault(game, {})[name] = value
    for g in games:
        registry_game(g).options(options.get(g))  # a bad option is one line, now
        info = registry_game(g).info
        for n in seats:
            if not info["min_seats"] <= n <= info["max_seats"]:
                raise CliError(f"{g} seats {info['min_seats']} to {info['max_seats']}, "
                               f"not {n}")
    try:
        t.check_entrants(entrants, games)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    journal = t.Journal(out / "results.jsonl")
    tour = t.Tournament(games, seats, entrants, args.blocks, args.seed, options)
    total = len(tour.matches())
    already = len(journal.done & {m.key for m in tour.matches()})
    if already and not args.json:
        print(f"{already} of {total} games already in {journal.path}: playing the rest")
    if args.json:
        tour.play(journal, jobs=args.jobs, scheduler=args.scheduler, batch=args.batch)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeRemainingColumn(), transient=False) as bar:
            task = bar.add_task("games", total=total)
            tour.play(journal, jobs=args.jobs, scheduler=args.scheduler, batch=args.batch,
                      progress=lambda done, _total: bar.update(task, completed=done))
    keys = {m.key for m in tour.matches()}
    results = [r for r in journal.results if t._key(r) in keys]
    names = [e.name for e in entrants]
    data = t.summary(results, names)
    page = t.write_report(data, names, out)
    if args.json:
        print_json({k: v for k, v in data.items()} | {"report": str(page)})
        return 0
    rated = data["overall"]["ratings"]
    print(f"{data['games']} games" + (f", {data['error_count']} failed (see the journal)"
                                      if data["error_count"] else ""))
    width = max(len(n) for n in names)
    for n in sorted(names, key=lambda n: -rated[n]["mu"]):
        print(f"  {n:<{width}}  rating {rated[n]['mu']:6.2f}  "
              f"(95% {rated[n]['low']:.2f} to {rated[n]['high']:.2f})  "
              f"won {data['overall']['win_rate'][n]:.1%}")
    print(f"report: {page}", file=sys.stderr if args.json else sys.stdout)
    return 0
