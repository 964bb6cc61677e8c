"""A live night: ``pokertable director`` (live) and two ``pokertable run --config`` table
services with ``[venue]`` and ``[console]`` (one of them with ``registration = true``),
each a real process, through a real Mosquitto; the tables are driven as a dealer drives
them, through their consoles (``pokertable ctl``'s client).

* a table with ``registration = true`` reports to the director like any other, and
  registers no player of its own (the director does);
* a local ``start`` is refused (the director starts the venue), and NEXT HAND deals
  nothing before the director's ``go``;
* once the director's ``go`` has come, NEXT HAND deals without any local start, at both
  tables, each on its own (the live director does not wait for the other table).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pi_app.cli.ctl import Client, CtlRefused
from pi_app.service.config import load_config
from pi_app.venue.broker import LocalBroker
from tests.pi_app.sim.venue_harness import ROOT_DIR, load, write_venue
from tests.ports import free_port

WAIT = 90.0  #: seconds: a loaded 2-core machine


def _env() -> dict[str, str]:
    return dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")


def _spawn(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "pi_app.cli.main", *args], cwd=ROOT_DIR,
                            env=_env(), stdout=subprocess.DEVNULL, stderr=open(log, "ab"),
                            start_new_session=True)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


class Night:
    """The venue's files, its broker, the two tables' configs and the processes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.venue, _users = write_venue(folder / "venue", tables=2, seats=6)
        port = free_port()
        self.venue.write_text(f'[broker]\nurl = "mqtt://127.0.0.1:{port}"\n'
                              + self.venue.read_text().replace(
                                  "[tournament]\n", "[tournament]\nbreak_order = [1, 2]\n"))
        self.broker = LocalBroker(load(self.venue), folder / "broker", port=port).start()
        self.procs: list[subprocess.Popen[bytes]] = []
        self.configs = {n: self._table_config(n, registration=n == 1) for n in (1, 2)}
        self.journal = folder / "director" / "director.sqlite3"

    def _table_config(self, n: int, registration: bool) -> Path:
        path = self.folder / f"table{n}.toml"
        path.write_text(f'[seats]\ncount = 6\n[venue]\nfile = "{self.venue}"\ntable = {n}\n'
                        f'[state]\ndirectory = "{self.folder / f"state{n}"}"\n'
                        f'[console]\nlisten = "127.0.0.1:{free_port()}"\n'
                        f'registration = {"true" if registration else "false"}\n')
        return path

    def start_table(self, n: int) -> Client:
        self.procs.append(_spawn(["run", "--config", str(self.configs[n])],
                                 self.folder / f"table{n}.log"))
        client = Client(load_config(str(self.configs[n]), structure_optional=True))
        deadline = time.monotonic() + WAIT
        while True:
            try:
                client.json("GET", "/api/state")
                return client
            except Exception:  # noqa: BLE001 - not listening yet
                assert time.monotonic() < deadline, "the table's console never answered"
                time.sleep(0.2)

    def start_director(self, players: int = 8) -> None:
        self.procs.append(_spawn(["director", "--config", str(self.venue), "--sim-players",
                                  str(players), "--state-dir", str(self.folder / "director")],
                                 self.folder / "director.log"))

    def reports(self) -> list[tuple[int, str, str]]:
        """(table, kind, args) of every report the director journaled."""
        if not self.journal.exists():
            return []
        try:
            with sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True) as db:
                return [(int(t), str(k), str(a)) for t, k, a in db.execute(
                    "SELECT table_no, kind, args FROM reports ORDER BY id")]
        except sqlite3.Error:
            return []

    def wait_report(self, table: int, kind: str) -> list[tuple[int, str, str]]:
        deadline = time.monotonic() + WAIT
        while True:
            rows = [r for r in self.reports() if r[0] == table and r[1] == kind]
            if rows:
                return rows
            assert time.monotonic() < deadline, f"table {table} never reported {kind}: " + \
                (self.folder / f"table{table}.log").read_text()[-2000:]
            time.sleep(0.2)

    def close(self) -> None:
        for p in self.procs:
            _stop(p)
        self.broker.stop()


@pytest.fixture
def night(tmp_path):
    n = Night(tmp_path)
    yield n
    n.close()


def test_a_live_night_deals_on_the_directors_go_and_never_before(night):
    tables = {n: night.start_table(n) for n in (1, 2)}
    # before the director: a local start is refused, NEXT HAND deals nothing
    with pytest.raises(CtlRefused, match="director starts the tournament"):
        tables[1].json("POST", "/api/start", {})
    with pytest.raises(CtlRefused, match="go"):
        tables[2].json("POST", "/api/next-hand", {})
    with pytest.raises(CtlRefused, match="director registers the players"):
        tables[1].json("POST", "/api/register", {"name": "Walk In"})
    night.start_director()
    # the table with registration = true reports like the other (its seats applied)
    for n in (1, 2):
        night.wait_report(n, "applied")
    deadline = time.monotonic() + WAIT
    while not all(tables[n].json("GET", "/api/state")["console"]["next_hand"]
                  for n in (1, 2)):
        assert time.monotonic() < deadline, "no go came from the director"
        time.sleep(0.2)
    assert not [r for r in night.reports() if r[1] == "hand_started"]  # nothing dealt
    # after the go: NEXT HAND deals at once, with no local start, at each table
    for n in (1, 2):
        tables[n].json("POST", "/api/next-hand", {})
        started = night.wait_report(n, "hand_started")
        assert started[0][2].startswith("[1,")
    with pytest.raises(CtlRefused, match="director starts the tournament"):
        tables[1].json("POST", "/api/start", {})
