"""The venue file (pi_app/venue/config.py): the shipped example, valid variants, every
broken example in tests/data/venue/broken refused with one line naming the key, and the
password files."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from engine.errors import InvalidInputError, PokerTableError
from engine.tournament.seating import new_venue
from pi_app.cli.main import main
from pi_app.venue.config import (
    DEFAULT_BROKER,
    VenueConfigError,
    load_venue,
    parse_venue,
    read_password,
)
from pi_app.venue.tls import make_ca
from tests.data_paths import REPO, data
from tests.pi_app.cli.helpers import run_cli

BROKEN = sorted(data("venue", "broken").glob("*.toml"))
VALID = sorted(data("venue", "valid").glob("*.toml"))


def expected(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name}: first line must be '# expect: ...'"
    return first[len("# expect: "):]


def test_there_are_many_broken_examples():
    assert len(BROKEN) >= 30


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_a_broken_venue_is_refused_with_one_line_naming_the_key(path, capsys):
    status = main(["venue", "check", str(path)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"pokertable: error: {path}: ")
    assert expected(path) in lines[0]
    assert "hunter2" not in err  # a password written where it must not be is not echoed
    with pytest.raises(VenueConfigError) as info:
        load_venue(path)
    assert isinstance(info.value, PokerTableError) and isinstance(info.value, ValueError)


def with_passwords(tmp_path: Path, source: Path, mode: int = 0o600) -> Path:
    """A copy of the venue file ``source`` in ``tmp_path`` with each password file it
    names made there (mode ``mode``), as on the director's machine."""
    path = tmp_path / source.name
    path.write_text(source.read_text())
    cfg = load_venue(path)
    for n, f in enumerate([cfg.director_password_file]
                          + [t.password_file for t in cfg.tables]):
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(f"secret-{n}\n")
        f.chmod(mode)
    if cfg.ca_file is not None:  # a TLS venue: the CA's certificate where it says
        make_ca(cfg.ca_file.parent, ["127.0.0.1"])
    return path


