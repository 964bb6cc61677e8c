"""The acceptance test of the service: ``pokertable sim --journal J`` killed with SIGKILL at
any moment, then ``--resume``d, prints exactly the final JSON of an uninterrupted run.

Kill points cover every stage of handling an event (before a journal write, mid-write
before the commit, after the commit before the apply, after the apply, mid-way through
writing hand histories, during and after a snapshot) plus kills at random wall-clock
moments, and a second kill during the resumed run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

ARGS = ["sim", "--preset", "gunpowder", "--players", "6", "--seed", "5", "--until-winner",
        "--json", "--headless"]


def _run(args, env_extra=None, timeout=300):
    env = dict(os.environ)
    env.pop("POKERTABLE_TEST_KILL_AT", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "pi_app.cli.main", *args], capture_output=True,
                          text=True, env=env, timeout=timeout)


def _last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def run_facts(tmp_path_factory):
    j = tmp_path_factory.mktemp("ref") / "j.db"
    r = _run(ARGS + ["--journal", str(j)])
    assert r.returncode == 0, r.stderr
    ref = _last_json(r.stdout)
    assert ref["hands_played"] > 10 and len(ref["final_stacks"]) == 1
    state = _run(["state", "--journal", str(j), "--json"])
    events = json.loads(state.stdout)["recovery"]["last_seq"]
    return ref, events


@pytest.fixture(scope="module")
def reference(run_facts):
    return run_facts[0]


# (kill point, where in the run as a share of its events or hand histories)
KILL_POINTS = [
    ("journal_append", 0.01), ("journal_write", 0.07), ("journal_commit", 0.15),
    ("apply", 0.25), ("effects", 0.3), ("snapshot", 0.4), ("snapshot_commit", 0.5),
    ("journal_write", 0.66), ("apply", 0.8), ("effects", 0.9), ("journal_write", 0.99),
]


@pytest.mark.parametrize("point,share", KILL_POINTS)
def test_killed_at_a_point_then_resumed(tmp_path, run_facts, point, share):
    reference, events = run_facts
    if point == "effects":  # two hand histories (private and public) per hand
        n = max(1, int(2 * reference["hands_played"] * share))
    elif point.startswith("snapshot"):  # a snapshot every 200 events
        n = max(1, int(events / 200 * share))
    else:
        n = max(1, int(events * share))
    j = tmp_path / "j.db"
    r = _run(ARGS + ["--journal", str(j)], {"POKERTABLE_TEST_KILL_AT": f"{point}:{n}"})
    assert r.returncode == -signal.SIGKILL, (point, n, r.returncode, r.stderr[-2000:])
    r2 = _run(ARGS + ["--journal", str(j), "--resume"])
    assert r2.returncode == 0, r2.stderr[-2000:]
    assert _last_json(r2.stdout) == reference


def _wait_for_journal(path, proc, limit=60.0):
    """Wait until the run has created its journal (or ended), so a kill lands mid-run."""
    deadline = time.monotonic() + limit
    while not path.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)


def test_a_device_saying_hello_again_does_not_move_the_table_timing():
    """A resumed run's shoe (and any device) announces itself again at the time the run
    stopped; if that counted as a table input, every later step would come later than in
    the run that never stopped (a kill just after clock ticks were journaled gave another
    tournament)."""
    from engine.events import ClockTick, DeviceStatus, ShoeStatus
    from engine.table.core import TableCore
    from pi_app.sim.policy import next_step
    from pi_app.sim.simulator import SimOptions, settings_for

    core = TableCore.new(settings_for(SimOptions(preset="gunpowder", players=6, seed=5)))
    core.apply(ShoeStatus(t=0.0, online=True, reason="shoe online"))
    core.apply(ClockTick(t=20.0))
    before = next_step(core, seed=5)
    core.apply(ShoeStatus(t=20.0, online=True, reason="shoe online (after a restart)"))
    core.apply(DeviceStatus(t=20.0, device="tv", online=True, detail="tv online"))
    assert next_step(core, seed=5) == before
    assert before.at == 20.0  # the first hand 20 s after the last real input (t=0)


def test_killed_at_random_moments_twice(tmp_path, reference):
    """Kills land anywhere from just after the journal appears (its creation, the genesis
    and the first events) to well into the run."""
    rng = random.Random(20261129)
    for attempt in range(3):
        j = tmp_path / f"j{attempt}.db"
        for i in range(2):  # kill the first run, then the resumed one
            args = ARGS + ["--journal", str(j)] + (["--resume"] if i else [])
            p = subprocess.Popen([sys.executable, "-m", "pi_app.cli.main", *args],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _wait_for_journal(j, p)  # a loaded machine may take long to start
            time.sleep(rng.uniform(0.05, 1.6))
            p.send_signal(signal.SIGKILL)
            p.communicate()
        r = _run(ARGS + ["--journal", str(j), "--resume"])
        assert r.returncode == 0, r.stderr[-2000:]
        assert _last_json(r.stdout) == reference


def test_resume_without_journal_is_one_line_exit_2(tmp_path):
    r = _run(ARGS + ["--journal", str(tmp_path / "missing.db"), "--resume"])
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "missing.db" in r.stderr
    r = _run(["sim", "--resume"])
    assert r.returncode == 2 and "--journal" in r.stderr
