"""bench/bench_console.py runs once in a tiny size (speed is measured there, not here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_console.py"


def test_console_bench_runs_and_names_its_peers():
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    r = subprocess.run([sys.executable, str(BENCH), "--clients", "2", "--commands", "3",
                        "--idle", "0.5"], capture_output=True, text=True, env=env,
                       timeout=300, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert any(line.startswith("command to push to 2 pages") and "p99" in line for line in lines)
    assert any("peer, the command's HTTP answer alone" in line for line in lines)
    assert any(line.startswith("idle CPU with 2 pages") for line in lines)
    assert any("peer, no page connected" in line for line in lines)
