"""Every event of seeded random games reads as an English sentence, and every action a
seat is offered has a label in words (never the generic ``type(k=v)`` fallback)."""

from __future__ import annotations

import random

from lantable.plugins.nero import people, sentences

from . import helpers as nx

NAMES = ["Tom", "Frank", "Livia", "Otho"]


def test_every_event_and_choice_of_20_games_is_in_words() -> None:
    game = nx.GAME
    kinds: set[str] = set()
    for seed in range(20):
        rng = random.Random(seed)
        S = game.setup(3 + seed % 2, nx.opts(short_game=True), rng)
        while not game.is_over(S):
            seat = game.to_act(S)[0]
            legal = game.legal_actions(S, seat)
            view = game.view(S, seat)
            for a in legal[:5]:
                label = people.describe_action(view, seat, a, NAMES)
                assert label and label != a["type"] and "?" not in label, (a, label)
            for e in game.apply(S, seat, rng.choice(legal), rng):
                if e["type"] in ("dealt", "stolen") and seat not in e.get("to", [seat]):
                    continue  # private to the seats it names
                text = sentences.describe_event(game.view(S, None), None, e, NAMES)
                assert text, e
                kinds.add(e["type"])
    assert {"group", "halted", "answer", "event", "battle", "scored"} <= kinds
