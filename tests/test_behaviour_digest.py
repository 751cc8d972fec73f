"""Seeded self-play of every game, reduced to digests: the behaviour a refactor must keep.

For each game and seat count a few seeded games are played in process by random bots
(and a greedy seat, so the heuristic is covered too). Three digests are kept per case:

- ``actions``: every (seat, action) in order, and the final scores. A redesign that
  changes this changed the rules or the random sequence.
- ``events``: every event the game returned. Changes when the rules or the event
  vocabulary change.
- ``views``: the acting seat's view and the spectators' view after every action.
  Changes when what clients receive changes (the terminal, the browser and bots
  read these), so a change here needs every consumer updated in the same commit.

After a deliberate rules change, regenerate with
``LANTABLE_REGEN_DIGESTS=1 python -m pytest tests/test_behaviour_digest.py`` and say
in the commit which game changed and why.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from lantable.clients.bots import make_bot
from lantable.plugins import load_registry, params

DIGESTS = Path(__file__).with_name("behaviour_digests")  # one JSON file per game
REGEN = bool(os.environ.get("LANTABLE_REGEN_DIGESTS"))

# game id -> (seat counts, games per seat count, action cap per game)
CASES: dict[str, tuple[tuple[int, ...], int, int]] = {
    "race": ((2, 3), 4, 10_000),
    "manila": ((3, 4, 5), 3, 10_000),
    "kaisers-pirates": ((1, 2, 4), 2, 20_000),
    "nero": ((3, 4), 2, 20_000),
    "blackbeard": ((2, 4), 2, 20_000),
    "pirates-spanish-main": ((2,), 1, 20_000),
}

GAMES = load_registry(autoload=True).games


def _plain(obj: object) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=repr).encode()


def _play(game_id: str, seats: int, index: int, cap: int) -> dict[str, str]:
    game = GAMES[game_id]
    rng = random.Random(f"{game_id}/{seats}/{index}")
    bot_rng = random.Random(f"bots/{game_id}/{seats}/{index}")
    bots = [make_bot("greedy" if s == 0 else "random", game) for s in range(seats)]
    acts, events, views = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
    state = game.setup(seats, {}, rng)
    for _ in range(cap):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        if any(params.is_template(a) for a in legal):
            legal = game.concrete_actions(state, seat)
        action = bots[seat].choose(view, seat, legal, bot_rng)
        acts.update(_plain([seat, action]))
        events.update(_plain(game.apply(state, seat, action, rng)))
        views.update(_plain([game.view(state, seat), game.view(state, None)]))
    else:
        raise AssertionError(f"{game_id}: no end after {cap} actions")
    acts.update(_plain(game.scores(state)))
    return {"actions": acts.hexdigest(), "events": events.hexdigest(),
            "views": views.hexdigest()}


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_seeded_self_play_is_unchanged(game_id: str) -> None:
    counts, games, cap = CASES[game_id]
    got = {f"{n}p#{i}": _play(game_id, n, i, cap) for n in counts for i in range(games)}
    path = DIGESTS / f"{game_id}.json"
    if REGEN:
        DIGESTS.mkdir(exist_ok=True)
        path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        return
    assert path.exists(), f"no digests for {game_id}: regenerate (see module docstring)"
    want: dict[str, Any] = json.loads(path.read_text())
    for case, digests in got.items():
        for kind in ("actions", "events", "views"):
            assert digests[kind] == want[case][kind], (
                f"{game_id} {case}: the seeded {kind} changed")


def test_every_game_has_a_case() -> None:
    assert set(GAMES) - {"race"} <= set(CASES), "add the new game to CASES"
