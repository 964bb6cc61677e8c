"""Idle CPU and memory of the table service with the clock running (issue 14, item 2).

The service runs as ``pokertable run --config bench/idle-table.toml`` runs it
(:func:`pi_app.service.devices.wire_devices` + :func:`pi_app.service.wiring.run_service`,
real clock), in this process: every device mocked, the real renderer drawing the TV at
1920x1080 on SDL's ``dummy`` driver.  Once it is ready, NEXT HAND is queued on the loop,
which starts the clock (the three players of the config are seated; no card is drawn, so
no hand is played).  After ``--warmup`` seconds, the process's CPU time and RSS are read
from ``/proc/self`` over ``--seconds`` (bar: under 1% of one core, RSS growth at most
10 MB over 60 s).  Peer in the same run: the same service with the TV off.

Run: ``.venv/bin/python bench/bench_idle.py [--seconds 60] [--warmup 10]``
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import MB, cpu_seconds, rss  # noqa: E402

from engine.events import DealerButton  # noqa: E402
from pi_app.service.config import load_config  # noqa: E402
from pi_app.service.devices import wire_devices  # noqa: E402
from pi_app.service.notify import Notifier  # noqa: E402
from pi_app.service.wiring import run_service  # noqa: E402

CONFIG = HERE / "idle-table.toml"


def idle(state: Path, warmup: float, seconds: float, tv: bool) -> tuple[float, float, dict]:
    """Run the idle service; returns (share of one core, RSS growth in bytes, loop counts)."""
    config = load_config(CONFIG, env={"STATE_DIRECTORY": str(state)})
    settings = config.device_settings()
    if not tv:
        settings = dataclasses.replace(settings, tv=None)
    stop = threading.Event()
    ready: list = []

    def on_ready(service) -> None:
        ready.append(service)
        service.loop.put(DealerButton(t=service.loop.clock.now(), button="next_hand"))

    worker = threading.Thread(target=run_service, args=(config,), kwargs={
        "wire": lambda put: wire_devices(settings, put), "notifier": Notifier(None), "install_signal_handlers": False,
        "until": stop.is_set, "on_ready": on_ready}, daemon=True)
    worker.start()
    time.sleep(warmup)
    c0, r0, t0 = cpu_seconds(), rss(), time.monotonic()
    time.sleep(seconds)
    c1, r1, t1 = cpu_seconds(), rss(), time.monotonic()
    stop.set()
    worker.join(timeout=30)
    counts = dict(ready[0].loop.counts) if ready else {}
    return (c1 - c0) / (t1 - t0), r1 - r0, counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--warmup", type=float, default=10.0)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        on = idle(Path(tmp) / "tv", args.warmup, args.seconds, tv=True)
        off = idle(Path(tmp) / "no-tv", args.warmup, args.seconds, tv=False)
    print(f"# bench_idle: {CONFIG.name}, clock running, no hand dealt, "
          f"{args.seconds:.0f} s after {args.warmup:.0f} s; events queued on the loop directly")
    print(f"idle, TV 1080p   CPU {100 * on[0]:5.2f} % of one core (bar < 1 %)  RSS growth "
          f"{on[1] / MB:+5.1f} MB (bar <= 10 MB)  loop {on[2]}")
    print(f"peer: TV off     CPU {100 * off[0]:5.2f} % of one core            RSS growth "
          f"{off[1] / MB:+5.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
