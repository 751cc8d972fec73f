"""Discovery without namespaces: records as pure functions, and one process on loopback.

The loopback tests bind zeroconf to 127.0.0.1 only and skip when multicast on
``lo`` does not work here.
"""

from __future__ import annotations

import json
import secrets
import signal
import socket
import subprocess
import sys
from types import SimpleNamespace

import ifaddr
import pytest
import trio

from lantable.clients import discovery as browsing
from lantable.clients.discovery import find_peers, open_browser
from lantable.host import discovery
from lantable.host.discovery import make_peer_advertiser, run_advertiser
from lantable.protocol.discovery import (
    MAX_GAMES_BYTES,
    MAX_LABEL,
    SERVICE_TYPE,
    PeerEvent,
    PeerInfo,
    decode_txt,
    encode_txt,
    instance_label,
    resolve_interfaces,
)

LO = ["127.0.0.1"]
# Peer ids of this run: loopback is shared by every process on the machine, so two test
# runs at once must not advertise the same ids (other lantable peers on lo are ignored).
_RUN = secrets.token_hex(4)
ID = {tag: f"{tag}{_RUN}" for tag in ("feed", "aaaa", "bbbb", "cccc", "dddd", "eeee", "ffff",
                                      "0000")}


# ---------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------


def test_service_type():
    assert SERVICE_TYPE == "_lantable._tcp.local."


def test_instance_label_replaces_dots_and_keeps_the_peer_id():
    label = instance_label("alice.home.lan", "0123456789ab")
    assert "." not in label
    assert label == "alice_home_lan (0123456789ab)"


def test_instance_label_fits_one_dns_label_without_splitting_characters():
    label = instance_label("é" * 100, "0123456789ab")
    assert len(label.encode()) <= MAX_LABEL
    assert label.endswith(" (0123456789ab)")
    label.encode().decode()  # still valid UTF-8


@pytest.mark.parametrize("name", ["", "   ", "\x00\x07", "..."])
def test_instance_label_of_an_empty_or_odd_name_is_still_a_label(name):
    label = instance_label(name, "abc")
    assert label.endswith(" (abc)")
    assert len(label) > len(" (abc)")
    assert "." not in label


def test_same_name_different_peers_different_labels():
    assert instance_label("alice", "aaaa") != instance_label("alice", "bbbb")


def test_txt_round_trip():
    txt = encode_txt(name="bob.x", peer_id="p1", games=["race", "manila"], open_tables=2)
    assert txt == {"proto": "1", "id": "p1", "name": "bob.x", "games": "race,manila", "open": "2",
                   "rev": "0"}
    peer = decode_txt("bob_x (p1)", txt, addresses=["10.0.0.1"], port=5)
    assert peer == PeerInfo(instance="bob_x (p1)", name="bob.x", peer_id="p1",
                            addresses=("10.0.0.1",), port=5, proto=1,
                            games=("race", "manila"), open_tables=2)


def test_txt_games_cut_at_whole_ids_within_budget():
    games = [f"game-number-{i:03d}" for i in range(40)]
    txt = encode_txt(name="n", peer_id="p", games=games, open_tables=0)
    assert len(txt["games"].encode()) <= MAX_GAMES_BYTES
    kept = txt["games"].split(",")
    assert kept == games[: len(kept)]
    assert len(kept) > 1
    assert all(len(f"{k}={v}".encode()) <= 255 for k, v in txt.items())


def test_txt_long_name_is_cut():
    txt = encode_txt(name="x" * 500, peer_id="p", games=[], open_tables=0)
    assert len(txt["name"]) < 255
    assert txt["games"] == ""


@pytest.mark.parametrize("props", [
    {"proto": "1"},                       # no id
    {"id": "p"},                          # no proto
    {"id": "p", "proto": "one"},          # proto not an int
    {"id": "p", "proto": "1", "open": "many"},
])
def test_decode_rejects_foreign_or_broken_txt(props):
    assert decode_txt("x", props, addresses=[], port=1) is None


def test_decode_defaults():
    peer = decode_txt("inst", {"id": "p", "proto": "2", "games": None}, addresses=[], port=1)
    assert (peer.name, peer.games, peer.open_tables, peer.proto) == ("inst", (), 0, 2)


def _adapter(name, index, *ips):
    return ifaddr.Adapter(name, name, [ifaddr.IP(ip, 24, name) for ip in ips], index=index)


