"""Conformance checks a game author runs against an installed game, with no lantable
checkout: ``lantable check GAME`` (or :func:`check_game` from a test).

Each check plays seeded random games through the :class:`~lantable.plugins.Game`
facade, exactly as the host does, and returns findings as sentences that name the
seat count, seed, decision and the offending key or event. The checks:

- **ends**: random self-play ends; exactly the seats in ``to_act`` have legal actions.
- **plain data**: states, views, actions and events survive msgpack unchanged, and an
  event's ``"to"`` is a list of seats.
- **replay**: the same seed and the same actions give the same events and state.
- **refusal**: an unknown action raises ``IllegalAction`` and changes neither the state
  nor the rng.
- **leaks**: no event reaches a seat that should not see it. An event a seat receives
  (public, or addressed to it) must not carry a value (a list, a map or a string) that
  only another seat's view shows once the action is done (the acting seat's remaining
  hand included), and that the receiving seat's view does not show. A value that stops
  being secret with the event (a card played from a hand, battle cards turned face up)
  is a reveal, not a leak. With ``game_sample_state``, secrets in any other form too
  (an id where the view has a name, a position, a single card): for each seat the other
  seats' hidden information is dealt afresh from its view and the same action applied;
  what the seat receives may change only where its view after the action changes.
- **sampler** (when the game has ``game_sample_state``): a state sampled from a seat's
  view (with ``"_hand"`` where the game deals hidden decks, as a hidden-deck table's
  client gives it) has the same seats to act, keeps the dealer's record, and plays on
  (random actions through the facade, as the search bots do).
- **words**: labels, event sentences and the text board work from every seat's view.
- **scores**: a number and a place per seat, someone placed first.
- **page** (when the game has one, ``docs/games/GAME.md``): every key of every view is
  described in the page's ``## View`` section (:mod:`lantable.plugins.viewdoc`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import zip_longest
from typing import Any

import msgpack

from . import params
from .decks import DEALER_KEY
from .errors import IllegalAction
from .registry import Game
from .viewdoc import paths_in_page, undescribed

MAX_ACTIONS = 20_000  # a random game longer than this is taken never to end
_NOPE = {"type": "__lantable_check_no_such_action__"}


class Finding(Exception):
    """One failed check, as a sentence."""


def _plain(obj: Any) -> bool:
    try:
        return msgpack.unpackb(msgpack.packb(obj, use_bin_type=True), raw=False,
                               strict_map_key=True) == obj
    except (TypeError, ValueError):
        return False


def _values(obj: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (key path, value) inside ``obj``, containers included."""
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _values(v, f"{path}.{k}" if path else str(k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _values(v, f"{path}[{i}]")


def _telling(value: Any) -> bool:
    """A value specific enough that finding it elsewhere is no coincidence."""
    if isinstance(value, str):
        return len(value) >= 3
    if isinstance(value, (list, dict)):
        return len(value) >= 2 and any(v not in (0, None, False, "") for v in
                                       (value.values() if isinstance(value, dict) else value))
    return False


def _key(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _hidden(value: Any, public: Any, path: str, out: dict[bytes, str]) -> None:
    """Collect the telling values of ``value`` that differ from ``public`` at the same
    path (``public`` is _MISSING where the public view has no such path)."""
    if value == public:
        return
    if _telling(value):
        out.setdefault(_key(value), path)
    if isinstance(value, dict):
        for k, v in value.items():
            sub = public.get(k, _MISSING) if isinstance(public, dict) else _MISSING
            _hidden(v, sub, f"{path}.{k}", out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            sub = public[i] if isinstance(public, list) and i < len(public) else _MISSING
            _hidden(v, sub, f"{path}[{i}]", out)


_MISSING = object()


def _secrets(views: dict[int | None, Any], seats: int) -> list[dict[bytes, str]]:
    """Per seat: the telling values of its view that the public view (``views[None]``)
    lacks, at that path and anywhere else in it, by path."""
    public = views[None]
    everyone = {_key(v) for _, v in _values(public) if _telling(v)}
    out: list[dict[bytes, str]] = []
    for seat in range(seats):
        mine: dict[bytes, str] = {}
        for key, value in views[seat].items():
            _hidden(value, public.get(key, _MISSING), str(key), mine)
        out.append({k: path for k, path in mine.items() if k not in everyone})
    return out


def _all_views(game: Game, state: Any, seats: int) -> dict[int | None, Any]:
    return {who: game.view(state, who) for who in [*range(seats), None]}


def _leaks(before: list[dict[bytes, str]], after: dict[int | None, Any], seats: int,
           events: list[Any]) -> str | None:
    """The first event value a seat sees that only another seat's view held, before
    the event and still after it. (A value that stops being that seat's secret, such
    as a card played from its hand, was revealed, not leaked.)"""
    still = _secrets(after, seats)
    known: dict[int | None, set[bytes]] = {}
    for event in events:
        audience = event.get("to") if isinstance(event, dict) and "to" in event else \
            [*range(seats), None]
        for seat in audience:
            if seat not in known:
                known[seat] = {_key(v) for _, v in _values(after[seat]) if _telling(v)}
            for path, value in _values({k: v for k, v in event.items() if k != "to"}):
                if not _telling(value) or _key(value) in known[seat]:
                    continue
                for other in range(seats):
                    # Secret at the moment the event is sent: in the views after the
                    # action (the acting seat's remaining hand counts as much as a
                    # hand that was there before).
                    own = still[other].get(_key(value))
                    if other != seat and own is not None:
                        who = "spectators" if seat is None else f"seat {seat}"
                        return (f"event {event.get('type')!r} key {path!r} shows {who} "
                                f"seat {other}'s hidden {own!r}")
    return None


def seat_view(game: Game, state: Any, seat: int) -> Any:
    """``seat``'s view as its client hands it to the game's client-side hooks and bots:
    with ``"_hand"`` (the cards it was dealt, as at a hidden-deck table) when the state
    has the in-process dealer's record."""
    view = game.view(state, seat)
    dealer = state.get(DEALER_KEY) if isinstance(state, dict) else None
    if not dealer:
        return view
    hand = {deck: {p: rec["order"][int(p)] for p, s in rec["held"].items() if s == seat}
            for deck, rec in dealer["decks"].items()}
    return {**view, "_hand": hand}


SAMPLED_PLAYOUT = 30  # random actions played on from a sampled state


def _sampled_playout(game: Game, state: Any, seat: int, rng: random.Random) -> str | None:
    """``game_sample_state`` gives a state the game can play on, in-process, as the search
    bots do: from ``seat``'s view (with ``"_hand"`` where the game deals hidden decks), a
    state where ``seat`` must act as in the real one, whose legal actions the game applies
    for up to :data:`SAMPLED_PLAYOUT` random actions."""
    try:
        world = game.sample_state(seat_view(game, state, seat), seat, rng)
    except Exception as exc:
        return f"game_sample_state failed on seat {seat}'s view: {type(exc).__name__}: {exc}"
    if DEALER_KEY in state and DEALER_KEY not in world:
        return (f"game_sample_state returned a state without the dealer's record "
                f"({DEALER_KEY!r}), so no card can be dealt in it; build one with "
                f"lantable.plugins.decks.sample_dealer")
    if game.to_act(world) != game.to_act(state):
        return (f"game_sample_state's state has seats {game.to_act(world)} to act, "
                f"the real one {game.to_act(state)}")
    for step in range(SAMPLED_PLAYOUT):
        to_act = game.to_act(world)
        if not to_act:
            return None
        who = rng.choice(to_act)
        try:
            legal = game.legal_actions(world, who)
            action = rng.choice(legal)
            if params.is_template(action):
                action = rng.choice(game.discretise(world, who, action))
            game.apply(world, who, action, rng)
        except Exception as exc:
            return (f"a state from game_sample_state (seat {seat}'s view) cannot be played: "
                    f"step {step}, seat {who}: {type(exc).__name__}: {exc}")
    return None


def _received(events: list[Any], seat: int, seats: int) -> list[Any]:
    """The events ``seat`` receives (public, or addressed to it), without ``"to"``."""
    return [{k: v for k, v in e.items() if k != "to"} for e in events
            if "to" not in e or seat in e["to"]]


SAMPLES = 4  # sampled worlds per seat and checked decision (the interference check)


def _interference(game: Game, state: Any, actor: int, action: dict[str, Any],
                  rng: random.Random, seats: int, events: list[Any],
                  after: dict[int | None, Any], sampler: random.Random) -> str | None:
    """Leaks in any form (ids, names, positions, counts): for each seat, deal the other
    seats' hidden information afresh with ``game_sample_state`` from that seat's view,
    apply the same action with the same rng, and compare. The events a seat receives
    may change only where its view after the action changes too (a card turned face
    up); an event that differs while the seat's view stays the same tells it something
    about another seat's secrets that it may not know."""
    for seat in range(seats):
        view = seat_view(game, state, seat)
        mine = _received(events, seat, seats)
        for _ in range(SAMPLES):
            try:
                world = game.sample_state(view, seat, sampler)
                if game.view(world, seat) != game.view(state, seat) \
                        or actor not in game.to_act(world):
                    continue  # a sampler that cannot keep this seat's view: no comparison
                twin = random.Random()
                twin.setstate(rng.getstate())
                other = game.apply(world, actor, dict(action), twin)
            except IllegalAction:
                continue  # the action needs what this world dealt otherwise
            theirs = _received(other, seat, seats)
            if theirs != mine and game.view(world, seat) == after[seat]:
                diff = next((a, b) for a, b in zip_longest(mine, theirs) if a != b)
                return (f"seat {seat} receives event {diff[0]!r}, but with the other seats' "
                        f"hidden information dealt otherwise (game_sample_state) it would "
                        f"receive {diff[1]!r} while its view stays the same: the event tells "
                        f"it another seat's secret")
    return None


def _play(game: Game, seats: int, seed: int, options: dict[str, Any] | None,
          check: Callable[[int, Any, int, dict[str, Any], random.Random], None] | None = None,
          ) -> tuple[Any, list[tuple[int, dict[str, Any], list[Any]]]]:
    rng, chooser = random.Random(seed), random.Random(f"choose:{seed}")
    state = game.setup(seats, options, rng)
    trace: list[tuple[int, dict[str, Any], list[Any]]] = []
    for n in range(MAX_ACTIONS):
        to_act = game.to_act(state)
        for seat in range(seats):
            if bool(game.legal_actions(state, seat)) != (seat in to_act):
                has = "has" if seat not in to_act else "lacks"
                raise Finding(f"decision {n}: seat {seat} {has} legal actions but is "
                              f"{'not ' * (seat not in to_act)}to act")
        if not to_act:
            return state, trace
        seat = chooser.choice(to_act)
        action = chooser.choice(game.legal_actions(state, seat))
        if params.is_template(action):
            # a template (a continuous choice, docs/plugins.md) is played as one of its
            # fillings, as a bot would (only the one chosen is discretised: it is costly)
            action = chooser.choice(game.discretise(game.view(state, seat), seat, action))
        if check is not None:
            check(n, state, seat, action, rng)
        trace.append((seat, action, game.apply(state, seat, action, rng)))
    raise Finding(f"not over after {MAX_ACTIONS} random actions")


def _check_one(game: Game, seats: int, seed: int, every: int,
               page: set[str] | None = None) -> None:
    names = [f"player {s}" for s in range(seats)]

    def described(n: int, who: int | None, view: Any) -> None:
        missing = undescribed(view, page) if page is not None else []
        if missing:
            whose = "the spectators'" if who is None else f"seat {who}'s"
            more = f" (and {', '.join(missing[1:6])})" if len(missing) > 1 else ""
            raise Finding(f"decision {n}: {whose} view holds `{missing[0]}`{more}, which the "
                          f"game's page does not describe (add a row to its ## View table)")

    def check(n: int, state: Any, seat: int, action: dict[str, Any], rng: random.Random) -> None:
        if n % every:
            return
        if not _plain(state):
            raise Finding(f"decision {n}: the state is not plain msgpack data")
        saved_state, saved_rng = _key(state), rng.getstate()
        try:
            game.apply(state, seat, dict(_NOPE), rng)
        except IllegalAction:
            pass
        else:
            raise Finding(f"decision {n}: an unknown action was accepted")
        if _key(state) != saved_state or rng.getstate() != saved_rng:
            raise Finding(f"decision {n}: a refused action changed the "
                          f"{'state' if _key(state) != saved_state else 'rng'}")
        for who in [*range(seats), None]:
            view = game.view(state, who)
            if not _plain(view):
                raise Finding(f"decision {n}: seat {who}'s view is not plain msgpack data")
            described(n, who, view)
            game.render_text(view, who, names)
        view = game.view(state, seat)
        for legal in game.legal_actions(state, seat):
            game.describe(view, seat, legal, names)
        before = _secrets(_all_views(game, state, seats), seats)
        probe, probe_rng = game.clone(state), random.Random()
        probe_rng.setstate(rng.getstate())
        events = game.apply(probe, seat, action, probe_rng)
        after = _all_views(game, probe, seats)
        for event in events:
            to = event.get("to") if isinstance(event, dict) else None
            if not isinstance(event, dict) or not isinstance(event.get("type"), str) \
                    or not _plain(event):
                raise Finding(f"decision {n}: event {event!r} is not a plain map with a 'type'")
            if "to" in event and not (isinstance(to, list) and all(
                    isinstance(s, int) and 0 <= s < seats for s in to)):
                raise Finding(f"decision {n}: event {event['type']!r} has 'to' {to!r}, "
                              f"not a list of seats")
            for who in (to if "to" in event else [*range(seats), None]):
                game.describe_event(after[who], who, event, names)
        leak = _leaks(before, after, seats, events)
        if leak is None and game.has_sampler:
            leak = _interference(game, state, seat, action, rng, seats, events, after,
                                 random.Random(f"worlds:{n}"))
        if leak:
            raise Finding(f"decision {n}: {leak}")
        if game.has_sampler:
            bad = _sampled_playout(game, state, seat, random.Random(f"playout:{n}"))
            if bad:
                raise Finding(f"decision {n}: {bad}")

    final, trace = _play(game, seats, seed, None, check)
    for who in [*range(seats), None]:
        described(len(trace), who, game.view(final, who))
    _, again = _play(game, seats, seed, None)
    if _key(trace) != _key(again):
        raise Finding("the same seed and actions gave different events (replay is not "
                      "bit for bit)")
    scores = game.scores(final)
    # Solitaire (one seat against the game) ranks the seat 2 when the game won.
    places = max(seats, 2) if seats == 1 else seats
    ok = (isinstance(scores, dict) and len(scores.get("scores", [])) == seats
          and len(scores.get("rank", [])) == seats and (seats == 1 or 1 in scores["rank"])
          and all(isinstance(r, int) and 1 <= r <= places for r in scores["rank"]))
    if not ok:
        raise Finding(f"final scores {scores!r} need a number and a place 1..{places} per seat")


TEXT_HOOKS = ("game_describe_action", "game_describe_event", "game_render_text")


def export_warnings(game: Game) -> list[str]:
    """Hooks a game wrote but lantable never calls: a text hook (or any game hook)
    defined in the plugin without ``@hookimpl``, or a text hook marked ``@hookimpl`` in
    a module of the game's package that the package does not import (pluggy registers
    only what the plugin object itself holds)."""
    import importlib
    import pkgutil

    from . import hookspecs

    plugin, out = game.plugin, []
    hooks = [name for name in vars(hookspecs) if name.startswith("game_")]
    for name in hooks:
        own = getattr(plugin, name, None)
        if callable(own) and getattr(own, "lantable_impl", None) is None:
            out.append(f"{game.id}: {name} is defined without @hookimpl, so lantable never "
                       f"calls it (mark it @hookimpl)")
    for info in pkgutil.iter_modules(getattr(plugin, "__path__", None) or []):
        try:
            module = importlib.import_module(f"{plugin.__name__}.{info.name}")
        except Exception:  # noqa: BLE001 - a module that does not import is not our finding
            continue
        for name in TEXT_HOOKS:
            impl = getattr(module, name, None)
            if impl is not None and getattr(impl, "lantable_impl", None) is not None \
                    and getattr(plugin, name, None) is None:
                out.append(f"{game.id}: {name} is defined in {module.__name__} but not "
                           f"imported into {plugin.__name__}, so lantable never calls it "
                           f"(add `from .{info.name} import {name}` to the package)")
    return out


def check_game(game: Game, *, games: int = 10, seed: int = 0,
               progress: Callable[[str], None] | None = None,
               page: str | None = None) -> list[str]:
    """Run every check on ``games`` seeded games per seat count; the findings, as
    sentences (empty when the game conforms). ``page`` is the text of the game's page
    (``docs/games/GAME.md``): when given, every view must be described by it."""
    failures: list[str] = []
    paths = paths_in_page(page) if page is not None else None
    if paths is not None and not paths:
        failures.append(f"{game.id}: the game's page has no '## View' table of backticked "
                        f"paths, so no view key is described")
        return failures
    lo, hi = game.info["min_seats"], game.info["max_seats"]
    for seats in range(lo, hi + 1):
        for g in range(games):
            # The costly checks run at every 5th decision of the first game, then sparser.
            every = 5 if g == 0 else 25
            try:
                _check_one(game, seats, seed + g, every, paths)
            except Finding as exc:
                failures.append(f"{game.id}, {seats} seats, seed {seed + g}: {exc}")
                break
            except Exception as exc:  # a hook that raised: that is a finding too
                failures.append(f"{game.id}, {seats} seats, seed {seed + g}: "
                                f"{type(exc).__name__}: {exc}")
                break
        if progress is not None:
            progress(f"{game.id} with {seats} seats: "
                     f"{'FAILED' if failures and f', {seats} seats,' in failures[-1] else 'ok'}")
    return failures


def check_page(game: Game, page: str, *, games: int = 2, seed: int = 0,
               every: int = 3) -> list[str]:
    """Only the page check of :func:`check_game`, cheaply: ``games`` seeded random games
    per seat count, every seat's and the spectators' view at every ``every``-th decision
    and at the end, against the page's ``## View`` table (the findings, as sentences)."""
    paths = paths_in_page(page)
    if not paths:
        return [f"{game.id}: the game's page has no '## View' table of backticked paths, "
                f"so no view key is described"]
    failures: list[str] = []
    for seats in range(game.info["min_seats"], game.info["max_seats"] + 1):
        for g in range(games):
            seen: set[str] = set()

            def check(n: int, state: Any, seat: int, action: dict[str, Any],
                      rng: random.Random, seats: int = seats, seen: set[str] = seen) -> None:
                if n % every == 0:
                    for who in [*range(seats), None]:
                        seen.update(undescribed(game.view(state, who), paths))

            try:
                final, _ = _play(game, seats, seed + g, None, check)
            except Finding as exc:
                failures.append(f"{game.id}, {seats} seats, seed {seed + g}: {exc}")
                continue
            for who in [*range(seats), None]:
                seen.update(undescribed(game.view(final, who), paths))
            if seen:
                failures.append(f"{game.id}, {seats} seats, seed {seed + g}: views hold "
                                f"{', '.join(f'`{p}`' for p in sorted(seen))}, which the "
                                f"game's page does not describe")
    return failures

