"""Time from a card-drawn event to its assignment or ruling.

A long random stream of hands (2-10 seats, random folds, raises, all-ins; about 3 % of
draws are irregular: an extra card, a premature board card, a reader repeat) goes through
:class:`engine.dealing.procedure.DealingProcedure`.  Each ``apply(CardDrawn)`` is timed on its own;
the percentiles are printed beside the cost of one engine action
(``Hand.check_or_call`` / ``bet_or_raise_to`` / ``fold`` on a bare ``engine.betting.hand.Hand``)
measured in the same run, as a ratio.  Target: well under 1 ms per card.

Run: ``.venv/bin/python bench/bench_dealing.py [--hands N]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.betting.hand import Hand, HandConfig
from engine.cards import Deck
from engine.dealing.procedure import DealingProcedure
from engine.dealing.registry import make_test_deck
from engine.events import CardDrawn, PlayerAction, ShoeReloaded, StubReshuffled


def _config(rng: random.Random) -> HandConfig:
    n = rng.randint(2, 10)
    seats = sorted(rng.sample(range(1, 11), n))
    stacks = {s: rng.choice([40, 200, 1000, 5000]) for s in seats}
    return HandConfig(stacks=stacks, button=rng.choice(seats), small_blind=10, big_blind=20)


def card_stream(hands: int, seed: int = 1) -> tuple[list[float], int]:
    """Per-card seconds of ``apply(CardDrawn)``; returns (samples, rulings)."""
    rng = random.Random(seed)
    reg = make_test_deck(1)
    samples: list[float] = []
    rulings = 0
    t = 0.0
    for _ in range(hands):
        proc = DealingProcedure(_config(rng), reg, rng.choice(["tda2024", "rrop"]), seed=1)
        cards = list(Deck.shuffled(rng))
        i = 0
        for _step in range(400):
            h = proc.hand
            if proc.stopped:
                proc.apply(ShoeReloaded(t=t))
                cards = list(Deck.shuffled(rng))
                i = 0
                continue
            if h.is_complete:
                break
            t += 0.1
            irregular = rng.random() < 0.03
            if proc.s.due or (irregular and i < 40):
                while cards[i].id in proc.s.seen:
                    i += 1
                uid = reg.uid_of(cards[i])
                i += 1
                ev = CardDrawn(t=t, uid=uid, draw=i)
                t0 = time.perf_counter()
                outs = proc.apply(ev)
                samples.append(time.perf_counter() - t0)
                rulings += sum(1 for o in outs if o.KIND == "ruling")
                if rng.random() < 0.01:  # reader repeat
                    t0 = time.perf_counter()
                    proc.apply(CardDrawn(t=t, uid=uid, draw=i))
                    samples.append(time.perf_counter() - t0)
            elif proc.s.due == [] and "stub_reshuffled" in proc.expected_next(full=True):
                proc.apply(StubReshuffled(t=t))
            elif h.actor is not None:
                la = h.legal_actions()
                r = rng.random()
                if r < 0.2 and not la.can_check:
                    proc.apply(PlayerAction(t=t, seat=h.actor, action="fold"))
                elif r < 0.35 and la.min_raise_to is not None:
                    proc.apply(PlayerAction(t=t, seat=h.actor, action="bet_or_raise_to",
                                            amount=la.min_raise_to))
                else:
                    proc.apply(PlayerAction(t=t, seat=h.actor, action="check_or_call"))
            elif h.showdown_pending:
                proc.apply(PlayerAction(t=t, seat=h.showdown_pending[0], action="show"))
            else:
                break
    return samples, rulings


def engine_action_cost(hands: int, seed: int = 2) -> float:
    """Seconds per betting action on a bare Hand (the peer figure), the mean."""
    samples = engine_action_samples(hands, seed)
    return sum(samples) / max(len(samples), 1)


def engine_action_samples(hands: int, seed: int = 2) -> list[float]:
    """Seconds of each betting action on a bare Hand over ``hands`` random hands."""
    rng = random.Random(seed)
    samples: list[float] = []
    for _ in range(hands):
        h = Hand(_config(rng))
        deck = Deck.shuffled(rng)
        while not h.is_complete:
            if h.next_deal() is not None:
                h.deal_from(deck)
                continue
            if h.actor is None:
                if h.showdown_pending:
                    h.show(h.showdown_pending[0])
                    continue
                break
            la = h.legal_actions()
            r = rng.random()
            t0 = time.perf_counter()
            if r < 0.2 and not la.can_check:
                h.fold()
            elif r < 0.35 and la.min_raise_to is not None:
                h.bet_or_raise_to(la.min_raise_to)
            else:
                h.check_or_call()
            samples.append(time.perf_counter() - t0)
    return samples


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    a = ap.parse_args(argv)
    samples, rulings = card_stream(a.hands)
    action = engine_action_cost(a.hands)
    us = 1e6
    print(f"card-drawn -> assignment/ruling over {len(samples)} cards "
          f"({a.hands} hands, {rulings} rulings):")
    for p in (50, 90, 99, 99.9):
        v = pct(samples, p)
        print(f"  p{p:<5} {v * us:8.1f} us   ({v / action:5.1f} x one engine action)")
    print(f"  mean   {statistics.fmean(samples) * us:8.1f} us   max {max(samples) * us:.1f} us")
    print(f"one engine action (Hand.check_or_call/bet_or_raise_to/fold): {action * us:.1f} us")
    print(f"target < 1000 us at p99: {'met' if pct(samples, 99) < 1e-3 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
