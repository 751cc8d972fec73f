"""Frames and messages on bytes, h11 style: one table of cases drives reader and writer.

Each case is a message and its exact frame: a 4-byte big-endian length, then one
msgpack map with ``t`` first and the fields in declaration order. Every case is read
whole, byte by byte, and followed by trailing bytes of the next frame.
"""

from __future__ import annotations

import struct

import msgpack
import pytest

from lantable.protocol import (
    CLIENT_TYPES,
    DEFAULT_MAX_FRAME,
    ERROR,
    HOST_TYPES,
    NEED_DATA,
    SESSION,
    START,
    Accepted,
    Act,
    AddBot,
    Answer,
    BotAdded,
    BotRemoved,
    Bye,
    Chat,
    ChatHistory,
    ChatLog,
    ChatMessage,
    Commit,
    Connection,
    Create,
    Created,
    DeckKeys,
    DeckPass,
    DeckRequest,
    DeckSecretsMessage,
    DeckUnlock,
    Error,
    ErrorCode,
    FairEvent,
    FairFault,
    FairRequest,
    Games,
    HandToBot,
    Hello,
    HideTable,
    Join,
    Joined,
    KeepTable,
    Leave,
    Left,
    ListGames,
    ListTables,
    Lobby,
    LocalProtocolError,
    Mute,
    Muted,
    Pause,
    PauseNoted,
    Ping,
    Pong,
    Query,
    Rematch,
    RematchOffered,
    RemoteProtocolError,
    RemoveBot,
    Rename,
    Renamed,
    Replay,
    ReplayStep,
    Resume,
    Reveal,
    Sync,
    TableHidden,
    TableKept,
    Tables,
    UndoAnswer,
    UndoAsk,
    UndoNotice,
    Update,
    Welcome,
    decode_body,
    encode_frame,
)

from .pairs import connection_at, receiver_for, sender_for

