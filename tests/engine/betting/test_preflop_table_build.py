"""The generator of the heads-up preflop table: its board classes, its matchup keys and its
win matrix, each against a direct count (the whole table is checked entry by entry against
an enumeration in test_preflop_table.py; writing it takes minutes, so it is not rerun)."""

from __future__ import annotations

import random
from math import comb

import numpy as np

from engine.betting import preflop_table_build as build
from engine.betting.preflop_table import MATCHUPS, matchup_key, packaged_table
from engine.evaluation import evaluate_7_ids


def test_board_classes_hold_every_board_once():
    boards, weights = build.board_classes()
    assert len(boards) == 134_459 and int(weights.sum()) == comb(52, 5)
    assert set(weights.tolist()) <= {4, 12, 24}  # orbits of the 24 renamings
    assert all(len(set(b)) == 5 for b in boards[:: 997].tolist())


def test_the_generators_keys_are_the_tables_and_the_lookups():
    i, j, keys = build.pair_keys()
    assert np.unique(keys).tolist() == list(packaged_table().keys)
    assert len(np.unique(keys)) == MATCHUPS
    rng = random.Random(3)
    for k in rng.sample(range(len(i)), 200):
        hi, hj = build._HANDS[i[k]].tolist(), build._HANDS[j[k]].tolist()
        assert matchup_key((hi[0], hi[1]), (hj[0], hj[1])) == (int(keys[k]), False)


def test_the_win_matrix_counts_each_weighted_board_where_a_hand_beats_another():
    boards = np.array([[0, 5, 10, 20, 51], [3, 7, 11, 15, 19]], dtype=np.int64)
    weights = np.array([24, 4], dtype=np.int64)
    wins = build.win_matrix(boards, weights)
    rng = random.Random(4)
    hands = build._HANDS.tolist()
    for _ in range(300):
        a, b = rng.sample(range(len(hands)), 2)
        want = 0
        for board, weight in zip(boards.tolist(), weights.tolist(), strict=True):
            if set(board) & set(hands[a] + hands[b]):
                continue
            va = evaluate_7_ids(*hands[a], *board)
            vb = evaluate_7_ids(*hands[b], *board)
            want += weight if va < vb else 0
        assert wins[a, b] == want
