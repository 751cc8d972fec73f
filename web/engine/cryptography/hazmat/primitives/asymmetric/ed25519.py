"""See cryptography/__init__.py: in the page, keys live in JavaScript; any use here is a
bug and says so."""

from __future__ import annotations

from typing import Any


class _NotHere:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("the card engine signs in JavaScript (web/static/decks.js)")

    @classmethod
    def generate(cls) -> Any:
        return cls()

    @classmethod
    def from_private_bytes(cls, raw: bytes) -> Any:
        return cls()

    @classmethod
    def from_public_bytes(cls, raw: bytes) -> Any:
        return cls()


class Ed25519PrivateKey(_NotHere):
    pass


class Ed25519PublicKey(_NotHere):
    pass
