"""Table configuration: the embedded default, the annotated example, valid variants, and
every broken example in tests/data/config/broken rejected with one clear line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hardware.shoe.factory import ShoeConfig
from hardware.tv import TVSettings
from pi_app.cli.main import main
from pi_app.service.config import ConfigError, default_config_text, load_config, parse_config
from tests.pi_app.service.helpers import REPO, env_with

DATA = REPO / "tests" / "data" / "config"
BROKEN = sorted((DATA / "broken").glob("*.toml"))


def expected(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name}: first line must be '# expect: ...'"
    return first[len("# expect: "):]


def test_there_are_many_broken_examples() -> None:
    assert len(BROKEN) >= 30


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_example_is_rejected_with_one_clear_line(path: Path, capsys) -> None:
    status = main(["config", "check", str(path)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"pokertable: error: {path}: ")  # names the file ...
    assert expected(path) in lines[0]                          # ... and the key
    with pytest.raises(ConfigError):
        load_config(path)


def test_cli_exit_status_without_traceback() -> None:
    bad = DATA / "broken" / "seats_count_12.toml"
    proc = subprocess.run([sys.executable, "-m", "pi_app.cli.main", "config", "check", str(bad)],
                          cwd=REPO, env=env_with(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (f"pokertable: error: {bad}: seats.count: must be 2..10, "
                                   "got 12")


def test_missing_file(tmp_path: Path, capsys) -> None:
    assert main(["config", "check", str(tmp_path / "none.toml")]) == 2
    assert "none.toml: cannot read" in capsys.readouterr().err


def test_embedded_default_is_a_simulated_table(capsys) -> None:
    cfg = load_config(None, env={})
    assert set(cfg.backends.values()) == {"mock"} and cfg.shoe_port == "sim"
    assert cfg.seats == (1, 2, 3, 4, 5, 6) and cfg.state_dir == Path.cwd() / "state"
    assert cfg.journal_path.name == "journal.db"
    assert main(["config", "default"]) == 0
    assert capsys.readouterr().out == default_config_text()
    systemd = load_config(None, env={"STATE_DIRECTORY": "/var/lib/pokertable"})
    assert systemd.state_dir == Path("/var/lib/pokertable")


def test_annotated_example_is_valid(capsys) -> None:
    path = REPO / "config" / "example-table.toml"
    assert main(["config", "check", str(path)]) == 0
    assert "valid" in capsys.readouterr().out
    cfg = load_config(path)
    assert all(b == "real" for b in cfg.backends.values())
    assert cfg.names == {1: "Ann", 2: "Bob", 4: "Dee"}
    assert cfg.displays[5].driver == "sh1106" and cfg.displays[5].mux_channel == 4
    devices = cfg.device_settings()
    assert devices.shoe == ShoeConfig(backend="serial", port="/dev/pokertable-shoe",
                                      baudrate=115200)
    assert devices.displays.channels == {s: s - 1 for s in range(1, 7)}
    assert devices.displays.backend == "luma" and devices.displays.threaded
    assert devices.buttons[0].pin_factory == "lgpio"
    assert devices.buttons[0].pin_map.seats[1] == {"fold": 4, "check_call": 17, "bet_raise": 27}
    assert devices.tv == TVSettings(size=(1920, 1080), fps=30, driver="auto")
    assert devices.test_deck_seed == cfg.deck_seed


def test_valid_variants() -> None:
    path = DATA / "valid" / "ten_seats_named.toml"
    cfg = load_config(path)
    assert cfg.seats == tuple(range(1, 11)) and cfg.names == {1: "Ann", 10: "Jo"}
    assert Path(cfg.structure) == REPO / "engine" / "tournament" / "presets" / "mini.toml"
    assert cfg.state_dir == path.parent / "relative-state"
    assert cfg.displays[2].address == 0x3D and cfg.displays[10].bus is None
    displays = cfg.display_settings()
    assert displays.buses == {1: 11, 2: 11} and displays.channels == {10: 7}
    assert displays.addresses[2] == 0x3D and displays.addresses[1] == 0x3C


def test_errors_name_the_source_given() -> None:
    with pytest.raises(ConfigError, match=r"^table\.toml: seats\.count: must be 2\.\.10, got 12$"):
        parse_config("[seats]\ncount = 12\n", "table.toml")


def test_table_settings_for_the_real_core() -> None:
    cfg = parse_config('[seats]\nin_use = [2, 5, 7]\n[seats.names]\n5 = "Eve"\n'
                       '[tournament]\nstructure = "phat-ace"\nseed = 42\n[table]\nname = "T"\n',
                       "t.toml")
    assert cfg.player_names() == {2: "Player 2", 5: "Eve", 7: "Player 7"}
    settings = cfg.table_settings()
    assert settings.players == cfg.player_names() and settings.seed == 42
    assert settings.structure == "phat-ace" and settings.name == "T"
