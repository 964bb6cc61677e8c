"""``phh replay`` skips files not named .phh/.phhs; ``shoe soak`` and ``sim`` reject
impossible numbers with one line, exit 2, before anything starts."""

from __future__ import annotations

import json
import shutil

import pytest

import pi_app.cli.shoe as shoe_cmd
from pi_app.sim.phh_files import NOT_PHH
from tests.data_paths import data
from tests.pi_app.cli.helpers import assert_one_error_line, listing, run_main

PHH = data("phh")


def test_phh_replay_skips_a_file_that_is_not_phh(tmp_path, capsys) -> None:
    src = tmp_path / "SOURCE.md"
    src.write_text("# where these hands come from\n")
    good = tmp_path / "hand.phh"
    shutil.copy(PHH / "wrong_winner.phh", good)
    rc, out, err = run_main(["phh", "replay", str(src), str(good)], capsys)
    rows = out.splitlines()
    first = json.loads(rows[0])
    assert first == {"file": str(src), "hand": None, "status": "skipped", "reason": NOT_PHH,
                     "finishing_stacks": None}
    assert NOT_PHH == "not a PHH file (.phh or .phhs)"
    judged = [json.loads(r) for r in rows[1:-1]]
    assert judged and all(r["file"] == str(good) for r in judged)
    skipped = 1 + sum(r["status"] == "skipped" for r in judged)
    assert rows[-1].endswith(f"{skipped} skipped")
    assert rc in (0, 1) and err == ""


def test_phh_replay_only_non_phh_files(tmp_path, capsys) -> None:
    f = tmp_path / "notes.txt"
    f.write_bytes(b"\xff\xfe not even text")
    rc, out, err = run_main(["phh", "replay", str(f)], capsys)
    assert rc == 2 and out == ""  # nothing to replay is a mistake, not a pass
    assert_one_error_line(err, "notes.txt", "not a PHH file")


def test_phh_replay_malformed_phh_still_exit_2(tmp_path, capsys) -> None:
    rc, out, err = run_main(["phh", "replay", str(PHH / "broken.phh")], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, "broken.phh")
    d = tmp_path / "dir.phh"
    d.mkdir()
    rc, out, err = run_main(["phh", "replay", str(d)], capsys)
    assert rc == 2
    line = assert_one_error_line(err, "dir.phh", "Is a directory")
    assert "Errno" not in line


@pytest.mark.parametrize("argv, fragment", [
    (["--cards", "10000001"], "--cards must be 0..10,000,000"),
    (["--cards", "-5"], "--cards must be 0..10,000,000"),
    (["--corrupt", "-0.1"], "--corrupt must be a probability"),
    (["--drop", "1.5"], "--drop must be a probability"),
    (["--duplicate", "nan"], "--duplicate must be a probability"),
    (["--drop", "inf"], "--drop must be a probability"),
])
def test_shoe_soak_rejects_impossible_numbers(monkeypatch, capsys, argv, fragment) -> None:
    from hardware.shoe import soak

    def never(*a, **k):
        raise AssertionError("the soak must not start")

    monkeypatch.setattr(soak, "run_soak", never)
    rc, out, err = run_main(["shoe", "soak", *argv], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, fragment)


def test_shoe_soak_limit_is_inclusive() -> None:
    import argparse
    args = argparse.Namespace(cards=shoe_cmd.MAX_SOAK_CARDS, corrupt=0.0, drop=0.5,
                              duplicate=0.0)
    shoe_cmd.check_soak_args(args)  # no error


def test_sim_refuses_more_than_ten_players_at_one_table(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_main(["sim", "--players", "11", "--journal", "j.db"], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, "--players must be 2..10 at one table, got 11",
                          "(see 'pokertable sim --help')")
    assert listing(tmp_path) == set()


@pytest.mark.parametrize("argv, message", [
    (["--players", "1"], "--players must be 2..10 at one table, got 1"),
    (["--players", "11"], "--players must be 2..10 at one table, got 11"),
    (["--venue", "--tables", "2", "--players", "19"], "--players must be 2..18 at 2 tables of 9, "
                                                      "got 19"),
    (["--venue", "--players", "1"], "--players must be 2..27 at 3 tables of 9, got 1"),
])
def test_sim_players_errors_share_one_format(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_main(["sim", *argv], capsys)
    assert rc == 2 and out == ""
    assert err == f"pokertable: error: {message} (see 'pokertable sim --help')\n"
    assert listing(tmp_path) == set()


def test_sim_players_help_gives_the_ranges_the_errors_give(capsys):
    rc, out, _ = run_main(["sim", "--help"], capsys)
    assert rc == 0
    text = " ".join(out.split())
    assert "players, 2..10 at one table (default 6); with --venue 2..9 x --tables" in text
    assert "2..640" not in text


@pytest.mark.parametrize("argv, fragment", [
    (["--seed", "-1"], "seed must be at least 0"),
    (["--players", "1"], "--players must be 2..10 at one table, got 1"),
    (["--players", "641"], "--players must be 2..10 at one table, got 641"),
    (["--hands", "0"], "hands must be at least 1"),
    (["--hands", "-3"], "hands must be at least 1"),
])
def test_sim_rejects_bad_numbers_at_argument_time(tmp_path, monkeypatch, capsys, argv,
                                                  fragment) -> None:
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_main(["sim", *argv, "--journal", "j.db"], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, fragment, "(see 'pokertable sim --help')")
    assert listing(tmp_path) == set()


@pytest.mark.parametrize("extra", [[], ["--venue-table", "1", "--venue-config", "venue.toml"]],
                         ids=["one table", "venue table"])
def test_sim_journal_in_a_missing_folder_is_refused_and_nothing_is_made(tmp_path, monkeypatch,
                                                                         capsys, extra):
    monkeypatch.chdir(tmp_path)
    journal = tmp_path / "no" / "such" / "j.db"
    rc, out, err = run_main(["sim", "--journal", str(journal), "--hands", "2", "--direct",
                             *extra], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, f"--journal {journal}: no folder {journal.parent}")
    assert listing(tmp_path) == set()


def test_sim_journal_under_a_file_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plain").write_text("x")
    rc, out, err = run_main(["sim", "--journal", "plain/j.db", "--hands", "2", "--direct"],
                            capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, "--journal plain/j.db: no folder")
    assert listing(tmp_path) == {"plain"}
