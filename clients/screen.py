"""What a person at ``lantable play`` sees: one screen, cleared and redrawn per change.

A screen is, top to bottom: the table's title line; the players by name (who is
you, whose turn it is, who dropped); the game's own board (``Game.render_text``);
the last events in words (``Game.describe_event``); one notice line (a refused
action, a lost connection); then either your numbered choices, "waiting for bob…",
or the result. Everything comes from the seat's updates; nothing is asked of the
host.
"""

from __future__ import annotations

import json
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Final

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from lantable.plugins import Action, Game
    from lantable.protocol import Update

EVENTS_SHOWN: Final = 8  # last events kept on screen
CHAT_SHOWN: Final = 5  # last chat lines kept on screen (clients/tablechat.py)
CHOICES_SHOWN: Final = 24  # choices listed before "type to narrow"


def seat_names(update: Update) -> list[str]:
    """A display name per seat: the player's name, else "seat N"."""
    return [s.get("name") or f"seat {i}" for i, s in enumerate(update.seats)]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _fmt(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def result_line(scores: dict[str, Any], seat: int | None, names: list[str]) -> str:
    """"You won: 134 to 65, 47, 24", "You came 2nd: 65 to 134, 47, 24; ann won with
    134", or for a spectator "ann won with 134 to 65, 47, 24"."""
    values, rank = scores["scores"], scores["rank"]
    if seat is not None and 0 <= seat < len(values):
        others = ", ".join(_fmt(v) for i, v in enumerate(values) if i != seat)
        tied = sum(1 for r in rank if r == rank[seat]) > 1
        if rank[seat] == 1:
            head = "You tied for first" if tied else "You won"
        else:
            head = f"You came {_ordinal(rank[seat])}" + (" (tied)" if tied else "")
        line = f"{head}: {_fmt(values[seat])} to {others}" if others else \
            f"{head}: {_fmt(values[seat])}"
        if rank[seat] != 1:  # name who won, so the last screen says it
            line += f"; {_winners(values, rank, names)}"
        return line
    return _winners(values, rank, names, with_rest=True)


def _winners(values: list[Any], rank: list[int], names: list[str],
             with_rest: bool = False) -> str:
    """"ann won with 134", "ann and bo tied for first with 65" (``with_rest``: "... to
    47, 24")."""
    winners = [i for i, r in enumerate(rank) if r == 1]
    if not winners:  # a one-seat game lost to the game itself (rank [2])
        return "the game itself won"
    who = " and ".join(names[i] if i < len(names) else f"seat {i}" for i in winners)
    rest = sorted((v for i, v in enumerate(values) if i not in winners), reverse=True)
    tail = f" to {', '.join(_fmt(v) for v in rest)}" if rest and with_rest else ""
    return f"{who} {'won' if len(winners) == 1 else 'tied for first'} with " \
           f"{_fmt(values[winners[0]])}{tail}"


class Screen:
    """The screen of one seat (or a spectator, ``seat=None``) at one table."""

    def __init__(self, game: Game, seat: int | None, console: Console | None = None,
                 peer_name: str = "") -> None:
        self.game = game
        self.seat = seat
        self.console = console or Console()
        self.peer_name = peer_name
        self.update: Update | None = None
        self.events: deque[str] = deque(maxlen=EVENTS_SHOWN)
        self.notice = ""
        self.chat: deque[str] = deque(maxlen=CHAT_SHOWN)  # the last chat lines, in words
        # (choices, more, prompt) while the decider waits for a line, so that a chat
        # line arriving then redraws them (:meth:`refresh`)
        self.asking: tuple[list[tuple[int, str]], int, str] | None = None
        self.arrived = 0.0  # time.monotonic() when the update arrived (the clock's zero)
        self.fits = False  # the last screen drawn fits the terminal (row 1 is the clock)

    # -- feeding -----------------------------------------------------------------

    def on_update(self, update: Update) -> None:
        """Take an update: keep its events as sentences. Drawing waits for
        :meth:`idle` (or the decider, which draws with the choices)."""
        self.update = update
        self.arrived = time.monotonic()
        names = seat_names(update)
        for event in update.events or ():
            try:
                sentence = self.game.describe_event(update.view or {}, self.seat, event, names)
            except Exception:  # a plugin's words must never cost a player the game
                sentence = f"{event.get('type')}"
            self.events.append(sentence)

    def idle(self) -> None:
        """Nothing more to read for now: redraw a live terminal. (Output that is not a
        terminal is a log: it gets the screens of seating, of each decision and the end,
        not one per move.)"""
        playing = self.update is not None and self.update.status == "playing"
        if self.console.is_terminal or not playing:
            self.draw()

    def clock_line(self) -> str | None:
        """The turn clock's line now (clients/clockline.py), or None."""
        if self.update is None:
            return None
        from .clockline import clock_line

        return clock_line(self.update, self.arrived, self.seat, seat_names(self.update))

    def say(self, text: str) -> None:
        """One notice line (a refusal, a reconnection), shown until the next one."""
        self.notice = text
        self.draw()

    # -- drawing -----------------------------------------------------------------

    def _players(self, update: Update, names: list[str]) -> Text:
        line = Text()
        for i, (name, entry) in enumerate(zip(names, update.seats, strict=True)):
            if i:
                line.append("  ·  ")
            mark = "▶ " if i in update.to_act else ""
            style = "bold" if i == self.seat else ""
            line.append(f"{mark}{name}", style=style)
            if i == self.seat:
                line.append(" (you)")
            if entry.get("taken") and not entry.get("connected"):
                line.append(" [disconnected]", style="red")
        return line

    def _status(self, update: Update, names: list[str]) -> str:
        if update.status == "finished" and update.scores:
            return "Game over. " + result_line(update.scores, self.seat, names)
        if update.status == "waiting":
            free = sum(1 for s in update.seats if not s.get("taken"))
            return f"Waiting for {free} more player{'s' * (free != 1)} to sit down…"
        if update.status == "faulted":
            return "The game hit an error on the host; it is being restored…"
        mine = update.seats[self.seat] if self.seat is not None else {}
        if (mine.get("bot") or {}).get("handed") and update.seat is None:
            return ("A bot plays your seat now (your time ran out). To take it back, leave "
                    "with Ctrl-C and run lantable play again.")
        others = [names[s] for s in update.to_act if s != self.seat]
        if self.seat in update.to_act and update.legal:
            return "Your move."
        if others:
            return f"Waiting for {' and '.join(others)}…"
        return ""

    def draw(self, choices: list[tuple[int, str]] | None = None, more: int = 0) -> None:
        """Clear the terminal and draw the whole screen; ``choices`` are (number,
        label) pairs to list, ``more`` how many were left out."""
        c = self.console
        c.clear()
        if not c.is_terminal:
            self._draw(choices, more)
            return
        with c.capture() as captured:
            self._draw(choices, more)
        text = captured.get()
        # the clock's line is redrawn in place only while the screen has not scrolled
        self.fits = text.count("\n") < c.size.height
        c.file.write(text)
        c.file.flush()

    def _draw(self, choices: list[tuple[int, str]] | None, more: int) -> None:
        update = self.update
        c = self.console
        if update is None:
            c.print("Connecting…")
            return
        names = seat_names(update)
        clock = self.clock_line()
        if clock is not None:  # the first line: clients/clockline.py redraws it in place
            c.print(Text(clock, style="bold"), overflow="ellipsis", no_wrap=True, crop=True)
        where = f" on {self.peer_name}" if self.peer_name else ""
        c.print(Text(f"{self.game.info['title']} — table {update.table}{where}, "
                     f"move {update.seq}", style="bold"))
        c.print(self._players(update, names))
        c.print(Rule(style="dim"))
        # Output that is not a terminal is a log (a script, a test): the board only at
        # the end, the events and choices at each decision.
        if update.view is not None and (c.is_terminal or update.status != "playing"):
            try:
                c.print(self.game.render_text(update.view, self.seat, names))
            except Exception as exc:  # show the generic board rather than nothing
                from lantable.plugins.registry import generic_board

                c.print(Text(generic_board(update.view)))
                c.print(Text(f"(the game's board failed: {exc!r})", style="dim"))
        if self.events:
            c.print(Rule("last events", style="dim"))
            for sentence in self.events:
                c.print(Text(f"  {sentence}"))
        if self.chat:
            c.print(Rule("chat (/say TEXT to talk, /help for more)", style="dim"))
            for said in self.chat:
                c.print(Text(f"  {said}"))
        c.print(Rule(style="dim"))
        if self.notice:
            c.print(Text(self.notice, style="yellow"))
        status = self._status(update, names)
        if status:
            c.print(Text(status, style="bold"))
        if choices:
            grid = Table.grid(padding=(0, 1))
            grid.add_column(justify="right", min_width=5)
            grid.add_column()
            for number, label in choices:
                grid.add_row(f"{number}.", label)  # a long label wraps under itself
            c.print(grid)
        if more:
            c.print(Text(f"       … and {more} more: type words to narrow them down"))

    def refresh(self) -> None:
        """Redraw now (a chat line came): with the choices and the prompt if the
        person is deciding."""
        if self.asking is None:
            self.draw()
            return
        listed, more, prompt = self.asking
        self.draw(listed, more=more)
        print(prompt, end="", file=self.console.file, flush=True)

    def labels(self, legal: list[Action]) -> list[str]:
        update = self.update
        view = update.view if update is not None and update.view is not None else {}
        names = seat_names(update) if update is not None else []
        seat = self.seat if self.seat is not None else 0
        labels = []
        for action in legal:
            try:
                labels.append(self.game.describe(view, seat, action, names))
            except Exception:  # a plugin's words must never cost a player the game
                labels.append(json.dumps(action, ensure_ascii=False))
        return labels
