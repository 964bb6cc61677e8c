"""The service loop: journal-before-apply, rendering, effects, ticks, journal failure."""

from __future__ import annotations

import logging
import sqlite3
import stat
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.effects import Alert, HandHistory, LogLine, Notice, ShoeCommand
from engine.events import CardDrawn, ClockTick, DealerButton, PlayerAction
from pi_app.service.clock_source import OffsetClock, RealClock, VirtualClock, continue_after
from pi_app.service.effect_runner import EffectRunner
from pi_app.service.journal import Journal
from pi_app.service.loop import APPLIED, DISPLAY_ONLY, REFUSED, REJECTED, VIEW, ServiceLoop
from tests.pi_app.service.fake_core import FakeCore


def new_loop(tmp_path: Path, core: Any = None, **kw: Any) -> ServiceLoop:
    core = core or FakeCore()
    journal = Journal.create(tmp_path / "j.db", core.snapshot(), snapshot_every=kw.pop("every", 50))
    return ServiceLoop(core, journal, kw.pop("clock", VirtualClock()), **kw)


class SpyCore(FakeCore):
    """Checks, inside apply, that the event is already durable in the journal file."""

    path: Path

    def apply(self, event):  # type: ignore[override]
        import sqlite3
        con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        stored = con.execute("SELECT count(*) FROM events").fetchone()[0]
        con.close()
        self.s.setdefault("seen_stored", []).append(stored)
        return super().apply(event)


def test_event_is_journaled_before_it_is_applied(tmp_path: Path) -> None:
    core = SpyCore()
    core.path = tmp_path / "j.db"
    loop = new_loop(tmp_path, core)
    for i, e in enumerate([DealerButton(t=1.0, button="next_hand"),
                           CardDrawn(t=1.5, uid="04AA", draw=1), ClockTick(t=2.0)], 1):
        assert loop.handle(e) == APPLIED
        assert core.s["seen_stored"][-1] == i  # another connection already sees it


def test_rejected_event_is_journaled_and_changes_nothing(tmp_path: Path) -> None:
    loop = new_loop(tmp_path)
    before = loop.core.snapshot()
    assert loop.handle(PlayerAction(t=1.0, seat=9, action="fold")) == REJECTED
    assert loop.journal.last_seq == 1 and loop.core.snapshot() == before
    assert loop.counts[REJECTED] == 1


def test_time_never_goes_back_in_the_journal(tmp_path: Path) -> None:
    loop = new_loop(tmp_path)
    loop.handle(ClockTick(t=10.0))
    loop.handle(DealerButton(t=3.0, button="next_hand"))
    assert [e.t for _, e in loop.journal.events()] == [10.0, 10.0]


def test_a_view_call_runs_on_the_loop_and_draws_the_tv_now_journaling_nothing(
        tmp_path: Path) -> None:
    """What another thread feeds a view with (the venue director's state, on the broker's
    thread) is drawn before the next event, with no record and no change to the core."""
    screens: list[Any] = []
    loop = new_loop(tmp_path, tv=screens.append)
    loop.render(force=True)
    banner = {"text": ""}
    loop.tv_overlays.append(lambda s: replace(s, alarms=(banner["text"],) if banner["text"] else ()))
    before, records = loop.core.snapshot(), loop.journal.last_seq
    ran: list[str] = []
    threading.Thread(target=loop.call_soon, args=(lambda: (ran.append(
        threading.current_thread().name), banner.update(text="P05 moves to table 2")),)
    ).start()
    assert loop.handle(loop.queue.get(timeout=5)) == VIEW
    assert ran == [threading.current_thread().name]  # run on the loop's thread
    assert screens[-1].alarms == ("P05 moves to table 2",) and len(screens) == 2
    assert loop.core.snapshot() == before and loop.journal.last_seq == records
    loop.call_soon(lambda: 1 / 0)  # a failing view call is logged, the loop goes on
    assert loop.pump() == 1 and loop.journal.last_seq == records


def test_renderers_get_only_changes(tmp_path: Path) -> None:
    screens, seat_calls = [], []
    loop = new_loop(tmp_path, tv=screens.append, seats=seat_calls.append)
    loop.render(force=True)
    assert len(screens) == 1 and sorted(seat_calls[0]) == [1, 2, 3, 4, 5, 6]
    loop.handle(DealerButton(t=1.0, button="next_hand"))  # antes change every stack
    assert len(screens) == 2 and sorted(seat_calls[-1]) == [1, 2, 3, 4, 5, 6]
    loop.handle(PlayerAction(t=1.2, seat=2, action="bet_raise", amount=50))
    assert list(seat_calls[-1]) == [2]  # only seat 2's display changed
    n_screens, n_seats = len(screens), len(seat_calls)
    loop.handle(PlayerAction(t=1.3, seat=9, action="fold"))  # rejected: nothing changed
    assert (len(screens), len(seat_calls)) == (n_screens, n_seats)


