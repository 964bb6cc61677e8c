"""Hands played by our engine, written as PHH, read back and replayed (engine.history.phh_export)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.betting.hand import Hand, HandConfig
from engine.cards import Deck
from engine.history.phh import PhhError, loads_hand, loads_hands
from engine.history.phh_export import hand_parts, hand_to_phh
from engine.history.phh_replay import OK, replay_hand
from engine.history.phh_write import dumps_hand, dumps_hands


def play(cfg: HandConfig, rng: random.Random) -> Hand:
    """Random legal play to the end: random deck, random actions, random show/muck."""
    hand = Hand(cfg)
    deck = list(Deck.shuffled(rng))
    while not hand.is_complete:
        if hand.next_deal() is not None:
            hand.deal_from(deck)
            deck = [c for c in deck if c not in set(_dealt(hand))]
        elif hand.actor is not None:
            la = hand.legal_actions()
            r = rng.random()
            if la.min_raise_to is not None and r < 0.3:
                hi = la.max_raise_to if rng.random() < 0.3 else min(la.max_raise_to,
                                                                    la.min_raise_to * 2)
                hand.bet_or_raise_to(rng.randint(la.min_raise_to, hi))
            elif la.can_fold and not la.can_check and r < 0.45:
                hand.fold()
            else:
                hand.check_or_call()
        else:
            seat = hand.showdown_pending[0]
            if hand.can_muck(seat) and rng.random() < 0.3:
                hand.muck(seat)
            else:
                hand.show(seat)
    return hand


def _dealt(hand):
    return [op.card for op in hand.operations if op.OP in ("deal_hole", "burn", "deal_board")]


@st.composite
def configs(draw):
    n = draw(st.integers(2, 9))
    seats = sorted(draw(st.sets(st.integers(1, 10), min_size=n, max_size=n)))
    bb = draw(st.sampled_from([2, 4, 10]))
    stacks = {s: draw(st.integers(1, 60)) * bb // 2 + draw(st.integers(0, 3)) for s in seats}
    stacks = {s: max(c, 1) for s, c in stacks.items()}
    kind = draw(st.sampled_from(["plain", "ante", "bb_ante"]))
    return HandConfig(
        stacks=stacks, button=draw(st.sampled_from(seats)), small_blind=bb // 2, big_blind=bb,
        ante=bb // 4 if kind == "ante" else 0, big_blind_ante=bb if kind == "bb_ante" else 0,
        burn_cards=draw(st.booleans()))


@settings(max_examples=150, deadline=None)
@given(cfg=configs(), seed=st.integers(0, 2**32 - 1))
def test_engine_hands_round_trip_and_replay_to_the_same_stacks(cfg, seed):
    hand = play(cfg, random.Random(seed))
    phh = hand_to_phh(hand, extra={"event": "test", "hand": seed})
    text = dumps_hand(phh, public=False)
    back = loads_hand(text)
    assert back == phh
    assert dumps_hand(back, public=False) == text
    r = replay_hand(back)
    assert r.status == OK, r.reason
    assert r.finishing_stacks == tuple(hand.stacks[s] for s in hand.seats)
    assert r.seats == tuple(hand.seats)
    # The public text never names a hole card that was not shown at the table.
    public = dumps_hand(phh)
    shown = {c for op in hand.operations if op.OP == "show" for c in op.cards}
    hidden = [op.card for op in hand.operations if op.OP == "deal_hole" and op.card not in shown]
    for card in hidden:
        assert str(card) not in public
    for a in loads_hand(public).actions:
        if a.kind == "deal_hole" and not set(a.cards) <= shown:
            assert a.cards == (None, None)
    # the texts a table writes as a hand ends (each action formatted once) are these
    parts = hand_parts(hand, extra={"event": "test", "hand": seed})
    assert parts.private_text() == text and parts.public_text() == public
    assert parts.phh() == phh
    STATS["hands"] += 1
    STATS["showdowns"] += any(op.OP == "show" for op in hand.operations)
    STATS["all_in"] += any(getattr(op, "all_in", False) for op in hand.operations)


STATS = {"hands": 0, "showdowns": 0, "all_in": 0}


def test_the_random_hands_covered_showdowns_and_all_ins():
    test_engine_hands_round_trip_and_replay_to_the_same_stacks()
    assert STATS["hands"] >= 100
    assert STATS["showdowns"] >= 10 and STATS["all_in"] >= 10, STATS


def test_heads_up_lists_are_reversed_like_pokerkit():
    cfg = HandConfig(stacks={3: 100, 7: 100}, button=7, small_blind=1, big_blind=2, ante=0,
                     big_blind_ante=2)
    hand = play(cfg, random.Random(1))
    phh = hand_to_phh(hand)
    # p1 = the big blind (seat 3), p2 = the button (seat 7) posts the first entry.
    assert phh.seats == (3, 7)
    assert phh.blinds_or_straddles == (1, 2)
    assert phh.antes == (0, 2)
    assert replay_hand(phh).finishing_stacks == (hand.stacks[3], hand.stacks[7])


def test_several_hands_as_phhs():
    hands = [hand_to_phh(play(HandConfig(stacks={1: 50, 2: 60, 3: 70}, button=b,
                                         small_blind=1, big_blind=2), random.Random(b)))
             for b in (1, 2, 3)]
    text = dumps_hands(hands, public=False)
    assert text.startswith("[1]\n") and "\n\n[3]\n" in text
    assert loads_hands(text) == hands


def test_void_hand_has_no_phh_form():
    hand = Hand(HandConfig(stacks={1: 50, 2: 60}, button=1, small_blind=1, big_blind=2))
    hand.void("misdeal")
    with pytest.raises(PhhError):
        hand_to_phh(hand)
