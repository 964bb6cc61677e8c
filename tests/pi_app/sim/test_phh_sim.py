"""Every shipped real hand, replayed through the whole service (simulated shoe dealing the
recorded cards in dealing order with burns, recorded actions pressed on the mocked seat
keys), ends with exactly the stacks ``pokertable phh replay`` computes for it."""

from __future__ import annotations

import json
import subprocess
import sys

from engine.history.phh import loads_hands
from engine.history.phh_replay import replay_hand
from pi_app.sim.phh_sim import PhhSimulation
from tests.pi_app.sim.helpers import phh_files


def test_every_shipped_hand_matches_phh_replay_through_the_service():
    files = [str(p) for p in phh_files()]
    lines = PhhSimulation(files).run()
    expected = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            for h in loads_hands(f.read(), where=path):
                expected[(path, str(h.label if h.label is not None else "1"))] = replay_hand(h)
    assert len(lines) == len(expected) == 383
    by_key = {(x.file, str(x.hand)): x for x in lines}
    assert set(by_key) == set(expected)
    judged = 0
    for key, ref in expected.items():
        line = by_key[key]
        if ref.status == "ok":
            judged += 1
            assert line.status == "ok", (key, line.reason)
            assert tuple(line.finishing_stacks) == tuple(ref.finishing_stacks), key
        else:
            assert line.status == "skipped", key
    assert judged == 347
    # most actions went through the keys; amounts the keys cannot reach were keyed in
    assert sum(x.pressed for x in lines) > 5 * sum(x.keyed for x in lines)


def test_sim_phh_cli_prints_lines_and_the_count(tmp_path):
    wsop = [str(p) for p in phh_files() if p.name.startswith("WSOP")]
    r = subprocess.run([sys.executable, "-m", "pi_app.cli.main", "sim", "--phh", *wsop],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = r.stdout.strip().splitlines()
    assert out[-1] == "1 passed, 0 failed, 0 skipped"
    line = json.loads(out[0])
    assert line["status"] == "ok" and line["finishing_stacks"][:2] == [18100000, 5625000]


def test_sim_phh_missing_file_is_one_line_exit_2(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pi_app.cli.main", "sim", "--phh",
                        str(tmp_path / "nope.phh")], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "nope.phh" in r.stderr
