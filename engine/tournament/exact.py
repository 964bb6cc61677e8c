"""Exact numbers from a structure file: a value read as the decimal it is written as.

TOML numbers arrive as Python floats; ``45.2`` is then the nearest binary float, not 452/10.
:func:`exact_decimal` reads a float as the shortest decimal that prints as it (``repr``), which
is the decimal written in the file for any value of up to 15 significant digits, so money,
percentages and points are computed on the numbers as written (issue: money is exact).

>>> exact_decimal(45.2), exact_decimal(3), exact_decimal("0.15")
(Decimal('45.2'), Decimal('3'), Decimal('0.15'))
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from engine.errors import InvalidInputError


def exact_decimal(value: object, error: type[InvalidInputError] = InvalidInputError) -> Decimal:
    """``value`` (int, float, :class:`~decimal.Decimal` or numeric text) as an exact Decimal.

    Raises:
        error (an :class:`engine.errors.InvalidInputError`): a bool, a non-number, or a value
        that is not finite (``inf``, ``nan``).
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal, str)):
        raise error(f"not a number: {value!r}"[:80])
    try:
        d = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except (InvalidOperation, ValueError):
        raise error(f"not a number: {value!r}"[:80]) from None
    if not d.is_finite():
        raise error(f"not a finite number: {value!r}"[:80])
    return d
