"""Payouts are exact: percentages read as written, the remainder to first place, the sum
always the pool (issue: money is exact)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tournament.payouts import PayoutError, split_pool


def test_the_example_pays_452_323_225():
    assert split_pool(1000, (45.2, 32.3, 22.5)) == [452, 323, 225]


def test_remainder_goes_to_first_place():
    assert split_pool(101, (50, 30, 20)) == [51, 30, 20]
    assert split_pool(1000, (40, 30, 30), unit=25) == [400, 300, 300]
    assert split_pool(1010, (40, 30, 30), unit=25) == [410, 300, 300]


@st.composite
def tables(draw):
    """A payout table in tenths of a percent summing to 100 (as a structure writes it)."""
    n = draw(st.integers(1, 9))
    cuts = sorted(draw(st.lists(st.integers(1, 999), min_size=n - 1, max_size=n - 1,
                                unique=True)))
    tenths = [b - a for a, b in zip([0, *cuts], [*cuts, 1000], strict=True)]
    return [t / 10 for t in sorted(tenths, reverse=True)]


@given(st.integers(0, 10**9), tables())
def test_payouts_always_sum_to_the_pool(pool, table):
    amounts = split_pool(pool, table)
    assert sum(amounts) == pool and all(a >= 0 for a in amounts)
    assert all(isinstance(a, int) for a in amounts)


@pytest.mark.parametrize("pool,table", [(-1, (100,)), (10, (50, 40)), (10, ("x",))])
def test_bad_pools_and_tables_are_refused(pool, table):
    with pytest.raises(PayoutError):
        split_pool(pool, table)
