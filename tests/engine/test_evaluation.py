"""Showdown words name the kicker where it decides (two "One Pair, Kings" read alike before)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import evaluation
from engine.betting.hand import Hand, HandConfig
from engine.cards import ALL_CARDS, parse_cards
from engine.errors import InvalidCardError
from engine.evaluation import describe_against, evaluate, evaluate_value, showdown_values


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


@given(st.permutations(ALL_CARDS), st.integers(0, 9))
def test_the_unchecked_showdown_gives_each_hand_its_checked_single_value(deck, players):
    """showdown_values (the engine's showdown: the dealt cards' ids, unchecked, one native
    call a hand) gives each position asked for what the checked single call gives its
    seven cards."""
    board, holes = deck[:5], [deck[5 + 2 * i:7 + 2 * i] for i in range(players)]
    positions = [j for j in range(players) if (j + deck[0].id) % 3]  # some, in order
    values = showdown_values(tuple(c.id for c in board),
                             [tuple(c.id for c in h) for h in holes], positions)
    assert values == {j: evaluate_value([*holes[j], *board]) for j in positions}


def test_the_unchecked_showdown_is_one_native_call_a_hand_in_the_order_given(monkeypatch):
    calls: list[tuple[int, ...]] = []
    monkeypatch.setattr(evaluation, "evaluate_7_ids",
                        lambda *ids: calls.append(ids) or len(calls))
    board = tuple(c.id for c in parse_cards("2c7d9hJsKd"))
    holes = [tuple(c.id for c in parse_cards(h)) for h in ("AcAd", "KhKs", "3c4c")]
    assert showdown_values(board, holes, [2, 0]) == {2: 1, 0: 2}
    assert calls == [holes[2] + board, holes[0] + board]


@pytest.mark.parametrize("cards", ["AsKs", "AsKsQsJsTs9s8s7s", "AsAsKsQsJs"])
def test_the_checked_call_refuses_cards_from_outside(cards):
    with pytest.raises(InvalidCardError) as refused:
        evaluate_value(parse_cards(cards))
    assert isinstance(refused.value, ValueError)
