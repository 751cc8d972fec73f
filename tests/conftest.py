"""Every test's clients keep their fair-play key and chains in a temporary data
directory, never in the user's (clients/fairplay.py, ``LANTABLE_HOME``)."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("LANTABLE_HOME", tempfile.mkdtemp(prefix="lantable-test-home-"))
