"""host/words.py: the game's labels and sentences for a connection that said
hello.words, and the generic words when a game's describe hooks fail."""

from __future__ import annotations

import random
from typing import Any

from lantable.host.words import seat_names, update_words
from lantable.plugins import hookimpl, load_registry


class Wordy:
    """Race's rules with describe hooks that fail on demand."""

    def __init__(self, fail: bool) -> None:
        self.fail = fail

    @hookimpl
    def game_info(self) -> dict[str, Any]:
        return {"id": "wordy", "title": "Wordy", "version": "1", "min_seats": 1,
                "max_seats": 2, "options": {}}

    @hookimpl
    def game_setup(self, seats: int) -> dict[str, Any]:
        return {"n": 0}

    @hookimpl
    def game_to_act(self, state: dict[str, Any]) -> list[int]:
        return [0] if state["n"] < 3 else []

    @hookimpl
    def game_legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return [{"type": "up", "by": 1}]

    @hookimpl
    def game_apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list:
        state["n"] += 1
        return [{"type": "went_up", "seat": seat, "n": state["n"]}]

    @hookimpl
    def game_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return dict(state)

    @hookimpl
    def game_scores(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"scores": [state["n"]], "rank": [1]}

    @hookimpl
    def game_describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any],
                             names: list[str]) -> str:
        if self.fail:
            raise RuntimeError("a bug in the wording")
        return f"{names[seat]} goes up by {action['by']}"

    @hookimpl
    def game_describe_event(self, view: dict[str, Any], seat: int | None, event: dict[str, Any],
                            names: list[str]) -> str:
        if self.fail:
            raise RuntimeError("a bug in the wording")
        return f"{names[event['seat']]} reached {event['n']}"


def _game(fail: bool) -> Any:
    return load_registry(autoload=False, plugins={"wordy": Wordy(fail)})["wordy"]


def test_labels_and_sentences_come_from_the_games_hooks() -> None:
    game = _game(fail=False)
    state = game.setup(1, None, random.Random(1))
    events = game.apply(state, 0, {"type": "up", "by": 1}, random.Random(1))
    words = update_words(game, game.view(state, 0), 0, game.legal_actions(state, 0), events,
                         ["ann"])
    assert words == {"labels": ["ann goes up by 1"], "sentences": ["ann reached 1"]}


def test_a_failing_describe_hook_falls_back_to_the_generic_words(caplog) -> None:
    game = _game(fail=True)
    state = game.setup(1, None, random.Random(1))
    events = game.apply(state, 0, {"type": "up", "by": 1}, random.Random(1))
    words = update_words(game, game.view(state, 0), 0, game.legal_actions(state, 0), events,
                         ["ann"])
    assert words == {"labels": ["up(by=1)"], "sentences": ["ann: went up (n 1)"]}
    assert "game_describe_action failed" in caplog.text


def test_a_spectator_gets_sentences_and_no_labels() -> None:
    game = _game(fail=False)
    words = update_words(game, {"n": 0}, None, None, [{"type": "went_up", "seat": 0, "n": 1}],
                         ["ann"])
    assert words == {"sentences": ["ann reached 1"]}


def test_seat_names_fill_empty_seats() -> None:
    assert seat_names(["ann", None, "cy"]) == ["ann", "seat 1", "cy"]
