"""Issue 26, item 15: every bench script's ``--help`` says what it measures (its whole
docstring) and every option's default; bench/net.py runs a 1-seat table."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if not p.name.startswith("_"))


def _help(*args: str) -> str:
    proc = subprocess.run([sys.executable, *args, "--help"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-1500:]
    return proc.stdout


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_help_says_what_it_measures_and_the_defaults(script: Path) -> None:
    text = _help(str(script))
    doc = script.read_text(encoding="utf-8").split('"""')[1].strip()
    assert doc.split("\n\n")[0].splitlines()[0] in text
    assert len(doc.split("\n\n")) == 1 or doc.split("\n\n")[1].splitlines()[0] in text, \
        "the help gives the docstring's first line only"
    commands = re.search(r"\{([a-z,]+)\}", text.split("options:")[0])
    for command in commands.group(1).split(",") if commands else [None]:
        _defaults(_help(str(script), command) if command else text, script.name)


def _defaults(text: str, name: str) -> None:
    options = re.findall(r"^\s+(--[a-z-]+)", text, re.M)
    assert options, text
    body = re.sub(r"\s+", " ", text.split("options:", 1)[-1])
    for option in options:
        if option == "--help":
            continue
        after = body.split(option, 1)[1].split(" --", 1)[0]
        assert "default" in after, (name, option, after)


def test_net_runs_a_one_seat_table() -> None:
    proc = subprocess.run([sys.executable, str(BENCH / "net.py"), "--tables", "1", "--seats",
                           "1", "--seconds", "0.5", "--warmup", "0.2", "--runs", "1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-1500:]
    report = json.loads(proc.stdout)
    assert report["seats"] == 1 and report["tables_1"]["actions_per_s"] > 0


def test_engine_per_call_reports_each_call() -> None:
    proc = subprocess.run([sys.executable, str(BENCH / "engine.py"), "--per-call", "--game",
                           "manila", "race", "--games", "1", "--runs", "1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-1500:]
    results = {(r["game"], r["seats"]): r for r in json.loads(proc.stdout)["results"]}
    assert {("manila", 3), ("manila", 5), ("race", 2)} <= set(results)
    for result in results.values():  # views: a game without game_view_parts
        assert set(result["us_per_call"]) - {"view_parts", "views"} == {"to_act",
                                                                        "legal_actions", "apply"}
        assert len(result["us_per_call"]) == 4
        assert result["positions"] > 0 and result["us_per_call"]["apply"] > 0