def test_failing_renderer_does_not_stop_the_loop(tmp_path: Path, caplog) -> None:
    def broken(_):
        raise OSError(121, "Remote I/O error")
    loop = new_loop(tmp_path, tv=broken, seats=broken)
    with caplog.at_level(logging.ERROR):
        assert loop.handle(DealerButton(t=1.0, button="next_hand")) == APPLIED
    assert "renderer failed" in caplog.text


def test_effects_are_carried_out(tmp_path: Path, caplog) -> None:
    sounds, shoe, notices = [], [], []

    def bad_sound(alert):
        sounds.append(alert)
        raise RuntimeError("no audio device")
    runner = EffectRunner(tmp_path / "hands", sound=bad_sound, shoe=shoe.append,
                          notice=notices.append)
    with caplog.at_level(logging.INFO, logger="pokertable"):
        runner.run([Alert("level_start", "Blinds up"), ShoeCommand("lock"), Notice("hi"),
                    LogLine("WARNING", "core says"), HandHistory(3, "private text", True),
                    HandHistory(3, "public text", False)])
    assert sounds == [Alert("level_start", "Blinds up")] and shoe == [ShoeCommand("lock")]
    assert notices == ["hi"] and "core says" in caplog.text
    private = tmp_path / "hands" / "hand-000003.phh"
    public = tmp_path / "hands" / "public" / "hand-000003.phh"
    assert private.read_text() == "private text" and public.read_text() == "public text"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    # replay rewrites histories only
    runner.run([Alert("level_start"), ShoeCommand("unlock"), HandHistory(4, "x", True)],
               replay=True)
    assert len(sounds) == 1 and len(shoe) == 1 and (tmp_path / "hands/hand-000004.phh").exists()
    # a replayed history already on disk is not rewritten; a different one is replaced
    before = private.stat().st_mtime_ns, runner.histories_written
    runner.run([HandHistory(3, "private text", True)], replay=True)
    assert (private.stat().st_mtime_ns, runner.histories_written) == before
    runner.run([HandHistory(3, "corrected", True)], replay=True)
    assert private.read_text() == "corrected"


def test_ticks_on_a_fixed_grid(tmp_path: Path) -> None:
    clock = VirtualClock()
    loop = new_loop(tmp_path, clock=clock, tick_interval=0.5)
    clock.advance_to(1.2)
    loop.pump()
    assert [e.t for _, e in loop.journal.events()] == [0.5, 1.0]
    clock.advance_to(100.3)  # a long stall: one tick stands for the gap
    loop.pump()
    assert [e.t for _, e in loop.journal.events()][-1] == 100.0
    assert loop.journal.last_seq == 3


def test_loop_resumes_tick_grid_after_last_journaled_time(tmp_path: Path) -> None:
    loop = new_loop(tmp_path)
    loop.handle(ClockTick(t=7.0))
    loop2 = ServiceLoop(loop.core, loop.journal, VirtualClock(7.0))
    assert loop2.next_tick_t == 8.0


class FullDisk:
    """Wraps the journal's sqlite connection: while ``on``, every write fails as SQLite
    fails on a full disk (the journal's own handling of a real full disk is tested in
    test_journal.py and test_diskfull.py)."""

    def __init__(self, con) -> None:
        self.con = con
        self.on = False

    def execute(self, sql, *args):
        if self.on and sql.split()[0].upper() in ("INSERT", "DELETE", "UPDATE"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.con.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.con, name)


def full(loop: ServiceLoop, on: bool) -> None:
    if not isinstance(loop.journal._con, FullDisk):
        loop.journal._con = FullDisk(loop.journal._con)
    loop.journal._con.on = on


def test_journal_failure_alarm_clock_and_refused_hands(tmp_path: Path) -> None:
    screens = []
    loop = new_loop(tmp_path, tv=screens.append)
    loop.handle(ClockTick(t=1.0))
    full(loop, True)
    seq = loop.journal.last_seq
    core_before = loop.core.snapshot()
    # a tick that cannot be journaled still moves the clock on screen, not in the core
    assert loop.handle(ClockTick(t=6.0)) == DISPLAY_ONLY
    assert loop.screen_state().clock.remaining_seconds == pytest.approx(15.0)
    assert loop.core.screen_state().clock.remaining_seconds == pytest.approx(20.0)
    assert screens[-1].alarm and "JOURNAL UNAVAILABLE" in screens[-1].alarm
    assert "disk full" in screens[-1].alarm
    # a new hand is refused; so is any other input that cannot be written
    assert loop.handle(DealerButton(t=6.5, button="next_hand")) == REFUSED
    assert loop.handle(PlayerAction(t=6.6, seat=1, action="fold")) == REFUSED
    assert loop.core.snapshot() == core_before and loop.journal.last_seq == seq
    assert loop.counts[REFUSED] == 2 and loop.healthy()
    # space is freed: the next event is journaled, the alarm clears, the core catches up
    full(loop, False)
    assert loop.handle(ClockTick(t=7.0)) == APPLIED
    assert loop.alarms == () and loop.journal_ok and screens[-1].alarms == ()
    assert loop.core.screen_state().clock.remaining_seconds == pytest.approx(14.0)
    assert loop.handle(DealerButton(t=7.5, button="next_hand")) == APPLIED


