import queue

import pygame
import pytest

from engine.views import ClockView, ScreenState
from hardware.tv import TV, TVConfigError, choose_video_driver, find_hdmi_connected, tv_from_config


class FakeClock:
    def __init__(self, t=0.0):
        self.t = t

    def __call__(self):
        return self.t


def make_drm(root, connectors):
    """A fake /sys/class/drm: ``{"card1-HDMI-A-1": "connected", ...}``."""
    for name, status in connectors.items():
        d = root / name
        d.mkdir(parents=True)
        (d / "status").write_text(status + "\n")
    (root / "card0").mkdir(exist_ok=True)
    (root / "renderD128").mkdir(exist_ok=True)
    return str(root)


def test_kmsdrm_on_the_card_with_hdmi_connected(tmp_path):
    drm = make_drm(tmp_path, {"card0-HDMI-A-1": "disconnected",
                              "card1-HDMI-A-1": "disconnected",
                              "card1-HDMI-A-2": "connected",
                              "card1-Writeback-1": "unknown"})
    assert find_hdmi_connected(drm) == ("card1", 1, "HDMI-A-2")
    choice = choose_video_driver("auto", {}, drm)
    assert choice.driver == "kmsdrm" and choice.fullscreen
    assert choice.env == {"SDL_VIDEODRIVER": "kmsdrm", "SDL_KMSDRM_DEVICE_INDEX": "1"}
    assert (choice.card, choice.connector) == ("card1", "HDMI-A-2")


def test_lowest_card_wins_when_two_are_connected(tmp_path):
    drm = make_drm(tmp_path, {"card2-HDMI-A-1": "connected", "card10-HDMI-A-1": "connected"})
    assert find_hdmi_connected(drm) == ("card2", 2, "HDMI-A-1")


def test_desktop_gets_a_window_and_explicit_sdl_driver_wins(tmp_path):
    drm = make_drm(tmp_path, {"card1-HDMI-A-1": "connected"})
    assert choose_video_driver("auto", {"DISPLAY": ":0"}, drm).driver == "window"
    assert choose_video_driver("auto", {"WAYLAND_DISPLAY": "wayland-0"}, drm).driver == "window"
    choice = choose_video_driver("auto", {"SDL_VIDEODRIVER": "dummy", "DISPLAY": ":0"}, drm)
    assert choice.driver == "dummy" and choice.env == {}


def test_headless_without_hdmi_is_dummy(tmp_path):
    drm = make_drm(tmp_path, {"card1-HDMI-A-1": "disconnected"})
    assert choose_video_driver("auto", {}, drm).driver == "dummy"
    assert choose_video_driver("auto", {}, str(tmp_path / "nothing")).driver == "dummy"
    assert choose_video_driver("kmsdrm", {}, drm).driver == "kmsdrm"
    assert choose_video_driver("dummy", {"DISPLAY": ":0"}, drm).driver == "dummy"


def test_bad_config_is_a_typed_error():
    with pytest.raises(TVConfigError):
        choose_video_driver("directfb", {})
    with pytest.raises(TVConfigError, match="1920x1080"):
        TV(lambda s, st: None, size=(800, 600), driver="dummy")
    with pytest.raises(TVConfigError):
        tv_from_config({"size": "big"}, lambda s, st: None)


def paint(calls):
    def draw(surface, state):
        calls.append(state)
        colour = (200, 30, 30) if state.layout == "clock" else (30, 30, 200)
        surface.fill(colour)
        level = state.clock.level_number if state.clock else 0
        pygame.draw.rect(surface, (255, 255, 255), (10, 10, 10 * (level + 1), 20))
    return draw


@pytest.fixture
def tv():
    calls = []
    q = queue.Queue()
    clock = FakeClock()
    t = TV(paint(calls), q, size=(1280, 720), fps=0, driver="dummy", clock=clock)
    t.calls, t.q, t.fake_clock = calls, q, clock
    yield t
    t.close()


def test_dummy_driver_renders_and_writes_a_png(tv, tmp_path):
    state = ScreenState(clock=ClockView(level_number=3), layout="clock")
    assert tv.render(state) is True
    assert tv.online and tv.surface.get_size() == (1280, 720)
    path = tv.save_png(tmp_path / "shots" / "level3.png")
    img = pygame.image.load(path)
    assert img.get_size() == (1280, 720)
    assert tuple(img.get_at((640, 600)))[:3] == (200, 30, 30)
    assert tuple(img.get_at((15, 15)))[:3] == (255, 255, 255)
    assert tuple(img.get_at((45, 15)))[:3] == (255, 255, 255)   # 40 px wide at level 3
    assert tuple(img.get_at((55, 15)))[:3] == (200, 30, 30)
    assert tuple(img.get_at((45, 35)))[:3] == (200, 30, 30)


