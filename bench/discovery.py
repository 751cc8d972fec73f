"""Discovery benchmark across network namespaces (root and ``ip netns`` needed); prints JSON.

A private LAN of two namespaces (tests/host/netns.py; nothing touches the
machine's own interfaces). A browser runs in ns0 for the whole benchmark. Each
run starts an advertising peer process in ns1 and measures:

- time to visible: from starting the peer process to the browser's ``added``
  (interpreter start, zeroconf start, probing, first announcement, resolution),
  and from the peer starting to advertise (after interpreter start-up);
- goodbye: from SIGINT to the browser's ``removed``.

Then ``--crash-runs`` peers are SIGKILLed (no goodbye) to measure the liveness
check: from SIGKILL to ``removed``.

Usage: python bench/discovery.py [--runs N] [--crash-runs K]
"""

from __future__ import annotations

import importlib.util
import json
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder

_spec = importlib.util.spec_from_file_location(
    "lantable_netns", Path(__file__).resolve().parent.parent / "tests" / "host" / "netns.py")
netns = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(netns)

DISCOVERY = ("-m", "lantable.clients.commands.discovery")
IF = ("--interface", netns.IFNAME)


def _summary(values: list[float]) -> dict[str, Any]:
    return {"runs": len(values), "median_s": round(statistics.median(values), 3),
            "max_s": round(max(values), 3), "min_s": round(min(values), 3)} if values else {}


def _event(kind: str, peer_id: str):
    return lambda o: o["event"] == kind and o["peer"]["peer_id"] == peer_id


def main() -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--runs", type=int, default=10,
                        help="discovery runs (a peer started, found, stopped)")
    parser.add_argument("--crash-runs", type=int, default=3,
                        help="runs where the peer is killed instead of stopped")
    args = parser.parse_args()
    why_not = netns.netns_unavailable()
    if why_not:
        print(json.dumps({"error": why_not}))
        return 1
    visible: list[float] = []
    visible_from_advertise: list[float] = []
    goodbye: list[float] = []
    crash: list[float] = []
    with netns.Lan(2) as lan:
        browser = lan.spawn(0, *DISCOVERY, "browse", "--watch", "--timeout", "0", *IF)
        browser.wait_for(lambda o: o["event"] == "ready", 10)
        for run in range(args.runs + args.crash_runs):
            peer_id = f"bench{run:04d}"
            peer = lan.spawn(1, *DISCOVERY, "advertise", "--name", "bench", "--port", "47800",
                             "--listen", "--bind", lan.addresses[1], "--peer-id", peer_id, *IF)
            seen = browser.wait_for(_event("added", peer_id), 20)
            peer.wait_for(lambda o: o["event"] == "advertised", 10)
            stopped = time.time()
            if run < args.runs:
                visible.append(seen["t"] - peer.started)
                starting = peer.wait_for(lambda o: o["event"] == "starting", 5)
                visible_from_advertise.append(seen["t"] - starting["t"])
                peer.signal(signal.SIGINT)
                goodbye.append(browser.wait_for(_event("removed", peer_id), 20)["t"] - stopped)
            else:
                peer.popen.kill()
                crash.append(browser.wait_for(_event("removed", peer_id), 30)["t"] - stopped)
            peer.wait(10)
    print(json.dumps({
        "benchmark": "discovery", "python": sys.version.split()[0],
        "time_to_visible": _summary(visible),
        "advertise_to_visible": _summary(visible_from_advertise),
        "goodbye_to_removed": _summary(goodbye),
        "sigkill_to_removed": _summary(crash),
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
