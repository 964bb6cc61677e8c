"""Tournament structures: levels, chips, entries, extras, payouts and points, from TOML.

A structure is an immutable :class:`Structure` read from a TOML file (``tomllib``) and
validated before use.  Every problem found is reported at once by :class:`StructureError`,
each reason naming the file, the level and the problem, e.g.::

    broken.toml: level 3: big blind 100 is smaller than the small blind 200

Presets ship as package data in ``engine/tournament/presets/*.toml`` (``gunpowder``, ``phat-ace``,
``mini``); :func:`engine.tournament.structure_file.load_structure` accepts a preset name or a
file path.  The file format is
documented in ``docs/tournament.md``.

Level numbering: blind levels are numbered 1, 2, 3 ... in file order; breaks are not
numbered (a break is reported as "break after level N").  ``Structure.levels`` holds every
entry (blind levels and breaks) in order; ``Level.number`` is the blind-level number, or for a
break the number of the level before it.

Units: chips are ints; durations are minutes (float) or hands (int).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.errors import InvalidInputError

COLOR_UP_RULES = ("round_up", "chip_race")
RAISE_RULES = ("standard", "double")


class StructureError(InvalidInputError):
    """A structure file that cannot be used.  ``problems`` lists every reason (one line each,
    each starting with the file name); ``str()`` joins them with ``"; "``."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class StructureFileError(StructureError):
    """The structure file was not read at all (:func:`engine.input_file.read_text`
    refused it: not a regular file, too big, not UTF-8, nested too deeply)."""


# --------------------------------------------------------------------------- data model
@dataclass(frozen=True)
class Chip:
    """One denomination of the chip set and its color name."""

    denomination: int
    color: str


@dataclass(frozen=True)
class Level:
    """One entry of the level table: a blind level or a break.

    Exactly one of ``minutes`` / ``hands`` is set (breaks always use ``minutes``).
    ``color_up``: denominations removed when this entry starts.  ``min_bet``: the minimum bet
    for a no-blind level (``None``: the big blind).
    """

    index: int
    number: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    big_blind_ante: int = 0
    minutes: float | None = None
    hands: int | None = None
    is_break: bool = False
    color_up: tuple[int, ...] = ()
    min_bet: int | None = None

    @property
    def seconds(self) -> float | None:
        """Duration in seconds of a time-based entry, else ``None``."""
        return None if self.minutes is None else self.minutes * 60.0

    @property
    def label(self) -> str:
        """``"level 3"`` or ``"break after level 4"`` (used in messages)."""
        return f"break after level {self.number}" if self.is_break else f"level {self.number}"

    def blinds_text(self) -> str:
        """``"100/200"`` (``"1,000/2,000"``: chips with thousands separators), with
        ``" ante 25"`` / ``" BB ante 200"`` when present."""
        if self.is_break:
            return "break"
        text = f"{self.small_blind:,}/{self.big_blind:,}"
        if self.ante:
            text += f" ante {self.ante:,}"
        if self.big_blind_ante:
            text += f" BB ante {self.big_blind_ante:,}"
        if self.min_bet and not self.big_blind:
            text = f"no blinds, min bet {self.min_bet:,}"
        return text


@dataclass(frozen=True)
class LateRegistration:
    """Late entries allowed until the end of blind level ``last_level`` (0: none).
    ``deduction_by_level``: chips taken off a late stack by the level of arrival.
    ``close_at_first_raise``: the seed-003 wording "no new players after the first raise"."""

    last_level: int = 0
    deduction_by_level: dict[int, int] = field(default_factory=dict)
    close_at_first_raise: bool = False


@dataclass(frozen=True)
class Bounty:
    """One random player receives ``chips`` extra (seed 003: a 5,000 chip)."""

    chips: int


@dataclass(frozen=True)
class BonusWheel:
    """The random bonus-chip event (seed 000's "Party Pop"): at a random hand in
    ``[first_hand, last_hand]`` a wheel picks one of ``segments``; the bonus goes into the
    next hand's pot before the flop."""

    name: str
    first_hand: int
    last_hand: int
    segments: tuple[int, ...]


@dataclass(frozen=True)
class Qualifiers:
    """Qualifying rounds and a final (seed 002): ``rounds`` qualifiers of ``minutes`` each;
    the top ``advance`` stacks of each go to a final of ``final_minutes``."""

    rounds: int
    minutes: float
    advance: int
    final_minutes: float


@dataclass(frozen=True)
class PayoutBracket:
    """Percentages of the prize pool by place for ``min_entrants..max_entrants``."""

    min_entrants: int
    max_entrants: int
    percentages: tuple[float, ...]


@dataclass(frozen=True)
class PointsConfig:
    """League points.  ``kind``: ``"formula"`` or ``"table"``.

    formula: ``formula`` over n, k, b, e; ``paid_fraction`` (e.g. 0.15) limits the places paid.
    table: ``table`` points by place, ``multipliers`` (min_entrants, factor) pairs,
    ``knockout_bonus`` and ``high_hand_bonus`` per occurrence.
    """

    kind: str
    formula: str = ""
    paid_fraction: float | None = None
    table: tuple[float, ...] = ()
    multipliers: tuple[tuple[int, float], ...] = ()
    knockout_bonus: float = 0.0
    high_hand_bonus: float = 0.0


