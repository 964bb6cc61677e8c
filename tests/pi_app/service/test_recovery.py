"""The acceptance test of the journal: SIGKILL at many points, resume, same final result.

Each killed run is resumed (``--resume``) until it completes; its final summary and the
hand-history files it left must equal those of one uninterrupted run with the same seed.
Kill points come from the hooks in :mod:`pi_app.service.testhooks` (inside a journal write, inside
a snapshot, between journaling and applying, between applying and the effects, after a
history file, between a snapshot's commit and the WAL's checkpoint at idle) plus external
SIGKILLs at random moments.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.pi_app.service.helpers import REPO, env_with, histories, last_json, run_driver

SEED = "7"
HANDS = "12"
ARGS = ("--seed", SEED, "--hands", HANDS, "--snapshot-every", "25")


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> dict:
    d = tmp_path_factory.mktemp("baseline")
    journal = d / "j.db"
    proc = run_driver(journal, *ARGS)
    assert proc.returncode == 0, proc.stderr
    con = sqlite3.connect(journal)
    records = con.execute("SELECT count(*) FROM events").fetchone()[0]
    con.close()
    summary = last_json(proc.stdout)
    assert summary["hands_played"] == int(HANDS)
    return {"summary": summary, "histories": histories(journal), "records": records}


def finish(journal: Path, max_restarts: int = 20) -> dict:
    for _ in range(max_restarts):
        proc = run_driver(journal, *ARGS, resume=True)
        if proc.returncode == 0:
            return last_json(proc.stdout)
        assert proc.returncode == -signal.SIGKILL, proc.stderr
    raise AssertionError("the resumed run never finished")


def kill_points(records: int) -> list[str]:
    """A fixed, seeded spread of kill points over the whole run."""
    rng = random.Random(2026)
    hands = int(HANDS)
    snaps = records // 25
    points = []
    for name, top, n in (("journal_append", records, 5), ("journal_write", records, 6),
                         ("journal_commit", records, 5), ("apply", records, 4),
                         ("effects", 2 * hands, 3), ("snapshot", snaps, 4),
                         ("snapshot_commit", snaps, 2), ("journal_checkpoint", snaps, 2)):
        picks = {1, top} if n > 3 else set()
        while len(picks) < n:
            picks.add(rng.randint(1, top))
        points += [f"{name}:{k}" for k in sorted(picks)]
    return points


def test_uninterrupted_run_is_deterministic(baseline: dict, tmp_path: Path) -> None:
    proc = run_driver(tmp_path / "j.db", *ARGS)
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc.stdout) == baseline["summary"]
    assert histories(tmp_path / "j.db") == baseline["histories"]
    # resuming a finished journal replays to the same result and plays nothing more
    again = run_driver(tmp_path / "j.db", *ARGS, resume=True)
    assert last_json(again.stdout) == baseline["summary"]


def test_kill_points_cover_the_run(baseline: dict) -> None:
    assert baseline["records"] > 200  # enough inputs for the spread below to mean something
    assert len(kill_points(baseline["records"])) >= 25


def _killed_then_resumed(point: str, journal: Path, baseline: dict) -> str | None:
    """Run with a kill at ``point``, then resume until done: what went wrong, or None."""
    proc = run_driver(journal, *ARGS, kill_at=point)
    if proc.returncode != -signal.SIGKILL:
        return f"{point}: not killed ({proc.stderr[-500:]})"
    summary = finish(journal)
    if summary != baseline["summary"] or histories(journal) != baseline["histories"]:
        return f"{point}: another result"
    return None


def test_sigkill_at_every_hook_point_then_resume(baseline: dict, tmp_path: Path) -> None:
    # each kill point has a journal of its own, so its runs are independent of the other
    # points': two points at a time, one per core of the CI machine
    points = kill_points(baseline["records"])
    journals = [tmp_path / f"run{i}" / "j.db" for i in range(len(points))]
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(_killed_then_resumed, points, journals,
                                 [baseline] * len(points)))
    assert len(outcomes) == len(points) >= 25
    assert [o for o in outcomes if o is not None] == []


def test_sigkill_while_creating_the_journal(baseline: dict, tmp_path: Path) -> None:
    journal = tmp_path / "j.db"
    proc = run_driver(journal, *ARGS, kill_at="journal_create:1")
    assert proc.returncode == -signal.SIGKILL
    assert not journal.exists()  # built aside, never linked in: nothing at the path
    assert finish(journal) == baseline["summary"]
    assert histories(journal) == baseline["histories"]


def test_repeated_kills_in_one_tournament(baseline: dict, tmp_path: Path) -> None:
    journal = tmp_path / "j.db"
    rng = random.Random(99)
    names = ["journal_write", "snapshot", "journal_commit", "apply", "journal_append"]
    kills = 0
    for _ in range(8):
        name = rng.choice(names)
        point = f"{name}:{rng.randint(1, 2 if name == 'snapshot' else 40)}"
        proc = run_driver(journal, *ARGS, kill_at=point, resume=journal.exists())
        if proc.returncode == 0:
            break
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        kills += 1
    assert kills >= 3
    assert finish(journal) == baseline["summary"]
    assert histories(journal) == baseline["histories"]


def _start_external(journal: Path) -> tuple[subprocess.Popen[str], float]:
    """The driver started on ``journal``; returns once its journal exists (or it ended),
    with that moment (``time.monotonic``)."""
    cmd = [sys.executable, "-m", "tests.pi_app.service.recovery_driver", "--journal", str(journal),
           *ARGS[:4], "--snapshot-every", "25"]
    proc = subprocess.Popen(cmd, cwd=REPO, env=env_with(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not journal.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.0005)
    return proc, time.monotonic()


def test_sigkill_from_outside_at_random_moments(baseline: dict, tmp_path: Path) -> None:
    rng = random.Random(5)
    # how long a run plays once its journal exists, here and now (on a RAM disk it is a
    # few tens of milliseconds; on a busy disk, seconds): the kills fall inside it
    proc, start = _start_external(tmp_path / "whole" / "j.db")
    proc.communicate()
    span = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    killed = tries = 0
    # a busy machine may let a run end before its kill (its journal seen late, the kill
    # late): every run is checked, and runs go on until three were killed (at most 16)
    while killed < 3 and tries < 16:
        journal = tmp_path / f"ext{tries}" / "j.db"
        tries += 1
        proc, _ = _start_external(journal)
        time.sleep(span * rng.uniform(0.05, 0.6))  # a random moment of the run
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        if proc.returncode == -signal.SIGKILL:
            killed += 1
        else:
            assert proc.returncode == 0, proc.stderr
        assert finish(journal) == baseline["summary"]
        assert histories(journal) == baseline["histories"]
    assert killed >= 1, f"no run of {tries} was killed mid-way (each {span:.3f} s long)"
