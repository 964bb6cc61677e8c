"""Unplugging a display and a seat's keys mid-run, in simulation: a loop-like consumer keeps
going, sees the devices offline through DeviceStatus events, and sees them come back."""

import queue

import pygame

from engine.events import DeviceStatus, SeatButton
from engine.views import ScreenState, SeatDisplayView
from hardware.buttons import ButtonBank
from hardware.seat_display import SeatDisplayBank
from hardware.tv import TV


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_devices_unplugged_mid_run_keep_the_loop_alive(tmp_path):
    q: queue.Queue = queue.Queue()
    clock = Clock()
    keys = ButtonBank(q, pin_factory="mock", clock=clock)
    displays = SeatDisplayBank({"backend": "mock", "seats": [1, 2, 3]}, q, clock=clock)
    drawn = []

    def draw(surface, state):
        drawn.append(state.offline)
        surface.fill((0, 0, 0) if not state.offline else (180, 0, 0))

    tv = TV(draw, q, size=(1280, 720), fps=0, driver="dummy", clock=clock)
    offline: set[str] = set()
    presses = []
    seen_offline = set()
    try:
        for step in range(60):
            clock.t = step * 0.5
            if step == 10:
                displays.displays[2].unplug()
                keys.unplug(3)
            if step == 40:
                displays.displays[2].replug()
                keys.replug(3)
            for seat in (1, 3):
                keys.press(seat, "check_call", at=clock.t)
            keys.poll()
            displays.show({s: SeatDisplayView(seat=s, stack=1000 + step) for s in (1, 2, 3)})
            displays.poll()
            while not q.empty():
                ev = q.get_nowait()
                if isinstance(ev, DeviceStatus):
                    (offline.discard if ev.online else offline.add)(ev.device)
                elif isinstance(ev, SeatButton):
                    presses.append((step, ev.seat))
            seen_offline |= offline
            tv.render(ScreenState(offline=tuple(sorted(offline)), now=clock.t))
            if step == 20:
                assert "display:2" in offline and "button:3:check_call" in offline
                tv.save_png(tmp_path / "offline.png")
        assert {"display:2", "button:3:fold", "button:3:check_call",
                "button:3:bet_raise"} <= seen_offline
        assert offline == set()                                   # everything came back
        assert all(seat == 1 for step, seat in presses if 11 <= step < 40)
        assert any(seat == 3 for step, seat in presses if step >= 45)
        assert len([p for p in presses if p[1] == 1]) == 60          # seat 1 never missed one
        img = pygame.image.load(str(tmp_path / "offline.png"))
        assert tuple(img.get_at((10, 10)))[:3] == (180, 0, 0)
        assert displays.displays[2].device_image() is not None
    finally:
        tv.close()
        displays.close()
        keys.close()
