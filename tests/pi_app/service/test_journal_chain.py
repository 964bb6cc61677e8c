"""Damage before the newest snapshot is found at open: the whole chain is verified (hash
only), a record changed in place there, or whose text is not UTF-8, is refused like any
other loss, naming the record; accepted knowingly, the table goes on from the snapshot."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest

from engine.events import ClockTick
from pi_app.service.journal import Journal, JournalLossError
from pi_app.service.journal_chain import first_break
from pi_app.service.recovery import recover
from tests.pi_app.service.fake_core import FakeCore


def _journal(path: Path) -> Path:
    """40 records (``t`` = 1001.25 ... 1040.25, each unique in the file), a snapshot
    after record 30; closed, so every record is in ``journal.db`` itself."""
    core = FakeCore()
    with Journal.create(path, core.snapshot(), snapshot_every=10_000) as j:
        for i in range(1, 41):
            event = ClockTick(t=1000.25 + i)
            j.append(event)
            core.apply(event)
            if i == 30:
                j.write_snapshot(core.snapshot())
    return path


def _overwrite(path: Path, needle: bytes, replacement: bytes) -> None:
    """Overwrite, in place, the first byte(s) of the one occurrence of ``needle``."""
    data = bytearray(path.read_bytes())
    assert data.count(needle) == 1, needle
    at = data.index(needle)
    data[at:at + len(replacement)] = replacement
    path.write_bytes(bytes(data))


def _open(opener: str, path: Path) -> None:
    """Open ``path`` as the service does (``open``) or read it (``open_readonly``, then
    its scan)."""
    if opener == "open":
        Journal.open(path).close()
    else:
        with Journal.open_readonly(path) as j:
            j.scan()


def _files(path: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.parent.iterdir()) if p.is_file()}


@pytest.mark.parametrize("damage", [b"Q", b"\xff\xff\xff\xff"])
@pytest.mark.parametrize("opener", ["open", "open_readonly"])
def test_a_record_damaged_before_the_snapshot_is_refused(tmp_path: Path, damage: bytes,
                                                         opener: str) -> None:
    path = _journal(tmp_path / "journal.db")
    _overwrite(path, b"1012.25", damage)
    before = _files(path)
    with pytest.raises(JournalLossError) as info:
        _open(opener, path)
    text = str(info.value)
    assert "record 12 is damaged" in text and "before the snapshot of record 30" in text
    assert "--accept-journal-loss" in text and "\n" not in text
    assert _files(path) == before


def test_accepting_the_break_goes_on_from_the_snapshot_and_is_remembered(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = _journal(tmp_path / "journal.db")
    expected = FakeCore()
    for i in range(1, 41):
        expected.apply(ClockTick(t=1000.25 + i))
    _overwrite(path, b"1012.25", b"Q")
    caplog.set_level(logging.WARNING)
    with Journal.open(path, accept_loss=True) as j:
        rec = recover(j, FakeCore)
        assert rec.last_seq == 40 and rec.snapshot_seq == 30
        assert rec.core.snapshot() == expected.snapshot()
    assert "record 12 is damaged" in caplog.text
    with Journal.open(path) as j:  # accepted once: not asked again
        assert j.scan().last_seq == 40
        j.append(ClockTick(t=2000.0))
    with Journal.open(path) as j:
        assert j.scan().last_seq == 41


def test_text_that_is_not_utf8_after_the_snapshot_is_a_damaged_record(tmp_path: Path) -> None:
    path = _journal(tmp_path / "journal.db")
    _overwrite(path, b"1035.25", b"\xff\xff\xff\xff")
    before = _files(path)
    with pytest.raises(JournalLossError, match="record 35 is damaged"):
        Journal.open(path)
    assert _files(path) == before
    with Journal.open_readonly(path, accept_loss=True) as j:
        assert j.scan().last_seq == 34


def test_the_chain_check_reads_bytes_and_names_a_missing_record(tmp_path: Path) -> None:
    import sqlite3

    path = _journal(tmp_path / "journal.db")
    con = sqlite3.connect(path)
    jid = con.execute("SELECT value FROM meta WHERE key = 'journal_id'").fetchone()[0]
    assert first_break(con, jid, 40) is None
    con.execute("DELETE FROM events WHERE seq = 7")
    assert first_break(con, jid, 30) == (7, "record 7 is missing (next is 8)")
    assert first_break(con, jid, 30, anchor=8) is None
    con.close()


@pytest.mark.parametrize("column", ["checksum of record 40", "checksum of record 30",
                                    "journal_id"])
def test_bytes_that_are_not_utf8_elsewhere_are_a_loss_not_a_decoding_error(
        tmp_path: Path, column: str) -> None:
    import sqlite3

    path = _journal(tmp_path / "journal.db")
    con = sqlite3.connect(path)
    bad = "CAST(X'ffffffff' || CAST(substr({0}, 5) AS BLOB) AS TEXT)"
    if column == "journal_id":
        con.execute(f"UPDATE meta SET value = {bad.format('value')} WHERE key = 'journal_id'")
    else:
        seq = int(column.rsplit(" ", 1)[1])
        con.execute(f"UPDATE events SET checksum = {bad.format('checksum')} WHERE seq = ?",
                    (seq,))
    con.commit()
    con.close()
    before = _files(path)
    with pytest.raises(JournalLossError, match="journal records are missing|differs|damaged"):
        Journal.open(path)
    assert _files(path) == before


@pytest.mark.parametrize(("prev", "seq", "data"), [
    ("journal-id", 1, '{"t":0.0,"type":"ClockTick"}'), ("0" * 32, 12345, "Zoë ♠ é"), ("", 7, "")])
def test_the_chain_on_bytes_is_the_chain_on_text(prev: str, seq: int, data: str) -> None:
    """The whole-chain check's bytes form gives the very checksum the journal writes."""
    from pi_app.service.journal_files import chain, chain_bytes

    assert chain_bytes(prev.encode(), seq, data.encode()) == chain(prev, seq, data).encode()