ADAPTERS = [
    _adapter("lo", 1, "127.0.0.1", ("::1", 0, 0)),
    _adapter("lan0", 2, "10.1.0.5", ("fe80::1", 0, 2), ("fd00::5", 0, 0)),
    _adapter("wlan0", 3, "192.168.1.9"),
]


def test_interfaces_by_name():
    chosen = resolve_interfaces(["lan0"], ADAPTERS)
    assert chosen.zeroconf == ["10.1.0.5", "fe80::1"]  # one IPv6 join per interface
    assert chosen.ipv6
    assert chosen.addresses == ["10.1.0.5", "fe80::1", "fd00::5"]


def test_interfaces_by_address_and_loopback_without_ipv6():
    assert resolve_interfaces(["192.168.1.9"], ADAPTERS).zeroconf == ["192.168.1.9"]
    lo = resolve_interfaces(["lo"], ADAPTERS)
    assert lo.zeroconf == ["127.0.0.1"]
    assert not lo.ipv6


def test_interfaces_default_leaves_out_loopback():
    chosen = resolve_interfaces(None, ADAPTERS)
    assert "127.0.0.1" not in chosen.addresses
    assert set(chosen.zeroconf[:2]) == {"10.1.0.5", "192.168.1.9"}


def test_unknown_interface_is_named():
    with pytest.raises(ValueError, match="'nope0'"):
        resolve_interfaces(["nope0"], ADAPTERS)


# ---------------------------------------------------------------------------
# the browser's bookkeeping, with fakes and a virtual clock
# ---------------------------------------------------------------------------


def _peer(n=0, **changes):
    fields = {"instance": f"p{n} (id{n})", "name": f"p{n}", "peer_id": f"id{n}",
              "addresses": ("10.0.0.1",), "port": 1, "proto": 1, "games": (), "open_tables": 0}
    return PeerInfo(**{**fields, **changes})


async def _directory(nursery):
    directory = browsing._Directory()
    send, receive = trio.open_memory_channel(10)
    nursery.start_soon(directory.publish, send)
    return directory, receive


async def test_directory_reports_added_updated_removed_once_each(nursery, autojump_clock):
    directory, events = await _directory(nursery)
    directory.put("a", _peer())
    directory.put("a", _peer())  # the same again: nothing new
    assert await events.receive() == PeerEvent("added", _peer())
    directory.put("a", _peer(open_tables=2))
    assert await events.receive() == PeerEvent("updated", _peer(open_tables=2))
    directory.put("a", None)
    assert await events.receive() == PeerEvent("removed", _peer(open_tables=2))
    directory.put("never-resolved", None)
    with trio.move_on_after(60):
        event = await events.receive()
        raise AssertionError(f"unexpected {event}")


async def test_directory_hides_a_peer_after_failed_checks_and_shows_it_again(
        nursery, autojump_clock, monkeypatch):
    up = {"id0": True, "id1": True}

    async def reachable(peer):
        return up[peer.peer_id]

    monkeypatch.setattr(browsing, "_reachable", reachable)
    directory, events = await _directory(nursery)
    nursery.start_soon(directory.check_liveness)
    directory.put("a", _peer(0))
    directory.put("b", _peer(1))
    assert {(await events.receive()).peer.peer_id for _ in range(2)} == {"id0", "id1"}
    up["id1"] = False
    start = trio.current_time()
    assert await events.receive() == PeerEvent("removed", _peer(1))
    assert trio.current_time() - start <= browsing.CHECK_INTERVAL * browsing.DROP_AFTER
    up["id1"] = True
    assert await events.receive() == PeerEvent("added", _peer(1))
    assert trio.current_time() - start <= browsing.CHECK_INTERVAL * (browsing.DROP_AFTER + 1)


async def test_reachable_tries_each_address(nursery):
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        dead_port = closed.getsockname()[1]
    assert await browsing._reachable(_peer(addresses=("127.0.0.2", "127.0.0.1"), port=port))
    assert not await browsing._reachable(_peer(addresses=("127.0.0.1",), port=dead_port))
    await listener.aclose()


# ---------------------------------------------------------------------------
# loopback, one process
# ---------------------------------------------------------------------------


def _loopback_multicast_works() -> bool:
    """Whether a datagram sent to the mDNS group on 127.0.0.1 comes back."""
    group = "224.0.0.251"
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        rx.bind((group, 0))  # receives only datagrams sent to the group
        rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                      socket.inet_aton(group) + socket.inet_aton("127.0.0.1"))
        rx.settimeout(0.5)
        tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
        tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        tx.sendto(b"x", (group, rx.getsockname()[1]))
        return rx.recv(10) == b"x"
    except OSError:
        return False
    finally:
        rx.close()
        tx.close()


