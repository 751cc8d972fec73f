"""Fixtures for the web tests: a real ``lantable host`` process on loopback, and real
headless Chromium driven by Playwright (the helpers are in webhost.py). Without a
Chromium the browser tests skip and say why; ``.ci/run`` installs one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .webhost import CHROMIUM_ARGS, PHONE, HostProcess, chromium_path


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostProcess]:
    proc = HostProcess(tmp_path / "journal.db").start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium: install Debian's chromium (apt-get install chromium) "
                    "or set LANTABLE_CHROMIUM; .ci/run does this")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is missing: pip install -e '.[test]'")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone-sized, touch-enabled page."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                  device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(exc.stack or str(exc)))  # where it failed
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
