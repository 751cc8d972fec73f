"""The browser seat's fair-play crypto (web/static/fairplay.js) in headless Chromium;
prints JSON.

For each back end (WebCrypto, the vendored noble libraries): building a chain of
1024 links (what a commit costs, and a reload that rebuilds it), signing one reveal,
and checking one settled event of a 4-seat table (4 signatures, 4 links, the seed).
Medians over ``--runs`` runs, in milliseconds. Needs Debian's chromium and
Playwright (as tests/web/).

Usage: python bench/fairplay_browser.py [--runs 7]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from _help import parser as bench_parser  # noqa: E402 - bench/ is the script's folder
from webhost import CHROMIUM_ARGS, HostProcess, chromium_path  # noqa: E402

from lantable.protocol import fairplay as fp  # noqa: E402

MEASURE = """async ([event, runs]) => {
  const F = window.lantableFair;
  const f = await F.start();
  const ms = { chain_1024: [], sign_reveal: [], check_event_4_seats: [] };
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    await f.answer({ table: "bench" + r, seat: 0, kind: "commit", length: 1024 });
    ms.chain_1024.push(performance.now() - t);
    t = performance.now();
    await f.answer({ table: "bench" + r, seat: 0, kind: "reveal", event: 1, digest: event.digest });
    ms.sign_reveal.push(performance.now() - t);
    t = performance.now();
    const found = await f.check({ ...event, table: event.table });
    ms.check_event_4_seats.push(performance.now() - t);
    if (found.length) throw new Error(found.join("; "));
  }
  return [f.id.kind, ms];
}"""


def settled_event() -> dict[str, object]:
    """Event 1 of a 4-seat table, made by the Python reference."""
    table, digest = "benchtbl", "ab" * 32
    seats = [fp.Identity() for _ in range(4)]
    chains = [fp.HashChain(length=4) for _ in range(4)]
    commits = [{"seat": s, "key": i.public, "tip": c.tip, "length": 4,
                "sig": i.sign("commit", *fp.commit_fields(table, s, i.public, c.tip, 4))}
               for s, (i, c) in enumerate(zip(seats, chains, strict=True))]
    reveals = [{"seat": s, "link": c.link(1),
                "sig": i.sign("reveal", *fp.reveal_fields(table, s, 1, c.link(1), digest))}
               for s, (i, c) in enumerate(zip(seats, chains, strict=True))]
    seed = fp.event_seed(table, 1, digest, [(r["seat"], r["link"]) for r in reveals])
    return {"table": table, "event": 1, "seq": 0, "digest": digest, "seed": seed,
            "reveals": reveals, "commits": commits}


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--runs", type=int, default=7, help="runs; medians reported")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        raise SystemExit("no Chromium (apt-get install chromium)")
    out: dict[str, object] = {"runs": args.runs, "unit": "ms (median)"}
    with tempfile.TemporaryDirectory() as tmp:
        host = HostProcess(Path(tmp) / "journal.db").start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
                for backend in ("webcrypto", "noble"):
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(host.url)
                    page.evaluate(f"localStorage.setItem('lantable.crypto', {backend!r})")
                    kind, ms = page.evaluate(MEASURE, [settled_event(), args.runs])
                    out[kind] = {k: round(statistics.median(v), 2) for k, v in ms.items()}
                    context.close()
                browser.close()
        finally:
            host.stop()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
