"""The conformance suite: every installed game, at every seat count it supports.

What every game owes the host (``plugins/hookspecs.py``, ``docs/plugins.md``):
random self-play ends; the same seed and the same actions give the same game bit for
bit; everything is plain msgpack data; exactly the seats to act have legal actions;
``IllegalAction`` leaves the state and the rng unchanged; sampled states agree with
the view they came from and leak nothing to spectators; views, legal actions and
events are snapshots that later play never changes; scores have the agreed shape.

The cases are generated from ``load_registry().games`` (the installed entry points),
so a newly installed game is tested without touching this file. Games run with their
default options, or with the ``conformance_options`` their ``game_info`` declares (a
long game's shorter variant, e.g. a lower round cap: every check still runs, on
shorter games). Checks that cost more than a hook call run at every ``EVERY``-th
decision of a few games, which keeps the file well under a minute.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from typing import Any

import msgpack
import pytest

from lantable.plugins import Game, IllegalAction, load_registry, params

# Games with the real entry points, i.e. what is installed (and nothing else).
GAMES: dict[str, Game] = load_registry(autoload=True).games
# A random game longer than this is taken not to end (Kaiser's Pirates: ~650 actions).
MAX_ACTIONS = 20_000
# Random self-play games per case for the cheap per-decision checks.
SELFPLAY_GAMES = 10
# Games per case for the costly checks (round trips, illegal actions, sampling).
DEEP_GAMES = 3
# Aim for about this many costly checks per game, whatever its length.
DEEP_POINTS = 40
NOPE: dict[str, Any] = {"type": "__nope__"}
# Random actions played on a sampled or copied state, as a search bot's rollout would.
SAMPLE_PLAYOUT = 30

# Known bugs of a game, by (game id, seat count or None for all, test name): xfail,
# non-strict, with the reason. Keep this empty: every entry is a bug to fix.
KNOWN_BUGS: dict[tuple[str, int | None, str], str] = {
}

def options(game: Game) -> dict[str, Any] | None:
    """The options the suite plays ``game`` with (``None``: the defaults)."""
    return game.info.get("conformance_options")


CASES = [
    (gid, seats)
    for gid, game in sorted(GAMES.items())
    for seats in range(game.info["min_seats"], game.info["max_seats"] + 1)
]


def _cases(test: str) -> list[Any]:
    out = []
    for gid, seats in CASES:
        reason = KNOWN_BUGS.get((gid, seats, test)) or KNOWN_BUGS.get((gid, None, test))
        marks = [pytest.mark.xfail(reason=reason, strict=False)] if reason else []
        out.append(pytest.param(gid, seats, id=f"{gid}-{seats}", marks=marks))
    return out


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def round_trips(obj: Any) -> bool:
    """True if ``obj`` survives the wire unchanged (no tuples, sets or int keys)."""
    try:
        return msgpack.unpackb(pack(obj), raw=False, strict_map_key=True) == obj
    except (TypeError, ValueError):
        return False


Check = Callable[[int, dict[str, Any], list[int], random.Random], None]


def play(game: Game, seats: int, seed: int, check: Check | None = None,
         every: int = 1) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any], list[Any]]]]:
    """Random self-play to the end; returns the final state and (seat, action, events).

    ``check(n, state, to_act, rng)`` runs before decision ``n`` when ``n % every == 0``
    and must leave state and rng as it found them. The choices use their own rng, so
    the game's rng sees only the game's draws.
    """
    rng = random.Random(seed)
    chooser = random.Random(f"choose:{seed}")
    state = game.setup(seats, options(game), rng)
    trace: list[tuple[int, dict[str, Any], list[Any]]] = []
    for n in range(MAX_ACTIONS):
        to_act = game.to_act(state)
        if not to_act:
            return state, trace
        if check is not None and n % every == 0:
            check(n, state, to_act, rng)
        seat = chooser.choice(to_act)
        action = chooser.choice(game.concrete_actions(state, seat))
        trace.append((seat, action, game.apply(state, seat, action, rng)))
    pytest.fail(f"{game.id} with {seats} seats, seed {seed}: not over after {MAX_ACTIONS} actions")


def simulate(game: Game, state: dict[str, Any], rng: random.Random, actions: int) -> None:
    """Play up to ``actions`` random actions on ``state`` in place, as a search bot's
    rollout does: a random legal action, a template filled from its discretisation."""
    for _ in range(actions):
        to_act = game.to_act(state)
        if not to_act:
            return
        seat = rng.choice(to_act)
        action = rng.choice(game.legal_actions(state, seat))
        if params.is_template(action):
            action = rng.choice(game.discretise(state, seat, action))
        game.apply(state, seat, action, rng)


_lengths: dict[tuple[str, int], int] = {}


def deep_every(game: Game, seats: int) -> int:
    """A stride that gives about DEEP_POINTS costly checks in a typical game."""
    key = (game.id, seats)
    if key not in _lengths:
        _lengths[key] = len(play(game, seats, 0)[1])
    return max(1, _lengths[key] // DEEP_POINTS)


def play_deep(game: Game, seats: int, check: Check) -> None:
    """``DEEP_GAMES`` seeded games, with ``check`` at about ``DEEP_POINTS`` decisions of each."""
    every = deep_every(game, seats)
    for seed in range(DEEP_GAMES):
        play(game, seats, seed, check, every)


def check_scores(game: Game, state: dict[str, Any], seats: int) -> None:
    result = game.scores(state)
    assert isinstance(result, dict), result
    scores, rank = result["scores"], result["rank"]
    assert len(scores) == seats, result
    assert len(rank) == seats, result
    assert all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores), result
    # Solitaire (one seat against the game itself): place 2 means the game won.
    worst = seats + 1 if seats == 1 else seats
    assert all(isinstance(r, int) and 1 <= r <= worst for r in rank), result
    assert seats == 1 or 1 in rank, result
    assert set(result) <= {"scores", "rank", "detail"}, result
    assert round_trips(result), result


# -- game_info ---------------------------------------------------------------


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_game_info_is_valid(gid: str) -> None:
    info = GAMES[gid].info
    assert info["id"] == gid
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", gid)
    assert info["title"]
    assert isinstance(info["title"], str)
    assert info["version"]
    assert isinstance(info["version"], str)
    assert 1 <= info["min_seats"] <= info["max_seats"]
    for name, spec in info["options"].items():
        assert isinstance(spec.get("help"), str), name
        assert spec["help"], name
        if "choices" in spec:
            assert spec["default"] in spec["choices"], name
    assert set(info["traits"]) <= {"chance", "hidden_information", "simultaneous"}
    assert all(isinstance(v, bool) for v in info["traits"].values())
    assert round_trips(info)
    assert GAMES[gid].options() == {k: s["default"] for k, s in info["options"].items()}
    if "conformance_options" in info:  # a valid choice of the game's own options
        GAMES[gid].options(info["conformance_options"])
    # What the browser reads (docs/plugins.md): maps and lists of plain strings.
    for key in ("template_queries", "action_groups"):
        assert all(isinstance(k, str) and isinstance(v, str)
                   for k, v in info.get(key, {}).items()), key
    assert all(isinstance(t, str) for t in info.get("stage_events", []))
    for lang, words in info.get("translations", {}).items():
        assert lang in ("en", "it") and set(words) <= {"title", "phrases"}, lang
        for phrase in words.get("phrases", []):
            assert len(phrase) == 2 and re.compile(phrase[0]), phrase  # a pattern, a text


# -- self-play -----------------------------------------------------------------


@pytest.mark.parametrize(("gid", "seats"), _cases("test_random_selfplay_ends"))
def test_random_selfplay_ends(gid: str, seats: int) -> None:
    """Self-play ends; exactly the seats to act have (non-empty) legal actions."""
    game = GAMES[gid]

    def check(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random) -> None:
        assert to_act == sorted(set(to_act)), to_act
        assert all(0 <= s < seats for s in to_act), to_act
        for s in range(seats):
            legal = game.legal_actions(state, s)
            if s in to_act:
                assert legal, f"decision {n}: seat {s} must act but has no legal action"
            else:
                assert legal == [], f"decision {n}: seat {s} is not to act but has {legal[:3]}"

    for seed in range(SELFPLAY_GAMES):
        state, trace = play(game, seats, seed, check)
        assert game.is_over(state)
        assert all(game.legal_actions(state, s) == [] for s in range(seats))


@pytest.mark.parametrize(("gid", "seats"), _cases("test_scores_format"))
def test_scores_format(gid: str, seats: int) -> None:
    """Final and mid-game scores: a number and a place in 1..seats per seat, someone first."""
    game = GAMES[gid]

    def check(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random) -> None:
        check_scores(game, state, seats)

    every = deep_every(game, seats)
    for seed in range(SELFPLAY_GAMES):
        state, _ = play(game, seats, seed, check if seed < DEEP_GAMES else None, every)
        check_scores(game, state, seats)


def _option_cases() -> list[Any]:
    out = []
    for gid, game in sorted(GAMES.items()):
        for name, spec in game.info["options"].items():
            default = spec["default"]
            values = spec.get("choices") or ([not default] if isinstance(default, bool) else [])
            out += [pytest.param(gid, name, v, id=f"{gid}-{name}={v}")
                    for v in values if v != default]
    return out


@pytest.mark.parametrize(("gid", "option", "value"), _option_cases())
def test_every_option_value_plays_to_the_end(gid: str, option: str, value: Any) -> None:
    """Each non-default choice (and each flipped bool) at the most seats: self-play ends."""
    game = GAMES[gid]
    seats = game.info["max_seats"]
    rng, chooser = random.Random(1), random.Random(2)
    state = game.setup(seats, {**(options(game) or {}), option: value}, rng)
    for _ in range(MAX_ACTIONS):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = chooser.choice(to_act)
        game.apply(state, seat, chooser.choice(game.concrete_actions(state, seat)), rng)
    assert game.is_over(state), f"not over after {MAX_ACTIONS} actions"
    check_scores(game, state, seats)


@pytest.mark.parametrize(("gid", "seats"), _cases("test_seeded_replay_is_bit_for_bit"))
def test_seeded_replay_is_bit_for_bit(gid: str, seats: int) -> None:
    """Same seed + same actions = the same states and events, byte for byte."""
    game = GAMES[gid]
    for seed in range(DEEP_GAMES):
        first: list[bytes] = []

        def record(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random,
                   out: list[bytes] = first) -> None:
            out.append(pack(state))

        final, trace = play(game, seats, seed, record)
        rng = random.Random(seed)
        state = game.setup(seats, options(game), rng)
        for n, (seat, action, events) in enumerate(trace):
            assert pack(state) == first[n], f"seed {seed}: state differs before action {n}"
            assert pack(game.apply(state, seat, action, rng)) == pack(events), (
                f"seed {seed}: events of action {n} differ")
        assert pack(state) == pack(final)
        assert game.is_over(state)
        assert pack(game.scores(state)) == pack(game.scores(final))


@pytest.mark.parametrize(("gid", "seats"), _cases("test_everything_is_plain_msgpack_data"))
def test_everything_is_plain_msgpack_data(gid: str, seats: int) -> None:
    """States, views, legal actions and events survive msgpack unchanged; events are
    maps with a ``type`` and private ones say ``to`` which seats."""
    game = GAMES[gid]

    def check(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random) -> None:
        assert round_trips(state), f"decision {n}: state is not plain msgpack data"
        for s in [None, *range(seats)]:
            assert round_trips(game.view(state, s)), f"decision {n}: view of seat {s}"
        for s in to_act:
            for action in game.legal_actions(state, s):
                assert isinstance(action, dict), action
                assert isinstance(action.get("type"), str), action
                assert round_trips(action), f"decision {n}: action {action!r}"

    every = deep_every(game, seats)
    for seed in range(DEEP_GAMES):
        state, trace = play(game, seats, seed, check, every)
        assert round_trips(state)
        for _seat, action, events in trace:
            assert isinstance(events, list), events
            for event in events:
                assert isinstance(event, dict), event
                assert isinstance(event.get("type"), str), event
                assert round_trips(event), f"event {event!r} after {action!r}"
                if "to" in event:
                    to = event["to"]
                    assert isinstance(to, list), event
                    assert all(isinstance(s, int) and 0 <= s < seats for s in to), event


@pytest.mark.parametrize(("gid", "seats"), _cases("test_illegal_action_changes_nothing"))
def test_illegal_action_changes_nothing(gid: str, seats: int) -> None:
    """``{"type": "__nope__"}`` raises IllegalAction and leaves state and rng as they
    were; the read-only hooks change nothing either."""
    game = GAMES[gid]

    def check(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random) -> None:
        before, rng_before = game.clone(state), rng.getstate()
        for s in range(seats):
            game.view(state, s)
            game.legal_actions(state, s)
        game.view(state, None)
        game.scores(state)
        assert state == before, f"decision {n}: a read-only hook changed the state"
        for s in to_act:
            with pytest.raises(IllegalAction):
                game.apply(state, s, dict(NOPE), rng)
            assert state == before, f"decision {n}: refused action of seat {s} changed the state"
            assert rng.getstate() == rng_before, f"decision {n}: refused action of seat {s} drew"
        idle = [s for s in range(seats) if s not in to_act]
        if idle:  # the facade refuses a seat that must not act, before the game sees it
            legal = game.legal_actions(state, to_act[0])[0]
            with pytest.raises(IllegalAction):
                game.apply(state, idle[0], legal, rng)
            assert state == before
            assert rng.getstate() == rng_before

    play_deep(game, seats, check)


# -- hidden information ------------------------------------------------------------


def _sampling_cases() -> list[Any]:
    return [c for c in _cases("test_sampled_state_agrees_with_view")
            if GAMES[c.values[0]].has_sampler]


@pytest.mark.parametrize(("gid", "seats"), _sampling_cases())
def test_sampled_state_agrees_with_view(gid: str, seats: int) -> None:
    """For every seat: view(sample(view(s)), s) == view(s), the spectator view of the
    sample equals the real one (no leak into the public view), the seat's legal
    actions are the same, and neither sampling nor playing on the sample changes the
    view it was given."""
    game = GAMES[gid]
    sampler = random.Random(99)

    def check(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random) -> None:
        public = game.view(state, None)
        for s in range(seats):
            view = game.view(state, s)
            given = game.clone(view)
            sample = game.sample_state(view, s, sampler)
            assert view == given, f"decision {n}: sample_state changed the view of seat {s}"
            assert game.view(sample, s) == view, f"decision {n}: seat {s} sees another world"
            assert game.view(sample, None) == public, (
                f"decision {n}: the public view of a sample for seat {s} differs")
            assert game.to_act(sample) == to_act, f"decision {n}: seat {s}"
            assert game.legal_actions(sample, s) == game.legal_actions(state, s), (
                f"decision {n}: seat {s} has other legal actions in the sample")
            # Search bots play on in the sample: that must not reach back into the view.
            simulate(game, sample, random.Random(n), SAMPLE_PLAYOUT)
            assert view == given, f"decision {n}: playing on a sample for seat {s} changed the view"

    play_deep(game, seats, check)


@pytest.mark.parametrize(("gid", "seats"), _cases("test_views_and_actions_are_snapshots"))
def test_views_and_actions_are_snapshots(gid: str, seats: int) -> None:
    """Views, legal actions and events share nothing mutable with the state: playing
    on never changes one already handed out (bots and clients keep them)."""
    game = GAMES[gid]

    def check(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random) -> None:
        copy = game.clone(state)  # play on a copy: ``play`` goes on with ``state``
        handed = [game.view(copy, s) for s in [None, *range(seats)]]
        handed += [game.legal_actions(copy, s) for s in to_act]
        before = [pack(x) for x in handed]
        seat = to_act[0]
        events = game.apply(copy, seat, game.concrete_actions(copy, seat)[0], random.Random(n))
        after_apply = pack(events)
        simulate(game, copy, random.Random(n), SAMPLE_PLAYOUT)
        assert [pack(x) for x in handed] == before, f"decision {n}: a view or action changed"
        assert pack(events) == after_apply, f"decision {n}: events changed as play went on"

    play_deep(game, seats, check)


@pytest.mark.parametrize(("gid", "seats"), _cases("test_view_parts_are_the_views"))
def test_view_parts_are_the_views(gid: str, seats: int) -> None:
    """A game that splits its views (``game_view_parts``) gives exactly its views:
    the public part is the spectator's view, each seat's part adds only keys the
    public part lacks, and the parts are snapshots like the views."""
    game = GAMES[gid]
    if not game.has_view_parts:
        pytest.skip(f"{gid} builds whole views only")

    def check(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random) -> None:
        public, own = game.view_parts(state)
        assert public == game.view(state, None), f"decision {n}: public part != spectator view"
        assert len(own) == seats, f"decision {n}: one own part per seat"
        for s in range(seats):
            assert not set(public) & set(own[s]), f"decision {n}: seat {s} repeats public keys"
            assert {**public, **own[s]} == game.view(state, s), f"decision {n}: seat {s}"
        copy = game.clone(state)  # play on a copy: ``play`` goes on with ``state``
        parts = game.view_parts(copy)
        before = pack(parts)
        simulate(game, copy, random.Random(n), SAMPLE_PLAYOUT)
        assert pack(parts) == before, f"decision {n}: parts changed as play went on"

    play_deep(game, seats, check)


# -- parameterised actions -----------------------------------------------------------


@pytest.mark.parametrize(("gid", "seats"), _cases("test_templates_discretise_to_legal_actions"))
def test_templates_discretise_to_legal_actions(gid: str, seats: int) -> None:
    """Every template is well formed (``params`` of known kinds), and what the game's
    discretisation of it gives from the seat's view fills it and is accepted. The
    discretisation uses only what the view has: from the state it gives the same
    (in-process self-play and rollouts pass the state)."""
    game = GAMES[gid]

    def check(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random) -> None:
        for s in to_act:
            view = game.view(state, s)
            for template in game.legal_actions(state, s):
                if not params.is_template(template):
                    continue
                assert all(spec.get("kind") in params.KINDS
                           for spec in template["params"].values()), template
                filled = game.discretise(view, s, template)
                assert filled, f"decision {n}: {template} has no filling"
                assert game.discretise(state, s, template) == filled, (
                    f"decision {n}: {template} is filled otherwise from the state")
                for action in filled:
                    assert params.check(template, action) is None, (template, action)
                    game.apply(game.clone(state), s, action, random.Random(n))

    play_deep(game, seats, check)


# -- for bots and people -----------------------------------------------------------


@pytest.mark.parametrize(("gid", "seats"), _cases("test_heuristic_and_description"))
def test_heuristic_and_description(gid: str, seats: int) -> None:
    """Heuristics are finite numbers; every legal action can be described from the
    seat's view (the terminal client has nothing else)."""
    game = GAMES[gid]

    def check(n: int, state: dict[str, Any], to_act: list[int], rng: random.Random) -> None:
        for s in range(seats):
            assert math.isfinite(game.heuristic(state, s))
        for s in to_act:
            view = game.view(state, s)
            for action in game.legal_actions(state, s):
                text = game.describe(view, s, action)
                assert isinstance(text, str), action
                assert text, action

    play(game, seats, 0, check, deep_every(game, seats))

