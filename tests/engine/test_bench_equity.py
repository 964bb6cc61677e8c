"""bench/bench_equity.py runs in a tiny size and prints its ratios against eval7 (issue 15)."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.data_paths import REPO


def test_equity_bench_runs_tiny_and_prints_ratios_against_eval7():
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "bench_equity.py"), "--spots", "2",
         "--samples", "500", "--exact-spots", "1", "--exact-boards", "2000"], capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "heads-up preflop, exact (table), 2 spots", "3-way flop, exact, 2 spots",
        "heads-up preflop vs eval7 exact (first 2,000 boards scaled), 1 spots, ours cold",
        "bar", "3-way preflop, Monte Carlo, 500 boards, 1 spots"]
    assert re.search(r"1/75 of eval7's exact enumeration: (met|NOT met) \(eval7/ours median "
                     r"\d+\.\d\)$", lines[3]), lines[3]
    assert "eval7 Monte Carlo (C) of 500 boards" in lines[0]
    for line in lines[:3] + lines[4:]:
        assert re.search(r"ratio ours/eval7 median [\d.e+-]+, p99 [\d.e+-]+$", line), line
    assert "bench_equity.py" in (REPO / "bench" / "run_all.py").read_text()
