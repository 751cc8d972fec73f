"""`lantable tournament`: bots against bots, seats rotated, ratings with intervals.

The pieces, each usable alone:

- :func:`parse_entrant` reads an entrant: a built-in bot with its settings
  (``mcts:iterations=200``), or a Python bot given as ``module:factory`` (the factory
  takes the game and returns an object with ``choose(view, seat, legal, rng)``, the
  interface of lantable's own bots).
- :func:`schedule` lists the games: for each game, seat count and seed, every lineup
  of a *block* in which each entrant sits at each seat equally often. With at least as
  many entrants as seats, a block is every ordered choice of distinct entrants; with
  fewer, entrant ``(seat + r) % k`` sits at ``seat`` in rotation ``r``. Every lineup of
  a block plays the same seed (the same deal and dice), so luck is shared.
- :func:`play_batch` plays a batch of scheduled games in one process and returns one
  plain result per game. Local processes, a Dask cluster, or this process run it.
- :class:`Journal` appends each result as a JSON line as it arrives; a tournament
  started again with the same journal plays only what is missing (Ctrl-C loses
  nothing but the games in flight).
- :func:`ratings` rates entrants with openskill's Plackett-Luce model (multi-seat
  results, ties), per game and overall, with a 95% interval (mu ± 1.96 sigma).
- :func:`summary` and :func:`write_report` give the figures, the plots (PNG and SVG)
  and one self-contained HTML page.
"""

from __future__ import annotations

import importlib
import itertools
import json
import os
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lantable.clients.bots import STRATEGIES, make_bot
from lantable.plugins import load_registry

# -- entrants ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Entrant:
    """A bot in the tournament: its name in tables and plots, and how to build it."""

    name: str
    kind: str  # "builtin" or "python"
    target: str  # the strategy, or "module:factory"
    settings: tuple[tuple[str, Any], ...] = ()

    def build(self, game: Any) -> Any:
        if self.kind == "builtin":
            return make_bot(self.target, game, **dict(self.settings))
        module, _, attr = self.target.partition(":")
        factory = getattr(importlib.import_module(module), attr)
        bot = factory(game, **dict(self.settings))
        if not callable(getattr(bot, "choose", None)):
            raise ValueError(f"{self.target} gave {bot!r}, which has no choose(view, seat, "
                             f"legal, rng)")
        return bot


def _setting(text: str) -> tuple[str, Any]:
    key, eq, value = text.partition("=")
    if not eq or not key:
        raise ValueError(f"bot setting {text!r}: expected key=value")
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, {"true": True, "false": False}.get(value.lower(), value)


def parse_entrant(text: str) -> Entrant:
    """``random``, ``greedy:samples=4``, ``mcts:iterations=200:name=mcts200``,
    ``mypkg.bots:make_bot`` (a Python factory), ``mypkg.bots:make_bot:depth=3``."""
    parts = text.split(":")
    if parts[0] in STRATEGIES:
        kind, target, rest = "builtin", parts[0], parts[1:]
    elif len(parts) >= 2 and parts[0] and parts[1] and "=" not in parts[1]:
        kind, target, rest = "python", f"{parts[0]}:{parts[1]}", parts[2:]
    else:
        raise ValueError(f"entrant {text!r}: expected one of {', '.join(STRATEGIES)} (with "
                         f":key=value settings) or a Python factory module:function")
    settings = [_setting(p) for p in rest]
    name = next((v for k, v in settings if k == "name"), None)
    settings = [(k, v) for k, v in settings if k != "name"]
    if name is None:
        name = target if not settings else \
            f"{target}({', '.join(f'{k}={v}' for k, v in settings)})"
    return Entrant(str(name), kind, target, tuple(settings))


# -- the schedule -------------------------------------------------------------------

@dataclass(frozen=True)
class Match:
    """One game to play: which game, how many seats, the seed, who sits where."""

    game: str
    seats: int
    seed: int
    lineup: tuple[str, ...]  # entrant names by seat

    @property
    def key(self) -> str:
        return f"{self.game}|{self.seats}|{self.seed}|{'|'.join(self.lineup)}"


def lineups(names: list[str], seats: int) -> list[tuple[str, ...]]:
    """One block: every entrant at every seat equally often."""
    if len(names) >= seats:
        return list(itertools.permutations(names, seats))
    return [tuple(names[(s + r) % len(names)] for s in range(seats))
            for r in range(len(names))]


