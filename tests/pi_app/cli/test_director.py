"""``pokertable director`` (pi_app/cli/director.py) as an operator meets it: a director that
cannot log in to the broker (no broker on the port, or a wrong password) says so in one
line on stderr and keeps trying, and a ``--timeout`` that never ends is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pi_app.cli.main import main
from pi_app.venue.broker import LocalBroker
from pi_app.venue.config import load_venue
from tests.pi_app.venue.venue_fixture import write_venue
from tests.ports import free_port

ROOT_DIR = Path(__file__).resolve().parents[3]
RUN_FOR = "6"  # seconds: the director tries again every second or two meanwhile


def _director(path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT_DIR))
    return subprocess.run([sys.executable, "-m", "pi_app.cli.main", "director", "--config",
                           str(path), "--sim-players", "4", "--timeout", RUN_FOR],
                          cwd=ROOT_DIR, env=env, capture_output=True, text=True, timeout=120)


def test_a_director_without_a_broker_says_so_once_and_keeps_trying(tmp_path):
    port = free_port()
    done = _director(write_venue(tmp_path, 2, 6, port))
    lines = done.stderr.strip().splitlines()
    said = [line for line in lines if "cannot log in to the broker" in line]
    assert len(said) == 1, done.stderr
    assert f"cannot reach the broker at 127.0.0.1:{port}" in said[0] and "still trying" in said[0]
    assert done.returncode == 1 and "did not finish in time" in lines[-1]  # it kept trying
    assert done.stdout == "" and "Traceback" not in done.stderr


def test_a_director_with_a_wrong_password_says_so_once_and_keeps_trying(tmp_path):
    port = free_port()
    path = write_venue(tmp_path, 2, 6, port)
    with LocalBroker(load_venue(path), tmp_path / "broker", port=port):
        (tmp_path / "secrets" / "director.password").write_text("not-the-password\n")
        done = _director(path)
    said = [line for line in done.stderr.splitlines() if "cannot log in" in line]
    assert len(said) == 1, done.stderr
    assert "as director" in said[0] and "Not authorized" in said[0]
    assert "not-the-password" not in done.stderr and "pw-director" not in done.stderr
    assert done.returncode == 1 and done.stdout == ""


@pytest.mark.parametrize("option,value,words", [
    *(("--timeout", v, "must be a finite number of seconds above 0")
      for v in ("nan", "inf", "-inf", "0", "-5", "soon")),
    *(("--seed", v, "must be a whole number 0..9223372036854775807")  # the venue file's bound
      for v in ("-1", "99999999999999999999", "9223372036854775808", "x", "1.5", ""))])
def test_a_timeout_or_seed_out_of_bounds_is_refused(tmp_path, capsys, option, value, words):
    path = write_venue(tmp_path, 2, 6, free_port())
    with pytest.raises(SystemExit) as info:
        main(["director", "--config", str(path), "--sim-players", "4", f"{option}={value}"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert f"{option}: {words}" in err
    assert not (tmp_path / "director-state").exists()  # nothing started, no journal


def test_a_night_begun_resumes_without_its_players_given_again(tmp_path, capsys):
    from pi_app.venue.director import Director

    port = free_port()
    path = write_venue(tmp_path, 2, 6, port)
    venue = load_venue(path)
    Director(venue, ["Ann", "Bob", "Cyd"], venue.seed, venue.state_directory,
             live=True).journal.close()  # as the command begins a night: live
    assert main(["director", "--config", str(path), "--timeout", "2"]) == 1  # no broker
    err = capsys.readouterr().err
    assert "did not finish in time" in err and "register the players" not in err
    (tmp_path / "director-state" / "director.sqlite3").unlink()
    assert main(["director", "--config", str(path)]) == 2
    assert "--console HOST:PORT" in capsys.readouterr().err
