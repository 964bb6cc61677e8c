"""The journal file: durability settings, permissions, schema, torn tails, corruption,
snapshot integrity, locking and disk errors."""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from engine.events import CardDrawn, ClockTick, DealerButton, PlayerAction
from pi_app.service import journal as jmod
from pi_app.service.journal import (
    SCHEMA_VERSION,
    Journal,
    JournalBusyError,
    JournalCorruptError,
    JournalSchemaError,
    JournalUnavailable,
    checksum,
    unavailable_from,
)
from pi_app.service.recovery import recover
from tests.pi_app.service.fake_core import FakeCore

EVENTS = [DealerButton(t=1.0, button="next_hand"), CardDrawn(t=2.0, uid="04A1B2C3D4E5F6", draw=1),
          PlayerAction(t=2.5, seat=3, action="bet_raise", amount=120), ClockTick(t=3.0)]


def make(path: Path, events=EVENTS, every: int = 1000) -> Journal:
    core = FakeCore()
    j = Journal.create(path, core.snapshot(), meta={"core": "tests.pi_app.service.fake_core:FakeCore"},
                       snapshot_every=every)
    for e in events:
        j.append(e)
        core.apply(e)
        if j.snapshot_due():
            j.write_snapshot(core.snapshot())
    return j


def file_digest(path: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.parent.iterdir()) if p.name.startswith(path.name)}


