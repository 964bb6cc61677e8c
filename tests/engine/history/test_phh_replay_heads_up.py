"""PHH heads-up blinds written in player order ([2, 1]: p1 is the big blind), the way PHH and
PokerKit write them, replay like [1, 2]."""

from __future__ import annotations

import pytest

from engine.history.phh import loads_hand
from engine.history.phh_replay import OK, replay_hand

HAND = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = {blinds}
min_bet = 100
starting_stacks = [10000, 10000]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'p2 cc', 'p1 cc', 'd db 2h3h4s', 'p1 cc', 'p2 cc',
           'd db 7c', 'p1 cc', 'p2 cc', 'd db 9d', 'p1 cc', 'p2 cc', 'p1 sm AcAd', 'p2 sm KcKd']
finishing_stacks = [10100, 9900]
"""


@pytest.mark.parametrize("blinds", ["[2, 1]", "[1, 2]"])
def test_heads_up_blinds_either_order(blinds):
    h = loads_hand(HAND.format(blinds=blinds.replace("1", "50").replace("2", "100")))
    r = replay_hand(h)
    assert r.status == OK, r.reason
