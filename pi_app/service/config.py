"""Table configuration: one TOML file per table, validated before anything starts.

Load with :func:`load_config` (a path, or None for the embedded default
``pi_app/default_config.toml``: a simulated table with mock hardware).  Every key is
described in ``config/example-table.toml``.  Sections and keys::

    [table]       name
    [seats]       count (2..10, seats 1..count) | in_use (list of seats 1..10); [seats.names]
    [tournament]  structure (preset name or .toml path, relative to this file), house_profile,
                  seed (bounty, wheel, first button), deck_seed (the registered test deck)
    [state]       directory ("" = $STATE_DIRECTORY or ./state), snapshot_every
    [backends]    buttons, displays, shoe, tv, sound: "real" | "mock"
    [buttons]     pin_factory, bounce_time, hold_time, stuck_time;
                  [buttons.dealer] {button = pin}; [buttons.seats] N = {...}
                  (the shape of :func:`hardware.pins.pin_map_from_config`)
    [displays]    mux_parent_bus, mux_address; [displays.N] bus or mux_channel (0..7),
                  address, driver ("ssd1306" | "sh1106")
    [shoe]        port ("sim" | "/dev/serial/by-id/..." | a pyserial URL), baudrate
    [tv]          width, height, layout ("clock" | "table" | "split"), fps
    [sound]       enabled, speech
    [service]     tick_interval (seconds), watchdog (bool)
    [house_rules] any dealing-ruling knob overriding the house profile (misdeal_gate,
                  exposed_first_cards, one_extra_card, ...: docs/irregularities.md)
    [console]     listen ("HOST:PORT", default 127.0.0.1:8765), registration (bool: the
                  night starts with no players; they are registered from the console)

Errors: :class:`ConfigError` (an :class:`engine.errors.InvalidInputError`) whose message
names the file and the dotted key: ``table.toml: seats.count: must be 2..10, got 12``.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import InvalidInputError
from engine.input_file import InputFileError, loads_toml, read_text
from engine.text import unsafe_reason
from pi_app.service.console_config import ConsoleConfig, parse_console
from hardware.buttons import ButtonSettings
from hardware.pins import PinMap
from hardware.seat_display import DEFAULT_ADDRESS as DEFAULT_DISPLAY_ADDRESS
from hardware.seat_display import DisplaySettings
from hardware.shoe.factory import ShoeConfig
from hardware.sounds import SoundSettings
from hardware.tv import TVSettings

if TYPE_CHECKING:
    from pi_app.service.devices import DeviceSettings

BACKEND_DEVICES = ("buttons", "displays", "shoe", "tv", "sound")
BACKENDS = ("real", "mock")
LAYOUTS = ("clock", "table", "split")
DISPLAY_DRIVERS = ("ssd1306", "sh1106")
MIN_SEATS, MAX_SEATS = 2, 10
JOURNAL_NAME = "journal.db"

_SECTIONS: dict[str, tuple[str, ...]] = {
    "table": ("name",),
    "seats": ("count", "in_use", "names"),
    "tournament": ("structure", "house_profile", "seed", "deck_seed", "new_player",
                   "heads_up_small_blind"),
    "state": ("directory", "snapshot_every"),
    "backends": BACKEND_DEVICES,
    "buttons": ("pin_factory", "seats", "dealer", "bounce_time", "hold_time", "stuck_time"),
    "displays": (),  # seat numbers, plus mux_parent_bus and mux_address
    "shoe": ("port", "baudrate"),
    "tv": ("width", "height", "layout", "fps"),
    "sound": ("enabled", "speech"),
    "service": ("tick_interval", "watchdog"),
    # the dealing-ruling knobs of engine.dealing.irregularities.KNOBS, each overriding the profile
    "house_rules": ("misdeal_gate", "exposed_first_cards", "single_boxed_card",
                    "one_extra_card", "foreign_card", "premature_turn", "four_card_flop",
                    "missed_flop_burn", "burn_error"),
    "console": ("listen", "registration"),
}
_DISPLAY_KEYS = ("bus", "address", "driver", "mux_channel")


class ConfigError(InvalidInputError):
    """A configuration file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class DisplayConfig:
    """One seat display: ``/dev/i2c-<bus>`` (with the i2c-mux overlay, each TCA9548A
    channel is its own bus) or, when ``bus`` is None, the TCA9548A channel whose bus is
    found at run time (sysfs); 7-bit ``address``; ``driver``."""

    seat: int
    bus: int | None
    address: int
    driver: str = "ssd1306"
    mux_channel: int | None = None


