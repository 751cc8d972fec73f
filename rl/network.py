"""Tournament games as real tables on a peer, every entrant an ordinary network client.

``lantable tournament --network`` plays each game as people would: a peer (``lantable
host`` on loopback, one per worker) holds the table, and each seat is taken over TCP by
its entrant: lantable's bots and Python factories through the client library (holding
the seat as ``lantable bot`` does), and *command* entrants as a program of yours in any
language, started with the table's address in its arguments (``{host}``, ``{port}``,
``{table}``, ``{seat}``), which must take that seat and play it to the end with the
protocol (docs/protocol.md). A spectator reads the final scores.
"""

from __future__ import annotations

import functools
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from lantable.clients.client import open_client
from lantable.clients.runner import decision_rng
from lantable.clients.session import SeatPlan, hold_seat
from lantable.clients.tokens import TokenStore

# Seconds a game may take before it is given up (a result with "error").
GAME_TIMEOUT = 600.0
PEER_START_TIMEOUT = 30.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Peer:
    """A ``lantable host`` process on loopback, for the batch's games."""

    def __init__(self, folder: Path) -> None:
        self.log = (folder / "peer.log").open("wb")
        for attempt in range(5):  # another process may take the free port before we bind
            if self._start(folder) or attempt == 4:
                return
        raise AssertionError("unreachable")

    def _start(self, folder: Path) -> bool:
        """Start the peer on a free port; False if it exited at once (the port was taken
        in the meantime), to try another."""
        self.port = _free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lantable.clients.cli", "host", "--bind", "127.0.0.1",
             "--port", str(self.port), "--no-discovery", "--no-web",
             "--db", str(folder / "journal.sqlite")],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + PEER_START_TIMEOUT
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                if self.proc.poll() is not None and b"already in use" in (
                        folder / "peer.log").read_bytes():
                    return False
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the tournament's peer did not start (see "
                                       f"{folder / 'peer.log'})") from None
                time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


async def _seat(port: int, table: str, seat: int, entrant: Any, game: Any, seed: int,
                store: TokenStore) -> None:
    """One entrant holds one seat to the end, over TCP."""
    if entrant.kind == "command":
        argv = shlex.split(entrant.target.format(host="127.0.0.1", port=port, table=table,
                                                 seat=seat))
        await trio.run_process(argv, stdout=subprocess.DEVNULL, check=False)
        return
    bot = entrant.build(game)

    def make_decider(game_id: str, at: int | None) -> Any:
        async def decide(update: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
            choice: dict[str, Any] = bot.choose(update.view or {}, seat, legal,
                                                decision_rng(seed, seat, update.seq))
            return choice
        return decide

    plan = SeatPlan(table=table, seat=seat)
    await hold_seat("127.0.0.1", port, plan, name=f"{entrant.name}#{seat}",
                    make_decider=make_decider, store=store)


async def _one(port: int, m: dict[str, Any], by_name: dict[str, Any], game: Any,
               options: dict[str, Any] | None, store: TokenStore) -> dict[str, Any]:
    async with open_client("127.0.0.1", port, name="tournament") as client:
        table = await client.create(m["game"], m["seats"], options, seed=m["seed"])
        await client.join(table, spectate=True)
        feed = client.updates(table)
        final: Any = None
        async with trio.open_nursery() as nursery:
            for seat, name in enumerate(m["lineup"]):
                nursery.start_soon(_seat, port, table, seat, by_name[name], game, m["seed"],
                                   store)
            async for update in feed:
                if update.status == "finished":
                    final = update
                    break
                if update.status == "faulted":
                    nursery.cancel_scope.cancel()
                    raise RuntimeError(f"table {table} faulted (a bug in the game)")
    scores = final.scores or {}
    return {"scores": scores.get("scores"), "rank": scores.get("rank"), "length": final.seq,
            "table": table}


def play_batch_net(matches: list[dict[str, Any]], by_name: dict[str, Any],
                   registry: Any, options: dict[str, dict[str, Any]] | None
                   ) -> list[dict[str, Any]]:
    """Play ``matches`` as tables on a fresh peer; plain results (see tournament)."""
    with tempfile.TemporaryDirectory(prefix="lantable-tournament-") as folder:
        peer = Peer(Path(folder))
        store = TokenStore(Path(folder) / "seats.json")
        results = []
        try:
            for m in matches:
                start = time.perf_counter()
                base = {**m, "lineup": list(m["lineup"]), "network": True}
                try:
                    got = trio.run(functools.partial(
                        _timed, peer.port, m, by_name, registry[m["game"]],
                        (options or {}).get(m["game"]), store))
                except Exception as exc:  # a bot, a command or a game that failed
                    results.append({**base, "error": f"{type(exc).__name__}: {exc}"})
                    continue
                results.append({**base, **got,
                                "seconds": round(time.perf_counter() - start, 4)})
        finally:
            peer.stop()
        return results


async def _timed(*args: Any) -> dict[str, Any]:
    with trio.fail_after(GAME_TIMEOUT):
        return await _one(*args)
