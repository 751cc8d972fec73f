"""Check a game's undo barriers (``game_undo_barrier``) against its own play.

:func:`audit` plays seeded random games and, before each action, asks two
questions the host cannot ask at a table: did the action draw from ``rng``
(then one of its events must be a barrier), and could a seat that does not
know the hidden state have told its events apart (then it revealed something,
and one of its events must be a barrier)? The second is asked by applying the
same action to states sampled from each seat's view (``game_sample_state``):
if the events that seat sees, or its view after, differ between the real
state and a sample that agrees with everything it knew, the action told it
something hidden. Used by ``tests/plugins/test_undo_barriers.py`` and open to
game authors (docs/plugins.md, "Undo barriers").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lantable.plugins.errors import IllegalAction

if TYPE_CHECKING:
    from lantable.plugins.registry import Game


@dataclass
class Audit:
    """What :func:`audit` found: ``problems`` (each names the action and event types),
    and how many actions were undoable or barriers."""

    problems: list[str] = field(default_factory=list)
    undoable: int = 0
    barriers: int = 0
    drew: int = 0
    revealing: int = 0  # actions the samples showed to reveal something (all barriers)
    judged: int = 0  # applications to an exact sample (a sample that agrees with a view)


class _NoDraw(random.Random):
    """An rng that refuses to draw: applying to a sample must not need chance."""

    class Drew(Exception):
        pass

    def random(self) -> float:
        raise self.Drew

    def getrandbits(self, k: int) -> int:
        raise self.Drew


def _seen(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [e for e in events if e.get("to") is None or seat in e["to"]]


def audit(game: Game, seats: int, seed: int, max_actions: int, *,
          samples: int = 2) -> Audit:
    """Play one seeded random game of at most ``max_actions`` actions and check
    every action's barriers (see the module)."""
    out = Audit()
    rng = random.Random(seed)
    pick = random.Random(seed + 7919)
    state = game.setup(seats, None, rng)
    for n in range(max_actions):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = pick.choice(to_act)
        action = pick.choice(game.concrete_actions(state, seat))
        before = game.clone(state)
        rng_before = rng.getstate()
        events = game.apply(state, seat, action, rng)
        drew = rng.getstate() != rng_before
        declared = game.undo_barrier(events, state)
        kinds = sorted({str(e.get("type")) for e in events})
        out.drew += drew
        if declared:
            out.barriers += 1
        else:
            out.undoable += 1
        if drew and not declared:
            out.problems.append(f"action {n + 1} {action.get('type')} by seat {seat} drew from "
                                f"the rng, but none of its events {kinds} is a barrier")
            continue
        if declared or drew:
            continue
        why = _reveals(game, before, seat, action, events, state, seats, seed + n, samples, out)
        if why is not None:
            out.revealing += 1
            out.problems.append(f"action {n + 1} {action.get('type')} by seat {seat} {why}, "
                                f"but none of its events {kinds} is a barrier")
    return out


def _reveals(game: Game, before: dict[str, Any], seat: int, action: dict[str, Any],
             events: list[dict[str, Any]], after: dict[str, Any], seats: int, seed: int,
             samples: int, out: Audit) -> str | None:
    """How ``action`` told some seat something it did not know, or None."""
    for viewer in range(seats):
        known = game.view(before, viewer)
        for k in range(samples):
            try:
                sample = game.sample_state(known, viewer, random.Random(seed * 31 + k))
            except Exception:  # noqa: BLE001 - a game that cannot sample here: not judged
                return None
            if game.view(sample, viewer) != known:
                continue  # the sample is not exact: it cannot judge
            try:
                got = game.apply(sample, seat, action, _NoDraw())
            except (IllegalAction, _NoDraw.Drew):
                continue  # the action needs the actor's own secrets, or chance there
            out.judged += 1
            if _seen(got, viewer) != _seen(events, viewer):
                return f"showed seat {viewer} events that depend on what it could not see"
            if game.view(sample, viewer) != game.view(after, viewer):
                return (f"changed seat {viewer}'s view in a way that depends on what it "
                        "could not see")
    return None
