"""League points formulas: bounded exponents, every step finite, math errors typed and
naming the formula, and :func:`engine.tournament.points.check_formula` for ``structure check``."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from engine.errors import InvalidInputError
from engine.tournament.points import (
    FORMULA_PRESETS,
    MAX_EXPONENT,
    FormulaError,
    _compiled,
    check_formula,
    compile_formula,
    formula_points,
)


@pytest.mark.parametrize("text, fragment", [
    ("9**9**9**9", "exponent"),
    ("2**(n*n*n)", "exponent"),
    (f"2**{MAX_EXPONENT + 1}", "exponent"),
    ("1/(k-k)", "division by zero"),
    ("n//(k-k)", "division by zero"),
    ("n%(k-k)", "division by zero"),
    ("(k-k)**-1", "division by zero"),
    ("(-8)**0.5", "complex"),
    ("sqrt(-k)", "math domain error"),
    ("log(k-k)", "math domain error"),
    ("log(n, 1)", "division by zero"),
    ("1e999", "not a finite number"),
    ("1" + "0" * 400, "too large"),
    ("10.0**100*10.0**100*10.0**100*10.0**100", "not a finite number"),
    ("round(n, 10**9)", "out of range"),
    ("1/(k-3)", "division by zero"),  # fails only at k=3
])
def test_bad_formula_fails_quickly_with_a_typed_error(text: str, fragment: str) -> None:
    start = time.process_time()
    with pytest.raises(FormulaError) as info:
        check_formula(text)
    assert time.process_time() - start < 5  # a hang would be minutes; not a speed test
    msg = str(info.value)
    assert fragment in msg and "formula " in msg and isinstance(info.value, InvalidInputError)
    assert text[:20] in msg


def test_runtime_errors_at_evaluation_are_typed() -> None:
    f = compile_formula("1/(k-k)")
    with pytest.raises(FormulaError, match="1/\\(k-k\\)"):
        f.evaluate(n=10, k=1, b=20, e=20)
    with pytest.raises(FormulaError, match="exponent"):
        formula_points("9**9**9**9", n=10, k=1, b=20)


def test_an_overflow_names_the_step_that_overflowed() -> None:
    with pytest.raises(FormulaError, match=r": k \* 1e\+200 \* 1e\+200 is too large"):
        compile_formula("k*1e200*1e200").evaluate(n=10, k=1, b=20, e=20)
    with pytest.raises(FormulaError, match=r": max\(k, 1e\+200\) \* 1e\+200 is too large"):
        compile_formula("max(k, 1e200)*1e200").evaluate(n=10, k=1, b=20, e=20)


def test_a_formula_is_compiled_once_for_every_place() -> None:
    text = "(n - k + 1) * 7 / n"  # not used by another test: its own cache entry
    _compiled.cache_clear()
    points = [formula_points(text, n=9, k=k, b=20) for k in range(1, 10)]
    assert points[0] == Decimal(7) and points[-1] == Decimal("0.78")
    info = _compiled.cache_info()
    assert (info.misses, info.hits) == (1, 8)


@pytest.mark.parametrize("text", [*FORMULA_PRESETS, *FORMULA_PRESETS.values(),
                                  "n-k+1", "2**k", f"2**-{MAX_EXPONENT}", "max(0, 5-k)",
                                  "round(100/k, 2)", "(n-k)**2/n"])
def test_good_formulas_pass_the_check(text: str) -> None:
    check_formula(text)


def test_long_formula_is_named_shortly() -> None:
    text = "+".join(["k/(k-k)"] * 60)
    with pytest.raises(FormulaError) as info:
        check_formula(text)
    assert len(str(info.value)) < 250


def test_formula_values_are_unchanged() -> None:
    # 201.0721..., 7.0710...: the same values as before, now rounded to the 0.01 unit
    assert formula_points("pokerstars", n=100, k=1, b=10) == Decimal("201.07")
    assert formula_points("neau", n=20, k=1, b=10, e=10) == Decimal("7.07")
    assert formula_points("2**k", n=10, k=3, b=1) == Decimal("8.00")
