"""The showdown's rules (engine/betting/showdown.py): order and awards."""

from __future__ import annotations

from engine.betting.showdown import award_pots, showdown_order
from engine.cards import parse_cards


def test_the_order_starts_at_the_aggressor_and_skips_folded_positions():
    assert showdown_order(0, [False, False, True]) == (0, 1)
    assert showdown_order(1, [False, False, True, False]) == (1, 3, 0)


def test_the_best_hand_wins_the_main_pot_and_a_side_pot_goes_to_its_only_contender():
    board = parse_cards("2c 7d 9h Js Kd")
    hole = [parse_cards("Ac Ad"), parse_cards("Kh Ks"), parse_cards("3c 4c")]
    awards = award_pots([100, 300, 300], [True, True, True], 0, hole, board, 1)
    # three kings beat the aces: the main pot and the side pot both go to position 1
    assert awards[0] == (300, [0, 1, 2], [(1, 300)])
    assert awards[1] == (400, [1, 2], [(1, 400)])


def test_a_tie_splits_the_pot_in_the_smallest_chip():
    board = parse_cards("As Ks Qs Js Ts")
    hole = [parse_cards("2c 3d"), parse_cards("4h 5h")]
    awards = award_pots([50, 50], [True, True], 25, hole, board, 25)
    assert awards == [(125, [0, 1], [(0, 75), (1, 50)])]
