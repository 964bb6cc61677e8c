"""Property: random clean deals never raise a ruling and every hole card reaches its seat."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dealing.outcomes import RulingIssued
from tests.engine.dealing.helpers import play_random_hand


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_clean_deals_raise_no_ruling_and_hole_cards_reach_their_seats(seed):
    played = play_random_hand(seed)
    proc = played.proc
    assert not [o for o in played.outcomes if isinstance(o, RulingIssued)]
    assert proc.rulings == ()
    for seat, cards in played.drawn_to.items():
        assert proc.hand.hole_cards(seat) == tuple(cards)
    assert sorted(played.drawn_to) == sorted(proc.hand.config.stacks)
    assert all(len(c) == 2 for c in played.drawn_to.values())
    check = proc.deck_check()
    assert check.ok, check.summary()
    assert sum(proc.hand.stacks.values()) == sum(proc.hand.config.stacks.values())
