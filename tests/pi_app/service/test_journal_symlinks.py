"""A journal that is a symbolic link, or whose ``-wal``/``-shm`` is one (or a FIFO), is
refused before anything is touched: SQLite would look for the ``-wal`` beside the link
(a false loss, an empty ``-wal`` made beside the target) and write through the link."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from engine.events import ClockTick
from pi_app.service.journal import Journal, JournalPathError
from tests.pi_app.service.fake_core import FakeCore


def _state(*folders: Path) -> dict[str, tuple[int, str]]:
    """Every entry of ``folders``, links not followed: (mode, digest of a regular file)."""
    out = {}
    for folder in folders:
        for p in folder.iterdir():
            st = os.lstat(p)
            digest = hashlib.sha256(p.read_bytes()).hexdigest() \
                if stat.S_ISREG(st.st_mode) else os.readlink(p) if stat.S_ISLNK(st.st_mode) \
                else ""
            out[str(p)] = (st.st_mode, digest)
    return out


def _journal(path: Path, records: int = 5) -> Path:
    with Journal.create(path, FakeCore().snapshot()) as j:
        for i in range(records):
            j.append(ClockTick(t=float(i + 1)))
    return path


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    return here, there


def _refused(path: Path, folders: tuple[Path, Path], *fragments: str) -> None:
    before = _state(*folders)
    for opener in (Journal.exists, Journal.open, Journal.open_readonly):
        with pytest.raises(JournalPathError) as info:
            opener(path)
        for f in fragments:
            assert f in str(info.value), (f, str(info.value))
    with pytest.raises(JournalPathError):
        Journal.create(path, FakeCore().snapshot())
    assert _state(*folders) == before  # nothing created, changed or chmodded


def test_a_journal_that_is_a_symbolic_link_is_refused(dirs: tuple[Path, Path]) -> None:
    here, there = dirs
    real = _journal(there / "journal.db")
    (here / "journal.db").symlink_to(real)
    _refused(here / "journal.db", dirs, "journal.db: is a symbolic link, not a regular file")


def test_a_dangling_symbolic_link_is_refused(dirs: tuple[Path, Path]) -> None:
    here, there = dirs
    (here / "journal.db").symlink_to(there / "nothing.db")
    _refused(here / "journal.db", dirs, "is a symbolic link")
    assert not (there / "nothing.db").exists()


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
def test_a_sidecar_that_is_a_symbolic_link_is_refused(dirs: tuple[Path, Path],
                                                      suffix: str) -> None:
    here, there = dirs
    path = _journal(here / "journal.db")
    (there / f"x{suffix}").write_bytes(b"")
    (here / f"journal.db{suffix}").symlink_to(there / f"x{suffix}")
    _refused(path, dirs, f"journal.db{suffix}: is a symbolic link", "must be a regular file")


def test_a_wal_that_is_a_named_pipe_is_refused(dirs: tuple[Path, Path]) -> None:
    here, _ = dirs
    path = _journal(here / "journal.db")
    os.mkfifo(here / "journal.db-wal", 0o600)
    _refused(path, dirs, "journal.db-wal: is a named pipe, not a regular file")


def test_a_regular_journal_in_a_linked_folder_still_opens(dirs: tuple[Path, Path]) -> None:
    """Only the files themselves must not be links: a folder reached through one is fine."""
    here, there = dirs
    _journal(there / "journal.db")
    (here / "link").symlink_to(there, target_is_directory=True)
    with Journal.open(here / "link" / "journal.db") as j:
        assert j.scan().last_seq == 5
