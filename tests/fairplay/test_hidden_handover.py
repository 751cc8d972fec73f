"""Handing a dealt card from one seat to another (protocol/hidden_handover.py): the
receiver opens it, the host with every message it relayed opens nothing, and a wrong
or forged answer is caught and names its seat."""

from __future__ import annotations

import pytest

from lantable.protocol import fairplay as fp
from lantable.protocol import hidden_deal as hdl
from lantable.protocol import hidden_handover as ho
from lantable.protocol.hidden_deck import DeckError, _mul, open_card

SEATS, N, TABLE, DECK = 4, 12, "feedbeef", "hand"
GIVER, TO, POS = 1, 3, 5


@pytest.fixture
def dealt():
    """Position POS dealt to GIVER; returns the host, the players and every key the
    host relayed for POS, by seat."""
    ids = [fp.Identity() for _ in range(SEATS)]
    players = [hdl.DeckPlayer(ids[s], TABLE, DECK, s, N) for s in range(SEATS)]
    host = hdl.DealHost(TABLE, DECK, N, [i.public for i in ids])
    while (want := host.expected()) is not None:
        host.receive_pass(players[want[1]].pass_(want[0], host.current()))
    for p in players:
        p.locked = [bytes.fromhex(x) for x in host.current()]
    relayed = {}
    for s in host.deal(POS, GIVER):
        msg = players[s].key(POS, GIVER)
        host.receive_key(msg)
        players[GIVER].receive_key(msg)
        relayed[s] = bytes.fromhex(msg["key"])
    return host, players, relayed


def hand_over(players, relayed, tamper=None):
    for s in range(SEATS):
        if s not in (GIVER, TO):
            msg = players[s].key(POS, TO)
            players[TO].receive_key(msg)
            relayed[s] = bytes.fromhex(msg["key"])
    receiver = ho.Receiver(players[TO], POS, GIVER)
    request = receiver.request()
    reply = ho.answer(players[GIVER], request)
    if tamper:
        reply = tamper(reply)
    return receiver, request, reply


def test_the_receiver_opens_the_givers_card(dealt) -> None:
    host, players, relayed = dealt
    card = players[GIVER].open(POS, SEATS)
    receiver, request, reply = hand_over(players, relayed)
    for m in (request, reply):
        ho.check(host.keys, TABLE, DECK, m, POS, GIVER, TO)
    assert receiver.open(reply, SEATS) == card


def test_the_host_opens_nothing_with_every_message_it_relayed(dealt) -> None:
    host, players, relayed = dealt
    _, request, reply = hand_over(players, relayed)
    assert set(relayed) == set(range(SEATS)) - {GIVER}  # the receiver's key included
    locked = host.current()[POS]
    for point in (locked, request["point"], reply["point"]):
        with pytest.raises(DeckError, match="not a card"):
            open_card(bytes.fromhex(point), list(relayed.values()), host.cards)


def test_a_wrong_answer_opens_no_card_and_names_the_giver(dealt) -> None:
    host, players, relayed = dealt
    ids = [p.identity for p in players]

    def wrong(reply):  # the giver applies another position's key, and signs it
        other = _mul(players[GIVER].secret.unlock_key(POS + 1), bytes.fromhex(reply["point"]))
        reply = {**reply, "point": other.hex()}
        reply["sig"] = ids[GIVER].sign("deck_unblind", *ho._unblind_fields(reply))
        return reply

    receiver, _, reply = hand_over(players, relayed, wrong)
    ho.check(host.keys, TABLE, DECK, reply, POS, GIVER, TO)  # well formed, signed
    with pytest.raises(DeckError, match=f"seat {GIVER}'s answer opens no card"):
        receiver.open(reply, SEATS)


def test_the_host_refuses_a_forged_or_unasked_message(dealt) -> None:
    host, players, relayed = dealt
    _, request, reply = hand_over(players, relayed)
    forged = {**reply, "point": request["point"]}  # not what the giver signed
    with pytest.raises(hdl.DealError, match="does not check") as err:
        ho.check(host.keys, TABLE, DECK, forged, POS, GIVER, TO)
    assert err.value.seat == GIVER
    with pytest.raises(hdl.DealError, match="not asked for") as err:
        ho.check(host.keys, TABLE, DECK, request, POS + 1, GIVER, TO)
    assert err.value.seat == TO
