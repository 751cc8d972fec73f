"""Driving a real terminal: a command in a tmux session, read with ``capture-pane``.

Every screen a test looks at is saved under ``tests/artifacts/<test>/`` (gitignored)
so a person can read what a player saw.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
LANTABLE = [sys.executable, "-m", "lantable.clients.cli"]
HAVE_TMUX = shutil.which("tmux") is not None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Host:
    """``lantable host`` on loopback, as a subprocess that can be killed and restarted."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.db, self.port = db, port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> Host:
        self.proc = subprocess.Popen(
            [*LANTABLE, "host", "--bind", "127.0.0.1", "--port", str(self.port), "--db",
             str(self.db), "--no-discovery"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True)
        line = self.proc.stdout.readline()
        assert "listening" in line, line
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def run(self, *args: str) -> str:
        return subprocess.run([*LANTABLE, *args], check=True, capture_output=True, text=True,
                              timeout=60).stdout


class Tmux:
    """One tmux session (its own server socket) running one command."""

    def __init__(self, name: str, command: list[str], env: dict[str, str],
                 width: int = 120, height: int = 60) -> None:
        self.name = name
        self.socket = f"lantable-test-{name}-{time.monotonic_ns()}"
        self.folder = ARTIFACTS / name
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.shots = 0
        exports = " ".join(f"{k}={_quote(v)}" for k, v in env.items())
        shell = f"env {exports} {' '.join(_quote(c) for c in command)}; sleep 600"
        self._tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), shell)

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, text=True,
                              capture_output=True, timeout=20).stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "t")

    def send(self, text: str, enter: bool = True) -> None:
        self._tmux("send-keys", "-t", "t", "-l", text)
        if enter:
            self._tmux("send-keys", "-t", "t", "Enter")

    def ctrl_c(self) -> None:
        self._tmux("send-keys", "-t", "t", "C-c")

    def save(self, screen: str, label: str) -> None:
        self.shots += 1
        (self.folder / f"{self.shots:03d}-{label}.txt").write_text(screen)

    def wait_for(self, predicate, timeout: float = 30.0, label: str = "screen") -> str:
        """The first screen that satisfies ``predicate``; saved as an artifact."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if predicate(screen):
                self.save(screen, label)
                return screen
            time.sleep(0.05)
        self.save(screen, f"{label}-TIMEOUT")
        raise AssertionError(f"timed out waiting for {label}; the screen was:\n{screen}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       timeout=20)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"
