"""Fixtures for host tests: an inline test game and a peer on loopback."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from lantable.host.peer import serve_peer
from lantable.plugins import IllegalAction, hookimpl, load_registry


class Tally:
    """The host tests' game: seats take turns adding 1..3 to a counter up to a target.

    Each seat holds a secret card (hidden information). ``{"type": "boom"}`` makes
    the plugin crash when the option ``bugs`` is on (a broken plugin, on demand); with
    ``bugs`` on, building a view also fails while the counter is 6 to 8.
    The option ``pad`` adds that many bytes to every view (to fill buffers).
    """

    @hookimpl
    def game_info(self) -> dict[str, Any]:
        return {
            "id": "tally", "title": "Tally", "version": "1", "min_seats": 1, "max_seats": 6,
            "options": {"target": {"default": 20}, "bugs": {"default": False},
                        "pad": {"default": 0}},
            "traits": {"chance": True, "hidden_information": True, "simultaneous": False},
        }

    @hookimpl
    def game_setup(self, seats: int, options: dict[str, Any], rng: Any) -> dict[str, Any]:
        return {"n": seats, "counter": 0, "turn": 0, "target": options["target"],
                "secret": [rng.randrange(100) for _ in range(seats)], "bugs": options["bugs"],
                "pad": options["pad"], "by": [0] * seats}

    @hookimpl
    def game_to_act(self, state: dict[str, Any]) -> list[int]:
        return [] if state["counter"] >= state["target"] else [state["turn"]]

    @hookimpl
    def game_legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if state["counter"] >= state["target"] or seat != state["turn"]:
            return []
        return [{"type": "add", "n": n} for n in (1, 2, 3)]

    @hookimpl
    def game_apply(self, state: dict[str, Any], seat: int, action: dict[str, Any],
                   rng: Any) -> list[dict[str, Any]]:
        if action["type"] == "boom" and state["bugs"]:
            state["counter"] = "corrupted"
            raise RuntimeError("the plugin has a bug")
        if action["type"] != "add" or action.get("n") not in (1, 2, 3):
            raise IllegalAction(f"expected add with n in 1..3, got {action!r}")
        state["counter"] += action["n"]
        state["by"][seat] += action["n"]
        roll = rng.randrange(6)
        state["turn"] = (seat + 1) % state["n"]
        return [{"type": "added", "seat": seat, "n": action["n"]},
                {"type": "peek", "roll": roll, "to": [seat]}]

    @hookimpl
    def game_view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        if state["bugs"] and state["counter"] in (6, 7, 8):
            raise RuntimeError("the plugin's view has a bug")
        view = {"counter": state["counter"], "turn": state["turn"], "by": list(state["by"]),
                "pad": "x" * state["pad"]}
        if seat is not None:
            view["my_secret"] = state["secret"][seat]
        return view

    @hookimpl
    def game_scores(self, state: dict[str, Any]) -> dict[str, Any]:
        by = state["by"]
        return {"scores": list(by), "rank": [1 + sum(1 for o in by if o > b) for b in by]}

    @hookimpl
    def game_sample_state(self, view: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
        n = len(view["by"])
        secret = [rng.randrange(100) for _ in range(n)]
        secret[seat] = view["my_secret"]
        return {"n": n, "counter": view["counter"], "turn": view["turn"], "target": 20,
                "secret": secret, "bugs": False, "pad": 0, "by": list(view["by"])}


@pytest.fixture
def registry():
    return load_registry(autoload=False, plugins={"tally": Tally()})


@pytest.fixture
def make_peer(nursery, registry, tmp_path):
    """Start a peer on 127.0.0.1 with a journal in tmp_path: ``await make_peer(limits)``."""
    from lantable.host.limits import DEFAULT_LIMITS

    async def make(limits=DEFAULT_LIMITS, name="test-peer", db="journal.sqlite"):
        return await nursery.start(lambda task_status: serve_peer(
            registry=registry, db=str(tmp_path / db), name=name, bind="127.0.0.1", port=0,
            limits=limits, task_status=task_status))

    return make


@pytest.fixture
async def peer(make_peer):
    """A running peer on 127.0.0.1 with a journal in tmp_path."""
    return await make_peer()


class RawClient:
    """A client on raw bytes for hostile tests: send anything, read frames back."""

    def __init__(self, stream: trio.SocketStream) -> None:
        from lantable.protocol import Connection

        self.stream = stream
        self.conn = Connection("client")

    @classmethod
    async def open(cls, port: int) -> RawClient:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def send_bytes(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def send(self, msg: Any) -> None:
        await self.stream.send_all(self.conn.send(msg))

    async def send_map(self, obj: dict[str, Any]) -> None:
        from lantable.protocol import encode_frame

        await self.stream.send_all(encode_frame(obj))

    async def read_all(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Every frame until the host closes (as raw maps)."""
        import struct

        import msgpack

        buf = b""
        with trio.fail_after(timeout):
            while True:
                try:
                    data = await self.stream.receive_some(65536)
                except trio.BrokenResourceError:
                    data = b""
                if not data:
                    break
                buf += data
        out = []
        while len(buf) >= 4:
            (n,) = struct.unpack(">I", buf[:4])
            out.append(msgpack.unpackb(buf[4:4 + n], raw=False))
            buf = buf[4 + n:]
        return out

    async def next_map(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next frame, as a raw map (reads exactly one frame)."""
        import struct

        import msgpack

        async def exactly(n: int) -> bytes:
            data = b""
            while len(data) < n:
                chunk = await self.stream.receive_some(n - len(data))
                if not chunk:
                    raise EOFError("closed")
                data += chunk
            return data

        with trio.fail_after(timeout):
            (n,) = struct.unpack(">I", await exactly(4))
            return msgpack.unpackb(await exactly(n), raw=False)


@pytest.fixture
def raw_client():
    return RawClient.open
