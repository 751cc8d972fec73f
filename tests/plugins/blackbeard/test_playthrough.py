"""A seeded golden playthrough: a whole 3-seat game of Blackbeard, every decision and
every public event, written as plain data so that only a change of the rules (not of
the wording of labels) changes it.

The chooser prefers doing something to passing or ending the turn, so the transcript
covers the rules. Regenerate after an intended rules change with
``BLACKBEARD_REGEN=1 python -m pytest tests/plugins/blackbeard/test_playthrough.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
import pathlib
import random

from .conftest import GAME

GOLDEN = pathlib.Path(__file__).with_name("playthrough_3p_seed2.txt")
PASSIVE = ("pass", "end_turn", "end_actions", "keep")


def _plain(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _transcript() -> str:
    rng, chooser = random.Random(2), random.Random(20)
    state = GAME.setup(3, {}, rng)
    lines = []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        active = [a for a in legal if a["type"] not in PASSIVE]
        action = chooser.choice(active) if active and chooser.random() < 0.75 else legal[-1]
        lines.append(f"seat {seat} [{len(legal)} legal]: {_plain(action)}")
        for event in GAME.apply(state, seat, action, rng):
            if "to" not in event:
                lines.append(f"    {_plain(event)}")
    scores = GAME.scores(state)
    lines.append(f"scores {scores['scores']} rank {scores['rank']}")
    return "\n".join(lines) + "\n"


def test_seeded_playthrough_matches_golden() -> None:
    text = _transcript()
    if os.environ.get("BLACKBEARD_REGEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
