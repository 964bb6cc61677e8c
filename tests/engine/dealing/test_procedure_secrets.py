"""Secrets: no public output ever names a hole card that has not been shown or exposed.

Public outputs checked after every event: each outcome's public dict (what the TV, INFO
logs and ``pokertable replay`` print), the public table view, the ruling banner view and
the replay lines of every scenario script.  Hands are random, clean and irregular (random
declarations, premature and extra draws, reshuffles, floor decisions, under every profile).
"""

from __future__ import annotations

import random
import re

import pytest

from engine.cards import Card, Deck
from engine.dealing.irregularities import PROFILES
from engine.dealing.procedure import DealingProcedure
from engine.dealing.scenario import load_scenario
from engine.errors import PokerTableError
from engine.events import CardDrawn, Declaration, PlayerAction, ShoeReloaded, StubReshuffled
from tests.data_paths import data
from tests.engine.dealing.helpers import deck, random_config

DATA = data("dealing")


def secret_cards(proc: DealingProcedure) -> set[Card]:
    h = proc.hand
    exposed = set(proc.s.exposed)
    out = set()
    for seat in h.config.stacks:
        shown = set(h.shown_cards(seat))
        for c in h.hole_cards(seat):
            if c not in shown and c.id not in exposed:
                out.add(c)
    for cards in proc.s.hole_buf.values():
        out.update(c for c in cards if c.id not in exposed)
    return out


def leaks(texts: list[str], secrets: set[Card]) -> list[str]:
    bad = []
    for c in secrets:
        pat = re.compile(rf"(?<![A-Za-z0-9]){re.escape(str(c))}(?![A-Za-z0-9])|{c.name}")
        for t in texts:
            if pat.search(t):
                bad.append(f"{c} in {t[:200]}")
    return bad


def public_texts(proc: DealingProcedure, outs) -> list[str]:
    texts = [str(o.to_dict()) for o in outs]
    texts.append(repr(proc.public_view()))
    rv = proc.ruling_view()
    if rv is not None:
        texts.append(repr(rv))
    return texts


def chaos_hand(seed: int) -> int:
    """One random hand with random irregularities; returns the number of events checked."""
    rng = random.Random(seed)
    cfg = random_config(rng)
    reg = deck(seed % 5)
    profile = rng.choice(list(PROFILES))
    proc = DealingProcedure(cfg, reg, profile, seed=seed)
    cards = list(Deck.shuffled(rng))
    i = 0
    n_events = 0
    for step in range(300):
        t = float(step)
        h = proc.hand
        if h.is_complete and not proc.stopped:
            break
        r = rng.random()
        ev = None
        if proc.stopped:
            ev = ShoeReloaded(t=t)
            cards = list(Deck.shuffled(rng))
            i = 0
        elif r < 0.04 and proc.draws:
            ev = Declaration(t=t, kind=rng.choice(["exposed_card", "boxed_card"]))
        elif r < 0.045 and proc.draws:
            ev = Declaration(t=t, kind=rng.choice(["wrong_seat", "seat_skipped",
                                                   "button_out_of_position", "floor_misdeal",
                                                   "exposed_card"]),
                             seat=rng.randint(1, 10),
                             draw=rng.choice([None, rng.choice(proc.draws).shoe_draw]))
        elif r < 0.047:
            ev = PlayerAction(t=t, seat=rng.randint(1, 10), action="check_call")
        elif r < 0.05:
            ev = StubReshuffled(t=t)
        elif r < 0.07 and proc.pending_ruling() is not None:
            ev = Declaration(t=t, kind=rng.choice(["confirm_ruling", "override_ruling"]))
        elif r < 0.10 or proc.s.due:
            while cards[i] in set(proc.s.hand.board) or cards[i].id in proc.s.seen:
                i += 1
            ev = CardDrawn(t=t, uid=reg.uid_of(cards[i]), draw=step + 1)
            i += 1
        elif h.actor is not None:
            la = h.legal_actions()
            if rng.random() < 0.3 and la.min_raise_to is not None:
                ev = PlayerAction(t=t, seat=h.actor, action="bet_raise",
                                  amount=rng.randint(la.min_raise_to, la.max_raise_to))
            else:
                ev = PlayerAction(t=t, seat=h.actor,
                                  action=rng.choice(["check_call", "check_call", "fold"]))
        elif h.showdown_pending:
            ev = PlayerAction(t=t, seat=h.showdown_pending[0], action=rng.choice(["show", "muck"]))
        else:
            ev = CardDrawn(t=t, uid=reg.uid_of(cards[i]), draw=step + 1)
            i += 1
        try:
            outs = proc.apply(ev)
        except PokerTableError:
            continue
        n_events += 1
        bad = leaks(public_texts(proc, outs), secret_cards(proc))
        assert not bad, (seed, profile, ev, bad)
    return n_events


def test_random_hands_never_leak_hole_cards():
    total = sum(chaos_hand(seed) for seed in range(400))
    assert total > 4000


@pytest.mark.parametrize("path", sorted(DATA.glob("*.jsonl")), ids=lambda p: p.stem)
def test_scenario_outputs_never_leak_hole_cards(path):
    sc = load_scenario(str(path))
    proc = sc.procedure
    for _line, ev in sc.events:
        outs = proc.apply(ev)
        bad = leaks(public_texts(proc, outs), secret_cards(proc))
        assert not bad


def test_exposed_card_may_be_named():
    sc = load_scenario(str(DATA / "d02_exposed_card_replaced.jsonl"))
    proc = sc.procedure
    words = []
    for _line, ev in sc.events:
        for o in proc.apply(ev):
            words.append(str(o.to_dict()))
    exposed = proc.draws[4].card
    assert any(exposed.name in w for w in words)


def test_public_hand_history_of_dealt_hands_hides_unshown_cards():
    from engine.history import phh_export
    from engine.history.phh_write import dumps_hand
    from tests.engine.dealing.helpers import play_random_hand
    checked = 0
    for seed in range(150):
        p = play_random_hand(seed).proc
        if p.hand.is_void:
            continue
        text = dumps_hand(phh_export.hand_to_phh(p.hand), public=True)
        assert not leaks([text], secret_cards(p))
        checked += 1
    assert checked > 100


def test_early_button_press_during_the_deal_is_only_held():
    from engine.dealing.outcomes import ActionHeld
    from tests.engine.dealing.builder import Builder
    b = Builder("x")
    b.draw(2)
    outs = b.proc.apply(PlayerAction(t=9.0, seat=3, action="check_call"))
    assert [type(o) for o in outs] == [ActionHeld] and b.proc.rulings == ()
