"""A table run for the recovery tests: the real loop and journal over the fake core.

``python -m tests.pi_app.service.recovery_driver --journal J --seed S --hands H [--resume]``
plays H hands (or until one seat has every chip) with scripted inputs on a virtual clock
and prints the core's summary as its last line (JSON).  Inputs are a function of the seed,
the journal's record count and the core's state, so a run killed at any point and resumed
with ``--resume`` must print exactly the same line as an uninterrupted run.
``POKERTABLE_TEST_KILL_AT`` makes it kill itself at a chosen point (pi_app.service.testhooks).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys

from pi_app.service.clock_source import VirtualClock
from pi_app.service.wiring import build_service
from tests.pi_app.service.fake_core import FakeCore, bot_event

STEP = 0.25
OFFSET = 0.125  # bot inputs never coincide with a tick (ticks are on whole seconds)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--journal", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--snapshot-every", type=int, default=25)
    args = ap.parse_args(argv)
    clock = VirtualClock()
    service = build_service(None, journal_path=args.journal, resume=args.resume,
                            core_factory=lambda: FakeCore(), core_class=FakeCore, clock=clock,
                            snapshot_every=args.snapshot_every, tick_interval=1.0)
    loop, journal = service.loop, service.journal
    core: FakeCore = loop.core
    k = math.floor((clock.now() - OFFSET) / STEP) + 1
    while not core.finished() and core.s["hands_played"] < args.hands:
        t = k * STEP + OFFSET
        clock.advance_to(t)
        loop.pump()
        rng = random.Random(f"{args.seed}:{journal.last_seq}")
        loop.put(bot_event(core, rng, t))
        loop.pump()
        k += 1
    service.close()
    print(json.dumps(core.summary(), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
