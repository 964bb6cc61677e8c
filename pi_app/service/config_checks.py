"""The checks of a table's config that types and ranges cannot say: seats in use, the
structure file, the state folder, pins on the 40-pin header, displays sharing an address,
the shoe's port for its backend, house-rule knobs.

Each takes the typed section (:mod:`pi_app.service.config_schema`) and returns the value
the table is run with; a problem raises :class:`pi_app.service.config_schema.SectionError`
naming the dotted key (the caller adds the file).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from engine.errors import InvalidInputError
from engine.text import unsafe_reason
from hardware.buttons import DEFAULT_STUCK_TIME, ButtonSettings
from hardware.debounce import DEFAULT_BOUNCE_TIME, DEFAULT_HOLD_TIME
from pi_app.service.config_schema import (
    MAX_SEATS,
    MIN_SEATS,
    ButtonsSection,
    DisplayEntry,
    HouseRulesSection,
    SeatsSection,
    SectionError,
    ShoeSection,
    StateSection,
    TableSection,
    TournamentSection,
)


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (C0/C1, DEL), a line/paragraph
    separator, a bidi control or only invisible characters: they would break the one-line
    displays and the logs (:func:`engine.text.unsafe_reason`)."""
    return unsafe_reason(text) is not None


def table_name(sec: TableSection) -> str:
    """The table's name (1..40 characters, no control characters)."""
    name = sec.name.strip()
    if not name or len(name) > 40:
        raise SectionError("table.name", f"must be 1..40 characters, got {name!r}")
    if has_control(name):
        raise SectionError("table.name", f"must not hold control characters, got {name!r}")
    return name


def _fmt(seats: tuple[int, ...]) -> str:
    return ", ".join(map(str, seats))


def _seat_key(dotted: str, key: Any) -> int:
    """A seat number written as a key: ``"1"`` .. ``"10"``; ``"01"`` is refused, so that
    two keys can never name one seat (the second silently winning)."""
    try:
        seat = int(key)
    except (TypeError, ValueError):
        raise SectionError(dotted, f"seat must be a number 1..{MAX_SEATS}, got {key!r}") from None
    if not 1 <= seat <= MAX_SEATS:
        raise SectionError(dotted, f"seat must be 1..{MAX_SEATS}, got {seat}")
    if str(key) != str(seat):
        raise SectionError(dotted, f"write the seat number as {seat}, without leading zeros "
                                   f"or spaces, got {key!r}")
    return seat


def seats_in_use(sec: SeatsSection) -> tuple[tuple[int, ...], dict[int, str]]:
    """``(seats in use, seat -> name)`` from ``[seats]`` (count 1..N or an in_use list)."""
    if sec.count is not None and sec.in_use is not None:
        raise SectionError("seats", "give either count or in_use, not both")
    if sec.in_use is None:
        in_use = tuple(range(1, (sec.count or 6) + 1))
    else:
        seats: list[int] = []
        for item in sec.in_use:
            if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= MAX_SEATS:
                raise SectionError("seats.in_use",
                                   f"seats must be numbers 1..{MAX_SEATS}, got {item!r}")
            if item in seats:
                raise SectionError("seats.in_use", f"seat {item} is listed twice")
            seats.append(item)
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise SectionError("seats.in_use",
                               f"must list {MIN_SEATS}..{MAX_SEATS} seats, got {len(seats)}")
        in_use = tuple(sorted(seats))
    return in_use, _seat_names(sec.names, in_use)


def _seat_names(raw: dict[str, Any], in_use: tuple[int, ...]) -> dict[int, str]:
    names: dict[int, str] = {}
    for key, value in raw.items():
        dotted = f"seats.names.{key}"
        seat = _seat_key(dotted, key)
        if seat not in in_use:
            raise SectionError(dotted, f"seat {seat} is not in use (seats: {_fmt(in_use)})")
        if not isinstance(value, str) or not value.strip() or len(value) > 24:
            raise SectionError(dotted, f"must be a name of 1..24 characters, got {value!r}")
        if has_control(value):
            raise SectionError(dotted, f"must not hold control characters, got {value!r}")
        names[seat] = value.strip()
    return names


def structure_and_profile(sec: TournamentSection, base_dir: Path | None,
                          deferred: list[SectionError] | None = None) -> tuple[str, str]:
    """The structure (a preset name, or a structure file's absolute path, loaded to check
    it) and the house profile.  A structure that is gone or invalid raises, or with
    ``deferred`` is appended there (a resume plays the copy its journal recorded)."""
    from engine.dealing.irregularities import PROFILES

    key = "tournament.structure"
    structure = sec.structure.strip()
    if not structure:
        raise SectionError(key, "must name a preset or a structure file")
    is_path = structure.endswith(".toml") or "/" in structure
    if is_path:
        p = Path(structure).expanduser()
        if not p.is_absolute() and base_dir is not None:
            p = Path(os.path.normpath(base_dir / p))
        structure = str(p)
    house_profile = "tda2024"
    try:
        house_profile = _checked_structure(structure, is_path)
    except SectionError as exc:
        if deferred is None:
            raise
        deferred.append(exc)
    profile = sec.house_profile or house_profile  # "": the structure's own
    if profile not in PROFILES:
        raise SectionError("tournament.house_profile",
                           f"unknown house profile {profile!r} (expected one of "
                           f"{', '.join(PROFILES)})")
    return structure, profile


