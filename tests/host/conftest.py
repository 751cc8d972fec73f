"""Fixtures for host tests: a registry with the test game and a peer on loopback.

The helpers are plain modules: ``tally.py`` (the test game), ``rawclient.py`` (a
client on raw bytes for hostile tests).
"""

from __future__ import annotations

import pytest

from lantable.host.peer import serve_peer
from lantable.plugins import load_registry

from .tally import Tally


@pytest.fixture
def registry():
    return load_registry(autoload=False, plugins={"tally": Tally()})


@pytest.fixture
def make_peer(nursery, registry, tmp_path):
    """Start a peer on 127.0.0.1 with a journal in tmp_path: ``await make_peer(limits)``."""
    from lantable.host.limits import DEFAULT_LIMITS

    async def make(limits=DEFAULT_LIMITS, name="test-peer", db="journal.sqlite"):
        return await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=str(tmp_path / db), name=name, bind="127.0.0.1", port=0,
            limits=limits, task_status=task_status))

    return make


@pytest.fixture
async def peer(make_peer):
    """A running peer on 127.0.0.1 with a journal in tmp_path."""
    return await make_peer()
