"""The showdown's rules (engine/betting/showdown.py): order and awards."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.betting import showdown
from engine.betting.hand import Hand, HandConfig
from engine.betting.showdown import award_pots, showdown_order
from engine.cards import ALL_CARDS, Card, parse_cards
from engine.errors import IllegalActionError
from engine.evaluation import evaluate_value, showdown_values
from tests.engine.betting.helpers import assert_ids_kept


def _ids(text: str) -> tuple[int, ...]:
    return tuple(c.id for c in parse_cards(text))


def test_the_order_starts_at_the_aggressor_and_skips_folded_positions():
    assert showdown_order(0, [False, False, True]) == (0, 1)
    assert showdown_order(1, [False, False, True, False]) == (1, 3, 0)


def test_the_best_hand_wins_the_main_pot_and_a_side_pot_goes_to_its_only_contender():
    board = _ids("2c 7d 9h Js Kd")
    hole = [_ids("Ac Ad"), _ids("Kh Ks"), _ids("3c 4c")]
    awards = award_pots([100, 300, 300], [True, True, True], 0, hole, board, 1)
    # three kings beat the aces: the main pot and the side pot both go to position 1
    assert awards[0] == (300, [0, 1, 2], [(1, 300)])
    assert awards[1] == (400, [1, 2], [(1, 400)])


def test_a_tie_splits_the_pot_in_the_smallest_chip():
    board = _ids("As Ks Qs Js Ts")
    hole = [_ids("2c 3d"), _ids("4h 5h")]
    awards = award_pots([50, 50], [True, True], 25, hole, board, 25)
    assert awards == [(125, [0, 1], [(0, 75), (1, 50)])]


def test_a_folded_or_mucked_hand_is_not_evaluated_and_a_lone_contender_needs_no_value(
        monkeypatch):
    evaluated: list[list[int]] = []

    def watched(board_ids, hole_ids, positions):
        evaluated.append(list(positions))
        return showdown_values(board_ids, hole_ids, positions)

    monkeypatch.setattr(showdown, "showdown_values", watched)
    board = _ids("2c 7d 9h Js Kd")
    hole = [_ids("Ac Ad"), (), _ids("3c 4c"), _ids("Kh Ks")]  # position 1: a dead hand
    awards = award_pots([300, 100, 300, 300], [True, False, False, True], 0, hole, board, 1)
    assert evaluated == [[0, 3]] and awards == [(1000, [0, 3], [(3, 1000)])]
    award_pots([300, 300], [True, False], 0, [_ids("Ac Ad"), _ids("Kh Ks")], board, 1)
    assert evaluated == [[0, 3]]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 10), offered=st.lists(st.integers(0, 51), max_size=80),
       seed=st.integers(0, 2**32 - 1))
def test_a_dealt_showdown_holds_five_board_cards_two_a_hand_and_no_card_twice(
        seats, offered, seed):
    """The guarantee :func:`engine.evaluation.showdown_values` relies on, unchecked: the
    dealer offers cards with repeats (``offered``, then a shuffled deck so the deal can
    finish); the hand takes a card only where one is due and new, keeps each card's id
    beside it (checked after every card offered, taken or refused), and what reaches the
    showdown's evaluation is the dealt cards' ids: five board ids and two a live hand,
    each 0..51 and none twice; the values are those of the checked call on the cards."""
    rng = random.Random(seed)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    stream = iter([ALL_CARDS[i] for i in offered] + deck)
    seen: list[tuple[tuple[int, ...], list[tuple[int, ...]], dict[int, int]]] = []

    def watched(board_ids, hole_ids, positions):
        values = showdown_values(board_ids, hole_ids, positions)
        seen.append((board_ids, [hole_ids[j] for j in positions], values))
        assert board_ids == tuple(c.id for c in h._board)
        assert all(hole_ids[j] == tuple(c.id for c in h._hole[j]) for j in positions)
        return values

    h = Hand(HandConfig(stacks={s: rng.randint(1, 400) for s in range(1, seats + 1)},
                        button=1, small_blind=5, big_blind=10))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(showdown, "showdown_values", watched)
        _play_to_the_end(h, stream, rng)
    assert h.is_complete
    for board, holes, values in seen:
        ids = [*board, *(i for hole in holes for i in hole)]
        assert len(board) == 5 and all(len(hole) == 2 for hole in holes) and len(holes) >= 2
        assert all(type(i) is int for i in ids)
        assert len(set(ids)) == len(ids) and set(ids) <= set(range(52))
        assert list(values.values()) == [
            evaluate_value([Card.from_id(i) for i in (*hole, *board)]) for hole in holes]


def _play_to_the_end(h: Hand, stream, rng: random.Random) -> None:
    """Deals each due card from ``stream`` (a card the hand refuses is passed over, and
    changes nothing), acts at random (mostly calls, so most hands reach a showdown) and
    shows every hand at the showdown."""
    while not h.is_complete:
        due = h.next_deal()
        if due is not None:
            card = next(stream)
            deal = {"hole": lambda c, s=due[1]: h.deal_hole(s, c), "burn": h.burn,
                    "board": h.deal_board}[due[0]]
            try:
                deal(card)
            except IllegalActionError:
                assert h.next_deal() == due
            assert_ids_kept(h)
        elif h.actor is not None:
            la = h.legal_actions()
            r = rng.random()
            if r < 0.05:
                h.fold()
            elif r < 0.2 and la.max_raise_to is not None:
                h.bet_or_raise_to(la.max_raise_to)
            else:
                h.check_or_call()
        else:
            h.show(h.showdown_pending[0])