@dataclass(frozen=True)
class TableConfig:
    """A validated table configuration (see the module docstring for the keys)."""

    source: str
    name: str
    seats: tuple[int, ...]
    names: dict[int, str]
    structure: str
    house_profile: str
    seed: int
    deck_seed: int
    state_dir: Path
    snapshot_every: int
    backends: dict[str, str]
    pin_factory: str
    buttons: dict[str, Any]
    displays: dict[int, DisplayConfig]
    shoe_port: str
    shoe_baudrate: int
    tv_width: int
    tv_height: int
    tv_layout: str
    tv_fps: int
    mux_parent_bus: int
    mux_address: int
    sound: bool
    speech: bool
    tick_interval: float
    watchdog: bool
    house_rules: dict[str, Any] = field(default_factory=dict)
    console: ConsoleConfig | None = None
    new_player: str = "button_passes"
    heads_up: str = "button"
    #: Why the structure cannot be read now (loaded with ``structure_optional``): only a
    #: resume, which plays the copy in its journal, may go on (:meth:`require_structure`).
    structure_problem: str = ""
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def journal_path(self) -> Path:
        """``<state_dir>/journal.db``."""
        return self.state_dir / JOURNAL_NAME

    def require_structure(self) -> None:
        """Raises ConfigError: the structure cannot be read (a new tournament needs it)."""
        if self.structure_problem:
            raise ConfigError(self.structure_problem)

    def backend(self, device: str) -> str:
        """``"real"`` or ``"mock"`` for ``device`` in :data:`BACKEND_DEVICES`."""
        return self.backends[device]

    def player_names(self) -> dict[int, str]:
        """Seat -> name for every seat in use (``"Player N"`` where no name is given)."""
        return {s: self.names.get(s, f"Player {s}") for s in self.seats}

    def table_settings(self) -> Any:
        """The :class:`engine.table.core.TableSettings` the real core is built from (no
        players when the console registers them: ``[console] registration``)."""
        from engine.table.core import TableSettings
        registering = self.console is not None and self.console.registration
        return TableSettings(players={} if registering else self.player_names(), structure=self.structure,
                             profile=self.house_profile, seed=self.seed,
                             deck_seed=self.deck_seed, layout=self.tv_layout, name=self.name,
                             house_rules=dict(self.house_rules), seats=self.seats,
                             new_player=self.new_player, heads_up=self.heads_up)

    # --- the typed settings the device adapters are made from ---------------------------
    def device_settings(self) -> DeviceSettings:
        """The devices of this table for :func:`pi_app.service.devices.wire_devices`
        (a ``mock`` backend is the adapter's mock: SDL's dummy driver, luma's dummy device,
        gpiozero's mock pins, the simulated shoe holding the test deck of ``deck_seed``)."""
        from pi_app.service.devices import DeviceSettings

        return DeviceSettings(tv=self.tv_settings(), displays=self.display_settings(),
                              buttons=(self.button_settings(),), shoe=self.shoe_settings(),
                              sound=SoundSettings(enabled=self.sound and
                                                  self.backends["sound"] == "real",
                                                  speech=self.speech),
                              test_deck_seed=self.deck_seed)

    def button_settings(self) -> ButtonSettings:
        """The keys' :class:`hardware.buttons.ButtonSettings` (mock pins for ``mock``)."""
        from hardware.buttons import DEFAULT_STUCK_TIME
        from hardware.debounce import DEFAULT_BOUNCE_TIME, DEFAULT_HOLD_TIME

        b = self.buttons
        return ButtonSettings(
            pin_factory="mock" if self.backends["buttons"] == "mock" else self.pin_factory,
            pin_map=self.pin_map(), bounce_time=float(b.get("bounce_time", DEFAULT_BOUNCE_TIME)),
            hold_time=float(b.get("hold_time", DEFAULT_HOLD_TIME)),
            stuck_time=float(b.get("stuck_time", DEFAULT_STUCK_TIME)))

    def display_settings(self) -> DisplaySettings:
        """The seat displays' :class:`hardware.seat_display.DisplaySettings` (one driver and
        address for all seats: those of the lowest configured seat; frames sent on the
        displays' own thread)."""
        first = self.displays[min(self.displays)] if self.displays else None
        return DisplaySettings(
            backend="luma" if self.backends["displays"] == "real" else "mock",
            seats=tuple(self.seats),
            driver=first.driver if first else "ssd1306",
            address=first.address if first else DEFAULT_DISPLAY_ADDRESS,
            addresses={s: d.address for s, d in self.displays.items()},
            buses={s: d.bus for s, d in self.displays.items() if d.bus is not None},
            channels={s: d.mux_channel for s, d in self.displays.items()
                      if d.bus is None and d.mux_channel is not None},
            mux_parent_bus=self.mux_parent_bus, mux_address=self.mux_address, threaded=True)

    def tv_settings(self) -> TVSettings:
        """The TV's :class:`hardware.tv.TVSettings` (mock = SDL's dummy driver)."""
        return TVSettings(size=(self.tv_width, self.tv_height), fps=self.tv_fps,
                          driver="auto" if self.backends["tv"] == "real" else "dummy")

    def shoe_settings(self) -> ShoeConfig:
        """The shoe's :class:`hardware.shoe.factory.ShoeConfig` (mock = the simulator)."""
        if self.backends["shoe"] == "mock":
            return ShoeConfig(backend="sim", baudrate=self.shoe_baudrate)
        return ShoeConfig(backend="serial", port=self.shoe_port, baudrate=self.shoe_baudrate)

    def pin_map(self) -> PinMap:
        """The :class:`hardware.pins.PinMap` from ``[buttons]``."""
        from hardware.pins import pin_map_from_config
        return pin_map_from_config({k: v for k, v in self.buttons.items()
                                    if k in ("seats", "dealer")})


