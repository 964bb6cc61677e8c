"""The table's devices, made and wired once: :func:`wire_devices`.

The daemon, the simulator and the simulator's pictures all get their devices here.  Each
adapter is made from its typed settings (:class:`DeviceSettings`) and hands its events to
the one ``put`` (the loop's :meth:`~pi_app.service.loop.ServiceLoop.put`).  A device that
fails to start is reported offline (a :class:`engine.events.DeviceStatus` through ``put``)
and the table runs on without it.

The result, :class:`Devices`, is what the loop and the effect runner call: ``show_screen``
(the TV), ``show_seats`` (the seat displays), ``play`` (sounds) and ``shoe_command``; none
of them blocks or raises for a device failure.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.effects import Alert, ShoeCommand
from engine.events import DeviceStatus, Event
from engine.views import ScreenState, SeatDisplayView
from hardware.buttons import ButtonSettings
from hardware.seat_display import DisplaySettings
from hardware.shoe.factory import ShoeConfig
from hardware.sounds import SoundSettings
from hardware.tv import TVSettings

log = logging.getLogger("pokertable.devices")

Put = Callable[[Event], None]


@dataclass(frozen=True)
class DeviceSettings:
    """Which devices the table has, each with its typed settings (None: not present).

    ``buttons`` may hold several banks (the 40-pin header and an I/O expander).
    ``test_deck_seed``: a simulated shoe holds the registered test deck of this seed
    (:func:`engine.dealing.registry.make_test_deck`); None leaves the simulator's own deck.
    ``button_poller``: poll the keys on a thread in real time (the daemon); the simulator
    presses them itself in virtual time.
    ``tv_thread``: draw the TV on a thread of its own (:class:`hardware.tv_thread.TVThread`:
    the daemon, where a frame must never hold up the loop); without it the TV draws each
    state before ``show_screen`` returns (the simulator's pictures).
    """

    tv: TVSettings | None = None
    displays: DisplaySettings | None = None
    buttons: tuple[ButtonSettings, ...] = ()
    shoe: ShoeConfig | None = None
    sound: SoundSettings | None = None
    test_deck_seed: int | None = None
    button_poller: bool = True
    tv_thread: bool = False


class Devices:
    """The wired adapters (each None when absent or failed) and what the loop calls."""

    def __init__(self) -> None:
        self.tv: Any = None
        self.displays: Any = None
        self.banks: list[Any] = []
        self.shoe: Any = None
        self.sound: Any = None

    # --- what the loop and the effect runner call ----------------------------------------
    def show_screen(self, state: ScreenState) -> None:
        """Draw ``state`` on the TV (its window events handled)."""
        if self.tv is not None:
            self.tv.render(state)
            self.tv.pump()

    def show_seats(self, views: Mapping[int, SeatDisplayView]) -> None:
        """Hand the seat displays the views that changed."""
        if self.displays is not None:
            self.displays.show(views)

    def play(self, alert: Alert) -> None:
        if self.sound is not None:
            self.sound.play(alert)

    def shoe_command(self, cmd: ShoeCommand) -> None:
        if self.shoe is None:
            return
        if cmd.command == "lock":
            self.shoe.lock(True)
        elif cmd.command == "unlock":
            self.shoe.lock(False)
        elif cmd.command == "mode":
            self.shoe.set_mode(cmd.arg)

    @property
    def simulated_shoe(self) -> Any:
        """The simulated shoe behind a ``sim`` shoe (None for a real one)."""
        return getattr(self.shoe, "simulator", None)

    def bank_for(self, seat: int | str) -> Any:
        """The button bank holding ``seat``'s keys (``"dealer"``: the dealer box).

        Raises:
            LookupError: no bank has them.
        """
        for bank in self.banks:
            pins = bank.pin_map.dealer if seat == "dealer" else bank.pin_map.seats.get(int(seat))
            if pins:
                return bank
        raise LookupError(f"no button bank has the keys of {seat!r}")

    def close(self) -> None:
        """Stop and release every device (best effort; never raises)."""
        closers = [bank.close for bank in self.banks]
        if self.shoe is not None:
            closers.append(self.shoe.stop)
        if self.simulated_shoe is not None:
            closers.append(self.simulated_shoe.stop)
        for dev in (self.displays, self.tv, self.sound):
            if dev is not None:
                closers.append(dev.close)
        for closer in closers:
            try:
                closer()
            except Exception:  # noqa: BLE001 - stopping must finish
                log.debug("closing a device failed", exc_info=True)
        self.banks, self.shoe, self.displays, self.tv, self.sound = [], None, None, None, None


class _Put:
    """The event sink the adapters get (they call ``put(event)``)."""

    def __init__(self, put: Put, clock: Callable[[], float] | None = None) -> None:
        self._put = put
        self._clock = clock

    def put(self, event: Event) -> None:
        if self._clock is not None:  # stamped with the table's clock
            event = dataclasses.replace(event, t=self._clock())
        self._put(event)


def wire_devices(settings: DeviceSettings, put: Put, *,
                 clock: Callable[[], float] = time.monotonic,
                 table_clock: Callable[[], float] | None = None) -> Devices:
    """Make every device of ``settings``, each handing its events to ``put``.

    Args:
        settings: the devices and their settings.
        put: where events go (the loop's ``put``; thread-safe).
        clock: monotonic seconds the keys and displays stamp and time with.
        table_clock: when given (a simulated table in virtual time), the events of the
            TV, the seat displays and the shoe are stamped with it and the keys are timed
            by it; the devices' own retries and the shoe link's health run on ``clock``.

    Returns the :class:`Devices`; a device that failed to start is None there and was
    reported offline through ``put``.
    """
    devices = Devices()
    stamped = _Put(put, table_clock)

    def offline(device: str, exc: BaseException) -> None:
        log.warning("%s unavailable: %s", device, exc)
        put(DeviceStatus(t=(table_clock or clock)(), device=device, online=False,
                         detail=str(exc)))

    steps: list[tuple[str, Callable[[], None]]] = [
        ("tv", lambda: _wire_tv(devices, settings, stamped, clock)),
        ("displays", lambda: _wire_displays(devices, settings, stamped, clock)),
        # the keys stamp their debounced events themselves, in table time
        ("buttons", lambda: _wire_buttons(devices, settings, _Put(put), table_clock or clock)),
        ("shoe", lambda: _wire_shoe(devices, settings, stamped)),
        ("audio", lambda: _wire_sound(devices, settings)),
    ]
    for device, step in steps:
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - a device never stops the table
            offline(device, exc)
    return devices


def _wire_tv(devices: Devices, settings: DeviceSettings, sink: _Put,
             clock: Callable[[], float]) -> None:
    if settings.tv is None:
        return
    from pi_app.screens import ScreenRenderer

    tv = settings.tv.make(ScreenRenderer(), sink, clock=clock)
    if settings.tv_thread:
        from hardware.tv_thread import TVThread

        devices.tv = TVThread(tv)
    else:
        devices.tv = tv
    devices.tv.open()


def _wire_displays(devices: Devices, settings: DeviceSettings, sink: _Put,
                   clock: Callable[[], float]) -> None:
    if settings.displays is not None:
        from hardware.seat_display import SeatDisplayBank

        devices.displays = SeatDisplayBank(settings.displays, sink, clock=clock)


def _wire_buttons(devices: Devices, settings: DeviceSettings, sink: _Put,
                  clock: Callable[[], float]) -> None:
    for bank_settings in settings.buttons:
        bank = bank_settings.make(sink, clock=clock)
        devices.banks.append(bank)
        if settings.button_poller:
            bank.start_poller()


def _wire_shoe(devices: Devices, settings: DeviceSettings, sink: _Put) -> None:
    if settings.shoe is None:
        return
    from hardware.shoe.factory import make_shoe

    devices.shoe = make_shoe(settings.shoe, sink)
    sim = devices.simulated_shoe
    if sim is not None and settings.test_deck_seed is not None:
        from engine.dealing.registry import make_test_deck

        sim.load_deck(make_test_deck(settings.test_deck_seed).uids())


def _wire_sound(devices: Devices, settings: DeviceSettings) -> None:
    if settings.sound is not None:
        devices.sound = settings.sound.make()
