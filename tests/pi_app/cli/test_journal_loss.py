"""A journal that lost records is refused by ``state``, ``sim --resume`` and ``run``: one
line naming the file and how many records are missing, exit 2, every file left byte for
byte; ``--accept-journal-loss`` opens it knowingly.  A record of an unknown event type is
refused as written by a newer pokertable.  (Issue: a deleted or damaged ``-wal`` once
started a new tournament in place of 300 records.)"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from pi_app.service.journal_files import chain
from tests.data_paths import REPO
from tests.pi_app.cli.helpers import assert_one_error_line, run_cli, run_main

SIM = ["sim", "--preset", "gunpowder", "--players", "4", "--seed", "3", "--hands", "3",
       "--direct", "--json"]


def files(path: Path) -> dict[str, str]:
    """Digest of the journal's files: the database, its WAL, its mark (not ``-shm``,
    SQLite's scratch index of the WAL, rebuilt by every reader)."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.parent.iterdir())
            if p.name in {path.name + s for s in ("", "-wal", ".mark")}}


@pytest.fixture
def killed(tmp_path: Path) -> Path:
    """A simulated table killed at record 60: records 1-60 live only in the WAL."""
    j = tmp_path / "journal.db"
    r = run_cli(SIM + ["--journal", str(j)], REPO, POKERTABLE_TEST_KILL_AT="journal_commit:60")
    assert r.returncode == -9, r.stderr[-2000:]
    assert j.with_name("journal.db-wal").stat().st_size > 0
    return j


def refused_everywhere(j: Path, capsys, *fragments: str) -> None:
    before = files(j)
    for argv in (["state", "--journal", str(j)], SIM + ["--journal", str(j), "--resume"]):
        rc, out, err = run_main(argv, capsys)
        assert rc == 2 and out == "", (argv, out)
        assert_one_error_line(err, str(j), *fragments)
        assert files(j) == before, argv


def test_a_deleted_wal_is_refused_with_the_count(killed: Path, capsys) -> None:
    killed.with_name("journal.db-wal").unlink()
    refused_everywhere(killed, capsys, "60 journal records are missing", "--accept-journal-loss")


def test_a_wal_whose_first_page_is_overwritten_is_refused(killed: Path, capsys) -> None:
    wal = killed.with_name("journal.db-wal")
    data = bytearray(wal.read_bytes())
    data[:4096] = b"\0" * 4096
    wal.write_bytes(bytes(data))
    refused_everywhere(killed, capsys, "60 journal records are missing")


@pytest.mark.parametrize("damage", ["cut_in_half", "flip_16_bytes"])
def test_damage_in_the_middle_of_the_wal_is_refused(killed: Path, capsys, damage: str) -> None:
    wal = killed.with_name("journal.db-wal")
    data = bytearray(wal.read_bytes())
    mid = len(data) // 2
    if damage == "cut_in_half":
        del data[mid:]
    else:
        data[mid:mid + 16] = bytes(b ^ 0xFF for b in data[mid:mid + 16])
    wal.write_bytes(bytes(data))
    refused_everywhere(killed, capsys, "journal records are missing")


def test_journal_db_copied_alone_is_refused(killed: Path, tmp_path: Path, capsys) -> None:
    """A backup that copied journal.db alone: no WAL, no mark."""
    copy = tmp_path / "copy" / "journal.db"
    copy.parent.mkdir()
    shutil.copyfile(killed, copy)
    refused_everywhere(copy, capsys, "high-water mark journal.db.mark is missing")


def test_accepting_the_loss_goes_on_and_logs_it(killed: Path, capsys, caplog) -> None:
    killed.with_name("journal.db-wal").unlink()
    rc, out, err = run_main(SIM + ["--journal", str(killed), "--resume",
                                   "--accept-journal-loss"], capsys)
    assert rc == 0, err
    assert json.loads(out.strip().splitlines()[-1])["hands_played"] == 3
    assert "journal loss accepted" in caplog.text and "60 journal records" in caplog.text
    rc, out, err = run_main(["state", "--journal", str(killed), "--json"], capsys)
    assert rc == 0 and json.loads(out)["recovery"]["loss"] is None