class _Checker:
    def __init__(self, source: str, data: dict[str, Any]) -> None:
        self.source = source
        self.data = data

    def fail(self, key: str, msg: str) -> ConfigError:
        return ConfigError(f"{self.source}: {key}: {msg}")

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(name, f"must be a table ([{name}]), got {type(value).__name__}")
        allowed = _SECTIONS[name]
        if allowed:
            for key in value:
                if key not in allowed:
                    raise self.fail(f"{name}.{key}",
                                    f"unknown key (expected one of {', '.join(allowed)})")
        return value

    def get(self, sec: dict[str, Any], secname: str, key: str, kind: type | tuple[type, ...],
            default: Any) -> Any:
        value = sec.get(key, default)
        dotted = f"{secname}.{key}"
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(dotted, f"must be {_kind_name(kinds)}, got {value!r}")
        if not isinstance(value, kinds):
            raise self.fail(dotted, f"must be {_kind_name(kinds)}, got {value!r}")
        return value

    def int_range(self, sec: dict[str, Any], secname: str, key: str, default: int,
                  lo: int, hi: int) -> int:
        value = self.get(sec, secname, key, int, default)
        if not lo <= value <= hi:
            raise self.fail(f"{secname}.{key}", f"must be {lo}..{hi}, got {value}")
        return value

    def choice(self, sec: dict[str, Any], secname: str, key: str, default: str,
               choices: tuple[str, ...]) -> str:
        value = self.get(sec, secname, key, str, default)
        if value not in choices:
            raise self.fail(f"{secname}.{key}",
                            f"must be one of {', '.join(choices)}, got {value!r}")
        return value


