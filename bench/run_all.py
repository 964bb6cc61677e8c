"""Run every benchmark in its short form, one after the other (``make bench``).

Each script prints its figures as ratios against the peer it names, measured in the same
run.  Run a script alone (``.venv/bin/python bench/<name>.py --help``) for the long form.
"""

from __future__ import annotations

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHORT = [
    ("bench_engine.py", ["--short"]),
    ("bench_clock.py", []),
    ("bench_dealing.py", ["--hands", "500"]),
    ("bench_shoe.py", []),
    ("bench_hardware.py", ["--quick"]),
    ("bench_screens.py", ["--frames", "100"]),
    ("bench_service.py", ["--appends", "500", "--events", "2000", "--latency-events", "300"]),
    ("bench_sim.py", ["--short"]),
    ("census7.py", ["--sample", "2000000"]),
    ("bench_equity.py", ["--spots", "10"]),
]


def main() -> int:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    failed = []
    for name, args in SHORT:
        print(f"\n=== {name} {' '.join(args)}", flush=True)
        r = subprocess.run([sys.executable, os.path.join(HERE, name), *args], env=env)
        if r.returncode != 0:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
