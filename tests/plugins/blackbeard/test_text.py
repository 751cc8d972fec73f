"""Words for people: every action and event of a few random games reads as a sentence,
built from the seat's view alone, and the board renders."""

from __future__ import annotations

import io
import random

from rich.console import Console

from lantable.plugins.blackbeard.data import PIRATES

from .conftest import GAME

NAMES = ["Anne", "Bart", "Calico", "Dido", "Ned"]


def test_every_action_and_event_is_described_from_the_view() -> None:
    seen_actions: set[str] = set()
    seen_events: set[str] = set()
    for seed in range(6):
        seats = 2 + seed % 4
        rng, chooser = random.Random(seed), random.Random(seed + 50)
        S = GAME.setup(seats, None, rng)
        names = NAMES[:seats]
        while GAME.to_act(S):
            seat = GAME.to_act(S)[0]
            view = GAME.view(S, seat)
            legal = GAME.legal_actions(S, seat)
            for a in legal:
                text = GAME.describe(view, seat, a, names)
                assert isinstance(text, str) and text and "{" not in text, a
                seen_actions.add(a["type"])
            events = GAME.apply(S, seat, chooser.choice(legal), rng)
            after = GAME.view(S, 0)
            for e in events:
                if "to" in e and 0 not in e["to"]:
                    continue
                text = GAME.describe_event(after, 0, e, names)
                assert isinstance(text, str) and text and "{" not in text, e
                seen_events.add(e["type"])
    assert {"move", "play_actions", "end_turn", "pass"} <= seen_actions
    assert {"turn", "moved", "roll"} <= seen_events


def test_the_board_renders_for_players_and_spectators() -> None:
    S = GAME.setup(3, None, random.Random(2))
    rng, chooser = random.Random(3), random.Random(4)
    for _ in range(40):
        seat = GAME.to_act(S)[0]
        GAME.apply(S, seat, chooser.choice(GAME.legal_actions(S, seat)), rng)
    for seat in (0, None):
        out = io.StringIO()
        Console(file=out, width=120).print(GAME.render_text(GAME.view(S, seat), seat, NAMES[:3]))
        text = out.getvalue()
        assert "Pirate Displays" in text and "Caribbean" in text
        assert ("Your hand" in text) is (seat is not None)


def test_the_board_says_whose_turn_it_is_and_what_is_being_decided() -> None:
    """A polled AP player reads what the pirate is doing before "let him be": the
    board's last lines name the phasing player, his Actions left and the procedure."""
    seen: dict[str, str] = {}
    for seed in range(4):
        rng, chooser = random.Random(seed), random.Random(seed + 9)
        S = GAME.setup(4, None, rng)
        while GAME.to_act(S) and len(seen) < 4:
            seat = GAME.to_act(S)[0]
            top = S["stack"][-1]
            kind = "window" if top["kind"] == "ap_window" else top["kind"]
            if kind in ("setup", "main", "window", "fight_or_escape") and kind not in seen:
                out = io.StringIO()
                Console(file=out, width=120).print(
                    GAME.render_text(GAME.view(S, seat), seat, NAMES[:4]))
                seen[kind] = " ".join(out.getvalue().split())  # rich wraps long lines
                if kind == "window":
                    pid = top["pirate"]
                    label = GAME.describe(GAME.view(S, seat), seat, {"type": "pass"}, NAMES)
            GAME.apply(S, seat, chooser.choice(GAME.legal_actions(S, seat)), rng)
    assert "Setting up: each player puts his first pirate to sea." in seen["setup"]
    assert "Your turn" in seen["main"]
    assert "each other player may answer with one AP action" in seen["window"]
    assert "'s turn" in seen["window"]
    assert "is attacked: fight, or try to escape" in seen["fight_or_escape"]
    assert label == f"let {PIRATES[pid]['name']} be (no AP action)"