def _has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (C0/C1, DEL), a line/paragraph
    separator, a bidi control or only invisible characters: they would break the one-line
    displays and the logs (:func:`engine.text.unsafe_reason`)."""
    return unsafe_reason(text) is not None


# gpiozero's header pin names (gpiozero.pins.PiBoardInfo.to_gpio): GPIOn / BCMn are BCM
# numbers, BOARDn / J8:n physical pins of the 40-pin header.
_PIN_NAME = re.compile(r"(GPIO|BCM|BOARD|J8:)([0-9]{1,2})")
# J8 physical pin -> BCM number, for every GPIO pin of the 40-pin header (pinout.xyz).
_BOARD_TO_BCM = {3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23,
                 18: 24, 19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5,
                 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21}
# GPIO 2/3 are I2C1 SDA/SCL (J8 3/5), the bus of the seat displays: never a button.
_I2C1_PINS = {2: "I2C1 SDA", 3: "I2C1 SCL"}
_PIN_FORMS = "a BCM number 0..27 or a header pin name (GPIO17, BCM17, BOARD11, J8:11)"


def _pin_bcm(pin: Any) -> int | str:
    """The BCM number of a button pin from the config, or a reason it is not one."""
    if isinstance(pin, bool) or not isinstance(pin, (int, str)):
        return f"must be {_PIN_FORMS}, got {pin!r}"
    if isinstance(pin, int):
        if not 0 <= pin <= 27:
            return f"GPIO {pin} is not on the 40-pin header (BCM 0..27)"
        return pin
    m = _PIN_NAME.fullmatch(pin)
    if m is None:
        return f"must be {_PIN_FORMS}, got {pin!r}"
    number = int(m.group(2))
    if m.group(1) in ("GPIO", "BCM"):
        if not 0 <= number <= 27:
            return f"{pin} is not on the 40-pin header (BCM 0..27)"
        return number
    if number not in _BOARD_TO_BCM:
        return f"{pin} is not a GPIO pin of the 40-pin header (power, ground or no such pin)"
    return _BOARD_TO_BCM[number]


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
             list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _seat_key(c: _Checker, dotted: str, key: Any) -> int:
    """A seat number written as a key: ``"1"`` .. ``"10"``; ``"01"`` is refused, so that
    two keys can never name one seat (the second silently winning)."""
    try:
        seat = int(key)
    except (TypeError, ValueError):
        raise c.fail(dotted, f"seat must be a number 1..{MAX_SEATS}, got {key!r}") from None
    if not 1 <= seat <= MAX_SEATS:
        raise c.fail(dotted, f"seat must be 1..{MAX_SEATS}, got {seat}")
    if str(key) != str(seat):
        raise c.fail(dotted, f"write the seat number as {seat}, without leading zeros or "
                             f"spaces, got {key!r}")
    return seat


def _seats(c: _Checker) -> tuple[tuple[int, ...], dict[int, str]]:
    sec = c.section("seats")
    if "count" in sec and "in_use" in sec:
        raise c.fail("seats", "give either count or in_use, not both")
    if "in_use" in sec:
        lst = c.get(sec, "seats", "in_use", list, [])
        seats: list[int] = []
        for item in lst:
            if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= MAX_SEATS:
                raise c.fail("seats.in_use", f"seats must be numbers 1..{MAX_SEATS}, got {item!r}")
            if item in seats:
                raise c.fail("seats.in_use", f"seat {item} is listed twice")
            seats.append(item)
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise c.fail("seats.in_use",
                         f"must list {MIN_SEATS}..{MAX_SEATS} seats, got {len(seats)}")
        in_use = tuple(sorted(seats))
    else:
        count = c.int_range(sec, "seats", "count", 6, MIN_SEATS, MAX_SEATS)
        in_use = tuple(range(1, count + 1))
    names_raw = c.get(sec, "seats", "names", dict, {})
    names: dict[int, str] = {}
    for key, value in names_raw.items():
        dotted = f"seats.names.{key}"
        seat = _seat_key(c, dotted, key)
        if seat not in in_use:
            raise c.fail(dotted, f"seat {seat} is not in use (seats: {_fmt(in_use)})")
        if not isinstance(value, str) or not value.strip() or len(value) > 24:
            raise c.fail(dotted, f"must be a name of 1..24 characters, got {value!r}")
        if _has_control(value):
            raise c.fail(dotted, f"must not hold control characters, got {value!r}")
        names[seat] = value.strip()
    return in_use, names


def _fmt(seats: tuple[int, ...]) -> str:
    return ", ".join(map(str, seats))


def _structure(c: _Checker, base_dir: Path | None,
               deferred: list[ConfigError] | None = None) -> tuple[str, str]:
    """``[tournament] structure`` and ``house_profile``.  A structure file that is gone or
    invalid raises, or with ``deferred`` is appended there (a resume plays the copy its
    journal recorded and never reads the file)."""
    sec = c.section("tournament")
    structure = c.get(sec, "tournament", "structure", str, "gunpowder").strip()
    if not structure:
        raise c.fail("tournament.structure", "must name a preset or a structure file")
    is_path = structure.endswith(".toml") or "/" in structure
    if is_path:
        p = Path(structure).expanduser()
        if not p.is_absolute() and base_dir is not None:
            p = Path(os.path.normpath(base_dir / p))
        structure = str(p)
    try:
        _check_structure(c, structure, is_path)
    except ConfigError as exc:
        if deferred is None:
            raise
        deferred.append(exc)
    profile = c.get(sec, "tournament", "house_profile", str, "")
    if not profile:  # the profile the structure comes with
        profile = "tda2024"
        try:
            from engine.tournament import structure_file as structure_mod

            profile = structure_mod.load_structure(structure).house_profile
        except (ImportError, InvalidInputError):
            pass  # reported as tournament.structure above (or deferred)
    try:
        from engine.dealing.irregularities import PROFILES
    except ImportError:
        PROFILES = None  # type: ignore[assignment]
    if PROFILES is not None and profile not in PROFILES:
        raise c.fail("tournament.house_profile",
                     f"unknown house profile {profile!r} (expected one of {', '.join(PROFILES)})")
    return structure, profile


def _check_structure(c: _Checker, structure: str, is_path: bool) -> None:
    """Raises ConfigError: no such structure file, an unknown preset, an invalid file."""
    if is_path and not Path(structure).is_file():
        raise c.fail("tournament.structure", f"no such structure file: {structure}")
    try:
        from engine.tournament import structure_file as structure_mod
    except ImportError:
        structure_mod = None  # type: ignore[assignment]
    if structure_mod is not None:
        names: tuple[str, ...] = ()
        try:
            names = structure_mod.preset_names()
        except Exception:  # noqa: BLE001 - no presets shipped yet
            names = ()
        if not is_path and names and structure not in names:
            raise c.fail("tournament.structure",
                         f"unknown preset {structure!r} (presets: {', '.join(names)})")
        if is_path or names:
            try:
                structure_mod.load_structure(structure)
            except InvalidInputError as exc:
                problems = getattr(exc, "problems", None) or [str(exc)]
                raise c.fail("tournament.structure", str(problems[0])) from None


def _state_dir(c: _Checker, base_dir: Path | None, env: dict[str, str]) -> tuple[Path, int]:
    sec = c.section("state")
    directory = c.get(sec, "state", "directory", str, "")
    every = c.int_range(sec, "state", "snapshot_every", 200, 1, 1_000_000)
    if directory.strip():
        p = Path(directory).expanduser()
        if not p.is_absolute():
            p = Path(os.path.normpath((base_dir or Path.cwd()) / p))
    elif env.get("STATE_DIRECTORY"):
        p = Path(env["STATE_DIRECTORY"].split(":")[0])
    else:
        p = Path.cwd() / "state"
    if p.exists() and not p.is_dir():
        raise c.fail("state.directory", f"{p} exists and is not a directory")
    return p, every


def _backends(c: _Checker) -> dict[str, str]:
    sec = c.section("backends")
    return {d: c.choice(sec, "backends", d, "mock", BACKENDS) for d in BACKEND_DEVICES}


def _buttons(c: _Checker, seats: tuple[int, ...], backends: dict[str, str]
             ) -> tuple[str, dict[str, Any]]:
    sec = c.section("buttons")
    factory = c.get(sec, "buttons", "pin_factory", str, "auto")
    try:
        from hardware.pins import FACTORY_CLASSES, PinConfigError, pin_map_from_config
    except ImportError:
        return factory, dict(sec)
    if factory != "auto" and factory not in FACTORY_CLASSES:
        raise c.fail("buttons.pin_factory",
                     f"must be auto or one of {', '.join(FACTORY_CLASSES)}, got {factory!r}")
    if backends["buttons"] == "mock" and factory not in ("mock", "auto"):
        raise c.fail("buttons.pin_factory",
                     f"backends.buttons is 'mock' but pin_factory is {factory!r}")
    for part in ("seats", "dealer"):
        if part in sec and not isinstance(sec[part], dict):
            raise c.fail(f"buttons.{part}", "must be a table")
    for key in ("bounce_time", "hold_time", "stuck_time"):
        if key in sec:
            value = c.get(sec, "buttons", key, (int, float), 0.0)
            if not 0 <= value <= 600:
                raise c.fail(f"buttons.{key}", f"must be 0..600 seconds, got {value}")
    from hardware.debounce import DEFAULT_BOUNCE_TIME, DEFAULT_HOLD_TIME
    bounce = sec.get("bounce_time", DEFAULT_BOUNCE_TIME)
    hold = sec.get("hold_time", DEFAULT_HOLD_TIME)
    if not bounce > 0:
        raise c.fail("buttons.bounce_time", f"must be more than 0 seconds, got {bounce}")
    if not hold > bounce:
        raise c.fail("buttons.hold_time",
                     f"must be more than bounce_time ({bounce} s), got {hold} "
                     "(a hold is a press longer than hold_time: hardware/debounce.py)")
    for key in sec.get("seats") or {}:
        _seat_key(c, f"buttons.seats.{key}", key)
    for part in ("seats", "dealer"):
        for key, buttons in (sec.get(part) or {}).items():
            items = buttons.items() if part == "seats" and isinstance(buttons, dict) else (
                [(key, buttons)] if part == "dealer" else [])
            prefix = f"buttons.seats.{key}" if part == "seats" else "buttons.dealer"
            for button, pin in items:
                bcm = _pin_bcm(pin)
                if isinstance(bcm, str):
                    raise c.fail(f"{prefix}.{button}", bcm)
                if bcm in _I2C1_PINS:
                    raise c.fail(f"{prefix}.{button}",
                                 f"GPIO {bcm} is {_I2C1_PINS[bcm]}, used by the seat "
                                 f"displays; choose another pin")
    try:
        pin_map = pin_map_from_config({k: v for k, v in sec.items() if k in ("seats", "dealer")})
    except PinConfigError as exc:
        raise c.fail("buttons", str(exc)) from None
    if backends["buttons"] == "real":
        for seat in seats:
            if seat not in pin_map.seats:
                raise c.fail(f"buttons.seats.{seat}", f"seat {seat} is in use but has no pins")
            missing = [b for b in ("fold", "check_call", "bet_raise")
                       if b not in pin_map.seats[seat]]
            if missing:
                raise c.fail(f"buttons.seats.{seat}",
                             f"seat {seat} has no pin for {', '.join(missing)}")
    return factory, dict(sec)


def _displays(c: _Checker, seats: tuple[int, ...], backends: dict[str, str]
              ) -> tuple[dict[int, DisplayConfig], int, int]:
    sec = c.section("displays")
    parent = c.int_range(sec, "displays", "mux_parent_bus", 1, 0, 255)
    mux_address = c.int_range(sec, "displays", "mux_address", 0x70, 0x70, 0x77)
    out: dict[int, DisplayConfig] = {}
    used: dict[tuple[tuple[str, int | None], int], int] = {}
    for key, entry in sec.items():
        if key in ("mux_parent_bus", "mux_address"):
            continue
        dotted = f"displays.{key}"
        if not str(key).isdigit():
            raise c.fail(dotted, "unknown key (expected a seat number, mux_parent_bus or "
                         "mux_address)")
        seat = _seat_key(c, dotted, key)
        if seat not in seats:
            raise c.fail(dotted, f"seat {seat} is not in use (seats: {_fmt(seats)})")
        if not isinstance(entry, dict):
            raise c.fail(dotted, "must be a table with bus or mux_channel, address, driver")
        for k in entry:
            if k not in _DISPLAY_KEYS:
                raise c.fail(f"{dotted}.{k}",
                             f"unknown key (expected one of {', '.join(_DISPLAY_KEYS)})")
        if "bus" not in entry and "mux_channel" not in entry:
            raise c.fail(dotted, "needs bus (the /dev/i2c-N number) or mux_channel (0..7)")
        bus = c.int_range(entry, dotted, "bus", 1, 0, 255) if "bus" in entry else None
        mux = c.int_range(entry, dotted, "mux_channel", 0, 0, 7) if "mux_channel" in entry \
            else None
        address = c.int_range(entry, dotted, "address", 0x3C, 0x03, 0x77)
        driver = c.choice(entry, dotted, "driver", "ssd1306", DISPLAY_DRIVERS)
        where: tuple[str, int | None] = ("bus", bus) if bus is not None else ("channel", mux)
        if (where, address) in used:
            raise c.fail(f"{dotted}.address",
                         f"{where[0]} {where[1]} address 0x{address:02X} is already used by "
                         f"seat {used[(where, address)]}")
        used[(where, address)] = seat
        out[seat] = DisplayConfig(seat, bus, address, driver, mux)
    _parent_bus_clash(c, out, parent, mux_address)
    if backends["displays"] == "real":
        for seat in seats:
            if seat not in out:
                raise c.fail(f"displays.{seat}", f"seat {seat} is in use but has no display")
    return out, parent, mux_address


def _parent_bus_clash(c: _Checker, out: dict[int, DisplayConfig], parent: int,
                      mux_address: int) -> None:
    """A display on the multiplexer's parent bus answers on every channel the multiplexer
    opens: it must not share an address with a muxed display, nor take the multiplexer's."""
    muxed = {d.address: d.seat for d in out.values() if d.bus is None}
    for d in out.values():
        if d.bus != parent:
            continue
        if d.address in muxed:
            raise c.fail(f"displays.{d.seat}.bus",
                         f"bus {parent} is the multiplexer's parent bus: a display there at "
                         f"0x{d.address:02X} answers together with seat {muxed[d.address]}'s "
                         "muxed display at that address; use another bus or address")
        if d.address == mux_address:
            raise c.fail(f"displays.{d.seat}.address",
                         f"0x{d.address:02X} on bus {parent} is the multiplexer's own address")


