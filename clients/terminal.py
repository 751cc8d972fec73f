"""A line-based terminal client for people: the view, then numbered choices."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

import trio

from lantable.plugins import params

from .fill import fill_template

if TYPE_CHECKING:
    from lantable.plugins import Action, Game
    from lantable.protocol import Update


def format_value(value: Any, indent: int = 0, width: int = 100) -> str:
    """A compact, readable rendering of a view: one line per key, short lists inline."""
    pad = "  " * indent
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            flat = json.dumps(item, separators=(",", ":"), ensure_ascii=False)
            if len(pad) + len(str(key)) + len(flat) + 2 <= width:
                lines.append(f"{pad}{key}: {flat}")
            else:
                lines.append(f"{pad}{key}:")
                lines.append(format_value(item, indent + 1, width))
        return "\n".join(lines)
    if isinstance(value, list):
        return "\n".join(
            f"{pad}- {json.dumps(v, separators=(',', ':'), ensure_ascii=False)}"
            if len(json.dumps(v)) + len(pad) < width
            else f"{pad}-\n" + format_value(v, indent + 1, width)
            for v in value
        )
    return pad + json.dumps(value, ensure_ascii=False)


def format_event(event: dict[str, Any]) -> str:
    rest = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in event.items()
                     if k not in ("type", "to"))
    return f"{event.get('type')}: {rest}" if rest else str(event.get("type"))


def show_update(update: Update, out: TextIO = sys.stdout) -> None:
    for event in update.events or ():
        print(f"  * {format_event(event)}", file=out)
    if update.full or update.legal:
        print(f"--- table {update.table}, update {update.seq}, {update.status}; "
              f"to act: {update.to_act}", file=out)
        if update.view is not None and update.legal:
            print(format_value(update.view, 1), file=out)


class TerminalDecider:
    """Asks a person to pick a numbered action (or type one as JSON)."""

    def __init__(self, game: Game, seat: int, stdin: TextIO = sys.stdin,
                 out: TextIO = sys.stdout) -> None:
        self.game = game
        self.seat = seat
        self.stdin = stdin
        self.out = out

    async def _ask(self, question: str) -> str:
        print(question, end="", file=self.out, flush=True)
        line = await trio.to_thread.run_sync(self.stdin.readline)
        if not line:
            raise EOFError("input closed")
        return line

    async def __call__(self, update: Update, legal: list[Action]) -> Action:
        view = update.view or {}
        print(f"\nYour move (seat {self.seat}):", file=self.out)
        for i, action in enumerate(legal, 1):
            print(f"  {i:3d}. {self.game.describe(view, self.seat, action)}", file=self.out)
        while True:
            print(f"choose 1-{len(legal)} (or a JSON action, or 'v' to see the view): ", end="",
                  file=self.out, flush=True)
            line = await trio.to_thread.run_sync(self.stdin.readline)
            if not line:
                raise EOFError("input closed")
            line = line.strip()
            if line == "v":
                print(format_value(view, 1), file=self.out)
            elif line.isdigit() and 1 <= int(line) <= len(legal):
                chosen = legal[int(line) - 1]
                if params.is_template(chosen):  # typed parameters: ask for each
                    return await fill_template(chosen, self._ask)
                return chosen
            elif line.startswith("{"):
                try:
                    action = json.loads(line)
                except json.JSONDecodeError as exc:
                    print(f"not JSON: {exc}", file=self.out)
                    continue
                if isinstance(action, dict) and isinstance(action.get("type"), str):
                    return action
                print("an action is a JSON object with a string \"type\"", file=self.out)
            else:
                print(f"please type a number from 1 to {len(legal)}", file=self.out)
