"""``Connection.send_update``: the host's fast path for updates must put exactly the
bytes of the equivalent ``Update`` message on the wire, as a client decodes them."""

from __future__ import annotations

import itertools

import pytest

from lantable.protocol import (
    Connection,
    Hello,
    LocalProtocolError,
    Packed,
    PackedMap,
    SharedUpdate,
    Update,
    Welcome,
)


def _pair() -> tuple[Connection, Connection]:
    host, client = Connection("host"), Connection("client")
    host.receive_data(client.send(Hello(proto=1, name="c")))
    host.next_event()
    client.receive_data(host.send(Welcome(proto=1, peer="p", name="n", tables=[])))
    client.next_event()
    return host, client


SEATS = [{"name": "ann", "taken": True, "connected": True},
         {"name": None, "taken": False, "connected": False}]


@pytest.mark.parametrize(("scores", "full", "legal", "events", "reply_to"), list(itertools.product(
    [None, {"scores": [3, 1], "rank": [1, 2]}], [False, True],
    [None, [{"type": "add", "n": 1}]], [None, [], [{"type": "added", "n": 2}]], [None, 7])))
def test_send_update_decodes_to_the_same_update(scores, full, legal, events, reply_to):
    host, client = _pair()
    shared = SharedUpdate(table="t1", seq=5, status="playing", seats=SEATS, to_act=[0],
                          scores=scores, full=full)
    data = host.send_update(shared, seat=0, view={"counter": 4, "mine": [1, 2]},
                            legal=legal, events=events, id=reply_to)
    client.receive_data(data)
    got = client.next_event()
    expected = Update(table="t1", seq=5, status="playing", seats=SEATS, seat=0,
                      view={"counter": 4, "mine": [1, 2]}, to_act=[0], legal=legal, events=events,
                      scores=scores, full=full, id=reply_to)
    assert got == expected == shared.message(seat=0, view={"counter": 4, "mine": [1, 2]},
                                             legal=legal, events=events, id=reply_to)
    # Byte for byte the size of the ordinary encoding (only key order may differ).
    assert len(data) == len(host.send(expected))


def test_packed_events_and_view_give_the_same_bytes_as_plain_ones():
    """Events encoded once (``Packed``) and a view in two parts (``PackedMap`` merged
    with a seat's keys) are byte for byte what the plain values give."""
    host, _ = _pair()
    shared = SharedUpdate(table="t1", seq=5, status="playing", seats=SEATS, to_act=[0])
    events = [{"type": "added", "n": 2}, {"type": "rolled", "dice": [1, 6]}]
    view = {"counter": 4, "mine": [1, 2]}
    plain = host.send_update(shared, seat=0, view=view, events=events)
    packed = host.send_update(shared, seat=0, view=PackedMap({"counter": 4}).merged(
        {"mine": [1, 2]}), events=Packed(events))
    assert packed == plain


def test_packed_refuses_what_msgpack_cannot_carry():
    with pytest.raises(LocalProtocolError, match="cannot encode"):
        Packed([{"type": "x", "bad": object()}])


def test_spectator_update_has_seat_none_and_waiting_view_none():
    host, client = _pair()
    shared = SharedUpdate(table="t1", seq=0, status="waiting", seats=SEATS, to_act=[])
    client.receive_data(host.send_update(shared, seat=None, view=None))
    got = client.next_event()
    assert got.seat is None and got.view is None and got.legal is None and got.events is None


def test_send_update_is_refused_before_the_session_and_by_a_client():
    host, client = Connection("host"), Connection("client")
    shared = SharedUpdate(table="t1", seq=0, status="waiting", seats=[], to_act=[])
    with pytest.raises(LocalProtocolError):
        host.send_update(shared, seat=None, view=None)  # no hello yet
    with pytest.raises(LocalProtocolError):
        client.send_update(shared, seat=None, view=None)


def test_unencodable_fields_are_a_local_error():
    host, _ = _pair()
    with pytest.raises(LocalProtocolError):
        SharedUpdate(table="t1", seq=0, status="playing", seats=[{"x": object()}], to_act=[])
    shared = SharedUpdate(table="t1", seq=0, status="playing", seats=[], to_act=[])
    with pytest.raises(LocalProtocolError):
        host.send_update(shared, seat=0, view={"x": object()})


def test_oversize_update_is_refused():
    host, client = _pair()
    host.max_frame = 100
    shared = SharedUpdate(table="t1", seq=0, status="playing", seats=[], to_act=[])
    with pytest.raises(LocalProtocolError):
        host.send_update(shared, seat=0, view={"pad": "x" * 200})


@pytest.mark.parametrize("public_keys", [0, 3, 15, 16, 200])
def test_a_packed_view_merged_with_a_seats_own_part_decodes_to_the_whole_view(public_keys):
    from lantable.protocol import PackedMap

    host, client = _pair()
    public = {f"k{i}": [i, {"x": i}] for i in range(public_keys)}
    own = {"seat": 1, "my_cards": [3, 4]}
    shared = SharedUpdate(table="t1", seq=2, status="playing", seats=SEATS, to_act=[1])
    client.receive_data(host.send_update(shared, seat=1, view=PackedMap(public).merged(own)))
    assert client.next_event().view == {**public, **own}
    client.receive_data(host.send_update(shared, seat=None, view=PackedMap(public)))
    assert client.next_event().view == public


def test_an_unencodable_packed_view_is_a_local_error():
    from lantable.protocol import PackedMap

    with pytest.raises(LocalProtocolError):
        PackedMap({"x": object()})
    with pytest.raises(LocalProtocolError):
        PackedMap({}).merged({"x": object()})
