"""The smaller inputs of the hostile-input issue, each with the input that broke it: one
clear line and exit 2 (or a safe output), never a traceback or a silent choice."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pi_app.service import journal_files
from pi_app.service.config import ConfigError, default_config_text, parse_config
from pi_app.service.journal_files import unavailable_from
from tests.data_paths import DATA
from tests.pi_app.cli.helpers import assert_one_error_line, run_main

VALID = DATA / "tournament" / "valid_mixed.toml"


def test_sim_journal_dev_null_says_it_is_not_a_file(capsys) -> None:
    rc, out, err = run_main(["sim", "--journal", "/dev/null", "--hands", "1", "--direct"],
                            capsys)
    assert rc == 2 and out == ""
    line = assert_one_error_line(err, "/dev/null", "not a regular file")
    assert "remove" not in line


def _structure(tmp_path: Path, old: str, new: str) -> str:
    text = VALID.read_text(encoding="utf-8")
    assert old in text
    f = tmp_path / "s.toml"
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(f)


def test_structure_show_never_prints_terminal_escapes(tmp_path: Path, capsys) -> None:
    f = _structure(tmp_path, 'name = "Test mixed"', 'name = "Evil \\u001b[2J\\u001b[31mred\\u202e"')
    for argv in (["structure", "show", f], ["structure", "check", f]):
        rc, out, err = run_main(argv, capsys)
        assert "\x1b" not in out + err and "\u202e" not in out + err, argv
        if rc == 0:
            assert "\\x1b[2J" in out
        else:
            assert rc == 2


def test_a_starting_stack_of_2e20_is_refused(tmp_path: Path, capsys) -> None:
    f = _structure(tmp_path, "500 = 2", "500 = 400000000000000000")
    rc, out, err = run_main(["structure", "check", f], capsys)
    assert rc == 2 and "more than 1000000000000" in err


@pytest.mark.parametrize("key", ["01", " 1", "+1"])
def test_a_seat_key_with_a_leading_zero_is_refused(key: str) -> None:
    base = default_config_text()
    text = base + f'\n[seats.names]\n1 = "Ann"\n"{key}" = "Bob"\n'
    with pytest.raises(ConfigError, match="without leading zeros"):
        parse_config(text, "table.toml")


def test_phh_replay_of_files_that_are_not_phh_exits_2(tmp_path: Path, capsys) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a hand history\n")
    rc, out, err = run_main(["phh", "replay", str(notes)], capsys)
    assert rc == 2 and out == ""
    assert_one_error_line(err, "notes.txt", "not a PHH file")


def test_starting_on_a_full_disk_says_disk_full(tmp_path: Path, monkeypatch) -> None:
    """SQLite reports a -shm or -wal it cannot grow as a "disk I/O error"."""
    class Full:
        f_bavail, f_frsize = 0, 4096

    err = sqlite3.OperationalError("disk I/O error")
    assert unavailable_from(err, tmp_path / "j.db").reason == "disk I/O error"
    monkeypatch.setattr(journal_files.os, "statvfs", lambda _p: Full())
    assert unavailable_from(err, tmp_path / "j.db").reason == "disk full"


@pytest.mark.parametrize("seed", ["9" * 5000, "x" * 5000, "-" + "9" * 60])
def test_a_huge_seed_is_refused_in_a_short_line(capsys, seed: str) -> None:
    """A seed of thousands of characters is refused without echoing it whole."""
    rc, out, err = run_main(["sim", "--seed", seed, "--hands", "1", "--direct"], capsys)
    assert rc == 2 and out == ""
    line = assert_one_error_line(err, "seed")
    assert len(line) < 200 and seed not in line


def test_the_ctl_status_line_counts_one_player_in_the_singular() -> None:
    from pi_app.cli.ctl import _status_line

    doc = {"table": "Table 1", "players_left": 1, "entries": 6, "registered": ["Ann"],
           "clock": {"remaining_seconds": 61, "level": 3, "small_blind": 100,
                     "big_blind": 200, "running": True}}
    assert "1 player left of 6" in _status_line(doc)
    assert "2 players left of 6" in _status_line({**doc, "players_left": 2})
