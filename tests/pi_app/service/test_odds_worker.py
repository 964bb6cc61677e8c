"""The TV's slow all-in odds off the loop's thread: the event is handled and the TV drawn
with the panel pending while the worker is held, the figures come after it, equal to the
synchronous ones; a superseded spot never draws stale figures; the worker stops with the
service."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

from engine.betting.equity import AllInOdds
from engine.betting.hand import Hand
from engine.betting.odds_view import OddsProvider, odds_view, spot_odds
from engine.events import DealerButton
from engine.views import ScreenState
from pi_app.service.clock_source import VirtualClock
from pi_app.service.devices import Devices
from pi_app.service.journal import Journal
from pi_app.service.loop import APPLIED, VIEW, ServiceLoop
from pi_app.service.odds_worker import OddsWorker, is_slow
from pi_app.service.wiring import run_service
from tests.engine.betting.helpers import new_hand, stacked
from tests.pi_app.service.fake_core import FakeCore

SAMPLES = 2_000  # few boards: these tests are about when the figures come, not what


def all_in_preflop(holes: dict[int, str]) -> Hand:
    """Every seat all in preflop (stacks 1,000 apart: side pots), betting closed."""
    hand = new_hand({s: 1_000 * s for s in holes}, button=1, small_blind=50, big_blind=100,
                    names={s: f"P{s}" for s in holes})
    hand.deal_from(iter(stacked(hand, holes)))
    while hand.actor is not None:
        hand.all_in()
    return hand


FIRST = all_in_preflop({1: "AhKh", 2: "QsQd", 3: "JcTc", 4: "9s9h"})
SECOND = all_in_preflop({1: "2c2d", 2: "AsKs", 3: "7h6h", 4: "KdQc"})


class OddsCore(FakeCore):
    """A fake core whose TV shows the odds of ``spot``; each event moves to the next spot."""

    spots = (FIRST, SECOND)

    def apply(self, event: Any) -> Any:
        self.s["spot"] = self.s.get("spot", -1) + 1
        return super().apply(event)

    def screen_state(self, alarms: tuple[str, ...] = (),
                     odds_provider: Any = None) -> ScreenState:
        screen = super().screen_state(alarms)
        spot = self.spots[min(self.s.get("spot", 0), len(self.spots) - 1)]
        return dataclasses.replace(screen, odds=odds_view(spot, samples=SAMPLES,
                                                          provider=odds_provider))


class Held:
    """A synchronous provider held until ``go`` is set; ``started`` when it is asked."""

    def __init__(self) -> None:
        self.started, self.go = threading.Event(), threading.Event()
        self.asked: list[Any] = []

    def __call__(self, *spot: Any) -> AllInOdds:
        self.asked.append(spot)
        self.started.set()
        assert self.go.wait(10)
        return spot_odds(*spot)


def new_loop(tmp_path: Path, compute: OddsProvider) -> tuple[ServiceLoop, list[ScreenState],
                                                             OddsWorker]:
    core = OddsCore()
    journal = Journal.create(tmp_path / "j.db", core.snapshot())
    drawn: list[ScreenState] = []
    loop = ServiceLoop(core, journal, VirtualClock(), tv=drawn.append)
    worker = OddsWorker(loop.call_soon, compute=compute)
    loop.odds_provider = worker
    return loop, drawn, worker


def test_the_panel_is_drawn_pending_before_the_odds_then_with_the_same_figures(
        tmp_path: Path) -> None:
    held = Held()
    loop, drawn, worker = new_loop(tmp_path, held)
    try:
        assert loop.handle(DealerButton(t=1.0, button="next_hand")) == APPLIED
        assert held.started.wait(10) and not held.go.is_set()  # the worker is still held
        pending = drawn[-1].odds
        assert pending is not None and pending.pending and pending.pots == ()
        assert [h.cards for h in pending.hands] == [h.cards for h in
                                                    odds_view(FIRST, samples=SAMPLES).hands]
        assert {h.win for h in pending.hands} == {0}  # no figure while pending
        held.go.set()
        assert loop.handle(loop.queue.get(timeout=10)) == VIEW  # the worker's hand-back
        assert drawn[-1].odds == odds_view(FIRST, samples=SAMPLES)  # the synchronous odds
        assert not drawn[-1].odds.pending
    finally:
        held.go.set()
        worker.stop()


def test_a_superseded_spot_never_draws_stale_figures(tmp_path: Path) -> None:
    held = Held()
    loop, drawn, worker = new_loop(tmp_path, held)
    try:
        loop.handle(DealerButton(t=1.0, button="next_hand"))
        assert held.started.wait(10)
        loop.handle(DealerButton(t=2.0, button="next_hand"))  # the table moved on
        assert drawn[-1].odds is not None and drawn[-1].odds.pending
        held.go.set()
        assert loop.handle(loop.queue.get(timeout=10)) == VIEW
        worker.stop()
        while not loop.queue.empty():
            loop.handle(loop.queue.get_nowait())
        stale, fresh = odds_view(FIRST, samples=SAMPLES), odds_view(SECOND, samples=SAMPLES)
        assert all(s.odds != stale for s in drawn)
        assert drawn[-1].odds == fresh
        assert len(held.asked) == 2  # one spot at a time: the first, then the newer one
    finally:
        held.go.set()
        worker.stop()


def test_a_fast_spot_is_worked_out_at_once_and_the_worker_ends_on_stop() -> None:
    calls: list[Any] = []
    worker = OddsWorker(calls.append)
    holes = tuple(h.cards for h in odds_view(FIRST, samples=SAMPLES).hands)
    assert is_slow(holes, ()) and not is_slow(holes[:2], ())
    pre = odds_view(FIRST, samples=SAMPLES, provider=worker)
    assert pre is not None and pre.pending  # preflop, four hands: slow
    heads_up = all_in_preflop({1: "AhKh", 2: "QsQd"})
    assert odds_view(heads_up, provider=worker) == odds_view(heads_up)  # at once
    assert worker.alive
    worker.stop()
    assert not worker.alive


def test_the_service_stops_its_odds_worker(tmp_path: Path) -> None:
    seen: list[Any] = []
    status = run_service(None, journal_path=tmp_path / "j.db", core_factory=FakeCore,
                         core_class=FakeCore, wire=lambda put: Devices(),
                         install_signal_handlers=False, until=lambda: True,
                         on_ready=lambda svc: seen.append((svc.loop.odds_provider,
                                                          svc.loop.odds_provider.alive)))
    worker, alive_while_running = seen[0]
    assert status == 0 and isinstance(worker, OddsWorker) and alive_while_running
    assert not worker.alive


class Gated:
    """A synchronous provider that waits for one ``go.release()`` a call; ``asked`` lists
    the spots asked for, ``started`` is set at each call."""

    def __init__(self) -> None:
        self.go = threading.Semaphore(0)
        self.started = threading.Event()
        self.asked: list[Any] = []

    def __call__(self, *spot: Any) -> AllInOdds:
        self.asked.append(spot)
        self.started.set()
        assert self.go.acquire(timeout=10)
        return spot_odds(*spot)


def test_a_redraw_while_a_spot_is_worked_out_does_not_queue_it_again(tmp_path: Path) -> None:
    gated = Gated()
    loop, drawn, worker = new_loop(tmp_path, gated)
    redraw = loop.core.screen_state  # what the loop draws the TV from, spot unchanged
    try:
        loop.handle(DealerButton(t=1.0, button="next_hand"))
        assert gated.started.wait(10)
        for _ in range(3):  # the clock ticks while the thread works: the TV redraws
            assert redraw(odds_provider=worker).odds.pending
        gated.go.release()
        back = loop.queue.get(timeout=10)  # the figures, not yet kept on the loop
        assert redraw(odds_provider=worker).odds.pending  # a redraw in between
        assert loop.handle(back) == VIEW
        assert drawn[-1].odds == odds_view(FIRST, samples=SAMPLES)
        gated.started.clear()
        second = odds_view(SECOND, samples=SAMPLES, provider=worker)
        assert second is not None and second.pending
        gated.go.release()
        assert gated.started.wait(10)
        # the thread's next spot is the newer one: FIRST was worked out once, redrawn once
        assert [spot[0] for spot in gated.asked] == [
            tuple(h.cards for h in odds_view(s, samples=SAMPLES).hands) for s in (FIRST, SECOND)]
        assert loop.handle(loop.queue.get(timeout=10)) == VIEW
        assert loop.queue.empty()
    finally:
        for _ in range(4):
            gated.go.release()
        worker.stop()
