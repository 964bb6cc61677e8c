"""League points: formulas evaluated safely, and fixed tables with multipliers and bonuses,
in exact decimal arithmetic.

Variables of a formula: ``n`` entrants, ``k`` finishing place (1 = winner),
``b`` buy-in, ``e`` the player's total spend (buy-in plus re-entries and add-ons).

Formulas are parsed with :mod:`ast` and walked by a small interpreter that knows only
numbers, the four names above, ``+ - * / // % **``, unary minus/plus and calls of the
whitelisted functions ``sqrt, log10, log, min, max, round``.  Anything else (attribute
access, subscripts, other names, keywords, lambdas, comparisons ...) is rejected when the
formula is compiled; ``eval``/``compile`` are never used.

Exact (issue 12, item 9: no float touches points).  Numbers are :class:`decimal.Decimal`:
a number written in a structure file is read as the decimal written (``0.25`` is 1/4, see
:func:`engine.tournament.exact.exact_decimal`); ``+ - *`` and integer powers are exact,
division and ``sqrt``/``log`` are correctly rounded to :data:`PRECISION` significant digits
(the same on every machine, unlike a float's libm).  The points a player gets are rounded
to the stated unit :data:`POINT_UNIT` (0.01 point), half up (:data:`POINT_ROUNDING`).
Players tied for a place share the place points of the places they cover
(:func:`share_equally`: equal shares in whole units, the remainder one unit each to the
tied players in seat-number order, the rule prizes follow too); bonuses are their own.

>>> formula_points("pokerstars", n=100, k=1, b=10)
Decimal('201.07')
>>> formula_points("neau", n=20, k=1, b=10, e=10)
Decimal('7.07')
>>> table_points((33.35,), n=10, k=1, multipliers=((10, 1.5),))  # 50.025 exactly
Decimal('50.03')
"""

from __future__ import annotations

import ast
import decimal
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from fractions import Fraction

from engine.errors import InvalidInputError
from engine.tournament.exact import exact_decimal
from engine.tournament.structure import PointsConfig

#: Named formulas (the text a structure file may give as ``formula``).
FORMULA_PRESETS = {
    # PokerStars leader-board formula, paid to the top 15% of the field.
    "pokerstars": "10*sqrt(n)/sqrt(k)*(1+log10(b+0.25))",
    # Dr. Neau's formula, paid to every place.
    "neau": "sqrt(n*b*b/e)/(k+1)",
}
POKERSTARS_PAID_FRACTION = Decimal("0.15")

#: The stated unit of league points (our choice: two decimals, as leagues publish them) and
#: its rounding (half up: 50.025 -> 50.03, as a league's spreadsheet rounds).
POINT_UNIT = Decimal("0.01")
POINT_ROUNDING = ROUND_HALF_UP
#: Significant digits of every intermediate result (our choice: far beyond the unit).
PRECISION = 40
#: Intermediate results must stay below this size (our bound, a float's range).
MAX_MAGNITUDE = Decimal("1e300")

VARIABLES = ("n", "k", "b", "e")
_ARITY = {"sqrt": (1, 1), "log10": (1, 1), "log": (1, 2), "min": (1, 8), "max": (1, 8),
          "round": (1, 2)}
MAX_FORMULA_LENGTH = 500
#: The largest |exponent| of ``**`` (our bound: ``9**9**9**9`` must fail at once, not hang
#: or overflow); every intermediate result must also be a finite real number.
MAX_EXPONENT = 100
#: Sample values :func:`check_formula` evaluates a formula for: a field of 10, every place.
CHECK_VALUES = {"n": 10, "b": 20, "e": 20}


def _context() -> decimal.Context:
    return decimal.Context(prec=PRECISION, rounding=ROUND_HALF_EVEN, Emax=999_999,
                           Emin=-999_999, traps=[decimal.InvalidOperation,
                                                 decimal.DivisionByZero, decimal.Overflow])


def _name(text: str) -> str:
    """The formula quoted for a message, cut to 60 characters."""
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")


class FormulaError(InvalidInputError):
    """A formula that is not allowed, or that cannot be evaluated for the given values."""


def to_points(value: Decimal) -> Decimal:
    """``value`` rounded to the stated unit :data:`POINT_UNIT`, half up (:data:`POINT_ROUNDING`)."""
    return value.quantize(POINT_UNIT, rounding=POINT_ROUNDING, context=_context())


