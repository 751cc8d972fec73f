"""A third-party game package whose words live in a module it forgot to import (issue
26, item 6): ``text.game_describe_event`` is marked @hookimpl but never registered."""

from lantable.plugins import IllegalAction, hookimpl


@hookimpl
def game_info():
    return {"id": "trails", "title": "Trails", "version": "1", "min_seats": 1,
            "max_seats": 1, "options": {"length": {"default": 3, "min": 1, "max": 9}},
            "traits": {}}


@hookimpl
def game_setup(options):
    return {"left": options["length"]}


@hookimpl
def game_to_act(state):
    return [0] if state["left"] else []


@hookimpl
def game_legal_actions(state, seat):
    return [{"type": "walk"}] if state["left"] else []


@hookimpl
def game_apply(state, seat, action):
    if action.get("type") != "walk":
        raise IllegalAction(f"not a move: {action!r}")
    state["left"] -= 1
    return [{"type": "walked", "left": state["left"]}]


@hookimpl
def game_view(state, seat):
    return {"left": state["left"]}


@hookimpl
def game_scores(state):
    return {"scores": [0], "rank": [1]}


def game_render_text(view, seat, names):  # no @hookimpl: never called
    return f"{view['left']} steps to go"
