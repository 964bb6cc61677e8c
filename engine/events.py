"""Input events: the one vocabulary shared by adapters, the loop, the journal and scripts.

Adapters in ``hardware/`` create these immutable records and put them on the loop's
queue; the loop journals each one before applying it to the pure core.  Every event
carries ``t``, a monotonic timestamp in seconds (float) taken from the injected clock.

Every event converts to and from a plain JSON-able dict (``{"type": "card_drawn", ...}``)
with :func:`event_to_dict` / :func:`event_from_dict`; that dict is what the journal stores
and what scenario scripts contain.

>>> e = CardDrawn(t=1.5, uid="04A1B2C3D4E5F6", draw=3)
>>> event_from_dict(event_to_dict(e)) == e
True
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import InvalidInputError


class UnknownEventError(InvalidInputError):
    """A dict that does not describe a known event (bad ``type`` or fields)."""


@dataclass(frozen=True)
class Event:
    """Base of all input events.  ``t``: monotonic seconds."""

    t: float
    TYPE: ClassVar[str] = "event"


# --- card shoe -------------------------------------------------------------------------
@dataclass(frozen=True)
class CardDrawn(Event):
    """A tag left the shoe.  ``uid``: full UID as upper-case hex (14 digits for 7 bytes);
    ``draw``: the shoe's draw counter (1-based, increases by one per physical draw)."""

    uid: str = ""
    draw: int = 0
    TYPE: ClassVar[str] = "card_drawn"


@dataclass(frozen=True)
class ShoeStatus(Event):
    """The shoe came online or went offline (``reason`` in plain words)."""

    online: bool = True
    reason: str = ""
    TYPE: ClassVar[str] = "shoe_status"


@dataclass(frozen=True)
class ShoeReloaded(Event):
    """The dealer reloaded the shoe with a freshly shuffled deck (new hand or misdeal)."""

    TYPE: ClassVar[str] = "shoe_reloaded"


@dataclass(frozen=True)
class StubReshuffled(Event):
    """The stub (undealt cards plus any returned cards) was reshuffled mid-hand (TDA 39-D)."""

    TYPE: ClassVar[str] = "stub_reshuffled"


# --- dealer declarations (dealer button box) -------------------------------------------
DECLARATION_KINDS = (
    "exposed_card",       # the last card, or the card with draw number ``draw``, was exposed
    "boxed_card",         # a card found face up in the deck
    "wrong_seat",         # a card went to the wrong seat (``seat`` = where it went)
    "seat_skipped",       # ``seat`` was skipped in the deal
    "floor_misdeal",      # the floor calls a misdeal
    "confirm_ruling",     # floor confirms the pending ruling
    "override_ruling",    # floor overrides the pending ruling (``note`` says why)
    "button_out_of_position",  # the button is misplaced (``seat`` = where it belongs, TDA 34-A)
    "missed_burn",        # the street just dealt had no burn, seen before any action on it
)


@dataclass(frozen=True)
class Declaration(Event):
    """A declaration from the dealer button box.  ``kind`` is one of :data:`DECLARATION_KINDS`;
    ``draw`` and ``seat`` are optional (1-based)."""

    kind: str = ""
    draw: int | None = None
    seat: int | None = None
    note: str = ""
    TYPE: ClassVar[str] = "declaration"

    def __post_init__(self) -> None:
        if self.kind not in DECLARATION_KINDS:
            raise UnknownEventError(
                f"unknown declaration {self.kind!r}; expected one of {', '.join(DECLARATION_KINDS)}"
            )


# --- buttons ---------------------------------------------------------------------------
#: The three keys of a seat (their names are the keys', not actions: what a press means
#: is decided by :mod:`engine.betting.seat_input`).
SEAT_BUTTONS = ("fold", "check_call", "bet_raise")
DEALER_BUTTONS = ("next_hand", "pause_resume", "exposed_card", "misdeal", "confirm_ruling", "undo")
PRESS_KINDS = ("press", "hold")


@dataclass(frozen=True)
class SeatButton(Event):
    """A debounced press (or hold) of one of a seat's buttons (:data:`SEAT_BUTTONS`)."""

    seat: int = 0
    button: str = ""
    press: str = "press"
    TYPE: ClassVar[str] = "seat_button"

    def __post_init__(self) -> None:
        if self.button not in SEAT_BUTTONS or self.press not in PRESS_KINDS:
            raise UnknownEventError(f"bad seat button {self.button!r}/{self.press!r}")


