"""7-card census: all 133,784,560 seven-card hands through engine.evaluation.

Usage:
    python bench/census7.py               # full census, split over all cores
    python bench/census7.py --workers 1   # one process
    python bench/census7.py --sample 1000000 --seed 1   # quick random sample

Prints the category counts, the number of distinct values, hands per second, and
compares with the known totals (standard combinatorics).  For the sample it
prints observed against expected frequencies.  Exit status 1 if a full census differs.
The ratio printed is the raw native phevaluator on card ids against our public
``evaluate_value`` on Cards, over the same hands in the same run (``--raw`` hands); the
census itself calls the native evaluator on ids, its hands/s are printed apart.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations, islice, starmap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.census import CensusResult, census, sample_census, total_hands

EXPECTED_7 = {
    "straight_flush": 41_584,
    "four_of_a_kind": 224_848,
    "full_house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three_of_a_kind": 6_461_620,
    "two_pair": 31_433_400,
    "one_pair": 58_627_800,
    "high_card": 23_294_460,
}
EXPECTED_DISTINCT_7 = 4_824


def _part(lows: list[int]) -> CensusResult:
    return census(7, lowest_cards=lows)


def full(workers: int) -> CensusResult:
    # Balance the work: hands with lowest card k number C(51-k, 6), so deal the
    # lowest cards round-robin from the heaviest.
    buckets: list[list[int]] = [[] for _ in range(workers)]
    for i, low in enumerate(range(46)):
        buckets[i % workers].append(low)
    if workers == 1:
        return census(7)
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_part, buckets))
    result = parts[0]
    for p in parts[1:]:
        result = result.merged(p)
    return result


def raw_rate(n: int = 5_000_000) -> tuple[float, float]:
    """Hands per second of the raw native evaluator on card ids, and of our public
    :func:`engine.evaluation.evaluate_value` on the same n hands as Cards."""
    from phevaluator._pheval import evaluate_7cards

    from engine.cards import Card
    from engine.evaluation import evaluate_value

    hands = list(islice(combinations(range(52), 7), n))
    t = time.perf_counter()
    Counter(starmap(evaluate_7cards, hands))
    raw = n / (time.perf_counter() - t)
    deck = [Card.from_id(i) for i in range(52)]
    cards = [[deck[i] for i in h] for h in hands]
    t = time.perf_counter()
    Counter(map(evaluate_value, cards))
    ours = n / (time.perf_counter() - t)
    return raw, ours


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sample", type=int, default=None, help="random hands instead of all")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--raw", type=int, default=1_000_000, help="hands of the peer comparison")
    args = ap.parse_args()

    raw, ours = raw_rate(args.raw)
    print(f"single core, same {args.raw:,} hands: raw native phevaluator on ids {raw:,.0f} "
          f"hands/s, engine.evaluation.evaluate_value on Cards {ours:,.0f} hands/s, ratio "
          f"raw/ours {raw / ours:.2f}x")

    t = time.perf_counter()
    if args.sample:
        result = sample_census(7, args.sample, random.Random(args.seed))
    else:
        result = full(max(1, args.workers))
    elapsed = time.perf_counter() - t
    workers = 1 if args.sample else max(1, args.workers)
    print(f"{result.hands:,} hands in {elapsed:.1f} s "
          f"({result.hands / elapsed:,.0f} hands/s, {workers} process(es))")

    total = total_hands(7)
    ok = True
    print(f"{'category':<16} {'count':>12} {'expected':>12}")
    for name, expected in EXPECTED_7.items():
        got = result.categories[name]
        if args.sample:
            print(f"{name:<16} {got / result.hands:>12.6f} {expected / total:>12.6f}")
        else:
            mark = "" if got == expected else "  MISMATCH"
            ok &= got == expected
            print(f"{name:<16} {got:>12,} {expected:>12,}{mark}")
    print(f"distinct values: {result.distinct_values:,} (expected {EXPECTED_DISTINCT_7:,} "
          f"over all hands)")
    if not args.sample:
        ok &= result.distinct_values == EXPECTED_DISTINCT_7 and result.hands == total
        print("census matches" if ok else "CENSUS MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
