"""The sans-IO connection: bytes in, messages out; messages in, bytes out."""

from __future__ import annotations

import enum
import threading
from typing import Any, Final, Literal

import msgpack

from ._errors import ErrorCode, LocalProtocolError, ProtocolError, RemoteProtocolError
from ._frames import DEFAULT_MAX_FRAME, HEADER, FrameReader, decode_body, encode_frame, new_packer
from ._messages import Error, Message, Update, from_map
from ._state import CLOSED, ERROR, START, _Sentinel, next_state

PROTOCOL_VERSION: Final = 1  # the highest version this code speaks
MIN_PROTOCOL_VERSION: Final = 1  # the lowest version this code speaks

CLIENT: Final = "client"
HOST: Final = "host"


class _NeedData(enum.Enum):
    """One member, so that ``event is NEED_DATA`` narrows the type of ``event``."""

    NEED_DATA = "NEED_DATA"

    def __repr__(self) -> str:
        return "NEED_DATA"


NEED_DATA: Final = _NeedData.NEED_DATA
"""Returned by :meth:`Connection.next_event` when more bytes are needed."""


class ConnectionClosed:
    """The peer closed its side (EOF). Returned by :meth:`Connection.next_event`."""

    def __repr__(self) -> str:
        return "ConnectionClosed()"


def negotiate(client_proto: int, client_min: int | None) -> int | None:
    """The version a host speaking ``MIN..PROTOCOL_VERSION`` picks, or None."""
    lo = max(MIN_PROTOCOL_VERSION, client_min if client_min is not None else client_proto)
    hi = min(PROTOCOL_VERSION, client_proto)
    return hi if lo <= hi else None


(_KEY_SEAT, _KEY_VIEW, _KEY_LEGAL, _KEY_EVENTS, _KEY_ID, _KEY_LABELS, _KEY_SENTENCES,
 _KEY_BOARD_TEXT) = (
    new_packer().pack(key)
    for key in ("seat", "view", "legal", "events", "id", "labels", "sentences", "board_text"))


_local = threading.local()


def _thread_packer() -> msgpack.Packer:
    """This thread's packer, for every connection (a packer is not thread-safe, and
    making one per use costs more than the packing). One per connection would keep, for
    the connection's life, a buffer as large as the largest message it ever sent: a
    thousand spectators of a table with large views held a gigabyte (issue 9, finding 5)."""
    packer: msgpack.Packer
    try:
        packer = _local.packer
    except AttributeError:
        packer = _local.packer = new_packer()
    return packer


def _pack_pairs(mapping: dict[str, Any], what: str) -> bytes:
    """The key/value pairs of ``mapping`` as msgpack, without the map's header.

    Raises:
        LocalProtocolError: a value cannot be encoded.
    """
    try:
        data = _thread_packer().pack(mapping)
    except (TypeError, ValueError, OverflowError) as exc:
        raise LocalProtocolError(f"cannot encode {what}: {exc}") from exc
    return data[_map_header_size(len(mapping)):]


def _map_header(count: int) -> bytes:
    """A msgpack map header for ``count`` pairs (the small ones made once)."""
    return _SMALL_MAP_HEADERS[count] if count < 16 else _thread_packer().pack_map_header(count)


_SMALL_MAP_HEADERS: Final = [bytes([0x80 | n]) for n in range(16)]  # fixmap


def _map_header_size(count: int) -> int:
    """The bytes of a msgpack map header for ``count`` pairs (fixmap, map 16, map 32)."""
    return 1 if count < 16 else 3 if count < 0x10000 else 5


class PackedMap:
    """A map encoded once, for sending inside many updates (the ``view`` of
    :meth:`Connection.send_update`): a host encodes the public part of a change's
    views once and :meth:`merged` adds each seat's own keys to it.

    Raises:
        LocalProtocolError: a value cannot be encoded.
    """

    __slots__ = ("count", "packed", "more")

    def __init__(self, mapping: dict[str, Any]) -> None:
        self.count = len(mapping)
        self.packed = _pack_pairs(mapping, "a view")
        self.more = b""  # a merged map's added pairs, kept apart (no copy of ``packed``)

    def merged(self, more: dict[str, Any]) -> PackedMap:
        """This map plus ``more``, whose keys must not already be here."""
        if not more:
            return self  # nothing of its own (a game without secrets)
        out = PackedMap.__new__(PackedMap)
        out.count = self.count + len(more)
        out.packed = self.packed
        out.more = self.more + _pack_pairs(more, "a view")
        return out

    def encode(self) -> bytes:
        return _map_header(self.count) + self.packed + self.more


