"""Errors of the game API."""

from __future__ import annotations


class GameError(Exception):
    """Base of every error the game API raises."""


class IllegalAction(GameError):
    """A game refused an action; ``str(exc)`` is the human reason.

    Raised by ``game_apply`` (and by :class:`~lantable.plugins.Game` for an action
    from a seat that must not act). The state is unchanged when it is raised.
    """


class PluginError(GameError):
    """A game plugin is broken: bad ``game_info``, a missing required hook, an
    unknown hook name. Carries the offending ``plugin`` name."""

    def __init__(self, message: str, plugin: str) -> None:
        super().__init__(message)
        self.plugin = plugin


class BadOptions(GameError):
    """Table options or seat count that the game does not accept."""
