"""Run every benchmark, one after the other (``make bench``); ``--tiny`` runs each once in a
tiny size (what the test suite does, so that no bench can rot).

Each script prints its figures as ratios against the peer it names, measured in the same
run.  A figure that misses its bar is reported, not judged: the exit status is 0 unless a
script itself fails.  Run a script alone (``.venv/bin/python bench/<name>.py --help``) for
its long form.
"""

from __future__ import annotations

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
#: the form ``make bench`` runs (about 10 minutes on CI's machine size)
SHORT = [
    ("bench_engine.py", ["--short", "--players", "6", "2"]),
    ("bench_clock.py", []),
    ("bench_dealing.py", ["--hands", "500"]),
    ("bench_shoe.py", []),
    ("bench_hardware.py", ["--quick"]),
    ("bench_screens.py", ["--frames", "100"]),
    ("bench_service.py", ["--appends", "500", "--events", "10000", "--latency-events", "500"]),
    ("bench_sim.py", ["--short"]),
    ("census7.py", ["--sample", "2000000"]),
    ("bench_night.py", ["--seconds", "21600"]),
    ("bench_idle.py", ["--seconds", "60", "--warmup", "10", "--runs", "1"]),
    ("bench_equity.py", ["--spots", "10"]),
    ("bench_console.py", ["--clients", "20", "--commands", "100", "--idle", "10"]),
    ("bench_page_weight.py", []),
    ("bench_venue.py", []),
    ("bench_venue_live.py", ["--live-seconds", "60", "--skip-night"]),
]
#: each bench once in a tiny size (tests/test_benches.py)
TINY = {
    "bench_engine.py": ["--hands", "5", "--evals", "200", "--players", "2"],
    "bench_clock.py": ["--calls", "50", "--hands", "5"],
    "bench_dealing.py": ["--hands", "5"],
    "bench_shoe.py": ["--frames", "200", "--cards", "50"],
    "bench_hardware.py": ["--quick"],
    "bench_screens.py": ["--frames", "3"],
    "bench_service.py": ["--appends", "5", "--events", "60", "--latency-events", "10",
                         "--idle-seconds", "120", "--hands", "5"],
    "bench_sim.py": ["--tiny", "--players", "3"],
    "census7.py": ["--sample", "2000", "--raw", "2000"],
    "bench_night.py": ["--seconds", "90"],
    "bench_idle.py": ["--seconds", "1", "--warmup", "1", "--runs", "1"],
    "bench_equity.py": ["--spots", "2", "--samples", "500", "--exact-spots", "1",
                        "--exact-boards", "2000"],
    "bench_console.py": ["--clients", "2", "--commands", "3", "--idle", "0.5"],
    "bench_page_weight.py": [],
    "bench_venue.py": ["--tables", "2", "--players", "10", "--nights", "1", "--hands", "5"],
    "bench_venue_live.py": ["--live-seconds", "15", "--live-tables", "2", "--live-players",
                            "8", "--night-tables", "2", "--night-players", "6"],
}


def run(name: str, args: list[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, os.path.join(HERE, name), *args], env=env)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    plan = list(TINY.items()) if "--tiny" in argv else SHORT
    failed = []
    for name, args in plan:
        print(f"\n=== {name} {' '.join(args)}", flush=True)
        if run(name, args).returncode != 0:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
