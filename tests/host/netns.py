"""A private LAN of network namespaces for discovery tests (needs root and ``ip netns``).

``Lan(n)`` creates a bridge namespace holding ``br0`` and ``n`` member namespaces,
each joined to the bridge by a veth pair whose inner end is ``lan0`` with the
address ``10.77.0.<i+1>/24``. Every interface is created inside a namespace of
ours (``ip -n``), never in the machine's own, so nothing we send can reach a real
network. IPv6 is off in the members unless ``ipv6=True``, which adds
``fd77:77::<i+1>/64`` and turns duplicate address detection off (no start-up delay).
``close()`` kills the processes we started there and deletes the namespaces,
whatever happened.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

IFNAME = "lan0"  # the member side of each veth
SUBNET = "10.77.0"
SUBNET6 = "fd77:77"  # a ULA prefix, with Lan(ipv6=True)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=10)


def netns_unavailable() -> str | None:
    """Why namespace tests cannot run here, or None if they can."""
    name = f"ltprobe{os.getpid()}{secrets.token_hex(2)}"
    try:
        _ip("netns", "add", name)
    except (OSError, subprocess.SubprocessError) as exc:
        detail = getattr(exc, "stderr", "") or exc
        return f"cannot create a network namespace (ip netns add: {str(detail).strip()})"
    _ip("netns", "del", name)
    return None


class Proc:
    """A process in a namespace; its JSON stdout lines are collected with arrival times."""

    def __init__(self, argv: list[str], label: str) -> None:
        self.label = label
        self.started = time.time()
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.popen = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.text: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.text.append(line)
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                obj.setdefault("t", time.time())
                self.lines.put(obj)

    def wait_for(self, match: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
        """The first line (seen before or arriving within ``timeout`` s) that matches."""
        for obj in self.seen:
            if match(obj):
                return obj
        deadline = time.monotonic() + timeout
        while True:
            try:
                obj = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"{self.label}: nothing matched within {timeout} s; "
                                     f"got {self.seen}\nstderr: {self.errors()}") from None
            self.seen.append(obj)
            if match(obj):
                return obj

    def errors(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read()[-3000:]

    def signal(self, sig: int) -> None:
        self.popen.send_signal(sig)

    def wait(self, timeout: float) -> int:
        return self.popen.wait(timeout)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(3)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(3)
        self.stderr.close()


class Lan:
    """``n`` namespaces on one bridge; see the module docstring."""

    def __init__(self, n: int, *, ipv6: bool = False) -> None:
        tag = f"lt{os.getpid() % 100000}{secrets.token_hex(2)}"
        self.bridge = f"{tag}br"
        self.names = [f"{tag}n{i}" for i in range(n)]
        self.addresses = [f"{SUBNET}.{i + 1}" for i in range(n)]
        self.ipv6 = ipv6
        self.addresses6 = [f"{SUBNET6}::{i + 1}" for i in range(n)] if ipv6 else []
        self.procs: list[Proc] = []
        self._made: list[str] = []

    def __enter__(self) -> Lan:
        try:
            self._create()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _add_netns(self, name: str) -> None:
        _ip("netns", "add", name)
        self._made.append(name)

    def _create(self) -> None:
        self._add_netns(self.bridge)
        _ip("-n", self.bridge, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", self.bridge, "link", "set", "br0", "up")
        for i, name in enumerate(self.names):
            self._add_netns(name)
            settings = ["accept_dad=0", "dad_transmits=0"] if self.ipv6 else ["disable_ipv6=1"]
            for key in ("all", "default"):
                for setting in settings:
                    subprocess.run(["ip", "netns", "exec", name, "sysctl", "-qw",
                                    f"net.ipv6.conf.{key}.{setting}"], check=True, timeout=10)
            _ip("-n", self.bridge, "link", "add", f"p{i}", "type", "veth",
                "peer", "name", IFNAME, "netns", name)
            _ip("-n", self.bridge, "link", "set", f"p{i}", "master", "br0", "up")
            _ip("-n", name, "addr", "add", f"{self.addresses[i]}/24", "dev", IFNAME)
            if self.ipv6:
                _ip("-n", name, "addr", "add", f"{self.addresses6[i]}/64", "dev", IFNAME, "nodad")
            _ip("-n", name, "link", "set", IFNAME, "up")
            _ip("-n", name, "link", "set", "lo", "up")

    def spawn(self, i: int, *args: str, label: str = "") -> Proc:
        """Run ``python args...`` in member ``i``."""
        proc = Proc(["ip", "netns", "exec", self.names[i], sys.executable, *args],
                    label or f"ns{i} {' '.join(args[:3])}")
        self.procs.append(proc)
        return proc

    def run(self, i: int, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
        """Run ``python args...`` in member ``i`` to the end."""
        return subprocess.run(["ip", "netns", "exec", self.names[i], sys.executable, *args],
                              capture_output=True, text=True, timeout=timeout)

    def link(self, i: int, up: bool) -> None:
        """Plug or unplug member ``i``'s cable (its port on the bridge)."""
        _ip("-n", self.bridge, "link", "set", f"p{i}", "up" if up else "down")

    def close(self) -> None:
        for proc in self.procs:
            try:
                proc.stop()
            except OSError:
                pass
        self.procs.clear()
        for name in reversed(self._made):
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)
        self._made.clear()
