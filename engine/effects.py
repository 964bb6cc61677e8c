"""Effects: what applying an event asks the outside world to do.

The pure core returns these; the service loop carries them out (sounds, shoe commands,
hand-history files, log lines).  Like views, effects never carry an unrevealed hole card
unless marked private (``HandHistory.private``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ALERTS = (
    "level_start", "one_minute", "ten_seconds", "level_end", "break_start", "break_end",
    "color_up", "late_registration_closing", "bonus_wheel", "ruling", "paused", "resumed",
)


@dataclass(frozen=True)
class Effect:
    """Base of all effects."""


@dataclass(frozen=True)
class Alert(Effect):
    """A sound/announcement cue: ``kind`` in :data:`ALERTS`; ``text`` is the spoken words
    (e.g. "Blinds are now two hundred and four hundred")."""

    kind: str
    text: str = ""


@dataclass(frozen=True)
class ShoeCommand(Effect):
    """A command for the card shoe: ``command`` is ``lock``, ``unlock`` or ``mode``
    (``arg`` = deal | register | idle)."""

    command: str
    arg: str = ""


class _Made:
    """A text made when first read, once (``make()``, a pure function of values that do
    not change): an effect nobody carries out (a replay of the journal drops its log
    lines and keeps only its hand histories) costs no formatting."""

    __slots__ = ("_make", "_text")

    def __init__(self, make: Callable[[], str]) -> None:
        self._make: Callable[[], str] | None = make
        self._text = ""

    def __call__(self) -> str:
        if self._make is not None:
            self._text, self._make = self._make(), None
        return self._text


@dataclass(frozen=True)
class HandHistory(Effect):
    """A finished hand's history as PHH text.  ``private`` histories contain hole cards
    and go only to the private state directory."""

    hand_number: int
    phh: str
    private: bool = True


class LazyHandHistory(HandHistory):
    """A :class:`HandHistory` whose ``phh`` is ``make()``, made when first read (the
    public text, which nothing in the core needs); equal to (and hashed as) the
    :class:`HandHistory` of the same fields."""

    def __init__(self, hand_number: int, make: Callable[[], str],
                 private: bool = True) -> None:
        object.__setattr__(self, "hand_number", hand_number)
        object.__setattr__(self, "private", private)
        object.__setattr__(self, "_made", _Made(make))

    @property
    def phh(self) -> str:
        made: _Made = self.__dict__["_made"]
        return made()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandHistory) and \
            (self.hand_number, self.phh, self.private) == \
            (other.hand_number, other.phh, other.private)

    def __hash__(self) -> int:
        return hash((self.hand_number, self.phh, self.private))


@dataclass(frozen=True)
class LogLine(Effect):
    """A line for the service log.  ``level`` is a logging level name; text at INFO or
    above never contains an unrevealed hole card."""

    level: str
    text: str


class LazyLogLine(LogLine):
    """A :class:`LogLine` whose ``text`` is ``make()``, made when first read; equal to
    (and hashed as) the :class:`LogLine` of the same level and text."""

    def __init__(self, level: str, make: Callable[[], str]) -> None:
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "_made", _Made(make))

    @property
    def text(self) -> str:
        made: _Made = self.__dict__["_made"]
        return made()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LogLine) and (self.level, self.text) == \
            (other.level, other.text)

    def __hash__(self) -> int:
        return hash((self.level, self.text))


@dataclass(frozen=True)
class Notice(Effect):
    """A short public notice for the TV (e.g. "Blinds up next hand")."""

    text: str


@dataclass(frozen=True)
class VenueReport(Effect):
    """A report of a table in venue mode to the director (docs/design/venue-topics.md):
    ``seq`` (its number in the table's report stream, from 1), ``kind``
    (``hand_started``, ``hand_finished``, ``moved``, ``applied``, ``refused``), the hand it
    follows and its ``body`` (the message's fields).  Public: names and chips only."""

    seq: int
    kind: str
    for_hand: int
    body: dict[str, Any]

    def __hash__(self) -> int:  # dict field: hashed by the stream position
        return hash((self.seq, self.kind))