@dataclass(frozen=True)
class Formula:
    """A checked formula; call :meth:`evaluate` with values for n, k, b, e."""

    text: str
    tree: ast.Expression

    def evaluate(self, **values: int | float | Decimal) -> Decimal:
        """Exact value of the formula (correctly rounded to :data:`PRECISION` digits where
        it is irrational; not yet rounded to the points unit).  Raises
        :class:`FormulaError` on a missing or unknown variable or a math error (division by
        zero, log of zero, a result too large)."""
        unknown = set(values) - set(VARIABLES)
        if unknown:
            raise FormulaError(f"unknown variable(s) {', '.join(sorted(unknown))}")
        try:
            env = {k: exact_decimal(v, FormulaError) for k, v in values.items()}
            with decimal.localcontext(_context()):
                return _eval(self.tree.body, env)
        except _EvalProblem as exc:
            raise FormulaError(f"formula {_name(self.text)} cannot be evaluated for "
                               f"{values}: {exc}") from None
        except FormulaError:
            raise
        except (ArithmeticError, ValueError, TypeError, RecursionError) as exc:
            why = "division by zero" if isinstance(exc, ZeroDivisionError) else "no result"
            raise FormulaError(f"formula {_name(self.text)} cannot be evaluated for "
                               f"{values}: {why}") from None


def compile_formula(text: str) -> Formula:
    """Parse and check ``text``.  Raises :class:`FormulaError` naming what is not allowed."""
    if not isinstance(text, str) or not text.strip():
        raise FormulaError("a points formula is required")
    if len(text) > MAX_FORMULA_LENGTH:
        raise FormulaError(f"formula longer than {MAX_FORMULA_LENGTH} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
        raise FormulaError(f"formula {text!r} is not an expression: {exc}") from None
    _check(tree.body, text)
    return Formula(text.strip(), tree)


def _check(node: ast.AST, text: str) -> None:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise FormulaError(f"formula {text!r}: only numbers are allowed, not {node.value!r}")
    elif isinstance(node, ast.Name):
        if node.id not in VARIABLES:
            raise FormulaError(f"formula {text!r}: unknown name {node.id!r} "
                               f"(variables: {', '.join(VARIABLES)})")
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _BINOPS:
            raise FormulaError(f"formula {text!r}: operator {type(node.op).__name__} "
                               "is not allowed")
        _check(node.left, text)
        _check(node.right, text)
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.USub, ast.UAdd)):
            raise FormulaError(f"formula {text!r}: operator {type(node.op).__name__} "
                               "is not allowed")
        _check(node.operand, text)
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            what = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            raise FormulaError(f"formula {text!r}: calling {what!r} is not allowed "
                               f"(functions: {', '.join(FUNCTIONS)})")
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise FormulaError(f"formula {text!r}: keyword or star arguments are not allowed")
        lo, hi = _ARITY[node.func.id]
        if not lo <= len(node.args) <= hi:
            raise FormulaError(f"formula {text!r}: {node.func.id} takes {lo}..{hi} arguments")
        for a in node.args:
            _check(a, text)
    else:
        raise FormulaError(f"formula {text!r}: {type(node).__name__} is not allowed "
                           "(only numbers, n, k, b, e, arithmetic and "
                           f"{', '.join(FUNCTIONS)})")


class _EvalProblem(ArithmeticError):
    """An evaluation step left the finite real numbers (turned into FormulaError)."""


def _bounded(value: Decimal, what: str | ast.AST) -> Decimal:
    """``value`` if finite and below :data:`MAX_MAGNITUDE`; ``what`` names it in the
    error (a node is written out only then: evaluating stays cheap)."""
    if value.is_finite() and abs(value) < MAX_MAGNITUDE:
        return value
    label = ast.unparse(what)[:40] if isinstance(what, ast.AST) else what
    if not value.is_finite():
        raise _EvalProblem(f"{label} is not a finite number")
    raise _EvalProblem(f"{label} is too large: not a finite number below 1e300")


def _positive(x: Decimal) -> Decimal:
    if x <= 0:
        raise _EvalProblem("math domain error (the logarithm of a number <= 0)")
    return x


def _sqrt(x: Decimal) -> Decimal:
    if x < 0:
        raise _EvalProblem("math domain error (the square root of a negative number)")
    return x.sqrt()


def _log(x: Decimal, base: Decimal | None = None) -> Decimal:
    if base is None:
        return _positive(x).ln()
    return _positive(x).ln() / _positive(base).ln()


def _round(x: Decimal, digits: Decimal = Decimal(0)) -> Decimal:
    """Python's ``round(x, digits)``: half to even, to ``int(digits)`` decimals."""
    if abs(digits) > MAX_EXPONENT:
        raise _EvalProblem(f"round to {digits} places is out of range")
    return x.quantize(Decimal(1).scaleb(-int(digits)), rounding=ROUND_HALF_EVEN)


def _floordiv(a: Decimal, b: Decimal) -> Decimal:
    """Python's ``a // b`` (towards minus infinity; Decimal's own truncates towards zero)."""
    q, r = a // b, a % b
    return q - 1 if r and (r < 0) != (b < 0) else q


