"""``sim --resume`` with other options than the journal was made with is refused before
anything is written: the journal, its ``-wal`` (not folded in) and its hand histories are
byte for byte as they were, and the refusal is one line with exit status 2."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
from pathlib import Path

ARGS = ["sim", "--preset", "gunpowder", "--players", "6", "--until-winner", "--json",
        "--headless"]


def _run(args, env_extra=None):
    env = dict(os.environ)
    env.pop("POKERTABLE_TEST_KILL_AT", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "pi_app.cli.main", *args],
                          capture_output=True, text=True, env=env, timeout=300)


def _files(folder: Path) -> dict[str, str]:
    """Every file's digest, but SQLite's ``-shm`` (the WAL's shared-memory index, which
    any reader rebuilds; it holds no record)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.endswith("-shm")}


def test_resume_with_another_seed_changes_no_file(tmp_path):
    j = tmp_path / "j.db"
    killed = _run(ARGS + ["--seed", "5", "--journal", str(j)],
                  {"POKERTABLE_TEST_KILL_AT": "journal_commit:300"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    wal = Path(f"{j}-wal")
    assert wal.exists() and wal.stat().st_size > 0  # records not yet folded into j.db
    before = _files(tmp_path)
    r = _run(ARGS + ["--seed", "6", "--journal", str(j), "--resume"])
    assert r.returncode == 2, r.stderr[-2000:]
    assert "other options than these" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert _files(tmp_path) == before
    resumed = _run(ARGS + ["--seed", "5", "--journal", str(j), "--resume"])
    assert resumed.returncode == 0, resumed.stderr[-2000:]
