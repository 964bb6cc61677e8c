"""Cost of one clock update plus the stats and the ClockView, per call.

The TV redraws every second on a Raspberry Pi, so each redraw pays ``tick(now)`` +
``clock_view(now)`` + ``stats(now)``.  The figure is printed next to the cost of one scripted
hand of the hand engine (``engine.betting.hand``), measured in the same run, as a ratio.

Run: ``.venv/bin/python bench/bench_clock.py [--calls N]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.betting.hand import Hand, HandConfig
from engine.cards import Deck
from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament


def make_tournament() -> Tournament:
    t = Tournament(load_structure("gunpowder"), seed=1)
    for seat in range(1, 10):
        t.register(f"P{seat}", seat)
    t.start(0.0)
    return t


def bench_clock(calls: int) -> float:
    """Seconds per redraw: tick + clock_view + stats, time advancing 1 s per call."""
    t = make_tournament()
    now = 0.0
    start = time.perf_counter()
    for _ in range(calls):
        now += 1.0
        t.tick(now)
        t.clock_view(now)
        t.stats(now)
    return (time.perf_counter() - start) / calls


def scripted_hand(rng: random.Random) -> None:
    """One 9-handed hand: everyone checks or calls to showdown."""
    hand = Hand(HandConfig(stacks=dict.fromkeys(range(1, 10), 6300), button=1,
                           small_blind=100, big_blind=200))
    cards = iter(Deck.shuffled(rng))
    for _ in range(200):
        if hand.is_complete:
            return
        if hand.actor is not None:
            hand.check_or_call()
        elif hand.next_deal() is not None:
            hand.deal_from(cards)
        elif hand.showdown_pending:
            hand.show(hand.showdown_pending[0])
        else:
            return
    raise RuntimeError("the scripted hand did not finish")


def bench_hand(hands: int) -> float:
    """Seconds per scripted hand (:func:`scripted_hand`)."""
    rng = random.Random(7)
    start = time.perf_counter()
    for _ in range(hands):
        scripted_hand(rng)
    return (time.perf_counter() - start) / hands


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=20000, help="redraws to time")
    p.add_argument("--hands", type=int, default=300, help="scripted hands to time")
    args = p.parse_args(argv)
    per_call = bench_clock(args.calls)
    print(f"clock tick + clock_view + stats: {per_call * 1e6:9.1f} us per redraw "
          f"({args.calls} calls)")
    per_hand = bench_hand(args.hands)
    print(f"engine.betting.hand scripted 9-handed hand: {per_hand * 1e6:9.1f} us per hand "
          f"({args.hands} hands)")
    print(f"ratio redraw / hand: {per_call / per_hand:.3f}  "
          f"(redraws per second of one core: {1 / per_call:,.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
