"""The journal's WAL is checkpointed at the loop's idle time, never inside an event's
commit: after a snapshot, or once enough records are past the last checkpoint; inside an
append only past the hard bound (a loop that never idles); the records are on disk in the
WAL until then, and a copy of the files taken between a commit and the checkpoint
recovers every record."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.events import ClockTick
from pi_app.service import journal_wal
from pi_app.service.clock_source import VirtualClock
from pi_app.service.journal import Journal
from pi_app.service.loop import ServiceLoop
from pi_app.service.recovery import recover
from tests.pi_app.service.fake_core import FakeCore


def wal_size(journal: Journal) -> int:
    wal = journal.path.with_name(journal.path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


def new_journal(tmp_path: Path, every: int = 1000) -> Journal:
    return Journal.create(tmp_path / "j.db", {"genesis": True}, snapshot_every=every)


def test_no_commit_checkpoints_by_itself(tmp_path: Path) -> None:
    with new_journal(tmp_path) as j:
        assert j._con.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        sizes = []
        for i in range(1, 1101):  # a page each: past SQLite's own 1,000-page checkpoint
            j.append(ClockTick(t=float(i)), sync_mark=False)
            sizes.append(wal_size(j))
        assert sizes == sorted(sizes) and sizes[-1] > 1000 * 4096  # never emptied
        assert j.wal.pending == 1100 and j.wal.checkpoints == 0


def test_a_snapshot_is_checkpointed_at_idle_not_in_its_commit(tmp_path: Path) -> None:
    with new_journal(tmp_path) as j:
        for i in range(1, 11):
            j.append(ClockTick(t=float(i)))
        j.write_snapshot({"after": 10})
        assert wal_size(j) > 0 and j.wal.checkpoints == 0  # the snapshot left it
        j.idle()
        assert wal_size(j) == 0 and j.wal.checkpoints == 1 and j.wal.pending == 0
        j.append(ClockTick(t=11.0))
        j.idle()  # nothing due: one record past the checkpoint stays in the WAL
        assert wal_size(j) > 0 and j.wal.checkpoints == 1


def test_enough_records_make_a_checkpoint_due_at_idle(tmp_path: Path) -> None:
    with new_journal(tmp_path) as j:
        for i in range(1, journal_wal.IDLE_RECORDS):
            j.append(ClockTick(t=float(i)), sync_mark=False)
        j.idle()
        assert j.wal.checkpoints == 0 and wal_size(j) > 0
        j.append(ClockTick(t=float(journal_wal.IDLE_RECORDS)), sync_mark=False)
        assert j.wal.checkpoints == 0  # the commit did not
        j.idle()
        assert j.wal.checkpoints == 1 and wal_size(j) == 0


def test_a_loop_that_never_idles_has_its_wal_bounded(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_wal, "FORCE_RECORDS", 20)
    with new_journal(tmp_path) as j:
        for i in range(1, 20):
            j.append(ClockTick(t=float(i)), sync_mark=False)
        assert j.wal.checkpoints == 0
        j.append(ClockTick(t=20.0), sync_mark=False)
        assert j.wal.checkpoints == 1 and wal_size(j) == 0


def test_the_service_loop_checkpoints_when_it_idles(tmp_path: Path) -> None:
    core = FakeCore()
    j = Journal.create(tmp_path / "j.db", core.snapshot(), snapshot_every=5)
    loop = ServiceLoop(core, j, VirtualClock(), tick_journal_every=1.0)
    try:
        for s in range(1, 6):  # a tick journaled each second: a snapshot after the 5th
            loop.handle(ClockTick(t=float(s)))
        assert j.last_snapshot_seq == 5 and j.wal.checkpoints == 0
        loop.pump()  # nothing queued: the loop idles
        assert j.wal.checkpoints == 1 and wal_size(j) == 0
    finally:
        j.close()


def test_records_between_a_commit_and_the_checkpoint_are_recovered(tmp_path: Path) -> None:
    core = FakeCore()
    j = Journal.create(tmp_path / "run" / "j.db", core.snapshot(), snapshot_every=4)
    loop = ServiceLoop(core, j, VirtualClock())
    for i in range(1, 11):
        loop.handle(ClockTick(t=float(i)))
        if i == 8:
            loop.idle()  # records 1-8 checkpointed into j.db
    assert wal_size(j) > 0  # records 9 and 10 only in the WAL: a power cut now
    cut = tmp_path / "cut"
    cut.mkdir()
    for suffix in ("", "-wal", ".mark"):
        shutil.copyfile(j.path.with_name("j.db" + suffix), cut / ("j.db" + suffix))
    state = core.snapshot()
    j.close()
    with Journal.open(cut / "j.db") as again:
        rec = recover(again, FakeCore)
    assert rec.last_seq == 10 and rec.core.snapshot() == state
