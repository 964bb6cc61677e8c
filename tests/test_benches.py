"""Every bench runs once in a tiny size, so that none can rot (bench/run_all.py TINY).

Nothing here judges a figure: speed is measured in bench/, never asserted by a test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

from run_all import SHORT, TINY  # noqa: E402

HELPERS = {"run_all.py", "common.py"}


def test_every_bench_has_a_tiny_and_a_make_bench_form():
    scripts = {p.name for p in BENCH.glob("*.py")} - HELPERS
    assert scripts == set(TINY), "a bench without a tiny form in bench/run_all.py"
    assert scripts == {name for name, _ in SHORT}, "a bench left out of make bench"


@pytest.mark.parametrize("name", sorted(TINY))
def test_bench_runs_once_in_a_tiny_size(name, tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONDONTWRITEBYTECODE="1", TMPDIR=str(tmp_path))
    r = subprocess.run([sys.executable, str(BENCH / name), *TINY[name]], env=env,
                       capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 0, f"{name} failed:\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    assert r.stdout.strip(), f"{name} printed no figure"
    assert "Traceback" not in r.stderr
