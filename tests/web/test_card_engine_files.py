"""What the peer serves for the card engine (web/card_engine.py) and the engine's own
Python (web/engine/lantable_engine.py) run here, in CPython: the Pyodide files only
from their directory and only by name, the seat's Python zip, the page told whether an
engine is there; and the engine's answers, signed afterwards as the page signs them,
check at the host's dealer."""

from __future__ import annotations

import importlib.util
import io
import json
import zipfile
from pathlib import Path
from types import ModuleType

import msgpack
import pytest

from lantable.protocol import fairplay as fp
from lantable.protocol.deck_errors import DealError
from lantable.protocol.hidden_deal import DealHost
from lantable.web import card_engine

ENGINE = Path(__file__).resolve().parents[2] / "web" / "engine" / "lantable_engine.py"


@pytest.fixture
def pyodide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in card_engine.PYODIDE_FILES:
        (tmp_path / name).write_bytes(name.encode())
    (tmp_path / "secret.txt").write_bytes(b"not served")
    monkeypatch.setenv("LANTABLE_PYODIDE", str(tmp_path))
    return tmp_path


def test_pyodide_files_are_served_by_name_only(pyodide: Path) -> None:
    assert card_engine.pyodide_dir() == pyodide
    assert card_engine.pyodide_file("pyodide.asm.wasm") == b"pyodide.asm.wasm"
    for name in ("secret.txt", "../secret.txt", "", "pyodide.asm.wasm/.."):
        assert card_engine.pyodide_file(name) is None


def test_no_pyodide_means_no_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANTABLE_PYODIDE", str(tmp_path))
    assert card_engine.pyodide_dir() is None
    assert card_engine.pyodide_file("pyodide.asm.wasm") is None


def test_the_python_zip_holds_the_client_half_and_the_stand_ins() -> None:
    raw = card_engine.python_zip(["nero", "highcard"])
    names = set(zipfile.ZipFile(io.BytesIO(raw)).namelist())
    for needed in ("lantable/clients/fairdecks.py", "lantable/protocol/hidden_deal.py",
                   "lantable/plugins/nero/client.py", "lantable/host/textboard.py",
                   "msgpack/fallback.py", "pluggy/__init__.py", "rbcl.py",
                   "cryptography/hazmat/primitives/asymmetric/ed25519.py",
                   "lantable_engine.py", "engine.json"):
        assert needed in names, needed
    assert not any(n.endswith((".so", ".pyc")) or "__pycache__" in n for n in names)
    assert not any(n.startswith(("lantable/host/table", "lantable/web/")) for n in names)
    info = json.loads(zipfile.ZipFile(io.BytesIO(raw)).read("engine.json"))
    assert info["games"]["nero"] == "lantable.plugins.nero"
    assert "highcard" not in info["games"]  # not installed here: no entry point


@pytest.fixture(scope="module")
def engine_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lantable_engine_under_test", ENGINE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_engines_passes_check_once_the_page_has_signed_them(engine_module) -> None:
    page, other = fp.Identity(), fp.Identity()
    engine = engine_module.Engine(page.public, {})
    dealer = DealHost("t1", "cards/1", 20, [page.public, other.public])
    base = {"t": "deck_request", "table": "t1", "seat": 0, "game": "highcard",
            "deck": "cards", "round": 1, "n": 20, "seats": 2}
    def wire(points: list[str]) -> bytes:  # a deck on the wire: its points end to end
        return b"".join(bytes.fromhex(p) for p in points)

    out = msgpack.unpackb(engine.answer(msgpack.packb({**base, "kind": "shuffle",
                                                       "points": wire(dealer.current())})))
    assert out["t"] == "deck_pass"
    assert out["fields"]["sig"] == bytes.fromhex(engine_module.placeholder(0))
    points = out["fields"]["points"]
    unsigned = {"t": "deck_pass", **out["fields"], "deck": "cards/1",  # as the host reads it
                "points": [points[i:i + 32].hex() for i in range(0, len(points), 32)],
                "sig": out["fields"]["sig"].hex()}
    with pytest.raises(DealError, match="does not check"):  # a placeholder is no signature
        dealer.receive_pass(unsigned)
    signed = {**unsigned, "sig": page.private.sign(out["sign"][0]).hex()}  # as decks.js does
    dealer.receive_pass(signed)
    assert dealer.expected() == ("shuffle", 1)
    # a request for a round it never shuffled: said, not raised
    late = msgpack.unpackb(engine.answer(msgpack.packb({**base, "round": 2, "kind": "lock",
                                                        "points": wire(dealer.current())})))
    assert "no shuffle" in late["problem"]
    assert msgpack.unpackb(engine.update(msgpack.packb({"t": "update", "table": "t9",
                                                         "seat": 0, "view": {}}))) == {}
