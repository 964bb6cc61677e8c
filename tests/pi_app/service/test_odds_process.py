"""The slow all-in odds in a child process: the same figures as the synchronous ones, worked
out in another process (so the loop's thread never waits for the interpreter lock), a
fast spot on the caller's thread, a dead child reported then replaced, and close() ending
a spot being worked out at once."""

from __future__ import annotations

import os
import threading
import time

import pytest

from engine.betting.odds_view import odds_view, spot_odds
from engine.events import DealerButton
from pi_app.service.clock_source import VirtualClock
from pi_app.service.devices import Devices
from pi_app.service.journal import Journal
from pi_app.service.loop import APPLIED, VIEW, ServiceLoop
from pi_app.service.odds_process import OddsProcess, OddsProcessError
from pi_app.service.odds_worker import OddsWorker
from pi_app.service.wiring import run_service
from tests.pi_app.service.fake_core import FakeCore
from tests.pi_app.service.test_odds_worker import FIRST, SAMPLES, OddsCore

START = "spawn"  # as the service starts them


def spot_of(hand):
    """The spot ``(holes, board, pots, samples)`` the TV asks its provider for."""
    asked: list = []
    odds_view(hand, samples=SAMPLES, provider=lambda *spot: asked.append(spot))
    return asked[0]


def pid_of_worker(holes, board, pots, samples):
    """A ``compute`` that answers with the process it ran in."""
    return os.getpid()


def slow_compute(holes, board, pots, samples):
    time.sleep(60)
    return None


def second_compute(holes, board, pots, samples):
    time.sleep(1)
    return None


def failing_compute(holes, board, pots, samples):
    raise ValueError("no such spot")


def test_a_slow_spot_is_worked_out_in_a_child_process_with_the_same_figures():
    spot = spot_of(FIRST)
    odds = OddsProcess(start_method=START)
    try:
        assert not odds.alive and odds.started == 0  # no child until asked
        odds.start()
        assert odds.alive and odds.started == 1
        assert odds(*spot) == spot_odds(*spot)
        assert odds.started == 1 and odds.alive
        assert odds(*spot) == spot_odds(*spot)
        assert odds.started == 1  # one child for every spot
    finally:
        odds.close()
    assert not odds.alive


def test_the_child_is_another_process_and_a_fast_spot_stays_on_the_callers_thread():
    holes, board, pots, samples = spot_of(FIRST)
    odds = OddsProcess(pid_of_worker, start_method=START)
    try:
        child = odds(holes, board, pots, samples)
        assert isinstance(child, int) and child != os.getpid()
        heads_up = (holes[:2], board, ((0, 1),), samples)
        assert odds(*heads_up) == os.getpid()
        assert odds.started == 1
    finally:
        odds.close()


def test_a_dead_child_fails_its_spot_and_a_new_one_answers_the_next():
    spot = spot_of(FIRST)
    odds = OddsProcess(pid_of_worker, start_method=START)
    try:
        first = odds(*spot)
        os.kill(first, 9)
        deadline = time.monotonic() + 10
        while odds.alive and time.monotonic() < deadline:
            time.sleep(0.01)
        second = odds(*spot)  # the dead child is seen before the spot is sent
        assert second != first and odds.started == 2
    finally:
        odds.close()


def test_a_failure_in_the_child_is_raised_with_its_reason():
    odds = OddsProcess(failing_compute, start_method=START)
    try:
        with pytest.raises(OddsProcessError, match="ValueError: no such spot"):
            odds(*spot_of(FIRST))
        assert odds.alive  # the child goes on
    finally:
        odds.close()


def test_close_ends_a_spot_being_worked_out_at_once():
    odds = OddsProcess(slow_compute, start_method=START)
    answers: list[object] = []
    caller = threading.Thread(target=lambda: answers.append(odds(*spot_of(FIRST))))
    caller.start()
    deadline = time.monotonic() + 10
    while not odds.alive and time.monotonic() < deadline:
        time.sleep(0.01)
    odds.close()
    caller.join(10)
    assert not caller.is_alive() and answers == [None]
    assert not odds.alive
    assert odds(*spot_of(FIRST)) is None  # closed: no new child
    assert odds.started == 1


def test_the_worker_hands_the_childs_figures_to_the_loop(tmp_path):
    core = OddsCore()
    journal = Journal.create(tmp_path / "j.db", core.snapshot())
    frames: list = []
    loop = ServiceLoop(core, journal, VirtualClock(), tv=frames.append)
    odds = OddsProcess(start_method=START)
    worker = OddsWorker(loop.call_soon, compute=odds)
    loop.odds_provider = worker
    try:
        assert loop.handle(DealerButton(t=1.0, button="next_hand")) == APPLIED
        assert frames[-1].odds is not None and frames[-1].odds.pending
        # the figures, from the child, handed back to the loop's thread
        assert loop.handle(loop.queue.get(timeout=60)) == VIEW
        assert frames[-1].odds == odds_view(FIRST, samples=SAMPLES)
        assert odds.started == 1
    finally:
        worker.stop()
        odds.close()
        journal.close()


def test_the_service_starts_its_odds_process_and_ends_it_when_it_stops(tmp_path):
    seen: list = []
    status = run_service(None, journal_path=tmp_path / "j.db", core_factory=FakeCore,
                         core_class=FakeCore, wire=lambda put: Devices(),
                         install_signal_handlers=False, until=lambda: True,
                         on_ready=lambda svc: seen.append((svc.odds, svc.odds.alive)))
    odds, alive_while_running = seen[0]
    assert status == 0 and isinstance(odds, OddsProcess) and alive_while_running
    assert not odds.alive


def test_the_child_ends_by_itself_when_the_service_is_gone():
    """A service killed (no close) leaves no child behind: its end of the pipe closes, and
    the child, waiting for a spot or answering one, ends."""
    for busy in (False, True):
        odds = OddsProcess(second_compute, start_method=START)
        odds.start()
        child = odds._child
        if busy:
            odds._conn.send(spot_of(FIRST))  # its answer will find no one
        odds._conn.close()  # what the kernel does to a killed service's end
        child.join(10)
        assert not child.is_alive() and child.exitcode == 0, busy
