"""The card engine (a browser seat at a hidden-deck table, web/card_engine.py) in
headless Chromium at phone size (390x844) over loopback; prints JSON.

- ``load_cold_ms``: from asking for the engine to its being ready (Pyodide's 13.5 MB
  downloaded, compiled and started, the seat's Python unpacked and imported), in a
  fresh browser context (empty cache); ``load_cached_ms``: the same after a reload in
  that context (the files revalidated by ETag, answered 304). ``python_ms`` is the part
  up to a running Python.
- ``load_cold_cpu_s``: the CPU time all of Chromium's processes spent on that cold
  load (user + system), which a loaded machine does not inflate as it does wall time.
- ``wasm_heap_mb``: the WebAssembly memory of the engine once loaded; ``js_heap_mb``:
  the page's JavaScript heap (``performance.memory``, main thread only).
- ``shuffle_ms`` / ``lock_ms``: one seat's shuffle pass and lock pass over a deck of
  ``--cards`` cards in the page's engine (pure-Python ristretto255 under Pyodide),
  next to the same call in this CPython with libsodium (``rbcl``) and with the same
  pure-Python ristretto255 (``native_*``).

Medians over ``--runs`` runs. Needs Debian's chromium, Playwright and Pyodide's core
files (``$LANTABLE_PYODIDE`` or ``.cache/pyodide``, as tests/web/test_card_engine_web.py).

Usage: python bench/card_engine.py [--runs 3] [--cards 20 55]
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder
from webhost import CHROMIUM_ARGS, PHONE, HostProcess, chromium_path  # noqa: E402

from lantable.clients.fairdecks import SeatDecks  # noqa: E402
from lantable.protocol import DeckRequest  # noqa: E402
from lantable.protocol import fairplay as fp  # noqa: E402
from lantable.protocol.hidden_deck import card_points  # noqa: E402

LOAD = """async (key) => {
  const t = performance.now();
  const info = await window.lantableDecks.load(key);
  return { ms: performance.now() - t, info,
           js_heap: performance.memory ? performance.memory.usedJSHeapSize : null };
}"""

PASS = """async ([req, lockReq]) => {
  const enc = window.MessagePack.encode;
  const D = window.lantableDecks;
  const sign = async () => "00".repeat(64);
  let t = performance.now();
  const [, shuffled] = await D.answer(enc(req), sign);
  const shuffle = D.status.lastMs;
  const shuffleWall = performance.now() - t;
  lockReq.points = shuffled.points;
  t = performance.now();
  await D.answer(enc(lockReq), sign);
  return { shuffle, lock: D.status.lastMs, shuffle_wall: shuffleWall };
}"""


def requests(n: int, table: str) -> tuple[dict, dict]:
    base = {"t": "deck_request", "table": table, "seat": 0, "game": "nero", "deck": "d",
            "round": 1, "n": n, "seats": 2}
    points = [p.hex() for p in card_points(f"{table}/d/1", n)]
    return {**base, "kind": "shuffle", "points": points}, {**base, "kind": "lock"}


def native(n: int, shim: bool) -> tuple[float, float]:
    """A shuffle and a lock pass in this CPython (ms of process time)."""
    from lantable.protocol import hidden_deck

    saved = hidden_deck.rbcl
    if shim:
        spec = importlib.util.spec_from_file_location("engine_rbcl",
                                                      ROOT / "web" / "engine" / "rbcl.py")
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        hidden_deck.rbcl = module  # type: ignore[assignment]
    try:
        decks = SeatDecks(fp.Identity())
        req, lock = requests(n, f"native{time.monotonic_ns()}")
        t = time.process_time()
        made = decks.answer(DeckRequest(**{k: v for k, v in req.items() if k != "t"}))
        shuffle = time.process_time() - t
        assert made is not None
        t = time.process_time()
        decks.answer(DeckRequest(**{**{k: v for k, v in lock.items() if k != "t"},
                                    "points": made[1]["points"]}))
        return shuffle * 1000, (time.process_time() - t) * 1000
    finally:
        hidden_deck.rbcl = saved


def chromium_cpu() -> float:
    """CPU seconds (user + system) of every process this script started, but itself:
    Chromium's browser, renderer, GPU and utility processes, and the host."""
    import psutil

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            if "chrom" in child.name():
                times = child.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            continue
    return total


def main() -> None:
    ap = bench_parser(__doc__)
    ap.add_argument("--runs", type=int, default=3, help="runs (medians reported)")
    ap.add_argument("--cards", type=int, nargs="+", default=[20, 55], help="deck sizes")
    args = ap.parse_args()
    pyodide = os.environ.get("LANTABLE_PYODIDE") or str(ROOT / ".cache" / "pyodide")
    os.environ["LANTABLE_PYODIDE"] = pyodide
    from playwright.sync_api import sync_playwright

    out: dict = {"runs": args.runs, "viewport": PHONE, "load_cold_ms": [], "load_cached_ms": [],
                 "python_ms": [], "load_cold_cpu_s": [], "wasm_heap_mb": [], "js_heap_mb": []}
    passes: dict = {n: {"shuffle_ms": [], "lock_ms": []} for n in args.cards}
    key = fp.Identity().public
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        host = HostProcess(Path(tmp) / "journal.db").start()
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            for r in range(args.runs):
                context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                page = context.new_page()
                page.goto(host.url)
                page.wait_for_selector("#create")
                cpu = chromium_cpu()
                cold = page.evaluate(LOAD, key)
                out["load_cold_cpu_s"].append(chromium_cpu() - cpu)
                out["load_cold_ms"].append(cold["ms"])
                out["python_ms"].append(cold["info"]["python_ms"])
                out["wasm_heap_mb"].append((cold["info"]["wasm_bytes"] or 0) / 2**20)
                out["js_heap_mb"].append((cold["js_heap"] or 0) / 2**20)
                for n in args.cards:
                    req, lock = requests(n, f"bench{r}n{n}")
                    got = page.evaluate(PASS, [req, lock])
                    passes[n]["shuffle_ms"].append(got["shuffle"])
                    passes[n]["lock_ms"].append(got["lock"])
                page.reload()
                page.wait_for_selector("#create")
                out["load_cached_ms"].append(page.evaluate(LOAD, key)["ms"])
                context.close()
        finally:
            browser.close()
            host.stop()
    result = {k: (round(statistics.median(v), 1) if isinstance(v, list) else v)
              for k, v in out.items()}
    for n in args.cards:
        nat = [native(n, False) for _ in range(args.runs)]
        pure = [native(n, True) for _ in range(args.runs)]
        result[f"deck_{n}"] = {
            "page_shuffle_ms": round(statistics.median(passes[n]["shuffle_ms"]), 1),
            "page_lock_ms": round(statistics.median(passes[n]["lock_ms"]), 1),
            "native_rbcl_shuffle_ms": round(statistics.median(x[0] for x in nat), 1),
            "native_rbcl_lock_ms": round(statistics.median(x[1] for x in nat), 1),
            "native_pure_shuffle_ms": round(statistics.median(x[0] for x in pure), 1),
            "native_pure_lock_ms": round(statistics.median(x[1] for x in pure), 1)}
    result["loadavg"] = os.getloadavg()[0]
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