# (message, its frame as hex: the length prefix, then the msgpack body)
SIMPLE_CASES = [
    # Chat and rematch (issue 30).
    (Chat(id=12, text="good luck", table="1431269b"),
     "0000002a" "84a174a463686174a269640ca474657874a9676f6f64206c75636ba57461626c65a831343331"
     "32363962"),
    (ChatHistory(id=13, table="1431269b"),
     "00000023" "83a174ac636861745f686973746f7279a269640da57461626c65a83134333132363962"),
    (Mute(id=14, name="bo", mute=True),
     "0000001a" "84a174a46d757465a269640ea46e616d65a2626fa46d757465c3"),
    (Rematch(id=15, table="1431269b"),
     "0000001e" "83a174a772656d61746368a269640fa57461626c65a83134333132363962"),
    (ChatMessage(room="players", n=1, name="ann", text="good luck", at=1764345600,
                 table="1431269b", seat=0, id=12),
     "00000059" "89a174ac636861745f6d657373616765a4726f6f6da7706c6179657273a16e01a46e616d65a3"
     "616e6ea474657874a9676f6f64206c75636ba26174ce6929c700a57461626c65a83134333132363962"
     "a47365617400a269640c"),
    (ChatLog(id=13, messages=[{"room": "lobby", "n": 1, "name": "ann", "text": "hi",
                               "at": 1764345600}]),
     "00000042" "83a174a8636861745f6c6f67a269640da86d657373616765739185a4726f6f6da56c6f626279"
     "a16e01a46e616d65a3616e6ea474657874a26869a26174ce6929c700"),
    (Muted(id=14, names=["bo"]), "00000017" "83a174a56d75746564a269640ea56e616d657391a2626f"),
    (RematchOffered(table="1431269b", next="7c0ffee1", by="ann",
                    seats=[{"name": "bo", "from": 1, "bot": False, "state": "asked"}]),
     "0000005e" "85a174af72656d617463685f6f666665726564a57461626c65a83134333132363962a46e6578"
     "74a83763306666656531a26279a3616e6ea573656174739184a46e616d65a2626fa466726f6d01a362"
     "6f74c2a57374617465a561736b6564"),
    # Names and page bots (issue 22); docs/protocol.md shows add_bot's bytes.
    (Rename(id=7, name="bea"), "00000017" "83a174a672656e616d65a2696407a46e616d65a3626561"),
    (Renamed(id=7, name="bea"), "00000018" "83a174a772656e616d6564a2696407a46e616d65a3626561"),
    (
        AddBot(id=8, table="1431269b", strategy="mcts", strength=3),
        "00000036"
        "85a174a76164645f626f74a2696408a57461626c65a83134333132363962a87374726174656779a4"
        "6d637473a8737472656e67746803",
    ),
    (
        RemoveBot(id=9, table="1431269b", seat=2),
        "00000027" "84a174aa72656d6f76655f626f74a2696409a57461626c65a83134333132363962a4736561"
        "7402",
    ),
    (
        HandToBot(id=10, table="1431269b", seat=1, strategy="greedy"),
        "00000038"
        "85a174ab68616e645f746f5f626f74a269640aa57461626c65a83134333132363962a47365617401a8"
        "7374726174656779a6677265656479",
    ),
    (
        BotAdded(id=8, table="1431269b", seat=2, name="mcts bot"),
        "00000034"
        "85a174a9626f745f6164646564a2696408a57461626c65a83134333132363962a47365617402a46e61"
        "6d65a86d63747320626f74",
    ),
    (
        BotRemoved(id=9, table="1431269b", seat=2),
        "00000028" "84a174ab626f745f72656d6f766564a2696409a57461626c65a83134333132363962a47365"
        "617402",
    ),
    (
        HideTable(id=11, table="1431269b"),
        "00000021"
        "83a174aa686964655f7461626c65a269640ba57461626c65a83134333132363962"
    ),
    (
        KeepTable(id=12, table="1431269b", keep=True),
        "00000027"
        "84a174aa6b6565705f7461626c65a269640ca57461626c65a83134333132363962a46b656570c3"
    ),
    (
        Replay(id=13, table="1431269b", step=2, seat=1),
        "00000029"
        "85a174a67265706c6179a269640da57461626c65a83134333132363962a47374657002a473656174"
        "01"
    ),
    (
        TableHidden(id=11, table="1431269b"),
        "00000023"
        "83a174ac7461626c655f68696464656ea269640ba57461626c65a83134333132363962"
    ),
    (
        TableKept(id=12, table="1431269b", keep=True),
        "00000027"
        "84a174aa7461626c655f6b657074a269640ca57461626c65a83134333132363962a46b656570c3"
    ),
    (
        ReplayStep(id=13, table="1431269b", game="race", step=2, steps=4, seat=1,
                   seat_views=True, names=["ann", "bo"], view={"pos": [1, 0]}, to_act=[0],
                   events=[], sentences=[], actor=1),
        "00000089"
        "8ea174ab7265706c61795f73746570a269640da57461626c65a83134333132363962a467616d65a4"
        "72616365a47374657002a5737465707304a47365617401aa736561745f7669657773c3a56e616d65"
        "7392a3616e6ea2626fa47669657781a3706f73920100a6746f5f6163749100a66576656e747390a9"
        "73656e74656e63657390a56163746f7201"
    ),
    (
        Hello(proto=1, name="ann"),
        "00000019"
        "83a174a568656c6c6fa570726f746f01a46e616d65a3616e6e",
    ),
    (
        Hello(proto=2, name="bo", min_proto=1, token="tok", id=0),
        "00000031"
        "86a174a568656c6c6fa570726f746f02a46e616d65a2626fa96d696e5f70726f"
        "746f01a5746f6b656ea3746f6ba2696400",
    ),
    (
        Hello(proto=1, name="x"*40),
        "0000003f"
        "83a174a568656c6c6fa570726f746f01a46e616d65d928787878787878787878"
        "78787878787878787878787878787878787878787878787878787878787878",
    ),
    (
        ListTables(id=1),
        "00000013"
        "82a174ab6c6973745f7461626c6573a2696401",
    ),
    (
        ListGames(id=2),
        "00000012"
        "82a174aa6c6973745f67616d6573a2696402",
    ),
    (
        Create(id=3, game="race", seats=2, options={"target": 5}, seed=7),
        "00000036"
        "86a174a6637265617465a2696403a467616d65a472616365a5736561747302a7"
        "6f7074696f6e7381a674617267657405a47365656407",
    ),
    (
        Create(id=4, game="race", seats=2),
        "0000001f"
        "84a174a6637265617465a2696404a467616d65a472616365a5736561747302",
    ),
    (
        Join(id=5, table="t1"),
        "0000001f"
        "84a174a46a6f696ea2696405a57461626c65a27431a87370656374617465c2",
    ),
    (
        Join(id=6, table="t1", seat=1, spectate=True),
        "00000025"
        "85a174a46a6f696ea2696406a57461626c65a27431a47365617401a873706563"
        "74617465c3",
    ),
    (
        Resume(id=7, token="tok"),
        "00000018"
        "83a174a6726573756d65a2696407a5746f6b656ea3746f6b",
    ),
    (
        Leave(id=8, table="t1"),
        "00000016"
        "83a174a56c65617665a2696408a57461626c65a27431",
    ),
    (
        Act(id=300, table="t1", action={"type": "step", "n": 2}),
        "0000002b"
        "84a174a3616374a26964cd012ca57461626c65a27431a6616374696f6e82a474"
        "797065a473746570a16e02",
    ),
    (
        Act(id=9, table="t1", action={"type": "bid", "blob": b"\x00\xff"}, seat=0),
        "00000034"
        "85a174a3616374a2696409a57461626c65a27431a6616374696f6e82a4747970"
        "65a3626964a4626c6f62c40200ffa47365617400",
    ),
    (
        Sync(id=10, table="t1"),
        "00000015"
        "83a174a473796e63a269640aa57461626c65a27431",
    ),
    (
        Ping(id=11),
        "0000000c"
        "82a174a470696e67a269640b",
    ),
    (
        Bye(),
        "00000007"
        "81a174a3627965",
    ),
    (
        Welcome(proto=1, peer="p1", name="den", tables=[]),
        "0000002b"
        "85a174a777656c636f6d65a570726f746f01a470656572a27031a46e616d65a3"
        "64656ea67461626c657390",
    ),
    (
        Welcome(proto=1, peer="p1", name="den", tables=[{"id": "t1"}],
                resumed={"table": "t1", "seat": 0, "token": "tok"}, id=0),
        "00000058"
        "87a174a777656c636f6d65a570726f746f01a470656572a27031a46e616d65a3"
        "64656ea67461626c65739181a26964a27431a7726573756d656483a57461626c"
        "65a27431a47365617400a5746f6b656ea3746f6ba2696400",
    ),
    (
        Error(code="bad_token", message="no"),
        "00000023"
        "83a174a56572726f72a4636f6465a96261645f746f6b656ea76d657373616765"
        "a26e6f",
    ),
    (
        Error(code="not_to_act", message="wait", id=9, table="t1"),
        "00000033"
        "85a174a56572726f72a4636f6465aa6e6f745f746f5f616374a76d6573736167"
        "65a477616974a2696409a57461626c65a27431",
    ),
    (
        Tables(id=1, tables=[{"id": "t1"}]),
        "0000001d"
        "83a174a67461626c6573a2696401a67461626c65739181a26964a27431",
    ),
    (
        Games(id=2, games=[{"id": "race"}]),
        "0000001d"
        "83a174a567616d6573a2696402a567616d65739181a26964a472616365",
    ),
    (
        Created(id=3, table="t1"),
        "00000018"
        "83a174a763726561746564a2696403a57461626c65a27431",
    ),
    (
        Joined(id=5, table="t1", seat=0, token="tok"),
        "00000027"
        "85a174a66a6f696e6564a2696405a57461626c65a27431a47365617400a5746f"
        "6b656ea3746f6b",
    ),
    (
        Joined(id=6, table="t1", seat=None, token=None),
        "00000024"
        "85a174a66a6f696e6564a2696406a57461626c65a27431a473656174c0a5746f"
        "6b656ec0",
    ),
    (
        Left(id=8, table="t1"),
        "00000015"
        "83a174a46c656674a2696408a57461626c65a27431",
    ),
    (
        Accepted(id=300, table="t1", seq=70000),
        "00000024"
        "84a174a86163636570746564a26964cd012ca57461626c65a27431a3736571ce"
        "00011170",
    ),
    (
        Update(table="t1", seq=0, status="waiting",
               seats=[{"name": "ann", "taken": True, "connected": True}],
               seat=0, view=None, to_act=[], full=True),
        "00000064"
        "89a174a6757064617465a57461626c65a27431a373657100a6737461747573a7"
        "77616974696e67a573656174739183a46e616d65a3616e6ea574616b656ec3a9"
        "636f6e6e6563746564c3a47365617400a476696577c0a6746f5f61637490a466"
        "756c6cc3",
    ),
    (
        Update(table="t1", seq=1, status="playing", seats=[], seat=1, view={"c": 2}, to_act=[1],
               legal=[{"type": "step", "n": 1}], events=[{"type": "stepped", "n": 2}]),
        "0000007a"
        "8ba174a6757064617465a57461626c65a27431a373657101a6737461747573a7"
        "706c6179696e67a5736561747390a47365617401a47669657781a16302a6746f"
        "5f6163749101a56c6567616c9182a474797065a473746570a16e01a66576656e"
        "74739182a474797065a773746570706564a16e02a466756c6cc2",
    ),
    (
        Update(table="t1", seq=2, status="finished", seats=[], seat=None,
               view={"x": -1.5, "y": -33}, to_act=[], scores={"rank": [1, 2]}, full=True, id=12),
        "0000006c"
        "8ba174a6757064617465a57461626c65a27431a373657102a6737461747573a8"
        "66696e6973686564a5736561747390a473656174c0a47669657782a178cbbff8"
        "000000000000a179d0dfa6746f5f61637490a673636f72657381a472616e6b92"
        "0102a466756c6cc3a269640c",
    ),
    (
        Pong(id=11),
        "0000000c"
        "82a174a4706f6e67a269640b",
    ),
    (
        Lobby(tables=[{"id": "t1"}]),
        "00000018"
        "82a174a56c6f626279a67461626c65739181a26964a27431",
    ),
    (
        Update(table="t1", seq=1, status="playing", seats=[], seat=0, view={}, to_act=[0],
               legal=[{"type": "a"}], events=[], labels=["Ann"], sentences=[]),
        "00000077"
        "8da174a6757064617465a57461626c65a27431a373657101a6737461747573a7"
        "706c6179696e67a5736561747390a47365617400a47669657780a6746f5f6163"
        "749100a56c6567616c9181a474797065a161a66576656e747390a466756c6cc2"
        "a66c6162656c7391a3416e6ea973656e74656e63657390",
    ),
    (
        Query(id=13, table="t1", query={"type": "sail", "heading": 900}, seat=0),
        "00000038"
        "85a174a57175657279a269640da57461626c65a27431a5717565727982a47479"
        "7065a47361696ca768656164696e67cd0384a47365617400",
    ),
    (
        Answer(id=13, table="t1", answer={"distance": 8380}),
        "0000002b"
        "84a174a6616e73776572a269640da57461626c65a27431a6616e737765728"
        "1a864697374616e6365cd20bc",
    ),
    (
        Commit(id=3, table="t1", seat=0, tip="ab", length=8, sig="cd"),
        "00000033"
        "87a174a6636f6d6d6974a2696403a57461626c65a27431a47365617400a37469"
        "70a26162a66c656e67746808a3736967a26364",
    ),
    (
        Reveal(id=4, table="t1", seat=0, event=1, link="ef", sig="cd"),
        "00000033"
        "87a174a672657665616ca2696404a57461626c65a27431a47365617400a56576"
        "656e7401a46c696e6ba26566a3736967a26364",
    ),
    (
        FairRequest(table="t1", seat=0, kind="reveal", event=1, digest="01"),
        "0000003c"
        "86a174ac666169725f72657175657374a57461626c65a27431a47365617400a4"
        "6b696e64a672657665616ca56576656e7401a6646967657374a23031",
    ),
    (
        FairEvent(table="t1", event=1, seq=0, digest="01", seed="02", reveals=[]),
        "0000003e"
        "87a174aa666169725f6576656e74a57461626c65a27431a56576656e7401a373"
        "657100a6646967657374a23031a473656564a23032a772657665616c7390",
    ),
    (
        FairFault(table="t1", event=2, seat=1, reason="withheld", outcome="forfeit",
                  message="late"),
        "00000051"
        "87a174aa666169725f6661756c74a57461626c65a27431a56576656e7402a473"
        "65617401a6726561736f6ea87769746868656c64a76f7574636f6d65a7666f72"
        "66656974a76d657373616765a46c617465",
    ),
    (
        DeckRequest(table="t1", seat=0, game="g", deck="d", round=1, n=2, seats=2, kind="keys",
                    positions=[{"pos": 1, "to": None}]),
        "0000005d"
        "8aa174ac6465636b5f72657175657374a57461626c65a27431a47365617400a4"
        "67616d65a167a46465636ba164a5726f756e6401a16e02a5736561747302a46b"
        "696e64a46b657973a9706f736974696f6e739182a3706f7301a2746fc0",
    ),
    (
        DeckKeys(table="t1", deck="d", round=1, to=0,
                 points=[{"pos": 0, "point": b"\xab"}]),
        "0000003f"
        "86a174a96465636b5f6b657973a57461626c65a27431a46465636ba164a5726f"
        "756e6401a2746f00a6706f696e74739182a3706f7300a5706f696e74c401ab",
    ),
    (
        DeckPass(id=5, table="t1", seat=0, deck="d", round=1, stage="shuffle",
                 points=b"\xab\xcd", sig=b"\xef"),
        "0000004e"
        "89a174a96465636b5f70617373a2696405a57461626c65a27431a47365617400"
        "a46465636ba164a5726f756e6401a57374616765a773687566666c65a6706f69"
        "6e7473c402abcda3736967c401ef",
    ),
    (
        DeckUnlock(id=6, table="t1", seat=1, deck="d", round=1,
                   items=[{"pos": 0, "to": None, "key": b"\xab", "sig": b"\xcd"}]),
        "0000004f"
        "87a174ab6465636b5f756e6c6f636ba2696406a57461626c65a27431a4736561"
        "7401a46465636ba164a5726f756e6401a56974656d739184a3706f7300a2746f"
        "c0a36b6579c401aba3736967c401cd",
    ),
    (
        DeckSecretsMessage(id=7, table="t1", seat=0, deck="d", round=1, shuffle_key=b"\xab",
                           permutation=[1, 0], card_keys=b"\xcd\xef", sig=b"\x01"),
        "00000064"
        "8aa174ac6465636b5f73656372657473a2696407a57461626c65a27431a47365"
        "617400a46465636ba164a5726f756e6401ab73687566666c655f6b6579c401ab"
        "ab7065726d75746174696f6e920100a9636172645f6b657973c402cdefa37369"
        "67c40101",
    ),
    (  # turn clocks and pause (host/clock.py)
        Pause(id=11, table="1431269b", paused=True),
        "00000024" "84a174a57061757365a269640ba57461626c65a83134333132363962a6706175736564c3",
    ),
    (
        PauseNoted(id=11, table="1431269b", paused=False, waiting=[1, 2]),
        "00000035" "85a174ab70617573655f6e6f746564a269640ba57461626c65a83134333132363962a670"
        "6175736564c2a777616974696e67920102",
    ),
    (
        UndoAsk(id=11, table="t1"),
        "00000019"
        "83a174a8756e646f5f61736ba269640ba57461626c65a27431"
    ),
    (
        UndoAnswer(id=12, table="t1", undoes=4, accept=True),
        "0000002c"
        "85a174ab756e646f5f616e73776572a269640ca57461626c65a27431a6756e64"
        "6f657304a6616363657074c3"
    ),
    (
        UndoNotice(table="t1", state="done", seat=0, undoes=4, seq=5,
                   message="Ann took back their last move."),
        "00000056"
        "87a174a4756e646fa57461626c65a27431a57374617465a4646f6e65a4736561"
        "7400a6756e646f657304a373657105a76d657373616765be416e6e20746f6f6b"
        "206261636b207468656972206c617374206d6f76652e"
    ),
]
CASES = [(msg, bytes.fromhex(hexes)) for msg, hexes in SIMPLE_CASES]


