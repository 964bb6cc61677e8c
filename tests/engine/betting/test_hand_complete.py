"""``Hand.is_complete`` is an attribute the hand sets as its street becomes complete (a
driver reads it before every card and action, and a property's call costs several times
an attribute's read).  Over random tables, actions, shows and mucks, voids at random
moments and copies taken on the way, it is at every step exactly whether the street is
``complete``, in the hand and in each copy, and a copy played on leaves the hand's alone."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.betting.hand import Hand
from engine.cards import ALL_CARDS
from tests.engine.betting.oracle import apply, choose
from tests.engine.betting.test_hand_properties import configs


def _agrees(h: Hand) -> None:
    assert h.is_complete is (h.street == "complete")


def _step(h: Hand, cards: list, rng: random.Random) -> None:
    """One input: the cards due, an action, or a show or muck by a seat still pending."""
    if h.next_deal() is not None:
        h.deal_from(cards)
    elif h.actor is not None:
        apply(h, choose(h, rng))
    else:
        seat = h.showdown_pending[0]
        (h.muck if rng.random() < 0.3 else h.show)(seat)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs(), seed=st.integers(0, 2**32 - 1), void_at=st.integers(0, 60))
def test_is_complete_is_whether_the_street_is_complete_at_every_step(cfg, seed, void_at):
    rng = random.Random(seed)
    h = Hand(cfg)
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    copies: list[tuple[Hand, bool]] = []
    steps = 0
    _agrees(h)
    while not h.is_complete:
        if steps == void_at:
            h.void("test")
        else:
            _step(h, cards, rng)
        steps += 1
        _agrees(h)
        if rng.random() < 0.2:
            copies.append((h.copy(), h.is_complete))
    final = h.raw_operations()
    for c, was_complete in copies:
        assert c.is_complete is was_complete
        _agrees(c)
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        while not c.is_complete:  # the copy played to its end
            _step(c, deck, rng)
            _agrees(c)
    assert h.is_complete and h.raw_operations() == final  # the hand left as it was
