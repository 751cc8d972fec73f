"""Fixtures for the protocol tests; the helpers themselves are in ``pairs.py``."""

from __future__ import annotations

import pytest

from .pairs import ConnectionPair


@pytest.fixture
def pair() -> ConnectionPair:
    return ConnectionPair()
