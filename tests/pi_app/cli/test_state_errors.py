"""``pokertable state``: a directory, a truncated or overwritten journal and a journal
another core wrote are one line, exit 2, and the file is not changed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.pi_app.cli.helpers import assert_one_error_line, listing, run_main
from tests.pi_app.service.helpers import run_driver


@pytest.fixture(scope="module")
def journal_bytes(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("state") / "j.db"
    proc = run_driver(path, "--seed", "3", "--hands", "2")
    assert proc.returncode == 0, proc.stderr
    return path.read_bytes()


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in folder.iterdir() if p.is_file()}


def test_directory_as_journal(tmp_path, capsys) -> None:
    rc, out, err = run_main(["state", "--journal", str(tmp_path)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, f"{tmp_path}: is a directory")
    assert listing(tmp_path) == set()


@pytest.mark.parametrize("damage", ["truncated", "overwritten"])
def test_damaged_journal(tmp_path, capsys, journal_bytes, damage) -> None:
    path = tmp_path / "j.db"
    if damage == "truncated":
        data = journal_bytes[: len(journal_bytes) // 2]
    else:
        data = journal_bytes[:4096] + b"\xff" * 8192 + journal_bytes[4096 + 8192:]
    path.write_bytes(data)
    before = _digest(tmp_path)
    rc, out, err = run_main(["state", "--journal", str(path), "--json"], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, str(path), "unreadable")
    assert _digest(tmp_path) == before  # nothing changed, no -wal/-shm left behind


def test_garbage_file_is_not_a_journal(tmp_path, capsys) -> None:
    path = tmp_path / "j.db"
    path.write_bytes(b"hello, this is not SQLite" * 10)
    rc, _, err = run_main(["state", "--journal", str(path)], capsys)
    assert rc == 2
    assert_one_error_line(err, "not a pokertable journal")


def test_a_journal_written_by_another_core_is_refused(tmp_path, capsys, journal_bytes) -> None:
    path = tmp_path / "j.db"
    path.write_bytes(journal_bytes)  # written by the tests' fake core
    before = _digest(tmp_path)
    rc, out, err = run_main(["state", "--journal", str(path)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, str(path), "written by the core tests.pi_app.service.fake_core:FakeCore",
                          "not engine.table.core:TableCore")
    assert _digest(tmp_path) == before