def test_journal_alarm_does_not_hide_the_shoe_offline_alarm(tmp_path: Path) -> None:
    from engine.events import DeviceStatus, ShoeStatus
    from engine.table.core import TableCore, TableSettings
    from engine.table.views import SHOE_OFFLINE_ALARM

    core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"},
                                       structure="gunpowder"))
    screens: list = []
    loop = new_loop(tmp_path, core, tv=screens.append)
    assert loop.handle(ShoeStatus(t=1.0, online=False, reason="unplugged")) == APPLIED
    assert screens[-1].alarms == (SHOE_OFFLINE_ALARM,)
    full(loop, True)
    # an input that must be journaled cannot be: refused, and the journal alarm goes up
    assert loop.handle(DeviceStatus(t=2.0, device="tv", online=False)) == REFUSED
    alarms = screens[-1].alarms
    assert len(alarms) == 2 and "JOURNAL UNAVAILABLE" in alarms[0]
    assert alarms[1] == SHOE_OFFLINE_ALARM  # both stand: neither writer overwrote the other
    full(loop, False)
    assert loop.handle(DeviceStatus(t=3.0, device="tv", online=True)) == APPLIED
    assert screens[-1].alarms == (SHOE_OFFLINE_ALARM,)


def test_only_changed_views_reach_the_devices(tmp_path: Path) -> None:
    screens: list = []
    seats: list = []
    loop = new_loop(tmp_path, tv=screens.append, seats=seats.append)
    loop.render()
    assert len(screens) == 1 and len(seats) == 1
    loop.render()
    assert len(screens) == 1 and len(seats) == 1  # nothing changed: nothing handed over
    loop.render(force=True)
    assert len(screens) == 2 and len(seats) == 2


def test_new_hand_allowed_again_once_probe_succeeds(tmp_path: Path) -> None:
    loop = new_loop(tmp_path)
    full(loop, True)
    assert loop.handle(ClockTick(t=2.0)) == DISPLAY_ONLY
    full(loop, False)
    assert loop.handle(DealerButton(t=2.5, button="next_hand")) == APPLIED
    assert loop.journal_ok


class StatusSpy:
    """A notifier that keeps the systemd status lines it is given."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def status(self, text: str) -> bool:
        self.lines.append(text)
        return True


def test_systemd_status_line_follows_the_disk_full_alarm(tmp_path: Path) -> None:
    """Issue: ``systemctl status`` still said "table ready" while the alarm was up."""
    spy = StatusSpy()
    loop = new_loop(tmp_path, notifier=spy)
    loop.handle(ClockTick(t=1.0))
    full(loop, True)
    loop.handle(ClockTick(t=2.0))
    loop.handle(PlayerAction(t=2.5, seat=1, action="fold"))
    assert len(spy.lines) == 1 and "JOURNAL UNAVAILABLE (disk full)" in spy.lines[0]
    full(loop, False)
    loop.handle(ClockTick(t=3.0))
    assert len(spy.lines) == 2 and "journal writable again" in spy.lines[1]


def test_run_stops_on_request_with_real_clock(tmp_path: Path) -> None:
    loop = new_loop(tmp_path, clock=RealClock(), tick_interval=0.05, max_wait=0.05)
    t = threading.Thread(target=loop.run)
    t.start()
    loop.put(DealerButton(t=time.monotonic(), button="next_hand"))
    time.sleep(0.3)
    loop.request_stop()
    t.join(timeout=5)
    assert not t.is_alive()
    assert loop.counts[APPLIED] >= 2 and loop.counts["ticks"] >= 2
    assert loop.core.s["hand"] is not None


def test_virtual_clock_wait_jumps_instead_of_sleeping() -> None:
    import queue
    clock = VirtualClock(5.0)
    q: queue.Queue = queue.Queue()
    with pytest.raises(queue.Empty):
        clock.wait(q, 3600.0)
    assert clock.now() == 3600.0
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_continue_after_never_reads_earlier_than_the_journal() -> None:
    class Fixed(RealClock):
        def now(self) -> float:
            return 3.0
    c = continue_after(Fixed(), 100.0)
    assert isinstance(c, OffsetClock) and c.now() == 100.0
    assert continue_after(Fixed(), 1.0).now() == 3.0
    v = VirtualClock(0.0)
    assert continue_after(v, 42.0) is v and v.now() == 42.0
