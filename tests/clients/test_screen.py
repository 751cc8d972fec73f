"""The terminal's result line names the winner, for a seat that lost as well."""

from __future__ import annotations

from lantable.clients.screen import result_line

NAMES = ["ann", "bob", "cy"]


def test_a_seat_that_did_not_win_is_told_who_did() -> None:
    line = result_line({"scores": [7, 162, 66], "rank": [3, 1, 2]}, 0, NAMES)
    assert line == "You came 3rd: 7 to 162, 66; bob won with 162"


def test_a_tie_for_first_names_both_winners() -> None:
    line = result_line({"scores": [7, 162, 162], "rank": [3, 1, 1]}, 0, NAMES)
    assert line == "You came 3rd: 7 to 162, 162; bob and cy tied for first with 162"


def test_the_winner_and_a_spectator_read_the_same_as_before() -> None:
    assert result_line({"scores": [162, 7, 66], "rank": [1, 3, 2]}, 0, NAMES) == \
        "You won: 162 to 7, 66"
    assert result_line({"scores": [7, 162, 66], "rank": [3, 1, 2]}, None, NAMES) == \
        "bob won with 162 to 66, 7"


def test_a_solitaire_game_lost_to_the_game_says_so() -> None:
    assert result_line({"scores": [7], "rank": [2]}, 0, ["ann"]) == \
        "You came 2nd: 7; the game itself won"
