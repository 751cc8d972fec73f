"""Steps, the undo tests' game: seats take turns; a step is a public choice, a roll
is chance and a peek reveals a hidden card (both undo barriers, ``game_undo_barrier``).
``Silent`` is the same game without the hook (every undo refused)."""

from __future__ import annotations

from typing import Any

from lantable.plugins import IllegalAction, hookimpl


class Silent:
    @hookimpl
    def game_info(self) -> dict[str, Any]:
        return {"id": self.id, "title": "Steps", "version": "1", "min_seats": 1,
                "max_seats": 4, "options": {"target": {"default": 30}},
                "traits": {"chance": True, "hidden_information": True,
                           "simultaneous": False}}

    id = "silent-steps"

    @hookimpl
    def game_setup(self, seats: int, options: dict[str, Any], rng: Any) -> dict[str, Any]:
        return {"n": seats, "pos": 0, "turn": 0, "target": options["target"],
                "cards": [rng.randrange(10) for _ in range(4)], "shown": [], "rolls": []}

    @hookimpl
    def game_to_act(self, state: dict[str, Any]) -> list[int]:
        return [] if state["pos"] >= state["target"] else [state["turn"]]

    @hookimpl
    def game_legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if seat not in self.game_to_act(state):
            return []
        out = [{"type": "step", "n": n} for n in (1, 2)] + [{"type": "roll"}]
        if len(state["shown"]) < len(state["cards"]):
            out.append({"type": "peek"})
        return out

    @hookimpl
    def game_apply(self, state: dict[str, Any], seat: int, action: dict[str, Any],
                   rng: Any) -> list[dict[str, Any]]:
        if action not in self.game_legal_actions(state, seat):
            raise IllegalAction(f"not legal now: {action!r}")
        state["turn"] = (seat + 1) % state["n"]
        if action["type"] == "step":
            state["pos"] += action["n"]
            return [{"type": "stepped", "seat": seat, "n": action["n"]}]
        if action["type"] == "roll":
            r = rng.randint(1, 6)
            state["rolls"].append(r)
            state["pos"] += r
            return [{"type": "rolled", "seat": seat, "roll": r}]
        card = state["cards"][len(state["shown"])]
        state["shown"].append(card)
        return [{"type": "peeked", "seat": seat, "card": card}]

    @hookimpl
    def game_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"pos": state["pos"], "turn": state["turn"], "shown": list(state["shown"]),
                "rolls": list(state["rolls"])}

    @hookimpl
    def game_scores(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"scores": [0] * state["n"], "rank": [1] * state["n"]}


class Steps(Silent):
    id = "steps"

    @hookimpl
    def game_undo_barrier(self, events: list[dict[str, Any]]) -> bool:
        return any(e["type"] in ("rolled", "peeked") for e in events)


class Sneaky(Steps):
    """Declares its peeks but not its rolls: the host still refuses to undo a roll (it
    drew from the rng)."""

    id = "sneaky-steps"

    @hookimpl
    def game_undo_barrier(self, events: list[dict[str, Any]]) -> bool:
        return any(e["type"] == "peeked" for e in events)
