"""Framing: a 4-byte big-endian length, then exactly one msgpack map."""

from __future__ import annotations

import struct
from typing import Any, Final

import msgpack

from ._errors import ErrorCode, LocalProtocolError, RemoteProtocolError

HEADER: Final = struct.Struct(">I")
# 1 MiB: a full view of the largest seed game is a few KiB; the cap bounds what one
# peer can make us buffer (h11 uses 16 KiB for headers, nginx 1 MiB for bodies).
DEFAULT_MAX_FRAME: Final = 1 << 20



def new_packer() -> msgpack.Packer:
    """A packer that encodes exactly as :func:`encode_frame` does."""
    return msgpack.Packer(use_bin_type=True)


def encode_frame(payload: dict[str, Any], max_frame: int = DEFAULT_MAX_FRAME,
                 packer: msgpack.Packer | None = None) -> bytes:
    """One frame for ``payload``.

    Args:
        packer: a ``msgpack.Packer(use_bin_type=True)`` to reuse (a connection keeps
            one; it is not thread-safe), or None for a new one.

    Raises:
        LocalProtocolError: ``payload`` is not msgpack-able or the frame is too large.
    """
    try:
        if packer is not None:
            body = packer.pack(payload)
        else:
            body = msgpack.packb(payload, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as exc:
        raise LocalProtocolError(f"cannot encode {payload.get('t')!r}: {exc}") from exc
    if len(body) > max_frame:
        raise LocalProtocolError(
            f"frame of {len(body)} bytes exceeds the limit of {max_frame}",
            ErrorCode.FRAME_TOO_LARGE,
        )
    return HEADER.pack(len(body)) + body


def decode_body(body: bytes) -> dict[str, Any]:
    """The map inside one frame body.

    Raises:
        RemoteProtocolError: the body is not exactly one msgpack map with string keys.
    """
    try:
        obj = msgpack.unpackb(body, raw=False, strict_map_key=True)
    except Exception as exc:  # msgpack raises many types on garbage
        raise RemoteProtocolError(f"frame is not valid msgpack: {exc}",
                                  ErrorCode.BAD_FRAME) from exc
    if not isinstance(obj, dict):
        raise RemoteProtocolError(f"frame must hold a map, got {type(obj).__name__}",
                                  ErrorCode.BAD_FRAME)
    # strict_map_key still lets bin keys through; the top-level keys must be str.
    for key in obj:
        if type(key) is not str:
            raise RemoteProtocolError(f"map keys must be str, got {key!r:.40}", ErrorCode.BAD_FRAME)
    return obj


class FrameReader:
    """Buffers bytes and cuts them into frame bodies; refuses oversize frames early."""

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()
        self._need: int | None = None  # body length of the frame being read
        self.last_size = 0  # body length of the last frame returned

    def feed(self, data: bytes) -> None:
        self._buf += data
        self._check_header()

    @property
    def buffered(self) -> int:
        return len(self._buf)

    def take(self) -> bytes:
        """Every buffered byte, removed (the frame being read starts again)."""
        data = bytes(self._buf)
        self._buf.clear()
        self._need = None
        return data

    def _check_header(self) -> None:
        if self._need is None and len(self._buf) >= HEADER.size:
            (need,) = HEADER.unpack_from(self._buf)
            if need > self.max_frame:
                # Refuse before the body is buffered (DESIGN.md, "The protocol").
                self._buf.clear()
                raise RemoteProtocolError(
                    f"frame length {need} exceeds the limit of {self.max_frame}",
                    ErrorCode.FRAME_TOO_LARGE,
                )
            self._need = need

    def next_body(self) -> bytes | None:
        """The next complete frame body, or None if more bytes are needed."""
        self._check_header()
        need = self._need
        if need is None or len(self._buf) < HEADER.size + need:
            return None
        body = bytes(self._buf[HEADER.size:HEADER.size + need])
        del self._buf[:HEADER.size + need]
        self._need = None
        self.last_size = need
        # The next header is checked on the next call, so this frame is not lost
        # to an error in the one after it.
        return body
