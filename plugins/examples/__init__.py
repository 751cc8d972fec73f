"""Complete example games that docs/plugins.md cites, shipped with lantable so that a
plugin author with only ``pip install lantable`` can read and run them.

- :mod:`lantable.plugins.examples.highcard`: a trick game with a hidden hand, dealt
  through hidden decks, with a sampler for the search bots (docs/plugins.md, "Hidden
  decks").

They are not registered as games (no entry point): load one with
``load_registry(plugins={"highcard": HighCard()})``.
"""
