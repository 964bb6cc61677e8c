import errno
import os
import queue
from dataclasses import replace

import pytest
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306

from engine.cards import parse_cards
from engine.events import DeviceStatus
from engine.views import LegalActions, SeatDisplayView
from hardware.seat_display import (
    DisplayConfigError,
    SeatDisplay,
    SeatDisplayBank,
    resolve_mux_buses,
)
from hardware.seat_render import action_line, render_seat_view
from tests.hardware.golden import assert_golden


class FakeClock:
    def __init__(self, t=10.0):
        self.t = t

    def __call__(self):
        return self.t


def drain(q):
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


LEGAL = LegalActions(can_fold=True, can_call=True, call_amount=400, min_raise_to=1200,
                         max_raise_to=12700)
BASE = SeatDisplayView(seat=3, name="Ann", stack=12500, bet=200, to_call=400,
                       hole_cards=tuple(parse_cards("AsKd")))

STATES = {
    "seat_your_action": replace(BASE, is_turn=True, legal=LEGAL, is_big_blind=True),
    "seat_raise_pending": replace(BASE, is_turn=True, legal=LEGAL, pending_raise_to=2000,
                                  is_button=True, is_small_blind=True,
                                  hole_cards=tuple(parse_cards("Th9c"))),
    "seat_all_in_pending": replace(BASE, is_turn=True, legal=LEGAL, pending_raise_to=12700),
    "seat_check_or_bet": SeatDisplayView(
        seat=6, name="Bo", stack=3000, hole_cards=tuple(parse_cards("7h7s")), is_turn=True,
        legal=LegalActions(can_check=True, min_raise_to=100, max_raise_to=3000)),
    "seat_waiting": BASE,
    "seat_won": SeatDisplayView(seat=5, name="Bartholomew", stack=25400, is_button=True,
                                hole_cards=tuple(parse_cards("QhQc")), result=12700),
    "seat_lost": SeatDisplayView(seat=2, name="Cy", stack=0, status="all_in", result=-4800,
                                 hole_cards=tuple(parse_cards("2c7d"))),
    "seat_folded": SeatDisplayView(seat=1, name="Zoe", stack=980, status="folded",
                                   message="Folded to a raise"),
    "seat_open": SeatDisplayView(seat=4, status="empty"),
    # a busted seat shows where it finished, as the engine says it (issue 15)
    "seat_busted": SeatDisplayView(seat=6, name="Farouk", status="out", message="OUT - 6th"),
    "seat_huge_stack": SeatDisplayView(seat=9, name="Dee", stack=12345678, bet=1000000,
                                       to_call=2000000, hole_cards=tuple(parse_cards("AhAd"))),
}


@pytest.mark.parametrize("name", sorted(STATES))
def test_golden_images_through_the_luma_dummy_device(name, tmp_path):
    disp = SeatDisplay(STATES[name].seat, backend="mock", clock=FakeClock())
    assert disp.show(STATES[name])
    shown = disp.device_image()
    assert shown is not None and shown.size == (128, 64) and shown.mode == "1"
    assert shown.tobytes() == render_seat_view(STATES[name]).tobytes()
    assert_golden(shown, name, tmp_path)


def test_each_state_looks_different():
    images = {render_seat_view(v).tobytes() for v in STATES.values()}
    assert len(images) == len(STATES)


def test_action_line_shrinks_to_fit():
    big = SeatDisplayView(seat=1, is_turn=True, legal=LegalActions(
        can_fold=True, can_call=True, call_amount=1234567, min_raise_to=2469134,
        max_raise_to=9999999))
    line = action_line(big)
    assert len(line) * 6 <= 128
    assert "1,234,567" in line and line.startswith("F")


def test_every_view_handed_over_is_sent():
    disp = SeatDisplay(1, backend="mock", clock=FakeClock())
    assert disp.show(STATES["seat_waiting"]) is True
    assert disp.show(STATES["seat_your_action"]) is True
    assert disp.frames_sent == 2


def test_oserror_121_marks_offline_then_recovers_with_backoff():
    q, clock = queue.Queue(), FakeClock()
    disp = SeatDisplay(3, q, backend="mock", clock=clock, retry_initial=1.0, retry_max=4.0)
    disp.show(STATES["seat_waiting"])
    disp.unplug(errno.EREMOTEIO)
    assert disp.show(STATES["seat_your_action"]) is False          # the failing transfer
    assert not disp.online
    [ev] = drain(q)
    assert ev == DeviceStatus(t=10.0, device="display:3", online=False, detail=ev.detail)
    assert "errno 121" in ev.detail
    # Retries only when the backoff has elapsed; 1 s, then 2 s, then 4 s (the cap).
    attempts = []
    for step in range(1, 40):
        clock.t = 10.0 + step * 0.5
        before = disp.failures
        disp.poll()
        if disp.failures > before:
            attempts.append(clock.t)
    assert attempts[:4] == [11.0, 13.0, 17.0, 21.0]
    assert drain(q) == []                                         # offline reported once
    disp.replug()
    clock.t = 40.0
    assert disp.poll() is True and disp.online
    [ev] = drain(q)
    assert ev.device == "display:3" and ev.online
    # It shows the latest view, not the one from before the failure.
    assert disp.device_image().tobytes() == render_seat_view(STATES["seat_your_action"]).tobytes()
    assert disp.failures >= 5


