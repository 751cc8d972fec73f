"""The lobby's other peers come from the host's own discovery: two real ``lantable
host`` processes in network namespaces (nothing multicasts on this machine's real
interfaces), and a WebSocket client on one sees the other with its web app's URL."""

from __future__ import annotations

import importlib.util
import json
import textwrap
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "lantable_test_netns_web", Path(__file__).resolve().parents[1] / "host" / "netns.py")
netns = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(netns)

_why_not = netns.netns_unavailable()
pytestmark = [pytest.mark.netns, pytest.mark.skipif(_why_not is not None, reason=_why_not or "")]

CLI = ("-m", "lantable.clients.cli")
IF = ("--interface", netns.IFNAME)

# Runs in namespace 0: the lobby as a browser gets it, until the other peer shows up.
WATCH = textwrap.dedent("""
    import json, sys, trio
    from lantable.web.wsclient import open_ws

    async def main():
        for _ in range(100):  # the host may still be starting
            try:
                ws = await open_ws(sys.argv[1], 47880)
                break
            except OSError:
                await trio.sleep(0.1)
        await ws.send({"t": "hello", "proto": 1, "name": "watch", "lobby": True})
        with trio.fail_after(15):
            while True:
                msg = await ws.receive_until("lobby")
                if msg["peers"]:
                    print(json.dumps(msg["peers"]))
                    return

    trio.run(main)
""")


def test_the_lobby_lists_the_other_peer_with_its_web_url(tmp_path) -> None:
    with netns.Lan(2) as lan:
        for i in range(2):
            lan.spawn(i, *CLI, "host", "--bind", lan.addresses[i], "--db",
                      str(tmp_path / f"peer{i}.sqlite"), "--name", f"peer{i}", "--no-qr", *IF,
                      label=f"host{i}")
        watch = lan.run(0, "-c", WATCH, lan.addresses[0], timeout=40)
        assert watch.returncode == 0, watch.stderr
        [other] = json.loads(watch.stdout)
        assert other["name"] == "peer1"
        assert other["url"] == f"http://{lan.addresses[1]}:47880/"
        assert other["address"] == lan.addresses[1] and other["port"] == 47800
