"""Every game's event sentences, reduced to a digest: what a refactor of the text hooks
(issue 26 item 9: ``lantable.plugins.text``) must keep word for word.

Two seeded random games per game and seat count; after each action every event is told as the acting
seat and as a spectator read it (``game_describe_event`` with that reader's view and
the seat names), and all the sentences go into one sha256 per game. Regenerate only
when a sentence is meant to change: ``LANTABLE_REGEN_DIGESTS=1 python -m pytest
tests/test_sentence_digest.py``, and say in the commit which sentences changed and why.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from lantable.clients.bots import make_bot
from lantable.plugins import load_registry, params

DIGESTS = Path(__file__).with_name("behaviour_digests") / "sentences.json"
REGEN = bool(os.environ.get("LANTABLE_REGEN_DIGESTS"))
GAMES = load_registry(autoload=True).games
CASES = {"race": (2,), "manila": (3, 4, 5), "kaisers-pirates": (1, 2, 3, 4), "nero": (3, 4),
         "blackbeard": (2, 3, 4), "pirates-spanish-main": (2, 3)}  # game -> seat counts
GAMES_EACH = 2  # seeded games per seat count
NAMES = ["ann", "bo", "cy", "di", "ed"]


def _sentences(game_id: str, seats: int, index: int) -> tuple[str, int]:
    game = GAMES[game_id]
    rng = random.Random(f"sentences/{game_id}/{seats}/{index}")
    bot_rng = random.Random(f"bots/{game_id}/{seats}/{index}")
    bots = [make_bot("random", game) for _ in range(seats)]
    digest, told = hashlib.sha256(), 0
    state = game.setup(seats, {}, rng)
    names = NAMES[:seats]
    for _ in range(20_000):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        legal = game.legal_actions(state, seat)
        if any(params.is_template(a) for a in legal):
            legal = game.concrete_actions(state, seat)
        action = bots[seat].choose(game.view(state, seat), seat, legal, bot_rng)
        events = game.apply(state, seat, action, rng)
        for reader in (seat, None):
            view = game.view(state, reader)
            for event in events:
                if "to" in event and event["to"] != reader:
                    continue  # a private event reaches only its seat
                said = game.describe_event(view, reader, event, names)
                digest.update(json.dumps([reader, said]).encode())
                told += said is not None
    else:
        raise AssertionError(f"{game_id}: no end")
    return digest.hexdigest(), told


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_the_sentences_are_unchanged(game_id: str) -> None:
    digest, told = hashlib.sha256(), 0
    for seats in CASES[game_id]:
        for index in range(GAMES_EACH):
            one, n = _sentences(game_id, seats, index)
            digest.update(one.encode())
            told += n
    got = digest.hexdigest()
    assert told > 50, f"{game_id}: only {told} events were told in words"
    want = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
    if REGEN:
        DIGESTS.parent.mkdir(exist_ok=True)
        DIGESTS.write_text(json.dumps({**want, game_id: got}, indent=1, sort_keys=True) + "\n")
        return
    assert want.get(game_id) == got, f"{game_id}: a sentence changed"
