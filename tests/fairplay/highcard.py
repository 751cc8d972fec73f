"""High card, the hidden-deck example game: shipped in the package
(:mod:`lantable.plugins.examples.highcard`), imported here by the hidden-deck tests."""

from lantable.plugins.examples.highcard import DECK, HighCard, highcard_game, suit

__all__ = ["DECK", "HighCard", "highcard_game", "suit"]
