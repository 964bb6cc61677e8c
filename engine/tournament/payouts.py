"""Prize payouts in exact arithmetic (no float ever touches money).

A payout table gives each paid place a percentage of the prize pool (structure
``[payouts]``, engine/tournament/structure.py).  The percentages are read as the decimals
written in the file (``45.2`` is exactly 452/1000, not the nearest binary float), each place
gets ``pool * percentage / 100`` rounded down to the stated ``unit`` (a whole currency unit
unless the structure says otherwise), and the remainder goes to first place: the stated
rule (the remainder is never more than one unit per paid place).

>>> split_pool(1000, (45.2, 32.3, 22.5))
[452, 323, 225]
>>> split_pool(10, (50, 30, 20), unit=1)
[5, 3, 2]
>>> split_pool(7, (50, 50))
[4, 3]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TypeVar

from engine.errors import InvalidInputError
from engine.tournament.exact import exact_decimal

K = TypeVar("K", bound=Hashable)


class PayoutError(InvalidInputError):
    """A pool or a percentage table that cannot be paid (negative, not summing to 100)."""


def exact_percentage(p: float | int | str | Decimal | Fraction) -> Fraction:
    """``p`` as an exact fraction of 100, reading a float as the decimal it prints as
    (``45.2`` -> 226/5, :func:`engine.tournament.exact.exact_decimal`).  Raises
    :class:`PayoutError` for a value that is not a finite number."""
    if isinstance(p, Fraction):
        return p
    return Fraction(exact_decimal(p, PayoutError))


def split_pool(pool: int, percentages: Sequence[float | int | str | Decimal | Fraction],
               unit: int = 1) -> list[int]:
    """Amounts per place (first place first) for ``pool`` (whole currency units).

    Args:
        pool: the prize pool, a whole number >= 0.
        percentages: one per paid place, summing to exactly 100.
        unit: amounts are whole multiples of ``unit``; the rest goes to first place.
    Returns:
        Integers summing to ``pool``.
    Raises:
        PayoutError: a negative pool, a unit < 1, or percentages not summing to 100.
    """
    if not isinstance(pool, int) or pool < 0:
        raise PayoutError(f"the prize pool must be a whole number >= 0, got {pool!r}")
    if not isinstance(unit, int) or unit < 1:
        raise PayoutError(f"the payout unit must be a whole number >= 1, got {unit!r}")
    pct = [exact_percentage(p) for p in percentages]
    if any(p < 0 for p in pct) or sum(pct) != 100:
        raise PayoutError(f"percentages must be >= 0 and add up to exactly 100, got "
                          f"{sum(pct)}")
    amounts = [int(pool * p / 100 / unit) * unit for p in pct]
    if amounts:
        amounts[0] += pool - sum(amounts)
    return amounts


def share_places(table: Mapping[int, int], groups: Mapping[int, Sequence[K]]) -> dict[K, int]:
    """Prizes of placed players: ``table`` (place -> amount, from :func:`split_pool`),
    ``groups`` (place -> the players finishing there, tied players together, in the
    order the remainder goes).  Players tied for a place (out in the same hand with the
    same chips at its start, TDA) share the prizes of the places they cover equally; the
    remainder of that share goes one unit each, in the order given (the stated rule).

    >>> share_places({1: 50, 2: 30, 3: 20}, {1: ["Ann"], 2: ["Bo", "Cy"]})
    {'Ann': 50, 'Bo': 25, 'Cy': 25}
    >>> share_places({1: 60, 2: 25}, {1: ["Ann"], 2: ["Bo", "Cy"]})
    {'Ann': 60, 'Bo': 13, 'Cy': 12}
    """
    out: dict[K, int] = {}
    for place, players in groups.items():
        total = sum(table.get(p, 0) for p in range(place, place + len(players)))
        share, rest = divmod(total, len(players))
        for i, player in enumerate(players):
            out[player] = share + (1 if i < rest else 0)
    return out