@dataclass(frozen=True)
class DealerButton(Event):
    """A debounced press (or hold) on the dealer button box (:data:`DEALER_BUTTONS`)."""

    button: str = ""
    press: str = "press"
    TYPE: ClassVar[str] = "dealer_button"

    def __post_init__(self) -> None:
        if self.button not in DEALER_BUTTONS or self.press not in PRESS_KINDS:
            raise UnknownEventError(f"bad dealer button {self.button!r}/{self.press!r}")


@dataclass(frozen=True)
class PlayerAction(Event):
    """A player action: ``action`` is one of :data:`ACTIONS` (PokerKit's names: ``fold``,
    ``check_or_call``, ``bet_or_raise_to``; ``show``/``muck`` at showdown); ``amount`` is
    the bet-or-raise-to total in chips.  The names of scenario scripts and older journals
    (:data:`ACTION_ALIASES`: ``check_call``, ``bet_raise``, ...) are translated here, once,
    when the event is made."""

    seat: int = 0
    action: str = ""
    amount: int | None = None
    TYPE: ClassVar[str] = "player_action"

    def __post_init__(self) -> None:
        canonical = ACTION_ALIASES.get(self.action)
        if canonical is not None:
            object.__setattr__(self, "action", canonical)


#: The action vocabulary (PokerKit's names), the same everywhere past the key boundary.
ACTIONS = ("fold", "check_or_call", "bet_or_raise_to", "show", "muck")
#: Other names an action may be given by (scenario JSONL scripts, older journals, the
#: words of a declaration) -> its name in :data:`ACTIONS`.
ACTION_ALIASES = {"check_call": "check_or_call", "check": "check_or_call",
                  "call": "check_or_call", "bet_raise": "bet_or_raise_to",
                  "bet": "bet_or_raise_to", "raise": "bet_or_raise_to"}


# --- time and devices ------------------------------------------------------------------
@dataclass(frozen=True)
class ClockTick(Event):
    """Time passed; the clock and alerts are evaluated at ``t``."""

    TYPE: ClassVar[str] = "clock_tick"


@dataclass(frozen=True)
class DeviceStatus(Event):
    """A device (``"display:3"``, ``"buttons"``, ``"tv"``, ``"audio"``) went online/offline."""

    device: str = ""
    online: bool = True
    detail: str = ""
    TYPE: ClassVar[str] = "device_status"


@dataclass(frozen=True)
class DealerCommand(Event):
    """A command from the CLI or the operator (``command`` plus free ``args``), e.g.
    ``add_time`` with ``{"seconds": 60}``, ``eliminate`` with ``{"seat": 3}``, ``late_entry``."""

    command: str = ""
    args: dict[str, Any] = dataclasses.field(default_factory=dict)
    TYPE: ClassVar[str] = "dealer_command"

    def __hash__(self) -> int:  # dict field: hash by identity of content
        return hash((self.t, self.command, tuple(sorted(self.args.items()))))


@dataclass(frozen=True)
class ConsoleCommand(Event):
    """A command from the director's console or ``pokertable ctl``
    (:mod:`engine.table.console`): ``command`` (``"register"``, ``"stack"``, ...) with its
    ``args``, sent by ``role`` (``"director"`` or ``"dealer"``) with the token whose id is
    ``token``, at ``at`` (UTC, ISO 8601, stamped by the console: the audit's "when");
    ``request``: the request's id (an idempotency key: a second command with the same id is
    refused)."""

    command: str = ""
    args: dict[str, Any] = dataclasses.field(default_factory=dict)
    role: str = ""
    token: str = ""
    at: str = ""
    request: str = ""
    TYPE: ClassVar[str] = "console_command"

    def __hash__(self) -> int:  # dict field: hash by the request id and time
        return hash((self.t, self.command, self.request))


@dataclass(frozen=True)
class VenueCommand(Event):
    """A command of the venue's director to a table in venue mode
    (:mod:`engine.table.venue`; docs/design/venue-topics.md): ``sender`` (the director's
    broker user name), ``seq`` (its number in the director's stream to this table, from
    1: the table applies each once, in order), ``kind`` (``seat``, ``move``, ``signal``,
    ``level``, ``go``; ``join``, seq 0: the table joins the night in ``body["night"]``;
    ``over``, seq 0: that night's winner is known),
    ``body`` (the message's fields), ``for_hand`` (the table's hand it follows; None: any
    time) and ``night`` (the director's night id the message carried; "" in a journal
    written before nights were)."""

    sender: str = ""
    seq: int = 0
    kind: str = ""
    body: dict[str, Any] = dataclasses.field(default_factory=dict)
    for_hand: int | None = None
    night: str = ""
    TYPE: ClassVar[str] = "venue_command"

    def __hash__(self) -> int:  # dict field: hashed by the message's id
        return hash((self.t, self.sender, self.seq))


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (CardDrawn, ShoeStatus, ShoeReloaded, StubReshuffled, Declaration, SeatButton,
                DealerButton, PlayerAction, ClockTick, DeviceStatus, DealerCommand,
                ConsoleCommand, VenueCommand)
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """``{"type": ..., **fields}``, JSON-able."""
    d = dataclasses.asdict(event)
    d["type"] = event.TYPE
    return d


