"""Helpers for the service tests: run the recovery driver in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.data_paths import REPO


def env_with(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "POKERTABLE_TEST_KILL_AT"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def run_driver(journal: Path, *args: str, kill_at: str | None = None, resume: bool = False,
               timeout: float = 120, preexec_fn=None) -> subprocess.CompletedProcess[str]:
    """``python -m tests.pi_app.service.recovery_driver --journal J ...`` (killing itself at
    ``kill_at`` when given)."""
    cmd = [sys.executable, "-m", "tests.pi_app.service.recovery_driver", "--journal", str(journal),
           *args]
    if resume:
        cmd.append("--resume")
    extra = {"POKERTABLE_TEST_KILL_AT": kill_at} if kill_at else {}
    return subprocess.run(cmd, cwd=REPO, env=env_with(**extra), capture_output=True,
                          text=True, timeout=timeout, preexec_fn=preexec_fn)


def last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def histories(journal: Path) -> dict[str, str]:
    """Every hand-history file written for ``journal`` (relative name -> text)."""
    root = journal.parent / f"{journal.stem}-hands"
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*.phh"))}
