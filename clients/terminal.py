"""The keyboard side of ``lantable play``: choices by number or in the game's words.

:class:`TerminalDecider` draws the seat's :class:`~.screen.Screen` with numbered
choices and reads a line: a number, words from a choice's label ("dock c",
"bid 11"), a JSON action, or (Pirates of the Spanish Main, :mod:`.aiming`) a
course aimed by target: "sail s0 toward I3", "dock s0 at I1". ``format_event`` and
``format_value`` are the plain renderings ``lantable replay`` prints.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import TYPE_CHECKING, Any, TextIO

import trio

from lantable.plugins import params

from .aiming import aim
from .fill import fill_template
from .screen import CHOICES_SHOWN, Screen

if TYPE_CHECKING:
    from lantable.plugins import Action
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


def match_choice(text: str, labels: list[str]) -> list[int]:
    """Indexes of the labels that ``text`` names, best first.

    A number picks that choice; otherwise every typed word must be a word of the
    label (case-insensitive), and labels where the words are exact beat labels
    where they only start a word ("dock c" picks "dock C — costs 2...", "bid 11"
    picks "bid 11 ..." over "bid 110 ...").
    """
    text = text.strip().lower()
    if text.isdigit():
        n = int(text)
        return [n - 1] if 1 <= n <= len(labels) else []
    words = text.replace(",", " ").split()
    if not words:
        return []
    exact, prefix = [], []
    for i, label in enumerate(labels):
        have = label.lower().replace(",", " ").replace("(", " ").replace(")", " ").split()
        if all(w in have for w in words):
            exact.append(i)
        elif all(any(h.startswith(w) for h in have) for w in words):
            prefix.append(i)
    return exact or prefix


class TerminalDecider:
    """Asks the person at the keyboard: numbered choices labelled in the game's words;
    type a number, words from a label, or a JSON action."""

    def __init__(self, screen: Screen, stdin: TextIO = sys.stdin, lines: Any = None,
                 bell: bool = False) -> None:
        self.screen = screen
        self.stdin = stdin
        # the typed lines meant for the prompt: clients/undo_terminal.py's UndoLines (undo
        # commands taken out), or a channel of them (chat commands taken out,
        # clients/tablechat.py); None: read stdin here
        self.lines = lines
        self.bell = bell  # ring the terminal bell when a decision comes

    async def _readline(self) -> str:
        if self.lines is None:
            line = await _lines_of(self.stdin).receive()
        elif hasattr(self.lines, "deciding"):
            self.lines.deciding = True
            try:
                line = await self.lines.receive.receive()
            finally:
                self.lines.deciding = False
        else:
            line = await self.lines.receive()
        if line is None:
            raise EOFError("input closed")
        return line.strip()

    async def _ask(self, question: str) -> str:
        print(question, end="", file=self.screen.console.file, flush=True)
        return await self._readline()

    async def __call__(self, update: Update, legal: list[Action]) -> Action:
        labels = self.screen.labels(legal)
        shown = list(range(len(labels)))
        ring = self.bell
        while True:
            listed = [(i + 1, labels[i]) for i in shown[:CHOICES_SHOWN]]
            more = max(0, len(shown) - CHOICES_SHOWN)
            prompt = f"Choose 1-{len(labels)}, or type words from a choice: "
            self.screen.asking = (listed, more, prompt)  # a chat line redraws them
            self.screen.draw(listed, more=more)
            if ring:  # your turn: the terminal's bell, once per decision
                print("\a", end="", file=self.screen.console.file, flush=True)
                ring = False
            print(prompt, end="", file=self.screen.console.file, flush=True)
            try:
                line = await self._readline()
            finally:
                self.screen.asking = None
            self.screen.notice = ""
            if line.startswith("{"):
                try:
                    action = json.loads(line)
                except json.JSONDecodeError as exc:
                    self.screen.notice = f"That is not JSON: {exc}"
                    continue
                if isinstance(action, dict) and isinstance(action.get("type"), str):
                    return action
                self.screen.notice = 'An action is a JSON object with a string "type".'
                continue
            aimed = aim(self.screen.game, update.view, self.screen.seat, legal, line)
            if aimed is not None:  # "sail s0 toward I3", "dock s0 at I1" (clients/aiming.py)
                action, sentence = aimed
                self.screen.notice = sentence
                if action is not None:
                    return action
                continue
            found = match_choice(line, labels)
            if len(found) == 1:
                if params.is_template(legal[found[0]]):  # typed parameters: ask for each
                    return await fill_template(legal[found[0]], self._ask)
                return legal[found[0]]
            if not line:
                shown = list(range(len(labels)))
            elif not found:
                self.screen.notice = (f"No choice matches {line!r}; type a number from 1 to "
                                      f"{len(labels)} or words from a choice.")
                shown = list(range(len(labels)))
            else:
                self.screen.notice = f"{len(found)} choices match {line!r}; be more precise:"
                shown = found


# One reader per input stream and trio run, shared by every decider of that run.
_READERS: dict[tuple[int, object], trio.MemoryReceiveChannel[str | None]] = {}


def _lines_of(stdin: TextIO) -> trio.MemoryReceiveChannel[str | None]:
    """The lines typed on ``stdin``, read by one daemon thread and handed to trio, so a
    decision that is cancelled (the host went away) never swallows the next line."""
    token = trio.lowlevel.current_trio_token()
    key = (id(stdin), token)
    if key in _READERS:
        return _READERS[key]
    send, receive = trio.open_memory_channel[str | None](64)

    def read() -> None:
        while True:
            line = stdin.readline()
            try:
                trio.from_thread.run_sync(send.send_nowait, line or None, trio_token=token)
            except (trio.RunFinishedError, trio.WouldBlock, trio.BrokenResourceError):
                return
            if not line:
                return

    threading.Thread(target=read, name="lantable-stdin", daemon=True).start()
    _READERS[key] = receive
    return receive