def _frame(obj: object) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def _ids(case: tuple[object, bytes]) -> str:
    return type(case[0]).__name__


def test_cases_cover_every_message_type() -> None:
    assert {m.t for m, _ in CASES} == set(CLIENT_TYPES) | set(HOST_TYPES)


def test_case_length_prefixes_match_their_bodies() -> None:
    for _, data in CASES:
        assert struct.unpack(">I", data[:4])[0] == len(data) - 4


# -- writer -----------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_writer(case) -> None:
    msg, data = case
    assert encode_frame(msg.to_map()) == data
    assert sender_for(msg).send(msg) == data


# -- reader: whole, byte by byte, with trailing bytes ----------------------------------


def _read_all(conn: Connection, chunks: list[bytes]) -> list[object]:
    """Feed ``chunks`` one at a time, draining events after each (as a server loop does)."""
    events: list[object] = []
    for chunk in chunks:
        conn.receive_data(chunk)
        while (event := conn.next_event()) is not NEED_DATA:
            events.append(event)
    return events


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_reader_whole(case) -> None:
    msg, data = case
    conn = receiver_for(msg)
    assert _read_all(conn, [data]) == [msg]
    assert conn.trailing_data == 0


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_reader_byte_by_byte(case) -> None:
    msg, data = case
    conn = receiver_for(msg)
    for i in range(len(data) - 1):
        assert _read_all(conn, [data[i:i + 1]]) == []
        assert conn.trailing_data == i + 1
    assert _read_all(conn, [data[-1:]]) == [msg]
    assert conn.trailing_data == 0


