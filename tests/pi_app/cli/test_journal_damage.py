"""A record changed in place before the newest snapshot of a closed journal (``printf Q |
dd ... conv=notrunc``), or made of bytes that are not UTF-8, is refused by ``state`` and
``sim --resume`` in one line naming the record, exit 2, files unchanged;
``--accept-journal-loss`` shows (and, resuming, goes on from) the intact snapshot.  A
high-water mark that is not a small regular file is refused the same way."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from tests.data_paths import REPO
from tests.pi_app.cli.helpers import assert_one_error_line, run_cli, run_main

SIM = ["sim", "--preset", "gunpowder", "--players", "4", "--seed", "3", "--direct", "--json"]


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """Eight hands played and closed: 210 records, snapshots after 200 and 210."""
    j = tmp_path / "journal.db"
    r = run_cli(SIM + ["--hands", "8", "--journal", str(j)], REPO)
    assert r.returncode == 0, r.stderr[-2000:]
    return j


def _files(j: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(j.parent.iterdir()) if p.is_file()}


def _damage(j: Path, bytes_: bytes) -> None:
    data = bytearray(j.read_bytes())
    needle = b'"t":141.20000000000002'  # record 50's time, once in the file
    assert data.count(needle) == 1
    at = data.index(needle) + 5
    data[at:at + len(bytes_)] = bytes_
    j.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [b"Q", b"\xff\xff\xff\xff"])
def test_damage_before_the_snapshot_is_refused_naming_the_record(played: Path, capsys,
                                                                 damage: bytes) -> None:
    _damage(played, damage)
    before = _files(played)
    for argv in (["state", "--journal", str(played)],
                 SIM + ["--hands", "9", "--journal", str(played), "--resume"]):
        rc, out, err = run_main(argv, capsys)
        assert rc == 2 and out == "", (argv, out)
        assert_one_error_line(err, str(played), "record 50 is damaged",
                              "before the snapshot of record 210", "--accept-journal-loss")
        assert _files(played) == before, argv


def test_accepting_it_shows_the_snapshot_state(played: Path, capsys) -> None:
    rc, out, _ = run_main(["state", "--journal", str(played), "--json"], capsys)
    intact = json.loads(out)["summary"]
    _damage(played, b"Q")
    rc, out, err = run_main(["state", "--journal", str(played), "--json",
                             "--accept-journal-loss"], capsys)
    assert rc == 0, err
    report = json.loads(out)
    assert report["summary"] == intact
    assert "record 50 is damaged" in report["recovery"]["loss"]["text"]


def test_an_accepted_loss_names_the_file_once(played: Path, capsys, caplog) -> None:
    played.with_name("journal.db.mark").unlink()
    rc, _out, err = run_main(["state", "--journal", str(played), "--accept-journal-loss"],
                             capsys)
    assert rc == 0, err
    told = [r.getMessage() for r in caplog.records if "high-water mark" in r.getMessage()]
    assert told == [f"{played}: its high-water mark journal.db.mark is missing, so whether "
                    "records were lost cannot be told"]


def test_a_damaged_snapshot_is_told_once_on_resume(played: Path, capsys, caplog) -> None:
    import sqlite3

    con = sqlite3.connect(played)
    con.execute("UPDATE snapshots SET checksum = 'x' WHERE seq = 210")
    con.commit()
    con.close()
    rc, _out, err = run_main(SIM + ["--hands", "9", "--journal", str(played), "--resume"],
                             capsys)
    assert rc == 0, err
    told = [r for r in caplog.records if "snapshot 210 failed its checksum" in r.getMessage()]
    assert len(told) == 1


def test_a_named_pipe_in_place_of_the_wal_is_told_as_such(played: Path, capsys) -> None:
    os.mkfifo(played.with_name("journal.db-wal"), 0o600)
    before = _files(played)
    rc, out, err = run_main(["state", "--journal", str(played)], capsys)
    assert rc == 2 and out == ""
    line = assert_one_error_line(err, "journal.db-wal: is a named pipe, not a regular file")
    assert "missing" not in line
    assert _files(played) == before


def test_a_malformed_journal_says_restore_the_backup(played: Path, capsys) -> None:
    data = bytearray(played.read_bytes())
    data[100:4096] = b"\xee" * (4096 - 100)  # the schema page, after a valid header
    played.write_bytes(bytes(data))
    rc, out, err = run_main(["state", "--journal", str(played)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, "malformed", "restore the newest backup")


def _entries(folder: Path) -> dict[str, tuple[int, str]]:
    """Every entry of ``folder``, links not followed: (mode, digest or link target)."""
    out = {}
    for p in sorted(folder.iterdir()):
        st = os.lstat(p)
        what = os.readlink(p) if stat.S_ISLNK(st.st_mode) else \
            hashlib.sha256(p.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) else ""
        out[p.name] = (st.st_mode, what)
    return out


@pytest.mark.parametrize("kind", ["named pipe", "directory", "too big", "symbolic link"])
def test_a_mark_that_is_not_a_small_regular_file_is_refused(played: Path, tmp_path: Path,
                                                            capsys, kind: str) -> None:
    """docs/operations.md's row: a mark that is a pipe, a folder, a link or far too big is
    refused by ``state`` and ``sim --resume`` in one line, exit 2, nothing changed (the
    pipe is not blocked on, the folder not replaced, the link's target not written)."""
    mark = played.with_name("journal.db.mark")
    slots = mark.read_bytes()
    mark.unlink()
    if kind == "named pipe":
        os.mkfifo(mark, 0o600)
    elif kind == "directory":
        mark.mkdir()
    elif kind == "too big":
        mark.write_bytes(slots + b"\0" * (1 << 20))
    else:
        elsewhere = tmp_path / "elsewhere.mark"
        elsewhere.write_bytes(slots)
        mark.symlink_to(elsewhere)
    told = ("the journal's high-water mark is not a small regular file" if kind == "too big"
            else f"is a {kind}, not a regular file; the journal's high-water mark must be")
    before = _entries(played.parent), _entries(tmp_path)
    for argv in (["state", "--journal", str(played)],
                 SIM + ["--hands", "9", "--journal", str(played), "--resume"]):
        rc, out, err = run_main(argv, capsys)
        assert rc == 2 and out == "", (argv, out)
        assert_one_error_line(err, str(mark), told)
        assert (_entries(played.parent), _entries(tmp_path)) == before, argv


@pytest.mark.parametrize("beside", ["journal.db.mark", "journal.db.lock"])
def test_a_symlinked_mark_or_lock_is_refused_before_anything_is_touched(
        played: Path, tmp_path: Path, capsys, beside: str) -> None:
    """``run --service`` and ``state``/``sim --resume``, even with ``--accept-journal-loss``
    (which cannot help here): one line naming the link, exit 2, no advice to accept a loss;
    the journal's mode and bytes are unchanged (its permissions were once tightened first)."""
    from pi_app.service.config import default_config_text

    os.chmod(played, 0o644)
    link, elsewhere = played.with_name(beside), tmp_path / "away" / beside
    elsewhere.parent.mkdir()
    if link.exists():
        os.rename(link, elsewhere)
    else:
        elsewhere.write_bytes(b"")
    link.symlink_to(elsewhere)
    cfg = tmp_path / "away" / "table.toml"
    cfg.write_text(default_config_text().replace('directory = ""', f'directory = "{tmp_path}"'))
    before = _entries(played.parent), _entries(elsewhere.parent)
    for argv in (["run", "--service", "--config", str(cfg), "--accept-journal-loss"],
                 ["state", "--journal", str(played), "--accept-journal-loss"],
                 SIM + ["--hands", "9", "--journal", str(played), "--resume",
                        "--accept-journal-loss"]):
        rc, out, err = run_main(argv, capsys)
        assert rc == 2 and out == "", (argv, out)
        line = assert_one_error_line(err, f"{link}: is a symbolic link, not a regular file")
        assert "accept-journal-loss" not in line, argv
        assert (_entries(played.parent), _entries(elsewhere.parent)) == before, argv
    assert stat.S_IMODE(played.stat().st_mode) == 0o644