@pytest.mark.parametrize("source", VALID, ids=[p.stem for p in VALID])
def test_a_valid_venue_is_accepted(source, capsys, tmp_path):
    path = with_passwords(tmp_path, source)
    assert main(["venue", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: valid: venue ")
    cfg = load_venue(path)
    venue = new_venue(cfg.seats, cfg.break_order, cfg.max_difference)
    assert len(venue.tables) == len(cfg.tables)


def test_the_shipped_example_is_three_tables_of_nine_on_the_loopback_broker():
    cfg = load_venue(REPO / "config" / "venue.toml")
    assert cfg.seats == [9, 9, 9]
    assert [t.username for t in cfg.tables] == ["table1", "table2", "table3"]
    assert cfg.broker_url == DEFAULT_BROKER
    assert (cfg.broker_host, cfg.broker_port, cfg.tls) == ("127.0.0.1", 1883, False)
    assert cfg.break_order == (1, 2, 3) and cfg.max_difference == 1
    assert cfg.structure == "gunpowder"
    secrets = REPO / "config" / "venue"  # relative: /etc/pokertable/venue/ beside /etc's copy
    assert [t.password_file for t in cfg.tables] == [secrets / f"table{n}.password"
                                                      for n in (1, 2, 3)]
    assert cfg.director_password_file == secrets / "director.password"


def test_the_readme_venue_check_works_from_a_fresh_clone():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pokertable venue check FILE" in readme and "config/venue.toml" in readme
    assert not (REPO / "config" / "venue").exists()  # a fresh clone holds no secrets
    proc = run_cli(["venue", "check", "config/venue.toml"], REPO)
    assert proc.returncode == 0, proc.stderr
    valid, note = proc.stdout.splitlines()
    assert valid.startswith("config/venue.toml: valid: venue 'League night'")
    assert note.startswith("none of the 4 password files in ")
    assert "not on this machine" in note and "docs/venue.md" in note
    assert proc.stderr == ""


def test_one_table_check_away_from_its_pi_says_its_file_is_not_here(capsys):
    assert main(["venue", "check", str(REPO / "config" / "venue.toml"), "--table", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("the password file in ") and "not on this machine" in out[1]


def test_relative_paths_are_taken_from_the_venue_files_folder():
    cfg = load_venue(data("venue", "valid", "tls_two_tables.toml"))
    here = data("venue", "valid")
    assert cfg.tls and cfg.broker_port == 8883 and cfg.broker_host == "broker.venue.lan"
    assert cfg.ca_file == here / "secrets" / "venue-ca.crt"
    assert cfg.tables[0].password_file == here / "secrets" / "table1.password"
    assert cfg.break_order == (2, 1) and cfg.seats == [9, 6]


def test_the_defaults_of_a_small_venue():
    text = ('[director]\nusername = "d"\npassword_file = "/p"\n'
            '[tables.1]\nseats = 6\nusername = "t1"\npassword_file = "/q"\n'
            '[tables.2]\nseats = 6\nusername = "t2"\npassword_file = "/r"\n')
    cfg = parse_venue(text, "small.toml")
    assert cfg.broker_url == "mqtt://127.0.0.1:1883" and cfg.break_order == (1, 2)
    assert cfg.max_difference == 1 and cfg.structure == "gunpowder"
    assert [t.name for t in cfg.tables] == ["Table 1", "Table 2"]


@pytest.mark.parametrize("url, host", [("mqtt://[::1]:1884", "::1"),
                                       ("mqtt://localhost", "localhost")])
def test_broker_hosts_by_name_or_ipv6(url, host):
    text = (f'[broker]\nurl = "{url}"\n[director]\nusername = "d"\npassword_file = "/p"\n'
            '[tables.1]\nseats = 6\nusername = "t1"\npassword_file = "/q"\n')
    assert parse_venue(text).broker_host == host


def test_a_venue_file_that_is_not_a_regular_file_is_refused(tmp_path):
    with pytest.raises(VenueConfigError, match="directory"):
        load_venue(tmp_path)
    with pytest.raises(VenueConfigError, match="cannot read"):
        load_venue(tmp_path / "missing.toml")
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 40 + "]" * 40 + "\n")
    with pytest.raises(VenueConfigError, match="nested deeper"):
        load_venue(deep)


def test_a_password_is_read_from_a_file_only_its_owner_may_read(tmp_path):
    path = tmp_path / "table1.password"
    path.write_text("s3cret word\n")
    path.chmod(0o600)
    assert read_password(path) == "s3cret word"
    path.chmod(0o640)
    with pytest.raises(VenueConfigError, match="chmod 600") as info:
        read_password(path)
    assert "s3cret" not in str(info.value)
    assert isinstance(info.value, InvalidInputError)


@pytest.mark.parametrize("content, message", [
    (b"", "first line must hold the password"),
    (b"\nsecret\n", "first line must hold the password"),
    (b"x" * 300, "larger than the limit"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_a_bad_password_file_is_refused(tmp_path, content, message):
    path = tmp_path / "p"
    path.write_bytes(content)
    path.chmod(0o600)
    with pytest.raises(VenueConfigError, match=message):
        read_password(path)


@pytest.mark.skipif(sys.platform != "linux", reason="a named pipe as Linux makes it")
def test_a_password_file_that_is_a_pipe_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(VenueConfigError, match="named pipe"):
        read_password(fifo)


@pytest.mark.parametrize("change, key, message", [
    ("missing", "tables.2.password_file", "cannot read"),
    ("0644", "tables.2.password_file", "chmod 600"),
    ("empty", "tables.2.password_file", "first line must hold the password"),
    ("director", "director.password_file", "chmod 600"),
])
def test_check_refuses_a_password_file_missing_or_open_to_others(tmp_path, capsys, change,
                                                                  key, message):
    path = with_passwords(tmp_path, data("venue", "valid", "three_tables.toml"))
    secrets = tmp_path / "secrets"
    before = sorted(p.name for p in tmp_path.rglob("*"))
    if change == "missing":
        (secrets / "table2.password").unlink()
    elif change == "0644":
        (secrets / "table2.password").chmod(0o644)
    elif change == "empty":
        (secrets / "table2.password").write_text("")
    else:
        (secrets / "director.password").chmod(0o640)
    assert main(["venue", "check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert f"{path}: {key}" in err and message in err and "Traceback" not in err
    assert "secret-" not in err  # never the password itself
    after = sorted(p.name for p in tmp_path.rglob("*"))
    assert set(after) <= set(before)  # nothing written (no journal, no state folder)


def test_check_on_a_tables_pi_reads_that_tables_password_file_only(tmp_path, capsys):
    path = with_passwords(tmp_path, data("venue", "valid", "three_tables.toml"))
    for other in ("director", "table1", "table3"):
        (tmp_path / "secrets" / f"{other}.password").unlink()
    assert main(["venue", "check", str(path)]) == 2
    assert "director.password_file" in capsys.readouterr().err
    assert main(["venue", "check", str(path), "--table", "2"]) == 0
    assert "valid" in capsys.readouterr().out
    (tmp_path / "secrets" / "table2.password").chmod(0o644)
    assert main(["venue", "check", str(path), "--table", "2"]) == 2
    assert "tables.2.password_file" in capsys.readouterr().err
    assert main(["venue", "check", str(path), "--table", "4"]) == 2
    assert "there is no table 4 (tables 1..3)" in capsys.readouterr().err