@pytest.mark.parametrize("trailing", [b"\x00", b"\x00\x00\x00", b"\x00\x00\x00\x07\x81\xa1t"])
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_reader_with_trailing_bytes(case, trailing) -> None:
    msg, data = case
    conn = receiver_for(msg)
    assert _read_all(conn, [data + trailing]) == [msg]
    assert conn.trailing_data == len(trailing)


def test_reader_several_frames_in_one_chunk() -> None:
    # What the host's writer does: it batches whatever is ready into one write.
    msgs = [Tables(id=1, tables=[]), Pong(id=2), Update(
        table="t1", seq=0, status="waiting", seats=[], seat=None, view=None, to_act=[])]
    conn = receiver_for(msgs[0])
    assert _read_all(conn, [b"".join(encode_frame(m.to_map()) for m in msgs)]) == msgs


# Readers accept any key order, any valid msgpack encoding of a value, explicit nil
# for an optional field, and ignore keys they do not know (newer peers may add some).
READ_ONLY_CASES = [
    ({"id": 11, "t": "ping"}, Ping(id=11)),
    ({"t": "ping", "id": 11, "later": [1, 2]}, Ping(id=11)),
    ({"t": "join", "id": 5, "table": "t1", "seat": None}, Join(id=5, table="t1")),
    ({"t": "hello", "proto": 1, "name": "ann", "min_proto": None, "token": None},
     Hello(proto=1, name="ann")),
    ({"t": "update", "table": "t1", "seq": 0, "status": "waiting", "seats": [], "seat": None,
      "view": None, "to_act": []},
     Update(table="t1", seq=0, status="waiting", seats=[], seat=None, view=None, to_act=[])),
]


