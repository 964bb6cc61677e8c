"""The league's season rules: CSV rows checked (each refusal naming the row), players
matched by name, standings by exact points and the stated tie-break, CSV export."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InvalidInputError, PokerTableError
from engine.tournament.season import (
    SeasonInputError,
    SeasonResult,
    check_player,
    name_key,
    parse_csv,
    parse_points,
    standings,
    standings_csv,
)
from tests.data_paths import DATA

HEADER = "date,player,place,points\n"


def night(player: str, place: int | None, points: str, day: int = 6, **kw: object) -> SeasonResult:
    return SeasonResult(dt.date(2026, 1, day), "", player, place, Decimal(points), **kw)  # type: ignore[arg-type]


def test_the_sample_league_file_parses_with_every_optional_column():
    rows = parse_csv((DATA / "season" / "league.csv").read_text())
    assert len(rows) == 7
    assert rows[0] == SeasonResult(dt.date(2026, 1, 6), "", "Ann", 1, Decimal("201.07"), 2, True)
    assert rows[-1].event == "side game" and rows[-1].points == Decimal("0.20")


def test_standings_match_names_and_sum_points_exactly():
    table = standings(parse_csv((DATA / "season" / "league.csv").read_text()))
    by_name = {s.player: s for s in table}
    assert by_name["Ann"].points == Decimal("343.25") and by_name["Ann"].nights == 2
    assert by_name["Bob"].points == Decimal("343.25")
    # 0.10 + 0.20 would be 0.30000000000000004 in floats; the season's sums are exact
    dee_cyd = standings([night("Cyd", 3, "0.10"), night("Cyd", 3, "0.20", day=13)])
    assert dee_cyd[0].points == Decimal("0.30") and str(dee_cyd[0].points) == "0.30"


def test_tie_break_wins_then_best_finish_then_knockouts_then_shared_rank():
    rows = [night("Ann", 2, "10"), night("Ann", 2, "10", day=13),           # 20, no win
            night("Bob", 1, "15"), night("Bob", 5, "5", day=13),            # 20, one win
            night("Cyd", 3, "12"), night("Cyd", 4, "8", day=13, knockouts=1),  # 20, best 3
            night("Dee", 3, "12"), night("Dee", 4, "8", day=13),               # 20, best 3
            night("Eve", 6, "30", day=20), night("Fay", 7, "1", day=20),
            night("Gus", 7, "1", day=27)]
    table = [(s.rank, s.player) for s in standings(rows)]
    assert table == [(1, "Eve"), (2, "Bob"), (3, "Ann"), (4, "Cyd"), (5, "Dee"),
                     (6, "Fay"), (6, "Gus")]


def test_name_key_folds_case_spaces_and_compatibility_forms():
    assert name_key("  Ann   LEE ") == name_key("ann lee") == name_key("ＡＮＮ LEE")
    assert name_key("Jon") != name_key("John")


@pytest.mark.parametrize(("body", "fragment"), [
    ("2026-01-06,Ann,1,20\n2026-13-01,Bob,2,10\n", "row 3: date '2026-13-01'"),
    ("2026-01-06,Ann,first,20\n", "row 2: place 'first'"),
    ("2026-01-06,Ann,0,20\n", "row 2: place '0'"),
    ("2026-01-06,Ann,1,1e3\n", "row 2: points '1e3'"),
    ("2026-01-06,Ann,1,NaN\n", "row 2: points 'NaN'"),
    ("2026-01-06,Ann,1,12.345\n", "row 2: points '12.345'"),
    ("2026-01-06,Ann,1,-4\n", "row 2: points -4 is outside"),
    ("2026-01-06,Ann,1\n", "row 2: 3 cells, the header has 4"),
    ("2026-01-06,,1,20\n", "row 2: player must not be empty"),
    ("2026-01-06,An\u202en,1,20\n", "row 2: player must not hold a bidirectional control"),
    ("2026-01-06,Ann,1,20\n\n2026-01-06,ANN,2,10\n", "row 3: ANN is on the night"),
    ("2026-01-06,Ann,1,20\n2026-01-06,Bob,1,10\n", "row 3: place 1 is given twice"),
    ("2026-01-06,\"Ann,1,20\n", "not valid CSV"),
])
def test_a_malformed_row_is_refused_naming_it(body, fragment):
    with pytest.raises(SeasonInputError) as info:
        parse_csv(HEADER + body)
    assert fragment in str(info.value)
    assert isinstance(info.value, PokerTableError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(("header", "fragment"), [
    ("", "row 1: the file is empty"),
    ("date,player,points\n", "missing column(s) place"),
    ("date,player,place,points,knockout\n", "unknown column(s) 'knockout'"),
    ("date,player,place,points,points\n", "column(s) points given twice"),
])
def test_a_bad_header_is_refused_naming_row_one(header, fragment):
    with pytest.raises(SeasonInputError, match="row 1") as info:
        parse_csv(header)
    assert fragment in str(info.value)


def test_an_empty_place_is_a_result_without_a_place():
    (row,) = parse_csv(HEADER + "2026-01-06,Ann,,0\n")
    assert row.place is None and standings([row])[0].best is None


@given(st.integers(min_value=0, max_value=100_000_000))
def test_points_text_round_trips_exactly(cents):
    text = f"{cents // 100}.{cents % 100:02d}"
    assert parse_points(text) == Decimal(cents) / 100
    assert str(parse_points(text)) == text


def test_standings_csv_has_a_header_and_defuses_formulas():
    text = standings_csv(standings([night("=cmd()", 1, "20"), night("Bob", 2, "10")]))
    lines = text.splitlines()
    assert lines[0] == "rank,player,points,nights,wins,best,knockouts,bounties"
    assert lines[1] == "1,'=cmd(),20.00,1,1,1,0,0" and lines[2].startswith("2,Bob,10.00")


def test_season_error_is_an_input_error():
    assert issubclass(SeasonInputError, InvalidInputError)


def test_the_name_limit_is_the_tables():
    from engine.table.console_base import MAX_NAME as TABLE_MAX_NAME
    from engine.tournament.season import MAX_NAME

    assert MAX_NAME == TABLE_MAX_NAME
    assert check_player("x" * MAX_NAME) == "x" * MAX_NAME
    with pytest.raises(SeasonInputError, match="at most 24"):
        check_player("x" * (MAX_NAME + 1))
