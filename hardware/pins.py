"""GPIO pin factory and pin map for the seat buttons and the dealer button box.

The pin factory is chosen by configuration (``[buttons] pin_factory``):

* ``"mock"``: :class:`gpiozero.pins.mock.MockFactory` (the default off a Raspberry Pi; tests
  and simulation press the buttons with ``drive_low``/``drive_high``);
* ``"lgpio"``: :class:`gpiozero.pins.lgpio.LGPIOFactory` (the default on a Pi 5 with Bookworm;
  also works on a Pi 4 with Bookworm);
* ``"rpigpio"``, ``"pigpio"``, ``"native"``: the other gpiozero factories, by name.

The pin map is configuration too.  :data:`DEFAULT_PIN_MAP` fits a 6-max table on the 40-pin
header (J8) and leaves free I2C1 (GPIO2/3: the TCA9548A and the seat displays) and the UART
(GPIO14/15: a shoe on a UART, or a console for debugging).  It does use the SPI0 pins
(GPIO7-11): the card shoe talks USB, so SPI is not needed.  It uses GPIO0/1 (ID_SD/ID_SC,
the HAT EEPROM pins) for two dealer-box keys, so no HAT with an ID EEPROM may be fitted; see
docs/hardware.md for the wiring table and for 9-10 seats on an MCP23017.

Pins are BCM GPIO numbers (ints) or any name gpiozero accepts (``"GPIO17"``, ``"BOARD11"``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import DeviceError, InvalidInputError
from engine.events import DEALER_BUTTONS, SEAT_BUTTONS

#: Pins that the default map must never use: I2C1 (GPIO2/3) and the UART (GPIO14/15).
RESERVED_PINS: dict[int, str] = {2: "I2C1 SDA", 3: "I2C1 SCL", 14: "UART TXD", 15: "UART RXD"}

#: Factory names accepted in configuration -> (module, class).
FACTORY_CLASSES: dict[str, tuple[str, str]] = {
    "mock": ("gpiozero.pins.mock", "MockFactory"),
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
}


class PinConfigError(InvalidInputError):
    """The pin map or the pin factory named in configuration is not usable."""


class PinFactoryError(DeviceError):
    """The configured pin factory could not be created on this machine (library missing,
    no /dev/gpiochip*, not a Pi)."""


@dataclass(frozen=True)
class PinMap:
    """Which GPIO each button is wired to.

    ``seats``: seat (1-based) -> {button: pin} with buttons from
    :data:`engine.events.SEAT_BUTTONS`; ``dealer``: {button: pin} with buttons from
    :data:`engine.events.DEALER_BUTTONS`.  A button left out of the map is simply absent.
    """

    seats: Mapping[int, Mapping[str, int | str]] = field(default_factory=dict)
    dealer: Mapping[str, int | str] = field(default_factory=dict)

    def all_pins(self) -> list[tuple[str, int | str]]:
        """``[(label, pin), ...]`` with labels ``"seat 3 fold"`` / ``"dealer undo"``."""
        out: list[tuple[str, int | str]] = []
        for seat in sorted(self.seats):
            for button, pin in self.seats[seat].items():
                out.append((f"seat {seat} {button}", pin))
        for button, pin in self.dealer.items():
            out.append((f"dealer {button}", pin))
        return out

    def validate(self) -> PinMap:
        """Check names, seat numbers and that no pin is used twice.

        Raises:
            PinConfigError: unknown button name, seat < 1, or a pin used twice.
        """
        seen: dict[str, str] = {}
        for seat, buttons in self.seats.items():
            if not isinstance(seat, int) or seat < 1:
                raise PinConfigError(f"pin map: seat {seat!r} must be an integer >= 1")
            for button in buttons:
                if button not in SEAT_BUTTONS:
                    raise PinConfigError(
                        f"pin map: seat {seat} button {button!r} is not one of "
                        f"{', '.join(SEAT_BUTTONS)}"
                    )
        for button in self.dealer:
            if button not in DEALER_BUTTONS:
                raise PinConfigError(
                    f"pin map: dealer button {button!r} is not one of {', '.join(DEALER_BUTTONS)}"
                )
        for label, pin in self.all_pins():
            key = _pin_key(pin)
            if key in seen:
                raise PinConfigError(f"pin map: {pin!r} is used by both {seen[key]} and {label}")
            seen[key] = label
        return self


def _pin_key(pin: int | str) -> str:
    """A normalised key so ``17``, ``"17"``, ``"GPIO17"`` and ``"BCM17"`` compare equal."""
    s = str(pin).strip().upper()
    for prefix in ("GPIO", "BCM"):
        if s.startswith(prefix) and s[len(prefix):].isdigit():
            return s[len(prefix):]
    return s


#: Default 6-max map (BCM numbers).  Physical header pins in the comments; every seat's three
#: keys share a ground pin next to them.  See docs/hardware.md for the full wiring table.
DEFAULT_PIN_MAP = PinMap(
    seats={
        1: {"fold": 4, "check_call": 17, "bet_raise": 27},   # J8 7, 11, 13
        2: {"fold": 22, "check_call": 10, "bet_raise": 9},   # J8 15, 19, 21
        3: {"fold": 11, "check_call": 5, "bet_raise": 6},    # J8 23, 29, 31
        4: {"fold": 13, "check_call": 19, "bet_raise": 26},  # J8 33, 35, 37
        5: {"fold": 18, "check_call": 23, "bet_raise": 24},  # J8 12, 16, 18
        6: {"fold": 25, "check_call": 8, "bet_raise": 7},    # J8 22, 24, 26
    },
    dealer={
        "next_hand": 12,       # J8 32
        "pause_resume": 16,    # J8 36
        "exposed_card": 20,    # J8 38
        "misdeal": 21,         # J8 40
        "confirm_ruling": 0,   # J8 27 (ID_SD)
        "undo": 1,             # J8 28 (ID_SC)
    },
)


def pin_map_from_config(cfg: Mapping[str, Any] | None) -> PinMap:
    """Build a :class:`PinMap` from the ``[buttons]`` config table.

    Shape (TOML)::

        [buttons.seats]
        1 = { fold = 4, check_call = 17, bet_raise = 27 }
        [buttons.dealer]
        next_hand = 12

    Missing ``seats``/``dealer`` tables fall back to :data:`DEFAULT_PIN_MAP`'s.  Seat keys may
    be strings (TOML keys are strings).

    Raises:
        PinConfigError: bad seat number, unknown button or a duplicated pin.
    """
    cfg = cfg or {}
    seats_cfg = cfg.get("seats")
    dealer_cfg = cfg.get("dealer")
    seats: dict[int, dict[str, int | str]] = {}
    if seats_cfg is None:
        seats = {s: dict(b) for s, b in DEFAULT_PIN_MAP.seats.items()}
    else:
        for key, buttons in seats_cfg.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                raise PinConfigError(f"pin map: seat {key!r} must be an integer >= 1") from None
            if str(key) != str(seat):
                raise PinConfigError(f"pin map: write seat {key!r} as {seat}, without leading "
                                     "zeros or spaces, so that two keys never name one seat")
            if not isinstance(buttons, Mapping):
                raise PinConfigError(f"pin map: seat {seat} must map button names to pins")
            seats[seat] = dict(buttons)
    dealer = dict(DEFAULT_PIN_MAP.dealer) if dealer_cfg is None else dict(dealer_cfg)
    return PinMap(seats=seats, dealer=dealer).validate()


def is_raspberry_pi(model_path: str = "/proc/device-tree/model") -> bool:
    """True when the device-tree model string names a Raspberry Pi."""
    try:
        with open(model_path, "rb") as fh:
            return b"Raspberry Pi" in fh.read()
    except OSError:
        return False


def default_factory_name(model_path: str = "/proc/device-tree/model") -> str:
    """``"lgpio"`` on a Raspberry Pi, ``"mock"`` anywhere else (CI, a laptop)."""
    return "lgpio" if is_raspberry_pi(model_path) else "mock"


def make_pin_factory(name: str | None = None, **kwargs: Any) -> Any:
    """Create the gpiozero pin factory named ``name`` (see :data:`FACTORY_CLASSES`).

    ``None`` or ``"auto"`` picks :func:`default_factory_name`.  ``kwargs`` go to the
    factory (e.g. ``revision="c04170"`` for a mock Pi 5 board, ``chip=4`` for lgpio).

    Raises:
        PinConfigError: an unknown factory name.
        PinFactoryError: the factory's library is missing or the GPIO chip cannot be opened.
    """
    if name is None or name == "auto":
        name = os.environ.get("POKERTABLE_PIN_FACTORY") or default_factory_name()
    key = name.strip().lower()
    if key not in FACTORY_CLASSES:
        raise PinConfigError(
            f"unknown pin factory {name!r}; expected one of {', '.join(FACTORY_CLASSES)}"
        )
    module_name, class_name = FACTORY_CLASSES[key]
    try:
        import importlib

        module = importlib.import_module(module_name)
        cls = getattr(module, class_name)
        return cls(**kwargs)
    except ImportError as exc:
        raise PinFactoryError(
            f"pin factory {key!r} needs a library that is not installed ({exc.name}); "
            f"on a Pi 5 install python3-lgpio (apt) or lgpio (pip)"
        ) from None
    except Exception as exc:  # noqa: BLE001 - BadPinFactory, OSError, lgpio.error, ...
        raise PinFactoryError(f"pin factory {key!r} could not start: {exc}") from None


def check_header_pins(pin_map: PinMap, factory: Any) -> list[str]:
    """Problems with ``pin_map`` on ``factory``'s board: pins not on the J8 header and pins
    reserved for I2C1/UART.  Empty list when the map is fine.  Uses gpiozero's board data."""
    problems: list[str] = []
    info = factory.board_info
    for label, pin in pin_map.all_pins():
        found = list(info.find_pin(f"GPIO{_pin_key(pin)}" if _pin_key(pin).isdigit() else pin))
        on_j8 = [p for p in found if p[0].name == "J8"]
        if not on_j8:
            problems.append(f"{label}: {pin!r} is not a GPIO on the 40-pin header")
            continue
        key = _pin_key(pin)
        if key.isdigit() and int(key) in RESERVED_PINS:
            problems.append(f"{label}: GPIO{key} is reserved for {RESERVED_PINS[int(key)]}")
    return problems


def header_pin_number(pin: int | str, factory: Any) -> int | None:
    """Physical J8 pin number (1..40) of a BCM GPIO per gpiozero's board data, or None."""
    key = _pin_key(pin)
    name = f"GPIO{key}" if key.isdigit() else str(pin)
    for header, info in factory.board_info.find_pin(name):
        if header.name == "J8":
            return int(info.number)
    return None