def _checked_structure(structure: str, is_path: bool) -> str:
    """Load ``structure`` to check it; returns the house profile it comes with.

    Raises:
        SectionError: no such structure file, an unknown preset, an invalid file.
    """
    from engine.tournament import structure_file as structure_mod

    key = "tournament.structure"
    if is_path and not Path(structure).is_file():
        what = "no such structure file" if not Path(structure).exists() else \
            "not a regular file (a structure is a TOML file)"
        raise SectionError(key, f"{what}: {structure}")
    if not is_path and structure not in structure_mod.preset_names():
        raise SectionError(key, f"unknown preset {structure!r} (presets: "
                                f"{', '.join(structure_mod.preset_names())})")
    try:
        return structure_mod.load_structure(structure).house_profile
    except InvalidInputError as exc:
        problems = getattr(exc, "problems", None) or [str(exc)]
        raise SectionError(key, str(problems[0])) from None


def final_fits(structure: str, seats: tuple[int, ...]) -> None:
    """A structure with qualifiers seats its final on this table: enough seats needed."""
    from engine.tournament import structure_file as structure_mod

    try:
        q = structure_mod.load_structure(structure).qualifiers
    except InvalidInputError:
        return  # reported by structure_and_profile (or deferred)
    if q is not None and q.rounds * q.advance > len(seats):
        raise SectionError("seats.count", f"the final of {structure!r} seats "
                                          f"{q.rounds * q.advance} players; {len(seats)} "
                                          "seats in use")


def house_rules(sec: HouseRulesSection, profile: str) -> dict[str, Any]:
    """``[house_rules]``: knobs overriding the house profile (docs/irregularities.md)."""
    from engine.dealing.irregularities import ProfileError, make_profile

    rules = sec.given()
    for key, value in rules.items():
        try:
            make_profile(profile, **{key: value})
        except (ProfileError, TypeError, ValueError) as exc:
            raise SectionError(f"house_rules.{key}", str(exc)) from None
    return rules


def state_dir(sec: StateSection, base_dir: Path | None, env: dict[str, str]) -> Path:
    """The state folder: ``[state] directory`` (relative to the file), else
    ``$STATE_DIRECTORY`` (systemd), else ``./state``."""
    if sec.directory.strip():
        p = Path(sec.directory).expanduser()
        if not p.is_absolute():
            p = Path(os.path.normpath((base_dir or Path.cwd()) / p))
    elif env.get("STATE_DIRECTORY"):
        p = Path(env["STATE_DIRECTORY"].split(":")[0])
    else:
        p = Path.cwd() / "state"
    if p.exists() and not p.is_dir():
        raise SectionError("state.directory", f"{p} exists and is not a directory")
    return p


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


def buttons(sec: ButtonsSection, seats: tuple[int, ...], backends: dict[str, str]
            ) -> ButtonSettings:
    """The keys' settings (``pin_factory`` as configured): a known factory that agrees
    with the backend, a hold longer than the bounce, header pins off I2C1, and with real
    keys three pins for every seat in use."""
    from hardware.pins import FACTORY_CLASSES, PinConfigError, pin_map_from_config

    factory = sec.pin_factory
    if factory != "auto" and factory not in FACTORY_CLASSES:
        raise SectionError("buttons.pin_factory", f"must be auto or one of "
                                                  f"{', '.join(FACTORY_CLASSES)}, got {factory!r}")
    if backends["buttons"] == "mock" and factory not in ("mock", "auto"):
        raise SectionError("buttons.pin_factory",
                           f"backends.buttons is 'mock' but pin_factory is {factory!r}")
    bounce = DEFAULT_BOUNCE_TIME if sec.bounce_time is None else sec.bounce_time
    hold = DEFAULT_HOLD_TIME if sec.hold_time is None else sec.hold_time
    if not bounce > 0:
        raise SectionError("buttons.bounce_time", f"must be more than 0 seconds, got {bounce}")
    if not hold > bounce:
        raise SectionError("buttons.hold_time",
                           f"must be more than bounce_time ({bounce} s), got {hold} "
                           "(a hold is a press longer than hold_time: hardware/debounce.py)")
    for key in sec.seats or {}:
        _seat_key(f"buttons.seats.{key}", key)
    _check_pins(sec)
    try:
        pin_map = pin_map_from_config({k: getattr(sec, k) for k in ("seats", "dealer")
                                       if k in sec.model_fields_set})
    except PinConfigError as exc:
        raise SectionError("buttons", str(exc)) from None
    if backends["buttons"] == "real":
        for seat in seats:
            if seat not in pin_map.seats:
                raise SectionError(f"buttons.seats.{seat}",
                                   f"seat {seat} is in use but has no pins")
            missing = [b for b in ("fold", "check_call", "bet_raise")
                       if b not in pin_map.seats[seat]]
            if missing:
                raise SectionError(f"buttons.seats.{seat}",
                                   f"seat {seat} has no pin for {', '.join(missing)}")
    return ButtonSettings(pin_factory=factory, pin_map=pin_map, bounce_time=float(bounce),
                          hold_time=float(hold),
                          stuck_time=float(DEFAULT_STUCK_TIME if sec.stuck_time is None
                                           else sec.stuck_time))