@dataclass(frozen=True)
class Structure:
    """A validated tournament structure (see module docstring)."""

    name: str
    source: str
    chips: tuple[Chip, ...]
    starting_chips: dict[int, int]
    levels: tuple[Level, ...]
    color_up_rule: str = "round_up"
    raise_rule: str = "standard"
    buy_in: int = 0
    #: the dealing-rulings house profile the structure comes with (engine.dealing.irregularities)
    house_profile: str = "tda2024"
    currency: str = "$"  # put before money on the screens (our default: "$")
    late_registration: LateRegistration = field(default_factory=LateRegistration)
    bounty: Bounty | None = None
    bonus_wheel: BonusWheel | None = None
    heads_up_hand_limit: int | None = None
    qualifiers: Qualifiers | None = None
    payouts: tuple[PayoutBracket, ...] = ()
    points: PointsConfig | None = None
    path: str = ""

    @property
    def starting_stack(self) -> int:
        """Chips each player starts with (sum of ``starting_chips``)."""
        return sum(d * c for d, c in self.starting_chips.items())

    @property
    def denominations(self) -> tuple[int, ...]:
        """All denominations, ascending."""
        return tuple(sorted(c.denomination for c in self.chips))

    @cached_property
    def seconds_to_next_break(self) -> tuple[tuple[float, ...] | None, ...]:
        """By entry index ``i``: the seconds of each time-based entry after ``i`` up to the
        next break, in order (``()``: the break is next); None when no break is ahead or
        a hand-based entry comes first.  Made once (the clock's view reads it on every
        event; the structure never changes)."""
        out: list[tuple[float, ...] | None] = []
        ahead: tuple[float, ...] | None = None  # for the entries after the one at hand
        for lv in reversed(self.levels):
            out.append(ahead)
            if lv.is_break:
                ahead = ()
            elif ahead is not None and lv.seconds is not None:
                ahead = (lv.seconds, *ahead)
            else:
                ahead = None
        return tuple(reversed(out))

    @cached_property
    def entry_rows(self) -> tuple[tuple[bool, int, float | None, int | None], ...]:
        """Each entry as ``(is_break, big_blind, seconds, hands)``, by index: what an
        estimate walking the entries ahead reads, made once (plain tuples: no property
        call per entry on every event)."""
        return tuple((lv.is_break, lv.big_blind, lv.seconds, lv.hands) for lv in self.levels)

    @property
    def blind_levels(self) -> tuple[Level, ...]:
        """The entries that are not breaks."""
        return tuple(lv for lv in self.levels if not lv.is_break)

    def level_by_number(self, number: int) -> Level:
        """The blind level numbered ``number`` (1-based).  Raises ``KeyError``."""
        for lv in self.levels:
            if not lv.is_break and lv.number == number:
                return lv
        raise KeyError(number)

    def denominations_in_play(self, index: int) -> tuple[int, ...]:
        """Denominations still on the table once entry ``index`` has started (an entry's
        index read from a table made once: every new hand asks)."""
        table = self._in_play
        return table[index] if 0 <= index < len(table) else self._in_play_at(index)

    @cached_property
    def _in_play(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self._in_play_at(i) for i in range(len(self.levels)))

    def _in_play_at(self, index: int) -> tuple[int, ...]:
        removed = {d for lv in self.levels[: index + 1] for d in lv.color_up}
        return tuple(d for d in self.denominations if d not in removed)

    def color(self, denomination: int) -> str:
        for c in self.chips:
            if c.denomination == denomination:
                return c.color
        raise KeyError(denomination)

    def late_deduction(self, level_number: int) -> int:
        """Chips deducted from a stack registered during blind level ``level_number``."""
        return self.late_registration.deduction_by_level.get(level_number, 0)

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``pokertable structure show --json`` (keys documented in docs/tournament.md)."""
        levels = []
        for lv in self.levels:
            d: dict[str, Any] = {
                "small_blind": lv.small_blind, "big_blind": lv.big_blind, "ante": lv.ante,
                "big_blind_ante": lv.big_blind_ante,
            }
            if lv.minutes is not None:
                d["minutes"] = lv.minutes
            else:
                d["hands"] = lv.hands
            d["break"] = lv.is_break
            d["color_up"] = list(lv.color_up)
            levels.append(d)
        out: dict[str, Any] = {
            "name": self.name,
            "source": self.source,
            "starting_stack": self.starting_stack,
            "starting_chips": {str(d): c for d, c in sorted(self.starting_chips.items())},
            "chips": [{"denomination": c.denomination, "color": c.color} for c in self.chips],
            "color_up_rule": self.color_up_rule,
            "levels": levels,
            "late_registration": {
                "last_level": self.late_registration.last_level,
                "deduction_by_level": {
                    str(k): v for k, v in sorted(self.late_registration.deduction_by_level.items())
                },
            },
            "heads_up_hand_limit": self.heads_up_hand_limit,
            "bounty": self.bounty.chips if self.bounty else None,
            "bonus_wheel": None if self.bonus_wheel is None else {
                "name": self.bonus_wheel.name, "first_hand": self.bonus_wheel.first_hand,
                "last_hand": self.bonus_wheel.last_hand,
                "segments": list(self.bonus_wheel.segments)},
            "qualifiers": None if self.qualifiers is None else {
                "rounds": self.qualifiers.rounds, "minutes": self.qualifiers.minutes,
                "advance": self.qualifiers.advance,
                "final_minutes": self.qualifiers.final_minutes},
        }
        return out


# --------------------------------------------------------------------------- loading
