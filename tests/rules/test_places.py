"""Places at a game's end (rules/places.py), which every game's result message and finished picture list."""

from rules.places import by_place, places


def test_equal_keys_share_a_place_and_the_next_counts_everyone_ahead() -> None:
    assert places([23, 8, 16, 16]) == (1, 4, 2, 2)
    assert by_place([16, 23, 11]) == ((1, 1), (2, 0), (3, 2))
    assert by_place([30, 41, 41, 30, 7]) == ((1, 1), (1, 2), (3, 0), (3, 3), (5, 4))
    assert by_place([0, 0]) == ((1, 0), (1, 1))


def test_a_key_may_hold_the_winner_and_a_tie_break() -> None:
    # (won, points, fewer cards): a winner on fewer points comes first; equal points split by the tie-break
    assert places([(False, 15, -12), (True, 15, -9), (False, 15, -12), (False, 16, -20)]) == (3, 1, 3, 2)
