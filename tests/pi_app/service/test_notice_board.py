"""The table's public notices reach the TV: the loop keeps the engine's Notice effects of
the events it applies live (pi_app/service/notice_board.py), puts them into the screen
state for NOTICE_SECONDS of table time and no longer than the hand, wakes once when one
times out, and a replay of the journal shows none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.events import DealerButton, DealerCommand
from engine.table.core import TableCore
from engine.table.settings import TableSettings
from engine.views import ScreenState
from pi_app.service.clock_source import VirtualClock
from pi_app.service.journal import Journal
from pi_app.service.loop import ServiceLoop
from pi_app.service.notice_board import MAX_NOTICES, NOTICE_SECONDS, NoticeBoard
from pi_app.service.wiring import build_service
from pi_app.sim.policy import next_step, step_event

PLAYERS = {1: "Ann", 2: "Bob", 3: "Carmen"}


def real_core() -> TableCore:
    return TableCore.new(TableSettings(players=PLAYERS, structure="gunpowder", seed=3,
                                       layout="table"))


def real_loop(tmp_path: Path, screens: list[ScreenState], **kw: Any) -> ServiceLoop:
    core = real_core()
    journal = Journal.create(tmp_path / "j.db", core.snapshot())
    return ServiceLoop(core, journal, VirtualClock(), tv=screens.append, **kw)


def first_action(loop: ServiceLoop, t: float) -> float:
    """Deal hand 1 through the loop up to its first player action, applied; the time."""
    loop.handle(DealerButton(t=t, button="next_hand"))
    while True:
        step = next_step(loop.core, seed=3, max_hands=1)
        assert step.kind != "done"
        event = step_event(step, loop.core)
        loop.clock.advance_to(event.t)  # type: ignore[attr-defined]
        loop.handle(event)
        if step.kind == "press":
            return event.t


def test_a_notice_stands_its_seconds_newest_first_and_at_most_a_few():
    board = NoticeBoard()
    for i in range(MAX_NOTICES + 1):
        board.post(f"notice {i}", now=10.0 + i, hand=1)
    assert board.shown(10.0 + MAX_NOTICES, 1) == tuple(
        f"notice {i}" for i in range(MAX_NOTICES, 0, -1))
    assert board.next_expiry == 11.0 + NOTICE_SECONDS  # the oldest left: "notice 1"
    assert board.due(11.0 + NOTICE_SECONDS) and not board.due(10.9 + NOTICE_SECONDS)
    assert board.shown(11.0 + NOTICE_SECONDS, 1)[-1] == f"notice {MAX_NOTICES - 1}"
    board.post("   ", now=20.0, hand=1)
    assert "   " not in board.shown(20.0, 1)
    with pytest.raises(ValueError):
        NoticeBoard(seconds=0)


def test_a_new_hand_clears_the_notices_of_the_hands_before():
    board = NoticeBoard()
    board.post("Ann joins in seat 4 with 12,000", now=1.0, hand=7)
    board.post("Bonus 1,500 in this pot", now=2.0, hand=8)  # the new hand's own
    assert board.shown(2.0, 8) == ("Bonus 1,500 in this pot",)
    board.post("no hand number", now=2.0, hand=None)
    assert board.shown(3.0, 9) == ("no hand number",)  # times out only


def test_the_undo_of_a_real_hand_is_on_the_tv_then_gone_after_its_time(tmp_path):
    screens: list[ScreenState] = []
    loop = real_loop(tmp_path, screens)
    loop.render(force=True)
    t = first_action(loop, 1.0) + 0.5
    loop.clock.advance_to(t)  # type: ignore[attr-defined]
    loop.handle(DealerButton(t=t, button="undo"))
    assert screens[-1].notices == ("Last action undone",)
    loop.clock.advance_to(t + NOTICE_SECONDS - 0.01)  # type: ignore[attr-defined]
    loop.pump()
    assert screens[-1].notices == ("Last action undone",)
    loop.clock.advance_to(t + NOTICE_SECONDS)  # type: ignore[attr-defined]
    loop.pump()
    assert screens[-1].notices == ()
    assert loop.notices.posted == [] and loop.notices.next_expiry is None


def test_a_late_entry_times_out_with_one_timed_wake_between_slow_ticks(tmp_path):
    """With ticks a minute apart and no wait limit, the loop sleeps until the notice times
    out, draws the TV without it, and sleeps again until the next tick."""
    screens: list[ScreenState] = []
    loop = real_loop(tmp_path, screens, tick_interval=60.0, max_wait=3600.0)
    loop.render(force=True)
    loop.clock.advance_to(2.0)  # type: ignore[attr-defined]
    loop.handle(DealerCommand(t=2.0, command="late_entry", args={"name": "Dmitri", "seat": 4}))
    text = screens[-1].notices[0]
    assert text.startswith("Dmitri joins in seat 4 with ")
    drawn = len(screens)
    loop.run_once()
    assert loop.clock.now() == 2.0 + NOTICE_SECONDS and len(screens) == drawn
    loop.run_once()  # woken at the expiry: drawn once, without it, then asleep
    assert len(screens) == drawn + 1 and screens[-1].notices == ()
    assert loop.clock.now() == 60.0  # until the next tick


def test_a_replayed_journal_shows_no_old_notice(tmp_path):
    path = tmp_path / "table.db"
    service = build_service(journal_path=path, core_factory=real_core, clock=VirtualClock())
    screens: list[ScreenState] = []
    service.loop.tv = screens.append
    service.loop.handle(DealerButton(t=1.0, button="next_hand"))
    service.loop.handle(DealerCommand(t=1.2, command="mute", args={"on": True}))
    assert screens[-1].notices[0] == "Sound off" and len(screens[-1].notices) == 2
    service.journal.close()  # a power cut: no final snapshot, the events are replayed
    again = build_service(journal_path=path, core_factory=real_core, clock=VirtualClock())
    try:
        assert again.recovered is not None and again.recovered.replayed >= 2
        assert again.core.muted  # the event was replayed ...
        again.loop.tv = screens.append
        again.loop.render(force=True)
        assert screens[-1].notices == () and again.loop.notices.posted == []  # ... silently
    finally:
        again.close()
