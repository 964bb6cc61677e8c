"""A hand's inputs, recorded and replayed: the same hand again (the journal's snapshot)."""

from __future__ import annotations

import random

import pytest

from engine.betting.hand import Hand, HandConfig
from engine.betting.hand_record import inputs_of, replay_inputs
from engine.cards import Deck
from engine.errors import InvalidInputError


def _played(seed: int) -> Hand:
    """A 4-handed hand: a raise, a call, a fold, then checks to a showdown."""
    h = Hand(HandConfig(stacks={1: 1000, 2: 800, 3: 1200, 4: 500}, button=4,
                        small_blind=10, big_blind=20))
    cards = iter(Deck.shuffled(random.Random(seed)))
    h.deal_from(cards)
    h.bet_or_raise_to(60)
    h.check_or_call()
    h.fold()
    h.check_or_call()
    for _ in range(100):
        if h.is_complete:
            break
        if h.actor is not None:
            h.check_or_call()
        elif h.next_deal() is not None:
            h.deal_from(cards)
        else:
            h.show(h.showdown_pending[0])
    return h


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replayed_inputs_make_the_same_hand(seed):
    h = _played(seed)
    inputs = inputs_of(h.operations)
    assert [x[0] for x in inputs].count("hole") == 8 and ["fold"] in inputs
    again = Hand(h.config)
    replay_inputs(again, inputs)
    assert again.operations == h.operations and again.stacks == h.stacks
    assert Hand.from_dict(h.to_dict()).operations == h.operations


def test_what_follows_from_the_rules_is_not_recorded():
    h = _played(1)
    kinds = {x[0] for x in inputs_of(h.operations)}
    assert kinds <= {"hole", "burn", "board", "fold", "dead", "call", "raise", "show", "muck"}
    assert any(op.OP == "post_blind" for op in h.operations)


def test_an_unknown_input_is_refused():
    h = Hand(HandConfig(stacks={1: 100, 2: 100}, button=1, small_blind=1, big_blind=2))
    with pytest.raises(InvalidInputError, match="unknown input 'limp'"):
        replay_inputs(h, [["limp"]])
