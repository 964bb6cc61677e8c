"""The TV on its own thread: the loop's hand-over never waits for a frame, the newest
state wins, frames are paced at the TV's rate, and every display call is on the TV's
thread."""

import queue
import threading
import time

from engine.views import ClockView, ScreenState
from hardware.tv import TV
from hardware.tv_thread import TVThread
from pi_app.service.config import load_config
from pi_app.service.devices import wire_devices


def state(level: int) -> ScreenState:
    return ScreenState(clock=ClockView(level_number=level))


class Recorder:
    """A ``draw`` that records each state, its thread and time, and can be held."""

    def __init__(self) -> None:
        self.drawn: list[int] = []
        self.threads: set[str] = set()
        self.times: list[float] = []
        self.started = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def __call__(self, surface, s: ScreenState) -> None:
        self.threads.add(threading.current_thread().name)
        self.times.append(time.monotonic())
        self.started.set()
        assert self.release.wait(10)
        self.drawn.append(s.clock.level_number)


def make(draw: Recorder, fps: int = 0) -> TVThread:
    tv = TVThread(TV(draw, size=(1280, 720), fps=fps, driver="dummy"))
    assert tv.open()
    return tv


def test_a_state_is_handed_over_while_a_frame_is_being_drawn_and_the_newest_wins() -> None:
    draw = Recorder()
    tv = make(draw)
    try:
        draw.release.clear()
        tv.render(state(1))
        assert draw.started.wait(10)
        for level in (2, 3, 4):  # the frame of level 1 is still being drawn
            assert tv.render(state(level))
        assert draw.drawn == [] and not draw.release.is_set()
        draw.release.set()
        assert tv.wait_drawn()
        assert draw.drawn == [1, 4]  # 2 and 3 were replaced before they were drawn
        assert tv.frames_drawn == 2
    finally:
        tv.close()


def test_frames_are_paced_at_the_tv_rate() -> None:
    draw = Recorder()
    tv = make(draw, fps=5)
    try:
        tv.render(state(1))
        assert tv.wait_drawn()
        for level in (2, 3):
            tv.render(state(level))
        assert tv.wait_drawn()
        assert draw.drawn == [1, 3]
        assert draw.times[1] - draw.times[0] >= 0.19  # at most 5 frames a second
    finally:
        tv.close()


def test_the_display_is_opened_drawn_and_closed_on_the_tv_thread(tmp_path) -> None:
    draw = Recorder()
    inner = TV(draw, size=(1280, 720), fps=0, driver="dummy")
    opened_on: list[str] = []
    real_open = inner.open

    def open_(now=None):
        opened_on.append(threading.current_thread().name)
        return real_open(now)

    inner.open = open_
    tv = TVThread(inner)
    assert tv.open() and tv.online
    tv.render(state(7))
    png = tv.save_png(tmp_path / "frame.png")
    tv.close()
    assert opened_on == ["tv"] and draw.threads == {"tv"}
    assert draw.drawn == [7] and (tmp_path / "frame.png").stat().st_size > 0 and png
    assert inner.surface is None  # closed
    assert not tv._thread.is_alive()


def test_the_running_service_draws_its_tv_on_a_thread() -> None:
    settings = load_config(None).device_settings()
    assert settings.tv_thread
    q: queue.Queue = queue.Queue()
    devices = wire_devices(settings, q.put, clock=lambda: 3.0)
    try:
        assert isinstance(devices.tv, TVThread)
        devices.show_screen(state(2))
        assert devices.tv.wait_drawn()
        assert devices.tv.frames_drawn == 1
    finally:
        devices.close()
