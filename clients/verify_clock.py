"""``lantable verify`` for a table with a turn clock or pauses (host/clock.py).

The clock is the host's word: only the host saw when each action arrived, so nobody
can check that a seat really took too long. What a journal copy can be checked for is
that its clock records agree with the game: a time-out names a seat that was to act
after the move it follows, its recorded time is spent, a forfeit is the table's last
word and its result is the replay's scores with that seat last, and a seat handed to a
bot by a time-out is one the journal then shows playing on.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lantable.plugins import Game


def check_clock(copy: Any, game: Game, report: Any) -> None:  # verify.JournalCopy, Report
    """Add the clock's problems and notes to ``report`` (replays the game's moves; at
    a fair table, whose rolls come from the seats, only the records' own shape)."""
    config = next((r for r in copy.clock if r.get("kind") == "config"), None)
    timeouts = [r for r in copy.clock if r.get("kind") == "timeout"]
    last_seq = copy.actions[-1][0] if copy.actions else 0
    to_act: dict[int, list[int]] = {}
    final: Any = None
    if not copy.fair:  # the seats to act after each move, and the final scores
        rng = random.Random(copy.seed)
        state = game.setup(copy.seats, copy.options, rng)
        to_act[0] = game.to_act(state)
        for seq, seat, action, _events in copy.actions:
            game.apply(state, seat, action, rng)
            to_act[seq] = game.to_act(state)
        final = game.scores(state)
    for rec in timeouts:
        at, who = rec.get("seq"), rec.get("seat")
        where = f"the time-out after move {at}"
        if not isinstance(at, int) or not isinstance(who, int) or not 0 <= who < copy.seats:
            report.problems.append(f"{where}: it names no seat of this table ({who!r})")
            continue
        seq, seat = at, who
        if config is None:
            report.problems.append(f"{where}: the table has no clock in its journal")
        if seq in to_act and seat not in to_act[seq]:
            report.problems.append(f"{where}: seat {seat} was not to act then, so its time "
                                   "could not run out")
        left = rec.get("left_ms")
        if isinstance(left, list) and len(left) == copy.seats and left[seat] > 0:
            report.problems.append(f"{where}: seat {seat} still had {left[seat]} ms")
        if rec.get("outcome") == "forfeit":
            if seq != last_seq:
                report.problems.append(f"{where}: the seat forfeited, yet the journal has "
                                       f"actions after it (up to move {last_seq})")
            if final is not None:
                n = copy.seats
                scores = dict(final)
                scores["rank"] = [n if s == seat else r
                                  for s, r in enumerate(scores.get("rank", [1] * n))]
                scores["forfeit"] = [seat]
                if rec.get("scores") != scores:
                    report.problems.append(f"{where}: the result it records "
                                           f"({rec.get('scores')}) is not the replay's with "
                                           f"seat {seat} forfeiting ({scores})")
                else:
                    report.scores = scores
        if rec.get("outcome") == "default":
            played = next(((s, a) for q, s, a, _e in copy.actions if q == seq + 1), None)
            if played != (seat, rec.get("action")):
                report.problems.append(f"{where}: the default action it records is not the "
                                       f"journal's next action ({played})")
        then = ("it forfeits" if rec.get("outcome") == "forfeit"
                else "the game's default action was played" if rec.get("outcome") == "default"
                else f"a {rec.get('strategy', '?')} bot played it")
        report.notes.append(f"seat {seat} ran out of time after move {seq} (the host's "
                            f"word): {then}")
    for rec in copy.clock:
        if rec.get("kind") in ("pause", "resume"):
            report.notes.append(f"the table was {rec['kind']}d after move {rec.get('seq')} "
                                "by every seat's consent")
