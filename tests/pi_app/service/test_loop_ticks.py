"""Only the clock ticks that change the tournament are journaled; recovery stays exact."""

from __future__ import annotations

from pathlib import Path

from engine.events import ClockTick, DealerButton
from engine.table.core import TableCore, TableSettings
from pi_app.service.clock_source import VirtualClock
from pi_app.service.journal import Journal
from pi_app.service.loop import ServiceLoop
from pi_app.service.recovery import recover


def _idle_loop(tmp_path: Path, seconds: int, **kw) -> tuple[ServiceLoop, VirtualClock]:
    core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"}, seed=1))
    clock = VirtualClock()
    j = Journal.create(tmp_path / "j.db", core.snapshot(), snapshot_every=10**6)
    loop = ServiceLoop(core, j, clock, **kw)
    loop.handle(DealerButton(t=0.0, button="next_hand"))  # starts the clock; no card
    for s in range(1, seconds + 1):
        clock.advance_to(float(s))
        loop.pump()
    return loop, clock


def _tick_records(journal: Journal) -> list[float]:
    return [ev.t for _seq, ev in journal.events() if isinstance(ev, ClockTick)]


def test_an_idle_stretch_journals_only_ticks_that_change_the_tournament(tmp_path):
    # the first gunpowder levels are 10 minutes: 1500 s cross two level changes, each
    # with its one-minute and ten-second warnings
    loop, _ = _idle_loop(tmp_path, 1500, tick_journal_every=10**6)
    ticks = _tick_records(loop.journal)
    assert loop.counts["ticks"] == 1500
    assert len(ticks) == 6, ticks
    # the level changes are among them, the quiet seconds are not
    assert {600.0, 1200.0} <= set(ticks) and not {300.0, 900.0} & set(ticks)
    assert loop.counts["unjournaled_ticks"] == 1500 - len(ticks)


def test_a_quiet_clock_still_leaves_a_record_every_minute(tmp_path):
    loop, _ = _idle_loop(tmp_path, 600)
    ticks = _tick_records(loop.journal)
    assert 9 <= len(ticks) <= 12, ticks  # one a minute, plus any alert
    gaps = [b - a for a, b in zip([0.0, *ticks[:-1]], ticks, strict=True)]
    assert max(gaps) <= 60.0


def test_recovery_from_the_sparse_journal_is_exact(tmp_path):
    loop, _ = _idle_loop(tmp_path, 1500, tick_journal_every=10**6)
    live = loop.core
    loop.journal.close()
    with Journal.open_readonly(tmp_path / "j.db") as j:
        rec = recover(j, TableCore)
    assert rec.core.last_t < live.last_t  # the quiet ticks were not replayed...
    rec.core.apply(ClockTick(t=live.last_t))
    assert rec.core.snapshot() == live.snapshot()  # ...and were not needed