def schedule(games: list[str], seats: list[int], names: list[str], blocks: int,
             seed: int = 0) -> list[Match]:
    out: list[Match] = []
    for game in games:
        for n in seats:
            block = lineups(names, n)
            for b in range(blocks):
                out.extend(Match(game, n, seed + b, lineup) for lineup in block)
    return out


# -- playing ------------------------------------------------------------------------

def play_batch(matches: list[dict[str, Any]], entrants: list[dict[str, Any]],
               options: dict[str, dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Play ``matches`` (dicts of :class:`Match`) in this process; plain results.

    Everything in and out is plain data, so that a process pool or a Dask worker can
    run it. A game that raises is a result with ``"error"`` (the tournament goes on).
    """
    from lantable.clients.selfplay import batch_gc, play_one

    registry = load_registry()
    by_name = {e["name"]: Entrant(e["name"], e["kind"], e["target"],
                                  tuple((k, v) for k, v in e["settings"]))
               for e in entrants}
    results = []
    with batch_gc():
        for m in matches:
            game = registry[m["game"]]
            start = time.process_time()
            base = {**m, "lineup": list(m["lineup"])}
            try:
                bots = [by_name[name].build(game) for name in m["lineup"]]
                rng = random.Random(m["seed"] * 1_000_003)
                scores, length = play_one(game, bots, rng, seats=m["seats"],
                                          options=(options or {}).get(m["game"]))
            except Exception as exc:  # a bot or a game that failed: say so, go on
                results.append({**base, "error": f"{type(exc).__name__}: {exc}"})
                continue
            results.append({**base, "scores": scores["scores"], "rank": scores["rank"],
                            "length": length,
                            "seconds": round(time.process_time() - start, 4)})
    return results


def _plain(m: Match) -> dict[str, Any]:
    return {"game": m.game, "seats": m.seats, "seed": m.seed, "lineup": list(m.lineup)}


def _batches(items: list[Match], size: int) -> Iterator[list[Match]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


def run(matches: list[Match], entrants: list[Entrant], *, jobs: int | None = None,
        scheduler: str | None = None, batch: int = 4,
        options: dict[str, dict[str, Any]] | None = None,
        ) -> Iterator[list[dict[str, Any]]]:
    """Play ``matches``; yields each batch's results as it finishes (any order).

    ``jobs=1``: this process. ``scheduler``: a Dask distributed scheduler's address
    (``tcp://HOST:8786``), or a ``distributed.Client`` object; a batch whose worker
    dies is run again by Dask. Otherwise a pool of ``jobs`` local processes (default:
    every core).
    """
    plain_entrants = [{"name": e.name, "kind": e.kind, "target": e.target,
                       "settings": [list(s) for s in e.settings]} for e in entrants]
    work = [[_plain(m) for m in b] for b in _batches(matches, batch)]
    if scheduler is not None:
        from distributed import Client, as_completed

        client = scheduler if isinstance(scheduler, Client) else \
            Client(scheduler)  # type: ignore[no-untyped-call]
        try:
            futures = [client.submit(play_batch, b, plain_entrants, options, pure=False,
                                     retries=2) for b in work]
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield future.result()
        finally:
            if not isinstance(scheduler, Client):
                client.close()  # type: ignore[no-untyped-call]
        return
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1:
        for b in work:
            yield play_batch(b, plain_entrants, options)
        return
    import concurrent.futures as cf
    import multiprocessing

    with cf.ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending = [pool.submit(play_batch, b, plain_entrants, options) for b in work]
        try:
            for future in cf.as_completed(pending):
                yield future.result()
        finally:
            for future in pending:
                future.cancel()


# -- the journal ----------------------------------------------------------------------

class Journal:
    """Results as JSON lines, appended and flushed as they arrive."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.results: list[dict[str, Any]] = []
        if path.exists():
            with path.open(encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        self.results.append(json.loads(line))
                    except json.JSONDecodeError:
                        continue  # a line cut short by a crash: that game is played again
        self.done = {_key(r) for r in self.results}
        # A line a crash cut short ends without a newline: end it, so that the next
        # result starts a line of its own.
        self._cut = path.exists() and path.stat().st_size > 0 and \
            path.read_bytes()[-1:] != b"\n"

    def add(self, results: Iterable[dict[str, Any]]) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            if self._cut:
                f.write("\n")
                self._cut = False
            for r in results:
                f.write(json.dumps(r, sort_keys=True) + "\n")
                self.results.append(r)
                self.done.add(_key(r))
            f.flush()
            os.fsync(f.fileno())


def _key(r: dict[str, Any]) -> str:
    return Match(r["game"], r["seats"], r["seed"], tuple(r["lineup"])).key


# -- ratings and figures -----------------------------------------------------------------

@dataclass
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def low(self) -> float:
        return self.mu - 1.96 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 1.96 * self.sigma


def ratings(results: list[dict[str, Any]], names: list[str]) -> dict[str, Rating]:
    """openskill Plackett-Luce ratings from the results, in the order played (sorted by
    key, so the same journal always gives the same ratings). An entrant at several
    seats of one game (fewer entrants than seats) gets the mean of its seats' updates."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {n: model.rating(name=n) for n in names}
    games: dict[str, int] = defaultdict(int)
    for r in sorted((r for r in results if "rank" in r), key=_key):
        teams = [[model.rating(mu=current[n].mu, sigma=current[n].sigma, name=n)]
                 for n in r["lineup"]]
        rated = model.rate(teams, ranks=r["rank"])
        updates: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for name, team in zip(r["lineup"], rated, strict=True):
            updates[name].append((team[0].mu, team[0].sigma))
        for name, ups in updates.items():
            current[name] = model.rating(mu=statistics.fmean(u[0] for u in ups),
                                         sigma=statistics.fmean(u[1] for u in ups), name=name)
            games[name] += 1
    return {n: Rating(current[n].mu, current[n].sigma, games[n]) for n in names}


def summary(results: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """Every figure of the report, as plain data (``--json``)."""
    played = [r for r in results if "rank" in r]
    out: dict[str, Any] = {"games": len(played),
                           "errors": [r for r in results if "error" in r][:20],
                           "error_count": sum("error" in r for r in results),
                           "overall": {}, "by_game": {}}

    def figures(rs: list[dict[str, Any]]) -> dict[str, Any]:
        rated = ratings(rs, names)
        wins: dict[str, list[float]] = defaultdict(list)
        by_seat: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        scores: dict[str, list[float]] = defaultdict(list)
        for r in rs:
            firsts = sum(1 for x in r["rank"] if x == 1)
            for seat, (name, rank) in enumerate(zip(r["lineup"], r["rank"], strict=True)):
                won = 1.0 / firsts if rank == 1 else 0.0
                wins[name].append(won)
                by_seat[name][seat].append(won)
                scores[name].append(float(r["scores"][seat]))
        return {
            "ratings": {n: {"mu": round(x.mu, 3), "sigma": round(x.sigma, 3),
                            "low": round(x.low, 3), "high": round(x.high, 3),
                            "games": x.games} for n, x in rated.items()},
            "win_rate": {n: round(statistics.fmean(w), 4) if w else None
                         for n, w in ((n, wins[n]) for n in names)},
            "win_rate_by_seat": {n: {str(s): round(statistics.fmean(w), 4)
                                     for s, w in sorted(by_seat[n].items())} for n in names},
            "scores": {n: scores[n] for n in names},
            "lengths": [r["length"] for r in rs],
        }

    out["overall"] = figures(played)
    for game in sorted({r["game"] for r in played}):
        out["by_game"][game] = figures([r for r in played if r["game"] == game])
    return out


def write_report(data: dict[str, Any], names: list[str], folder: Path,
                 title: str = "lantable tournament") -> Path:
    """Plots (PNG and SVG) and one self-contained HTML page; returns the page's path."""
    import base64

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    overall = data["overall"]
    svgs: dict[str, str] = {}

    def save(fig: Any, stem: str) -> None:
        fig.tight_layout()
        fig.savefig(folder / f"{stem}.png", dpi=110)
        fig.savefig(folder / f"{stem}.svg")
        svgs[stem] = (folder / f"{stem}.svg").read_text(encoding="utf-8")
        plt.close(fig)

    order = sorted(names, key=lambda n: -overall["ratings"][n]["mu"])
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(order) + 1.5))
    mus = [overall["ratings"][n]["mu"] for n in order]
    err = [1.96 * overall["ratings"][n]["sigma"] for n in order]
    ax.errorbar(mus, range(len(order)), xerr=err, fmt="o", capsize=4, color="#1d3557")
    ax.set_yticks(range(len(order)), order)
    ax.invert_yaxis()
    ax.set_xlabel("rating (openskill Plackett-Luce mu, bars: 95% interval)")
    ax.set_title("Ratings, all games")
    save(fig, "ratings")

    seats = sorted({int(s) for n in names for s in overall["win_rate_by_seat"][n]})
    fig, ax = plt.subplots(figsize=(7, 3.5))
    width = 0.8 / max(1, len(order))
    for i, n in enumerate(order):
        ys = [overall["win_rate_by_seat"][n].get(str(s), 0.0) for s in seats]
        ax.bar([s + i * width for s in seats], ys, width, label=n)
    ax.set_xticks([s + 0.4 - width / 2 for s in seats], [f"seat {s}" for s in seats])
    ax.set_ylabel("win rate")
    ax.set_title("Win rate by seat")
    ax.legend(fontsize=8)
    save(fig, "win_rate_by_seat")

    by_game = sorted(data["by_game"].items())
    fig, axes = plt.subplots(len(by_game), 1, figsize=(7, 2.8 * len(by_game) + 0.4),
                             squeeze=False)
    for ax, (game, g) in zip(axes[:, 0], by_game, strict=True):
        ax.boxplot([g["scores"][n] or [0.0] for n in order], tick_labels=order)
        ax.set_ylabel("final score")
        ax.set_title(f"Scores at {game} (the game's own points)")
    save(fig, "scores")

    fig, ax = plt.subplots(figsize=(7, 3.5))
    for game, g in sorted(data["by_game"].items()):
        ax.hist(g["lengths"], bins=20, alpha=0.6, label=game)
    ax.set_xlabel("decisions in a game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    ax.legend(fontsize=8)
    save(fig, "lengths")

    def table(figs: dict[str, Any]) -> str:
        rows = "".join(
            f"<tr><td>{n}</td><td>{figs['ratings'][n]['mu']:.2f}</td>"
            f"<td>{figs['ratings'][n]['low']:.2f} – {figs['ratings'][n]['high']:.2f}</td>"
            f"<td>{(figs['win_rate'][n] or 0) * 100:.1f}%</td>"
            f"<td>{figs['ratings'][n]['games']}</td></tr>"
            for n in sorted(names, key=lambda n: -figs["ratings"][n]["mu"]))
        return ("<table><tr><th>entrant</th><th>rating</th><th>95% interval</th>"
                f"<th>won</th><th>games</th></tr>{rows}</table>")

    sections = "".join(f"<h2>{game}</h2>{table(g)}" for game, g in sorted(data["by_game"].items()))
    images = "".join(
        f'<figure><img alt="{stem}" src="data:image/svg+xml;base64,'
        f'{base64.b64encode(svg.encode()).decode()}"></figure>' for stem, svg in svgs.items())
    page = folder / "report.html"
    failed = f", {data['error_count']} failed" if data["error_count"] else ""
    page.write_text(
        f"<!doctype html><html lang='en'><meta charset='utf-8'><title>{title}</title>"
        "<style>body{font:15px system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
        "padding:0 1rem}table{border-collapse:collapse;margin:1rem 0}td,th{padding:.3rem "
        ".7rem;border-bottom:1px solid #ddd;text-align:left}img{max-width:100%}</style>"
        f"<h1>{title}</h1><p>{data['games']} games{failed}. "
        "Ratings: openskill's Plackett–Luce model over every game's ranking; the interval "
        "is mu ± 1.96 sigma. Seats were rotated so that every entrant sat at every seat "
        f"equally often, with the same seeds.</p><h2>All games</h2>{table(overall)}"
        f"{images}{sections}</html>", encoding="utf-8")
    return page


# -- the whole run ------------------------------------------------------------------------

@dataclass
class Tournament:
    games: list[str]
    seats: list[int]
    entrants: list[Entrant]
    blocks: int
    seed: int = 0
    options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def matches(self) -> list[Match]:
        return schedule(self.games, self.seats, [e.name for e in self.entrants],
                        self.blocks, self.seed)

    def play(self, journal: Journal, *, jobs: int | None = None, scheduler: Any = None,
             batch: int = 4, progress: Callable[[int, int], None] | None = None) -> None:
        """Play what the journal lacks, journalling each batch as it comes back."""
        todo = [m for m in self.matches() if m.key not in journal.done]
        total = len(self.matches())
        if progress:
            progress(total - len(todo), total)
        for results in run(todo, self.entrants, jobs=jobs, scheduler=scheduler,
                           batch=batch, options=self.options):
            journal.add(results)
            if progress:
                progress(len(journal.done & {m.key for m in self.matches()}), total)


def check_entrants(entrants: list[Entrant], games: list[str]) -> None:
    """Build every entrant for every game once, so a mistake is one line before any
    game is played (a strategy the game cannot support, a factory that is not there)."""
    registry = load_registry()
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise ValueError(f"two entrants have the same name: {names}; add :name=... to one")
    for gid in games:
        game = registry[gid]
        for e in entrants:
            try:
                e.build(game)
            except Exception as exc:
                raise ValueError(f"entrant {e.name} cannot play {gid}: {exc}") from None
