"""A hidden deal of Nero's deck (protocol/hidden_deal.py): four seats shuffle and lock
the 55 Event cards through a host that holds no scalar; each seat opens its own ten
cards and nothing else, the host opens nothing, and a seat that cheats is named (at
its step when it can be seen there, else by the audit)."""

from __future__ import annotations

import pytest

from lantable.plugins.nero.data import HAND, NCARDS
from lantable.protocol import fairplay as fp
from lantable.protocol import hidden_deal as hdl
from lantable.protocol.hidden_deck import DeckError, _mul, open_card

SEATS = 4
PER_SEAT = HAND[(SEATS, False)]  # Nero's 5.1: ten cards each at four seats
TABLE, DECK = "0a1b2c3d", "events"


def lock_deck(host: hdl.DealHost, players: list[hdl.DeckPlayer]) -> None:
    """Every seat's shuffle pass, then every lock pass, each through the host."""
    while (want := host.expected()) is not None:
        stage, seat = want
        host.receive_pass(players[seat].pass_(stage, host.current()))
    for p in players:
        p.locked = [bytes.fromhex(x) for x in host.current()]


def run_chains(host: hdl.DealHost, players: list[hdl.DeckPlayer]) -> list[dict]:
    """Every seat takes its lock off what it is asked, until every chain is done; the
    last point goes to its recipient. Returns every step message the host saw."""
    seen = []
    while (waiting := host.waiting()):
        for seat, items in waiting.items():
            for item in items:
                msg = players[seat].step(item["pos"], item["to"], item["point"])
                done = host.receive_step(msg)
                seen.append(msg)
                if done is not None:
                    players[done[0]].receive_point(item["pos"], done[1])
    return seen


def deal_hands(host: hdl.DealHost, players: list[hdl.DeckPlayer]) -> list[dict]:
    """Deal PER_SEAT positions to each seat; returns every step message the host saw."""
    for seat in range(SEATS):
        for pos in range(seat * PER_SEAT, (seat + 1) * PER_SEAT):
            assert host.deal(pos, seat) == [s for s in range(SEATS) if s != seat]
    return run_chains(host, players)


@pytest.fixture(scope="module")
def nero():
    ids = [fp.Identity() for _ in range(SEATS)]
    players = [hdl.DeckPlayer(ids[s], TABLE, DECK, s, NCARDS) for s in range(SEATS)]
    host = hdl.DealHost(TABLE, DECK, NCARDS, [i.public for i in ids])
    lock_deck(host, players)
    seen = deal_hands(host, players)
    return host, players, seen


def test_5_1_each_seat_opens_its_own_ten_cards_and_the_deal_is_the_deck(nero) -> None:
    host, players, _ = nero
    hands = [[players[s].open(pos) for pos in range(s * PER_SEAT, (s + 1) * PER_SEAT)]
             for s in range(SEATS)]
    dealt = [c for h in hands for c in h]
    assert len(dealt) == len(set(dealt)) == SEATS * PER_SEAT
    assert set(dealt) <= set(range(NCARDS))
    # Undealt positions (the face-down box) and other seats' cards stay shut.
    with pytest.raises(DeckError, match="not dealt to this seat"):
        players[0].open(SEATS * PER_SEAT)
    with pytest.raises(DeckError, match="not dealt to this seat"):
        players[0].open(PER_SEAT)  # seat 1's first card


