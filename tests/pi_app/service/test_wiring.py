"""Building the service on a journal (pi_app/service/wiring.py): a restart replays once."""

from __future__ import annotations

import sqlite3

from engine.table.core import TableCore, TableSettings
from pi_app.service.clock_source import VirtualClock
from pi_app.service.journal import Journal
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


def _journal_of_play(tmp_path, events: int):
    path = tmp_path / "j.db"
    settings = TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"}, seed=4)
    svc = build_service(None, journal_path=path, core_factory=lambda: TableCore.new(settings),
                        clock=VirtualClock(), snapshot_every=10**6)
    for _ in range(events):
        svc.loop.handle(step_event(next_step(svc.loop.core, seed=4), svc.loop.core))
    live = svc.loop.core.snapshot()
    svc.journal.close()
    return path, live


def _count_scans(monkeypatch) -> list[bool]:
    """Each journal scan from now on, by whether its journal was read-only."""
    scans: list[bool] = []
    real_scan = Journal.scan
    monkeypatch.setattr(Journal, "scan",
                        lambda self: scans.append(self.readonly) or real_scan(self))
    return scans


def test_a_restart_reads_the_journal_once_when_it_ends_as_the_checks_found_it(
        tmp_path, monkeypatch):
    """The writable journal ends with the record (and chained checksum) the read-only checks
    verified a moment before under the same lock: it is not read and verified again."""
    path, live = _journal_of_play(tmp_path, 60)
    scans = _count_scans(monkeypatch)
    again = build_service(None, journal_path=path, clock=VirtualClock())
    try:
        assert scans == [True]
        assert again.loop.core.snapshot() == live
        assert again.journal.last_seq == again.recovered.last_seq >= 60
    finally:
        again.close()


def test_a_journal_with_a_torn_last_record_is_read_again_to_drop_it(tmp_path, monkeypatch):
    path, _ = _journal_of_play(tmp_path, 60)
    con = sqlite3.connect(path)
    last = con.execute("SELECT max(seq) FROM events").fetchone()[0]
    # a record past the high-water mark whose write was cut short: its checksum fails
    con.execute("INSERT INTO events SELECT seq + 1, t, data, 'cut short' FROM events "
                "WHERE seq = ?", (last,))
    con.commit()
    con.close()
    scans = _count_scans(monkeypatch)
    again = build_service(None, journal_path=path, clock=VirtualClock())
    try:
        assert scans == [True, False]  # the writable journal drops the torn record
        assert again.recovered.torn is not None and again.journal.last_seq == last
    finally:
        again.close()


def test_a_table_with_no_tv_and_no_seat_display_builds_no_view(tmp_path, monkeypatch):
    """A headless table (no TV, no seat display wired) does not build the screen or the seat
    views after each event (they cost more than the event itself); a wired TV still gets
    every changed screen."""
    from pi_app.service.devices import Devices

    settings = TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"}, seed=4)
    built: list[str] = []
    real_screen, real_seats = TableCore.screen_state, TableCore.seat_views
    monkeypatch.setattr(TableCore, "screen_state",
                        lambda self, *a, **k: built.append("screen") or real_screen(self, *a, **k))
    monkeypatch.setattr(TableCore, "seat_views",
                        lambda self, *a, **k: built.append("seats") or real_seats(self, *a, **k))
    for with_tv in (False, True):
        built.clear()
        svc = build_service(None, journal_path=tmp_path / f"j{with_tv}.db",
                            core_factory=lambda: TableCore.new(settings), clock=VirtualClock())
        devices = Devices()
        drawn: list[object] = []
        if with_tv:
            devices.tv = type("TV", (), {"render": lambda _s, state, d=drawn: d.append(state),
                                         "pump": lambda _s: None})()
        svc.attach(devices)
        try:
            for _ in range(30):
                svc.loop.handle(step_event(next_step(svc.loop.core, seed=4), svc.loop.core))
        finally:
            svc.close()
        if with_tv:
            assert "screen" in built and drawn and "seats" not in built
        else:
            assert built == [] and drawn == []
