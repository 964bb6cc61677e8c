"""The engine's API names the seat; an all-in verb; pots readable after the hand; the split
remainder where the docstring says; Hand.from_dict refuses bad input with its documented
error (issue: rules fidelity, round two, item 16)."""

from __future__ import annotations

import pytest

from engine.betting.hand import Hand, HandConfig
from engine.betting.pots import split_pot
from engine.cards import parse_cards
from engine.errors import IllegalActionError, InvalidInputError


def _dealt(stacks=None) -> Hand:
    h = Hand(HandConfig(stacks=stacks or {1: 1000, 2: 1000, 3: 1000}, button=3,
                        small_blind=10, big_blind=20))
    cards = iter(parse_cards("AhAd KcKd 2c7d 9s9h 3c4c"))
    while (nd := h.next_deal()) is not None and nd[0] == "hole":
        h.deal_hole(nd[1], next(cards))
    return h


def test_an_action_naming_another_seat_is_refused_and_changes_nothing():
    h = _dealt()
    assert h.actor == 3
    before = h.to_dict()
    for act in (lambda: h.fold(seat=1), lambda: h.check_or_call(seat=2),
                lambda: h.bet_or_raise_to(60, seat=1), lambda: h.all_in(seat=2)):
        with pytest.raises(IllegalActionError, match="seat 3 is"):
            act()
    assert h.to_dict() == before
    h.check_or_call(seat=3)
    assert h.actor == 1


def test_all_in_puts_the_whole_stack_in():
    h = _dealt({1: 1000, 2: 500, 3: 300})
    h.all_in(seat=3)
    assert h.stacks[3] == 0 and h.bets[3] == 300


def test_pots_and_winners_stay_readable_after_the_hand():
    h = _dealt()
    h.fold(seat=3)
    h.fold(seat=1)
    assert h.is_complete
    assert [p.amount for p in h.pots] == [20]  # the uncalled 10 of the big blind went back
    assert [won for _, _, won in h.awards] == [((2, 20),)]


def test_split_remainder_goes_left_of_the_button_whatever_the_order_given():
    assert split_pot(101, [2, 0]) == [(2, 50), (0, 51)]
    assert split_pot(101, [0, 2]) == [(0, 51), (2, 50)]


@pytest.mark.parametrize("bad", [
    ["raise", 4.7], ["raise", "4.7"], ["hole", 1.5, "Ah"], ["show", True], "raise", [],
])
def test_from_dict_refuses_bad_inputs_without_truncating(bad):
    h = _dealt()
    d = h.to_dict()
    d["inputs"] = list(d["inputs"]) + [bad]
    with pytest.raises(InvalidInputError):
        Hand.from_dict(d)
