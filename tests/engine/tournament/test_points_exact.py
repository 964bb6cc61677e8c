"""League points are exact (issue 12, item 9): decimals as written, a stated unit (0.01
point, half up) and a stated remainder rule for tied players (seat-number order); the
structure check of formulas still refuses what it refused."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from engine.tournament.points import (
    POINT_UNIT,
    formula_points,
    share_equally,
    table_points,
)
from engine.tournament.results import results
from tests.engine.tournament.helpers import four_players, gunpowder_text

CENT = Fraction(1, 100)


def test_decimals_are_read_as_written():
    # a float evaluator gives 0.3 // 0.1 == 2.0 (0.3 is just under 3 tenths in binary)
    assert formula_points("100 * (0.3 // 0.1)", n=10, k=1, b=10) == Decimal("300.00")
    assert formula_points("0.1 + 0.2 + k - k", n=10, k=1, b=10) == Decimal("0.30")


def test_points_are_rounded_half_up_to_the_unit():
    # 12.5 x 1.25 = 15.625 exactly: half up gives 15.63 (a float's round() gives 15.62)
    assert table_points((12.5,), n=10, k=1, multipliers=((10, 1.25),)) == Decimal("15.63")
    assert formula_points("1/3", n=3, k=1, b=1) == Decimal("0.33")
    assert formula_points("2/3", n=3, k=1, b=1) == Decimal("0.67")


def _round_half_up(x: Fraction) -> Fraction:
    """The oracle: ``x`` >= 0 to whole hundredths, half up, in fractions."""
    return Fraction((x / CENT + Fraction(1, 2)).__floor__()) * CENT


hundredths = st.integers(0, 10**7).map(lambda c: c / 100)  # as TOML hands them over


@given(st.lists(hundredths, min_size=1, max_size=12), st.integers(1, 30), st.data())
def test_table_points_equal_the_exact_product(table, n, data):
    k = data.draw(st.integers(1, n))
    factor = data.draw(st.integers(1, 400).map(lambda c: c / 100))
    ko, bonus = data.draw(st.integers(0, 9)), data.draw(hundredths)
    got = table_points(table, n=n, k=k, multipliers=((1, factor),), knockouts=ko,
                       knockout_bonus=bonus)
    base = Fraction(Decimal(repr(table[k - 1]))) if k <= len(table) else Fraction(0)
    want = (_round_half_up(base * Fraction(Decimal(repr(factor))))
            + ko * Fraction(Decimal(repr(bonus))))
    assert isinstance(got, Decimal) and Fraction(got) == want
    assert got == got.quantize(POINT_UNIT)


@given(st.integers(0, 10**9), st.integers(1, 10))
def test_tied_shares_sum_to_the_places_points(cents, count):
    total = Decimal(cents) * POINT_UNIT
    shares = share_equally(total, count, POINT_UNIT)
    assert sum(shares) == total
    assert max(shares) - min(shares) <= POINT_UNIT
    assert shares == sorted(shares, reverse=True)  # the remainder goes to the first seats
    assert all(s == s.quantize(POINT_UNIT) for s in shares)


@given(st.integers(1, 2000), st.data(), st.integers(1, 10_000))
def test_formulas_agree_with_the_real_value_within_half_a_unit(n, data, b):
    k = data.draw(st.integers(1, n))
    got = formula_points("pokerstars", n=n, k=k, b=b, paid_fraction=1)
    real = 10 * math.sqrt(n) / math.sqrt(k) * (1 + math.log10(b + 0.25))
    assert abs(float(got) - real) <= 0.005 + 1e-9
    assert got == formula_points("pokerstars", n=n, k=k, b=b, paid_fraction=1)


def test_players_tied_for_a_place_share_its_points_the_remainder_by_seat():
    text = gunpowder_text()
    t = four_players(text[:text.index("[points]")]
                     + '[points]\nkind = "table"\ntable = [100, 60, 40, 25.01]\n')
    t.correct_stacks({1: 10000, 2: 600, 3: 600, 4: 14000})
    t.hand_started(0.0)
    t.hand_finished(20.0, {1: 11200, 2: 0, 3: 0, 4: 14000})
    pts = {e.seat: t.league_points().get(e.entry_id) for e in t.entrants}
    # places 3 and 4 score 40 + 25.01 = 65.01: 32.51 to seat 2, 32.50 to seat 3
    assert (pts[2], pts[3]) == (Decimal("32.51"), Decimal("32.50"))
    assert pts[1] is None and pts[4] is None  # still in
    rows = {r["seat"]: r["points"] for r in results(t)}
    assert (rows[2], rows[3]) == ("32.51", "32.50")
