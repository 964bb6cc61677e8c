"""``python -m tests.pi_app.service.service_driver --journal J``: the real daemon life cycle
(:func:`pi_app.service.wiring.run_service`, real clock, signals, systemd notify) over the fake
core, with a fake input device that presses NEXT HAND once and bets now and then."""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time

from engine.events import DealerButton, PlayerAction
from pi_app.service.devices import Devices
from pi_app.service.wiring import run_service
from tests.pi_app.service.fake_core import FakeCore


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--journal", required=True)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    stop = threading.Event()
    frames: list = []

    class FakeDevices(Devices):
        def show_screen(self, state) -> None:
            frames.append(state)

        def close(self) -> None:
            stop.set()
            print(f"closed after {len(frames)} frames", file=sys.stderr, flush=True)

    def wire(put) -> Devices:
        def feed() -> None:
            put(DealerButton(t=time.monotonic(), button="next_hand"))
            while not stop.wait(0.05):
                put(PlayerAction(t=time.monotonic(), seat=1, action="bet_raise", amount=1))
        threading.Thread(target=feed, daemon=True).start()
        return FakeDevices()

    status = run_service(None, journal_path=args.journal, core_factory=FakeCore,
                         core_class=FakeCore, wire=wire,
                         on_ready=lambda s: print("ready", flush=True))
    print(f"exit {status}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
