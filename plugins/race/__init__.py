"""Race to N: the smallest real game, shipped as the plugin authors' example.

Seats take turns adding 1 to ``max_step`` to a shared counter; the seat whose move
brings the counter exactly to ``target`` wins. One move is one counter step, so it
is also the load shape of the network benchmark. Perfect information, no chance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction, hookimpl

if TYPE_CHECKING:
    import random

INFO = {
    "id": "race",
    "title": "Race to N",
    "version": "1.0",
    "min_seats": 1,
    "max_seats": 8,
    "options": {
        "target": {"default": 21, "help": "the number to reach exactly"},
        "max_step": {"default": 2, "choices": [1, 2, 3, 4, 5], "help": "largest step"},
    },
    "traits": {"chance": False, "hidden_information": False, "simultaneous": False},
    # The browser shows these words in Italian (docs/plugins.md, "Words in other languages").
    "translations": {"it": {"title": "Corsa a N", "phrases": [
        [r"^add (\d+) \(counter (\d+) -> (\d+)\)$", "aggiungi $1 (contatore da $2 a $3)"],
        [r"^(.+): stepped \(n (\d+), counter (\d+)\)$", "$1 aggiunge $2: il contatore è a $3"],
    ]}},
}


@hookimpl
def game_info() -> dict[str, Any]:
    return INFO


@hookimpl
def game_setup(seats: int, options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if options["target"] < 1:
        raise IllegalAction(f"target must be at least 1, got {options['target']!r}")
    return {
        "seats": seats,
        "target": options["target"],
        "max_step": options["max_step"],
        "counter": 0,
        "turn": 0,
        "moves": 0,
        "winner": None,
    }


@hookimpl
def game_to_act(state: dict[str, Any]) -> list[int]:
    return [] if state["winner"] is not None else [state["turn"]]


@hookimpl
def game_default_action(state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """A seat out of time steps 1 (the smallest step; a turn clock's "default")."""
    legal = game_legal_actions(state, seat)
    return legal[0] if legal else None


@hookimpl
def game_legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Steps in ascending order, never overshooting the target."""
    if state["winner"] is not None or seat != state["turn"]:
        return []
    room = state["target"] - state["counter"]
    return [{"type": "step", "n": n} for n in range(1, min(state["max_step"], room) + 1)]


@hookimpl
def game_apply(state: dict[str, Any], seat: int, action: dict[str, Any],
               rng: random.Random) -> list[dict[str, Any]]:
    if action.get("type") != "step":
        raise IllegalAction(f"unknown action type {action.get('type')!r}, expected 'step'")
    n = action.get("n")
    room = state["target"] - state["counter"]
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= min(state["max_step"], room):
        raise IllegalAction(
            f"step n must be an int in 1..{min(state['max_step'], room)}, got {n!r}")
    state["counter"] += n
    state["moves"] += 1
    events: list[dict[str, Any]] = [
        {"type": "stepped", "seat": seat, "n": n, "counter": state["counter"]}]
    if state["counter"] == state["target"]:
        state["winner"] = seat
        events.append({"type": "won", "seat": seat})
    else:
        state["turn"] = (seat + 1) % state["seats"]
    return events


@hookimpl
def game_view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return dict(state)  # nothing is hidden in this game


@hookimpl
def game_view_parts(state: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    # Optional, for speed: everyone's view at once, so the host encodes it once per move
    # rather than once per seat (docs/plugins.md). Nothing here is a seat's own.
    return dict(state), [{} for _ in range(state["seats"])]


@hookimpl
def game_scores(state: dict[str, Any]) -> dict[str, Any]:
    winner = state["winner"]
    scores = [1 if s == winner else 0 for s in range(state["seats"])]
    rank = [1 if winner is None or s == winner else 2 for s in range(state["seats"])]
    return {"scores": scores, "rank": rank}


@hookimpl
def game_sample_state(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    return dict(view)


@hookimpl
def game_heuristic(state: dict[str, Any], seat: int) -> float:
    """Winning positions leave the rival a multiple of (max_step + 1) to go."""
    if state["winner"] is not None:
        return 1.0 if state["winner"] == seat else -1.0
    room = state["target"] - state["counter"]
    mover_wins = room % (state["max_step"] + 1) != 0
    return 0.5 if (state["turn"] == seat) == mover_wins else -0.5


@hookimpl
def game_describe_action(state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
    return f"add {action['n']} (counter {state['counter']} -> {state['counter'] + action['n']})"
