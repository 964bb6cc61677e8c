"""Betting rules: TDA 47 examples, heads-up order, antes, big-blind ante, no-blind games,
the double-raise house rule, input helpers, bad input, void, views and snapshots."""

from __future__ import annotations

import json

import pytest

from engine.betting.hand import ChipConservationError, Hand, HandConfig, InvalidHandConfigError
from engine.betting.pots import build_pots, split_pot, uncalled
from engine.cards import Card, parse_cards
from engine.errors import IllegalActionError, InvalidInputError
from tests.engine.betting.helpers import new_hand, run_out, stacked, state_of

HOLES4 = {1: "2c3d", 2: "4h5s", 3: "7c8d", 4: "9hTs"}


def _flop(h: Hand, deck) -> None:
    h.deal_from(deck)
    while h.street == "preflop":
        h.check_or_call()
    h.deal_from(deck)


def test_tda47_short_all_in_does_not_reopen():
    # TDA 47 example: A bets 100, B all-in 125 (short), C calls; A may only call or fold
    h = new_hand({1: 1000, 2: 125, 3: 1000, 4: 1000}, button=4, small_blind=5, big_blind=10)
    deck = stacked(h, HOLES4, "AhKhQh2s3s")
    _flop(h, deck)
    h.bet_or_raise_to(100)                 # seat 1 (A)
    h.bet_or_raise_to(115)                 # seat 2 (B) all-in for 115 more: short
    h.check_or_call()                      # seat 3 (C) calls
    h.fold()                               # seat 4
    la = h.legal_actions()
    assert h.actor == 1 and la.call_amount == 15 and la.min_raise_to is None


def test_tda47_short_all_ins_adding_up_to_a_full_raise_reopen():
    # A bets 100, B all-in 150, C all-in 200: A faces 100 more = a full raise, so may raise
    h = new_hand({1: 1000, 2: 160, 3: 210, 4: 1000}, button=4, small_blind=5, big_blind=10)
    deck = stacked(h, HOLES4, "AhKhQh2s3s")
    _flop(h, deck)
    h.bet_or_raise_to(100)
    h.bet_or_raise_to(150)                 # B: short
    h.bet_or_raise_to(200)                 # C: short on its own; 100 over A's bet in total
    assert h.actor == 4
    assert h.legal_actions().min_raise_to == 300        # not yet acted
    h.check_or_call()
    la = h.legal_actions()
    assert h.actor == 1 and la.call_amount == 100 and la.min_raise_to == 300
    h.bet_or_raise_to(400)
    assert h.actor == 4 and h.legal_actions().min_raise_to == 600


