"""lantable.plugins.text: the sentence table and the card helpers games share
(issue 26, item 9; docs/plugins.md, "Sentences and card helpers")."""

from __future__ import annotations

import pytest

from lantable.plugins.text import Said, Sentences, forget, learn, own_cards, seat_name

NAMES = ["ann", "bo"]


def test_a_format_string_fills_who_and_the_events_fields() -> None:
    s = Sentences()
    s.add("bid", "{who} bids {amount}")
    assert s.say({}, None, {"type": "bid", "seat": 1, "amount": 7}, NAMES) == "bo bids 7"
    assert s.say({}, None, {"type": "bid", "seat": 5, "amount": 2}, NAMES) == "seat 5 bids 2"


def test_a_function_sees_the_reader_and_its_view() -> None:
    s = Sentences()

    @s.on("dealt", "drew")
    def _(e: Said) -> str:
        whose = "You" if e.mine else e.who
        return f"{whose} got {e['n']} ({'open' if e.view.get('open') else 'hidden'})"

    event = {"type": "drew", "seat": 0, "n": 2}
    assert s.say({"open": True}, 0, event, NAMES) == "You got 2 (open)"
    assert s.say({}, None, event, NAMES) == "ann got 2 (hidden)"
    assert s.say({}, 1, {**event, "type": "dealt"}, NAMES) == "ann got 2 (hidden)"
    assert s.types == {"dealt", "drew"}


def test_an_unknown_type_is_none_and_a_type_is_told_once() -> None:
    s = Sentences()
    s.add("passed", "{who} passes")
    assert s.say({}, 0, {"type": "roll", "seat": 0}, NAMES) is None
    assert s.say({}, 0, {"seat": 0}, NAMES) is None
    with pytest.raises(ValueError, match="'passed' has a sentence already"):
        s.add("passed", "{who} says pass")


def test_seat_names() -> None:
    assert seat_name(NAMES, 0) == "ann"
    assert seat_name(NAMES, True) == "seat True" and seat_name(NAMES, None) == "seat None"
    assert Said({"seat": 1}, {}, 0, NAMES).name(0) == "ann"


def test_own_cards_merges_the_view_and_a_hidden_deck_clients_hand() -> None:
    assert own_cards({"cards": {"1": 40}}, "cards", "hand") == {"1": 40}
    view = {"cards": {"1": 40}, "_hand": {"hand": {"2": 7, "1": 41}, "other": {"9": 9}}}
    assert own_cards(view, "cards", "hand") == {"1": 41, "2": 7}
    assert own_cards({"cards": None, "_hand": None}, "cards", "hand") == {}


def test_known_maps_take_string_positions() -> None:
    known: dict[str, int] = {}
    learn(known, {3: 11, "4": 12})
    assert known == {"3": 11, "4": 12}
    forget(known, [3, 99])
    assert known == {"4": 12}


def test_claims_are_built_and_read_back() -> None:
    from lantable.plugins.decks import claims_for, claims_of

    action = {"type": "play", "claims": claims_for("hand", [(3, 41), (0, 7)])}
    assert action["claims"] == [{"deck": "hand", "pos": 3, "card": 41},
                                {"deck": "hand", "pos": 0, "card": 7}]
    assert claims_of(action) == [("hand", 3, 41), ("hand", 0, 7)]