def _short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters (a bad input may be huge)."""
    if isinstance(value, (dict, list)) and len(value) > 20:
        return f"<{type(value).__name__} of {len(value)} items>"
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # a huge int, a deeply nested structure
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


_FIELD_TYPES: dict[str, dict[str, tuple[type, ...]]] = {}
_KEYS: dict[str, frozenset[str]] = {}  # type -> the keys its record may hold
#: type -> field name -> the value types taken as they are (a float: when finite; not an
#: int for a float field, which becomes a float); any other value goes to _check_field
_EXACT: dict[str, dict[str, frozenset[type]]] = {}
#: type -> every (key, value type) its record may hold as it is (``("type", str)`` too):
#: a record of those pairs only, its floats finite, needs no field-by-field look
_PAIRS: dict[str, frozenset[tuple[str, type]]] = {}
_FLOATS: dict[str, tuple[str, ...]] = {}  # type -> its float fields
#: type -> its fields' defaults, when every field but ``t`` has a plain default (no
#: factory): the record is built straight from them (:func:`_build`)
_DEFAULTS: dict[str, dict[str, Any] | None] = {}
#: type -> what a journal's record of it is read with: its (key, value type) pairs, float
#: fields, class, defaults (None when a field has a default factory) and
#: ``__post_init__`` (:func:`event_from_dict`'s first path)
_FAST: dict[str, tuple[frozenset[tuple[str, type]], tuple[str, ...], type[Event],
                       dict[str, Any] | None, Callable[[Event], None] | None]] = {}


def _field_types(cls: type[Event]) -> dict[str, tuple[type, ...]]:
    """Field name -> the accepted runtime types, from the dataclass annotations
    (``int | None`` -> ``(int, NoneType)``, ``dict[str, Any]`` -> ``(dict,)``); cached."""
    if cls.TYPE in _FIELD_TYPES:
        return _FIELD_TYPES[cls.TYPE]
    hints = typing.get_type_hints(cls)
    out: dict[str, tuple[type, ...]] = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        parts = typing.get_args(hint) if isinstance(hint, types.UnionType) or \
            typing.get_origin(hint) is typing.Union else (hint,)
        out[f.name] = tuple(typing.get_origin(p) or p for p in parts)
    _FIELD_TYPES[cls.TYPE] = out
    _KEYS[cls.TYPE] = frozenset(out) | {"type"}
    _EXACT[cls.TYPE] = {name: frozenset(t for t in types_ if t is not int or float not in types_)
                        for name, types_ in out.items()}
    _PAIRS[cls.TYPE] = frozenset((name, t) for name, types_ in _EXACT[cls.TYPE].items()
                                 for t in types_) | {("type", str)}
    _FLOATS[cls.TYPE] = tuple(name for name, types_ in out.items() if float in types_)
    fields = [f for f in dataclasses.fields(cls) if f.name != "t"]
    defaults = _DEFAULTS[cls.TYPE] = None if any(f.default is dataclasses.MISSING
                                                 for f in fields) \
        else {f.name: f.default for f in fields}
    _FAST[cls.TYPE] = (_PAIRS[cls.TYPE], _FLOATS[cls.TYPE], cls, defaults,
                       getattr(cls, "__post_init__", None))
    return out


def _build(cls: type[Event], values: dict[str, Any]) -> Event:
    """``cls(**values)`` for checked ``values`` (``t`` among them, no unknown key): a
    record whose fields all have plain defaults is made without the frozen dataclass's
    ``__init__`` (one ``object.__setattr__`` per field), then checked by its
    ``__post_init__`` as ``__init__`` would; the result is the same record."""
    defaults = _DEFAULTS[cls.TYPE]
    if defaults is None:
        return cls(**values)
    event = object.__new__(cls)
    fields = event.__dict__
    fields.update(defaults)
    fields.update(values)
    post = getattr(cls, "__post_init__", None)
    if post is not None:
        post(event)
    return event


_isfinite = math.isfinite
_new_object = object.__new__

_TYPE_WORDS = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               dict: "an object", type(None): "null"}


def _check_field(kind: str, name: str, value: Any, accepted: tuple[type, ...]) -> Any:
    """``value`` if it has one of the ``accepted`` types (floats finite; a bool is not an
    int, a float is not an int even when whole); an int for a float field becomes a float.

    Raises:
        UnknownEventError: naming the event type and the field.
    """
    vt = type(value)
    if vt in accepted and vt is not float and (vt is not int or float not in accepted):
        return value  # exactly a type asked for: what the loop below returns too
    if vt is float and float in accepted and math.isfinite(value):
        return value  # a finite float for a float field (every event's time): the same
    for typ in accepted:
        if typ is type(None) and value is None:
            return value
        if typ is bool and isinstance(value, bool):
            return value
        if isinstance(value, bool):
            continue
        if typ is int and isinstance(value, int):
            return value
        if typ is float and isinstance(value, (int, float)):
            try:
                as_float = float(value)
            except OverflowError:
                break
            if math.isfinite(as_float):
                return as_float
            break
        if typ in (str, dict) and isinstance(value, typ):
            return value
    want = " or ".join(_TYPE_WORDS.get(t, t.__name__) for t in accepted)
    if float in accepted:
        want += " (finite)"
    raise UnknownEventError(f"{kind}: field {name!r} must be {want}, got {_short(value)}")


def event_from_dict(d: dict[str, Any]) -> Event:
    """Inverse of :func:`event_to_dict`.

    Field values are checked against the dataclass annotations: an ``int`` field takes an
    int only (not a bool, not ``6.0``, not ``"40"``), ``int | None`` also null, a ``float``
    field a finite int or float (stored as float), ``str``/``bool``/``dict`` only that.

    Raises:
        UnknownEventError: unknown ``type``, unknown field, missing ``t`` or a field of the
            wrong type (the field is named).
    """
    kind = d.get("type") if type(d) is dict else None
    fast = _FAST.get(kind) if type(kind) is str else None
    if fast is not None and "t" in d and \
            fast[0].issuperset(zip(d, map(type, d.values()), strict=True)):
        # a journal's record: every value exactly of a type its field takes as it is; then
        # only a float must be looked at (finite), as _check_field would
        for name in fast[1]:
            value = d.get(name)
            if type(value) is float and not _isfinite(value):
                break
        else:
            if fast[3] is None:  # a field with a default factory: the dataclass's own way
                values = dict(d)
                del values["type"]
                return fast[2](**values)
            # every field but t with a plain default: built as _build builds it, inline
            event = _new_object(fast[2])
            values = event.__dict__
            values.update(fast[3])
            values.update(d)
            del values["type"]
            if fast[4] is not None:
                fast[4](event)
            return event
    return _read_checked(d)


def _read_checked(d: dict[str, Any]) -> Event:
    """:func:`event_from_dict` of a record its first path does not take (a first record of
    its type, a value to look at field by field), or refuses (the error naming the
    field)."""
    if not isinstance(d, dict) or "type" not in d:
        raise UnknownEventError(f"event must be an object with a 'type', got {_short(d)}")
    if not isinstance(d["type"], str):
        raise UnknownEventError(f"event 'type' must be a string, got {_short(d['type'])}")
    cls = EVENT_TYPES.get(d["type"])
    if cls is None:
        raise UnknownEventError(
            f"unknown event type {_short(d['type'])}; expected one of {', '.join(EVENT_TYPES)}"
        )
    accepted = _field_types(cls)
    if not _KEYS[cls.TYPE].issuperset(d):
        extra = d.keys() - _KEYS[cls.TYPE]
        names = ", ".join(sorted(_short(k) if not isinstance(k, str) else _short(k, 30)
                                 for k in extra)[:5])
        raise UnknownEventError(f"{_short(d['type'])}: unknown field(s) {names}")
    if "t" not in d:
        raise UnknownEventError(f"{d['type']}: missing 't' (monotonic seconds)")
    values = dict(d)
    del values["type"]
    exact = _EXACT[cls.TYPE]
    for k, v in d.items():
        # a value of exactly a type asked for (an int not for a float field, a float
        # finite) is taken as it is, as _check_field would take it, without the call
        vt = type(v)
        if k != "type" and (vt not in exact[k] or (vt is float and not math.isfinite(v))):
            values[k] = _check_field(d["type"], k, v, accepted[k])
    try:
        return _build(cls, values)
    except TypeError as exc:
        raise UnknownEventError(f"{d['type']}: {exc}") from None
