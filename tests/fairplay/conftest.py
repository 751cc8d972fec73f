"""Fixtures for the fair-play tests; the helpers themselves are in ``fairgames.py``."""

from __future__ import annotations

import pytest

from lantable.plugins import load_registry

from .fairgames import Dice


@pytest.fixture
def dice_registry():
    return load_registry(autoload=False, plugins={"dice": Dice()})
