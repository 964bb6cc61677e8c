"""Regression scenarios (a)-(h) of the betting rules, with their numbers."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import IllegalActionError
from engine.evaluation import evaluate
from tests.engine.betting.helpers import new_hand, run_out, stacked


def test_a_short_all_in_does_not_reopen_for_the_button():
    # four-handed 1/2: seat 1 SB 19, seat 2 BB 200, seat 3 first to act 16, seat 4 button 200
    h = new_hand({1: 19, 2: 200, 3: 16, 4: 200}, button=4, small_blind=1, big_blind=2)
    h.deal_from(stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d", 4: "9hTs"}))
    assert h.actor == 3
    h.bet_or_raise_to(16)                  # all-in, a full raise (14 >= 2)
    assert h.actor == 4
    h.check_or_call()                      # button calls 16
    assert h.actor == 1
    la = h.legal_actions()
    assert la.call_amount == 15 and la.min_raise_to == 19 == la.max_raise_to
    h.bet_or_raise_to(19)                  # small blind all-in to 19: a short raise of 3
    assert h.actor == 2
    assert h.legal_actions().min_raise_to == 19 + 14   # BB has not acted: may raise
    h.check_or_call()                      # big blind calls 19
    assert h.actor == 4
    la = h.legal_actions()
    assert la.can_call and la.call_amount == 3 and la.can_fold
    assert la.min_raise_to is None and la.max_raise_to is None
    assert not h.can_bet_or_raise_to(200)
    with pytest.raises(IllegalActionError, match="call 3"):
        h.bet_or_raise_to(40)


def test_b_min_raise_not_capped_by_opponent_stack_and_uncalled_returned():
    h = new_hand({1: 1000, 2: 200}, button=1, small_blind=10, big_blind=20)
    assert h.small_blind_seat == 1 and h.big_blind_seat == 2
    h.deal_from(stacked(h, {1: "AsAh", 2: "KsKh"}, "2c7d9hJsQc"))
    assert h.actor == 1                    # heads-up: the button acts first preflop
    h.bet_or_raise_to(100)
    h.bet_or_raise_to(180)
    la = h.legal_actions()
    assert (la.min_raise_to, la.max_raise_to, la.call_amount) == (260, 1000, 80)
    h.bet_or_raise_to(260)
    assert h.legal_actions().call_amount == 20    # the big blind can only call all-in
    h.check_or_call()
    assert h.stacks == {1: 800, 2: 0}             # 60 uncalled came back at once
    assert [(op.seat, op.amount) for op in h.operations if op.OP == "return_uncalled"] == [(1, 60)]
    run_out(h, stacked(h, {1: "AsAh", 2: "KsKh"}, "2c7d9hJsQc"))
    assert h.stacks == {1: 1200, 2: 0}


def test_c_three_way_all_in_short_stack_wins_main_others_split_odd_side_pot():
    # blinds 5/10, button 4; seat 3 short (30)
    h = new_hand({1: 1000, 2: 1000, 3: 30, 4: 1000}, button=4, small_blind=5, big_blind=10)
    holes = {1: "7c2d", 2: "KdQc", 3: "AsAh", 4: "KhQd"}
    deck = stacked(h, holes, "Ac9s8d4h3c")
    h.deal_from(deck)
    h.bet_or_raise_to(30)        # seat 3 all-in
    h.bet_or_raise_to(65)        # seat 4
    h.check_or_call()            # seat 1 calls 65
    h.bet_or_raise_to(1000)      # seat 2 all-in
    h.check_or_call()            # seat 4 calls all-in
    h.fold()                     # seat 1 folds (65 stays in)
    assert [p.amount for p in h.pots] == [120, 1975]
    assert h.pots[0].eligible == (2, 3, 4) and h.pots[1].eligible == (2, 4)
    run_out(h, deck)
    # main 120 to seat 3; side 1975 split, odd chip to seat 2 (first left of the button)
    assert h.stacks == {1: 935, 2: 988, 3: 120, 4: 987}
    assert h.results == {1: -65, 2: -12, 3: 90, 4: -13}
    assert h.awards[1][2] == ((2, 988), (4, 987))


def test_c_seven_handed_multiway_all_in_with_ties():
    stacks = {1: 76, 2: 181, 3: 300, 4: 117, 5: 5, 6: 66, 7: 27}
    h = new_hand(stacks, button=7, small_blind=1, big_blind=2, ante=1)
    holes = {1: "AhKs", 2: "Jc8c", 3: "9s3d", 4: "Jd8h", 5: "QhTd", 6: "AsKd", 7: "QdTh"}
    deck = stacked(h, holes, "2c7d9hJsKc")
    h.deal_from(deck)
    assert h.actor == 3
    h.bet_or_raise_to(299)                         # seat 3 all-in
    for _ in range(6):                             # 4, 5, 6, 7, 1, 2 call all-in
        h.check_or_call()
    assert h.stacks[3] == 119                      # 119 uncalled came back
    assert [(p.amount, p.eligible) for p in h.pots] == [
        (35, (1, 2, 3, 4, 5, 6, 7)), (132, (1, 2, 3, 4, 6, 7)), (195, (1, 2, 3, 4, 6)),
        (40, (1, 2, 3, 4)), (123, (2, 3, 4)), (128, (2, 3))]
    run_out(h, deck)
    assert [a[2] for a in h.awards] == [
        ((5, 18), (7, 17)),          # 5 and 7 tie: odd chip to seat 5 (first left of button 7)
        ((7, 132),),
        ((1, 98), (6, 97)),          # 1 and 6 tie: odd chip to seat 1
        ((1, 40),),
        ((2, 62), (4, 61)),          # 2 and 4 tie: odd chip to seat 2
        ((2, 128),)]
    assert h.stacks == {1: 138, 2: 190, 3: 119, 4: 61, 5: 18, 6: 97, 7: 149}
    assert sum(h.stacks.values()) == sum(stacks.values())


def test_d_heads_up_antes_and_only_a_big_blind():
    # the big blind on the non-button seat: the button acts first preflop, last after
    h = new_hand({3: 500, 8: 500}, button=8, small_blind=0, big_blind=20, ante=5)
    assert h.big_blind_seat == 3 and h.small_blind_seat is None
    deck = stacked(h, {3: "AsKs", 8: "2c2d"}, "7h8h9hTdJd")
    h.deal_from(deck)
    assert h.actor == 8
    assert h.legal_actions().call_amount == 20
    h.check_or_call()
    assert h.actor == 3                            # big blind's option
    h.check_or_call()
    h.deal_from(deck)
    assert h.actor == 3                            # after the flop the big blind acts first
    # PHH-style: the button posts the only blind, so the other seat acts first
    h2 = new_hand({3: 500, 8: 500}, button=8, small_blind=0, big_blind=20, ante=5,
                  big_blind_seat=8)
    h2.deal_from(stacked(h2, {3: "AsKs", 8: "2c2d"}))
    assert h2.actor == 3


def test_e_wheel_and_straight_ranking_through_showdown():
    wheel = evaluate(parse_cards("Ah2c3d4s5h"))
    six = evaluate(parse_cards("2c3d4s5h6h"))
    assert wheel.category == "straight" and six.category == "straight"
    assert six > wheel and wheel.description == "Straight, Five high"
    assert evaluate(parse_cards("QhKcAd2s3h")).category == "high_card"
    assert evaluate(parse_cards("AsKsQsJsTs")).description == "Royal Flush"
    # at the table: A-x makes the wheel, 6-x makes the six-high straight
    h = new_hand({1: 100, 2: 100, 3: 100}, button=3, small_blind=1, big_blind=2)
    deck = stacked(h, {1: "Ad9c", 2: "6d9h", 3: "QsKd"}, "2c3h4s5dJc")
    run_out(h, deck)
    assert h.results == {1: -2, 2: 4, 3: -2}
    # Q-K-A-2-3 is no straight: a pair of threes beats it
    h = new_hand({1: 100, 2: 100}, button=2, small_blind=1, big_blind=2)
    deck = stacked(h, {1: "QsKd", 2: "3c9h"}, "Ah2s3d7c8d")
    run_out(h, deck)
    assert h.results == {1: -2, 2: 2}


def test_f_call_amount_facing_short_all_in_is_the_all_in_amount():
    h = new_hand({1: 1000, 2: 1000, 3: 130, 4: 1000}, button=4, small_blind=5, big_blind=10)
    deck = stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d", 4: "9hTs"}, "AhKhQh2s3s")
    h.deal_from(deck)
    # limp to flop
    h.check_or_call()
    h.check_or_call()
    h.check_or_call()
    h.check_or_call()
    h.deal_from(deck)
    assert h.actor == 1
    h.bet_or_raise_to(100)
    h.fold()                                   # seat 2
    h.bet_or_raise_to(120)                     # seat 3 all-in for 120 (short)
    la = h.legal_actions()
    assert h.actor == 4 and la.call_amount == 120 and la.min_raise_to == 220


def test_g_opponents_all_all_in_call_but_no_raise():
    h = new_hand({1: 50, 2: 1000, 3: 40}, button=3, small_blind=5, big_blind=10)
    h.deal_from(stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d"}))
    h.bet_or_raise_to(40)           # seat 3 all-in
    h.bet_or_raise_to(50)           # seat 1 (SB) all-in
    la = h.legal_actions()
    assert h.actor == 2 and la.can_call and la.call_amount == 40
    assert la.min_raise_to is None and not h.can_bet_or_raise_to(100)


def test_h_mucked_and_burned_cards_are_never_dealt_again():
    h = new_hand({1: 100, 2: 100, 3: 100}, button=3, small_blind=1, big_blind=2)
    deck = stacked(h, {1: "AsAh", 2: "KsKh", 3: "QsQh"}, "2c7d9hJsTc")
    h.deal_from(deck)
    h.fold()                                   # seat 3 folds QsQh into the muck
    h.check_or_call()
    h.check_or_call()
    burn = h.next_deal()
    assert burn == ("burn", None)
    for c in parse_cards("QsQhAsKh"):
        assert not h.can_burn(c)
        with pytest.raises(IllegalActionError, match="already dealt"):
            h.burn(c)
    h.burn(parse_cards("3c")[0])
    assert not h.can_deal_board(parse_cards("3c")[0])     # the burn card is dead too
    assert not h.can_deal_board(parse_cards("Qh")[0])
    h.deal_from(deck)                           # skips every used card
    used = [op.card for op in h.operations if hasattr(op, "card")]
    assert len(used) == len(set(used))
