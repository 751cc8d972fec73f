"""Issue 26, item 3: the search bots play hidden-deck games over TCP. A hidden-deck
table's seat knows only its view and its own cards (``view["_hand"]``); the greedy and
mcts bots sample full states from that with the game's ``game_sample_state``
(docs/plugins.md, "Sampling a state with hidden decks") and simulate in-process."""

from __future__ import annotations

from lantable.host.table import FINISHED
from lantable.plugins import hookimpl, load_registry
from lantable.plugins.conformance import check_game
from lantable.plugins.examples.highcard import HighCard

from .hiddengames import highcard_registry, play_hidden

MCTS = {"mcts": {"iterations": 30}}


async def test_greedy_and_mcts_play_high_card_with_hidden_decks_over_tcp(tmp_path):
    """High card samples with lantable.plugins.decks.sample_dealer (a hidden-deck
    state, the dealer's record included)."""
    game = await play_hidden(str(tmp_path / "j.sqlite"), 2, options={"rounds": 2},
                             strategies=["greedy", "mcts"], bot_options=MCTS,
                             registry=highcard_registry(), limit=120)
    assert game.host_table.status == FINISHED and len(game.results) == 2
    assert all(r == game.results[0] for r in game.results)
    assert [s.problems for s in game.seats.values()] == [[], []]
    assert any("_hand" in v for v in game.views[0] if v)  # the bots saw their own cards


async def test_greedy_and_mcts_play_nero_with_a_hidden_deck_over_tcp(tmp_path):
    """Nero samples a plain-mode state (its rules are the same): the short game, three
    seats, as short as Nero's options make it."""
    registry = load_registry(autoload=True)
    game = await play_hidden(str(tmp_path / "j.sqlite"), 3,
                             options={"hidden_deck": True, "short_game": True},
                             strategies=["greedy", "mcts", "random"],
                             bot_options={"mcts": {"iterations": 8}}, registry=registry,
                             game="nero", limit=600)
    assert game.host_table.status == FINISHED and len(game.results) == 3
    assert all(r == game.results[0] for r in game.results)
    assert [s.problems for s in game.seats.values()] == [[]] * 3


class PlainSampler(HighCard):
    """The mistake of issue 26: a sampler that copies the view and deals the unseen
    cards into the game's own fields, but leaves out the dealer's record."""

    @hookimpl
    def game_sample_state(self, view, seat, rng):
        state = HighCard.game_sample_state(self, view, seat, rng)
        del state["_dealer"]
        return state


def test_check_fails_a_hidden_deck_sampler_without_the_dealers_record():
    game = load_registry(autoload=False, plugins={"highcard": PlainSampler()})["highcard"]
    failures = check_game(game, games=1)
    assert failures and all("sample_dealer" in f for f in failures), failures
    honest = load_registry(autoload=False, plugins={"highcard": HighCard()})["highcard"]
    assert check_game(honest, games=2) == []
