"""``pokertable state --journal FILE --json``: recovered state, nothing started or written."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pi_app.cli import state as state_cmd
from pi_app.cli.main import main
from pi_app.service.journal import SCHEMA_VERSION
from tests.pi_app.service.fake_core import FakeCore
from tests.pi_app.service.helpers import REPO, env_with, last_json, run_driver


def digest(path: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.parent.iterdir()) if p.name.startswith(path.name)}


@pytest.fixture(autouse=True)
def _fake_core(monkeypatch) -> None:
    """These journals are written by the tests' fake core; ``state`` restores with it."""
    monkeypatch.setattr(state_cmd, "CORE_CLASS", FakeCore)


@pytest.fixture
def journal(tmp_path: Path) -> tuple[Path, dict]:
    j = tmp_path / "j.db"
    proc = run_driver(j, "--seed", "3", "--hands", "4")
    assert proc.returncode == 0, proc.stderr
    return j, last_json(proc.stdout)


def test_state_json_matches_the_run(journal, capsys) -> None:
    path, summary = journal
    before = digest(path)
    assert main(["state", "--journal", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"] == summary
    assert report["schema_version"] == SCHEMA_VERSION
    assert report["core"] == "tests.pi_app.service.fake_core:FakeCore"
    assert report["recovery"]["torn_record"] is None
    assert report["screen"]["clock"]["level_number"] == summary["level"]
    assert "snapshot" not in report  # private data only with --private
    assert digest(path) == before


def test_state_after_a_kill_mid_write_reports_the_same_as_resume(tmp_path: Path, capsys) -> None:
    path = tmp_path / "j.db"
    proc = run_driver(path, "--seed", "3", "--hands", "4", kill_at="journal_write:60")
    assert proc.returncode == -9
    assert main(["state", "--journal", str(path), "--json", "--private"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["recovery"]["last_seq"] == 59  # the record being written is not there
    assert report["snapshot"]["stacks"] and report["snapshot"]["applied"] <= 59
    resumed = run_driver(path, "--seed", "3", "--hands", "4", resume=True)
    assert resumed.returncode == 0


def test_torn_record_is_reported_not_dropped(journal, capsys) -> None:
    path, summary = journal
    con = sqlite3.connect(path)
    last = con.execute("SELECT max(seq) FROM events").fetchone()[0]
    con.execute("INSERT INTO events VALUES (?, 1e9, '{\"type\":\"clo', 'x')", (last + 1,))
    con.commit()
    con.close()
    before = digest(path)
    assert main(["state", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"record {last + 1} (checksum mismatch) would be dropped on resume" in out
    assert digest(path) == before


def test_newer_schema_one_line_exit_2(journal) -> None:
    path, _ = journal
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 5}")
    con.commit()
    con.close()
    before = digest(path)
    proc = subprocess.run([sys.executable, "-m", "pi_app.cli.main", "state", "--journal", str(path),
                           "--json"], cwd=REPO, env=env_with(), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "newer than this pokertable supports" in proc.stderr
    assert digest(path) == before


def test_missing_journal(tmp_path: Path, capsys) -> None:
    assert main(["state", "--journal", str(tmp_path / "no.db")]) == 2
    assert "no such journal" in capsys.readouterr().err


def test_there_is_no_option_to_load_a_core_by_name(journal, capsys) -> None:
    path, _ = journal
    with pytest.raises(SystemExit) as exc:
        main(["state", "--journal", str(path), "--core", "os:system"])
    assert exc.value.code == 2
    assert "unrecognized arguments: --core" in capsys.readouterr().err
