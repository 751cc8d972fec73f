"""The type checker: mypy, strict (``[tool.mypy]`` in pyproject.toml), on the packages
named in :data:`STRICT`. ``.ci/run`` runs this file as a script before the tests.

The folders install under one namespace (``protocol/`` is ``lantable.protocol``,
pyproject's ``package-dir``) and an editable install reaches them through an import
hook that mypy cannot follow. So the check first lays out ``lantable/`` as symbolic
links to the folders, under ``.mypy_cache/tree`` (stable, so mypy's cache there
stays valid between runs), and checks ``-p lantable.<package>`` against it;
``lantable.*`` imports between packages then resolve to the real code. Packages not
in :data:`STRICT` are read for their types but their own errors are not reported
(``follow_imports = "silent"``).

Usage: ``python tests/test_types.py`` (exit status 1 and mypy's report on errors).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The packages mypy checks strictly. Adding one (e.g. "host") is this one line.
STRICT: tuple[str, ...] = ("protocol", "host", "plugins.manila", "plugins.text", "web", "clients",
                          "rl")
# Every top-level folder of the lantable namespace (pyproject's package-dir).
FOLDERS = ("protocol", "plugins", "host", "clients", "web", "rl")
CACHE = ROOT / ".mypy_cache"
TREE = CACHE / "tree"


def _lay_out_tree() -> Path:
    """``.mypy_cache/tree/lantable/<folder>`` -> ``<folder>``, for each folder."""
    namespace = TREE / "lantable"
    namespace.mkdir(parents=True, exist_ok=True)
    for folder in FOLDERS:
        link = namespace / folder
        target = ROOT / folder
        if link.is_symlink() and link.resolve() == target:
            continue
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target, target_is_directory=True)
    return TREE


def run_mypy(packages: tuple[str, ...] = STRICT, files: tuple[Path, ...] = ()) -> tuple[int, str]:
    """Run mypy on ``packages`` (and any extra ``files``); returns its exit status and
    its report, with paths written as the repository's own (``protocol/_messages.py``,
    not the link tree)."""
    tree = _lay_out_tree()
    args = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
            "--cache-dir", str(CACHE)]
    for package in packages:
        args += ["-p", f"lantable.{package}"]
    args += [str(f) for f in files]
    env = {**os.environ, "MYPYPATH": str(tree)}
    proc = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    report = (proc.stdout + proc.stderr).replace(f"{tree}/lantable/", "")
    report = report.replace(f"{tree.relative_to(ROOT)}/lantable/", "")
    return proc.returncode, report


def test_strict_packages_type_check_clean() -> None:
    status, report = run_mypy()
    assert status == 0, f"mypy found errors:\n{report}"
    assert "Success" in report


def test_the_configuration_is_strict(tmp_path: Path) -> None:
    """The check can fail: under the project's configuration, a function without
    annotations (fine for plain mypy) is an error, as is a wrong return type."""
    probe = tmp_path / "probe.py"
    probe.write_text("def double(x):\n    return 2 * x\n\n\n"
                     "def half(x: int) -> str:\n    return x // 2\n")
    status, report = run_mypy(packages=(), files=(probe,))
    assert status == 1
    assert "probe.py:1: error: Function is missing a type annotation" in report
    assert "probe.py:6: error: Incompatible return value type" in report


def test_message_classes_are_dataclasses_to_the_checker(tmp_path: Path) -> None:
    """``@_message`` is a ``dataclass_transform``: the checker knows each message's
    keyword-only constructor, its field types and that fields are read-only."""
    probe = tmp_path / "messages_probe.py"
    probe.write_text("from lantable.protocol import Hello\n"
                     "hello = Hello(proto=1, name='ann')\n"
                     "reveal_type(hello.token)\n"
                     "hello.name = 'bob'\n"
                     "Hello(proto='1', name='ann')\n"
                     "Hello(1, 'ann')\n")
    status, report = run_mypy(packages=(), files=(probe,))
    assert status == 1
    assert 'messages_probe.py:3: note: Revealed type is "str | None"' in report
    assert 'messages_probe.py:4: error: Property "name" defined in "Hello" is read-only' in report
    assert 'messages_probe.py:5: error: Argument "proto" to "Hello" has incompatible type' in report
    assert "messages_probe.py:6: error: Too many positional arguments" in report


if __name__ == "__main__":
    status, report = run_mypy()
    print(report, end="")
    sys.exit(status)
