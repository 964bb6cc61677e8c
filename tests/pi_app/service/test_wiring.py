"""Building the service on a journal (pi_app/service/wiring.py): a restart replays once."""

from __future__ import annotations

from engine.table.core import TableCore, TableSettings
from pi_app.service.clock_source import VirtualClock
from pi_app.service.wiring import build_service
from pi_app.sim.policy import next_step, step_event


def test_a_restart_replays_each_record_once_and_rebuilds_the_same_table(tmp_path, monkeypatch):
    """The read-only checks before the journal is opened for writing recover the table;
    the writable recovery takes that table (same snapshot, same records) instead of
    applying every event a second time."""
    path = tmp_path / "j.db"
    settings = TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"}, seed=4)
    svc = build_service(None, journal_path=path, core_factory=lambda: TableCore.new(settings),
                        clock=VirtualClock(), snapshot_every=10**6)
    core = svc.loop.core
    for _ in range(120):
        svc.loop.handle(step_event(next_step(core, seed=4), core))
    live = core.snapshot()
    svc.journal.close()  # as a power cut leaves it: no snapshot after the genesis

    applied: list[object] = []
    real_apply = TableCore.apply
    monkeypatch.setattr(TableCore, "apply",
                        lambda self, event: applied.append(event) or real_apply(self, event))
    again = build_service(None, journal_path=path, clock=VirtualClock())
    try:
        assert again.recovered is not None and again.recovered.replayed >= 120
        assert len(applied) == again.recovered.replayed  # once, not once per check
        assert again.loop.core.snapshot() == live
    finally:
        again.close()
