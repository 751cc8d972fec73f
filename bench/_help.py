"""The help every bench script gives: its whole docstring (what it measures and how)
as the description, and every option's default after its help line."""

from __future__ import annotations

import argparse


class Help(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The docstring as written, and ``(default: ...)`` after every option's help
    (unless the help already says its default)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if "default" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def parser(doc: str | None) -> argparse.ArgumentParser:
    return argparse.ArgumentParser(description=doc, formatter_class=Help)
