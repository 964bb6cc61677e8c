"""The season in SQLite: an import is one transaction, a night is added once, spellings are
merged, points stay exact, reading a state directory without a season creates nothing."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from decimal import Decimal

import pytest

from engine.input_file import InputFileError
from engine.tournament.season import SeasonInputError
from pi_app.console.archive import night_date, record_season
from pi_app.service.season_store import (
    Season,
    default_state_dir,
    read_standings,
    season_path,
    tournament_rows,
)
from tests.data_paths import DATA

LEAGUE = DATA / "season" / "league.csv"


def table(season: Season) -> list[tuple[int, str, str]]:
    return [(s.rank, s.player, str(s.points)) for s in season.standings()]


def test_import_then_standings_and_next_night(tmp_path):
    with Season(season_path(tmp_path)) as season:
        assert season.import_csv(LEAGUE) == (3, 7)
        assert table(season)[:3] == [(1, "Ann", "343.25"), (2, "Bob", "343.25"),
                                     (3, "Cyd", "116.09")]
        assert season.next_night() == dt.date(2026, 1, 20)
        assert [n[2] for n in season.nights()] == ["league.csv"] * 3


def test_a_bad_row_late_in_the_file_changes_nothing(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(LEAGUE.read_text().replace("2026-01-13,Dee,1,0.20", "2026-01-13,Dee,1,0.2x"))
    with Season(season_path(tmp_path)) as season:
        with pytest.raises(SeasonInputError, match=r"bad.csv: row 8: points"):
            season.import_csv(bad)
        assert season.standings() == [] and season.nights() == []


def test_a_night_already_in_the_season_is_refused_whole(tmp_path):
    with Season(season_path(tmp_path)) as season:
        season.import_csv(LEAGUE)
        before = table(season)
        again = tmp_path / "again.csv"
        again.write_text("date,player,place,points\n2026-02-03,Ann,1,9\n2026-01-06,Eve,4,1\n")
        with pytest.raises(SeasonInputError, match="night of 2026-01-06 is already"):
            season.import_csv(again)
        assert table(season) == before and len(season.nights()) == 3


def test_merge_two_spellings_and_later_nights_follow(tmp_path):
    with Season(season_path(tmp_path)) as season:
        season.import_csv(LEAGUE)
        assert season.merge("cyd lee", "Cyd") == 1
        (cyd,) = [s for s in season.standings() if s.player == "Cyd"]
        assert cyd.points == Decimal("116.19") and cyd.nights == 2 and cyd.bounties == 1
        season.add_results(tournament_rows(
            [{"place": 1, "name": "Cyd  LEE", "points": "10.00", "knockouts": 3,
              "bounty": True}], dt.date(2026, 1, 20), "archive-1"), "table")
        (cyd,) = [s for s in season.standings() if s.player == "Cyd"]
        assert cyd.points == Decimal("126.19") and cyd.wins == 1 and cyd.knockouts == 3
        assert "Cyd Lee" not in [s.player for s in season.standings()]


def test_a_merge_that_cannot_be_changes_nothing(tmp_path):
    with Season(season_path(tmp_path)) as season:
        season.import_csv(LEAGUE)
        before = table(season)
        with pytest.raises(SeasonInputError, match="both played on 2026-01-06"):
            season.merge("Bob", "Ann")
        with pytest.raises(SeasonInputError, match="no player 'Zed'"):
            season.merge("Zed", "Ann")
        with pytest.raises(SeasonInputError, match="one player already"):
            season.merge("ANN", "ann")
        assert table(season) == before


def test_the_csv_goes_through_the_bounded_reader(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with Season(season_path(tmp_path)) as season, \
            pytest.raises(InputFileError, match="named pipe"):
        season.import_csv(fifo)


def test_reading_a_state_directory_without_a_season_creates_nothing(tmp_path):
    assert read_standings(tmp_path / "none") == ([], None)
    assert not (tmp_path / "none").exists()
    assert default_state_dir({"STATE_DIRECTORY": "/a:/b"}).as_posix() == "/a"
    assert default_state_dir({}).name == "state"


def test_an_ended_tournament_is_one_night_of_the_season(tmp_path):
    rows = [{"place": 1, "name": "Ann", "points": "201.07", "knockouts": 2, "bounty": True},
            {"place": 2, "name": "Bob", "points": "142.18", "knockouts": 0, "bounty": False},
            {"place": None, "name": "Cyd", "points": None, "knockouts": 0, "bounty": False}]
    late = dt.datetime(2026, 1, 7, 1, 30)  # half past one: still the night of the 6th
    record_season(tmp_path, rows, "2026-01-07-013000", late)
    record_season(tmp_path, rows, "2026-01-07-013000", late)  # refused, logged, no change
    standings, next_night = read_standings(tmp_path)
    assert [(s.player, str(s.points), s.best) for s in standings] == [
        ("Ann", "201.07", 1), ("Bob", "142.18", 2), ("Cyd", "0.00", None)]
    assert next_night == dt.date(2026, 1, 13) and night_date(late) == dt.date(2026, 1, 6)


def test_a_broken_season_file_does_not_stop_the_end_of_a_night(tmp_path, caplog):
    shutil.copy(LEAGUE, season_path(tmp_path))  # not a database
    record_season(tmp_path, [{"place": 1, "name": "Ann", "points": "1.00"}], "x",
                  dt.datetime(2026, 1, 6, 23))
    assert "not added to the season" in caplog.text