@pytest.mark.parametrize(("obj", "msg"), READ_ONLY_CASES)
def test_reader_is_liberal_in_form(obj, msg) -> None:
    assert _read_all(receiver_for(msg), [_frame(obj)]) == [msg]


def test_reader_accepts_non_minimal_encodings() -> None:
    # "t" as str8 (d9) and id as uint64 (cf): valid msgpack, just not the shortest form.
    body = bytes.fromhex("82" "d901" "74" "a4" "70696e67" "a2" "6964" "cf000000000000000b")
    framed = struct.pack(">I", len(body)) + body
    assert _read_all(receiver_for(Ping(id=11)), [framed]) == [Ping(id=11)]


def test_decode_body_gives_the_map() -> None:
    assert decode_body(bytes.fromhex("82a174a470696e67a269640b")) == {"t": "ping", "id": 11}


# -- hostile frames ---------------------------------------------------------------------


def _code(excinfo: pytest.ExceptionInfo[RemoteProtocolError]) -> ErrorCode:
    return excinfo.value.code


@pytest.mark.parametrize("length", [DEFAULT_MAX_FRAME + 1, 1 << 31, 0xFFFFFFFF])
def test_oversize_length_refused_on_the_header_alone(length) -> None:
    conn = connection_at("host", START)
    header = struct.pack(">I", length)
    conn.receive_data(header[:3])
    assert conn.next_event() is NEED_DATA
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.receive_data(header[3:])
    assert _code(excinfo) == ErrorCode.FRAME_TOO_LARGE
    assert conn.trailing_data == 0  # nothing of the body was ever buffered
    assert conn.state is ERROR