class Packed:
    """One value encoded once, for sending inside many updates (the ``events`` of
    :meth:`Connection.send_update`: a change whose events every seat sees sends the
    same bytes to each).

    Raises:
        LocalProtocolError: the value cannot be encoded.
    """

    __slots__ = ("data",)

    def __init__(self, value: Any, what: str = "a value") -> None:
        try:
            self.data: bytes = _thread_packer().pack(value)
        except (TypeError, ValueError, OverflowError) as exc:
            raise LocalProtocolError(f"cannot encode {what}: {exc}") from exc


class SharedUpdate:
    """The fields of an ``update`` that every recipient of one change shares, packed
    once; :meth:`Connection.send_update` adds each recipient's own fields.

    Raises:
        LocalProtocolError: a field cannot be encoded.
    """

    __slots__ = ("fields", "packed", "count")

    def __init__(self, *, table: str, seq: int, status: str, seats: list[dict[str, Any]],
                 to_act: list[int], scores: dict[str, Any] | None = None,
                 full: bool = False, clock: dict[str, Any] | None = None,
                 pause: dict[str, Any] | None = None) -> None:
        self.fields: dict[str, Any] = {"table": table, "seq": seq, "status": status, "seats": seats,
                       "to_act": to_act, "scores": scores, "full": full, "clock": clock,
                       "pause": pause}
        present = {"t": "update", "table": table, "seq": seq, "status": status, "seats": seats,
                   "to_act": to_act}  # never None; the rest only when present
        if scores is not None:
            present["scores"] = scores
        present["full"] = full
        if clock is not None:
            present["clock"] = clock
        if pause is not None:
            present["pause"] = pause
        self.packed = _pack_pairs(present, "'update'")
        self.count = len(present)

    def message(self, *, seat: int | None, view: Any, legal: list[dict[str, Any]] | None = None,
                events: list[dict[str, Any]] | None = None, id: int | None = None,
                labels: list[str] | None = None, sentences: list[str] | None = None,
                board_text: list[dict[str, Any]] | None = None) -> Update:
        """The same update as a message object (what the recipient decodes)."""
        return Update(**self.fields, seat=seat, view=view, legal=legal, events=events, id=id,
                      labels=labels, sentences=sentences, board_text=board_text)