def _mod(a: Decimal, b: Decimal) -> Decimal:
    """Python's ``a % b`` (the sign of ``b``)."""
    r = a % b
    return r + b if r and (r < 0) != (b < 0) else r


def _pow(a: Decimal, b: Decimal) -> Decimal:
    if abs(b) > MAX_EXPONENT:
        raise _EvalProblem(f"exponent {b} is larger than {MAX_EXPONENT}")
    if a == 0 and b < 0:
        raise _EvalProblem("division by zero (0 to a negative power)")
    if a < 0 and b != b.to_integral_value():
        raise _EvalProblem("a negative number to a fractional power gives a complex number")
    return a ** b


FUNCTIONS: dict[str, Callable[..., Decimal]] = {
    "sqrt": _sqrt, "log10": lambda x: _positive(x).log10(), "log": _log,
    "min": min, "max": max, "round": _round,
}
_BINOPS: dict[type, Callable[[Decimal, Decimal], Decimal]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: _floordiv, ast.Mod: _mod, ast.Pow: _pow,
}


def _eval(node: ast.AST, env: dict[str, Decimal]) -> Decimal:
    """Evaluate a checked tree in the current decimal context; every step's result is a
    finite Decimal below :data:`MAX_MAGNITUDE`, and ``**`` takes exponents of at most
    :data:`MAX_EXPONENT` in size (checked before computing)."""
    if isinstance(node, ast.Constant):
        assert isinstance(node.value, (int, float))  # checked by _check
        d = Decimal(repr(node.value)) if isinstance(node.value, float) else Decimal(node.value)
        return _bounded(d, f"the number {str(node.value)[:20]}")
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise FormulaError(f"variable {node.id!r} has no value")
        return _bounded(env[node.id], f"variable {node.id}")
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, env), _eval(node.right, env)
        op = type(node.op)
        if op in (ast.Div, ast.FloorDiv, ast.Mod) and right == 0:
            raise _EvalProblem("division by zero")
        return _bounded(_BINOPS[op](left, right), node)
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        args = [_eval(a, env) for a in node.args]
        return _bounded(FUNCTIONS[node.func.id](*args), node)
    raise FormulaError(f"{type(node).__name__} is not allowed")  # unreachable after _check


def check_formula(text: str) -> None:
    """Check a formula (text or preset name) the way ``structure check`` should: it
    compiles, and evaluates to a finite real number for the sample field
    :data:`CHECK_VALUES` (``n=10, b=20, e=20``) at every place ``k=1..10``.

    Raises:
        FormulaError: naming the formula (and the values it failed for).
    """
    formula = compile_formula(FORMULA_PRESETS.get(text, text))
    for k in range(1, CHECK_VALUES["n"] + 1):
        formula.evaluate(k=k, **CHECK_VALUES)


def paid_places(n: int, fraction: float | Decimal | None) -> int:
    """Places that score under a ``fraction`` of the field (None: all ``n``).

    Our choice: the top ``floor(fraction * n)`` places (exact: 0.15 of 40 is 6), at least 1
    (the winner always scores).
    """
    if fraction is None:
        return n
    return max(1, int(Fraction(exact_decimal(fraction, FormulaError)) * n))


def formula_points(formula: str, *, n: int, k: int, b: int | float | Decimal,
                   e: int | float | Decimal | None = None,
                   paid_fraction: float | Decimal | None = None) -> Decimal:
    """Points for place ``k`` of ``n`` with buy-in ``b`` and spend ``e`` (default ``b``),
    rounded to :data:`POINT_UNIT`.

    ``formula`` is a preset name (:data:`FORMULA_PRESETS`) or formula text.  For the
    ``pokerstars`` preset the top 15% is applied unless ``paid_fraction`` says otherwise.
    Places outside the paid places score 0.  Raises :class:`FormulaError`.
    """
    if formula == "pokerstars" and paid_fraction is None:
        paid_fraction = POKERSTARS_PAID_FRACTION
    return _formula_place(FORMULA_PRESETS.get(formula, formula), paid_fraction,
                          n=n, k=k, b=b, e=e)


def _formula_place(text: str, paid_fraction: float | Decimal | None, *, n: int, k: int,
                   b: int | float | Decimal, e: int | float | Decimal | None) -> Decimal:
    if not 1 <= k <= n:
        raise FormulaError(f"place {k} is outside 1..{n}")
    if k > paid_places(n, paid_fraction):
        return to_points(Decimal(0))
    return to_points(_compiled(text).evaluate(n=n, k=k, b=b, e=b if e is None else e))


