"""Tally, the host tests' game: small, with hidden information and bugs on demand."""

from __future__ import annotations

from typing import Any

from lantable.plugins import IllegalAction, hookimpl


class Tally:
    """The host tests' game: seats take turns adding 1..3 to a counter up to a target.

    Each seat holds a secret card (hidden information). ``{"type": "boom"}`` makes
    the plugin crash when the option ``bugs`` is on (a broken plugin, on demand); with
    ``bugs`` on, building a view also fails while the counter is 6 to 8.
    The option ``pad`` adds that many bytes to every view (to fill buffers).
    """

    @hookimpl
    def game_info(self) -> dict[str, Any]:
        return {
            "id": "tally", "title": "Tally", "version": "1", "min_seats": 1, "max_seats": 6,
            "options": {"target": {"default": 20}, "bugs": {"default": False},
                        "pad": {"default": 0}},
            "traits": {"chance": True, "hidden_information": True, "simultaneous": False},
        }

    @hookimpl
    def game_setup(self, seats: int, options: dict[str, Any], rng: Any) -> dict[str, Any]:
        return {"n": seats, "counter": 0, "turn": 0, "target": options["target"],
                "secret": [rng.randrange(100) for _ in range(seats)], "bugs": options["bugs"],
                "pad": options["pad"], "by": [0] * seats}

    @hookimpl
    def game_to_act(self, state: dict[str, Any]) -> list[int]:
        return [] if state["counter"] >= state["target"] else [state["turn"]]

    @hookimpl
    def game_legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if state["counter"] >= state["target"] or seat != state["turn"]:
            return []
        return [{"type": "add", "n": n} for n in (1, 2, 3)]

    @hookimpl
    def game_apply(self, state: dict[str, Any], seat: int, action: dict[str, Any],
                   rng: Any) -> list[dict[str, Any]]:
        if action["type"] == "boom" and state["bugs"]:
            state["counter"] = "corrupted"
            raise RuntimeError("the plugin has a bug")
        if action["type"] != "add" or action.get("n") not in (1, 2, 3):
            raise IllegalAction(f"expected add with n in 1..3, got {action!r}")
        state["counter"] += action["n"]
        state["by"][seat] += action["n"]
        roll = rng.randrange(6)
        state["turn"] = (seat + 1) % state["n"]
        return [{"type": "added", "seat": seat, "n": action["n"]},
                {"type": "peek", "roll": roll, "to": [seat]}]

    @hookimpl
    def game_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        if state["bugs"] and state["counter"] in (6, 7, 8):
            raise RuntimeError("the plugin's view has a bug")
        view = {"counter": state["counter"], "turn": state["turn"], "by": list(state["by"]),
                "pad": "x" * state["pad"]}
        if seat is not None:
            view["my_secret"] = state["secret"][seat]
        return view

    @hookimpl
    def game_scores(self, state: dict[str, Any]) -> dict[str, Any]:
        by = state["by"]
        return {"scores": list(by), "rank": [1 + sum(1 for o in by if o > b) for b in by]}

    @hookimpl
    def game_sample_state(self, view: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
        n = len(view["by"])
        secret = [rng.randrange(100) for _ in range(n)]
        secret[seat] = view["my_secret"]
        return {"n": n, "counter": view["counter"], "turn": view["turn"], "target": 20,
                "secret": secret, "bugs": False, "pad": 0, "by": list(view["by"])}