def test_create_settings_and_permissions(tmp_path: Path) -> None:
    path = tmp_path / "state" / "journal.db"
    j = make(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    wal = path.with_name("journal.db-wal")
    assert wal.exists() and stat.S_IMODE(wal.stat().st_mode) == 0o600
    con = j._con
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert j.schema_version() == SCHEMA_VERSION
    assert j.meta["schema_version"] == str(SCHEMA_VERSION)
    j.close()


def test_events_round_trip_in_order(tmp_path: Path) -> None:
    j = make(tmp_path / "j.db")
    assert [e for _, e in j.events()] == EVENTS
    assert [s for s, _ in j.events()] == [1, 2, 3, 4]
    scan = j.scan()
    assert scan.snapshot_seq == 0 and [e for _, e in scan.events] == EVENTS
    assert j.last_t == 3.0 and scan.torn is None
    j.close()


def test_create_refuses_existing_journal(tmp_path: Path) -> None:
    make(tmp_path / "j.db").close()
    with pytest.raises(FileExistsError):
        Journal.create(tmp_path / "j.db", {})


def test_wider_permissions_are_tightened_on_open(tmp_path: Path) -> None:
    make(tmp_path / "j.db").close()
    os.chmod(tmp_path / "j.db", 0o644)
    Journal.open(tmp_path / "j.db").close()
    assert stat.S_IMODE((tmp_path / "j.db").stat().st_mode) == 0o600


@pytest.mark.parametrize("damage", ["bad_checksum", "truncated_json"])
def test_torn_last_record_is_detected_and_dropped(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "j.db"
    j = make(path)
    data = '{"button":"next_hand","press":"press","t":4.0,"type":"dealer_button"}'
    if damage == "bad_checksum":
        row = (5, 4.0, data, "0" * 32)
    else:  # a partially written record: the data cut short, checksum of the whole
        row = (5, 4.0, data[:23], checksum(5, data))
    j._con.execute("INSERT INTO events VALUES (?, ?, ?, ?)", row)
    j.close()
    j = Journal.open(path)
    rec = recover(j, FakeCore)
    assert rec.torn is not None and rec.torn.seq == 5 and rec.last_seq == 4
    assert rec.replayed == 4
    assert j._con.execute("SELECT max(seq) FROM events").fetchone()[0] == 4  # dropped
    assert j.append(ClockTick(t=5.0)) == 5  # the seq is reused
    j.close()


def test_torn_record_left_in_place_when_read_only(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    j = make(path)
    j._con.execute("INSERT INTO events VALUES (5, 4.0, 'garbage', 'x')")
    j.close()
    before = file_digest(path)
    with Journal.open_readonly(path) as ro:
        rec = recover(ro, FakeCore)
    assert rec.torn is not None and rec.torn.seq == 5
    assert file_digest(path) == before


def test_damaged_middle_record_is_an_error_not_a_silent_loss(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    j = make(path)
    j._con.execute("UPDATE events SET data = replace(data, '120', '999') WHERE seq = 3")
    j.close()
    before = file_digest(path)
    for opener in (Journal.open, Journal.open_readonly):
        with pytest.raises(JournalCorruptError, match="2 journal records .*record 3"):
            opener(path).scan()
    assert file_digest(path) == before


def test_missing_record_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    j = make(path)
    j._con.execute("DELETE FROM events WHERE seq = 2")
    j.close()
    with pytest.raises(JournalCorruptError, match="record 2 is missing"):
        Journal.open(path)


def test_bad_snapshot_falls_back_to_an_older_one(tmp_path: Path) -> None:
    events = [ClockTick(t=float(i)) for i in range(1, 13)] + EVENTS[:1]
    path = tmp_path / "j.db"
    j = make(path, list(events), every=5)
    seqs = [r[0] for r in j._con.execute("SELECT seq FROM snapshots ORDER BY seq")]
    assert seqs == [0, 5, 10]
    expected = recover(j, FakeCore).core.snapshot()
    j._con.execute("UPDATE snapshots SET data = replace(data, '\"level\":1', '\"level\":7') "
                   "WHERE seq = 10")
    j.close()
    with Journal.open(path) as j2:
        rec = recover(j2, FakeCore)
        assert rec.bad_snapshots == [10] and rec.snapshot_seq == 5 and rec.replayed == 8
        assert rec.core.snapshot() == expected


def test_snapshots_are_pruned_but_genesis_kept(tmp_path: Path) -> None:
    j = make(tmp_path / "j.db", [ClockTick(t=float(i)) for i in range(1, 31)], every=3)
    seqs = [r[0] for r in j._con.execute("SELECT seq FROM snapshots ORDER BY seq")]
    assert seqs[0] == 0 and len(seqs) == jmod.KEEP_SNAPSHOTS + 1 and seqs[-1] == 30
    j.close()


def test_newer_schema_is_refused_and_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    make(path).close()
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    before = file_digest(path)
    mtime = path.stat().st_mtime_ns
    for opener in (Journal.open, Journal.open_readonly):
        with pytest.raises(JournalSchemaError, match="newer") as info:
            opener(path)
        assert str(path) in str(info.value) and "not changed" in str(info.value)
    assert file_digest(path) == before and path.stat().st_mtime_ns == mtime


def test_not_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    path.write_bytes(os.urandom(8192))
    with pytest.raises(JournalCorruptError, match="not a pokertable journal"):
        Journal.open(path)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE x(y)").connection.commit()
    with pytest.raises(JournalCorruptError, match="no schema version"):
        Journal.open(other)


def test_second_writer_is_refused(tmp_path: Path) -> None:
    j = make(tmp_path / "j.db")
    with pytest.raises(JournalBusyError, match="in use"):
        Journal.open(tmp_path / "j.db")
    j.close()
    Journal.open(tmp_path / "j.db").close()


def test_disk_full_is_typed_and_writes_nothing(tmp_path: Path) -> None:
    j = make(tmp_path / "j.db")
    pages = j._con.execute("PRAGMA page_count").fetchone()[0]
    j._con.execute(f"PRAGMA max_page_count={pages}")
    big = PlayerAction(t=9.0, seat=1, action="bet_raise", amount=10**30)
    with pytest.raises(JournalUnavailable) as info:
        for i in range(200):  # fill the last free page
            j.append(PlayerAction(t=9.0 + i, seat=1, action="check_call") if i else big)
    assert info.value.reason == "disk full" and isinstance(info.value, OSError)
    seq = j.last_seq
    assert j.count_events() == seq  # the failed append left nothing behind
    with pytest.raises(JournalUnavailable):
        j.write_snapshot({"big": "x" * 100_000})
    with pytest.raises(JournalUnavailable):
        j.probe()
    j._con.execute("PRAGMA max_page_count=1000000")
    j.probe()
    assert j.append(ClockTick(t=99.0)) == seq + 1
    j.close()


def test_read_only_database_is_typed(tmp_path: Path) -> None:
    j = make(tmp_path / "j.db")
    j._con.execute("PRAGMA query_only=ON")
    with pytest.raises(JournalUnavailable) as info:
        j.append(ClockTick(t=10.0))
    assert info.value.reason == "read-only"
    j._con.execute("PRAGMA query_only=OFF")
    j.close()


def test_os_errors_map_to_unavailable() -> None:
    full = unavailable_from(OSError(errno.ENOSPC, "No space left on device"), "j.db")
    rofs = unavailable_from(OSError(errno.EROFS, "Read-only file system"), "j.db")
    assert full is not None and full.reason == "disk full"
    assert rofs is not None and rofs.reason == "read-only file system"
    assert unavailable_from(sqlite3.OperationalError("attempt to write a readonly database"),
                            "j.db").reason == "read-only"
    assert unavailable_from(OSError(errno.ENOENT, "gone"), "j.db") is None
    assert unavailable_from(ValueError("x"), "j.db") is None
