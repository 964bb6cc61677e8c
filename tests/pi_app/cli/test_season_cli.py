"""``pokertable season``: standings as JSON and CSV, CSV import (a malformed file is one
line naming the row, exit 2, nothing changed), merge, ``--config`` or $STATE_DIRECTORY."""

from __future__ import annotations

import json
import shutil

from tests.data_paths import DATA
from tests.pi_app.cli.helpers import assert_one_error_line, run_main

LEAGUE = DATA / "season" / "league.csv"


def test_import_then_standings_json_in_rank_order(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "st"))
    rc, out, _ = run_main(["season", "import", str(LEAGUE)], capsys)
    assert rc == 0 and "7 results of 3 nights" in out
    rc, out, _ = run_main(["season", "standings", "--json"], capsys)
    data = json.loads(out)
    assert rc == 0 and len(out.splitlines()) == 1
    assert [(d["player"], d["points"]) for d in data] == [
        ("Ann", "343.25"), ("Bob", "343.25"), ("Cyd", "116.09"), ("Dee", "0.20"),
        ("Cyd Lee", "0.10")]
    assert [d["rank"] for d in data] == [1, 2, 3, 4, 5]
    rc, out, _ = run_main(["season", "standings", "--csv"], capsys)
    assert out.splitlines()[1] == "1,Ann,343.25,2,1,1,2,1"
    rc, out, _ = run_main(["season", "standings"], capsys)
    assert "then more nights won" in out and "next night 2026-01-20" in out


def test_a_malformed_csv_is_one_line_exit_2_and_changes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    run_main(["season", "import", str(LEAGUE)], capsys)
    before = (tmp_path / "season.db").read_bytes()
    bad = tmp_path / "bad.csv"
    bad.write_text("date,player,place,points\n2026-03-03,Ann,1,20\n2026-03-03,Bob,two,9\n")
    rc, out, err = run_main(["season", "import", str(bad)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, "bad.csv: row 3: place 'two'")
    rc, out, _ = run_main(["season", "standings", "--json"], capsys)
    assert "2026-03-03" not in out and len(json.loads(out)) == 5
    assert (tmp_path / "season.db").read_bytes() == before


def test_config_names_the_state_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "elsewhere"))
    cfg = tmp_path / "table.toml"
    shutil.copy(DATA.parents[1] / "config" / "mock-table.toml", cfg)
    text = cfg.read_text()
    assert 'directory = ""' in text
    cfg.write_text(text.replace('directory = ""', 'directory = "night"', 1))
    rc, _, err = run_main(["season", "import", "--config", str(cfg), str(LEAGUE)], capsys)
    assert rc == 0, err
    assert (tmp_path / "night" / "season.db").is_file()
    assert not (tmp_path / "elsewhere").exists()


def test_merge_from_the_command_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    run_main(["season", "import", str(LEAGUE)], capsys)
    rc, out, _ = run_main(["season", "merge", "Cyd Lee", "Cyd"], capsys)
    assert rc == 0 and "1 results moved" in out
    rc, _, err = run_main(["season", "merge", "Bob", "Ann"], capsys)
    assert rc == 2
    assert_one_error_line(err, "both played")


def test_season_without_a_command_is_one_line(capsys):
    rc, _, err = run_main(["season"], capsys)
    assert rc == 2
    assert_one_error_line(err, "standings, import, merge")


def test_the_import_counts_in_words_one_result_of_one_night(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    one = tmp_path / "one.csv"
    one.write_text("date,player,place,points\n2026-03-03,Ann,1,20\n")
    rc, out, _ = run_main(["season", "import", str(one)], capsys)
    assert rc == 0 and out.strip() == "imported 1 result of 1 night"
