"""wire_devices: the one place the daemon, the simulator and the pictures get their
devices from."""

from __future__ import annotations

import queue

from engine.effects import ShoeCommand
from engine.events import DeviceStatus
from engine.views import ClockView, ScreenState, SeatDisplayView
from hardware.buttons import ButtonSettings
from hardware.pins import DEFAULT_PIN_MAP, PinMap
from hardware.seat_display import DisplaySettings
from hardware.tv import TVSettings
from pi_app.service.config import load_config
from pi_app.service.devices import DeviceSettings, wire_devices


def test_every_device_of_the_settings_is_made_and_hands_events_to_put() -> None:
    q: queue.Queue = queue.Queue()
    header = PinMap(seats={1: DEFAULT_PIN_MAP.seats[1]}, dealer=DEFAULT_PIN_MAP.dealer)
    settings = DeviceSettings(
        tv=TVSettings(size=(1280, 720), fps=0, driver="dummy"),
        displays=DisplaySettings(backend="mock", seats=(1, 2)),
        buttons=(ButtonSettings(pin_factory="mock", pin_map=header),),
        button_poller=False)
    devices = wire_devices(settings, q.put, clock=lambda: 5.0)
    try:
        assert devices.tv is not None and devices.tv.size == (1280, 720)
        assert sorted(devices.displays.displays) == [1, 2]
        assert devices.bank_for(1) is devices.banks[0]
        assert devices.bank_for("dealer") is devices.banks[0]
        assert devices.banks[0].press(1, "fold", at=5.0)
        assert q.get_nowait().seat == 1
        devices.show_screen(ScreenState(clock=ClockView(level_number=2)))
        assert devices.tv.frames_drawn == 1
        devices.show_seats({2: SeatDisplayView(seat=2, name="Bo", stack=500)})
        assert devices.displays.displays[2].image is not None
        devices.shoe_command(ShoeCommand("lock"))  # no shoe: nothing happens
    finally:
        devices.close()
    assert devices.tv is None and devices.banks == []


def test_a_device_that_fails_to_start_is_reported_offline_and_the_rest_run() -> None:
    q: queue.Queue = queue.Queue()
    settings = DeviceSettings(tv=TVSettings(size=(640, 480), driver="dummy"),
                              displays=DisplaySettings(backend="mock", seats=(3,)))
    devices = wire_devices(settings, q.put, clock=lambda: 7.0)
    try:
        status = q.get_nowait()
        assert isinstance(status, DeviceStatus)
        assert (status.device, status.online, status.t) == ("tv", False, 7.0)
        assert "640x480" in status.detail
        assert devices.tv is None and 3 in devices.displays.displays
        devices.show_screen(ScreenState())  # an absent TV is no error
    finally:
        devices.close()


def test_events_of_a_simulated_table_carry_table_time() -> None:
    q: queue.Queue = queue.Queue()
    settings = DeviceSettings(tv=TVSettings(size=(640, 480), driver="dummy"))
    devices = wire_devices(settings, q.put, clock=lambda: 7.0, table_clock=lambda: 1234.0)
    devices.close()
    assert q.get_nowait().t == 1234.0


def test_the_default_config_wires_mock_devices() -> None:
    settings = load_config(None).device_settings()
    assert settings.tv is not None and settings.tv.driver == "dummy"
    assert settings.displays is not None and settings.displays.backend == "mock"
    assert settings.displays.threaded
    assert settings.buttons[0].pin_factory == "mock"
    assert settings.shoe is not None and settings.shoe.backend == "sim"
    assert settings.sound is not None and not settings.sound.enabled
