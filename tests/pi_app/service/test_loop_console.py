"""The service loop with the console's observers and prechecked commands: an answer and a
push never wait for the TV's redraw, and a command stamped just before a clock tick is
checked at the loop's time, as it is journaled."""

from __future__ import annotations

from pathlib import Path

from engine.events import ClockTick, ConsoleCommand
from engine.table.core import TableCore, TableSettings
from pi_app.service.clock_source import VirtualClock
from pi_app.service.journal import Journal
from pi_app.service.loop import APPLIED, ServiceLoop


def new_loop(tmp_path: Path, **kw) -> ServiceLoop:
    core = TableCore.new(TableSettings(players={}, seats=(1, 2, 3)))
    journal = Journal.create(tmp_path / "j.db", core.snapshot())
    return ServiceLoop(core, journal, VirtualClock(), **kw)


def register(t: float, name: str) -> ConsoleCommand:
    return ConsoleCommand(t=t, command="register", args={"name": name}, role="director",
                          token="t0k3n", at="2026-12-01T20:00:00Z")


def test_a_command_stamped_before_the_last_tick_is_checked_and_applied_at_its_time(tmp_path):
    verdicts: list[tuple[str, str | None]] = []
    loop = new_loop(tmp_path)
    loop.observers.append(lambda _e, verdict, reason: verdicts.append((verdict, reason)))
    loop.handle(ClockTick(t=10.0))
    assert loop.handle(register(9.95, "Ann")) == APPLIED, verdicts[-1]
    assert loop.core.console.waiting == ["Ann"]
    assert [e.t for _, e in loop.journal.events()][-1] == 10.0


def test_observers_hear_an_applied_event_before_the_tv_is_drawn(tmp_path):
    order: list[str] = []
    loop = new_loop(tmp_path, tv=lambda _screen: order.append("tv"))
    loop.observers.append(lambda _e, verdict, _r: order.append(f"observer {verdict}"))
    loop.handle(register(1.0, "Ann"))
    assert order == ["observer applied", "tv"]
    order.clear()
    loop.handle(register(2.0, "Ann"))  # refused: nothing to draw
    assert order == ["observer refused"]
