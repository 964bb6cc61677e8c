"""Power cuts at the file level: copy the journal's files (database + WAL) at a random
moment, or cut the WAL copy at a random byte (a write torn by the power cut), and recover
from the copy.  The result must be exactly the state after some prefix of the events, and
never lose an event that was fully committed before the cut."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_app.service.clock_source import VirtualClock
from pi_app.service.journal import Journal
from pi_app.service.loop import ServiceLoop
from pi_app.service.recovery import recover
from tests.pi_app.service.fake_core import FakeCore, bot_event


def copy_journal(src: Path, dst_dir: Path, cut_wal_at: float | None) -> Path:
    dst_dir.mkdir(parents=True, exist_ok=True)
    dst = dst_dir / src.name
    shutil.copyfile(src, dst)
    wal = src.with_name(src.name + "-wal")
    if wal.exists():
        data = wal.read_bytes()
        if cut_wal_at is not None:
            data = data[: int(len(data) * cut_wal_at)]
        dst.with_name(dst.name + "-wal").write_bytes(data)
    return dst


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), cut_at=st.integers(1, 120),
       torn=st.one_of(st.none(), st.floats(0.0, 1.0)))
def test_recovery_from_a_copy_taken_at_a_power_cut(tmp_path: Path, seed: int, cut_at: int,
                                                   torn: float | None) -> None:
    run_dir = Path(tempfile.mkdtemp(dir=tmp_path))
    core = FakeCore()
    journal = Journal.create(run_dir / "j.db", core.snapshot(), snapshot_every=7)
    loop = ServiceLoop(core, journal, VirtualClock())
    states = {0: core.snapshot()}
    rng = random.Random(seed)
    copy = None
    for i in range(1, 121):
        loop.handle(bot_event(core, rng, i * 0.5))
        states[journal.last_seq] = core.snapshot()
        if i == cut_at:
            copy = copy_journal(journal.path, run_dir / "cut", torn)
    journal.close()
    assert copy is not None
    if not Journal.exists(copy):
        # the cut took even the journal's creation (it lives in the WAL until the first
        # checkpoint): the service starts a new journal, i.e. the state before any event
        assert torn is not None
        return
    with Journal.open(copy) as j:
        rec = recover(j, FakeCore)
    assert rec.last_seq <= cut_at
    assert rec.core.snapshot() == states[rec.last_seq]
    if torn is None:
        assert rec.last_seq == cut_at  # a clean copy loses nothing committed
