"""A real full disk, simulated with a file-size limit (RLIMIT_FSIZE) on the service process:
writes then fail with EFBIG as on a full SD card."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

from pi_app.service.journal import Journal
from pi_app.service.recovery import recover
from tests.pi_app.service.fake_core import FakeCore
from tests.pi_app.service.helpers import REPO, env_with

LIMIT = 150_000  # bytes per file


def limit() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def test_full_disk_alarm_refusals_and_nothing_unjournaled(tmp_path: Path) -> None:
    journal = tmp_path / "j.db"
    proc = subprocess.run([sys.executable, "-m", "tests.pi_app.service.diskfull_driver", "--journal",
                           str(journal)], cwd=REPO, env=env_with(), capture_output=True,
                          text=True, timeout=120, preexec_fn=limit)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["failed"] and report["reason"]
    assert "JOURNAL UNAVAILABLE" in report["alarm"] and report["screen_alarm_rendered"]
    assert report["counts"]["refused"] > 0 and report["counts"]["display_only"] > 0
    # the clock kept running on screen while the core (unjournaled ticks) did not move
    assert report["screen_clock"] < report["core_clock"]
    # nothing unjournaled was applied: the journal alone rebuilds exactly the final state
    with Journal.open(journal) as j:
        rec = recover(j, FakeCore)
    assert rec.last_seq == report["last_seq"] == report["first_failure_seq"]
    assert rec.core.summary() == report["summary"]
    assert report["summary"]["events_applied"] + report["counts"]["rejected"] == rec.last_seq