def _shoe(c: _Checker, backends: dict[str, str]) -> tuple[str, int]:
    sec = c.section("shoe")
    port = c.get(sec, "shoe", "port", str, "sim").strip()
    baud = c.int_range(sec, "shoe", "baudrate", 115200, 1200, 4_000_000)
    if port != "sim" and not port.startswith("/dev/") and "://" not in port:
        raise c.fail("shoe.port", "must be \"sim\", a /dev/serial/by-id/... path or a "
                     f"pyserial URL, got {port!r}")
    if backends["shoe"] == "real" and port == "sim":
        raise c.fail("shoe.port", "backends.shoe is 'real' but the port is \"sim\"; "
                     "give the shoe's /dev/serial/by-id/... path")
    if backends["shoe"] == "mock" and port != "sim":
        raise c.fail("shoe.port", f"backends.shoe is 'mock' (simulated shoe) but the port is "
                     f"{port!r}; set port = \"sim\" or backends.shoe = \"real\"")
    return port, baud


def _final_fits(c: _Checker, structure: str, seats: tuple[int, ...]) -> None:
    """A structure with qualifiers seats its final on this table: enough seats needed."""
    from engine.tournament import structure_file as structure_mod

    try:
        q = structure_mod.load_structure(structure).qualifiers
    except InvalidInputError:
        return  # reported by _structure
    if q is not None and q.rounds * q.advance > len(seats):
        raise c.fail("seats.count", f"the final of {structure!r} seats "
                                    f"{q.rounds * q.advance} players; {len(seats)} seats in use")


