"""The shape of a table's TOML config: each section a typed model (pydantic), read once.

:func:`read_sections` checks every key's type and range (and that no key or section is
unknown) and returns a :class:`ConfigFile`; a problem becomes one line naming the file,
the dotted key and what is wrong (:func:`one_line`), in the project's words:
``table.toml: seats.count: must be 2..10, got 12``.  What depends on other keys or on the
machine (pins, structure files, displays sharing an address, house-rule knobs) is checked
by :mod:`pi_app.service.config`.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Literal

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel, ConfigDict, Field, ValidationError

MIN_SEATS, MAX_SEATS = 2, 10
Backend = Literal["real", "mock"]
#: The dealing-ruling knobs of :data:`engine.dealing.irregularities.KNOBS` a table may set.
HOUSE_RULE_KNOBS = ("misdeal_gate", "exposed_first_cards", "single_boxed_card",
                    "one_extra_card", "foreign_card", "premature_turn", "four_card_flop",
                    "missed_flop_burn", "burn_error")
SECONDS = "seconds"  # a field's unit, said after its range in messages


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class TableSection(_Section):
    name: str = "Table"


class SeatsSection(_Section):
    count: Annotated[int, Field(ge=MIN_SEATS, le=MAX_SEATS)] | None = None
    in_use: list[Any] | None = None       # seat numbers, checked with their own words
    names: dict[str, Any] = Field(default_factory=dict)


class TournamentSection(_Section):
    structure: str = "gunpowder"
    house_profile: str = ""  # "": the profile the structure comes with
    new_player: Literal["button_passes", "at_once"] = "button_passes"
    heads_up_small_blind: Literal["button", "high_card"] = "button"
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] = 0
    deck_seed: Annotated[int, Field(ge=0, le=2**63 - 1)] = 0


class StateSection(_Section):
    directory: str = ""
    snapshot_every: Annotated[int, Field(ge=1, le=1_000_000)] = 200


class BackendsSection(_Section):
    buttons: Backend = "mock"
    displays: Backend = "mock"
    shoe: Backend = "mock"
    tv: Backend = "mock"
    sound: Backend = "mock"


class ButtonsSection(_Section):
    pin_factory: str = "auto"
    seats: dict[str, Any] = Field(default_factory=dict)
    dealer: dict[str, Any] = Field(default_factory=dict)
    bounce_time: Annotated[float, Field(ge=0, le=600, description=SECONDS)] | None = None
    hold_time: Annotated[float, Field(ge=0, le=600, description=SECONDS)] | None = None
    stuck_time: Annotated[float, Field(ge=0, le=600, description=SECONDS)] | None = None


class DisplayEntry(_Section):
    bus: Annotated[int, Field(ge=0, le=255)] | None = None
    mux_channel: Annotated[int, Field(ge=0, le=7)] | None = None
    address: Annotated[int, Field(ge=0x03, le=0x77)] = 0x3C
    driver: Literal["ssd1306", "sh1106"] = "ssd1306"


class DisplaysSection(_Section):
    """``mux_parent_bus``, ``mux_address``, and one :class:`DisplayEntry` table per seat
    number (the extra keys, read by :func:`display_entries`)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)
    mux_parent_bus: Annotated[int, Field(ge=0, le=255)] = 1
    mux_address: Annotated[int, Field(ge=0x70, le=0x77)] = 0x70


class ShoeSection(_Section):
    port: str = "sim"
    baudrate: Annotated[int, Field(ge=1200, le=4_000_000)] = 115200


class TVSection(_Section):
    width: Annotated[int, Field(ge=320, le=7680)] = 1920
    height: Annotated[int, Field(ge=240, le=4320)] = 1080
    layout: Literal["clock", "table", "split"] = "split"
    fps: Annotated[int, Field(ge=1, le=120)] = 30


class SoundSection(_Section):
    enabled: bool = True
    speech: bool = False


class ServiceSection(_Section):
    tick_interval: Annotated[float, Field(ge=0.05, le=60, description=SECONDS)] = 1.0
    watchdog: bool = True


class HouseRulesSection(_Section):
    """Knobs overriding the house profile; values are checked by the profile itself."""

    misdeal_gate: Any = None
    exposed_first_cards: Any = None
    single_boxed_card: Any = None
    one_extra_card: Any = None
    foreign_card: Any = None
    premature_turn: Any = None
    four_card_flop: Any = None
    missed_flop_burn: Any = None
    burn_error: Any = None

    def given(self) -> dict[str, Any]:
        """The knobs the file sets."""
        return {k: getattr(self, k) for k in sorted(self.model_fields_set)}


class ConsoleSection(_Section):
    """``[console]``: ``listen`` is checked by :func:`pi_app.service.console_config.console_config`."""

    listen: str = "127.0.0.1:8765"
    registration: bool = False


class VenueSection(_Section):
    """``[venue]``: checked by :func:`pi_app.service.venue_config.table_venue_config`."""

    file: str
    table: Annotated[int, Field(ge=1, le=64)]