@pytest.mark.parametrize("length", [DEFAULT_MAX_FRAME + 1, 0xFFFFFFFF])
def test_oversize_length_with_body_bytes_in_the_same_chunk(length) -> None:
    conn = connection_at("host", START)
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.receive_data(struct.pack(">I", length) + b"\x00" * 1000)
    assert _code(excinfo) == ErrorCode.FRAME_TOO_LARGE
    assert conn.trailing_data == 0


def test_frame_limit_is_inclusive() -> None:
    conn = Connection("host", max_frame=64)
    conn.receive_data(struct.pack(">I", 64) + b"\x00" * 10)  # exactly the limit: fine
    assert conn.next_event() is NEED_DATA
    conn = Connection("host", max_frame=64)
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.receive_data(struct.pack(">I", 65))
    assert _code(excinfo) == ErrorCode.FRAME_TOO_LARGE


def test_oversize_frame_after_a_good_one_delivers_the_good_one_first() -> None:
    hello = Hello(proto=1, name="ann")
    conn = receiver_for(hello)
    conn.receive_data(encode_frame(hello.to_map()) + struct.pack(">I", 0xFFFFFFFF))
    assert conn.next_event() == hello
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.next_event()
    assert _code(excinfo) == ErrorCode.FRAME_TOO_LARGE
    assert conn.trailing_data == 0
    assert conn.state is ERROR


