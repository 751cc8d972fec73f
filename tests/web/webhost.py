"""A real ``lantable host`` process on loopback and a Chromium to drive, for the web
tests: plain helpers (``from .webhost import HostProcess``); the fixtures that start
and stop them are in conftest.py.

The host runs as a subprocess (``--bind 127.0.0.1 --no-discovery``: nothing leaves
loopback) so that a test can kill and restart it like a person would. Chromium is
Debian's ``/usr/bin/chromium`` (or ``$LANTABLE_CHROMIUM``), launched through
``executable_path``; Playwright's own browser download is never used.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "web"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("LANTABLE_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HostProcess:
    """``lantable host`` on loopback with fixed ports (so a restart keeps its URL)."""

    def __init__(self, db: Path, *extra: str) -> None:
        self.db = db
        self.extra = list(extra)  # more `lantable host` flags (e.g. a limit)
        self.port = free_port()
        self.web_port = free_port()
        self.proc: subprocess.Popen[str] | None = None
        self.log = db.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}/"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> HostProcess:
        # Two test workers (pytest-xdist) may be handed the same free port between
        # free_port() and the host's bind: the first start then takes new ports (a
        # restart keeps its ports, so that the page's URL stays the same).
        for attempt in range(5):
            try:
                return self._start()
            except RuntimeError as exc:
                if self._started or "already in use" not in str(exc) or attempt == 4:
                    raise
                self.port, self.web_port = free_port(), free_port()
        raise AssertionError("unreachable")

    _started = False

    def _start(self) -> HostProcess:
        log = self.log.open("a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lantable.clients.cli", "host", "--bind", "127.0.0.1",
             "--port", str(self.port), "--web-port", str(self.web_port), "--db", str(self.db),
             "--no-discovery", "--no-qr", *self.extra],
            stdout=log, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if "play in a browser" in self.log.read_text():
                self._started = True
                return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"host exited: {self.log.read_text()}")
            time.sleep(0.05)
        raise RuntimeError(f"host did not start: {self.log.read_text()}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def lantable(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """Run a ``lantable`` command against this host."""
        return subprocess.run([sys.executable, "-m", "lantable.clients.cli", *args],
                              capture_output=True, text=True, timeout=timeout, check=True)

    def new_table(self, game: str, seats: int, seed: int, *options: str) -> str:
        opts = [x for o in options for x in ("--option", o)]
        out = self.lantable("new", game, "--connect", self.address, "--seats", str(seats),
                            "--seed", str(seed), *opts)
        match = re.search(r"\b([0-9a-f]{8})\b", out.stdout)
        assert match, out.stdout
        return match.group(1)

    def bots(self, table: str, count: int, strategy: str = "random") -> subprocess.Popen[str]:
        """Bots that take ``count`` free seats and play to the end (in the background)."""
        return subprocess.Popen(
            [sys.executable, "-m", "lantable.clients.cli", "bot", "--connect", self.address,
             "--table", table, "--count", str(count), "--strategy", strategy, "--seed", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def screenshot(page: Any, name: str) -> Path:
    """Save a screenshot for a person to look at (tests/artifacts/web/)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header belongs at the top
    page.screenshot(path=str(path), full_page=True)
    return path


def late(route: Any) -> None:
    """A Playwright route handler: hold the request a second, then let it through (the
    page runs on meanwhile), as a loaded host serves a file late."""
    time.sleep(1)
    route.continue_()
