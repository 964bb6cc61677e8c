import random

from hypothesis import given
from hypothesis import strategies as st

from engine.betting.seat_input import IDLE, SeatDecision, SeatInput, apply_seat_button, raise_step
from engine.cards import Deck
from engine.events import SeatButton
from engine.views import LegalActions


def key(button, press="press"):
    return SeatButton(t=0.0, seat=3, button=button, press=press)


def run(legal, *keys, bet=0, state=IDLE):
    decisions = []
    for k in keys:
        state, d = apply_seat_button(state, legal, k, bet=bet)
        decisions.append(d)
    return state, decisions


# Preflop, blinds 10/20, seat facing the big blind with 1000 behind: call 20, raise to 40+.
PREFLOP = LegalActions(can_fold=True, can_call=True, call_amount=20, min_raise_to=40,
                           max_raise_to=1000)
# Flop, nothing bet: check, bet 20+.
FLOP_OPEN = LegalActions(can_fold=False, can_check=True, call_amount=0, min_raise_to=20,
                             max_raise_to=500)
# Facing a bet of 100 with 60 of ours already in (a raise to 100 over 60?): to match 100.
FACING = LegalActions(can_fold=True, can_call=True, call_amount=300, min_raise_to=600,
                          max_raise_to=2000)


def test_raise_presses_step_by_the_minimum_raise_from_min_raise_to():
    state, ds = run(PREFLOP, key("bet_raise"), key("bet_raise"), key("bet_raise"))
    assert state.pending_raise_to == 80 and ds == [None, None, None]
    state, d = apply_seat_button(state, PREFLOP, key("check_call"))
    assert d == SeatDecision("bet_or_raise_to", 80) == ("bet_or_raise_to", 80)
    assert state == IDLE


def test_step_with_no_bet_in_the_round_is_the_minimum_bet():
    assert raise_step(FLOP_OPEN) == 20
    state, _ = run(FLOP_OPEN, *[key("bet_raise")] * 4)
    assert state.pending_raise_to == 80


def test_step_facing_a_raise_counts_own_bet():
    # Seat has 300 in, faces 600 (call 300), min raise to 900: step 300.
    legal = LegalActions(can_fold=True, can_call=True, call_amount=300, min_raise_to=900,
                             max_raise_to=5000)
    assert raise_step(legal, bet=300) == 300
    state, _ = run(legal, key("bet_raise"), key("bet_raise"), bet=300)
    assert state.pending_raise_to == 1200


def test_steps_stop_at_all_in_and_hold_goes_all_in():
    state, _ = run(FACING, *[key("bet_raise")] * 10)
    assert state.pending_raise_to == 2000 and state.note == "all-in"
    state, _ = run(FACING, key("bet_raise", "hold"))
    assert state.pending_raise_to == 2000
    _, ds = run(FACING, key("bet_raise", "hold"), key("check_call"))
    assert ds[-1] == ("bet_or_raise_to", 2000)


def test_call_without_pending_checks_or_calls():
    assert run(PREFLOP, key("check_call"))[1] == [("check_or_call", None)]
    assert run(FLOP_OPEN, key("check_call", "hold"))[1] == [("check_or_call", None)]


def test_fold_cancels_a_pending_raise_then_folds():
    state, ds = run(PREFLOP, key("bet_raise"), key("fold"))
    assert ds == [None, None] and state.pending_raise_to is None
    assert state.note == "raise cancelled"
    state, d = apply_seat_button(state, PREFLOP, key("fold"))
    assert d == ("fold", None) and state == IDLE


def test_fold_when_folding_is_not_legal_does_nothing():
    state, ds = run(FLOP_OPEN, key("fold"))
    assert ds == [None] and state.note == "check instead"


def test_raise_when_no_raise_is_possible_keeps_state():
    legal = LegalActions(can_fold=True, can_call=True, call_amount=700)
    state, ds = run(legal, key("bet_raise"))
    assert ds == [None] and state.pending_raise_to is None and state.note == "no raise possible"
    assert run(legal, key("bet_raise"), key("check_call"))[1][-1] == ("check_or_call", None)


