"""A seat's view as a fixed-length vector, for learning agents (docs/research.md).

Every game's view is a different tree of maps and lists, and its size changes as the
game goes (a hand grows, ships sink). A learning agent needs one fixed-length vector
per game, so the encoding is *feature hashing* of the view's leaves, the same for every
game, and built from the seat's view only (nothing else is passed in):

- each leaf is named by its path with list positions: ``.players.2.cash``;
- a number (or bool) adds ``squash(value)`` at ``crc32(path) % size``, where
  ``squash(x) = sign(x) * log1p(|x|)`` keeps 1/100 mm coordinates and card counts on
  one scale;
- a string or ``None`` adds 1 at ``crc32(path + "=" + value) % size`` (a one-hot that
  names the value; ``None`` is the string ``None``);
- an empty list or map adds 1 at ``crc32(path + "=empty") % size``.

(crc32 is zlib's, of the UTF-8 path; the root's path is empty.)

Collisions are rare at the default size (1,024) for the seed games' views, and are
harmless to a learner (they blur two features into one). The raw view stays available
to agents that prefer it (``LanTableEnv.view``).
"""

from __future__ import annotations

import math
import zlib
from typing import Any

import numpy as np

# Bounds of one feature, so that the observation space is a finite box; a view would
# need thousands of leaves on one slot to reach it, and the encoding clips there.
LIMIT = 1.0e4


def squash(x: float) -> float:
    return math.copysign(math.log1p(abs(x)), x)


def encode(view: Any, size: int = 1024) -> np.ndarray:
    """The view's leaves hashed into a ``float32`` vector of ``size``."""
    slots: list[int] = []
    values: list[float] = []
    slot, value_of = slots.append, values.append
    crc, log1p = zlib.crc32, math.log1p

    # ``path`` is the crc32 of the path so far: a child's path is its parent's followed
    # by ".key", and crc32 continues from the parent's, so no path string is built.
    def walk(path: int, value: Any) -> None:
        kind = type(value)
        if kind is dict:
            if not value:
                slot(crc(b"=empty", path))
                value_of(1.0)
            for key, item in value.items():
                walk(crc(_name(key), path), item)
        elif kind is list or kind is tuple:
            if not value:
                slot(crc(b"=empty", path))
                value_of(1.0)
            for i, item in enumerate(value):
                walk(crc(_name(i), path), item)
        elif kind is int or kind is bool:
            slot(path)
            value_of(log1p(value) if value >= 0 else -log1p(-value))
        elif kind is float:
            if value == value and abs(value) != math.inf:  # finite
                slot(path)
                value_of(math.copysign(log1p(abs(value)), value))
        else:  # str, None, bytes: a one-hot naming the value
            slot(crc(_value(value), path))
            value_of(1.0)

    walk(0, view)
    out = np.bincount(np.array(slots, dtype=np.int64) % size, weights=values, minlength=size)
    return np.clip(out, -LIMIT, LIMIT).astype(np.float32)


_NAMES: dict[Any, bytes] = {}
_VALUES: dict[Any, bytes] = {}


def _value(value: Any) -> bytes:
    """``=value`` as bytes, remembered."""
    name = _VALUES.get(value)
    if name is None:
        if len(_VALUES) > 100_000:
            _VALUES.clear()
        name = _VALUES[value] = f"={value}".encode()
    return name


def _name(key: Any) -> bytes:
    """``.key`` as bytes, remembered (the same keys come back every step)."""
    name = _NAMES.get(key)
    if name is None:
        if len(_NAMES) > 100_000:  # a game with unbounded names: start afresh
            _NAMES.clear()
        name = _NAMES[key] = f".{key}".encode()
    return name
