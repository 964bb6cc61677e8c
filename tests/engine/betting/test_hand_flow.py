"""The flow of a hand (engine/betting/hand_flow.py): the players still to act are kept, not
searched for.  Over random tables and actions the kept list is, at every step, exactly
the players the rules say are still to act, in order from the seat to act; and the seat
to act after each action is the one a scan of every seat from the last actor finds (the
engine's former search, restated here as the reference)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.betting.hand import Hand, HandConfig
from engine.cards import ALL_CARDS
from tests.engine.betting.oracle import apply, choose
from tests.engine.betting.test_hand_properties import configs


def scan_from(h: Hand, start: int) -> int | None:
    """The first position from ``start``, clockwise, still to act: not folded, chips
    behind, facing more than it put in or (two or more players with chips behind) not
    yet acted; alone with chips behind, only facing a bet it can call more of."""
    n = h._n
    many = sum(1 for j in range(n) if not h._folded[j] and h._stack[j] > 0) >= 2
    for k in range(start, start + n):
        j = k % n
        if h._folded[j] or h._stack[j] == 0:
            continue
        if not (h._bet[j] < h._cur or (many and not h._acted[j])):
            continue
        if not many and h._bet[j] >= max(
                (h._bet[x] for x in range(n) if x != j and not h._folded[x]), default=0):
            continue
        return j
    return None


def check_kept(h: Hand) -> None:
    """While a player is to act, the kept list is the rules' set, clockwise from the actor."""
    n = h._n
    still = {j for j in range(n) if not h._folded[j] and h._stack[j] > 0
             and (h._bet[j] < h._cur or not h._acted[j])}
    kept = h._to_act
    assert set(kept) == still and len(kept) == len(still)
    assert kept[-1] == h._actor
    order = [(j - h._actor) % n for j in reversed(kept)]
    assert order == sorted(order)
    assert h._active == [j for j in range(n) if not h._folded[j] and h._stack[j] > 0]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs(), seed=st.integers(0, 2**32 - 1))
def test_the_kept_players_to_act_are_the_rules_and_the_scan(cfg, seed):
    rng = random.Random(seed)
    h = Hand(cfg)
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    while not h.is_complete:
        if h.next_deal() is not None:
            h.deal_from(cards)
        elif h._actor is not None:
            check_kept(h)
            last, street = h._actor, h._street
            apply(h, choose(h, rng))
            if h._street == street and not h._queue and h._actor is not None:
                assert h._actor == scan_from(h, last + 1)
        else:
            for s in h.showdown_pending:
                h.show(s)
    assert h.total_chips() == sum(cfg.stacks.values()) + cfg.bonus


def test_a_raise_puts_every_other_player_with_chips_back_to_act_in_order():
    h = Hand(HandConfig(stacks={2: 500, 3: 500, 5: 500, 7: 200}, button=7, small_blind=5,
                        big_blind=10))
    h.deal_from(ALL_CARDS)
    assert h.seats == (2, 3, 5, 7) and h.actor == 5      # left of the big blind (seat 3)
    assert to_act(h) == [5, 7, 2, 3]
    h.check_or_call()                                    # 5 calls
    h.check_or_call()                                    # 7 calls
    h.check_or_call()                                    # 2, the small blind, completes
    assert to_act(h) == [3]                              # the big blind's option
    h.bet_or_raise_to(40)                                # 3 raises
    assert to_act(h) == [5, 7, 2]
    h.fold()                                             # 5 folds
    h.bet_or_raise_to(200)                               # 7 re-raises all-in
    assert h.stack(7) == 0 and to_act(h) == [2, 3] and h.actor == 2


def to_act(h: Hand) -> list[int]:
    """The seats still to act, the seat to act first."""
    return [h._seats[j] for j in reversed(h._to_act)]
