"""``[venue]`` of a table config (pi_app/service/venue_config.py): one table of a venue,
checked against the venue's file; a bad section is one line naming the key."""

from __future__ import annotations

import pytest

from pi_app.service.config import ConfigError, parse_config
from tests.pi_app.sim.venue_harness import write_venue


@pytest.fixture
def venue_file(tmp_path):
    path, _users = write_venue(tmp_path / "venue", tables=2, seats=6)
    return path


def _config(venue_file, table=2, seats=6, file=None):
    return (f'[seats]\ncount = {seats}\n[venue]\nfile = "{file or venue_file}"\n'
            f'table = {table}\n')


def test_a_table_of_a_venue_has_no_players_of_its_own_and_the_director_seats_them(
        venue_file):
    cfg = parse_config(_config(venue_file), "table.toml")
    assert cfg.venue is not None and cfg.venue.table == 2
    assert cfg.venue.username == "table2" and cfg.venue.director == "director"
    settings = cfg.table_settings()
    assert settings.players == {} and settings.venue_table == 2
    assert settings.venue_director == "director" and settings.structure == "gunpowder"


def test_a_relative_venue_file_is_taken_from_the_config_folder(venue_file):
    cfg = parse_config(_config(venue_file, file="venue/venue.toml"), "table.toml",
                       base_dir=venue_file.parent.parent)
    assert cfg.venue is not None and cfg.venue.file == venue_file


def test_a_table_of_its_own_has_no_venue():
    cfg = parse_config("[seats]\ncount = 6\n", "table.toml")
    assert cfg.venue is None and cfg.table_settings().venue_table == 0


@pytest.mark.parametrize("change, words", [
    ({"table": 3}, "venue.table: .* has tables 1..2, got 3"),
    ({"table": 0}, "venue.table"),
    ({"seats": 8}, "venue.table: the venue gives table 2 seats 1..6"),
    ({"file": "/nonexistent/venue.toml"}, "venue.file: .*cannot read"),
])
def test_a_bad_venue_section_is_one_line_naming_the_key(venue_file, change, words):
    with pytest.raises(ConfigError, match=words) as info:
        parse_config(_config(venue_file, **change), "table.toml")
    assert str(info.value).startswith("table.toml: ") and "\n" not in str(info.value)


def test_a_password_file_others_may_read_is_refused(venue_file):
    (venue_file.parent / "secrets" / "table2.password").chmod(0o644)
    with pytest.raises(ConfigError, match="venue.table: .*password"):
        parse_config(_config(venue_file), "table.toml")


def test_config_check_of_a_venue_table_names_the_venue_and_its_structure(venue_file, capsys):
    """The operator checking a table Pi's file sees which venue, table and broker user it
    joins, and the venue's structure (not the table file's own, which the venue overrides)."""
    from pi_app.cli.main import main

    path = venue_file.parent.parent / "table.toml"
    path.write_text(_config(venue_file))
    assert main(["config", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"venue table 2 of {venue_file} (broker " in out and "user table2)" in out
    assert "structure gunpowder" in out and len(out.strip().splitlines()) == 1