@pytest.mark.parametrize(("record", "opener"), [(12, "open"), (12, "open_readonly"),
                                                (35, "open"), (35, "open_readonly")])
def test_a_damaged_event_type_is_damage_not_a_newer_pokertable(tmp_path: Path, record: int,
                                                               opener: str) -> None:
    """A flipped byte in a record's event type ("clock_tick" read as "clwck_tick") fails
    the record's checksum: it is told as damage, before the snapshot or after it."""
    path = _journal(tmp_path / "journal.db")
    _overwrite(path, f'{1000.25 + record},"type":"cl'.encode(),
               f'{1000.25 + record},"type":"cw'.encode())
    before = _files(path)
    with pytest.raises(JournalLossError) as info:
        _open(opener, path)
    assert f"record {record} is damaged (checksum mismatch)" in str(info.value)
    assert "newer" not in str(info.value)
    assert _files(path) == before


def test_an_unknown_event_type_with_its_checksum_is_a_newer_pokertable(
        tmp_path: Path) -> None:
    """The same change made with the record's chained checksum written anew (and the
    records after it chained to it) is what a newer pokertable writes."""
    import sqlite3

    from pi_app.service.journal import JournalNewerError
    from pi_app.service.journal_files import chain

    path = _journal(tmp_path / "journal.db")
    con = sqlite3.connect(path)
    jid = con.execute("SELECT value FROM meta WHERE key = 'journal_id'").fetchone()[0]
    prev = jid
    for seq, data in con.execute("SELECT seq, data FROM events ORDER BY seq").fetchall():
        if seq == 12:
            data = data.replace("clock_tick", "cwock_tick")
        prev = chain(prev, seq, data)
        con.execute("UPDATE events SET data = ?, checksum = ? WHERE seq = ?", (data, prev, seq))
    con.commit()
    con.close()
    Path(f"{path}.mark").unlink()  # the mark names the old checksum of record 40
    with pytest.raises(JournalNewerError, match="record 12 was written by a newer pokertable"):
        with Journal.open_readonly(path, accept_loss=True) as j:
            j.scan()
