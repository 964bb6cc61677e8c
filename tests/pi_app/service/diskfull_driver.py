"""Run the service until the journal's disk is "full", then keep going for a while.

``python -m tests.pi_app.service.diskfull_driver --journal J [--after N]``: meant to run under
a file-size limit (RLIMIT_FSIZE, set by the test), which makes writes fail with EFBIG as
on a full SD card.  Prints one JSON line: what the loop did once the journal failed.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys

from engine.events import DealerButton
from pi_app.service.clock_source import VirtualClock
from pi_app.service.wiring import build_service
from tests.pi_app.service.fake_core import FakeCore, bot_event


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--journal", required=True)
    ap.add_argument("--after", type=int, default=40)
    ap.add_argument("--max-steps", type=int, default=200_000)
    args = ap.parse_args(argv)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # as run_service does
    screens = []
    clock = VirtualClock()
    service = build_service(None, journal_path=args.journal, core_class=FakeCore,
                            core_factory=lambda: FakeCore(
        dict.fromkeys(range(1, 7), 10 ** 9)), clock=clock, snapshot_every=50, tick_interval=1.0)
    service.loop.tv = screens.append
    loop, journal, core = service.loop, service.journal, service.loop.core
    steps_after = None
    first_failure_seq = None
    clock_at_failure = None
    for step in range(args.max_steps):
        t = step * 0.25 + 0.125
        clock.advance_to(t)
        loop.pump()
        loop.put(bot_event(core, random.Random(f"1:{step}"), t))
        loop.pump()
        if not loop.journal_ok and steps_after is None:
            steps_after = 0
            first_failure_seq = journal.last_seq
            clock_at_failure = loop.screen_state().clock.remaining_seconds
        if steps_after is not None:
            steps_after += 1
            if steps_after >= args.after:
                break
    # with the journal down, a new hand is refused
    new_hand = loop.handle(DealerButton(t=clock.now(), button="next_hand")) \
        if core.s["hand"] is None else "hand_in_progress"
    screen = loop.screen_state()
    print(json.dumps({
        "failed": steps_after is not None, "first_failure_seq": first_failure_seq,
        "last_seq": journal.last_seq, "reason": getattr(loop.journal_error, "reason", None),
        "alarm": screen.alarm, "counts": loop.counts, "new_hand": new_hand,
        "screen_alarm_rendered": any(s.alarm for s in screens),
        "clock_at_failure": clock_at_failure,
        "screen_clock": screen.clock.remaining_seconds,
        "core_clock": core.screen_state().clock.remaining_seconds,
        "summary": core.summary(),
    }, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
