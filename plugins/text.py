"""Helpers for a game's text hooks and card bookkeeping (docs/plugins.md, "Sentences
and card helpers").

A game's ``game_describe_event`` tells each event in a sentence. Written as one long
``if event["type"] == ...`` chain it grows with the game; :class:`Sentences` is the
same thing as a table from an event's type to its sentence, a format string or a
function of an :class:`Said` (the event as its reader sees it)::

    sentences = Sentences()
    sentences.add("passed", "{who} passes")
    sentences.add("bid", "{who} bids {amount} for harbour master")

    @sentences.on("dealt")
    def _(e: Said) -> str:
        return "You were dealt a card" if e.mine else f"{e.who} was dealt a card"

    @hookimpl
    def game_describe_event(view, seat, event, names):
        return sentences.say(view, seat, event, names)

A type the table does not know gives None, so the host falls back to its own words.

The card helpers cover what games with hidden hands repeat: the cards a seat holds,
from its view where the host deals (``view[field]``) and from ``view["_hand"]`` at a
hidden-deck table (:func:`own_cards`), and the ``known`` maps a state keeps of which
positions each seat has seen (:func:`learn`, :func:`forget`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Said", "Sentences", "forget", "learn", "own_cards", "seat_name"]


def seat_name(names: Sequence[str], seat: Any) -> str:
    """Seat ``seat``'s name, or "seat N" for a seat the list does not name."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


@dataclass(frozen=True)
class Said:
    """An event as the seat ``seat`` (None: a spectator) reads it, for a sentence."""

    event: Mapping[str, Any]
    view: Mapping[str, Any]
    seat: int | None
    names: Sequence[str]

    def __getitem__(self, key: str) -> Any:
        return self.event[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.event.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.event

    def name(self, seat: Any) -> str:
        """Any seat's name (:func:`seat_name`)."""
        return seat_name(self.names, seat)

    @property
    def who(self) -> str:
        """The name of the event's ``seat``."""
        return seat_name(self.names, self.event.get("seat"))

    @property
    def mine(self) -> bool:
        """Whether the event is about the reader's own seat."""
        return self.seat is not None and self.event.get("seat") == self.seat


SayFn = Callable[[Said], "str | None"]


class Sentences:
    """A table from an event's type to its sentence (see the module)."""

    def __init__(self) -> None:
        self._by_type: dict[str, SayFn] = {}

    def on(self, *types: str) -> Callable[[SayFn], SayFn]:
        """Decorate a function of a :class:`Said` that tells events of ``types``."""
        def register(fn: SayFn) -> SayFn:
            for t in types:
                self._set(t, fn)
            return fn
        return register

    def add(self, type_: str, text: str | SayFn) -> None:
        """Tell events of ``type_`` with a format string: ``{who}`` is the event's seat's
        name, any other field is the event's own (``"{who} bids {amount}"``); or with a
        function of a :class:`Said` (a one-line ``lambda e: ...``)."""
        if callable(text):
            self._set(type_, text)
            return
        template = text

        def fill(e: Said) -> str:
            return template.format_map({**e.event, "who": e.who})
        self._set(type_, fill)

    def _set(self, type_: str, fn: SayFn) -> None:
        if type_ in self._by_type:
            raise ValueError(f"event type {type_!r} has a sentence already")
        self._by_type[type_] = fn

    @property
    def types(self) -> frozenset[str]:
        """The event types this table tells."""
        return frozenset(self._by_type)

    def say(self, view: Mapping[str, Any], seat: int | None, event: Mapping[str, Any],
            names: Sequence[str]) -> str | None:
        """The sentence for ``event`` (the arguments of ``game_describe_event``), or
        None for a type the table does not know."""
        fn = self._by_type.get(str(event.get("type")))
        return None if fn is None else fn(Said(event, view, seat, names))


def own_cards(view: Mapping[str, Any], field: str, deck: str) -> dict[Any, Any]:
    """The cards a seat holds, position -> card: ``view[field]`` (where the host deals)
    together with ``view["_hand"][deck]`` (what a hidden-deck table's client adds to the
    seat's view). Either may be missing or None."""
    hand = view.get("_hand") or {}
    return {**(view.get(field) or {}), **(hand.get(deck) or {})}


def learn(known: MutableMapping[str, Any], cards: Mapping[Any, Any]) -> None:
    """Note in a seat's ``known`` map (position, as a string, -> card) the cards it has
    seen (``game_cards_opened``)."""
    known.update({str(p): c for p, c in cards.items()})


def forget(known: MutableMapping[str, Any], positions: Iterable[Any]) -> None:
    """Drop positions a seat no longer holds from its ``known`` map."""
    for p in positions:
        known.pop(str(p), None)
