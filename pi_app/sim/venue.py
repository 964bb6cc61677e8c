"""The simulated venue: ``pokertable sim --venue --tables 3 --players 24 --seed S
--until-winner --json [--broker URL --venue-config FILE]``.

An orchestrator, no poker of its own: it writes a ``venue.toml`` and one password file per
user (mode 600, random passwords) in a temporary folder, starts Mosquitto on a free
loopback port (:class:`pi_app.venue.broker.LocalBroker`; with ``--broker`` it uses that
broker and the venue file it was set up for instead), spawns the director
(``pokertable director``) and each table (``pokertable sim --venue-table N``) as separate
processes, waits for the director's result, stops everything and returns the result:
``{"hands_played", "places", "moves", "tables_broken", "history_sha256"}``.

:class:`SimVenue` holds the pieces so the tests can break them on purpose: kill the broker
and start it again, SIGKILL the director or a table and resume it from its journal.

Errors: :class:`VenueSimError` (an :class:`engine.errors.InvalidInputError`) for options
that do not fit; :class:`VenueRunError` (an :class:`engine.errors.DeviceError`) when a
process fails or the venue does not finish in time, naming the process and its last
error line.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import DeviceError, InvalidInputError
from pi_app.venue.broker import LocalBroker, free_port
from pi_app.venue.config import MAX_TABLES, VenueConfig, load_venue

TABLE_SEATS = 9         #: seats of each simulated table
STRUCTURE = "gunpowder"  #: the simulated venue's structure (10-minute levels, fast blinds)
RUN_TIMEOUT = 1800.0    #: seconds before a simulated venue gives up
STOP_WAIT = 30.0        #: seconds a process gets to stop by itself at the end


class VenueSimError(InvalidInputError):
    """Options of the simulated venue that do not fit (players for the seats, a broker
    without its venue file)."""


class VenueRunError(DeviceError):
    """A process of the simulated venue failed, or the venue did not finish in time."""


@dataclass
class VenueSimOptions:
    """``--tables``, ``--players`` (``P01``...), ``--seed``; ``broker`` and ``config``:
    an outside broker and the venue file its users were made from; ``live``: the director
    answers each table as it arrives (its clock on wall time) instead of in rounds;
    ``broker_port``: the loopback port of the venue's own broker when there is no outside
    one (0: a free port the kernel picks)."""

    tables: int = 3
    players: int = 24
    seed: int = 1
    broker: str | None = None
    config: str | None = None
    timeout: float = RUN_TIMEOUT
    live: bool = False  #: the live director (the benches), not the deterministic rounds
    broker_port: int = 0

    def check(self) -> None:
        if not 1 <= self.tables <= MAX_TABLES:
            raise VenueSimError(f"--tables must be 1..{MAX_TABLES}, got {self.tables}")
        if (self.broker is None) != (self.config is None):
            raise VenueSimError("--broker URL goes with --venue-config FILE (the venue its "
                                "users and passwords were made for)")
        seats = self.tables * TABLE_SEATS
        if self.config is None and not 2 <= self.players <= seats:
            raise VenueSimError(f"--players must be 2..{seats} for {self.tables} tables of "
                                f"{TABLE_SEATS}, got {self.players}")


def write_sim_venue(folder: Path, tables: int, seed: int, port: int,
                    seats: int = TABLE_SEATS) -> Path:
    """A venue.toml of ``tables`` tables in ``folder`` with a random password per user
    (files mode 600), the director's state in ``folder/director``, the break order 1..N."""
    keys = folder / "secrets"
    keys.mkdir(mode=0o700, parents=True, exist_ok=True)
    for user in ["director", *(f"table{n}" for n in range(1, tables + 1))]:
        fd = os.open(keys / f"{user}.password", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(24) + "\n")
    lines = ["[venue]", 'name = "Simulated venue"',
             "[broker]", f'url = "mqtt://127.0.0.1:{port}"',
             "[director]", 'username = "director"',
             'password_file = "secrets/director.password"', 'state_directory = "director"',
             "[tournament]", f'structure = "{STRUCTURE}"', f"seed = {seed}",
             f"break_order = {list(range(1, tables + 1))}"]
    for n in range(1, tables + 1):
        lines += [f"[tables.{n}]", f"seats = {seats}", f'username = "table{n}"',
                  f'password_file = "secrets/table{n}.password"']
    path = folder / "venue.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _cli() -> list[str]:
    return [sys.executable, "-m", "pi_app.cli.main"]


