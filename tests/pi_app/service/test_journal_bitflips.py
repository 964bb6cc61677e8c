"""One flipped bit anywhere in a small real journal: opening it either works (and the state
replayed is the one written) or is refused with the journal's typed error, never a
TypeError or a bare sqlite3 error.  Two flips a tester found are named: one in the
``events`` table's schema text ("PRIMARY KEY" read as "PRMMARY KEY", which SQLite's
integrity check passes) and one in the first cell pointer of the ``meta`` table's page."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from pi_app.cli.state import recovered_state
from pi_app.service.core_identity import CoreMismatchError
from pi_app.service.journal import JournalCorruptError, JournalSchemaError
from tests.data_paths import REPO
from tests.pi_app.cli.helpers import assert_one_error_line, run_cli

#: every STEP-th byte of the journal gets its bit 2 flipped (a few hundred files, seconds)
STEP = 181
BIT = 0x04


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal of three hands of the simulated table, closed (all in ``journal.db``)."""
    path = tmp_path_factory.mktemp("small") / "journal.db"
    done = run_cli(["sim", "--preset", "phat-ace", "--players", "3", "--seed", "2",
                    "--hands", "3", "--direct", "--json", "--journal", str(path)], REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    return path


def _flipped(small: Path, folder: Path, offset: int) -> Path:
    data = bytearray(small.read_bytes())
    data[offset] ^= BIT
    folder.mkdir(exist_ok=True)
    path = folder / "journal.db"
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    path.write_bytes(bytes(data))
    shutil.copy(small.with_name(small.name + ".mark"), path.with_name(path.name + ".mark"))
    return path


def _summary(path: Path) -> dict:
    return dict(recovered_state(str(path))["summary"])


def _open_once(small: Path, folder: Path, offset: int, reference: dict) -> str:
    """What opening the journal with ``offset`` flipped gave: "same" (the state written)
    or the name of the typed error; anything else fails the test."""
    path = _flipped(small, folder, offset)
    try:
        got = _summary(path)
    except JournalSchemaError:
        # the header's user_version (bytes 60-63) now names a newer schema
        assert 60 <= offset < 64, offset
        return "newer schema"
    except CoreMismatchError as exc:
        assert "engine.table.core:TableCore" in str(exc), exc  # the core's name, one bit off
        return "core"
    except JournalCorruptError as exc:
        assert str(path) in str(exc), exc
        return type(exc).__name__
    assert got == reference, offset
    return "same"


def test_one_flipped_bit_anywhere_is_read_or_told_as_damage(small: Path,
                                                            tmp_path: Path) -> None:
    reference = _summary(small)
    size = small.stat().st_size
    outcomes: dict[str, int] = {}
    for offset in range(STEP // 2, size, STEP):
        kind = _open_once(small, tmp_path / "flip", offset, reference)
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert sum(outcomes.values()) >= size // STEP
    assert outcomes.get("same", 0) > 0, outcomes  # a flip in free space changes nothing
    assert outcomes.get("JournalLossError", 0) > 0, outcomes  # a flip in a record is a loss


def _schema_offset(data: bytes) -> int:
    """The "I" of "PRIMARY" in the events table's CREATE statement (bit 2 makes it "M")."""
    at = data.index(b"CREATE TABLE events(seq INTEGER PRIMARY KEY")
    return at + len(b"CREATE TABLE events(seq INTEGER PR")


def _meta_cell_pointer(path: Path) -> int:
    """The first byte of the first cell pointer on the meta table's (leaf) page."""
    con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        page = con.execute("PRAGMA page_size").fetchone()[0]
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'meta'").fetchone()[0]
    finally:
        con.close()
    start = (root - 1) * page
    assert path.read_bytes()[start] == 0x0D, "the meta table is one leaf page"
    return start + 8  # after a leaf page's 8-byte header


@pytest.mark.parametrize("where", ["events schema", "meta cell pointer"])
def test_the_flips_a_tester_found_are_damage(small: Path, tmp_path: Path, where: str) -> None:
    offset = (_schema_offset(small.read_bytes()) if where == "events schema"
              else _meta_cell_pointer(small))
    path = _flipped(small, tmp_path, offset)
    with pytest.raises(JournalCorruptError, match="is not a pokertable journal or is damaged"):
        recovered_state(str(path))
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    done = run_cli(["state", "--journal", str(path)], REPO)
    assert done.returncode == 2, done.stderr[-2000:]
    assert_one_error_line(done.stderr, "is not a pokertable journal or is damaged")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