class Connection:
    """One side of a lantable conversation.

    Args:
        our_role: ``"client"`` or ``"host"``.
        max_frame: the largest frame body we send (and accept, unless ``max_receive``).
        max_receive: the largest frame body we accept, if smaller (a host takes small
            requests and sends large updates).

    ``receive_data(b"")`` means EOF. Any protocol error moves the connection to
    ``ERROR``; after that every call raises. Nothing here does I/O.
    """

    def __init__(self, our_role: str, max_frame: int = DEFAULT_MAX_FRAME,
                 max_receive: int | None = None) -> None:
        if our_role not in (CLIENT, HOST):
            raise ValueError(f"our_role must be 'client' or 'host', got {our_role!r}")
        self.our_role = our_role
        self.their_role = HOST if our_role == CLIENT else CLIENT
        self.max_frame = max_frame
        self.state: _Sentinel = START
        self._reader = FrameReader(max_frame if max_receive is None else max_receive)
        self._eof = False

    def _check_usable(self) -> None:
        if self.state is ERROR:
            raise LocalProtocolError("connection is in ERROR after an earlier protocol error")

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes from the peer; ``b""`` means the peer closed."""
        self._check_usable()
        if not data:
            self._eof = True
            return
        try:
            self._reader.feed(data)
        except ProtocolError:
            self.state = ERROR
            raise

    def next_event(self) -> Message | Literal[_NeedData.NEED_DATA] | ConnectionClosed:
        """The next message from the peer, ``NEED_DATA`` or ``ConnectionClosed()``.

        Raises:
            RemoteProtocolError: the peer broke the protocol; send its ``code`` in
                an ``error`` and close.
        """
        self._check_usable()
        try:
            body = self._reader.next_body()
            if body is None:
                if self._eof:
                    self.state = CLOSED
                    return ConnectionClosed()
                return NEED_DATA
            msg = from_map(decode_body(body), self.their_role)
            self.state = next_state(self.state, self.their_role, msg.t, remote=True)
            return msg
        except ProtocolError as exc:
            self.state = ERROR
            if isinstance(exc, RemoteProtocolError):
                raise
            raise RemoteProtocolError(str(exc), exc.code) from exc

    def send(self, msg: Message) -> bytes:
        """The bytes for ``msg``; checks that we may send it now.

        Raises:
            LocalProtocolError: we may not send this now, or it cannot be encoded.
        """
        self._check_usable()
        if msg.sender != self.our_role:
            raise LocalProtocolError(f"a {self.our_role} cannot send {msg.t!r}")
        new_state = self.state
        if self.state is not CLOSED:
            new_state = next_state(self.state, self.our_role, msg.t, remote=False)
        data = encode_frame(msg.to_map(), self.max_frame, _thread_packer())
        self.state = new_state
        return data

    def send_update(self, shared: SharedUpdate, *, seat: int | None, view: Any | PackedMap,
                    legal: list[dict[str, Any]] | None = None,
                    events: list[dict[str, Any]] | Packed | None = None,
                    id: int | None = None, labels: list[str] | None = None,
                    sentences: list[str] | None = None,
                    board_text: list[dict[str, Any]] | None = None) -> bytes:
        """The bytes of ``shared.message(seat=..., ...)``, with the shared fields
        packed once for every recipient (a host sends one update per seat per change).
        ``view`` may be a :class:`PackedMap` and ``events`` a :class:`Packed` (encoded
        already).

        Raises:
            LocalProtocolError: we may not send an update now, or it cannot be encoded.
        """
        state = self.state
        if state is ERROR:
            self._check_usable()  # raises
        if self.our_role != HOST:
            raise LocalProtocolError(f"a {self.our_role} cannot send 'update'")
        new_state = state if state is CLOSED else next_state(state, HOST, "update",
                                                             remote=False)
        packer = _thread_packer()
        pack = packer.pack
        try:
            if type(view) is PackedMap:
                parts = [shared.packed, _KEY_SEAT, pack(seat), _KEY_VIEW,
                         _map_header(view.count), view.packed, view.more]
            else:
                parts = [shared.packed, _KEY_SEAT, pack(seat), _KEY_VIEW, pack(view)]
            count = shared.count + 2
            if legal is not None:
                parts += (_KEY_LEGAL, pack(legal))
                count += 1
            if events is not None:
                parts += (_KEY_EVENTS, events.data if type(events) is Packed else pack(events))
                count += 1
            if id is not None:
                parts += (_KEY_ID, pack(id))
                count += 1
            if labels is not None:
                parts += (_KEY_LABELS, pack(labels))
                count += 1
            if sentences is not None:
                parts += (_KEY_SENTENCES, pack(sentences))
                count += 1
            if board_text is not None:
                parts += (_KEY_BOARD_TEXT, pack(board_text))
                count += 1
        except (TypeError, ValueError, OverflowError) as exc:
            raise LocalProtocolError(f"cannot encode 'update': {exc}") from exc
        body = _map_header(count) + b"".join(parts)
        if len(body) > self.max_frame:
            raise LocalProtocolError(
                f"frame of {len(body)} bytes exceeds the limit of {self.max_frame}",
                ErrorCode.FRAME_TOO_LARGE)
        self.state = new_state
        return HEADER.pack(len(body)) + body

    def send_error(self, error: Error) -> bytes:
        """The bytes of an ``error`` message; allowed in any state, even ``ERROR``,
        so that a peer that broke the protocol still learns why it is closed."""
        if self.our_role != HOST:
            raise LocalProtocolError("only a host sends error messages")
        return encode_frame(error.to_map(), self.max_frame, _thread_packer())

    def send_failed(self) -> None:
        """The transport failed while sending; the connection is unusable."""
        self.state = ERROR

    @property
    def last_frame_size(self) -> int:
        """The body size in bytes of the last message :meth:`next_event` returned (a host
        bounds a request's fields by it without encoding them again)."""
        return self._reader.last_size

    def take_buffered(self) -> bytes:
        """The bytes received but not yet returned as messages, taken out of the
        buffer (a host hands the connection to another process with them)."""
        return self._reader.take()

    @property
    def trailing_data(self) -> int:
        """How many bytes are buffered but not yet returned as messages."""
        return self._reader.buffered
