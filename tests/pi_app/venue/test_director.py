"""The director node (pi_app/venue/director.py, ``pokertable director``) through a real
Mosquitto, against model tables that take its commands over the broker: a venue played to
a winner, the same result when the director is SIGKILLed and resumed from its journal,
and a bad venue file refused in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from engine.table.venue_state import NIGHT_PATTERN
from engine.tournament.structure_file import load_structure
from pi_app.cli.main import main
from pi_app.venue.director import Director
from pi_app.venue.director_journal import DirectorJournal, DirectorJournalError, mint_night
from tests.pi_app.venue.venue_fixture import Venue

PLAYERS = [f"P{i:02d}" for i in range(1, 11)]
TIMEOUT = 300.0  # seconds: a loaded 2-core machine; a run takes a few seconds


@pytest.fixture
def venue(tmp_path):
    v = Venue(tmp_path)
    yield v
    v.close()


def check_result(result, players: list[str]) -> None:
    assert sorted(result["places"]) == sorted(players)
    assert sorted(result["places"].values())[0] == 1
    assert list(result["places"].values()).count(1) == 1
    assert result["hands_played"] > 0 and len(result["history_sha256"]) == 64


def test_the_director_plays_a_venue_to_a_winner_through_the_broker(venue):
    venue.start_tables()
    director = Director(venue.config, PLAYERS, 5, venue.folder / "state")
    assert director.node.link.clean_start  # a new night: last night's session dropped
    result = director.run(TIMEOUT)
    check_result(result, PLAYERS)
    assert NIGHT_PATTERN.fullmatch(director.night)
    assert {n.node.night for n in venue.nodes} == {director.night}  # the tables joined it
    again = Director(venue.config, PLAYERS, 5, venue.folder / "state")
    assert again.night == director.night and not again.node.link.clean_start
    again.node.close()
    again.journal.close()
    assert result["tables_broken"] == 1  # two tables: the final table breaks one
    stored = json.loads((venue.folder / "state" / "result.json").read_text())
    assert stored == result
    chips = load_structure("mini").starting_stack * len(PLAYERS)
    assert venue.chips_at_tables() == chips  # every chip at the winner's table
    assert all(n.finished.wait(10) for n in venue.nodes)
    assert [e for n in venue.nodes for e in n.errors] == []


def _director_process(venue: Venue, state: str, rounds: bool = True
                      ) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "pi_app.cli.main", "director", "--config", str(venue.path),
         "--sim-players", str(len(PLAYERS)), "--seed", "5", "--state-dir",
         str(venue.folder / state), "--timeout", str(TIMEOUT),
         *(["--rounds"] if rounds else [])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()})


def test_a_director_killed_mid_night_resumes_from_its_journal_to_the_same_result(
        tmp_path):
    first = Venue(tmp_path / "plain")
    try:
        first.start_tables()
        proc = _director_process(first, "state")
        out, err = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 0, err
        plain = json.loads(out.strip().splitlines()[-1])
    finally:
        first.close()
    check_result(plain, PLAYERS)
    second = Venue(tmp_path / "killed")
    try:
        second.start_tables()
        resumed = kill_mid_night_and_resume(second)
    finally:
        second.close()
    assert resumed == plain


def kill_mid_night_and_resume(venue: Venue, rounds: bool = True) -> dict:
    """Start the director of ``venue`` (its tables running), SIGKILL it once it has applied
    25 reports, start it again on the same journal and return its result; checks that the
    night went on after the restart, no node saw an error and every chip is at a table."""
    proc = _director_process(venue, "state", rounds=rounds)
    journal = venue.folder / "state" / "director.sqlite3"
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and _reports(journal) < 25:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    applied = _reports(journal)
    assert applied >= 25  # killed mid-night, not before nor after it
    night = _night(journal)
    assert night is not None and NIGHT_PATTERN.fullmatch(night)
    proc = _director_process(venue, "state", rounds=rounds)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 0, err
    assert _night(journal) == night  # the restart kept its night id
    assert {n.node.night for n in venue.nodes} == {night}
    assert _reports(journal) > applied  # the night went on after the restart
    assert [e for n in venue.nodes for e in n.errors] == []
    assert venue.chips_at_tables() == plain_chips(len(PLAYERS))
    return json.loads(out.strip().splitlines()[-1])


def plain_chips(players: int) -> int:
    return load_structure("mini").starting_stack * players


def _reports(journal) -> int:
    if not journal.exists():
        return 0
    try:
        j = DirectorJournal(journal)
    except Exception:  # noqa: BLE001 - the file is being created by the other process
        return 0
    try:
        return j.count()
    finally:
        j.close()


def _night(journal) -> str | None:
    j = DirectorJournal(journal)
    try:
        return j.night_id()
    finally:
        j.close()


def test_a_new_journal_mints_a_night_id_and_a_reopened_one_keeps_it(tmp_path):
    path = tmp_path / "d.sqlite3"
    first, second = mint_night(1_796_083_200.0), mint_night(1_796_083_200.0)
    assert first.startswith("20261201-") and first != second  # 64 random bits each
    j = DirectorJournal(path)
    assert j.night_id() is None
    assert j.night(first) == (first, True)
    j.close()
    j = DirectorJournal(path)
    assert j.night(second) == (first, False)  # a restart: the journaled one
    j.close()


def test_a_journal_of_another_night_is_refused(tmp_path):
    j = DirectorJournal(tmp_path / "d.sqlite3")
    j.begin({"players": ["A", "B"], "seed": 1})
    with pytest.raises(DirectorJournalError, match="another night"):
        j.begin({"players": ["A", "B"], "seed": 2})
    j.close()


@pytest.mark.parametrize("change, message", [
    ("seats = 6", "seats = 12"),
    ("structure = \"mini\"", "structure = 7"),
])
def test_a_bad_venue_file_is_one_line_and_exit_2(tmp_path, capsys, change, message):
    from tests.pi_app.venue.venue_fixture import write_venue

    path = write_venue(tmp_path, 2, 6, 1883)
    path.write_text(path.read_text().replace(change, message, 1))
    assert main(["director", "--config", str(path), "--sim-players", "8"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and "Traceback" not in err


def test_the_director_wants_players(tmp_path, capsys):
    from tests.pi_app.venue.venue_fixture import write_venue

    path = write_venue(tmp_path, 2, 6, 1883)
    assert main(["director", "--config", str(path)]) == 2
    assert "--sim-players" in capsys.readouterr().err
    assert main(["director", "--config", str(path), "--sim-players", "13"]) == 2
    assert "2..12" in capsys.readouterr().err


def test_the_journal_and_its_wal_are_for_their_owner_only(tmp_path):
    import os
    import stat

    path = tmp_path / "d.sqlite3"
    old = os.umask(0o022)  # a usual umask: files others may read unless made otherwise
    try:
        j = DirectorJournal(path)
        j.begin({"players": ["A", "B"], "seed": 1})
        parts = [p for p in (path, tmp_path / "d.sqlite3-wal", tmp_path / "d.sqlite3-shm")
                 if p.exists()]
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in parts}
        j.close()
    finally:
        os.umask(old)
    assert len(parts) >= 2, modes  # the journal and at least its write-ahead log
    assert all(mode & 0o077 == 0 for mode in modes.values()), modes
