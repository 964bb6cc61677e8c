"""A journal path that is not one of our journals is refused before anything is touched:
no chmod, no ``.lock``, no ``-journal``/``-wal`` file, one error line, exit 2."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from pi_app.service.journal import (
    Journal,
    JournalCorruptError,
    JournalPathError,
)
from tests.pi_app.cli.helpers import assert_one_error_line, run_main
from tests.pi_app.service.fake_core import FakeCore


def _state(folder: Path) -> dict[str, tuple[int, str]]:
    """Every entry of ``folder``: (mode, content digest for regular files)."""
    out = {}
    for p in folder.iterdir():
        st = os.lstat(p)
        digest = hashlib.sha256(p.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) else ""
        out[p.name] = (st.st_mode, digest)
    return out


def _make_other_sqlite(path: Path, *, user_version: int = 1, tables: str = "x(y)") -> None:
    con = sqlite3.connect(path)
    con.execute(f"CREATE TABLE {tables}")
    con.execute(f"PRAGMA user_version={user_version}")
    con.commit()
    con.close()


def _not_journals(tmp_path: Path) -> dict[str, Path]:
    """Files of every kind that are not our journals, mode 0644."""
    made = {}
    made["empty"] = tmp_path / "empty.db"
    made["empty"].write_bytes(b"")
    made["garbage"] = tmp_path / "garbage.db"
    made["garbage"].write_bytes(b"not sqlite at all " * 100)
    made["other_v1"] = tmp_path / "other_v1.db"
    _make_other_sqlite(made["other_v1"])
    made["meta_without_version"] = tmp_path / "meta.db"
    _make_other_sqlite(made["meta_without_version"], tables="meta(key TEXT, value TEXT)")
    con = sqlite3.connect(made["meta_without_version"])
    con.executescript("CREATE TABLE events(a); CREATE TABLE snapshots(b);")
    con.close()
    made["corrupt"] = tmp_path / "corrupt.db"
    _make_other_sqlite(made["corrupt"])
    data = bytearray(made["corrupt"].read_bytes())
    data[100:4096] = b"\xee" * (4096 - 100)  # the schema page, after a valid header
    made["corrupt"].write_bytes(bytes(data))
    for p in made.values():
        p.chmod(0o644)
    return made


@pytest.mark.parametrize("kind", ["empty", "garbage", "other_v1", "meta_without_version",
                                  "corrupt"])
@pytest.mark.parametrize("opener", ["open", "open_readonly"])
def test_open_refuses_a_file_that_is_not_a_journal(tmp_path: Path, kind: str,
                                                     opener: str, caplog) -> None:
    path = _not_journals(tmp_path)[kind]
    before = _state(tmp_path)
    with pytest.raises(JournalCorruptError, match="is not a pokertable journal"):
        getattr(Journal, opener)(path)
    assert _state(tmp_path) == before  # no chmod, no .lock, no -wal/-shm/-journal
    assert not [r for r in caplog.records if r.levelname == "WARNING"]


@pytest.mark.parametrize("kind", ["empty", "garbage", "other_v1", "meta_without_version",
                                  "corrupt"])
def test_sim_resume_refuses_a_file_that_is_not_a_journal(tmp_path: Path, kind: str,
                                                         capsys) -> None:
    path = _not_journals(tmp_path)[kind]
    before = _state(tmp_path)
    rc, out, err = run_main(["sim", "--journal", str(path), "--resume", "--hands", "1"], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, str(path), "is not a pokertable journal")
    assert _state(tmp_path) == before


def test_fifo_is_refused_untouched(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo, 0o644)
    before = _state(tmp_path)
    for opener in (Journal.exists, Journal.open, Journal.open_readonly):
        with pytest.raises(JournalPathError, match="named pipe"):
            opener(fifo)
    with pytest.raises(JournalPathError):
        Journal.create(fifo, FakeCore().snapshot())
    rc, _, err = run_main(["sim", "--journal", str(fifo), "--resume", "--hands", "1"], capsys)
    assert rc == 2
    assert_one_error_line(err, str(fifo), "not a regular file")
    assert _state(tmp_path) == before


def test_character_device_is_refused_untouched(tmp_path: Path, capsys) -> None:
    """What ``--journal /dev/null --resume`` did as root: chmod 0600 plus two new files.
    A private copy of the null device is used so a regression harms nothing."""
    dev = tmp_path / "null"
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here ({exc})")
    dev.chmod(0o666)
    before = _state(tmp_path)
    rc, out, err = run_main(["sim", "--journal", str(dev), "--resume", "--hands", "1"], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, str(dev), "character device")
    assert _state(tmp_path) == before
    assert stat.S_IMODE(os.stat(dev).st_mode) == 0o666


def test_real_dev_null_is_refused_before_touching_it() -> None:
    before = os.stat(os.devnull)
    with pytest.raises(JournalPathError, match="character device"):
        Journal.exists(os.devnull)
    with pytest.raises(JournalPathError):
        Journal.open(os.devnull)
    after = os.stat(os.devnull)
    assert stat.S_IMODE(after.st_mode) == stat.S_IMODE(before.st_mode)
    assert not os.path.lexists(os.devnull + ".lock")


def test_parent_that_is_a_file_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.write_text("x")
    before = _state(tmp_path)
    with pytest.raises(JournalPathError, match="not a directory"):
        Journal.create(plain / "j.db", FakeCore().snapshot())
    with pytest.raises(JournalPathError, match="not a directory"):
        Journal.open(plain / "j.db")
    assert _state(tmp_path) == before


def test_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalPathError, match="is a directory"):
        Journal.open(tmp_path)


def test_our_journal_with_wide_permissions_is_still_tightened(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    Journal.create(path, FakeCore().snapshot(), meta={"core": "x:Y"}).close()
    path.chmod(0o644)
    with Journal.open(path) as j:
        assert j.meta["schema_version"] == "2"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_blank_file_is_never_initialised_over_even_beside_its_lock(tmp_path: Path,
                                                                     capsys) -> None:
    """An empty ``journal.db`` beside its ``.lock`` (once taken for a creation cut short)
    is someone's file all the same: refused, never made into a new journal.  A creation
    cut short leaves nothing at the path (the file is built aside and linked in)."""
    path = tmp_path / "j.db"
    path.write_bytes(b"")
    (tmp_path / "j.db.lock").write_bytes(b"")
    assert Journal.exists(path)
    with pytest.raises(FileExistsError):
        Journal.create(path, FakeCore().snapshot())
    before = _state(tmp_path)
    rc, out, err = run_main(["sim", "--journal", str(path), "--resume", "--hands", "1"], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, str(path), "is not a pokertable journal (empty file)")
    assert _state(tmp_path) == before and path.read_bytes() == b""
