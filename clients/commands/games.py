"""``lantable games``, ``simulate`` and ``check``: the installed games, no network."""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from pathlib import Path
from typing import Any

from ..bots import STRATEGIES
from ..errors import CliError
from .common import add_command, check_strategy, installed, option, print_json, registry_game


def add_games(sub: Any) -> None:
    p = add_command(sub, "games", "list installed games, seats and options",
                    "List the installed games with their seats and options, written as "
                    "--option takes them.", "lantable games")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_games)


def cmd_games(args: argparse.Namespace) -> int:
    registry = installed()
    infos = [g.info for g in registry.games.values()]
    if args.json:
        print_json({"games": infos, "errors": [str(e) for e in registry.errors]})
        return 0
    for info in infos:
        seats = f"{info['min_seats']}-{info['max_seats']} seats"
        print(f"{info['id']:18} {info['title']}  ({seats}, v{info['version']})")
        for key, spec in info["options"].items():
            print(f"    --option {key}={_option_text(spec['default'])}{_range_text(spec)}")
            if spec.get("help"):
                print(f"        {spec['help']}")
    for err in registry.errors:
        print(f"not loaded: {err}", file=sys.stderr)
    from lantable.plugins.conformance import export_warnings

    for game in registry.games.values():
        for warning in export_warnings(game):
            print(f"warning: {warning}", file=sys.stderr)
    return 0


def _range_text(spec: dict[str, Any]) -> str:
    """What an option takes, after its default: its choices, or its range (``min``,
    ``max``), or its kind."""
    if "choices" in spec:
        return f"  (one of: {', '.join(_option_text(c) for c in spec['choices'])})"
    lo, hi = spec.get("min"), spec.get("max")
    kind = type(spec["default"]).__name__
    kinds = {"int": "a whole number", "float": "a number", "bool": "true or false",
             "str": "text"}
    if lo is not None and hi is not None:
        return f"  ({kinds.get(kind, kind)} from {lo} to {hi})"
    if lo is not None:
        return f"  ({kinds.get(kind, kind)}, at least {lo})"
    if hi is not None:
        return f"  ({kinds.get(kind, kind)}, at most {hi})"
    return f"  ({kinds[kind]})" if kind in kinds else ""


def _option_text(value: Any) -> str:
    """A value as ``--option KEY=VALUE`` takes it: strings bare, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def add_simulate(sub: Any) -> None:
    p = add_command(sub, "simulate", "in-process self-play, no network",
                    "Play many games in this process, with no network, and report speed and "
                    "win rates.", "lantable simulate manila --players 4 --games 20 "
                    "--strategy greedy")
    p.add_argument("game", help="the game id")
    p.add_argument("--games", type=int, default=100, help="how many games")
    p.add_argument("--players", type=int, required=True, help="seats per game")
    p.add_argument("--strategy", default="random",
                   help="a strategy, or a comma list by seat (e.g. mcts,random,random,random)")
    p.add_argument("--budget", type=float, default=None,
                   help="mcts seconds per decision (default: the bot's own, 0.1)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed")
    p.add_argument("--option", type=option, action="append", default=[], metavar="K=V",
                   help="a game option (repeatable)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..selfplay import simulate

    game = registry_game(args.game)
    strategies = args.strategy.split(",")
    for strategy in strategies:
        if strategy not in STRATEGIES:
            raise CliError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
        check_strategy(game, strategy)
    lo, hi = game.info["min_seats"], game.info["max_seats"]
    if not lo <= args.players <= hi:
        raise CliError(f"{game.id} takes {lo}-{hi} players, not {args.players}")
    bot_options = {"time_budget": args.budget} if args.budget else {}
    result = simulate(game, games=args.games, players=args.players, strategies=strategies,
                      seed=args.seed, options=dict(args.option), bot_options=bot_options)
    report = result.report(game, args.players, strategies, args.seed)
    if args.json:
        print_json(report)
    else:
        print(f"{report['games']} games of {game.id} with {args.players} players "
              f"({','.join(strategies)})")
        print(f"  {report['games_per_s']} games/s, {report['actions_per_s']} actions/s, "
              f"mean length {report['mean_length']} actions")
        print(f"  win rate by seat: {report['win_rate_by_seat']}")
    return 0


def add_check(sub: Any) -> None:
    p = add_command(sub, "check", "run the conformance checks against an installed game",
                    "Check an installed game against the game API's rules: random self-play, "
                    "deterministic replays, refusals that change nothing, views and events "
                    "that leak no hidden value. Exit 1, naming what failed.",
                    "lantable check manila")
    p.add_argument("game", help="the game id")
    p.add_argument("--games", type=int, default=10, help="random games to play")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--page", metavar="PATH",
                   help="the game's page describing its view (default: docs/games/GAME.md "
                        "here or above the game's source, if there is one)")
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from lantable.plugins.conformance import check_game
    from lantable.plugins.viewdoc import find_page

    game = registry_game(args.game)
    if args.page:
        page: Path | None = Path(args.page)
        if not Path(args.page).is_file():
            print(f"lantable check: no page at {args.page}", file=sys.stderr)
            return 2
    else:
        page = find_page(game.id, getattr(inspect.getmodule(game.plugin), "__file__", None))
    from lantable.plugins.conformance import export_warnings

    warnings = export_warnings(game)
    for warning in warnings:
        print(f"lantable check: warning: {warning}", file=sys.stderr)
    if not args.json:
        print(f"{game.id}: views checked against {page}" if page else
              f"{game.id}: no docs/games/{game.id}.md found, so views are not checked "
              f"against a page (--page PATH names one)")
    failures = check_game(game, games=args.games, seed=args.seed,
                          progress=None if args.json else print,
                          page=page.read_text(encoding="utf-8") if page else None)
    if args.json:
        print_json({"game": game.id, "games": args.games, "warnings": warnings,
                    "page": str(page) if page else None, "failures": failures})
    elif failures:
        for failure in failures:
            print(f"FAIL {failure}", file=sys.stderr)
    else:
        games = f"{args.games} random game{'' if args.games == 1 else 's'}"
        print(f"{game.id}: every check passed ({games})")
    return 1 if failures else 0
