"""Discovery across network namespaces: a private LAN per test (tests/host/netns.py).

Every process runs inside a namespace the test created, with ``--interface lan0``;
nothing multicasts on the machine's own interfaces. Skipped without root or
``ip netns``.
"""

from __future__ import annotations

import importlib.util
import json
import signal
import time
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("lantable_test_netns",
                                               Path(__file__).with_name("netns.py"))
netns = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(netns)

_why_not = netns.netns_unavailable()
pytestmark = [pytest.mark.netns, pytest.mark.skipif(_why_not is not None, reason=_why_not or "")]

DISCOVERY = ("-m", "lantable.clients.commands.discovery")
CLI = ("-m", "lantable.clients.cli")
IF = ("--interface", netns.IFNAME)

VISIBLE_WITHIN = 2.0  # s from a peer starting to advertise to every browser listing it
GOODBYE_WITHIN = 2.0  # s from a clean stop to every browser dropping it
CRASH_WITHIN = 15.0  # s from SIGKILL to every browser dropping it


@pytest.fixture
def lan3():
    with netns.Lan(3) as lan:
        yield lan


def _watch(lan, i):
    watcher = lan.spawn(i, *DISCOVERY, "browse", "--watch", "--timeout", "0", *IF,
                        label=f"watch{i}")
    watcher.wait_for(lambda o: o["event"] == "ready", 10)
    return watcher


def _advertise(lan, i, name, peer_id):
    return lan.spawn(i, *DISCOVERY, "advertise", "--name", name, "--port", "47800", "--listen",
                     "--bind", lan.addresses[i], "--peer-id", peer_id, *IF, label=f"adv{i}")


def _event(kind, peer_id, after=0.0):
    return lambda o: o["event"] == kind and o["peer"]["peer_id"] == peer_id and o["t"] >= after


def test_every_peer_sees_every_other_then_a_clean_stop_leaves(lan3):
    watchers = [_watch(lan3, i) for i in range(3)]
    names = ["alice", "alice", "bob.smith"]  # two peers with the same name both appear
    peers = [_advertise(lan3, i, names[i], f"peer{i}") for i in range(3)]
    for watcher in watchers:
        for i, peer in enumerate(peers):
            seen = watcher.wait_for(_event("added", f"peer{i}"), 10)
            # From the advertiser's start, after interpreter start-up (which a loaded
            # machine stretches); bench/discovery.py reports from process launch too.
            late = seen["t"] - peer.wait_for(lambda o: o["event"] == "starting", 5)["t"]
            assert late <= VISIBLE_WITHIN, (watcher.label, i, late)
            assert seen["peer"]["name"] == names[i]
            assert seen["peer"]["addresses"] == [lan3.addresses[i]]
    alices = {w["peer"]["instance"] for w in watchers[2].seen
              if w["event"] == "added" and w["peer"]["name"] == "alice"}
    assert len(alices) == 2
    assert "." not in watchers[0].wait_for(_event("added", "peer2"), 0)["peer"]["instance"]

    stopped = time.time()
    peers[0].signal(signal.SIGINT)
    for watcher in watchers[1:]:
        gone = watcher.wait_for(_event("removed", "peer0"), 5)
        assert gone["t"] - stopped <= GOODBYE_WITHIN
    assert peers[0].wait(5) == 0


def test_the_same_peer_id_twice_is_renamed(lan3):
    """A journal run twice: the second peer's probe meets the first, and it renames itself.

    (Not on loopback: every mDNS stack on a machine shares port 5353 there, and the
    unicast answer to a probe reaches only one of them.)
    """
    watcher = _watch(lan3, 2)
    first = _advertise(lan3, 0, "twin", "samepeer")
    assert first.wait_for(lambda o: o["event"] == "advertised", 10)["instance"] == "twin (samepeer)"
    second = _advertise(lan3, 1, "twin", "samepeer")
    renamed = second.wait_for(lambda o: o["event"] == "advertised", 10)["instance"]
    assert renamed == "twin (samepeer)-2"
    watcher.wait_for(lambda o: o["event"] == "added" and o["peer"]["instance"] == renamed, 5)
    assert watcher.wait_for(_event("added", "samepeer"), 0)["peer"]["instance"] == "twin (samepeer)"


def test_a_killed_peer_disappears(lan3):
    watcher = _watch(lan3, 0)
    peer = _advertise(lan3, 1, "doomed", "peer1")
    watcher.wait_for(_event("added", "peer1"), 10)
    killed = time.time()
    peer.popen.kill()  # no goodbye
    gone = watcher.wait_for(_event("removed", "peer1"), CRASH_WITHIN + 5)
    assert gone["t"] - killed <= CRASH_WITHIN


