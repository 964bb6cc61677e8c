"""A resume plays the structure recorded in its journal, whatever became of the file:
``run --config`` (the simulated table), ``run --service`` and ``state`` with the structure
file edited or deleted between a stop and the resume give one warning on stderr and the
same tournament.  The file is needed only to start a new tournament: without a journal,
a missing structure file is one line and exit 2, and nothing is created.
(Issue: ``run --config`` refused a journal whose structure file had been deleted.)"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.tournament.structure_file import structure_source
from pi_app.service.config import default_config_text
from tests.data_paths import REPO
from tests.pi_app.cli.helpers import assert_one_error_line, run_cli
from tests.pi_app.sim.test_recorded_structure import _bigger_blinds

WARNING = "the tournament goes on with the copy recorded in its journal"


def _config(tmp_path: Path, seats: int = 2) -> Path:
    """A simulated table of ``seats`` on the structure file ``house.toml`` beside it."""
    text = (default_config_text()
            .replace('directory = ""', f'directory = "{tmp_path / "state"}"')
            .replace("count = 6", f"count = {seats}")
            .replace('structure = "gunpowder"', 'structure = "house.toml"'))
    assert 'structure = "house.toml"' in text and f"count = {seats}" in text
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "house.toml").write_text(structure_source("phat-ace")[0], encoding="utf-8")
    return path


def _change(structure: Path, change: str) -> None:
    if change == "edited":
        text = structure.read_text(encoding="utf-8")
        structure.write_text(_bigger_blinds(text), encoding="utf-8")
        assert structure.read_text(encoding="utf-8") != text
    else:
        structure.unlink()


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if WARNING in line]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The last stdout line of the whole simulated run, never stopped."""
    cfg = _config(tmp_path_factory.mktemp("ref"))
    r = run_cli(["run", "--config", str(cfg), "--headless"], REPO)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("change", ["edited", "deleted"])
def test_run_config_resumes_with_the_recorded_structure(tmp_path: Path, change: str,
                                                        reference: str) -> None:
    cfg = _config(tmp_path)
    killed = run_cli(["run", "--config", str(cfg), "--headless"], REPO,
                     POKERTABLE_TEST_KILL_AT="journal_commit:60")
    assert killed.returncode == -9
    _change(tmp_path / "house.toml", change)
    resumed = run_cli(["run", "--config", str(cfg), "--headless"], REPO)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "(resuming " in resumed.stdout
    assert resumed.stdout.strip().splitlines()[-1] == reference
    found = _warnings(resumed.stderr)
    assert len(found) == 1, resumed.stderr
    assert ("has changed" if change == "edited" else "cannot be read now") in found[0]


@pytest.mark.parametrize("change", ["edited", "deleted"])
def test_state_warns_and_shows_the_recorded_tournament(tmp_path: Path, change: str) -> None:
    cfg = _config(tmp_path)
    killed = run_cli(["run", "--config", str(cfg), "--headless"], REPO,
                     POKERTABLE_TEST_KILL_AT="journal_commit:60")
    assert killed.returncode == -9
    journal = tmp_path / "state" / "sim-journal.db"
    before = run_cli(["state", "--journal", str(journal), "--json"], REPO)
    assert before.returncode == 0 and not _warnings(before.stderr), before.stderr
    _change(tmp_path / "house.toml", change)
    after = run_cli(["state", "--journal", str(journal), "--json"], REPO)
    assert after.returncode == 0, after.stderr
    assert json.loads(after.stdout) == json.loads(before.stdout)
    assert len(_warnings(after.stderr)) == 1, after.stderr


def test_a_new_tournament_needs_its_structure_file(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    (tmp_path / "house.toml").unlink()
    for argv in (["run", "--config", str(cfg), "--headless"],
                 ["run", "--config", str(cfg), "--service"],
                 ["config", "check", str(cfg)]):
        r = run_cli(argv, REPO)
        assert r.returncode == 2, (argv, r.stderr[-2000:])
        assert_one_error_line(r.stderr, "tournament.structure", "house.toml")
    assert not (tmp_path / "state").exists()


def test_a_finished_journal_is_not_moved_aside_without_a_structure_to_start_again(
        tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    done = run_cli(["run", "--config", str(cfg), "--headless"], REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    (tmp_path / "house.toml").unlink()
    journal = tmp_path / "state" / "sim-journal.db"
    before = journal.read_bytes()
    r = run_cli(["run", "--config", str(cfg), "--headless"], REPO)
    assert r.returncode == 2
    assert_one_error_line(r.stderr, "no such structure file")
    assert journal.read_bytes() == before
    assert not (tmp_path / "state" / "previous").exists()


def _serve(cfg: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``run --service --config cfg`` until READY, then SIGTERM."""
    sock_path = str(tmp_path / "notify.sock")
    if os.path.exists(sock_path):
        os.unlink(sock_path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(60)
    env = dict(os.environ, NOTIFY_SOCKET=sock_path, SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy", PYTHONPATH=str(REPO))
    p = subprocess.Popen([sys.executable, "-m", "pi_app.cli.main", "run", "--service",
                          "--config", str(cfg)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    try:
        got = ""
        deadline = time.monotonic() + 60
        while "READY=1" not in got and time.monotonic() < deadline:
            got += sock.recv(4096).decode()
        assert "READY=1" in got
        time.sleep(0.5)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
        sock.close()
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def _tournament(journal: Path) -> tuple[object, object]:
    r = run_cli(["state", "--journal", str(journal), "--json"], REPO)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    clock = report["screen"]["clock"]
    return (report["summary"]["final_stacks"],
            [clock[k] for k in ("small_blind", "big_blind", "next_big_blind")])


@pytest.mark.parametrize("change", ["edited", "deleted"])
def test_run_service_resumes_with_the_recorded_structure(tmp_path: Path, change: str) -> None:
    cfg = _config(tmp_path, seats=4)
    first = _serve(cfg, tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    assert not _warnings(first.stderr)
    journal = tmp_path / "state" / "journal.db"
    before = _tournament(journal)
    _change(tmp_path / "house.toml", change)
    again = _serve(cfg, tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    found = _warnings(again.stderr)
    assert len(found) == 1, again.stderr
    assert "differs from the tournament in the journal" not in again.stderr
    assert _tournament(journal) == before
