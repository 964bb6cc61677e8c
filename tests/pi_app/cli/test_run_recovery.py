"""``pokertable run`` (the simulated table) on a journal it left behind: a finished
tournament whose result was never printed prints it; a journal that lost records is
refused, nothing moved, and ``--accept-journal-loss`` goes on from its last intact record;
``--seed`` other than an unfinished journal's is refused before a word about resuming."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from pi_app.service.config import default_config_text
from tests.data_paths import REPO
from tests.pi_app.cli.helpers import assert_one_error_line, run_cli

JOURNAL = "sim-journal.db"


def _config(folder: Path) -> Path:
    text = default_config_text().replace('directory = ""', f'directory = "{folder / "state"}"')
    text = text.replace("count = 6", "count = 2")  # heads-up: the shortest night
    path = folder / "table.toml"
    path.write_text(text)
    return path


def _run(folder: Path, *extra: str, **env: str):
    return run_cli(["run", "--config", str(folder / "table.toml"), "--headless", *extra],
                   REPO, **env)


def _copy(src: Path, dest: Path) -> Path:
    shutil.copytree(src / "state", dest / "state", symlinks=True)
    _config(dest)
    return dest / "state" / JOURNAL


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A heads-up tournament played to the end by ``run``, and its printed summary."""
    folder = tmp_path_factory.mktemp("finished")
    _config(folder)
    done = _run(folder)
    assert done.returncode == 0, done.stderr[-2000:]
    return folder, done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same tournament killed at its 300th record."""
    folder = tmp_path_factory.mktemp("unfinished")
    _config(folder)
    killed = _run(folder, POKERTABLE_TEST_KILL_AT="journal_commit:300")
    assert killed.returncode == -9, killed.stderr[-2000:]
    return folder


def test_a_finished_tournament_whose_result_was_not_printed_prints_it(
        finished: tuple[Path, str], tmp_path: Path) -> None:
    """Killed after the last hand was journaled, before the summary: the next run prints
    the very summary from the journal; the one after plays again (moving it aside)."""
    src, summary = finished
    journal = _copy(src, tmp_path)
    journal.with_name(JOURNAL + ".result").unlink(missing_ok=True)  # a kill before the print
    shown = _run(tmp_path)
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert shown.stdout.strip().splitlines()[-1] == summary
    assert f"(its result, from {journal})" in shown.stdout
    assert "moved it aside" not in shown.stdout + shown.stderr
    assert not (tmp_path / "state" / "previous").exists()
    again = _run(tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "the tournament there is finished; moved it aside" in again.stdout
    assert json.loads(again.stdout.strip().splitlines()[-1]) == json.loads(summary)


def _cut_after(journal: Path, seq: int) -> None:
    con = sqlite3.connect(journal, isolation_level=None)
    con.execute("DELETE FROM events WHERE seq > ?", (seq,))
    con.execute("DELETE FROM snapshots WHERE seq > ?", (seq,))
    con.close()


def test_a_journal_that_lost_records_is_refused_and_goes_on_with_the_flag(
        finished: tuple[Path, str], tmp_path: Path) -> None:
    src, summary = finished
    journal = _copy(src, tmp_path)
    _cut_after(journal, 39)  # its mark says more
    before = _digest(journal)
    refused = _run(tmp_path)
    assert refused.returncode == 2 and refused.stdout == "", refused.stdout
    assert_one_error_line(refused.stderr, "add --accept-journal-loss to go on from record 39",
                          "--fresh")
    assert "moved it aside" not in refused.stderr
    assert _digest(journal) == before and not (tmp_path / "state" / "previous").exists()

    accepted = _run(tmp_path, "--accept-journal-loss")
    assert accepted.returncode == 0, accepted.stderr[-2000:]
    both = accepted.stdout + accepted.stderr
    assert "moved it aside" not in both and "add --accept-journal-loss" not in both
    assert "going on from record 39" in accepted.stderr
    assert f"(resuming {journal})" in accepted.stdout
    assert not (tmp_path / "state" / "previous").exists()
    # the same seed from the same record: the same tournament
    assert json.loads(accepted.stdout.strip().splitlines()[-1]) == json.loads(summary)


def test_another_seed_on_an_unfinished_journal_is_refused_before_resuming(
        unfinished: Path, tmp_path: Path) -> None:
    journal = _copy(unfinished, tmp_path)
    before = _digest(journal)
    refused = _run(tmp_path, "--seed", "2")
    assert refused.returncode == 2
    assert refused.stdout == ""  # nothing claims to resume
    line = assert_one_error_line(refused.stderr, "seed 1", "--fresh", "without --seed")
    for option in ("--preset", "--players"):  # not options of run
        assert option not in (line or refused.stderr)
    assert _digest(journal) == before and not (tmp_path / "state" / "previous").exists()