def test_sender_refuses_an_oversize_frame() -> None:
    conn = Connection("client", max_frame=64)
    with pytest.raises(LocalProtocolError) as excinfo:
        conn.send(Hello(proto=1, name="x" * 100))
    assert excinfo.value.code == ErrorCode.FRAME_TOO_LARGE
    with pytest.raises(LocalProtocolError) as excinfo:
        encode_frame({"t": "ping", "id": 1, "pad": b"\x00" * 100}, max_frame=64)
    assert excinfo.value.code == ErrorCode.FRAME_TOO_LARGE


def test_sender_refuses_what_msgpack_cannot_carry() -> None:
    conn = connection_at("client", SESSION)
    with pytest.raises(LocalProtocolError):
        conn.send(Act(id=1, table="t1", action={"type": "x", "bad": {1, 2}}))
    with pytest.raises(LocalProtocolError):
        conn.send(Act(id=1, table="t1", action={"type": "x", "n": 1 << 64}))


HOSTILE_BODIES = [
    pytest.param(b"", ErrorCode.BAD_FRAME, id="empty body"),
    pytest.param(b"\xc1", ErrorCode.BAD_FRAME, id="never-used byte"),
    pytest.param(b"\x82\xa1t", ErrorCode.BAD_FRAME, id="truncated map"),
    pytest.param(bytes.fromhex("81a174a470696e67") + b"\x00", ErrorCode.BAD_FRAME,
                 id="trailing garbage"),
    pytest.param(bytes.fromhex("81a174a2ff fe"), ErrorCode.BAD_FRAME, id="invalid utf-8 str"),
    pytest.param(msgpack.packb(["t", "ping"]), ErrorCode.BAD_FRAME, id="list"),
    pytest.param(msgpack.packb(7), ErrorCode.BAD_FRAME, id="int"),
    pytest.param(msgpack.packb("ping"), ErrorCode.BAD_FRAME, id="str"),
    pytest.param(msgpack.packb(None), ErrorCode.BAD_FRAME, id="nil"),
    pytest.param(msgpack.packb({1: "ping"}), ErrorCode.BAD_FRAME, id="int key"),
    pytest.param(msgpack.packb({"t": "hello", "proto": 1, "name": "a", 2: 3}),
                 ErrorCode.BAD_FRAME, id="int key beside good ones"),
    pytest.param(msgpack.packb({b"t": "hello", b"proto": 1, b"name": "a"}, use_bin_type=True),
                 ErrorCode.BAD_FRAME, id="bin keys"),
    pytest.param(msgpack.packb({"t": "hello", "proto": 1, "name": "a", b"x": 1}, use_bin_type=True),
                 ErrorCode.BAD_FRAME, id="bin key beside good ones"),
    pytest.param(msgpack.packb({"t": "hello", "proto": 1, "name": "a", "x": {1: 2}}),
                 ErrorCode.BAD_FRAME, id="nested int key"),
    pytest.param(b"\x91" * 5000, ErrorCode.BAD_FRAME, id="deeply nested lists"),
    pytest.param(msgpack.packb({"t": "frobnicate"}), ErrorCode.UNKNOWN_TYPE, id="unknown t"),
    pytest.param(msgpack.packb({"proto": 1, "name": "a"}), ErrorCode.UNKNOWN_TYPE, id="missing t"),
    pytest.param(msgpack.packb({"t": 1}), ErrorCode.UNKNOWN_TYPE, id="int t"),
    pytest.param(msgpack.packb({"t": b"hello", "proto": 1, "name": "a"}, use_bin_type=True),
                 ErrorCode.UNKNOWN_TYPE, id="bin t"),
    pytest.param(msgpack.packb({"t": "HELLO", "proto": 1, "name": "a"}), ErrorCode.UNKNOWN_TYPE,
                 id="t is case-sensitive"),
    pytest.param(msgpack.packb({"t": "welcome", "proto": 1, "peer": "p", "name": "n",
                                "tables": []}),
                 ErrorCode.UNKNOWN_TYPE, id="a host's message from a client"),
    pytest.param(msgpack.packb({"t": "hello", "name": "a"}), ErrorCode.BAD_MESSAGE,
                 id="missing proto"),
    pytest.param(msgpack.packb({"t": "hello", "proto": 1}), ErrorCode.BAD_MESSAGE,
                 id="missing name"),
    pytest.param(msgpack.packb({"t": "hello", "proto": "1", "name": "a"}), ErrorCode.BAD_MESSAGE,
                 id="proto as str"),
    pytest.param(msgpack.packb({"t": "hello", "proto": True, "name": "a"}), ErrorCode.BAD_MESSAGE,
                 id="proto as bool"),
    pytest.param(msgpack.packb({"t": "hello", "proto": 1.0, "name": "a"}), ErrorCode.BAD_MESSAGE,
                 id="proto as float"),
    pytest.param(msgpack.packb({"t": "hello", "proto": None, "name": "a"}), ErrorCode.BAD_MESSAGE,
                 id="proto as nil"),
    pytest.param(msgpack.packb({"t": "hello", "proto": 1, "name": b"a"}, use_bin_type=True),
                 ErrorCode.BAD_MESSAGE, id="name as bin"),
    pytest.param(msgpack.packb({"t": "hello", "proto": 1, "name": "a", "min_proto": "1"}),
                 ErrorCode.BAD_MESSAGE, id="min_proto as str"),
    pytest.param(msgpack.packb({"t": "hello", "proto": 1, "name": "a", "token": 5}),
                 ErrorCode.BAD_MESSAGE, id="token as int"),
    pytest.param(msgpack.packb({"t": "hello", "proto": 1, "name": "a", "id": False}),
                 ErrorCode.BAD_MESSAGE, id="id as bool"),
]