class ConfigFile(_Section):
    """A whole config file, section by section (every section optional)."""

    table: TableSection = TableSection()
    seats: SeatsSection = SeatsSection()
    tournament: TournamentSection = TournamentSection()
    state: StateSection = StateSection()
    backends: BackendsSection = BackendsSection()
    buttons: ButtonsSection = ButtonsSection()
    displays: DisplaysSection = DisplaysSection()
    shoe: ShoeSection = ShoeSection()
    tv: TVSection = TVSection()
    sound: SoundSection = SoundSection()
    service: ServiceSection = ServiceSection()
    house_rules: HouseRulesSection = HouseRulesSection()
    console: ConsoleSection | None = None  # absent: no console is served
    venue: VenueSection | None = None  # absent: a table of its own


def read_sections(data: dict[str, Any]) -> ConfigFile:
    """The typed sections of parsed TOML ``data``.

    Raises:
        ValidationError: see :func:`one_line` for its message.
    """
    return ConfigFile.model_validate(data)


def display_entries(sec: DisplaysSection) -> dict[str, DisplayEntry]:
    """The per-seat display tables of ``[displays]`` (key -> entry), each validated.

    Raises:
        ValidationError: a bad entry (``loc`` starts with its key).
    """
    out = {}
    for key, entry in (sec.model_extra or {}).items():
        try:
            out[key] = DisplayEntry.model_validate(entry)
        except ValidationError as exc:
            raise _prefixed(exc, DisplayEntry, ("displays", key)) from None
    return out


class SectionError(ValueError):
    """A validation problem already in words: ``key`` (dotted) and ``problem``."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key, self.problem = key, problem


def _prefixed(exc: ValidationError, model: type[BaseModel],
              prefix: tuple[str, ...]) -> SectionError:
    err = exc.errors()[0]
    return _describe(err, model, prefix)


def one_line(exc: ValidationError, model: type[BaseModel] = ConfigFile) -> SectionError:
    """The first problem of ``exc`` as ``dotted.key: problem`` in the project's words."""
    return _prefixed(exc, model, ())


_KIND_WORDS = {"int_type": "an integer", "float_type": "a number", "string_type": "a string",
               "bool_type": "true or false", "list_type": "a list", "dict_type": "a table"}


def _describe(err: Any, model: type[BaseModel], prefix: tuple[str, ...]) -> SectionError:
    loc = tuple(str(p) for p in err["loc"])
    key = ".".join(prefix + loc)
    kind, value = err["type"], err.get("input")
    if kind == "extra_forbidden":
        owner = _model_at(model, loc[:-1])
        names = ", ".join(owner.model_fields) if owner is not None else ""
        what = "section" if not loc[:-1] and not prefix else "key"
        return SectionError(key, f"unknown {what} (expected one of {names})")
    if kind == "model_type":
        return SectionError(key, f"must be a table ([{key}]), got {type(value).__name__}")
    if kind in _KIND_WORDS:
        return SectionError(key, f"must be {_KIND_WORDS[kind]}, got {value!r}")
    field = _field_at(model, loc)
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than") \
            and field is not None:
        lo, hi, unit = _range(field)
        return SectionError(key, f"must be {_num(lo)}..{_num(hi)}{unit}, got {_num(value)}")
    if kind == "literal_error" and field is not None:
        choices = ", ".join(str(c) for c in typing.get_args(_unwrap(field.annotation)))
        return SectionError(key, f"must be one of {choices}, got {value!r}")
    return SectionError(key, f"{err['msg']}, got {value!r}")


def _model_at(model: type[BaseModel], loc: tuple[str, ...]) -> type[BaseModel] | None:
    current: Any = model
    for part in loc:
        fields = getattr(current, "model_fields", None)
        if not fields or part not in fields:
            return None
        current = _unwrap(fields[part].annotation)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _field_at(model: type[BaseModel], loc: tuple[str, ...]) -> Any:
    owner = _model_at(model, loc[:-1])
    return owner.model_fields.get(loc[-1]) if owner is not None and loc else None


def _unwrap(annotation: Any) -> Any:
    """``X | None`` -> ``X``."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, getattr(typing, "UnionType", None)) \
            or type(annotation).__name__ == "UnionType":
        return args[0] if len(args) == 1 else annotation
    return annotation


def _range(field: Any) -> tuple[Any, Any, str]:
    """``(low, high, " unit")`` of a field's range (its own constraints or those of the
    ``Annotated`` type inside ``X | None``)."""
    infos = [field]
    for arg in typing.get_args(field.annotation):
        infos.extend(m for m in getattr(arg, "__metadata__", ()) if hasattr(m, "metadata"))
    lo = hi = None
    unit = ""
    for info in infos:
        unit = unit or (f" {info.description}" if info.description else "")
        for meta in info.metadata:
            if isinstance(meta, (Ge, Gt)):
                lo = meta.ge if isinstance(meta, Ge) else meta.gt
            elif isinstance(meta, (Le, Lt)):
                hi = meta.le if isinstance(meta, Le) else meta.lt
    return lo, hi, unit


def _num(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)
