"""A journal (or its ``-wal``/``-shm``) larger than any journal can be is refused in one
line before anything is read or created: sparse files stand for 5 GB and 3 GB ones."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from engine.events import ClockTick
from pi_app.service.journal import Journal, JournalPathError, JournalSizeError
from pi_app.service.journal_files import MAX_JOURNAL_BYTES, MAX_SIDECAR_BYTES
from tests.pi_app.cli.helpers import assert_one_error_line, run_main
from tests.pi_app.service.fake_core import FakeCore


def _state(folder: Path) -> dict[str, tuple[int, int, str]]:
    """Each file: (mode, size, digest of its first MiB: the sparse ones are not read)."""
    out = {}
    for p in folder.iterdir():
        st = os.lstat(p)
        with open(p, "rb") as fh:
            head = hashlib.sha256(fh.read(1 << 20)).hexdigest()
        out[p.name] = (st.st_mode, st.st_size, head)
    return out


def _journal(path: Path) -> Path:
    with Journal.create(path, FakeCore().snapshot()) as j:
        j.append(ClockTick(t=1.0))
    return path


def _refused(path: Path, capsys, *fragments: str) -> None:
    before = _state(path.parent)
    for opener in (Journal.exists, Journal.open, Journal.open_readonly):
        with pytest.raises(JournalSizeError) as info:
            opener(path)
        assert isinstance(info.value, JournalPathError) and isinstance(info.value, ValueError)
    for argv in (["state", "--journal", str(path)],
                 ["sim", "--journal", str(path), "--resume", "--hands", "1"]):
        rc, out, err = run_main(argv, capsys)
        assert rc == 2 and out == "", argv
        assert_one_error_line(err, *fragments)
    assert _state(path.parent) == before


def test_a_5_gb_journal_is_refused(tmp_path: Path, capsys) -> None:
    path = _journal(tmp_path / "journal.db")
    os.truncate(path, 5 * 10**9)  # sparse: the header is still SQLite's
    _refused(path, capsys, "journal.db: is 4,768 MiB", "at most 1,024 MiB")


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
def test_a_3_gb_wal_or_shm_is_refused(tmp_path: Path, capsys, suffix: str) -> None:
    path = _journal(tmp_path / "journal.db")
    side = tmp_path / f"journal.db{suffix}"
    with open(side, "wb") as fh:
        fh.truncate(3 * 10**9)
    _refused(path, capsys, f"journal.db{suffix}: is 2,861 MiB", "at most 256 MiB")


def test_a_journal_at_the_bound_is_not_refused_for_its_size(tmp_path: Path) -> None:
    path = _journal(tmp_path / "journal.db")
    assert MAX_JOURNAL_BYTES > 100 * 2**20 and MAX_SIDECAR_BYTES > 16 * 2**20
    os.truncate(path, MAX_JOURNAL_BYTES)  # zeros past the pages SQLite knows of
    assert Journal.exists(path)