@pytest.mark.parametrize(("body", "code"), HOSTILE_BODIES)
def test_hostile_body_at_hello(body, code) -> None:
    conn = connection_at("host", START)
    conn.receive_data(struct.pack(">I", len(body)) + body)
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.next_event()
    assert _code(excinfo) == code
    assert conn.state is ERROR


SESSION_HOSTILE = [
    ({"t": "join", "id": 1, "table": "t1", "spectate": 1}, "int where bool"),
    ({"t": "join", "id": 1, "table": "t1", "spectate": None}, "nil for a defaulted bool"),
    ({"t": "join", "id": 1, "table": "t1", "seat": "0"}, "seat as str"),
    ({"t": "join", "id": "1", "table": "t1"}, "id as str"),
    ({"t": "join", "table": "t1"}, "missing id"),
    ({"t": "act", "id": 1, "table": "t1", "action": [1]}, "action as list"),
    ({"t": "act", "id": 1, "table": "t1"}, "missing action"),
    ({"t": "act", "id": 1, "table": 7, "action": {}}, "table as int"),
    ({"t": "create", "id": 1, "game": "race", "seats": None}, "seats as nil"),
    ({"t": "create", "id": 1, "game": "race", "seats": 2, "options": []}, "options as list"),
    ({"t": "resume", "id": 1}, "missing token"),
    ({"t": "ping", "id": 1.5}, "id as float"),
]


@pytest.mark.parametrize(("obj", "why"), SESSION_HOSTILE, ids=[w for _, w in SESSION_HOSTILE])
def test_ill_typed_request_in_session(obj, why) -> None:
    conn = connection_at("host", SESSION)
    conn.receive_data(_frame(obj))
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.next_event()
    assert _code(excinfo) == ErrorCode.BAD_MESSAGE
    assert str(excinfo.value).startswith(f"{obj['t']}: ")  # names the message type


HOST_HOSTILE = [
    {"t": "welcome", "proto": 1, "peer": "p", "name": "n", "tables": [1]},
    {"t": "welcome", "proto": 1, "peer": "p", "name": "n", "tables": {}},
    {"t": "welcome", "proto": 1, "peer": "p", "name": "n"},
    {"t": "update", "table": "t1", "status": "waiting", "seats": [], "seat": None, "view": None,
     "to_act": []},
    {"t": "update", "table": "t1", "seq": 0, "status": "waiting", "seats": [], "seat": None,
     "view": None, "to_act": ["0"]},
    {"t": "update", "table": "t1", "seq": 0, "status": "waiting", "seats": [], "view": None,
     "to_act": []},
    {"t": "joined", "id": 1, "table": "t1", "seat": 0},
    {"t": "error", "code": 3, "message": "m"},
]


@pytest.mark.parametrize("obj", HOST_HOSTILE, ids=lambda o: o["t"])
def test_ill_typed_host_message(obj) -> None:
    conn = receiver_for(Update(table="t", seq=0, status="w", seats=[], seat=None, view=None,
                               to_act=[]))
    conn.receive_data(_frame(obj))
    with pytest.raises(RemoteProtocolError) as excinfo:
        conn.next_event()
    assert _code(excinfo) == ErrorCode.BAD_MESSAGE


def test_a_message_with_no_fields_of_its_own() -> None:
    assert Bye().to_map() == {"t": "bye"}
    assert Error(code="internal", message="m").to_map() == {
        "t": "error", "code": "internal", "message": "m"}
