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
    [venue]       file (a venue.toml), table (this table's number in it): one table of a
                  venue, seated by its director (pi_app/service/venue_config.py)

Errors: :class:`ConfigError` (an :class:`engine.errors.InvalidInputError`) whose message
names the file and the dotted key: ``table.toml: seats.count: must be 2..10, got 12``.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from engine.errors import InvalidInputError
from engine.input_file import InputFileError, loads_toml, read_text
from hardware.buttons import ButtonSettings
from hardware.tv import SIZES, TVSettings
from pi_app.service import config_checks as checks
from pi_app.service.config_schema import (
    MAX_SEATS,
    MIN_SEATS,
    ConfigFile,
    SectionError,
    display_entries,
    one_line,
    read_sections,
)
from pi_app.service.console_config import ConsoleConfig, console_config
from pi_app.service.venue_config import TableVenueConfig, table_venue_config

if TYPE_CHECKING:  # the devices' own modules load when their settings are asked for
    from hardware.pins import PinMap
    from hardware.seat_display import DisplaySettings
    from hardware.shoe.factory import ShoeConfig
    from pi_app.service.devices import DeviceSettings

__all__ = ["BACKEND_DEVICES", "MAX_SEATS", "MIN_SEATS", "ConfigError", "DisplayConfig",
           "TableConfig", "default_config_text", "load_config", "parse_config"]

BACKEND_DEVICES = ("buttons", "displays", "shoe", "tv", "sound")
JOURNAL_NAME = "journal.db"


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
    buttons: ButtonSettings
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
    venue: TableVenueConfig | None = None  # [venue]: one table of a venue
    new_player: str = "button_passes"  # house option: a new player's first hand
    heads_up: str = "button"  # house option: who posts the small blind heads-up
    #: Why the structure cannot be read now (loaded with ``structure_optional``): only a
    #: resume, which plays the copy in its journal, may go on (:meth:`require_structure`).
    structure_problem: str = ""
    #: the parsed TOML as read, for a section another part reads itself ([console])
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
        venue = self.venue
        return TableSettings(players={} if registering or venue else self.player_names(),
                             structure=venue.structure if venue else self.structure,
                             profile=self.house_profile,
                             seed=self.seed, deck_seed=self.deck_seed, layout=self.tv_layout,
                             name=self.name, house_rules=dict(self.house_rules),
                             seats=self.seats, new_player=self.new_player,
                             heads_up=self.heads_up,
                             venue_table=venue.table if venue else 0,
                             venue_director=venue.director if venue else "director")

    # --- the typed settings the device adapters are made from ---------------------------
    def device_settings(self) -> DeviceSettings:
        """The devices of this table for :func:`pi_app.service.devices.wire_devices`
        (a ``mock`` backend is the adapter's mock: SDL's dummy driver, luma's dummy device,
        gpiozero's mock pins, the simulated shoe holding the test deck of ``deck_seed``;
        the TV drawn on its own thread, as the running service wants it)."""
        from hardware.sounds import SoundSettings
        from pi_app.service.devices import DeviceSettings

        return DeviceSettings(tv=self.tv_settings(), displays=self.display_settings(),
                              buttons=(self.button_settings(),), shoe=self.shoe_settings(),
                              sound=SoundSettings(enabled=self.sound and
                                                  self.backends["sound"] == "real",
                                                  speech=self.speech),
                              test_deck_seed=self.deck_seed, tv_thread=True)

    def button_settings(self) -> ButtonSettings:
        """The keys' :class:`hardware.buttons.ButtonSettings` (mock pins for ``mock``)."""
        if self.backends["buttons"] == "mock":
            return dataclasses.replace(self.buttons, pin_factory="mock")
        return self.buttons

    def display_settings(self) -> DisplaySettings:
        """The seat displays' :class:`hardware.seat_display.DisplaySettings` (one driver and
        address for all seats: those of the lowest configured seat; frames sent on the
        displays' own thread)."""
        from hardware.seat_display import DEFAULT_ADDRESS, DisplaySettings

        first = self.displays[min(self.displays)] if self.displays else None
        return DisplaySettings(
            backend="luma" if self.backends["displays"] == "real" else "mock",
            seats=tuple(self.seats),
            driver=first.driver if first else "ssd1306",
            address=first.address if first else DEFAULT_ADDRESS,
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
        from hardware.shoe.factory import ShoeConfig

        if self.backends["shoe"] == "mock":
            return ShoeConfig(backend="sim", baudrate=self.shoe_baudrate)
        return ShoeConfig(backend="serial", port=self.shoe_port, baudrate=self.shoe_baudrate)

    def pin_map(self) -> PinMap:
        """The :class:`hardware.pins.PinMap` from ``[buttons]``."""
        return self.buttons.pin_map


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
    try:
        try:
            sections = read_sections(data)
        except ValidationError as exc:
            raise one_line(exc) from None
        deferred: list[SectionError] | None = [] if structure_optional else None
        config = _table_config(sections, source, base_dir,
                               dict(os.environ) if env is None else env, deferred)
        problem = f"{source}: {deferred[0]}" if deferred else ""
        return dataclasses.replace(config, structure_problem=problem, raw=data)
    except SectionError as exc:
        raise ConfigError(f"{source}: {exc}") from None


def _table_config(f: ConfigFile, source: str, base_dir: Path | None, env: dict[str, str],
                  deferred: list[SectionError] | None = None) -> TableConfig:
    """The table's config from its typed sections (raises SectionError; a structure
    problem goes to ``deferred`` when given)."""
    name = checks.table_name(f.table)
    seats, names = checks.seats_in_use(f.seats)
    structure, profile = checks.structure_and_profile(f.tournament, base_dir, deferred)
    checks.final_fits(structure, seats)
    house_rules = checks.house_rules(f.house_rules, profile)
    state_dir = checks.state_dir(f.state, base_dir, env)
    backends = f.backends.model_dump()
    buttons = checks.buttons(f.buttons, seats, backends)
    displays = checks.displays(display_entries(f.displays), seats, backends)
    checks.parent_bus_clash(displays, f.displays.mux_parent_bus, f.displays.mux_address)
    port = checks.shoe_port(f.shoe, backends)
    tv = f.tv
    if (tv.width, tv.height) not in SIZES:
        raise SectionError("tv.width", f"the TV is drawn at 1920x1080 or 1280x720, got "
                                       f"{tv.width}x{tv.height}")
    return TableConfig(
        source=source, name=name, seats=seats, names=names, structure=structure,
        house_profile=profile, seed=f.tournament.seed, deck_seed=f.tournament.deck_seed,
        new_player=f.tournament.new_player, heads_up=f.tournament.heads_up_small_blind,
        state_dir=state_dir, snapshot_every=f.state.snapshot_every, backends=backends,
        buttons=buttons,
        displays={s: DisplayConfig(s, d.bus, d.address, d.driver, d.mux_channel)
                  for s, d in displays.items()},
        shoe_port=port, shoe_baudrate=f.shoe.baudrate, tv_width=tv.width,
        tv_height=tv.height, tv_layout=tv.layout, tv_fps=tv.fps,
        mux_parent_bus=f.displays.mux_parent_bus, mux_address=f.displays.mux_address,
        sound=f.sound.enabled, speech=f.sound.speech,
        tick_interval=float(f.service.tick_interval), watchdog=f.service.watchdog,
        house_rules=house_rules, console=console_config(f.console),
        venue=table_venue_config(f.venue, base_dir, seats))


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
