"""`lantable tournament`: seats rotated fairly, a stronger bot rated higher, results
journalled and resumed, a Dask cluster running the same games, and the report."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("openskill")

from lantable.clients.cli import main  # noqa: E402
from lantable.rl import tournament as t  # noqa: E402


def test_a_block_seats_every_entrant_at_every_seat_equally_often():
    for names, seats in ((["a", "b"], 3), (["a", "b", "c"], 3), (["a", "b", "c", "d"], 2),
                         (["a", "b"], 2), (["a", "b", "c"], 4)):
        block = t.lineups(names, seats)
        counts = Counter((seat, name) for lineup in block for seat, name in enumerate(lineup))
        assert len(set(counts.values())) == 1 and len(counts) == len(names) * seats, (
            names, seats, block)


def test_entrants_are_read_with_their_settings_and_names():
    assert t.parse_entrant("mcts:iterations=200") == t.Entrant(
        "mcts(iterations=200)", "builtin", "mcts", (("iterations", 200),))
    assert t.parse_entrant("greedy:samples=2:name=g2").name == "g2"
    assert t.parse_entrant("lantable.clients.bots:RandomBot").kind == "python"
    with pytest.raises(ValueError, match="expected one of random"):
        t.parse_entrant("clever")


def test_the_stronger_bot_is_rated_higher_over_two_games(tmp_path: Path):
    entrants = [t.parse_entrant("random"), t.parse_entrant("greedy")]
    tour = t.Tournament(["race", "kaisers-pirates"], [2], entrants, blocks=3)
    journal = t.Journal(tmp_path / "results.jsonl")
    tour.play(journal, jobs=1)
    data = t.summary(journal.results, ["random", "greedy"])
    assert data["games"] == 2 * 2 * 3 and data["error_count"] == 0  # 2 lineups a block
    for figures in (data["overall"], *data["by_game"].values()):
        rated = figures["ratings"]
        assert rated["greedy"]["mu"] > rated["random"]["mu"]
    assert data["overall"]["win_rate"]["greedy"] > 0.7
    # Every entrant sat at every seat of every game equally often.
    seats = Counter((seat, name, r["game"]) for r in journal.results
                    for seat, name in enumerate(r["lineup"]))
    assert set(seats.values()) == {3} and len(seats) == 2 * 2 * 2


def test_a_journal_resumes_where_it_stopped(tmp_path: Path):
    entrants = [t.parse_entrant("random"), t.parse_entrant("lantable.clients.bots:RandomBot")]
    tour = t.Tournament(["race"], [2], entrants, blocks=5)
    path = tmp_path / "results.jsonl"
    first = t.Journal(path)
    batches = t.run(tour.matches()[:4], entrants, jobs=1, batch=2)
    first.add(next(batches))  # then "Ctrl-C": the rest never arrives
    with path.open("a") as f:
        f.write('{"game": "race", "cut sh')  # a line a crash cut short
    again = t.Journal(path)
    assert len(again.done) == 2
    tour.play(again, jobs=1)
    keys = [t._key(r) for r in t.Journal(path).results]
    assert len(keys) == len(set(keys)) == 10


def test_a_dask_cluster_plays_the_same_games(tmp_path: Path):
    distributed = pytest.importorskip("distributed")
    entrants = [t.parse_entrant("random"), t.parse_entrant("greedy")]
    tour = t.Tournament(["race"], [2], entrants, blocks=3)
    local = t.Journal(tmp_path / "local.jsonl")
    tour.play(local, jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = t.Journal(tmp_path / "dask.jsonl")
        tour.play(remote, scheduler=client, batch=2)
    def strip(rs):
        return sorted((t._key(r), r["rank"], r["scores"], r["length"]) for r in rs)
    assert strip(remote.results) == strip(local.results)


def test_lantable_tournament_writes_a_report(tmp_path: Path, capsys):
    out = tmp_path / "rating"
    assert main(["tournament", "--game", "race", "random", "greedy", "--blocks", "4",
                 "--jobs", "1", "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 8 and Path(data["report"]).is_file()
    for stem in ("ratings", "win_rate_by_seat", "scores", "lengths"):
        assert (out / f"{stem}.png").stat().st_size > 1000
        assert (out / f"{stem}.svg").read_text().lstrip().startswith("<?xml")
    page = (out / "report.html").read_text()
    assert "data:image/svg+xml;base64," in page and "greedy" in page


def test_a_bad_entrant_is_one_line(capsys, tmp_path: Path):
    assert main(["tournament", "--game", "race", "random", "clever",
                 "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "entrant 'clever'" in err