@dataclass
class SimVenue:
    """The processes of one simulated venue in ``folder``."""

    folder: Path
    opts: VenueSimOptions
    broker: LocalBroker | None = None
    director: subprocess.Popen[str] | None = None
    tables: dict[int, subprocess.Popen[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.opts.config is not None:
            self.path = Path(self.opts.config)
            self.venue: VenueConfig = load_venue(self.path)
            self.url = self.opts.broker or self.venue.broker_url
        else:
            port = self.opts.broker_port or free_port()
            self.path = write_sim_venue(self.folder, self.opts.tables, self.opts.seed, port)
            self.venue = load_venue(self.path)
            self.broker = LocalBroker(self.venue, self.folder / "broker", port=port)
            self.url = self.broker.url

    # ------------------------------------------------------------------ the pieces
    def start_broker(self) -> None:
        if self.broker is not None:
            self.broker.start()

    def start_director(self) -> subprocess.Popen[str]:
        """Start (or resume, from its journal) the director."""
        self.director = subprocess.Popen(
            [*_cli(), "director", "--config", str(self.path), "--sim-players",
             str(self.opts.players), "--seed", str(self.opts.seed),
             "--state-dir", str(self.folder / "director"),
             *([] if self.opts.live else ["--rounds"]),
             "--timeout", str(self.opts.timeout)],
            stdout=subprocess.PIPE, stderr=self._log("director"), text=True,
            start_new_session=True)
        return self.director

    def start_table(self, number: int, resume: bool = False) -> subprocess.Popen[str]:
        """Start table ``number`` (``resume``: from its journal, after a crash)."""
        journal = self.folder / f"table{number}.sqlite3"
        self.tables[number] = subprocess.Popen(
            [*_cli(), "sim", "--venue-table", str(number), "--venue-config", str(self.path),
             "--seed", str(self.opts.seed), "--journal", str(journal), "--broker", self.url,
             *(["--resume"] if resume else [])],
            stdout=subprocess.DEVNULL, stderr=self._log(f"table{number}"), text=True,
            start_new_session=True)
        return self.tables[number]

    def _log(self, name: str) -> Any:
        return open(self.folder / f"{name}.log", "a")  # noqa: SIM115 - the child keeps it

    def kill(self, proc: subprocess.Popen[str] | None) -> None:
        """SIGKILL ``proc`` (what a power cut does) and reap it."""
        if proc is not None and proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=STOP_WAIT)

    def start(self) -> None:
        self.start_broker()
        self.start_director()
        for table in self.venue.tables:
            self.start_table(table.number)

    def result(self) -> dict[str, Any]:
        """Wait for the director's result (its last stdout line), then for the tables."""
        assert self.director is not None
        try:
            out, _ = self.director.communicate(timeout=self.opts.timeout)
        except subprocess.TimeoutExpired:
            raise VenueRunError(f"the venue did not finish within {self.opts.timeout:.0f} s "
                                f"(logs in {self.folder})") from None
        if self.director.returncode != 0:
            raise VenueRunError(f"the director stopped with status "
                                f"{self.director.returncode}: {self._last_error('director')}")
        result = dict(json.loads(out.strip().splitlines()[-1]))
        deadline = time.monotonic() + STOP_WAIT
        for number, proc in sorted(self.tables.items()):
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.terminate()
                proc.wait(timeout=STOP_WAIT)
            if proc.returncode not in (0, -signal.SIGTERM):
                raise VenueRunError(f"table {number} stopped with status {proc.returncode}: "
                                    f"{self._last_error(f'table{number}')}")
        return result

    def _last_error(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        lines = path.read_text(errors="replace").strip().splitlines() if path.exists() else []
        return lines[-1][:300] if lines else "no message"

    def stop(self) -> None:
        """Stop whatever still runs (the tables and the director first, then the broker)."""
        for proc in [*self.tables.values(), self.director]:
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=STOP_WAIT)
                except subprocess.TimeoutExpired:
                    self.kill(proc)
        if self.director is not None and self.director.stdout is not None:
            self.director.stdout.close()
        if self.broker is not None:
            self.broker.stop()


def run_venue(opts: VenueSimOptions) -> dict[str, Any]:
    """Play a whole simulated venue to a winner and return its result.

    Raises:
        VenueSimError: options that do not fit.
        VenueRunError: a process failed, or no winner in ``opts.timeout`` seconds.
        BrokerError: Mosquitto is missing or does not start.
    """
    opts.check()
    previous = signal.signal(signal.SIGTERM, _interrupt)  # stop the children on SIGTERM too
    try:
        with tempfile.TemporaryDirectory(prefix="pokertable-venue-") as tmp:
            venue = SimVenue(Path(tmp), opts)
            try:
                venue.start()
                return venue.result()
            finally:
                venue.stop()
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt
