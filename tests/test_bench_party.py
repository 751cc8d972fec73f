"""Issue 28, goal 3: bench/party.py runs a small party end to end (3 tables, a few
seconds) and reports every figure it promises. Timings are printed by the bench, never
asserted here; what is asserted is that the party happened: every table played, people
got updates, left and came back, the lobby was refreshed, the probe played both paths."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "party.py"


def test_a_small_party_reports_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "party.json"
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--minutes", "0.1", "--tables", "3", "--procs", "1",
         "--think", "0.2", "0.8", "--leave-every", "2", "--away", "0.3", "1",
         "--lobby-clients", "2", "--lobby-every", "0.5", "--warmup", "0.5",
         "--idle-seconds", "0.5", "--json", str(out)],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report == json.loads(proc.stdout)
    assert report["bench"] == "party" and report["games"] == {"manila": 2, "race": 1}
    assert report["host"]["alive_at_end"] and report["host"]["peak_rss_mb"] > 0
    assert report["host"]["cpu_us_per_action"] > 0 and report["clients"]["party_cpu_s"] >= 0
    for kind in ("people_update_latency", "spectator_update_latency", "bot_update_latency"):
        assert report[kind]["samples"] > 0 and report[kind]["p99_ms"] >= report[kind]["p50_ms"]
    assert isinstance(report["people_p99_ok"], bool)
    tables = report["tables_detail"]["per_table"]
    assert [t["index"] for t in tables] == [0, 1, 2]
    assert all(t["actions"] > 0 and t["host_wait_max_s"] >= 0 for t in tables), tables
    assert report["actions"] == sum(t["actions"] for t in tables)
    assert isinstance(report["no_table_starves"], bool)
    assert report["rejoins"]["leaves"] > 0 and report["rejoins"]["samples"] > 0
    assert report["lobby"]["pushes"] > 0 and report["lobby"]["list_tables"]["samples"] > 0
    probe = report["ws_vs_tcp"]
    assert probe["idle"]["pairs"] > 0 and probe["party"]["pairs"] > 0
    assert isinstance(probe["party"]["ws_minus_tcp_p50_ms"], float)
    assert probe["people_act_rtt"]["samples"] > 0 and probe["bots_act_rtt"]["samples"] > 0
    assert report["unexpected_closes"] == 0, report["errors"]
    assert report["machine"]["cpus"] and "busy_pct" in report["machine"]
