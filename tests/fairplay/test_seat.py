"""A seat's side (clients/fairplay.py): its answers are what the host checks, and its
own check of each settled event catches a host that lies about a link, a signature
or a seed, naming the event and the seat."""

from __future__ import annotations

import dataclasses

import pytest

from lantable.clients.fairplay import FairSeats, load_identity
from lantable.protocol import FairEvent, FairRequest
from lantable.protocol import fairplay as fp

TABLE = "t9"


def _table(n: int = 3) -> tuple[list[FairSeats], list[dict], FairEvent]:
    """n seats commit and reveal event 1; returns the seats, commits and the event."""
    seats = [FairSeats(fp.Identity()) for _ in range(n)]
    commits = []
    for s, fair in enumerate(seats):
        _, c = fair.answer(FairRequest(table=TABLE, seat=s, kind="commit", length=4))
        commits.append({"seat": s, "key": fair.identity.public, "tip": c["tip"],
                        "length": c["length"], "sig": c["sig"]})
    digest = fp.tagged_hash("test", 1)
    reveals = []
    for s, fair in enumerate(seats):
        _, r = fair.answer(FairRequest(table=TABLE, seat=s, kind="reveal", event=1,
                                       digest=digest))
        reveals.append({"seat": s, "link": r["link"], "sig": r["sig"]})
    seed = fp.event_seed(TABLE, 1, digest, [(r["seat"], r["link"]) for r in reveals])
    event = FairEvent(table=TABLE, event=1, seq=0, digest=digest, seed=seed, reveals=reveals,
                      commits=commits)
    return seats, commits, event


def test_answers_verify_under_the_seats_key() -> None:
    seats, commits, event = _table()
    for c in commits:
        fp.verify_signature(c["key"], c["sig"], "commit",
                            *fp.commit_fields(TABLE, c["seat"], c["key"], c["tip"], 4))
    assert seats[0].check(event) == []
    assert seats[0].events[TABLE] == 1


def _forged(event: FairEvent, **changes) -> FairEvent:
    return dataclasses.replace(event, **changes)


@pytest.mark.parametrize(("forge", "named"), [
    (lambda e: _forged(e, seed="00" * 32), "event 1: the seed is not the one its reveals give"),
    (lambda e: _forged(e, reveals=[e.reveals[0], {**e.reveals[1], "link": "11" * 32},
                                   e.reveals[2]]),
     "event 1: seat 1's reveal: the reveal signature does not match"),
    (lambda e: _forged(e, reveals=[{**e.reveals[0], "sig": e.reveals[2]["sig"]},
                                   *e.reveals[1:]]),
     "event 1: seat 0's reveal: the reveal signature does not match"),
    (lambda e: _forged(e, digest="22" * 32), "event 1: seat 0's reveal: the reveal signature"),
], ids=["seed", "link", "signature", "digest"])
def test_a_host_that_lies_about_an_event_is_caught_by_every_seat(forge, named) -> None:
    seats, _, event = _table()
    heard = []
    seats[2].on_notice = heard.append
    problems = seats[2].check(forge(event))
    assert any(p.startswith(named) for p in problems), problems
    assert seats[2].problems == problems and heard and "does not check" in heard[0]
    assert seats[2].summary(TABLE).startswith("fair play: ")


def test_a_seat_cannot_reveal_past_its_chain_and_says_why(caplog) -> None:
    fair = FairSeats(fp.Identity())
    fair.answer(FairRequest(table=TABLE, seat=0, kind="commit", length=2))
    assert fair.answer(FairRequest(table=TABLE, seat=0, kind="reveal", event=3,
                                   digest="00" * 32)) is None
    assert "cannot reveal" in caplog.text and "outside this chain" in caplog.text


def test_the_key_and_chains_persist_in_the_data_directory(tmp_path) -> None:
    one = load_identity(tmp_path)
    assert (tmp_path / "identity.ed25519").stat().st_mode & 0o777 == 0o600
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "identity.ed25519").write_bytes((tmp_path / "identity.ed25519").read_bytes())
    assert load_identity(copy).public == one.public  # read back from the file
    first = FairSeats(one, tmp_path)
    _, c = first.answer(FairRequest(table=TABLE, seat=1, kind="commit", length=8))
    again = FairSeats(one, tmp_path)  # a restarted client
    _, r = again.answer(FairRequest(table=TABLE, seat=1, kind="reveal", event=2,
                                    digest="00" * 32))
    fp.check_link(r["link"], 2, c["tip"], 0)
    assert again.sign_action(TABLE, None, 5, {"type": "x"})[0] == 5
    assert again.sign_action("other", None, 5, {"type": "x"}) is None