def test_eio_while_showing_does_not_raise_and_keeps_the_latest_view():
    q, clock = queue.Queue(), FakeClock()
    disp = SeatDisplay(2, q, backend="mock", clock=clock)
    disp.unplug(errno.EIO)
    for name in ("seat_waiting", "seat_your_action", "seat_won"):
        disp.show(STATES[name])
    assert [e.online for e in drain(q)] == [False]
    assert "errno 5" in disp.reason
    disp.replug()
    clock.t += 100
    disp.show(STATES["seat_won"])
    assert disp.online
    assert disp.device_image().tobytes() == render_seat_view(STATES["seat_won"]).tobytes()


class FakeSMBus:
    """Stands in for smbus2.SMBus under luma's real i2c serial interface."""

    def __init__(self):
        self.fail: int | None = None
        self.writes = 0

    def write_i2c_block_data(self, addr, mode, data):
        if self.fail is not None:
            raise OSError(self.fail, os.strerror(self.fail))
        self.writes += 1

    def close(self):
        pass


@pytest.mark.parametrize("driver", [ssd1306, sh1106])
def test_real_luma_driver_failing_with_121_goes_offline(driver):
    """luma's own ssd1306/sh1106 driver over a fake bus: luma turns errno 121 during a
    command into DeviceNotFoundError; both that and the raw OSError count as offline."""
    bus = FakeSMBus()
    q, clock = queue.Queue(), FakeClock()
    disp = SeatDisplay(1, q, backend="luma", clock=clock,
                       device_factory=lambda: driver(i2c(bus=bus, address=0x3C)))
    assert disp.online and disp.show(STATES["seat_waiting"])
    assert bus.writes > 0
    bus.fail = errno.EREMOTEIO
    assert disp.show(STATES["seat_won"]) is False
    assert not disp.online
    clock.t += 1.0
    disp.poll()                        # re-init fails: DeviceNotFoundError from luma
    assert "DeviceNotFoundError" in disp.reason
    bus.fail = None
    clock.t += 10
    assert disp.poll() and disp.online
    assert [e.online for e in drain(q)] == [False, True]


def test_resolve_mux_buses_from_fake_sysfs(tmp_path):
    mux = tmp_path / "1-0070"
    mux.mkdir()
    for channel, bus in enumerate(range(22, 30)):
        (tmp_path / f"i2c-{bus}").mkdir()
        os.symlink(tmp_path / f"i2c-{bus}", mux / f"channel-{channel}")
    (mux / "name").write_text("pca9548\n")
    assert resolve_mux_buses(1, 0x70, str(tmp_path)) == {c: 22 + c for c in range(8)}
    with pytest.raises(DisplayConfigError, match="dtoverlay=i2c-mux"):
        resolve_mux_buses(1, 0x71, str(tmp_path))


def test_bank_with_missing_multiplexer_starts_offline_without_stopping(tmp_path):
    q = queue.Queue()
    bank = SeatDisplayBank({"backend": "luma", "seats": [1, 2]}, q, clock=FakeClock(),
                           sysfs=str(tmp_path))
    assert bank.offline() == ["display:1", "display:2"]
    assert {e.device for e in drain(q)} == {"display:1", "display:2"}
    assert bank.show({1: STATES["seat_waiting"]}) == 0


def test_mock_bank_shows_each_seat_its_own_view():
    bank = SeatDisplayBank({"backend": "mock", "seats": [1, 3]}, clock=FakeClock())
    views = {1: STATES["seat_folded"], 3: STATES["seat_your_action"]}
    assert bank.show(views) == 2
    for seat, view in views.items():
        assert bank.displays[seat].device_image().tobytes() == render_seat_view(view).tobytes()
    assert bank.offline() == []


def test_bad_backend_or_driver_is_a_config_error():
    with pytest.raises(DisplayConfigError):
        SeatDisplay(1, backend="spi")
    with pytest.raises(DisplayConfigError):
        SeatDisplay(1, driver="ssd1331")
    with pytest.raises(DisplayConfigError):
        SeatDisplay(1, backend="luma")


def test_bank_resolves_channels_and_per_seat_addresses_through_sysfs(tmp_path, monkeypatch):
    mux = tmp_path / "1-0070"
    mux.mkdir()
    for channel in range(8):
        (tmp_path / f"i2c-{11 + channel}").mkdir()
        os.symlink(tmp_path / f"i2c-{11 + channel}", mux / f"channel-{channel}")
    made = []

    def fake_new_device(self):
        made.append((self.seat, self.bus, self.address))

    monkeypatch.setattr(SeatDisplay, "_new_device", fake_new_device)
    SeatDisplayBank({"backend": "luma", "seats": [1, 2, 9],
                     "channels": {"1": 0, "2": 5, "9": 0}, "addresses": {"9": "0x3D"}},
                    clock=FakeClock(), sysfs=str(tmp_path))
    assert made == [(1, 11, 0x3C), (2, 16, 0x3C), (9, 11, 0x3D)]


def test_threaded_bank_sends_from_its_writer_thread():
    bank = SeatDisplayBank({"backend": "mock", "seats": [1, 3], "threaded": True})
    try:
        assert bank.show({1: STATES["seat_waiting"], 3: STATES["seat_won"]}) == 0
        bank.show({1: STATES["seat_your_action"]})     # the latest view per seat wins
        assert bank.flush(5.0)
        assert bank.displays[1].device_image().tobytes() == \
            render_seat_view(STATES["seat_your_action"]).tobytes()
        assert bank.displays[3].device_image().tobytes() == \
            render_seat_view(STATES["seat_won"]).tobytes()
    finally:
        bank.close()
