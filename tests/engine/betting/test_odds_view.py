"""The live all-in odds view: there only once no player can act again in the hand (Poker
TDA 16: the hands are tabled then), updated after each card, per pot, and equal to the
equity engine's figures for the same spot."""

from __future__ import annotations

import random
from fractions import Fraction

from engine.betting.equity import all_in_odds
from engine.betting.hand import Hand, HandConfig
from engine.betting.odds_view import betting_closed_all_in, odds_view
from engine.cards import Deck, parse_cards
from tests.engine.betting.helpers import new_hand, stacked


def deal_due(hand: Hand, deck) -> None:
    """Deal the cards due now from the iterator ``deck`` (a stacked deck, top first), one
    at a time, stopping after the next street's board cards (an all-in's runout is due all
    at once)."""
    target = {0: 3, 3: 4, 4: 5}[len(hand.board)] if hand.hole_cards(hand.seats[0]) else 0
    while hand.next_deal() is not None and (target == 0 or len(hand.board) < target):
        kind, seat = hand.next_deal()
        card = next(deck)
        if kind == "hole":
            hand.deal_hole(seat, card)
        elif kind == "burn":
            hand.burn(card)
        else:
            hand.deal_board(card)


def test_heads_up_all_in_shows_odds_only_after_the_call_and_after_each_card():
    hand = new_hand({1: 5_000, 2: 5_000}, button=1, small_blind=50, big_blind=100,
                    names={1: "Ann", 2: "Bob"})
    deck = iter(stacked(hand, {1: "AhKh", 2: "QsQd"}, "2c7d9hQhJc"))
    deal_due(hand, deck)
    assert hand.actor == 1
    assert odds_view(hand) is None  # Ann to act
    hand.bet_or_raise_to(5_000)
    assert hand.actor == 2 and odds_view(hand) is None  # Bob can still fold or call
    hand.check_or_call()
    pre = odds_view(hand)
    assert pre is not None and pre.street == "preflop" and pre.exact  # heads-up: the table
    assert [h.name for h in pre.hands] == ["Ann", "Bob"]
    assert [h.cards for h in pre.hands] == [parse_cards("AhKh"), parse_cards("QsQd")]
    assert pre.hands[0].win + pre.hands[1].win + pre.hands[0].tie == 1
    want = all_in_odds([parse_cards("AhKh"), parse_cards("QsQd")])
    assert [h.win for h in pre.hands] == list(want.main.win)
    seen = {pre}
    for street, board in (("flop", "2c7d9h"), ("turn", "2c7d9hQh")):
        deal_due(hand, deck)
        view = odds_view(hand)
        assert view is not None and view.street == street and view.exact
        want = all_in_odds([parse_cards("AhKh"), parse_cards("QsQd")], parse_cards(board))
        assert [h.win for h in view.hands] == list(want.main.win)
        assert [h.tie for h in view.hands] == list(want.main.tie)
        seen.add(view)
    assert len(seen) == 3  # a new view after each card
    deal_due(hand, deck)  # the river: the showdown shows the result, not odds
    assert odds_view(hand) is None


def test_no_odds_while_two_players_with_chips_can_still_bet():
    hand = new_hand({1: 1_000, 2: 8_000, 3: 8_000}, button=3, small_blind=50, big_blind=100)
    deck = iter(stacked(hand, {1: "AsAd", 2: "KsKd", 3: "QsQd"}, "2c7d9h4c5s"))
    deal_due(hand, deck)
    hand.check_or_call()            # the button calls 100 (seat 3 acts first three-handed)
    hand.bet_or_raise_to(1_000)     # the small blind, seat 1, is all in
    hand.check_or_call()            # the big blind calls
    hand.check_or_call()            # the button calls
    assert hand.actor is None and hand.status(1) == "all_in"
    assert not betting_closed_all_in(hand) and odds_view(hand) is None
    deal_due(hand, deck)
    assert hand.actor is not None and odds_view(hand) is None


def test_side_pots_get_their_own_odds():
    hand = new_hand({1: 1_000, 2: 3_000, 3: 9_000}, button=3, small_blind=50, big_blind=100,
                    names={1: "Ann", 2: "Bob", 3: "Cyd"})
    deck = iter(stacked(hand, {1: "AsAd", 2: "KsKd", 3: "7c2h"}, "2c7d9h4c5s"))
    deal_due(hand, deck)
    hand.check_or_call()            # Cyd (button) calls
    hand.bet_or_raise_to(1_000)     # Ann all in
    hand.bet_or_raise_to(3_000)     # Bob all in
    hand.check_or_call()            # Cyd calls and has chips behind: nobody can act again
    view = odds_view(hand, samples=3_000)
    assert view is not None and [p.label for p in view.pots] == ["Main pot", "Side pot 1"]
    assert set(view.pots[0].seats) == {1, 2, 3} and set(view.pots[1].seats) == {2, 3}
    holes = [parse_cards(h) for h in ("AsAd", "KsKd", "7c2h")]
    want = all_in_odds(holes, pots=[[0, 1, 2], [1, 2]], samples=3_000)
    side = dict(zip(view.pots[1].seats, view.pots[1].win, strict=True))
    assert side == {2: want.pots[1].win[0], 3: want.pots[1].win[1]}
    assert sum(view.pots[1].win) + max(view.pots[1].tie) <= 1


def play(rng: random.Random) -> tuple[int, int]:
    """One random hand, mostly all-ins; returns (steps checked, steps with odds)."""
    n = rng.randint(2, 5)
    seats = sorted(rng.sample(range(1, 10), n))
    stacks = {s: rng.randint(2, 60) * 100 for s in seats}
    hand = Hand(HandConfig(stacks=stacks, button=rng.choice(seats), small_blind=50,
                           big_blind=100))
    deck = iter(Deck.shuffled(rng))
    checked = shown = 0
    while not hand.is_complete:
        due = hand.next_deal()
        if due is not None:
            hand.deal_from(deck)
        elif hand.showdown_pending:
            hand.show(hand.showdown_pending[0])
        else:
            la = hand.legal_actions()
            r = rng.random()
            if la.can_fold and r < 0.15:
                hand.fold()
            elif la.max_raise_to is not None and r < 0.5:
                hand.bet_or_raise_to(la.max_raise_to)
            else:
                hand.check_or_call()
        view = odds_view(hand, samples=300)  # few boards: this test is about when, not what
        live = [s for s in seats if hand.status(s) != "folded"]
        with_chips = [s for s in live if hand.status(s) != "all_in"]
        if hand.actor is not None or len(with_chips) > 1 or hand.is_complete:
            assert view is None, "odds shown while a player can act"
        if view is not None:
            shown += 1
            assert {h.seat for h in view.hands} == set(live)
            for h in view.hands:
                assert Fraction(0) <= h.win <= 1 and Fraction(0) <= h.tie <= 1
        checked += 1
    return checked, shown


def test_random_hands_never_show_odds_while_a_player_can_act():
    rng = random.Random(1515)
    checked = shown = 0
    for _ in range(150):
        c, s = play(rng)
        checked += c
        shown += s
    assert checked > 500 and shown > 20