needs_lo_multicast = pytest.mark.skipif(not _loopback_multicast_works(),
                                        reason="multicast on 127.0.0.1 does not work here")


async def _next(events, kind, peer_id, within=5.0):
    """The next ``kind`` event of ``peer_id`` (other lantable peers on lo are ignored)."""
    with trio.fail_after(within):
        async for event in events:
            if event.kind == kind and event.peer.peer_id == peer_id:
                return event.peer
    raise AssertionError("browser closed")


@needs_lo_multicast
async def test_advertise_update_and_goodbye_on_loopback(nursery):
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    nursery.start_soon(trio.serve_listeners, lambda s: s.aclose(), [listener])
    async with open_browser(interfaces=LO) as events:
        scope = trio.CancelScope()

        async def advertise(task_status):
            with scope:
                await run_advertiser(name="lo.peer", peer_id=ID["feed"], port=port,
                                     games=["race", "manila"], interfaces=LO,
                                     task_status=task_status)

        advertiser = await nursery.start(advertise)
        peer = await _next(events, "added", ID["feed"])
        assert (peer.name, peer.peer_id, peer.port, peer.games, peer.open_tables) == \
            ("lo.peer", ID["feed"], port, ("race", "manila"), 0)
        assert peer.instance == advertiser.instance == f"lo_peer ({ID['feed']})"
        assert peer.addresses == ("127.0.0.1",)

        await advertiser.update(open_tables=3)
        assert (await _next(events, "updated", ID["feed"])).open_tables == 3

        scope.cancel()
        await _next(events, "removed", ID["feed"], within=2.0)  # the goodbye, not a timeout


@needs_lo_multicast
async def test_find_peers_sees_two_peers_with_the_same_name(nursery):
    async with trio.open_nursery() as starting:
        for peer_id in (ID["aaaa"], ID["bbbb"]):
            starting.start_soon(nursery.start, lambda task_status, pid=peer_id: run_advertiser(
                name="alice", peer_id=pid, port=9, games=[], interfaces=LO,
                task_status=task_status))
    peers = await find_peers(timeout=1.5, interfaces=LO)
    mine = [p for p in peers if p.peer_id in (ID["aaaa"], ID["bbbb"])]
    assert sorted(p.peer_id for p in mine) == [ID["aaaa"], ID["bbbb"]]
    assert [p.name for p in mine] == ["alice", "alice"]
    assert len({p.instance for p in mine}) == 2


@needs_lo_multicast
async def test_a_peer_that_stops_answering_tcp_is_hidden_then_shown(nursery, monkeypatch):
    monkeypatch.setattr(browsing, "CHECK_INTERVAL", 0.2)
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    async with open_browser(interfaces=LO) as events:
        await nursery.start(lambda task_status: run_advertiser(
            name="flaky", peer_id=ID["cccc"], port=port, games=[], interfaces=LO,
            task_status=task_status))
        await _next(events, "added", ID["cccc"])
        listener.socket.close()  # refuses from now on
        await _next(events, "removed", ID["cccc"])
        listener = (await trio.open_tcp_listeners(port, host="127.0.0.1"))[0]
        await _next(events, "added", ID["cccc"])
        await listener.aclose()


class _FakePeer:
    """Just what make_peer_advertiser reads of a Peer."""

    def __init__(self):
        self.name = "host.one"
        self.peer_id = ID["dddd"]
        self.registry = SimpleNamespace(games={"race": object(), "manila": object()})
        self.open = 0
        self.on_change = None

    def open_tables(self):
        return self.open


class _FakeAdvertiser:
    def __init__(self, fail_first):
        self.counts = []
        self.fail_first = fail_first

    async def update(self, *, open_tables, games=None):
        if self.fail_first:
            self.fail_first = False
            raise discovery.EventLoopBlocked
        self.counts.append(open_tables)


