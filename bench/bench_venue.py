"""The venue director's CPU per hand: a whole night of a venue of ``--tables`` tables of
nine and ``--players`` players, the director's rules (``engine.tournament.venue``) against
the model tables of the tests (tests/engine/tournament/venue_model.py, no broker), timed
inside the director's steps only.  The figure is printed next to the cost of one scripted
9-handed hand of the hand engine (``engine.betting.hand``, as bench_clock.py plays it),
measured in the same run, as a ratio.

The issue's other venue figures (a bust until the move shows on both TVs, the clock skew
between TVs, the wall time of a 10-table simulated venue through the broker) are not
measured here.

Run: ``.venv/bin/python bench/bench_venue.py [--tables N --players M --nights K]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_clock import bench_hand
from engine.tournament import venue
from engine.tournament.venue import VenueSetup
from tests.engine.tournament.venue_model import play_night

LEVELS = ((0, 100, 200, 0, 600_000), (1, 200, 400, 0, 600_000), (2, 300, 600, 0, 600_000),
          (3, 400, 800, 0, 600_000), (4, 500, 1000, 0, 600_000))


def bench_director(tables: int, players: int, nights: int) -> tuple[float, int]:
    """(CPU seconds in the director's steps per hand, hands played) over ``nights``."""
    spent = [0.0]
    real_step = venue.step

    def timed(*args: object) -> object:
        start = time.process_time()
        try:
            return real_step(*args)  # type: ignore[arg-type]
        finally:
            spent[0] += time.process_time() - start

    import tests.engine.tournament.venue_model as model
    model.step = timed  # type: ignore[assignment]
    hands = 0
    try:
        for night in range(nights):
            setup = VenueSetup((9,) * tables, tuple(range(1, tables + 1)), 1, LEVELS)
            result = play_night(setup, players, seed=night, arrival_seed=night,
                                chips=6300).state.result()
            hands += result["hands_played"]
    finally:
        model.step = real_step
    return spent[0] / max(1, hands), hands


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=10, help="tables of nine seats")
    p.add_argument("--players", type=int, default=90, help="players (P01...)")
    p.add_argument("--nights", type=int, default=3, help="nights to time")
    p.add_argument("--hands", type=int, default=300, help="scripted engine hands (peer)")
    args = p.parse_args(argv)
    random.seed(0)
    per_hand, hands = bench_director(args.tables, args.players, args.nights)
    print(f"venue director ({args.tables} tables, {args.players} players): "
          f"{per_hand * 1e6:9.1f} us CPU per hand ({hands} hands, {args.nights} nights)")
    peer = bench_hand(args.hands)
    print(f"engine.betting.hand scripted 9-handed hand: {peer * 1e6:9.1f} us per hand "
          f"({args.hands} hands)")
    print(f"ratio director per hand / engine hand: {per_hand / peer:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