def test_every_state_handed_over_is_drawn_and_invalidate_shows_it_again(tv):
    s1 = ScreenState(clock=ClockView(level_number=1, remaining_seconds=600.0))
    s2 = ScreenState(clock=ClockView(level_number=1, remaining_seconds=599.0))
    assert [tv.render(s) for s in (s1, s2)] == [True, True]
    assert len(tv.calls) == 2
    tv.invalidate()                      # the window was exposed: the last frame again
    assert tv.calls[-1] == s2 and len(tv.calls) == 3


def test_frame_paces_with_clock_tick(monkeypatch):
    t = TV(paint([]), size=(1280, 720), fps=50, driver="dummy")
    ticks = []
    try:
        t.open()
        real_clock = t._pg_clock

        class Spy:
            def tick(self, *args):
                ticks.append(args)
                return real_clock.tick()
        t._pg_clock = Spy()
        t.frame(ScreenState())
        t.frame(ScreenState())
        assert ticks == [(50,), (50,)]
    finally:
        t.close()


def test_set_mode_failure_reports_offline_keeps_drawing_then_recovers(tv, monkeypatch, tmp_path):
    real_set_mode = pygame.display.set_mode

    def broken(*a, **k):
        raise pygame.error("simulated: no display")

    monkeypatch.setattr(pygame.display, "set_mode", broken)
    state = ScreenState(layout="table")
    assert tv.render(state) is True                  # drawn off-screen
    assert not tv.online
    [ev] = [tv.q.get_nowait()]
    assert (ev.device, ev.online) == ("tv", False) and "simulated" in ev.detail
    img = pygame.image.load(tv.save_png(tmp_path / "offline.png"))
    assert tuple(img.get_at((600, 400)))[:3] == (30, 30, 200)
    tv.fake_clock.t = 1.0
    tv.render(ScreenState(layout="clock"))           # retry not due yet (2 s backoff)
    assert tv.q.empty()
    monkeypatch.setattr(pygame.display, "set_mode", real_set_mode)
    tv.fake_clock.t = 3.0
    assert tv.render(ScreenState(layout="clock")) is True
    assert tv.online
    ev = tv.q.get_nowait()
    assert (ev.device, ev.online) == ("tv", True)
    assert tv.surface is pygame.display.get_surface()


def test_flip_failure_goes_offline_without_raising(tv, monkeypatch):
    tv.render(ScreenState(layout="clock"))

    def broken_flip():
        raise pygame.error("simulated: flip lost the display")

    monkeypatch.setattr(pygame.display, "flip", broken_flip)
    assert tv.render(ScreenState(layout="table")) is True
    assert not tv.online
    assert tv.q.get_nowait().online is False


def test_hdmi_unplug_is_seen_in_sysfs(tmp_path, monkeypatch):
    drm = make_drm(tmp_path, {"card1-HDMI-A-1": "connected"})
    q, clock = queue.Queue(), FakeClock()
    t = TV(paint([]), q, size=(1280, 720), fps=0, driver="kmsdrm", drm_root=drm, clock=clock)
    assert t.choice.driver == "kmsdrm"
    # Run the decision logic on the dummy driver: this machine has no DRM display.
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    t.choice = t.choice.__class__("kmsdrm", {}, False, "card1", "HDMI-A-1", "test")
    try:
        t.render(ScreenState(layout="clock"))
        assert t.online and q.empty()
        (tmp_path / "card1-HDMI-A-1" / "status").write_text("disconnected\n")
        clock.t = 5.0
        t.render(ScreenState(layout="table"))
        ev = q.get_nowait()
        assert (ev.device, ev.online) == ("tv", False) and "HDMI-A-1" in ev.detail
        (tmp_path / "card1-HDMI-A-1" / "status").write_text("connected\n")
        clock.t = 10.0
        t.render(ScreenState(layout="clock"))
        assert q.get_nowait().online is True and t.online
    finally:
        t.close()


def test_save_png_before_any_frame_is_an_error(tmp_path):
    t = TV(paint([]), size=(1920, 1080), driver="dummy")
    with pytest.raises(TVConfigError):
        t.save_png(tmp_path / "x.png")
    t.close()
