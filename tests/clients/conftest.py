"""Client tests: every test keeps its remembered seats (resume tokens) in its own data
directory, never in the user's, and subprocesses inherit it."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path, monkeypatch):
    home = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "lantable"
