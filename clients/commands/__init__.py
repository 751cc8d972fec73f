"""The ``lantable`` commands, grouped by what they touch.

Each module adds its commands to the parser (``add_...(sub)``) and runs them
(``cmd_...(args)``); ``clients/cli.py`` lists them in order and handles errors.

- :mod:`.common`: the help format, shared arguments and small helpers.
- :mod:`.games`: ``games``, ``simulate``, ``check``: installed games, no network.
- :mod:`.peer`: ``host`` and ``demo``: run a peer on this machine.
- :mod:`.seats`: ``new``, ``bot``, ``play``: open a table, take its seats.
- :mod:`.peers`: ``peers``: what is on the LAN.
- :mod:`.journal`: ``replay``, ``verify``: read a peer's journal.
- :mod:`.discovery`: ``python -m lantable.clients.commands.discovery``, a bare advertiser
  and browser for the discovery tests and benchmark.

Like ``cli.py``, this package is part of the composition root, so it may import the
host and the web app (docs/architecture.md); the rest of ``clients/`` may not.
"""