@functools.lru_cache(maxsize=64)
def _compiled(text: str) -> Formula:
    """:func:`compile_formula`, once per formula text (the room's screen asks for the
    points of every place on every frame)."""
    return compile_formula(text)


def _factor(n: int, multipliers: Sequence[tuple[int, float | Decimal]]) -> Decimal:
    """The factor of the largest ``min_entrants`` <= n; 1 when none applies."""
    factor = Decimal(1)
    for min_entrants, f in sorted(multipliers, key=lambda m: m[0]):
        if n >= min_entrants:
            factor = exact_decimal(f, FormulaError)
    return factor


def _table_place(table: Sequence[float | Decimal], *, n: int, k: int,
                 multipliers: Sequence[tuple[int, float | Decimal]]) -> Decimal:
    if not 1 <= k <= n:
        raise FormulaError(f"place {k} is outside 1..{n}")
    base = exact_decimal(table[k - 1], FormulaError) if k <= len(table) else Decimal(0)
    return to_points(base * _factor(n, multipliers))


def _bonus(knockouts: int, knockout_bonus: float | Decimal, high_hands: int,
           high_hand_bonus: float | Decimal) -> Decimal:
    return to_points(knockouts * exact_decimal(knockout_bonus, FormulaError)
                     + high_hands * exact_decimal(high_hand_bonus, FormulaError))


def table_points(table: Sequence[float | Decimal], *, n: int, k: int,
                 multipliers: Sequence[tuple[int, float | Decimal]] = (), knockouts: int = 0,
                 knockout_bonus: float | Decimal = 0, high_hands: int = 0,
                 high_hand_bonus: float | Decimal = 0) -> Decimal:
    """Fixed-table points: ``table[k-1]`` (0 past the table) times the field-size multiplier
    (the factor of the largest ``min_entrants`` <= n; 1 when none applies), rounded to
    :data:`POINT_UNIT`, plus ``knockouts * knockout_bonus + high_hands * high_hand_bonus``
    (exact, rounded to the unit).  Raises :class:`FormulaError` for a place outside 1..n."""
    return (_table_place(table, n=n, k=k, multipliers=multipliers)
            + _bonus(knockouts, knockout_bonus, high_hands, high_hand_bonus))


def place_points(config: PointsConfig, *, n: int, k: int, b: int | float | Decimal,
                 e: int | float | Decimal | None = None) -> Decimal:
    """The points place ``k`` of ``n`` scores under ``config``, without bonuses, rounded to
    :data:`POINT_UNIT`."""
    if config.kind == "table":
        return _table_place(config.table, n=n, k=k, multipliers=config.multipliers)
    frac: float | Decimal | None = config.paid_fraction
    if frac is None and config.formula == FORMULA_PRESETS["pokerstars"]:
        frac = POKERSTARS_PAID_FRACTION
    return _formula_place(config.formula, frac, n=n, k=k, b=b, e=e)


def bonus_points(config: PointsConfig, *, knockouts: int = 0, high_hands: int = 0) -> Decimal:
    """A player's own bonus points (``table`` kind: knockouts and high hands; else 0)."""
    if config.kind != "table":
        return to_points(Decimal(0))
    return _bonus(knockouts, config.knockout_bonus, high_hands, config.high_hand_bonus)


def points_text(value: Decimal | None) -> str | None:
    """League points as written: two decimals (they are exact multiples of
    :data:`POINT_UNIT`), None for None."""
    return None if value is None else f"{value:.2f}"


def league_points(config: PointsConfig, *, n: int, k: int, b: int | float | Decimal,
                  e: int | float | Decimal | None = None, knockouts: int = 0,
                  high_hands: int = 0) -> Decimal:
    """Points for a :class:`engine.tournament.structure.PointsConfig`: :func:`place_points`
    plus :func:`bonus_points`, a multiple of :data:`POINT_UNIT`."""
    return (place_points(config, n=n, k=k, b=b, e=e)
            + bonus_points(config, knockouts=knockouts, high_hands=high_hands))


def share_equally(total: Decimal | int, count: int, unit: Decimal | int = 1) -> list[Decimal]:
    """``total`` split into ``count`` shares in whole ``unit``s: equal shares rounded down,
    then the remainder one unit each to the first shares (the caller orders them: seat
    number for tied players).  The shares always sum to ``total`` when it is a whole number
    of units.

    >>> share_equally(Decimal("10.01"), 2, Decimal("0.01"))
    [Decimal('5.01'), Decimal('5.00')]
    """
    if count < 1:
        raise InvalidInputError(f"cannot share among {count} players")
    units, _ = divmod(Decimal(total), Decimal(unit))
    share, rest = divmod(int(units), count)
    return [(share + (1 if i < rest else 0)) * Decimal(unit) for i in range(count)]