def test_not_your_turn_changes_nothing_but_the_note():
    state, d = apply_seat_button(SeatInput(400), None, key("check_call"))
    assert d is None and state.pending_raise_to is None and state.note == "not your turn"


def test_pending_amount_is_clamped_when_the_limits_change():
    state = SeatInput(pending_raise_to=5000)
    _, d = apply_seat_button(state, FACING, key("check_call"))
    assert d == ("bet_or_raise_to", 2000)
    _, d = apply_seat_button(SeatInput(100), FACING, key("check_call"))
    assert d == ("bet_or_raise_to", 600)


def test_the_hand_engine_answers_with_the_one_legal_actions_type():
    from engine.betting.hand import Hand, HandConfig

    hand = Hand(HandConfig(stacks={1: 1000, 2: 1000, 3: 1000}, button=3, small_blind=10,
                           big_blind=20))
    hand.deal_from(iter(Deck.shuffled(random.Random(1))))
    legal = hand.legal_actions()
    assert type(legal) is LegalActions
    assert hand.public_view().legal == legal  # the view carries the same value
    state, _ = run(legal, key("bet_raise"), key("bet_raise"))
    assert state.pending_raise_to == 60


@given(st.integers(1, 500), st.integers(0, 2000), st.integers(0, 5000),
       st.lists(st.sampled_from(["bet_raise", "bet_raise", "check_call", "fold"]), max_size=30),
       st.lists(st.booleans(), min_size=30, max_size=30))
def test_pending_always_within_limits_and_decisions_are_legal(min_to, extra, call, keys, holds):
    legal = LegalActions(can_fold=True, can_call=call > 0, can_check=call == 0,
                             call_amount=call, min_raise_to=call + min_to,
                             max_raise_to=call + min_to + extra)
    state = IDLE
    for button, hold in zip(keys, holds, strict=False):  # keys may be fewer
        state, d = apply_seat_button(state, legal, key(button, "hold" if hold else "press"))
        if state.pending_raise_to is not None:
            assert legal.min_raise_to <= state.pending_raise_to <= legal.max_raise_to
        if d is not None:
            assert state == IDLE
            if d.action == "bet_or_raise_to":
                assert legal.min_raise_to <= d.amount <= legal.max_raise_to
            else:
                assert d.amount is None


@given(st.integers(1, 300), st.integers(0, 3000), st.integers(0, 2000), st.integers(0, 6000),
       st.sampled_from(["fold", "check_or_call", "bet_or_raise_to"]))
def test_presses_for_round_trips_through_the_interaction(min_to, extra, call, amount, action):
    from engine.betting.seat_input import presses_for

    legal = LegalActions(can_fold=call > 0, can_call=call > 0, can_check=call == 0,
                             call_amount=call, min_raise_to=call + min_to,
                             max_raise_to=call + min_to + extra)
    keys = presses_for(legal, action, amount if action == "bet_or_raise_to" else None)
    if keys is None:
        return
    state, decision = IDLE, None
    for button, kind in keys:
        assert decision is None
        state, decision = apply_seat_button(state, legal, key(button, kind))
    expected = (action, amount if action == "bet_or_raise_to" else None)
    assert decision == expected


def test_presses_for_unreachable_amount_is_none():
    from engine.betting.seat_input import presses_for

    assert presses_for(PREFLOP, "bet_or_raise_to", 50) is None          # 40 + k*20 never hits 50
    assert presses_for(PREFLOP, "bet_or_raise_to", 60) == [("bet_raise", "press")] * 2 + \
        [("check_call", "press")]
    assert presses_for(PREFLOP, "bet_or_raise_to", 1000)[0] == ("bet_raise", "hold")
    assert presses_for(FLOP_OPEN, "fold") is None
