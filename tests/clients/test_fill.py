"""A person fills a template at the terminal: one question per parameter."""

from __future__ import annotations

from lantable.clients.fill import fill_template

MOVE = {"type": "move", "ship": "s1",
        "params": {"segments": {"kind": "list", "min_items": 1, "max_items": 2,
                                "item": {"heading": {"kind": "heading"},
                                         "distance": {"kind": "int", "min": 0, "max": 8380}}}}}


async def test_fill_asks_until_each_answer_fits():
    answers = iter(["3", "2", "900", "9000", "", "8380", "0", "100"])
    asked: list[str] = []

    async def ask(question: str) -> str:
        asked.append(question)
        return next(answers)

    action = await fill_template(MOVE, ask)
    assert action == {"type": "move", "ship": "s1",
                      "segments": [{"heading": 900, "distance": 8380},
                                   {"heading": 0, "distance": 100}]}
    assert asked[0].startswith("segments: how many (1-2)")
    assert any("must be an integer in 0..8380" in q for q in asked)
