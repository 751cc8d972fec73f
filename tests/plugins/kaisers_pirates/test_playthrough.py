"""A seeded golden playthrough: the first 150 decisions of a 2-seat game.

Regenerate after an intended rules change with
``KP_REGEN=1 python -m pytest tests/plugins/kaisers_pirates/test_playthrough.py``
and review the diff.
"""

from __future__ import annotations

import os
import pathlib
import random

GOLDEN = pathlib.Path(__file__).with_name("playthrough_2p_seed1.txt")


def _transcript(kp) -> str:
    rng = random.Random(1)
    S = kp.GAME.setup(2, {}, rng)
    lines = []
    for _ in range(150):
        if kp.GAME.is_over(S):
            break
        seat = kp.GAME.to_act(S)[0]
        legal = kp.GAME.legal_actions(S, seat)
        good = [a for a in legal if a["type"] not in ("pass", "done", "end_turn")]
        action = good[0] if good and rng.random() < 0.6 else legal[-1]
        lines.append(f"seat {seat} [{S['pending']['kind']}, {len(legal)} legal]: "
                     f"{kp.GAME.describe(S, seat, action)}")
        for e in kp.GAME.apply(S, seat, action, rng):
            if e["type"] == "roll":
                lines.append(f"    roll {e['what']}: {e['a_faces']}{e['a_mod']:+d}={e['a']} vs "
                             f"{e['d_faces']}{e['d_mod']:+d}={e['d']}")
            elif "to" not in e and e["type"] not in ("turn_started", "committed", "drew"):
                rest = ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")
                lines.append(f"    {e['type']} {rest}")
    sc = kp.GAME.scores(S)
    lines.append(f"scores {sc['scores']} vp_now {sc['detail']['vp_now']}")
    return "\n".join(lines) + "\n"


def test_seeded_playthrough_matches_golden(kp) -> None:
    text = _transcript(kp)
    if os.environ.get("KP_REGEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
