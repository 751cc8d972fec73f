"""A seeded golden playthrough: a whole 4-seat game of Manila, every decision and
every public event, written as plain data so that only a change of the rules (not of
the wording of labels) changes it.

Regenerate after an intended rules change with
``MANILA_REGEN=1 python -m pytest tests/plugins/manila/test_playthrough.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
import pathlib
import random

from .helpers import GAME

GOLDEN = pathlib.Path(__file__).with_name("playthrough_4p_seed3.txt")


def _plain(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _transcript() -> str:
    rng = random.Random(3)
    state = GAME.setup(4, {}, rng)
    lines = []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        # Prefer doing something over passing, so the transcript covers the rules.
        good = [a for a in legal if a["type"] != "pass"]
        action = rng.choice(good) if good and rng.random() < 0.7 else legal[-1]
        lines.append(f"seat {seat} [{len(legal)} legal]: {_plain(action)}")
        for event in GAME.apply(state, seat, action, rng):
            if "to" not in event:
                lines.append(f"    {_plain(event)}")
    scores = GAME.scores(state)
    lines.append(f"scores {scores['scores']} rank {scores['rank']}")
    return "\n".join(lines) + "\n"


def test_seeded_playthrough_matches_golden() -> None:
    text = _transcript()
    if os.environ.get("MANILA_REGEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