def test_the_host_relays_every_step_and_still_opens_nothing(nero) -> None:
    """The host sees points only, never a key; every point it saw of a dealt card is
    still locked by the recipient, so none is a card."""
    host, _, seen = nero
    assert not host.got
    for pos in range(SEATS * PER_SEAT):
        steps = [m for m in seen if m["pos"] == pos]
        assert [m["seat"] for m in steps] == [s for s in range(SEATS) if s != pos // PER_SEAT]
        for m in steps:
            with pytest.raises(DeckError, match="not a card of this deck"):
                open_card(bytes.fromhex(m["point"]), [], host.cards)


def test_a_card_opened_to_everyone_reads_the_same_for_every_seat(nero) -> None:
    host, players, _ = nero
    pos = NCARDS - 1  # from the box
    host.deal(pos, None)
    keys = [p.key(pos, None) for p in players]
    for k in keys:
        host.receive_key(k)
    assert len({p.open_public(pos, keys) for p in players} | {host.open_public(pos)}) == 1


def test_a_card_given_to_another_seat_opens_for_it_and_not_for_the_host(nero) -> None:
    host, players, _ = nero
    pos = 0  # seat 0's first card goes to seat 2 (Nero's Traitor)
    card = players[0].open(pos)
    assert host.give(pos, 2) == [0, 1, 3]
    seen = run_chains(host, players)
    assert players[2].open(pos) == card
    assert pos not in host.got
    for m in seen:  # every point the host saw is still locked by seat 2
        with pytest.raises(DeckError):
            open_card(bytes.fromhex(m["point"]), [], host.cards)


def test_the_audit_passes_an_honest_deal(nero) -> None:
    host, players, _ = nero
    assert host.audit([p.secrets() for p in players]) == []


def fresh(n: int = 8):
    ids = [fp.Identity() for _ in range(SEATS)]
    players = [hdl.DeckPlayer(ids[s], TABLE, DECK, s, n) for s in range(SEATS)]
    return hdl.DealHost(TABLE, DECK, n, [i.public for i in ids]), players, ids


def test_a_pass_out_of_turn_badly_signed_or_replacing_a_card_is_refused_naming_the_seat():
    host, players, ids = fresh()
    with pytest.raises(hdl.DealError, match="out of turn") as err:
        host.receive_pass(players[1].pass_("shuffle", host.current()))
    assert err.value.seat == 1
    forged = players[0].pass_("shuffle", host.current())
    forged["seat"] = 0
    forged["sig"] = ids[2].sign("deck_pass", *hdl._pass_fields(forged))
    with pytest.raises(hdl.DealError, match="does not check") as err:
        host.receive_pass(forged)
    assert err.value.seat == 0
    host.receive_pass(players[0].pass_("shuffle", host.current()))
    cheat = players[1].pass_("shuffle", host.current())
    cheat["points"][3] = cheat["points"][5]  # seat 1 replaces a card by a copy of another
    cheat["sig"] = ids[1].sign("deck_pass", *hdl._pass_fields(cheat))
    with pytest.raises(hdl.DealError, match="same card twice") as err:
        host.receive_pass(cheat)
    assert err.value.seat == 1
    assert len(host.passes["shuffle"]) == 1  # nothing of the refused passes was kept


def test_a_card_replaced_by_another_point_passes_its_step_and_the_audit_names_the_seat():
    host, players, ids = fresh()
    host.receive_pass(players[0].pass_("shuffle", host.current()))
    cheat = players[1].pass_("shuffle", host.current())
    # Seat 1 puts its own masked copy of card 0 in place of another: the points stay
    # distinct and valid, so only opening it (a duplicate of card 0) or the audit shows it.
    cheat["points"][2] = _mul(players[1].secret.shuffle_key, host.cards[0]).hex()
    cheat["sig"] = ids[1].sign("deck_pass", *hdl._pass_fields(cheat))
    host.receive_pass(cheat)
    for seat in (2, 3):
        host.receive_pass(players[seat].pass_("shuffle", host.current()))
    while (want := host.expected()) is not None:
        host.receive_pass(players[want[1]].pass_(want[0], host.current()))
    found = host.audit([p.secrets() for p in players])
    assert found and all(f.startswith("seat 1:") for f in found), found


def test_a_step_or_key_not_asked_for_is_refused() -> None:
    host, players, _ = fresh()
    while (want := host.expected()) is not None:
        host.receive_pass(players[want[1]].pass_(want[0], host.current()))
    host.deal(0, 2)
    start = host.current()[0]
    with pytest.raises(hdl.DealError, match="not asked of it"):
        host.receive_step(players[1].step(0, 2, start))  # seat 0 goes first
    with pytest.raises(hdl.DealError, match="not asked of it"):
        host.receive_step(players[0].step(0, 3, start))  # to the wrong seat
    with pytest.raises(hdl.DealError, match="not asked of it"):
        host.receive_step(players[0].step(4, 2, host.current()[4]))  # a position not dealt
    with pytest.raises(hdl.DealError, match="not asked for"):
        host.receive_key(players[0].key(0))  # position 0 is not being opened
    assert host.receive_step(players[0].step(0, 2, start)) is None


@pytest.mark.parametrize("stage", ["shuffle", "lock"])
def test_issue25_6_a_pass_that_leaves_a_card_as_it_came_is_refused_naming_the_seat(stage):
    host, players, ids = fresh()
    while (want := host.expected()) is not None and want != (stage, 1):
        host.receive_pass(players[want[1]].pass_(want[0], host.current()))
    honest = players[1].pass_(stage, host.current())
    for cheat_points in (list(host.current()),  # every card as it came
                         [*honest["points"][:3], host.current()[0], *honest["points"][4:]]):
        cheat = {**honest, "points": cheat_points}
        cheat["sig"] = ids[1].sign("deck_pass", *hdl._pass_fields(cheat))
        with pytest.raises(hdl.DealError, match="as it came") as err:
            host.receive_pass(cheat)
        assert err.value.seat == 1
    host.receive_pass(honest)  # the honest pass still goes through


def test_steps_under_one_signature_go_through_all_or_none() -> None:
    """``deck_steps``: a seat's steps asked at once, one signature; one step not asked
    of it, or an altered point, refuses them all and keeps nothing."""
    host, players, ids = fresh()
    while (want := host.expected()) is not None:
        host.receive_pass(players[want[1]].pass_(want[0], host.current()))
    for pos, to in ((0, 2), (1, 2), (2, 1)):
        host.deal(pos, to)
    asked = [(i["pos"], i["to"], i["point"]) for i in host.waiting()[0]]
    assert [a[:2] for a in asked] == [(0, 2), (1, 2), (2, 1)]
    start = host.current()
    with pytest.raises(hdl.DealError, match="not asked of it") as err:
        host.receive_steps(players[0].steps([*asked, (4, 2, start[4])]))
    assert err.value.seat == 0
    altered = players[0].steps(asked)
    altered["steps"][1][3] = altered["steps"][0][3]
    with pytest.raises(hdl.DealError, match=r"positions \[0, 1, 2\] do not check"):
        host.receive_steps(altered)
    assert host.waiting()[0] and host.journal[-1]["t"] == "deck_pass"  # nothing kept
    assert host.receive_steps(players[0].steps(asked)) == []  # seat 2's lock is still on
    assert {i["pos"] for items in host.waiting().values() for i in items} == {0, 1, 2}
    while (waiting := host.waiting()):
        for seat, items in waiting.items():
            done = host.receive_steps(players[seat].steps(
                [(i["pos"], i["to"], i["point"]) for i in items]))
            for to, pos, point in done:
                players[to].receive_point(pos, point)
    secrets = [p.secrets() for p in players]
    assert host.audit(secrets) == []
    truth = list(range(host.n))
    for m in secrets:
        truth = [truth[src] for src in m["permutation"]]
    assert [players[2].open(0), players[2].open(1), players[1].open(2)] == truth[:3]


def test_verify_names_a_signed_key_or_step_made_with_another_positions_key() -> None:
    """What the host cannot see (a step or a published key, well signed, made with the
    seat's key of another position) the audit of `lantable verify` names, from the
    seats' secrets (its unlock keys inverted all at once: ``invert_all``)."""
    from lantable.clients.verify_decks import DeckAudit
    from lantable.protocol.hidden_deck import _inv, invert_all

    host, players, _ = fresh()
    lock_deck(host, players)
    host.deal(0, 0)
    for seat in (1, 2, 3):
        (item,) = host.waiting()[seat]
        if seat == 2:  # seat 2 takes off its lock of position 1, and signs it
            point = _mul(players[2].secret.unlock_key(1), bytes.fromhex(item["point"])).hex()
            msg = players[2]._msg("deck_step", hdl._step_fields, to=0, pos=0,
                                  point_in=item["point"], point=point)
        else:
            msg = players[seat].step(0, 0, item["point"])
        host.receive_step(msg)
    host.open(2)
    for seat in range(SEATS):
        msg = players[seat].key(2)
        if seat == 3:  # seat 3 publishes its key of position 3 for position 2, signed
            msg = players[3]._msg("deck_key", hdl._key_fields, to=None, pos=2,
                                  key=players[3].secret.unlock_key(3).hex())
        host.receive_key(msg)
    audit = DeckAudit.__new__(DeckAudit)
    audit.problems = []
    audit._check_keys("deck x", host, [p.secrets() for p in players])
    assert any("seat 2's unlock step for position 0 (to seat 0)" in p for p in audit.problems)
    assert any("seat 3's unlock key for position 2 is not" in p for p in audit.problems)
    assert len(audit.problems) == 2, audit.problems
    keys = players[1].secret.card_keys
    assert invert_all(keys) == [_inv(k) for k in keys]
    with pytest.raises(ValueError, match="zero"):
        invert_all([keys[0], bytes(32)])
