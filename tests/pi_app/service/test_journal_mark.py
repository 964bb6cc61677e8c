"""The journal's high-water mark: written after every commit, fsynced at once or when the
loop is idle, and never with both slots unsynced (a torn write spoils one slot at most)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.events import DealerButton
from pi_app.service.clock_source import VirtualClock
from pi_app.service.journal import Journal
from pi_app.service.journal_mark import SLOT, Mark, MarkWriter, _parse, create_mark, read_mark
from pi_app.service.loop import ServiceLoop
from tests.pi_app.service.fake_core import FakeCore


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The file descriptors ``os.fsync`` is called on (SQLite's own fsyncs are not seen)."""
    calls: list[int] = []
    real = os.fsync

    def spy(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return calls


def slots(journal: Path) -> list[Mark | None]:
    raw = journal.with_name(journal.name + ".mark").read_bytes()
    return [_parse(raw[:SLOT]), _parse(raw[SLOT:2 * SLOT])]


def test_unsynced_advances_keep_writing_one_slot_until_it_is_synced(tmp_path, fsyncs):
    j = tmp_path / "j.db"
    create_mark(j, Mark("id", 0, "id"))
    w = MarkWriter(j, "id")
    fsyncs.clear()              # (the mark's creation fsyncs it and its folder)
    w.advance(1, "c1")          # fsynced at once: the next write goes to the other slot
    assert len(fsyncs) == 1 and [m.seq for m in slots(j)] == [0, 1]
    for seq in (2, 3, 4):
        w.advance(seq, f"c{seq}", sync=False)
        # slot 1 (seq 1) stays as fsynced; only slot 0 is rewritten
        assert [m.seq for m in slots(j)] == [seq, 1] and read_mark(j).seq == seq
    assert len(fsyncs) == 1
    w.sync()
    w.sync()  # nothing new: no second fsync
    assert len(fsyncs) == 2
    w.advance(5, "c5", sync=False)
    assert [m.seq for m in slots(j)] == [4, 5]  # now slot 0 is the synced one
    w.close()


def test_the_loop_fsyncs_the_mark_when_idle_not_before_the_frame(tmp_path, fsyncs):
    core = FakeCore()
    journal = Journal.create(tmp_path / "j.db", core.snapshot(), snapshot_every=10**6)
    frames: list[int] = []
    loop = ServiceLoop(core, journal, VirtualClock(), tv=lambda s: frames.append(len(fsyncs)))
    before = len(fsyncs)
    loop.handle(DealerButton(t=1.0, button="next_hand"))
    assert frames and frames[-1] == before        # the frame came with no mark fsync
    assert len(fsyncs) == before
    assert read_mark(journal.path).seq == journal.last_seq == 1  # written: a kill keeps it
    loop.put(DealerButton(t=2.0, button="next_hand"))
    assert loop.pump() == 1                        # the queue drained: idle
    assert len(fsyncs) == before + 1 and read_mark(journal.path).seq == 2
    loop.handle(DealerButton(t=3.0, button="next_hand"))
    journal.close()                                # closing syncs what is left
    assert len(fsyncs) == before + 2
