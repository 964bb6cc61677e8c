"""Power cuts and damage at the file level.

* A power cut: every file of the journal (database, WAL, high-water mark) copied at a
  random moment, the WAL perhaps holding part of the next record's write (torn by the
  cut).  Recovery is silent and exact: the state after every committed event, nothing lost.
* Damage: the same copy, then its WAL cut at a random byte or 16 random bytes flipped
  (issue: a young journal lives in its WAL).  The journal is either refused, with the
  number of missing records and every file unchanged, or (when the damage hit nothing
  committed) recovered exactly; never recovered shorter without a word.
"""

from __future__ import annotations

import hashlib
import random
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_app.service.clock_source import VirtualClock
from pi_app.service.journal import Journal, JournalLossError
from pi_app.service.loop import ServiceLoop
from pi_app.service.recovery import recover
from tests.pi_app.service.fake_core import FakeCore, bot_event

SUFFIXES = ("", "-wal", ".mark")


def copy_journal(src: Path, dst_dir: Path) -> Path:
    """Copy the journal's files as they are now (what a power cut leaves)."""
    dst_dir.mkdir(parents=True, exist_ok=True)
    for suffix in SUFFIXES:
        f = src.with_name(src.name + suffix)
        if f.exists():
            shutil.copyfile(f, dst_dir / f.name)
    return dst_dir / src.name


def digests(path: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in path.parent.iterdir() if p.name in {path.name + s for s in SUFFIXES}}


def play(run_dir: Path, seed: int, cut_at: int, torn: float | None):
    """Play 120 events; copy the files after event ``cut_at``; with ``torn``, add that
    share of the next record's WAL bytes to the copy (its write cut by the power)."""
    core = FakeCore()
    journal = Journal.create(run_dir / "j.db", core.snapshot(), snapshot_every=7)
    loop = ServiceLoop(core, journal, VirtualClock())
    states = {0: core.snapshot()}
    rng = random.Random(seed)
    copy = None
    wal = journal.path.with_name("j.db-wal")
    for i in range(1, 121):
        before = wal.read_bytes() if i == cut_at + 1 and wal.exists() else None
        loop.handle(bot_event(core, rng, i * 0.5))
        loop.idle()  # as the service does when no event is queued: the WAL checkpointed
        states[journal.last_seq] = core.snapshot()
        if i == cut_at:
            copy = copy_journal(journal.path, run_dir / "cut")
        if before is not None and torn is not None and copy is not None:
            after = wal.read_bytes()
            if after.startswith(before) and len(after) > len(before):
                part = after[len(before):len(before) + int((len(after) - len(before)) * torn)]
                with open(copy.with_name("j.db-wal"), "ab") as fh:
                    fh.write(part)
    journal.close()
    assert copy is not None
    return copy, states


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), cut_at=st.integers(1, 119),
       torn=st.one_of(st.none(), st.floats(0.0, 0.99)))
def test_recovery_from_a_copy_taken_at_a_power_cut(tmp_path: Path, seed: int, cut_at: int,
                                                   torn: float | None) -> None:
    copy, states = play(Path(tempfile.mkdtemp(dir=tmp_path)), seed, cut_at, torn)
    with Journal.open(copy) as j:
        rec = recover(j, FakeCore)
    assert rec.last_seq == cut_at  # a power cut loses nothing that was committed
    assert rec.core.snapshot() == states[rec.last_seq]
    assert rec.loss is None


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), cut_at=st.integers(1, 119), where=st.floats(0.0, 0.999),
       flip=st.booleans())
def test_damaged_wal_is_refused_never_silently_shorter(tmp_path: Path, seed: int, cut_at: int,
                                                       where: float, flip: bool) -> None:
    copy, states = play(Path(tempfile.mkdtemp(dir=tmp_path)), seed, cut_at, None)
    wal = copy.with_name("j.db-wal")
    data = bytearray(wal.read_bytes() if wal.exists() else b"")
    if not data:
        return  # just checkpointed: everything is in journal.db
    at = int(len(data) * where)
    if flip:
        data[at:at + 16] = bytes(b ^ 0x5A for b in data[at:at + 16])
    else:
        del data[at:]
    wal.write_bytes(bytes(data))
    before = digests(copy)
    try:
        with Journal.open(copy) as j:
            rec = recover(j, FakeCore)
    except JournalLossError as exc:
        assert exc.missing is not None and 1 <= exc.missing <= cut_at
        assert f"{exc.missing} journal records are missing" in str(exc)
        assert digests(copy) == before
        return
    assert rec.last_seq == cut_at and rec.core.snapshot() == states[cut_at]


def test_a_deleted_wal_is_refused_then_accepted_knowingly(tmp_path: Path, caplog) -> None:
    copy, states = play(tmp_path, 7, 100, None)
    wal = copy.with_name("j.db-wal")
    assert wal.exists() and wal.stat().st_size > 0  # records 99-100 are only in the WAL
    wal.unlink()
    before = digests(copy)
    for opener in (Journal.open, Journal.open_readonly):
        with pytest.raises(JournalLossError, match="2 journal records are missing") as info:
            opener(copy).scan()
        assert info.value.missing == 2 and str(copy) in str(info.value)
    assert digests(copy) == before
    with Journal.open(copy, accept_loss=True) as j:
        rec = recover(j, FakeCore)
        assert rec.last_seq == 98 and rec.core.snapshot() == states[98]
        assert rec.loss is not None and rec.loss.missing == 2
    assert "journal loss accepted" in caplog.text and "2 journal records" in caplog.text
    with Journal.open(copy) as j:  # from now on the mark agrees with the journal
        assert recover(j, FakeCore).last_seq == 98