def test_a_peer_behind_an_unplugged_link_disappears_and_returns(lan3):
    watcher = _watch(lan3, 0)
    _advertise(lan3, 1, "roamer", "peer1")
    watcher.wait_for(_event("added", "peer1"), 10)
    unplugged = time.time()
    lan3.link(1, up=False)
    gone = watcher.wait_for(_event("removed", "peer1"), CRASH_WITHIN + 5)
    assert gone["t"] - unplugged <= CRASH_WITHIN
    plugged = time.time()
    lan3.link(1, up=True)
    back = watcher.wait_for(_event("added", "peer1", after=plugged), 10)
    assert back["peer"]["name"] == "roamer"


def test_lantable_host_table_update_and_a_bot_game_across_namespaces(lan3, tmp_path):
    """ns1 hosts; ns0 opens a race table and its bots find it with --discover; ns2 watches."""
    watcher = _watch(lan3, 2)
    host_addr = lan3.addresses[1]
    host = lan3.spawn(1, *CLI, "host", "--bind", host_addr, "--port", "47800", "--db",
                      str(tmp_path / "peer.sqlite"), "--name", "table.host", *IF, label="host")
    added = watcher.wait_for(lambda o: o["event"] == "added", 10)["peer"]
    assert (added["name"], added["port"], added["open_tables"]) == ("table.host", 47800, 0)
    assert "race" in added["games"]

    new = lan3.run(0, *CLI, "new", "race", "--connect", f"{host_addr}:47800", "--seats", "2",
                   "--json", timeout=20)
    assert new.returncode == 0, new.stderr
    table = json.loads(new.stdout)["table"]
    watcher.wait_for(lambda o: o["event"] == "updated" and o["peer"]["open_tables"] == 1, 5)

    listed = lan3.run(2, *CLI, "peers", "--timeout", "2", "--json", *IF, timeout=20)
    assert listed.returncode == 0, listed.stderr
    [peer] = json.loads(listed.stdout)["peers"]
    assert peer["address"] == host_addr
    assert [t["id"] for t in peer["tables"]] == [table]

    bots = lan3.run(0, *CLI, "bot", "--discover", "--game", "race", "--count", "2", "--json",
                    "--timeout", "2", *IF, timeout=60)
    assert bots.returncode == 0, bots.stderr
    played = json.loads(bots.stdout)
    assert played["table"] == table
    assert played["seats"] == [0, 1]
    assert played["scores"] is not None
    watcher.wait_for(lambda o: o["event"] == "updated" and o["peer"]["open_tables"] == 0, 5)

    stopped = time.time()
    host.signal(signal.SIGINT)  # Ctrl-C: the peer says goodbye
    gone = watcher.wait_for(lambda o: o["event"] == "removed", 5)
    assert gone["t"] - stopped <= GOODBYE_WITHIN
    host.wait(5)  # it exits (its status is the CLI's business)


def test_ipv4_and_ipv6_are_advertised_and_an_ipv6_only_browser_sees_the_peer():
    with netns.Lan(2, ipv6=True) as lan:
        # ns0 browses over IPv6 only: the peer must be announced on IPv6 too.
        watcher = lan.spawn(0, *DISCOVERY, "browse", "--watch", "--timeout", "0",
                            "--interface", lan.addresses6[0], label="watch6")
        watcher.wait_for(lambda o: o["event"] == "ready", 10)
        lan.spawn(1, *DISCOVERY, "advertise", "--name", "dual", "--port", "47800", "--listen",
                  "--peer-id", "peer1", *IF, label="adv")
        peer = watcher.wait_for(_event("added", "peer1"), 10)["peer"]
        assert lan.addresses[1] in peer["addresses"]
        assert lan.addresses6[1] in peer["addresses"]
        index = int(lan.run(0, "-c", "import socket; print(socket.if_nametoindex('lan0'))",
                            timeout=10).stdout)
        assert any(a.startswith("fe80::") and a.endswith(f"%{index}") for a in peer["addresses"])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_finding_8_lantable_host_says_goodbye_to_any_mdns_browser(tmp_path, sig):
    """``lantable host`` stopped by a signal sends a goodbye (its PTR record with TTL 0)
    that a bare mDNS listener, not python-zeroconf, hears within 2 s; it exits 0."""
    with netns.Lan(2) as lan:
        listener = lan.spawn(1, str(Path(__file__).with_name("mdns_listen.py")),
                             lan.addresses[1], label="raw-mdns")
        listener.wait_for(lambda o: o["event"] == "ready", 10)
        host = lan.spawn(0, *CLI, "host", "--name", "bye", "--bind", lan.addresses[0],
                         "--port", "47800", "--db", str(tmp_path / "j.sqlite"), *IF,
                         label="host")
        ptr = "_lantable._tcp.local."
        listener.wait_for(lambda o: o.get("type") == "PTR" and o["name"] == ptr
                          and o["ttl"] > 0, 15)
        stopped = time.time()
        host.signal(sig)
        bye = listener.wait_for(lambda o: o.get("type") == "PTR" and o["name"] == ptr
                                and o["ttl"] == 0, 5)
        assert bye["t"] - stopped <= GOODBYE_WITHIN
        assert host.wait(5) == 0, host.errors()