def test_the_flag_belongs_to_resume(tmp_path: Path, capsys) -> None:
    rc, _, err = run_main(SIM + ["--journal", str(tmp_path / "j.db"), "--accept-journal-loss"],
                          capsys)
    assert rc == 2 and "--resume" in err


def test_a_mark_without_its_journal_is_not_started_over(killed: Path, capsys) -> None:
    for suffix in ("", "-wal", "-shm"):
        killed.with_name("journal.db" + suffix).unlink(missing_ok=True)
    shutil.rmtree(killed.with_name("journal-hands"), ignore_errors=True)
    rc, out, err = run_main(SIM + ["--journal", str(killed)], capsys)
    assert rc == 2
    assert_one_error_line(err, "the journal is gone", "60 records")
    assert not killed.exists()


def _add_record(j: Path, data: str) -> None:
    con = sqlite3.connect(j)
    seq, prev = con.execute("SELECT seq, checksum FROM events ORDER BY seq DESC LIMIT 1"
                            ).fetchone()
    con.execute("INSERT INTO events VALUES (?, 1e9, ?, ?)",
                (seq + 1, data, chain(prev, seq + 1, data)))
    con.commit()
    con.close()


@pytest.mark.parametrize("where", ["last", "middle"])
def test_an_unknown_event_type_is_from_a_newer_pokertable(killed: Path, capsys,
                                                          where: str) -> None:
    _add_record(killed, '{"t":1e9,"type":"hologram_shown"}')
    if where == "middle":
        _add_record(killed, '{"t":1e9,"type":"clock_tick"}')
    refused_everywhere(killed, capsys, "written by a newer pokertable", "hologram_shown")


def test_an_online_backup_holds_every_record_and_opens_knowingly(killed: Path, tmp_path: Path,
                                                                  capsys) -> None:
    """docs/operations.md: copy a journal with SQLite's online backup."""
    copy = tmp_path / "backup.db"
    src, dst = sqlite3.connect(killed), sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    rc, _, err = run_main(["state", "--journal", str(copy)], capsys)
    assert rc == 2 and "high-water mark backup.db.mark is missing" in err
    rc, out, err = run_main(["state", "--journal", str(copy), "--json",
                             "--accept-journal-loss"], capsys)
    assert rc == 0, err
    assert json.loads(out)["recovery"]["last_seq"] == 60  # every record is in the copy


def _tree(*folders: Path) -> dict[str, tuple[int, str]]:
    """Every entry of ``folders``, links not followed: (mode, digest or link target)."""
    out = {}
    for folder in folders:
        for p in folder.iterdir():
            st = p.lstat()
            what = os.readlink(p) if p.is_symlink() else \
                hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else ""
            out[str(p)] = (st.st_mode, what)
    return out


@pytest.mark.parametrize("linked", ["journal.db", "journal.db-wal", "journal.db-shm"])
def test_a_symbolic_link_is_refused_and_nothing_is_created(killed: Path, tmp_path: Path,
                                                           capsys, linked: str) -> None:
    """A journal moved away and linked back (records in its -wal): refused in one line,
    not read as a loss, no -wal or -shm made beside the link or the target."""
    away = tmp_path / "away"
    away.mkdir()
    killed.with_name("journal.db-shm").unlink(missing_ok=True)
    moved = [linked] if linked != "journal.db" else ["journal.db", "journal.db-wal"]
    for name in moved:
        target = away / name
        if killed.with_name(name).exists():
            killed.with_name(name).rename(target)
        else:
            target.write_bytes(b"")
        killed.with_name(name).symlink_to(target)
    before = _tree(killed.parent, away)
    for argv in (["state", "--journal", str(killed)], SIM + ["--journal", str(killed), "--resume"]):
        rc, out, err = run_main(argv, capsys)
        assert rc == 2 and out == "", (argv, out)
        line = assert_one_error_line(err, linked, "is a symbolic link", "regular file")
        assert "missing" not in line and "--accept-journal-loss" not in line
        assert _tree(killed.parent, away) == before, argv
