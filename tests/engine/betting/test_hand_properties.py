"""Hypothesis properties: over random tables and random action sequences the chips are
conserved after every operation, the state is never illegal, a rejected action changes
nothing, and a snapshot replays to the same hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.betting.hand import Hand, HandConfig
from engine.cards import ALL_CARDS
from engine.errors import IllegalActionError
from tests.engine.betting.helpers import assert_ids_kept


@st.composite
def configs(draw):
    n = draw(st.integers(2, 10))
    seats = sorted(draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True)))
    no_blinds = draw(st.booleans()) and draw(st.booleans())
    bb = 0 if no_blinds else draw(st.integers(1, 50))
    sb = 0 if no_blinds else draw(st.integers(0, bb))
    stacks = {s: draw(st.integers(1, 3000)) for s in seats}
    kw: dict = {"stacks": stacks, "button": draw(st.integers(1, 10)), "small_blind": sb,
                "big_blind": bb, "ante": draw(st.sampled_from([0, 0, 1, 5, 25])),
                "raise_rule": draw(st.sampled_from(["standard", "double"])),
                "bonus": draw(st.sampled_from([0, 0, 7]))}
    if no_blinds:
        kw["min_bet"] = draw(st.integers(1, 40))
    elif draw(st.booleans()):
        kw["big_blind_ante"] = draw(st.integers(1, 60))
    if not no_blinds and sb and draw(st.integers(0, 4)) == 0:   # dead small blind
        empty = [s for s in range(1, 11) if s not in stacks]
        if empty:
            kw["small_blind_seat"] = empty[0]
            kw["big_blind_seat"] = seats[0]
    if not no_blinds and draw(st.integers(0, 4)) == 0:
        kw["posts"] = {seats[-1]: bb or 1}
    return HandConfig(**kw)


def _snapshot(h: Hand):
    return (h.to_dict(), h.operations, h.stacks, h.bets, h.pots, h.actor, h.street)


def _check_state(h: Hand, total: int) -> None:
    assert h.total_chips() == total
    assert_ids_kept(h)
    assert all(c >= 0 for c in h.stacks.values()) and all(b >= 0 for b in h.bets.values())
    la = h.legal_actions()
    if h.actor is None:
        assert la == type(la)()
        return
    seat = h.actor
    assert h.status(seat) == "active" and h.stacks[seat] > 0
    assert la.can_fold and la.can_check != la.can_call
    assert 0 <= la.call_amount <= h.stacks[seat]
    if la.can_call:
        assert la.call_amount > 0
    if la.min_raise_to is not None:
        assert h.current_bet < la.min_raise_to <= la.max_raise_to
        assert la.max_raise_to == h.stacks[seat] + h.bets[seat]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs(), seed=st.integers(0, 2**32 - 1))
def test_random_play_conserves_chips_and_stays_legal(cfg, seed):
    rng = random.Random(seed)
    h = Hand(cfg)
    total = sum(cfg.stacks.values()) + cfg.bonus
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    steps = 0
    copies: list[tuple[Hand, tuple[list[tuple[int, ...]], tuple[int, ...]]]] = []
    while not h.is_complete:
        steps += 1
        assert steps < 500
        _check_state(h, total)
        if rng.random() < 0.05:
            copies.append((h.copy(), (list(h._hole_ids), h._board_ids)))
        if rng.random() < 0.002:
            h.void("misdeal")
            break
        if h.next_deal() is not None:
            h.deal_from(cards)
            continue
        if h.actor is not None:
            la = h.legal_actions()
            before = _snapshot(h)
            bad = (la.max_raise_to or h.stacks[h.actor] + h.bets[h.actor]) + 1
            with pytest.raises(IllegalActionError, match="legal"):
                h.bet_or_raise_to(bad)
            assert _snapshot(h) == before
            assert_ids_kept(h)
            r = rng.random()
            if r < 0.15:
                h.fold()
            elif r < 0.45 and la.min_raise_to is not None:
                h.bet_or_raise_to(rng.choice([la.min_raise_to, la.max_raise_to,
                                              rng.randint(la.min_raise_to, la.max_raise_to)]))
            elif r < 0.5:
                it = h.interpret_chips(h.actor, rng.randint(0, h.stacks[h.actor]),
                                       chip_count=rng.randint(1, 3))
                if it.action == "check_or_call":
                    h.check_or_call()
                else:
                    h.bet_or_raise_to(it.amount)
            else:
                h.check_or_call()
            continue
        pending = h.showdown_pending
        assert h.street == "showdown" and pending
        s = pending[0] if rng.random() < 0.7 else pending[-1]
        h.show(s) if rng.random() < 0.6 else h.muck(s)
    _check_state(h, total)
    assert h.is_complete and h.actor is None and h.next_deal() is None
    # the pots stay readable after the hand: the pots as they were awarded
    assert [(p.amount, p.eligible) for p in h.pots] == [(a, el) for a, el, _ in h.awards]
    assert sum(h.results.values()) == (0 if h.is_void else cfg.bonus)
    if h.is_void:
        assert h.stacks == dict(cfg.stacks)
    else:
        assert sum(a for a, _, _ in h.awards) == sum(sum(c for _, c in w) for _, _, w in h.awards)
    again = Hand.from_dict(h.to_dict())
    assert again.stacks == h.stacks and again.operations == h.operations
    assert_ids_kept(again)
    assert (again._hole_ids, again._board_ids) == (h._hole_ids, h._board_ids)
    for copy, ids in copies:  # a copy keeps its own ids, whatever the hand did after it
        assert_ids_kept(copy)
        assert (copy._hole_ids, copy._board_ids) == ids
    public = h.public_view()
    hidden = {c for s in h.seats for c in h.hole_cards(s)} - {
        c for s in h.seats for c in h.shown_cards(s)}
    assert not hidden & set(public.board) and all(
        not set(sp.shown_cards) & hidden for sp in public.seats)
