"""Showdown words name the kicker where it decides (two "One Pair, Kings" read alike before)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import evaluation
from engine.betting.hand import Hand, HandConfig
from engine.cards import ALL_CARDS, parse_cards
from engine.errors import InvalidCardError
from engine.evaluation import describe_against, evaluate, evaluate_showdown, evaluate_value


def test_kicker_named_only_where_it_decides():
    a = evaluate(parse_cards("KhKdAs9c7d4h2c"))
    b = evaluate(parse_cards("KsKcQs9c7d4h2c"))
    c = evaluate(parse_cards("KsKcAd9c7d4h2c"))  # the same five ranks as a: a split
    assert describe_against(a, [b]) == "One Pair, Kings, Ace kicker"
    assert describe_against(b, [a]) == "One Pair, Kings, Queen kicker"
    assert describe_against(a, [c]) == "One Pair, Kings"
    assert describe_against(a, []) == "One Pair, Kings"


def test_showdown_view_names_the_kickers():
    h = Hand(HandConfig(stacks={1: 1000, 2: 1000}, button=1, small_blind=10, big_blind=20))
    holes = {2: parse_cards("KhAs"), 1: parse_cards("KdQs")}
    while (nd := h.next_deal()) is not None and nd[0] == "hole":
        h.deal_hole(nd[1], holes[nd[1]][len(h.hole_cards(nd[1]))])
    board = iter(parse_cards("Kc9c7d4h2c"))
    burns = iter(parse_cards("3s5s6s"))
    while not h.is_complete:
        nd = h.next_deal()
        if nd is None and h.actor is not None:
            h.check_or_call()
        elif nd is None and h.showdown_pending:
            h.show(h.showdown_pending[0])
        elif nd is not None and nd[0] == "board":
            h.deal_board(next(board))
        elif nd is not None and nd[0] == "burn":
            h.burn(next(burns))
    words = {ln.seat: ln.description for ln in h.public_view().showdown}
    assert words == {2: "One Pair, Kings, Ace kicker", 1: "One Pair, Kings, Queen kicker"}


@given(st.permutations(range(52)), st.integers(0, 9))
def test_a_showdown_batch_gives_each_hand_its_checked_single_value(deck, players):
    """evaluate_showdown (the engine's showdown: checked once, one native call a hand)
    gives each hand what the checked single call gives its seven cards."""
    board, holes = deck[:5], [tuple(deck[5 + 2 * i:7 + 2 * i]) for i in range(players)]
    values = evaluate_showdown(board, holes)
    assert values == [evaluate_value([ALL_CARDS[i] for i in (*h, *board)]) for h in holes]


@pytest.mark.parametrize(("board", "holes", "words"), [
    ([0, 1, 2, 3, 4], [(5, 6), (6, 7)], "twice"),  # the same card in two hands
    ([0, 1, 2, 3, 4], [(4, 6), (7, 8)], "twice"),  # a hand's card on the board
    ([0, 1, 2, 3], [(5, 6), (7, 8)], "5 board cards"),
    ([0, 1, 2, 3, 4, 9], [(5, 6), (7, 8)], "5 board cards"),
    ([0, 1, 2, 3, 4], [(5, 6, 9), (7,)], "2 cards"),  # the right total, the wrong hands
    ([0, 1, 2, 3, 4], [(5, 6), (7, 52)], "0..51"),
    ([0, 1, 2, 3, 4], [(5, 6), (7, -1)], "0..51"),
    ([0, 1, 2, 3, 4], [(5, 6), (7, 8.0)], "0..51"),
])
def test_a_bad_showdown_is_refused_before_anything_is_evaluated(board, holes, words,
                                                                 monkeypatch):
    calls: list[tuple[int, ...]] = []
    monkeypatch.setattr(evaluation._pheval, "evaluate_7cards",
                        lambda *ids: calls.append(ids) or 1, raising=True)
    with pytest.raises(InvalidCardError, match=words) as refused:
        evaluate_showdown(board, holes)
    assert isinstance(refused.value, ValueError) and calls == []
