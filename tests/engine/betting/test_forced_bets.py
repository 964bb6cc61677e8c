"""How a hand opens (engine/betting/forced_bets.py): order, blind positions, forced bets."""

from __future__ import annotations

import pytest

from engine.betting.forced_bets import (
    blind_positions,
    post_forced,
    preflop_start,
    seating_order,
)
from engine.betting.hand_config import HandConfig, InvalidHandConfigError
from engine.betting.operations import AddBonus, PostAnte, PostBlind


def _index(cfg):
    return {s: i for i, s in enumerate(seating_order(cfg))}


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_preflop():
    cfg = HandConfig(stacks={2: 500, 7: 500}, button=7, small_blind=5, big_blind=10)
    index = _index(cfg)
    assert seating_order(cfg) == [2, 7]
    sb, bb = blind_positions(cfg, index)
    assert (sb, bb) == (index[7], index[2])                     # TDA 34-B
    assert preflop_start(cfg, index, sb, bb) == index[7]


def test_a_short_big_blind_posts_the_blind_before_the_big_blind_ante():
    cfg = HandConfig(stacks={1: 1000, 2: 1000, 3: 150}, button=1, small_blind=50,
                     big_blind=100, big_blind_ante=100, bonus=25)
    seats = seating_order(cfg)
    sb, bb = blind_positions(cfg, _index(cfg))
    fb = post_forced(cfg, seats, sb, bb)
    assert seats[bb] == 3 and fb.bet[bb] == 100 and fb.stack[bb] == 0
    assert fb.dead == 50 + 25 and fb.pot_total == 75
    assert fb.ops[-2:] == [PostBlind(3, 50, "big_blind_ante"), AddBonus(25)]
    assert sum(fb.stack) + sum(fb.bet) + fb.pot_total == 2150 + 25


def test_antes_are_live_and_counted_as_committed():
    cfg = HandConfig(stacks={1: 100, 2: 3, 3: 100}, button=3, small_blind=5,
                     big_blind=10, ante=5)
    fb = post_forced(cfg, seating_order(cfg), *blind_positions(cfg, _index(cfg)))
    assert fb.committed == [5, 3, 5] and fb.dead == 0
    assert [op for op in fb.ops if isinstance(op, PostAnte)][1] == PostAnte(2, 3)


def test_both_blinds_on_one_seat_is_a_bad_config():
    cfg = HandConfig(stacks={1: 100, 2: 100, 3: 100}, button=1, small_blind=5,
                     big_blind=10, small_blind_seat=2, big_blind_seat=2)
    with pytest.raises(InvalidHandConfigError, match="same seat"):
        blind_positions(cfg, _index(cfg))
