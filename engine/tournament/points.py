"""League points: formulas evaluated safely, and fixed tables with multipliers and bonuses.

Variables of a formula: ``n`` entrants, ``k`` finishing place (1 = winner),
``b`` buy-in, ``e`` the player's total spend (buy-in plus re-entries and add-ons).

Formulas are parsed with :mod:`ast` and walked by a small interpreter that knows only
numbers, the four names above, ``+ - * / // % **``, unary minus/plus and calls of the
whitelisted functions ``sqrt, log10, log, min, max, round``.  Anything else (attribute
access, subscripts, other names, keywords, lambdas, comparisons ...) is rejected when the
formula is compiled; ``eval``/``compile`` are never used.

>>> round(formula_points("pokerstars", n=100, k=1, b=10), 3)
201.072
>>> round(formula_points("neau", n=20, k=1, b=10, e=10), 3)
7.071
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import InvalidInputError
from engine.tournament.structure import PointsConfig

#: Named formulas (the text a structure file may give as ``formula``).
FORMULA_PRESETS = {
    # PokerStars leader-board formula, paid to the top 15% of the field.
    "pokerstars": "10*sqrt(n)/sqrt(k)*(1+log10(b+0.25))",
    # Dr. Neau's formula, paid to every place.
    "neau": "sqrt(n*b*b/e)/(k+1)",
}
POKERSTARS_PAID_FRACTION = 0.15

VARIABLES = ("n", "k", "b", "e")
FUNCTIONS: dict[str, Callable[..., float]] = {
    "sqrt": math.sqrt, "log10": math.log10, "log": math.log,
    "min": min, "max": max, "round": lambda x, nd=0.0: round(x, int(nd)),
}
_ARITY = {"sqrt": (1, 1), "log10": (1, 1), "log": (1, 2), "min": (1, 8), "max": (1, 8),
          "round": (1, 2)}
_BINOPS: dict[type, Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b, ast.Pow: lambda a, b: a ** b,
}
MAX_FORMULA_LENGTH = 500
#: The largest |exponent| of ``**`` (our bound: ``9**9**9**9`` must fail at once, not hang
#: or overflow); every intermediate result must also be a finite real number.
MAX_EXPONENT = 100
#: Sample values :func:`check_formula` evaluates a formula for: a field of 10, every place.
CHECK_VALUES = {"n": 10, "b": 20, "e": 20}


def _name(text: str) -> str:
    """The formula quoted for a message, cut to 60 characters."""
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")


class FormulaError(InvalidInputError):
    """A formula that is not allowed, or that cannot be evaluated for the given values."""


@dataclass(frozen=True)
class Formula:
    """A checked formula; call :meth:`evaluate` with values for n, k, b, e."""

    text: str
    tree: ast.Expression

    def evaluate(self, **values: float) -> float:
        """Value of the formula.  Raises :class:`FormulaError` on a missing variable or a math
        error (division by zero, log of zero, overflow)."""
        unknown = set(values) - set(VARIABLES)
        if unknown:
            raise FormulaError(f"unknown variable(s) {', '.join(sorted(unknown))}")
        try:
            env = {k: float(v) for k, v in values.items()}
            result = _eval(self.tree.body, env)
        except _EvalProblem as exc:
            raise FormulaError(f"formula {_name(self.text)} cannot be evaluated for "
                               f"{values}: {exc}") from None
        except FormulaError:
            raise
        except (ArithmeticError, ValueError, TypeError, RecursionError) as exc:
            why = "division by zero" if isinstance(exc, ZeroDivisionError) else str(exc)
            raise FormulaError(f"formula {_name(self.text)} cannot be evaluated for "
                               f"{values}: {why}") from None
        if isinstance(result, complex) or not math.isfinite(result):
            raise FormulaError(f"formula {_name(self.text)} gives no real number for {values}")
        return float(result)


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


def _finite(value: object, what: str) -> float:
    if isinstance(value, complex):
        raise _EvalProblem(f"{what} gives a complex number")
    try:
        f = float(value)  # type: ignore[arg-type]
    except OverflowError:
        raise _EvalProblem(f"{what} is too large") from None
    if not math.isfinite(f):
        raise _EvalProblem(f"{what} is not a finite number")
    return f


def _eval(node: ast.AST, env: dict[str, float]) -> float:
    """Evaluate a checked tree; every step's result is a finite float, and ``**`` takes
    exponents of at most :data:`MAX_EXPONENT` in size (checked before computing)."""
    if isinstance(node, ast.Constant):
        assert isinstance(node.value, (int, float))  # checked by _check
        return _finite(node.value, f"the number {str(node.value)[:20]}")
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise FormulaError(f"variable {node.id!r} has no value")
        return _finite(env[node.id], f"variable {node.id}")
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, env), _eval(node.right, env)
        op = type(node.op)
        if op is ast.Pow and abs(right) > MAX_EXPONENT:
            raise _EvalProblem(f"exponent {right:g} is larger than {MAX_EXPONENT}")
        if op in (ast.Div, ast.FloorDiv, ast.Mod) and right == 0:
            raise _EvalProblem("division by zero")
        if op is ast.Pow and left == 0 and right < 0:
            raise _EvalProblem("division by zero (0 to a negative power)")
        return _finite(_BINOPS[op](left, right), ast.unparse(node)[:40])
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        args = [_eval(a, env) for a in node.args]
        if node.func.id == "round" and len(args) == 2 and abs(args[1]) > MAX_EXPONENT:
            raise _EvalProblem(f"round to {args[1]:g} places is out of range")
        return _finite(FUNCTIONS[node.func.id](*args), ast.unparse(node)[:40])
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


def paid_places(n: int, fraction: float | None) -> int:
    """Places that score under a ``fraction`` of the field (None: all ``n``).

    Our choice: the top ``floor(fraction * n)`` places, at least 1 (the winner always scores).
    """
    if fraction is None:
        return n
    return max(1, math.floor(fraction * n + 1e-9))


def formula_points(formula: str, *, n: int, k: int, b: float, e: float | None = None,
                   paid_fraction: float | None = None) -> float:
    """Points for place ``k`` of ``n`` with buy-in ``b`` and spend ``e`` (default ``b``).

    ``formula`` is a preset name (:data:`FORMULA_PRESETS`) or formula text.  For the
    ``pokerstars`` preset the top 15% is applied unless ``paid_fraction`` says otherwise.
    Places outside the paid places score 0.
    """
    if not 1 <= k <= n:
        raise FormulaError(f"place {k} is outside 1..{n}")
    if formula == "pokerstars" and paid_fraction is None:
        paid_fraction = POKERSTARS_PAID_FRACTION
    text = FORMULA_PRESETS.get(formula, formula)
    if k > paid_places(n, paid_fraction):
        return 0.0
    return compile_formula(text).evaluate(n=n, k=k, b=b, e=b if e is None else e)


def table_points(table: tuple[float, ...] | list[float], *, n: int, k: int,
                 multipliers: tuple[tuple[int, float], ...] = (), knockouts: int = 0,
                 knockout_bonus: float = 0.0, high_hands: int = 0,
                 high_hand_bonus: float = 0.0) -> float:
    """Fixed-table points: ``table[k-1]`` (0 past the table) times the field-size multiplier
    (the factor of the largest ``min_entrants`` <= n; 1 when none applies), plus
    ``knockouts * knockout_bonus + high_hands * high_hand_bonus``."""
    if not 1 <= k <= n:
        raise FormulaError(f"place {k} is outside 1..{n}")
    base = table[k - 1] if k <= len(table) else 0.0
    factor = 1.0
    for min_entrants, f in sorted(multipliers):
        if n >= min_entrants:
            factor = f
    return base * factor + knockouts * knockout_bonus + high_hands * high_hand_bonus


def league_points(config: PointsConfig, *, n: int, k: int, b: float, e: float | None = None,
                  knockouts: int = 0, high_hands: int = 0) -> float:
    """Points for a :class:`engine.tournament.structure.PointsConfig`."""
    if config.kind == "table":
        return table_points(config.table, n=n, k=k, multipliers=config.multipliers,
                            knockouts=knockouts, knockout_bonus=config.knockout_bonus,
                            high_hands=high_hands, high_hand_bonus=config.high_hand_bonus)
    frac = config.paid_fraction
    if frac is None and config.formula == FORMULA_PRESETS["pokerstars"]:
        frac = POKERSTARS_PAID_FRACTION
    if k > paid_places(n, frac):
        return 0.0
    return compile_formula(config.formula).evaluate(n=n, k=k, b=b, e=b if e is None else e)