def test_min_raise_is_the_largest_prior_full_raise():
    h = new_hand({1: 5000, 2: 5000, 3: 5000}, button=3, small_blind=25, big_blind=50)
    h.deal_from(stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d"}))
    assert h.legal_actions().min_raise_to == 100          # TDA 43: at least one BB more
    h.bet_or_raise_to(175)                                # raise of 125
    assert h.legal_actions().min_raise_to == 300
    h.bet_or_raise_to(300)
    assert h.legal_actions().min_raise_to == 425
    with pytest.raises(IllegalActionError, match=r"raise to 425\.\.5000"):
        h.bet_or_raise_to(400)


def test_no_raising_own_raise_after_everyone_calls():
    h = new_hand({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10)
    deck = stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d"})
    h.deal_from(deck)
    h.bet_or_raise_to(30)      # seat 3
    h.check_or_call()
    h.check_or_call()
    assert h.street == "flop" and h.actor is None and h.next_deal() == ("burn", None)


def test_double_raise_house_rule():
    h = new_hand({1: 5000, 2: 5000, 3: 5000}, button=3, small_blind=25, big_blind=50,
                 raise_rule="double")
    h.deal_from(stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d"}))
    h.bet_or_raise_to(300)
    assert h.legal_actions().min_raise_to == 600          # standard would be 550
    assert not h.can_bet_or_raise_to(550)


def test_heads_up_order_button_small_blind_first_preflop_last_after():
    h = new_hand({2: 1000, 9: 1000}, button=9, small_blind=10, big_blind=20)
    assert (h.small_blind_seat, h.big_blind_seat) == (9, 2)
    deck = stacked(h, {2: "AsKs", 9: "2c2d"}, "7h8h9hTdJd")
    assert h.next_deal() == ("hole", 2)                   # the big blind is dealt first
    h.deal_from(deck)
    assert h.actor == 9
    h.check_or_call()
    assert h.actor == 2
    h.check_or_call()
    h.deal_from(deck)
    assert h.actor == 2                                   # after the flop: big blind first
    h.check_or_call()
    assert h.actor == 9


def test_big_blind_ante_is_dead_money_in_the_main_pot():
    # BB ante 20 from seat 2; seat 3 all-in for 15 can win the whole ante
    h = new_hand({1: 1000, 2: 1000, 3: 15, 4: 1000}, button=4, small_blind=10, big_blind=20,
                 big_blind_ante=20)
    ops = [(op.seat, op.amount, op.kind) for op in h.operations if op.OP == "post_blind"]
    assert ops == [(1, 10, "small_blind"), (2, 20, "big_blind"), (2, 20, "big_blind_ante")]
    assert [p.amount for p in h.pots] == [20]
    deck = stacked(h, {1: "2c3d", 2: "Kh9s", 3: "AsAh", 4: "9hTs"}, "Ac7d8c2s3s")
    h.deal_from(deck)
    h.check_or_call()          # seat 3 calls all-in 15
    h.check_or_call()          # seat 4 calls 20
    h.check_or_call()          # seat 1 calls
    h.check_or_call()          # seat 2 checks
    assert [(p.amount, p.eligible) for p in h.pots] == [(80, (1, 2, 3, 4)), (15, (1, 2, 4))]
    run_out(h, deck)
    assert h.results[3] == 80 - 15


def test_big_blind_ante_short_stack_posts_blind_first():
    h = new_hand({1: 1000, 2: 30, 3: 1000}, button=3, small_blind=10, big_blind=20,
                 big_blind_ante=20)
    assert h.bets[2] == 20 and h.stacks[2] == 0 and [p.amount for p in h.pots] == [10]


def test_short_blind_and_ante_post_all_in_and_others_match_the_full_blind():
    h = new_hand({1: 1000, 2: 7, 3: 1000}, button=3, small_blind=5, big_blind=10, ante=2)
    assert h.stacks[2] == 0 and h.bets[2] == 5
    h.deal_from(stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d"}))
    assert h.actor == 3 and h.legal_actions().call_amount == 10
    assert h.legal_actions().min_raise_to == 20


def test_no_blind_game_min_bet_and_first_to_act_left_of_button():
    h = new_hand({1: 1000, 2: 1000, 3: 1000}, button=2, min_bet=50)
    assert h.pots == () and h.bets == {1: 0, 2: 0, 3: 0}
    h.deal_from(stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d"}))
    assert h.actor == 3
    la = h.legal_actions()
    assert la.can_check and la.min_raise_to == 50
    h.check_or_call()
    h.check_or_call()
    h.check_or_call()
    assert h.street == "flop"


def test_dead_button_and_explicit_blinds():
    # button on empty seat 5; small blind seat 6 empty too (dead small blind); BB seat 7
    h = new_hand({1: 500, 3: 500, 7: 500}, button=5, small_blind=5, big_blind=10,
                 small_blind_seat=6, big_blind_seat=7)
    assert h.seats == (7, 1, 3)
    assert h.small_blind_seat is None and h.big_blind_seat == 7 and h.bets[7] == 10
    h.deal_from(stacked(h, {1: "2c3d", 3: "4h5s", 7: "7c8d"}))
    assert h.actor == 1


def test_single_blind_and_live_post():
    # PHH blinds_or_straddles=[4, 0, -4, ...]: seat 1 posts the big blind only, seat 3 posts
    h = new_hand({1: 100, 2: 100, 3: 100, 4: 100}, button=4, small_blind=0, big_blind=4,
                 big_blind_seat=1, posts={3: 4})
    assert h.bets == {1: 4, 2: 0, 3: 4, 4: 0}
    h.deal_from(stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d", 4: "9hTs"}))
    assert h.actor == 2
    h.check_or_call()
    assert h.actor == 3
    la = h.legal_actions()
    assert la.can_check and la.min_raise_to == 8          # the poster has the option


def test_odd_chip_split_and_layers():
    assert split_pot(10, [4, 1]) == [(4, 5), (1, 5)]
    assert split_pot(11, [0, 3]) == [(0, 6), (3, 5)]
    assert split_pot(101, [1, 2, 5]) == [(1, 34), (2, 34), (5, 33)]
    # a layer only a folded player reached merges down; nothing is burned
    assert build_pots([100, 30, 60], [False, True, True]) == [(90, [1, 2]), (100, [2])]
    assert build_pots([0, 0], [True, True], dead=7) == [(7, [0, 1])]
    assert uncalled([10, 50, 20]) == (1, 30) and uncalled([50, 50]) is None


def test_odd_chip_goes_left_of_a_dead_button():
    # button on empty seat 8: seat 9 is first left of the button, before seat 2
    h = new_hand({2: 100, 9: 100, 5: 100}, button=8, small_blind=1, big_blind=2,
                 small_blind_seat=9, big_blind_seat=2)
    assert h.seats == (9, 2, 5)
    deck = stacked(h, {2: "AsKd", 5: "2c3d", 9: "AhKc"}, "Qs Jd 7h 6c 4s")
    h.deal_from(deck)
    assert h.actor == 5
    h.bet_or_raise_to(7)        # seat 5
    h.bet_or_raise_to(100)      # seat 9 all-in
    h.check_or_call()           # seat 2 calls all-in
    h.fold()                    # seat 5: its 7 stay in the pot
    run_out(h, deck)
    assert h.awards[0][2] == ((9, 104), (2, 103))
    assert h.stacks == {9: 104, 2: 103, 5: 93}


def test_one_chip_rule_and_verbal_declarations():
    h = new_hand({1: 5000, 2: 5000, 3: 5000}, button=3, small_blind=100, big_blind=200)
    h.deal_from(stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d"}))
    it = h.interpret_chips(3, 500)                        # one 500 chip facing 200: a call
    assert (it.action, it.amount) == ("check_or_call", None) and "one-chip" in it.rule
    it = h.interpret_chips(3, 500, declared="raise")      # declared: raise to 500
    assert (it.action, it.amount) == ("bet_or_raise_to", 500)
    it = h.interpret_chips(3, 1000, chip_count=2)         # two 500s: a raise to 1000
    assert (it.action, it.amount) == ("bet_or_raise_to", 1000)
    it = h.interpret_chips(3, 250, chip_count=3)          # 50 over the call, < 50%: call
    assert it.action == "check_or_call" and "TDA 45" in it.rule
    it = h.interpret_chips(3, 300, chip_count=3)          # 100 over: 50% of the raise: full
    assert (it.action, it.amount) == ("bet_or_raise_to", 400)
    it = h.interpret_chips(3, 1000, declared="call")      # a verbal call binds
    assert it.action == "check_or_call"
    it = h.interpret_chips(3, 0, declared=250)            # declared below the minimum
    assert (it.action, it.amount) == ("bet_or_raise_to", 400)
    with pytest.raises(IllegalActionError):
        h.interpret_chips(1, 500)
    with pytest.raises(InvalidInputError):
        h.interpret_chips(3, 6000)


def test_illegal_actions_name_what_is_legal_and_change_nothing():
    h = new_hand({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10)
    before = state_of(h)
    with pytest.raises(IllegalActionError, match="hole card for seat 1"):
        h.deal_board(Card.parse("As"))
    with pytest.raises(IllegalActionError, match="no action is due"):
        h.fold()
    assert state_of(h) == before
    h.deal_from(stacked(h, {1: "2c3d", 2: "4h5s", 3: "7c8d"}))
    before = state_of(h)
    for bad in (5, 19, 501, "20", None, 2.5):
        with pytest.raises(IllegalActionError, match=r"legal: fold, call 10, raise to 20\.\.500"):
            h.bet_or_raise_to(bad)
        assert state_of(h) == before
    with pytest.raises(IllegalActionError):
        h.show(1)
    with pytest.raises(IllegalActionError):
        h.deal_hole(1, Card.parse("As"))
    assert state_of(h) == before


def test_bad_config():
    with pytest.raises(InvalidHandConfigError):
        HandConfig(stacks={1: 100}, button=1, big_blind=2)
    with pytest.raises(InvalidHandConfigError):
        HandConfig(stacks={1: 100, 11: 100}, button=1, big_blind=2)
    with pytest.raises(InvalidHandConfigError):
        HandConfig(stacks={1: 100, 2: 0}, button=1, big_blind=2)
    with pytest.raises(InvalidHandConfigError):
        HandConfig(stacks={1: 100, 2: 100}, button=1)
    with pytest.raises(InvalidHandConfigError):
        HandConfig(stacks={1: 100, 2: 100}, button=1, big_blind=2, raise_rule="pot")


def test_showdown_order_and_muck():
    h = new_hand({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10)
    deck = stacked(h, {1: "AsAh", 2: "KsKh", 3: "2c7d"}, "3c8d9hJsQc")
    h.deal_from(deck)
    for _ in range(3):
        h.check_or_call()
    for street in range(3):
        h.deal_from(deck)
        if street < 2:
            for _ in range(3):
                h.check_or_call()
    h.check_or_call()               # seat 1 checks the river
    h.bet_or_raise_to(50)           # seat 2 bets: last aggressor
    h.check_or_call()
    h.check_or_call()
    assert h.street == "showdown" and h.showdown_order == (2, 3, 1)
    h.show(2)
    assert not h.can_show(2)
    h.muck(3)                       # a loser may muck
    assert not h.is_complete
    h.show(1)
    assert h.is_complete and h.results == {1: 120, 2: -60, 3: -60}
    # nobody bet on the river: the first seat left of the button shows first
    h = new_hand({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10)
    deck = stacked(h, {1: "AsAh", 2: "KsKh", 3: "2c7d"}, "3c8d9hJsQc")
    run_out(h, deck, show_all=False)        # everyone mucks in turn: the last one wins
    assert h.showdown_order == (1, 2, 3) and h.results == {1: -10, 2: -10, 3: 20}


def test_views_never_leak_hole_cards_and_seat_view_shows_own():
    h = new_hand({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10,
                 names={1: "Ann"})
    deck = stacked(h, {1: "AsAh", 2: "KsKh", 3: "2c7d"}, "3c8d9hJsQc")
    h.deal_from(deck)
    hole = {c for s in (1, 2, 3) for c in h.hole_cards(s)}
    v = h.public_view()
    assert not hole & set(_cards_in(v))
    assert v.actor == 3 and v.to_call == 10 and v.seats[0].name == "Ann"
    sv = h.seat_view(2)
    assert sv.hole_cards == parse_cards("KsKh") and not sv.is_turn and sv.to_call == 0
    assert h.seat_view(3).is_turn and h.seat_view(3).legal.call_amount == 10
    h.fold()
    run_out(h, deck)
    v = h.public_view()
    shown = set(_cards_in(v))
    assert set(parse_cards("AsAhKsKh")) <= shown and not set(parse_cards("2c7d")) & shown
    assert v.pots[0].winners == (1,) and h.seat_view(1).result == 10


def _cards_in(obj):
    if isinstance(obj, Card):
        yield obj
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            yield from _cards_in(x)
    elif hasattr(obj, "__dataclass_fields__"):
        for f in obj.__dataclass_fields__:
            yield from _cards_in(getattr(obj, f))


def test_void_returns_every_chip():
    h = new_hand({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10, ante=1,
                 bonus=50)
    h.deal_from(stacked(h, {1: "AsAh", 2: "KsKh", 3: "2c7d"}))
    h.bet_or_raise_to(100)
    h.void("misdeal: exposed card (TDA 35)")
    assert h.is_complete and h.stacks == {1: 500, 2: 500, 3: 500} and h.total_chips() == 1550
    with pytest.raises(IllegalActionError):
        h.void("again")


def test_snapshot_round_trip_and_copy():
    h = new_hand({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10, ante=1)
    deck = stacked(h, {1: "AsAh", 2: "KsKh", 3: "2c7d"}, "3c8d9hJsQc")
    h.deal_from(deck)
    h.bet_or_raise_to(40)
    d = json.loads(json.dumps(h.to_dict()))
    h2 = Hand.from_dict(d)
    assert state_of(h2) == state_of(h)
    c = h.copy()
    c.fold()
    assert h.actor == 1 and c.actor == 2
    run_out(h, deck)
    assert Hand.from_dict(h.to_dict()).results == h.results
    assert h.actions_in_turn()[:1] == ((3, "raise", 40),)



def test_a_copy_shares_no_list_or_set_the_hand_changes():
    """Hand.copy copies each list and set a hand changes by name: one added to the hand
    and forgotten there would be shared, and a rolled-back action would leak into it."""
    from engine.betting.hand import FIXED, HandState

    h = new_hand({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10, ante=1)
    deck = stacked(h, {1: "AsAh", 2: "KsKh", 3: "2c7d"}, "3c8d9hJsQc")
    h.deal_from(deck)
    h.bet_or_raise_to(40)
    c = h.copy()
    assert state_of(c) == state_of(h)
    for name in HandState.__slots__:              # every attribute of a hand
        value = getattr(h, name)
        if isinstance(value, (list, set, dict)) and name not in FIXED:
            assert getattr(c, name) is not value, f"Hand.copy shares {name}"
        if isinstance(value, list) and value and isinstance(value[0], list):
            assert all(a is not b for a, b in zip(getattr(c, name), value, strict=True))
    c.check_or_call()
    run_out(c, deck)
    assert h.actor == 1 and h.street == "preflop" and state_of(Hand.from_dict(h.to_dict())) \
        == state_of(h)

def test_chip_conservation_error_is_raised_when_broken():
    """A movement whose two sides disagree is caught by the check after the action."""
    h = new_hand({1: 500, 2: 500}, button=1, small_blind=5, big_blind=10)
    h.deal_from(stacked(h, {1: "AsAh", 2: "KsKh"}))
    h._behind += 1                             # simulate a bug: chips out of nowhere
    with pytest.raises(ChipConservationError, match="do not add up"):
        h.check_or_call()


def test_a_chip_moved_behind_the_ledger_is_caught_when_the_hand_completes():
    """A stack changed without the running totals knowing is found by the recount made
    when the hand is complete (the check after each action is O(1))."""
    h = new_hand({1: 500, 2: 500}, button=1, small_blind=5, big_blind=10)
    deck = stacked(h, {1: "AsAh", 2: "KsKh"}, "2c7d9hJsQd")
    h.deal_from(deck)
    h._stack[0] += 1                           # simulate a bug
    h.check_or_call()                          # not seen yet: the totals kept agree
    with pytest.raises(ChipConservationError, match="counted"):
        run_out(h, deck)


def test_the_recount_at_the_end_of_a_clean_hand_passes():
    h = new_hand({1: 500, 2: 500, 3: 300}, button=1, small_blind=5, big_blind=10, ante=1)
    deck = stacked(h, {1: "AsAh", 2: "KsKh", 3: "QsQh"}, "2c7d9hJsQd")
    h.deal_from(deck)
    h.bet_or_raise_to(300)
    run_out(h, deck)
    assert h.is_complete and h.total_chips() == 1300 == sum(h.stacks.values())
    assert (h._behind, h._in_bets) == (1300, 0)


def test_explicit_preflop_first_seat():
    h = new_hand({1: 100, 2: 100, 3: 100, 4: 100}, button=4, small_blind=1, big_blind=2,
                 posts={3: 4}, preflop_first_seat=4)
    assert h.preflop_first_seat == 4
    h.deal_from(stacked(h, HOLES4))
    assert h.actor == 4 and h.legal_actions().call_amount == 4
    assert HandConfig.from_dict(h.config.to_dict()) == h.config


def test_public_operations_hold_no_private_card():
    h = new_hand({1: 500, 2: 500, 3: 500}, button=3, small_blind=5, big_blind=10)
    deck = stacked(h, {1: "AsAh", 2: "KsKh", 3: "2c7d"}, "3c8d9hJsQc")
    h.deal_from(deck)
    h.fold()
    run_out(h, deck)
    ops = h.public_operations()
    assert not any(op.OP in ("deal_hole", "burn") for op in ops)
    shown = {c for op in ops if op.OP == "show" for c in op.cards}
    assert shown == set(parse_cards("AsAhKsKh"))
    assert len(h.operations) - len(ops) == 6 + 3