def _check_pins(sec: ButtonsSection) -> None:
    keys = [(f"buttons.dealer.{button}", pin) for button, pin in sec.dealer.items()]
    for seat, pins in sec.seats.items():
        if isinstance(pins, dict):
            keys.extend((f"buttons.seats.{seat}.{button}", pin) for button, pin in pins.items())
    for dotted, pin in keys:
        bcm = _pin_bcm(pin)
        if isinstance(bcm, str):
            raise SectionError(dotted, bcm)
        if bcm in _I2C1_PINS:
            raise SectionError(dotted, f"GPIO {bcm} is {_I2C1_PINS[bcm]}, used by the seat "
                                       "displays; choose another pin")


def displays(entries: dict[str, DisplayEntry], seats: tuple[int, ...],
             backends: dict[str, str]) -> dict[int, DisplayEntry]:
    """Seat -> its display: seats in use only, a bus or a mux channel each, no two on the
    same bus (or channel) and address; with real displays one for every seat in use."""
    out: dict[int, DisplayEntry] = {}
    used: dict[tuple[tuple[str, int | None], int], int] = {}
    for key, entry in entries.items():
        dotted = f"displays.{key}"
        if not str(key).isdigit():
            raise SectionError(dotted, "unknown key (expected a seat number, mux_parent_bus "
                                       "or mux_address)")
        seat = _seat_key(dotted, key)
        if seat not in seats:
            raise SectionError(dotted, f"seat {seat} is not in use (seats: {_fmt(seats)})")
        if entry.bus is None and entry.mux_channel is None:
            raise SectionError(dotted, "needs bus (the /dev/i2c-N number) or mux_channel (0..7)")
        where: tuple[str, int | None] = (("bus", entry.bus) if entry.bus is not None
                                         else ("channel", entry.mux_channel))
        if (where, entry.address) in used:
            raise SectionError(f"{dotted}.address",
                               f"{where[0]} {where[1]} address 0x{entry.address:02X} is "
                               f"already used by seat {used[(where, entry.address)]}")
        used[(where, entry.address)] = seat
        out[seat] = entry
    if backends["displays"] == "real":
        for seat in seats:
            if seat not in out:
                raise SectionError(f"displays.{seat}", f"seat {seat} is in use but has no "
                                                       "display")
    return out


def parent_bus_clash(displays: dict[int, DisplayEntry], parent: int, mux_address: int) -> None:
    """A display on the multiplexer's parent bus answers on every channel the multiplexer
    opens: it must not share an address with a muxed display, nor take the multiplexer's."""
    muxed = {d.address: s for s, d in displays.items() if d.bus is None}
    for seat, d in displays.items():
        if d.bus != parent:
            continue
        if d.address in muxed:
            raise SectionError(f"displays.{seat}.bus",
                               f"bus {parent} is the multiplexer's parent bus: a display there "
                               f"at 0x{d.address:02X} answers together with seat "
                               f"{muxed[d.address]}'s muxed display at that address; use "
                               "another bus or address")
        if d.address == mux_address:
            raise SectionError(f"displays.{seat}.address",
                               f"0x{d.address:02X} on bus {parent} is the multiplexer's own "
                               "address")


def shoe_port(sec: ShoeSection, backends: dict[str, str]) -> str:
    """The shoe's port: ``"sim"`` for the simulated shoe, else a device path or a
    pyserial URL, agreeing with the backend."""
    port = sec.port.strip()
    if port != "sim" and not port.startswith("/dev/") and "://" not in port:
        raise SectionError("shoe.port", "must be \"sim\", a /dev/serial/by-id/... path or a "
                                        f"pyserial URL, got {port!r}")
    if backends["shoe"] == "real" and port == "sim":
        raise SectionError("shoe.port", "backends.shoe is 'real' but the port is \"sim\"; "
                                        "give the shoe's /dev/serial/by-id/... path")
    if backends["shoe"] == "mock" and port != "sim":
        raise SectionError("shoe.port", f"backends.shoe is 'mock' (simulated shoe) but the "
                                        f"port is {port!r}; set port = \"sim\" or "
                                        "backends.shoe = \"real\"")
    return port
