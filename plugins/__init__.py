"""The lantable game API.

A game imports only what this module exports: ``hookimpl`` to mark its hooks and
``IllegalAction`` to refuse an action. Hosts and bots use :class:`Game` and
:func:`load_registry`. The hooks themselves are documented in
:mod:`lantable.plugins.hookspecs` and in ``docs/plugins.md``.
"""

from .errors import BadOptions, GameError, IllegalAction, PluginError
from .registry import (
    ENTRY_POINT_GROUP,
    Game,
    Registry,
    hookimpl,
    load_registry,
    make_plugin_manager,
)
from .types import Action, Event, GameInfo, Scores, State, View

__all__ = [
    "ENTRY_POINT_GROUP",
    "Action",
    "BadOptions",
    "Event",
    "Game",
    "GameError",
    "GameInfo",
    "IllegalAction",
    "PluginError",
    "Registry",
    "Scores",
    "State",
    "View",
    "hookimpl",
    "load_registry",
    "make_plugin_manager",
]