def _house_rules(c: _Checker, profile: str) -> dict[str, Any]:
    """``[house_rules]``: knobs overriding the house profile (docs/irregularities.md)."""
    rules = dict(c.section("house_rules"))
    from engine.dealing.irregularities import ProfileError, make_profile

    for key, value in rules.items():
        try:
            make_profile(profile, **{key: value})
        except (ProfileError, TypeError, ValueError) as exc:
            raise c.fail(f"house_rules.{key}", str(exc)) from None
    return rules


def parse_config(text: str, source: str = "<config>", *, base_dir: Path | None = None,
                 env: dict[str, str] | None = None,
                 structure_optional: bool = False) -> TableConfig:
    """Validate TOML ``text``; ``source`` names the file in messages; relative paths are
    taken from ``base_dir`` (default: the current directory).  With
    ``structure_optional`` a structure that is gone or invalid is kept in
    ``structure_problem`` instead of raised (a resume plays its journal's copy).

    Raises:
        ConfigError: the first problem found, naming ``source`` and the key.
    """
    try:
        data = loads_toml(text, source)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: invalid TOML: {exc}") from None
    except InputFileError as exc:
        raise ConfigError(str(exc)) from None
    c = _Checker(source, data)
    for key in data:
        if key not in _SECTIONS:
            raise c.fail(key, f"unknown section (expected one of {', '.join(_SECTIONS)})")
    env = dict(os.environ) if env is None else env
    table = c.section("table")
    name = c.get(table, "table", "name", str, "Table").strip()
    if not name or len(name) > 40:
        raise c.fail("table.name", f"must be 1..40 characters, got {name!r}")
    if _has_control(name):
        raise c.fail("table.name", f"must not hold control characters, got {name!r}")
    seats, names = _seats(c)
    deferred: list[ConfigError] = []
    structure, profile = _structure(c, base_dir, deferred if structure_optional else None)
    _final_fits(c, structure, seats)
    house_rules = _house_rules(c, profile)
    tour = c.section("tournament")
    seed = c.int_range(tour, "tournament", "seed", 0, 0, 2**63 - 1)
    deck_seed = c.int_range(tour, "tournament", "deck_seed", 0, 0, 2**63 - 1)
    new_player = c.choice(tour, "tournament", "new_player", "button_passes",
                          ("button_passes", "at_once"))
    heads_up = c.choice(tour, "tournament", "heads_up_small_blind", "button",
                        ("button", "high_card"))
    state_dir, every = _state_dir(c, base_dir, env)
    backends = _backends(c)
    factory, buttons = _buttons(c, seats, backends)
    displays, mux_parent, mux_address = _displays(c, seats, backends)
    port, baud = _shoe(c, backends)
    tv = c.section("tv")
    width = c.int_range(tv, "tv", "width", 1920, 320, 7680)
    height = c.int_range(tv, "tv", "height", 1080, 240, 4320)
    if (width, height) not in ((1920, 1080), (1280, 720)):
        raise c.fail("tv.width", f"the TV is drawn at 1920x1080 or 1280x720, got "
                                 f"{width}x{height}")
    layout = c.choice(tv, "tv", "layout", "split", LAYOUTS)
    fps = c.int_range(tv, "tv", "fps", 30, 1, 120)
    snd = c.section("sound")
    sound = c.get(snd, "sound", "enabled", bool, True)
    speech = c.get(snd, "sound", "speech", bool, False)
    svc = c.section("service")
    tick = c.get(svc, "service", "tick_interval", (int, float), 1.0)
    if not 0.05 <= float(tick) <= 60:
        raise c.fail("service.tick_interval", f"must be 0.05..60 seconds, got {tick}")
    watchdog = c.get(svc, "service", "watchdog", bool, True)
    console = parse_console(c)
    return TableConfig(
        source=source, name=name, seats=seats, names=names, structure=structure,
        house_profile=profile, seed=seed, deck_seed=deck_seed, new_player=new_player,
        heads_up=heads_up,
        state_dir=state_dir,
        snapshot_every=every, backends=backends,
        pin_factory=factory, buttons=buttons, displays=displays, shoe_port=port,
        shoe_baudrate=baud, tv_width=width, tv_height=height, tv_layout=layout, tv_fps=fps,
        mux_parent_bus=mux_parent, mux_address=mux_address, sound=sound,
        speech=speech, tick_interval=float(tick), watchdog=watchdog, house_rules=house_rules,
        console=console, structure_problem=str(deferred[0]) if deferred else "", raw=data)


def default_config_text() -> str:
    """The embedded default configuration (``pi_app/default_config.toml``)."""
    return resources.files("pi_app").joinpath("default_config.toml").read_text(encoding="utf-8")


def load_config(path: str | os.PathLike[str] | None = None, *,
                env: dict[str, str] | None = None,
                structure_optional: bool = False) -> TableConfig:
    """Load and validate ``path`` (None: the embedded default); ``structure_optional`` as
    in :func:`parse_config`.

    Raises:
        ConfigError: unreadable file, bad TOML or an invalid value (file and key named).
    """
    if path is None:
        return parse_config(default_config_text(), "default_config.toml", base_dir=None, env=env,
                            structure_optional=structure_optional)
    p = Path(path)
    try:
        text = read_text(p)
    except InputFileError as exc:
        raise ConfigError(str(exc)) from None
    return parse_config(text, str(p), base_dir=p.resolve().parent, env=env,
                        structure_optional=structure_optional)
