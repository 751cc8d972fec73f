"""The `lantable` command, run as a real process where it matters."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from lantable.clients.cli import build_parser, main

LANTABLE = [sys.executable, "-m", "lantable.clients.cli"]


def _run(*args: str) -> str:
    return subprocess.run([*LANTABLE, *args], check=True, capture_output=True, text=True,
                          timeout=120).stdout


def test_every_command_has_help(capsys):
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # noqa: SLF001
    for name in ("games", "host", "new", "bot", "play", "peers", "demo", "simulate", "replay",
                 "check"):
        assert name in commands
        with pytest.raises(SystemExit) as info:
            main([name, "--help"])
        assert info.value.code == 0
        assert "usage: lantable" in capsys.readouterr().out


def test_games_json_lists_race(capsys):
    assert main(["games", "--json"]) == 0
    games = {g["id"]: g for g in json.loads(capsys.readouterr().out)["games"]}
    assert games["race"]["min_seats"] == 1 and "target" in games["race"]["options"]


def test_simulate_json_reports_rates(capsys):
    assert main(["simulate", "race", "--games", "50", "--players", "3", "--seed", "4",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 50 and report["games_per_s"] > 0 and report["actions_per_s"] > 0
    assert len(report["win_rate_by_seat"]) == 3 and abs(sum(report["win_rate_by_seat"]) - 1) < 1e-9
    assert report["mean_length"] > 5


def test_demo_is_reproducible_and_replayable(tmp_path):
    first = json.loads(_run("demo", "--game", "race", "--players", "3", "--seed", "7", "--quiet",
                            "--json", "--db", str(tmp_path / "a.sqlite")))
    second = json.loads(_run("demo", "--game", "race", "--players", "3", "--seed", "7", "--quiet",
                             "--json", "--db", str(tmp_path / "b.sqlite")))
    assert first["scores"] == second["scores"] and first["rank"] == second["rank"]
    replay_a = json.loads(_run("replay", "--db", str(tmp_path / "a.sqlite"),
                               "--table", first["table"], "--json"))
    replay_b = json.loads(_run("replay", "--db", str(tmp_path / "b.sqlite"),
                               "--table", second["table"], "--json"))
    assert replay_a["actions"] == replay_b["actions"] and replay_a["status"] == "finished"
    text = _run("replay", "--db", str(tmp_path / "a.sqlite"), "--table", first["table"])
    assert "stepped" in text and f"table {first['table']}" in text


def test_replay_of_a_missing_table_says_so(tmp_path, capsys):
    assert main(["replay", "--db", str(tmp_path / "none.sqlite"), "--table", "x"]) != 0
    assert "no journal" in capsys.readouterr().err


def test_bad_addresses_and_options_are_usage_errors(capsys):
    with pytest.raises(SystemExit):
        main(["new", "race", "--connect", "nohostport", "--seats", "2"])
    with pytest.raises(SystemExit):
        main(["new", "race", "--connect", "127.0.0.1:1", "--seats", "2", "--option", "novalue"])


def test_a_person_plays_a_whole_game_from_the_terminal(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    host = subprocess.Popen([*LANTABLE, "host", "--bind", "127.0.0.1", "--port", str(port), "--db",
                             str(tmp_path / "j.sqlite"), "--no-discovery"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert "listening" in host.stdout.readline()
        address = f"127.0.0.1:{port}"
        table = _run("new", "race", "--connect", address, "--seats", "2", "--seed", "1",
                     "--option", "target=10").strip()
        person = subprocess.Popen([*LANTABLE, "play", "--connect", address, "--table", table,
                                   "--seat", "0", "--name", "ann"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        first = person.stdout.readline()  # the person sits down before the bot arrives
        assert "Race" in first and table in first, first
        bot = subprocess.Popen([*LANTABLE, "bot", "--connect", address, "--table", table],
                               stdout=subprocess.PIPE, text=True)
        # Always pick choice 1 ("add 1"); a bad entry first, to see it asked again.
        out, err = person.communicate("x\n" + "1\n" * 20, timeout=60)
        bot.communicate(timeout=60)
        assert person.returncode == 0, err
        assert "1. add 1" in out and "No choice matches 'x'" in out
        assert "Game over. You" in out
    finally:
        host.kill()
        host.wait()


def test_output_cut_short_by_the_reader_ends_quietly(tmp_path):
    """`lantable games | head -1`: the closed pipe ends the command without a traceback."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "lantable.clients.cli", "games"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader goes away before the command writes (start-up takes longer)
    err = proc.stderr.read().decode()
    proc.wait(timeout=30)
    assert "Traceback" not in err, err


def test_demo_leaves_no_temporary_folder_and_quiet_is_quiet(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.run([*LANTABLE, "demo", "--game", "race", "--players", "2", "--quiet"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.splitlines()[-1].endswith(("won with 1 to 0", "tied for first with 1"))
    assert len(proc.stdout.splitlines()) == 3  # two places and the summary
    assert list(tmp_path.iterdir()) == []


def test_a_bot_takes_over_the_seat_a_person_left_and_a_spectator_sees_the_end(tmp_path):
    from .tty import Host

    host = Host(tmp_path / "j.sqlite").start()
    try:
        table = host.run("new", "race", "--connect", host.address, "--seats", "2",
                         "--seed", "3", "--option", "target=12").strip()
        person = subprocess.Popen([*LANTABLE, "play", "--connect", host.address, "--table",
                                   table, "--name", "ann"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert table in person.stdout.readline()  # seated (and the token remembered)
        watcher = subprocess.Popen([*LANTABLE, "play", "--connect", host.address, "--table",
                                    table, "--spectate"], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        other = subprocess.Popen([*LANTABLE, "bot", "--connect", host.address, "--table", table],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        person.send_signal(signal.SIGINT)  # ann has to go: her seat waits
        _, err = person.communicate(timeout=30)
        assert person.returncode == 130 and "Come back with:" in err
        # Her remembered seat is hers: a bot takes it only when told to (issue 22.5).
        refused = subprocess.run([*LANTABLE, "bot", "--connect", host.address, "--table",
                                  table, "--seat", "0"], capture_output=True, text=True,
                                 timeout=60)
        assert refused.returncode != 0 and "--take-over" in refused.stderr
        assert "lantable play (ann, not running)" in refused.stderr, refused.stderr
        taker = subprocess.run([*LANTABLE, "bot", "--connect", host.address, "--table", table,
                                "--seat", "0", "--take-over"], capture_output=True, text=True,
                               timeout=60)
        assert taker.returncode == 0, taker.stderr
        assert f"seat 0 at table {table}" in taker.stdout and "finished" in taker.stdout
        assert other.wait(timeout=60) == 0
        out, _ = watcher.communicate(timeout=60)
        assert watcher.returncode == 0 and "Game over." in out and " won with " in out
        # ann comes back after the end: the finished table is out of the lobby, but her
        # remembered seat still tells her how it ended.
        back = subprocess.run([*LANTABLE, "play", "--connect", host.address, "--table", table,
                               "--name", "ann"], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        assert back.returncode == 0, back.stderr
        assert back.stdout.startswith(("You won", "You came", "You tied")), back.stdout
    finally:
        host.kill()
