"""``lantable replay`` and ``verify``: read a peer's journal (``lantable.host.journal``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from lantable.protocol.undo import is_undo, undone_seqs

from ..errors import CliError
from ..terminal import format_event
from .common import add_command, default_db, installed, print_json
from .replayweb import add_web_flags, cmd_replay_web


def add_replay(sub: Any) -> None:
    p = add_command(sub, "replay", "print a table's full event log from a journal",
                    "Print a table's every action and event from a peer's journal.",
                    "lantable replay --table 1431269b")
    p.add_argument("--db", default=default_db(), help="the journal file")
    p.add_argument("--table", default=None, help="the table id")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_web_flags(p)  # --web FILE: step through it in a browser (replayweb.py)
    p.set_defaults(func=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    from lantable.host.chat import read_chat
    from lantable.host.journal import Journal

    if args.web is not None:
        return cmd_replay_web(args)
    if args.table is None:
        raise CliError("give the table to print with --table (or --web FILE to step "
                       "through a journal's games in a browser)")

    if not Path(args.db).exists():
        raise CliError(f"no journal at {args.db} (give the peer's journal with --db)")
    journal = Journal(args.db)
    record = journal.table(args.table)
    if record is None:
        known = ", ".join(t.id for t in journal.tables()) or "none"
        raise CliError(f"no table {args.table!r} in {args.db}; tables: {known}")
    actions = journal.actions(args.table)
    chat = read_chat(journal, args.table)  # host/chat.py: each line after the moves before it
    clock = journal.clock_records(args.table)  # turn clock and pauses (host/clock.py)
    if args.json:
        print_json({
            "table": record.id, "game": record.game, "seats": record.seats, "seed": record.seed,
            "options": record.options, "status": record.status, "names": record.names,
            "actions": [{"seq": a.seq, "seat": a.seat, "action": a.action, "events": a.events}
                        for a in actions],
            "chat": chat,
            "clock": clock,
        })
        return 0
    names = {s: record.names.get(s, "?") for s in range(record.seats)}
    print(f"table {record.id}: {record.game} v{record.game_version}, {record.seats} seats, "
          f"seed {record.seed}, {record.status}")
    print(f"options: {json.dumps(record.options)}")
    print("seats: " + ", ".join(f"{s}={n}" for s, n in names.items()))
    from lantable.host.clock import clock_lines

    def said(seq: int) -> None:
        for line in chat:
            if line["seq"] == seq:
                print(f"         {line['name']} ({line['room']}): {line['text']}")

    after = clock_lines(clock, names)  # seq -> the clock's sentences after that move
    for line in after.pop(-1, []):
        print(line)
    for line in after.pop(0, []):
        print(f"         {line}")
    said(0)
    undone = undone_seqs(actions)
    for a in actions:
        if is_undo(a.action):  # an undo by consent (docs/protocol.md, "Undo by consent")
            agreed = ", ".join(names.get(s, "?") for s in (a.events[0].get("consent", [])
                                                           if a.events else []))
            print(f"#{a.seq:<5} seat {a.seat} ({names[a.seat]}) took back #{a.action['undoes']}"
                  + (f", with the consent of {agreed}" if agreed else ""))
        else:
            act = json.dumps(a.action, ensure_ascii=False)
            mark = " (taken back)" if a.seq in undone else ""
            print(f"#{a.seq:<5} seat {a.seat} ({names[a.seat]}): {act}{mark}")
            for event in a.events:
                private = f" [to {event['to']}]" if "to" in event else ""
                print(f"         {format_event(event)}{private}")
        for line in after.pop(a.seq, []):
            print(f"         {line}")
        said(a.seq)
    for lines in after.values():  # records after moves the journal no longer has
        for line in lines:
            print(f"         {line}")
    return 0


def add_verify(sub: Any) -> None:
    p = add_command(sub, "verify",
                    "check a fair table's journal: signatures, reveals, rolls, result",
                    "Replay a table's journal and check every fair-play signature, every "
                    "revealed link against its commitment, every seed, roll and shuffle, and "
                    "the final result. Exit 1, naming the first event that does not check. A "
                    "table created without fair play is reported as such.",
                    "lantable verify --db journal.sqlite --table 1431269b")
    p.add_argument("--db", default=default_db(), help="the journal file")
    p.add_argument("--table", required=True, help="the table id")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    from lantable.host.journal import Journal

    from ..verify import JournalCopy, verify

    if not Path(args.db).exists():
        print(f"no journal at {args.db}", file=sys.stderr)
        return 2
    journal = Journal(args.db)
    record = journal.table(args.table)
    if record is None:
        print(f"no table {args.table!r} in {args.db}; tables: {[t.id for t in journal.tables()]}",
              file=sys.stderr)
        return 2
    registry = installed()
    if record.game not in registry:
        print(f"game {record.game!r} is not installed here: cannot replay", file=sys.stderr)
        return 2
    copy = JournalCopy(record.id, record.game, record.game_version, record.seats,
                       record.options, record.seed, record.status,
                       [(a.seq, a.seat, a.action, a.events) for a in journal.actions(record.id)],
                       journal.fair_records(record.id), journal.clock_records(record.id))
    report = verify(copy, registry[record.game])
    if args.json:
        print_json(report.to_map())
    else:
        for note in report.notes:
            print(f"note: {note}")
        for problem in report.problems:
            print(f"MISMATCH: {problem}")
        print(report.verdict())
    return 0 if report.ok else 1