async def test_peer_advertiser_coalesces_bursts_and_survives_a_stuck_zeroconf(
        nursery, autojump_clock, monkeypatch):
    fake = _FakeAdvertiser(fail_first=True)
    started = {}

    async def run_advertiser(*, task_status, **kwargs):
        started.update(kwargs)
        task_status.started(fake)
        await trio.sleep_forever()

    monkeypatch.setattr(discovery, "run_advertiser", run_advertiser)
    peer = _FakePeer()
    peer.open = 1  # a table opened while registering: the first update catches it
    running = SimpleNamespace(peer=peer, port=47800, addresses=[("0.0.0.0", 47800)])
    await nursery.start(make_peer_advertiser(interfaces=["lan0"]), running)
    assert started == {"name": "host.one", "peer_id": ID["dddd"], "port": 47800,
                       "games": ["manila", "race"], "interfaces": ["lan0"], "open_tables": 1,
                       "addresses": None, "web_port": None}
    await trio.sleep(1)
    assert fake.counts == []  # the first update hit EventLoopBlocked; still running
    for n in range(2, 12):
        peer.open = n
        peer.on_change()
    await trio.sleep(1)
    # ten changes at once: at most one wake-up in flight plus one queued, both the last count
    # (the real Advertiser skips an update that changes nothing)
    assert fake.counts in ([11], [11, 11])


@needs_lo_multicast
async def test_peer_advertiser_follows_table_changes(nursery):
    peer = _FakePeer()
    running = SimpleNamespace(peer=peer, port=9, addresses=[("127.0.0.1", 9)])
    async with open_browser(interfaces=LO) as events:
        await nursery.start(make_peer_advertiser(interfaces=["lo"]), running)
        added = await _next(events, "added", ID["dddd"])
        assert (added.name, added.games, added.open_tables) == ("host.one", ("manila", "race"), 0)
        assert peer.on_change is not None
        for n in (1, 2, 3):  # a burst: coalesced, the last count wins
            peer.open = n
            peer.on_change()
        with trio.fail_after(5):
            while (await _next(events, "updated", ID["dddd"])).open_tables != 3:
                pass


@needs_lo_multicast
async def test_an_open_count_that_returns_to_an_old_value_is_seen(nursery):
    async with open_browser(interfaces=LO) as events:
        advertiser = await nursery.start(lambda task_status: run_advertiser(
            name="counter", peer_id=ID["ffff"], port=9, games=[], interfaces=LO,
            task_status=task_status))
        await _next(events, "added", ID["ffff"])
        for count in (1, 0, 1):
            await advertiser.update(open_tables=count)
            assert (await _next(events, "updated", ID["ffff"])).open_tables == count


@needs_lo_multicast
def test_command_line_advertise_and_browse_on_loopback():
    cmd = [sys.executable, "-m", "lantable.clients.commands.discovery"]
    with socket.socket() as probe:  # a free port for the advertiser's listener
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    advertiser = subprocess.Popen(
        [*cmd, "advertise", "--name", "cli.peer", "--port", str(port), "--listen", "--bind",
         "127.0.0.1", "--peer-id", ID["0000"], "--games", "race,manila", "--open", "2",
         "--interface", "lo"], stdout=subprocess.PIPE, text=True)
    try:
        assert json.loads(advertiser.stdout.readline())["event"] == "starting"
        assert json.loads(advertiser.stdout.readline())["event"] == "advertised"
        found = subprocess.run([*cmd, "browse", "--timeout", "1.5", "--json", "--interface", "lo"],
                               capture_output=True, text=True, timeout=20, check=True)
        [peer] = [p for p in json.loads(found.stdout)["peers"] if p["peer_id"] == ID["0000"]]
        assert peer == {"instance": f"cli_peer ({ID['0000']})", "name": "cli.peer",
                        "peer_id": ID["0000"], "addresses": ["127.0.0.1"], "port": port,
                        "proto": 1, "games": ["race", "manila"], "open_tables": 2,
                        "web_port": None}
        advertiser.send_signal(signal.SIGTERM)
        assert json.loads(advertiser.stdout.readline())["event"] == "stopped"
        assert advertiser.wait(10) == 0
    finally:
        advertiser.kill()
        advertiser.wait()


def test_link_local_ipv6_gets_the_scope_of_our_one_ipv6_interface():
    one = resolve_interfaces(["lan0"], ADAPTERS)
    assert one.scoped(["10.0.0.1", "fe80::2", "fd00::2", "fe80::3%7"]) == \
        ["10.0.0.1", "fe80::2%2", "fd00::2", "fe80::3%7"]
    adapters = [*ADAPTERS, _adapter("wlan1", 4, ("fe80::9", 0, 4))]
    two = resolve_interfaces(["lan0", "wlan1"], adapters)
    assert two.scoped(["fe80::2", "fd00::2"]) == ["fd00::2"]  # which link? unknown: dropped


@needs_lo_multicast
async def test_an_error_in_the_browsing_block_comes_out_as_itself():
    with pytest.raises(KeyError):
        async with open_browser(interfaces=LO):
            raise KeyError("the caller's own")
