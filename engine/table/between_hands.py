"""What the table does between two hands, read from the tournament: the color-up that is
due (docs/tournament.md) and the smallest chip in play (the odd chip of a
split pot, TDA 20-A), and the seed of a hand's dealing procedure.

Pure: each function reads or changes only the :class:`engine.tournament.tournament.
Tournament` it is given.

>>> from engine.tournament.structure_file import load_structure
>>> from engine.tournament.tournament import Tournament
>>> smallest_chip(Tournament(load_structure("gunpowder")))
100
"""

from __future__ import annotations

import hashlib

from engine.effects import Alert, Effect, LogLine, Notice
from engine.errors import InvalidInputError
from engine.tournament.tournament import Tournament


def hand_seed(*parts: object) -> int:
    """A 48-bit seed made from ``parts`` (the table's seed and the hand's number): the
    same parts give the same seed on every machine (SHA-256, not ``hash``)."""
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:6],
                          "big")


def smallest_chip(tour: Tournament) -> int:
    """The smallest denomination in play now (the odd chip of a split pot, TDA 20-A);
    1 for a structure without a chip set."""
    clock = tour.clock
    try:
        chips = clock.structure.denominations_in_play(clock.index)
    except Exception:  # noqa: BLE001 - a structure without a chip set
        chips = ()
    return min(chips) if chips else 1


def color_up_if_due(tour: Tournament) -> list[Effect]:
    """Color up the denominations ``tour`` has due now (none: no effect).

    Between hands the chips of a removed denomination are the part of each stack below
    the smallest remaining chip; the tournament's rounding rule does the rest.  A color-up
    that cannot be computed never stops the next hand: the notice asks for it by hand."""
    due = tour.color_up_due()
    if not due:
        return []
    stacks = tour.stacks()
    smallest = min(due)
    remaining = tour.clock.structure.denominations_in_play(tour.clock.index)
    unit = min(remaining) if remaining else smallest
    # chips of the removed denominations are whole chips: a remainder smaller than the
    # smallest removed chip (an odd amount no chip makes) stays as it is
    removed = {s: (c % unit) // smallest * smallest for s, c in stacks.items()}
    words = ", ".join(str(d) for d in due)
    shown = ", ".join(f"{d:,}" for d in due)  # on the TV: chips with separators
    try:
        result = tour.color_up(removed)
    except InvalidInputError as exc:
        return [Notice(f"Color-up of the {shown} chips: count it by hand ({exc})"),
                LogLine("WARNING", f"color-up of {words} not computed: {exc}")]
    return [Alert("color_up", f"Color up: the {words} chips are removed"),
            Notice(f"Color-up: {shown} chips removed; "
                   f"chips in play change by {result.change_in_play:+,d}")]
